//! The step-time estimate beside the bubble (SPEC §12): step time split into compute, bubble
//! and exposed communication, and tokens per second per card. Always called an estimate, with
//! its assumptions one click away. Every figure comes from the report's `estimate`.

use leptos::prelude::*;
use parallel_core::explain::Figure;
use parallel_core::{Estimate, Seconds};

use crate::components::explain::figure_name;
use crate::components::explain_button::ExplainButton;
use crate::format;
use crate::i18n::{use_lang, Lang, T};
use crate::lab::GridLab;

/// The figure's sentences.
mod text {
    use crate::text::Text;

    /// How the step is split.
    pub const SPLIT: Text = Text {
        zh: "计算 {compute} + 气泡 {bubble} + 未被掩盖的通信 {comm}",
        en: "compute {compute} + bubble {bubble} + exposed communication {comm}",
    };
    /// Throughput per card.
    pub const THROUGHPUT: Text = Text {
        zh: "每卡每秒 {tokens} 个 token（每步 {per_step} 个）",
        en: "{tokens} tokens per second per card ({per_step} per step)",
    };
    /// The assumptions, at this plan's throughput.
    pub const ASSUMPTIONS: Text = Text {
        zh: "这是估算，不是测量。FLOPs = (6·P_act + 6·F·a·head_dim·s)·T，全量重计算再 ×4/3；\
             计算时间 = FLOPs ÷ (N × 每卡 {tflops} TFLOP/s 的有效算力)；气泡 = 计算 × (p−1)/(v·m)；\
             TP、CP、EP、PP 的通信都在关键路径上，按链路满带宽计、不计延迟；DP 与专家 DP 的通信\
             只能藏在反向传播（计算的 2/3）后面，藏不住的部分才计入。",
        en: "An estimate, not a measurement. FLOPs = (6·P_act + 6·F·a·head_dim·s)·T, × 4/3 with \
             full recompute; compute = FLOPs ÷ (N × an effective {tflops} TFLOP/s per card); \
             bubble = compute × (p−1)/(v·m); TP, CP, EP and PP traffic sit on the critical path \
             at full link bandwidth, no latency; DP and expert-DP traffic can hide only behind \
             the backward pass (2/3 of compute), and only what does not is counted.",
    };

    #[cfg(test)]
    pub const ALL: &[&Text] = &[&SPLIT, &THROUGHPUT, &ASSUMPTIONS];
}

/// "compute 18.47 s + bubble 0.0 ms + exposed communication 0.0 ms".
fn split_text(lang: Lang, e: &Estimate) -> String {
    text::SPLIT.fill(
        lang,
        &[
            ("compute", &format::seconds(e.compute_s)),
            ("bubble", &format::seconds(e.bubble_s)),
            ("comm", &format::seconds(e.exposed_comm_s)),
        ],
    )
}

fn throughput_text(lang: Lang, e: &Estimate) -> String {
    text::THROUGHPUT.fill(
        lang,
        &[
            (
                "tokens",
                &format::thousands(e.tokens_per_s_per_gpu.round() as u64),
            ),
            ("per_step", &format::thousands(e.tokens_per_step as u64)),
        ],
    )
}

/// Seconds as a `data-*` attribute carries them: the number, for the tests.
fn seconds(s: Seconds) -> String {
    s.get().to_string()
}

/// The estimate of the grid's plan; `tflops` is the plan's effective TFLOP/s per card. The
/// step time's "?" sits beside its number; each of the others follows the name of the figure
/// it explains, so no two "?" stand side by side with nothing to tell them apart.
#[component]
pub fn EstimateFigure(
    #[prop(into)] estimate: Signal<Estimate>,
    #[prop(into)] tflops: Signal<f64>,
    /// The grid whose figures the explanations open on.
    lab: GridLab,
) -> impl IntoView {
    let lang = use_lang();
    // Every text and attribute read from the estimate is one kind of closure, so the view
    // compiles one way of keeping them current.
    let show =
        move |read: fn(&Estimate, Lang) -> String| move || estimate.with(|e| read(e, lang.get()));
    let named = move |figure: Figure| {
        view! {
            <span class="why-item">
                {move || figure_name(lang.get(), figure)}
                " "
                <ExplainButton figure=figure lab=lab />
            </span>
        }
    };
    let assumptions = move || {
        let tflops = format::thousands(tflops.get().round() as u64);
        text::ASSUMPTIONS.fill(lang.get(), &[("tflops", &tflops)])
    };
    view! {
        <div class="figure estimate-figure" data-testid="estimate">
            <h3 class="figure-title"><T zh="估算的每步时间" en="Estimated step time" /></h3>
            <p>
                <span class="big" data-testid="estimate-step" data-seconds=show(|e, _| seconds(e.step_s))>
                    {show(|e, _| format::seconds(e.step_s))}
                </span>
                <span class="caption"><T zh=" 估算" en=" estimate" /></span>
                " "
                <ExplainButton figure=Figure::StepTime lab=lab />
            </p>
            <p class="secondary" data-testid="estimate-split"
                data-compute=show(|e, _| seconds(e.compute_s))
                data-bubble=show(|e, _| seconds(e.bubble_s))
                data-exposed=show(|e, _| seconds(e.exposed_comm_s))>
                {show(|e, lang| split_text(lang, e))}
            </p>
            <p class="secondary" data-testid="estimate-throughput"
                data-tokens-per-s=show(|e, _| e.tokens_per_s_per_gpu.to_string())
                data-tokens-per-step=show(|e, _| e.tokens_per_step.to_string())>
                {show(|e, lang| throughput_text(lang, e))}
            </p>
            <p class="secondary why">
                {named(Figure::Compute)}
                " · "
                {named(Figure::TokensPerStep)}
                " · "
                {named(Figure::Throughput)}
            </p>
            <details class="assumptions">
                <summary><T zh="估算的假设" en="What the estimate assumes" /></summary>
                <p data-testid="estimate-assumptions">{assumptions}</p>
            </details>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parallel_core::{Plan, PlanConfig};

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let e = Plan::new(&PlanConfig::lesson_8_gpus()).unwrap().estimate();
        crate::text::testing::assert_all_used(text::ALL, || {
            for lang in [Lang::Zh, Lang::En] {
                split_text(lang, &e);
                throughput_text(lang, &e);
                text::ASSUMPTIONS.fill(lang, &[("tflops", &"400")]);
            }
        });
        assert_eq!(
            split_text(Lang::En, &e),
            "compute 18.47 s + bubble 0.0 ms + exposed communication 0.0 ms"
        );
        assert_eq!(
            throughput_text(Lang::En, &e),
            "1,774 tokens per second per card (262,144 per step)"
        );
    }
}
