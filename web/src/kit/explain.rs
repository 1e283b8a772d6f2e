//! "Why is this number this?": a small button beside a computed figure that opens the core's
//! explanation of it (formula, the plan's values substituted, result, source). The
//! explanation is computed by `parallel_core::explain` only while the panel is open, from the
//! same plan and report the figure shows, so the two are one number.
//!
//! This module holds the figures' names and the panel ([`ExplanationPanel`]); the button that
//! opens it is `explain_button::ExplainButton`. Test hooks: the button is
//! `explain-<figure id>`, the open panel `explanation` with `data-result` equal to the
//! figure's own value attribute.

use leptos::html::Div;
use leptos::prelude::*;
use parallel_core::explain::{Explanation, Figure};
use parallel_core::Dim;

use crate::kit::i18n::{tr, use_lang, Lang};
use crate::kit::popover::placed_beside;
use crate::kit::vocab;
use crate::state::lab::GridLab;

/// The panel's sentences.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The button's accessible name.
        pub const EXPLAIN: Text = Text {
            zh: "这个数怎么来的：{figure}",
            en: "Where this number comes from: {figure}",
        };
    }
}

/// The figure's name in the page's language.
pub fn figure_name(lang: Lang, figure: Figure) -> String {
    let dim = |d: Dim| vocab::dim_traffic(lang, d);
    match figure {
        Figure::ModelStates => lang.pick("模型状态", "model states").into(),
        Figure::Activations => lang.pick("激活", "activations").into(),
        Figure::Runtime => lang
            .pick(
                "运行时显存（上下文、缓冲、预留）",
                "runtime memory (context, buffer, reserve)",
            )
            .into(),
        Figure::Total => lang.pick("每卡合计", "total per card").into(),
        Figure::Dp => lang.pick("数据并行度 DP", "data-parallel degree DP").into(),
        Figure::Traffic(d) => format!(
            "{} {}",
            dim(d),
            lang.pick("每卡每步字节", "bytes per card per step")
        ),
        Figure::TrafficTime(d) => {
            format!("{} {}", dim(d), lang.pick("通信时间", "communication time"))
        }
        Figure::BubbleRatio => lang.pick("气泡比", "bubble ratio").into(),
        Figure::BubbleShare => lang.pick("气泡占整步", "bubble's share of the step").into(),
        Figure::TokensPerStep => lang.pick("每步 token 数", "tokens per step").into(),
        Figure::StepTime => lang.pick("估算的每步时间", "estimated step time").into(),
        Figure::Compute => lang.pick("估算的计算时间", "estimated compute time").into(),
        Figure::Throughput => lang
            .pick("每卡每秒 token 数", "tokens per second per card")
            .into(),
        Figure::CommTime(d) => format!(
            "{} {}",
            dim(d),
            lang.pick(
                "在估算里的时间（含延迟）",
                "time in the estimate (latency included)"
            )
        ),
        Figure::Latency => lang
            .pick("未掩盖通信里的延迟", "latency in the exposed communication")
            .into(),
        Figure::Roofline => lang.pick("屋顶线放慢倍数", "roofline slowdown").into(),
        Figure::Mfu => lang
            .pick("MFU（模型算力利用率）", "MFU (model FLOPs utilisation)")
            .into(),
        Figure::KernelGemm => lang.pick("GEMM 的时间", "GEMMs' time").into(),
        Figure::KernelAttention => lang
            .pick("注意力内核的时间", "attention kernel's time")
            .into(),
        Figure::KernelMemory => lang
            .pick("访存型内核的时间", "memory-bound kernels' time")
            .into(),
        Figure::Optimizer => lang
            .pick("优化器更新的时间", "optimizer step's time")
            .into(),
        Figure::HostPerGpu => lang
            .pick(
                "每卡占的主机内存（CPU Adam）",
                "host memory per card (CPU Adam)",
            )
            .into(),
        Figure::HostPerNode => lang
            .pick("最满一台机的主机内存", "host memory of the fullest node")
            .into(),
        Figure::RolloutWeights => lang
            .pick("推理引擎每卡权重", "inference engine weights per card")
            .into(),
        Figure::RolloutKv => lang
            .pick("推理引擎每卡 KV cache", "KV cache per rollout card")
            .into(),
        Figure::RolloutTotal => lang.pick("推理每卡合计", "total per rollout card").into(),
        Figure::RolloutPeak => lang
            .pick(
                "训练与推理中每卡的峰值",
                "a card's peak over training and rollout",
            )
            .into(),
        Figure::RoutingExcess => lang
            .pick(
                "最热专家所在卡多占的显存",
                "what the hottest expert's card holds beyond an even split",
            )
            .into(),
        Figure::RoutingWait => lang
            .pick(
                "最忙的 EP rank 让这一步多算的时间",
                "what the busiest EP rank adds to the step's compute",
            )
            .into(),
    }
}

