//! The Parallel Lab page: a Leptos (client-side rendered) app over `parallel-core`.
//!
//! State lives in two [`lab::GridLab`]s (the 8-GPU machine and the 64-GPU cluster) holding a
//! `PlanConfig` each; every figure is derived from the core through memos and only formatted
//! here. Text comes in pairs (中文, English), see [`i18n`].

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::panic))]

pub mod charts;
pub mod components;
pub mod format;
pub mod i18n;
pub mod lab;
pub mod sections;

use leptos::prelude::*;
use parallel_core::PlanConfig;

use crate::i18n::{provide_lang, Lang, T};
use crate::lab::GridLab;
use crate::sections::cluster::Cluster;
use crate::sections::counting_note::CountingNote;
use crate::sections::decisions::Decisions;
use crate::sections::evolution::EvolutionMap;
use crate::sections::intro::Intro;
use crate::sections::one_machine::OneMachine;
use crate::sections::real_configs::RealConfigs;

/// The language switch: shows the language it switches to.
#[component]
pub fn LangToggle() -> impl IntoView {
    let lang = i18n::use_lang();
    let set = use_context::<i18n::LangContext>();
    view! {
        <button
            type="button"
            class="lang-toggle"
            data-testid="lang-toggle"
            aria-label=move || lang.get().pick("Switch to English", "切换到中文")
            on:click=move |_| {
                if let Some(i18n::LangContext(signal)) = set {
                    signal.update(|l| *l = l.toggled());
                }
            }
        >
            <span class:current=move || lang.get() == Lang::Zh>"中文"</span>
            " / "
            <span class:current=move || lang.get() == Lang::En>"English"</span>
        </button>
    }
}

/// The whole page. `main.rs` mounts it on `<body>`.
#[component]
pub fn App() -> impl IntoView {
    let lang = provide_lang(Lang::Zh);
    Effect::new(move |_| {
        let lang = lang.get();
        let document = document();
        if let Some(root) = document.document_element() {
            let _ = root.set_attribute("lang", lang.tag());
        }
        document.set_title(lang.pick(
            "并行实验室 · 一张卡不够怎么办",
            "Parallel Lab · when one card is not enough",
        ));
    });
    let lab8 = GridLab::new(PlanConfig::lesson_8_gpus());
    let lab64 = GridLab::new(PlanConfig::lesson_64_gpus());
    view! {
        <header class="page-header">
            <div class="brand">
                <p class="kicker"><T zh="从 0 训练 LLM · 实验课" en="Training an LLM from scratch · lab" /></p>
                <h1><T zh="并行实验室：给锚点配一套并行方案" en="Parallel Lab: a parallel plan for the anchor model" /></h1>
            </div>
            <LangToggle />
        </header>
        <main class="page">
            <Intro />
            <OneMachine lab=lab8 />
            <Cluster lab=lab64 />
            <RealConfigs />
            <Decisions lab8=lab8 lab64=lab64 />
            <EvolutionMap />
            <CountingNote />
        </main>
    }
}
