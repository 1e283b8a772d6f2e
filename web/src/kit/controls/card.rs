//! The card picker's options and the grid's card in numbers, with the datasheet they come
//! from.

use leptos::prelude::*;
use parallel_core::hardware::Hardware;

use crate::kit::i18n::{use_lang, T};
use crate::state::lab::{part, GridLab};

/// The card picker's options: the lesson's card, then the presets by name (中文, English); the
/// grid's picker and the search's form both offer these.
pub(crate) fn card_options() -> Vec<(Hardware, &'static str, &'static str)> {
    Hardware::ALL
        .iter()
        .map(|h| match h {
            Hardware::Lesson => (*h, "课上的卡", "the lesson's card"),
            _ => (*h, h.name(), h.name()),
        })
        .collect()
}

/// The grid's card in numbers (memory, HBM, peak and effective rate, links), with the
/// datasheet it comes from.
#[component]
pub(super) fn CardFacts(lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let card = part(move || lab.plan.with(|p| p.config().clone()));
    let number = |x: f64| parallel_core::formula::Show::Count.write(x);
    let line = move || {
        card.with(|c| {
            format!(
                "{} GB · HBM {} TB/s · {} {} TFLOP/s ({} {}) · NVLink {} GB/s · {} {} GB/s",
                number(c.gpu_memory_gb),
                number(c.hbm_tbps),
                lang.get().pick("峰值", "peak"),
                number(c.peak_tflops),
                lang.get().pick("有效", "effective"),
                number(c.gpu_tflops),
                number(c.nvlink_gbps),
                lang.get().pick("网络", "network"),
                number(c.ib_gbps),
            )
        })
    };
    let source = move || card.with(|c| c.hardware.card().source);
    view! {
        <div class="control-note card-facts" data-testid="card-facts">
            <span>{line}</span>
            <details>
                <summary><T zh="数据出处" en="Source" /></summary>
                <p lang="en">{source}</p>
            </details>
        </div>
    }
}
