//! The step-time estimate beside the bubble (SPEC §12): step time split into compute, bubble
//! and exposed communication, and tokens per second per card. Always called an estimate, with
//! its assumptions one click away. Every figure comes from the report's `estimate`.

use leptos::prelude::*;
use parallel_core::explain::Figure;
use parallel_core::{Estimate, Seconds};

use crate::components::explain::{explain_button, figure_name};
use crate::format::{self, escape_markup};
use crate::i18n::{use_lang, Lang};
use crate::lab::{part, GridLab};
use crate::live::{live, Fill, Root};

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

/// The estimate figure's markup. The step time's "?" sits beside its number; each of the
/// others follows the name of the figure it explains, so no two "?" stand side by side with
/// nothing to tell them apart.
fn estimate_markup(lang: Lang, gpus: u32) -> String {
    let why = |figure| explain_button(lang, figure, gpus);
    let named = |figure| {
        format!(
            "<span class=\"why-item\">{} {}</span>",
            escape_markup(&figure_name(lang, figure)),
            why(figure)
        )
    };
    format!(
        "<h3 class=\"figure-title\">{}</h3>\
         <p><span class=\"big\" data-testid=\"estimate-step\" data-slot=\"step\"></span>\
         <span class=\"caption\">{}</span> {}</p>\
         <p class=\"secondary\" data-testid=\"estimate-split\" data-slot=\"split\"></p>\
         <p class=\"secondary\" data-testid=\"estimate-throughput\" data-slot=\"throughput\"></p>\
         <p class=\"secondary why\">{} · {} · {}</p>\
         <details class=\"assumptions\"><summary>{}</summary>\
         <p data-testid=\"estimate-assumptions\" data-slot=\"assumptions\"></p></details>",
        lang.pick("估算的每步时间", "Estimated step time"),
        lang.pick(" 估算", " estimate"),
        why(Figure::StepTime),
        named(Figure::Compute),
        named(Figure::TokensPerStep),
        named(Figure::Throughput),
        lang.pick("估算的假设", "What the estimate assumes"),
    )
}

/// What the estimate figure shows of `e`.
fn estimate_fills(lang: Lang, e: &Estimate, tflops: f64) -> Vec<Fill> {
    let seconds = |s: Seconds| Some(s.get().to_string());
    vec![
        Fill::attr("", "data-testid", Some("estimate".to_string())),
        Fill::attr("step", "data-seconds", seconds(e.step_s)),
        Fill::text("step", format::seconds(e.step_s)),
        Fill::attr("split", "data-compute", seconds(e.compute_s)),
        Fill::attr("split", "data-bubble", seconds(e.bubble_s)),
        Fill::attr("split", "data-exposed", seconds(e.exposed_comm_s)),
        Fill::text("split", split_text(lang, e)),
        Fill::attr(
            "throughput",
            "data-tokens-per-s",
            Some(e.tokens_per_s_per_gpu.to_string()),
        ),
        Fill::attr(
            "throughput",
            "data-tokens-per-step",
            Some(e.tokens_per_step.to_string()),
        ),
        Fill::text("throughput", throughput_text(lang, e)),
        Fill::text(
            "assumptions",
            text::ASSUMPTIONS.fill(
                lang,
                &[("tflops", &format::thousands(tflops.round() as u64))],
            ),
        ),
    ]
}

/// The estimate of the grid's plan; `tflops` is the plan's effective TFLOP/s per card.
#[component]
pub fn EstimateFigure(
    #[prop(into)] estimate: Signal<Estimate>,
    #[prop(into)] tflops: Signal<f64>,
    /// The grid whose figures the explanations open on.
    lab: GridLab,
) -> impl IntoView {
    let lang = use_lang();
    let gpus = lab.config.with_untracked(|c| c.gpus);
    let template = part(move || estimate_markup(lang.get(), gpus));
    let fills = part(move || estimate.with(|e| estimate_fills(lang.get(), e, tflops.get())));
    live(
        Root::Div,
        "figure estimate-figure",
        template,
        fills,
        Some(lab),
    )
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

    /// The visible text between each "?" button and the one before it: what a sighted reader
    /// has to tell the buttons apart.
    fn text_before_buttons(markup: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = markup;
        let mut before = String::new();
        while let Some(at) = rest.find("<button") {
            before.push_str(&rest[..at]);
            out.push(strip_tags(&before).trim().to_string());
            before.clear();
            rest = rest[at..].split_once("</button>").map_or("", |(_, r)| r);
        }
        out
    }

    fn strip_tags(markup: &str) -> String {
        let mut text = String::new();
        let mut in_tag = false;
        for c in markup.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => text.push(c),
                _ => {}
            }
        }
        text.replace('·', "")
    }

    #[test]
    fn every_why_button_follows_its_own_visible_words() {
        for lang in [Lang::Zh, Lang::En] {
            let before = text_before_buttons(&estimate_markup(lang, 8));
            assert_eq!(before.len(), 4, "{before:?}");
            for (i, text) in before.iter().enumerate() {
                assert!(
                    !text.is_empty(),
                    "{lang:?}: button {i} has nothing before it: {before:?}"
                );
                assert!(
                    !before[..i].contains(text),
                    "{lang:?}: two buttons follow the same words {text:?}"
                );
            }
        }
    }
}