/// The explanation of `figure` on `lab`'s plan as the grid shows it (traffic with the
/// selected card's own links).
pub fn explanation_of(lab: GridLab, figure: Figure) -> Option<Explanation> {
    lab.plan.with(|plan| {
        lab.report.with(|report| {
            let traffic = lab.traffic.get();
            let shown = parallel_core::Report {
                comm: traffic,
                ..report.clone()
            };
            plan.explain(figure, &shown)
        })
    })
}

/// The button's accessible name.
pub fn button_label(lang: Lang, figure: Figure) -> String {
    text::EXPLAIN.fill(lang, &[("figure", &figure_name(lang, figure))])
}

/// What the panel shows of the core's explanation: its own copy, so that a move that leaves
/// the explanation as it was writes nothing.
#[derive(Clone, Debug, PartialEq)]
struct Shown {
    formula: String,
    substituted: String,
    result: f64,
    shown: String,
    source: &'static str,
}

impl Shown {
    fn of(e: Explanation) -> Shown {
        Shown {
            formula: e.formula,
            substituted: e.substituted,
            result: e.result,
            shown: e.shown,
            source: e.source,
        }
    }
}

/// The open panel of `figure`: formula, values substituted, result and source of the core's
/// explanation on `lab`'s plan (computed while the panel is there, again when the plan
/// changes), and a close button that calls `on_close`. `data-result` is the figure's value,
/// for the tests to compare with the figure's own attribute.
#[component]
pub fn ExplanationPanel(figure: Figure, lab: GridLab, on_close: Callback<()>) -> impl IntoView {
    let lang = use_lang();
    let gpus = lab.config.with_untracked(|c| c.gpus);
    let explained = Memo::new(move |_| explanation_of(lab, figure).map(Shown::of));
    let panel = NodeRef::<Div>::new();
    let at = placed_beside(panel, |panel| {
        panel
            .parent_element()?
            .query_selector(".explain-button")
            .ok()
            .flatten()
    });
    let body = move || {
        let lang = lang.get();
        match explained.get() {
            Some(e) => view! {
                <dl>
                    <dt>{lang.pick("公式", "Formula")}</dt>
                    <dd class="formula" data-testid="explanation-formula">{e.formula}</dd>
                    <dt>{lang.pick("代入这套方案", "With this plan's values")}</dt>
                    <dd class="formula" data-testid="explanation-substituted">{e.substituted}</dd>
                    <dt>{lang.pick("结果", "Result")}</dt>
                    <dd data-testid="explanation-shown">{e.shown}</dd>
                    <dt>{lang.pick("出处", "Source")}</dt>
                    <dd>{e.source}</dd>
                </dl>
            }
            .into_any(),
            None => view! {
                <p>{lang.pick("这套方案里没有这一项。", "This plan has no such figure.")}</p>
            }
            .into_any(),
        }
    };
    view! {
        <div
            class="explanation"
            node_ref=panel
            popover="manual"
            style:top=move || at.get().map(|p| format!("{}px", p.top))
            style:left=move || at.get().map(|p| format!("{}px", p.left))
            role="dialog"
            aria-modal="false"
            id=panel_id(figure, gpus)
            aria-label=move || figure_name(lang.get(), figure)
            data-testid="explanation"
            data-figure=figure.id()
            data-result=move || explained.with(|e| e.as_ref().map(|e| e.result.to_string()))
        >
            {body}
            <button type="button" class="small" data-close="" on:click=move |_| on_close.run(())>
                {tr("关闭（Esc）", "Close (Esc)")}
            </button>
        </div>
    }
}

/// The id of `figure`'s panel, which its button controls (`gpus` tells the two grids' panels
/// apart).
pub(crate) fn panel_id(figure: Figure, gpus: u32) -> String {
    format!("explain-panel-{}-{gpus}", figure.id())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        assert_each_lang_uses_all(text::ALL, |lang| {
            button_label(lang, Figure::ModelStates);
        });
        assert_eq!(
            figure_name(Lang::En, Figure::Traffic(Dim::Tp)),
            "TP bytes per card per step"
        );
        assert_eq!(
            figure_name(Lang::Zh, Figure::TrafficTime(Dim::Dp)),
            "DP（含 ZeRO） 通信时间"
        );
    }
}
