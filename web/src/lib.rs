//! The Parallel Lab page: a Leptos (client-side rendered) app over `parallel-core`.
//!
//! State lives in two [`lab::GridLab`]s (the 8-GPU machine and the 64-GPU cluster) holding a
//! `PlanConfig` each; every figure is derived from the core through memos and only formatted
//! here. Text comes in pairs (中文, English), see [`i18n`].

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::panic))]

pub mod charts;
pub mod components;
pub mod embed;
pub mod error_text;
pub mod format;
pub mod i18n;
pub mod input;
pub mod js_api;
pub mod lab;
pub mod landing;
pub mod later;
pub mod offline;
pub mod permalink;
pub mod sections;
pub mod start;
pub mod text;
pub mod vocab;

use leptos::prelude::*;

use crate::components::share::{CopyLink, LinkNotice};
use crate::i18n::{Lang, T};
use crate::later::{Later, LaterParts, Piece};
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
            title=move || lang.get().pick("Switch to English", "切换到中文")
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
///
/// The state starts from the URL (`permalink`): a link restores both grids, the selected
/// cards, the section and the language; `embed=WIDGET` shows that widget alone.
#[component]
pub fn App() -> impl IntoView {
    let (page, state) = start::start_page();
    let (lab8, lab64) = (page.lab8, page.lab64);
    if let Some(widget) = state.embed {
        return embed::embedded(page, widget);
    }
    permalink::track_section(page.section);
    // A link to a section draws the whole page at once, so the scroll lands on its place.
    let later = LaterParts::new(state.section.is_some());
    provide_context(later);
    if let Some(section) = state.section {
        permalink::scroll_to(section);
    } else {
        later.draw_after_first_frame();
    }
    view! {
        <header class="page-header">
            <div class="brand">
                <p class="kicker"><T zh="从 0 训练 LLM · 实验课" en="Training an LLM from scratch · lab" /></p>
                <h1><T zh="并行实验室：给锚点配一套并行方案" en="Parallel Lab: a parallel plan for the anchor model" /></h1>
            </div>
            <div class="header-actions">
                <CopyLink page=page />
                <LangToggle />
            </div>
        </header>
        <LinkNotice page=page />
        <main class="page">
            <Intro />
            <OneMachine lab=lab8 />
            <Cluster lab=lab64 />
            <Later piece=Piece::RealConfigs><RealConfigs /></Later>
            <Later piece=Piece::Decisions><Decisions lab8=lab8 lab64=lab64 /></Later>
            <Later piece=Piece::Evolution><EvolutionMap /></Later>
            <Later piece=Piece::CountingNote><CountingNote /></Later>
        </main>
    }
    .into_any()
}
