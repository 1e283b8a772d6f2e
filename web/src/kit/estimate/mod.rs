//! The step-time estimate beside the bubble (SPEC §12, §17, §18): step time split into compute,
//! bubble and exposed communication, the latency in it, the roofline factor (on a card with
//! measured kernel tables, the kernel slowdown, and compute split into GEMMs, attention and
//! memory-bound kernels, with the optimizer step), each dimension's α–β time, tokens per
//! second per card and MFU. Always called an estimate, with its assumptions one click away.
//! Every figure comes from the report's `estimate` and the core's per-dimension times.

use leptos::prelude::*;
use parallel_core::estimate::{
    CommTime, KernelSplit, MEGATRON_BUCKET_PARAMS, MEGATRON_BUCKET_PARAMS_PER_RANK,
};
use parallel_core::explain::Figure;
use parallel_core::hardware::NCCL_RING_PLATEAU;
use parallel_core::kernels::{Kernels, Provenance};
use parallel_core::numbers::millions;
use parallel_core::{Estimate, PlanConfig, Seconds};

use crate::kit::dim_rows::dim_rows;
use crate::kit::explain::figure_name;
use crate::kit::explain_button::ExplainButton;
use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::state::lab::{part, GridLab};

/// The figure's sentences.
mod text;

/// "compute 17.64 s + bubble 0.0 ms + exposed communication 0.0 ms".
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

/// "latency 14.3 ms of it · roofline ×1 · MFU 44.9%" ("kernel slowdown" on a card with
/// measured kernel tables).
fn extra_text(lang: Lang, e: &Estimate) -> String {
    let sentence = if e.kernels.is_some() {
        text::EXTRA_KERNELS
    } else {
        text::EXTRA
    };
    sentence.fill(
        lang,
        &[
            ("latency", &format::seconds(e.latency_s)),
            (
                "roofline",
                &parallel_core::formula::Show::Count.write(e.roofline_factor),
            ),
            ("mfu", &parallel_core::numbers::percent(e.mfu)),
        ],
    )
}

/// "of which GEMMs 8.79 s · attention 641.1 ms · memory-bound 426.0 ms; optimizer 204.5 ms".
fn kernels_text(lang: Lang, k: &KernelSplit) -> String {
    text::KERNELS.fill(
        lang,
        &[
            ("gemm", &format::seconds(k.gemm_s)),
            ("attention", &format::seconds(k.attention_s)),
            ("memory", &format::seconds(k.memory_bound_s)),
            ("optimizer", &format::seconds(k.optimizer_s)),
        ],
    )
}

/// Where a card's kernel tables come from, in one sentence with the rule's numbers.
fn tables_text(lang: Lang, c: &PlanConfig, k: &Kernels) -> String {
    use parallel_core::kernels::{H200_COPY_TBPS, H200_GEMM_8192_TFLOPS, H200_HBM_TBPS};
    let number = |x: f64| parallel_core::formula::Show::Count.write(x);
    let sentence = match (k.provenance, k.own_attention) {
        (Provenance::Measured, _) => return text::TABLES_MEASURED.get(lang).to_string(),
        (Provenance::Borrowed, false) => text::TABLES_BORROWED,
        (Provenance::Borrowed, true) => text::TABLES_BORROWED_ATTENTION,
    };
    sentence.fill(
        lang,
        &[
            ("tflops", &number(c.gpu_tflops)),
            ("h200", &number(H200_GEMM_8192_TFLOPS)),
            ("hbm", &number(c.hbm_tbps)),
            ("h200_copy", &number(H200_COPY_TBPS)),
            ("h200_hbm", &number(H200_HBM_TBPS)),
        ],
    )
}

/// The assumptions with the card's own numbers: SPEC §18's kernels on a card with measured
/// tables, §17's flat rate and roofline on the lesson's card.
fn assumptions_text(lang: Lang, c: &PlanConfig) -> String {
    let number = |x: f64| parallel_core::formula::Show::Count.write(x);
    let [recompute, tp_bytes, cp_bytes, bucket, backward] = format::estimate_factors();
    if let Some(k) = Kernels::of(c) {
        return text::ASSUMPTIONS_KERNELS.fill(
            lang,
            &[
                ("copy", &number(k.copy_tbps)),
                ("tables", &tables_text(lang, c, &k)),
                ("call_us", &number(c.hardware.card().call_latency_us)),
                ("plateau", &number(NCCL_RING_PLATEAU)),
                ("nvlink_us", &number(c.nvlink_latency_us)),
                ("ib_us", &number(c.ib_latency_us)),
                ("tflops", &number(c.gpu_tflops)),
                ("peak", &number(c.peak_tflops)),
                ("tp_bytes", &tp_bytes),
                ("cp_bytes", &cp_bytes),
                ("bucket_min", &millions(MEGATRON_BUCKET_PARAMS)),
                ("bucket_rank", &millions(MEGATRON_BUCKET_PARAMS_PER_RANK)),
                ("backward", &backward),
            ],
        );
    }
    text::ASSUMPTIONS.fill(
        lang,
        &[
            ("tflops", &number(c.gpu_tflops)),
            ("hbm", &number(c.hbm_tbps)),
            ("nvlink_us", &number(c.nvlink_latency_us)),
            ("ib_us", &number(c.ib_latency_us)),
            ("peak", &number(c.peak_tflops)),
            ("recompute", &recompute),
            ("tp_bytes", &tp_bytes),
            ("cp_bytes", &cp_bytes),
            ("bucket", &bucket),
            ("backward", &backward),
        ],
    )
}

/// Seconds as a `data-*` attribute carries them: the number, for the tests.
fn seconds(s: Seconds) -> String {
    s.get().to_string()
}

/// The estimate of the grid's plan; `card` is the plan's config (its card's numbers), `times`
/// each dimension's α–β time. The step time's "?" sits beside its number; each of the others
/// follows the name of the figure it explains, so no two "?" stand side by side with nothing
/// to tell them apart.
#[component]
pub fn EstimateFigure(
    #[prop(into)] estimate: Signal<Estimate>,
    #[prop(into)] card: Signal<PlanConfig>,
    #[prop(into)] times: Signal<Vec<CommTime>>,
    /// The grid whose figures the explanations open on.
    lab: GridLab,
) -> impl IntoView {
    let lang = use_lang();
    // Every text and attribute read from the estimate is one kind of closure, so the view
    // compiles one way of keeping them current.
    let show =
        move |read: fn(&Estimate, Lang) -> String| move || estimate.with(|e| read(e, lang.get()));
    // Whether the card has measured kernel tables (SPEC §18): the kernels' line and their
    // buttons are shown, and the roofline is called the kernel slowdown.
    let has_kernels = part(move || estimate.with(|e| e.kernels.is_some()));
    let named = move |figure: Figure| {
        let name = move || {
            let lang = lang.get();
            if figure == Figure::Roofline && has_kernels.get() {
                text::SLOWDOWN.get(lang).to_string()
            } else {
                figure_name(lang, figure)
            }
        };
        view! {
            <span class="why-item">
                {name}
                " "
                <ExplainButton figure=figure lab=lab />
            </span>
        }
    };
    // A kernel term's seconds as its `data-value` carries them (empty without tables).
    let kernel = move |read: fn(&KernelSplit) -> Seconds| {
        move || estimate.with(|e| e.kernels.map(|k| seconds(read(&k))).unwrap_or_default())
    };
    let assumptions = move || card.with(|c| assumptions_text(lang.get(), c));
    // One row per dimension, kept while the plan has it (keyed by the dimension, as the
    // traffic rows are); its numbers read from the times as they change.
    let dim_row = move |dim: parallel_core::Dim| {
        let time = Memo::new(move |_| times.with(|ts| ts.iter().find(|t| t.dim == dim).copied()));
        let read = move |f: fn(&CommTime) -> Seconds| {
            move || time.get().map(|t| seconds(f(&t))).unwrap_or_default()
        };
        let line = move || {
            let lang = lang.get();
            time.get().map(|t| {
                text::DIM_TIME.fill(
                    lang,
                    &[
                        ("dim", &crate::kit::vocab::dim(lang, t.dim)),
                        ("seconds", &format::seconds(t.seconds)),
                        ("latency", &format::seconds(t.latency)),
                    ],
                )
            })
        };
        view! {
            <li data-testid=format!("estimate-{}", dim.as_str()) data-seconds=read(|t| t.seconds)
                data-latency=read(|t| t.latency)>
                {line}" "<ExplainButton figure=Figure::CommTime(dim) lab=lab />
            </li>
        }
    };
    let dims = part(move || times.with(|ts| ts.iter().map(|t| t.dim).collect::<Vec<_>>()));
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
            <Show when=move || has_kernels.get()>
                <p class="secondary" data-testid="estimate-kernels"
                    data-borrowed=show(|e, _| e.kernels.map(|k| k.borrowed.to_string()).unwrap_or_default())>
                    {show(|e, lang| e.kernels.map(|k| kernels_text(lang, &k)).unwrap_or_default())}
                </p>
            </Show>
            <p class="secondary" data-testid="estimate-throughput"
                data-tokens-per-s=show(|e, _| e.tokens_per_s_per_gpu.to_string())
                data-tokens-per-step=show(|e, _| e.tokens_per_step.to_string())>
                {show(|e, lang| throughput_text(lang, e))}
            </p>
            <p class="secondary" data-testid="estimate-extra">
                <span data-testid="estimate-latency" data-seconds=show(|e, _| seconds(e.latency_s))
                    data-roofline=show(|e, _| e.roofline_factor.to_string())
                    data-mfu=show(|e, _| e.mfu.to_string())>
                    {show(|e, lang| extra_text(lang, e))}
                </span>
            </p>
            <ul class="secondary estimate-dims" data-testid="estimate-dims">
                {dim_rows(dims, dim_row)}
            </ul>
            <p class="secondary why">
                {named(Figure::Compute)}
                " · "
                {named(Figure::TokensPerStep)}
                " · "
                {named(Figure::Throughput)}
                " · "
                {named(Figure::Latency)}
                " · "
                <span data-testid="estimate-roofline" data-value=show(|e, _| e.roofline_factor.to_string())>
                    {named(Figure::Roofline)}
                </span>
                " · "
                <span data-testid="estimate-mfu" data-value=show(|e, _| e.mfu.to_string())>
                    {named(Figure::Mfu)}
                </span>
                <Show when=move || has_kernels.get()>
                    " · "
                    <span data-testid="estimate-gemm" data-value=kernel(|k| k.gemm_s)>
                        {named(Figure::KernelGemm)}
                    </span>
                    " · "
                    <span data-testid="estimate-attention" data-value=kernel(|k| k.attention_s)>
                        {named(Figure::KernelAttention)}
                    </span>
                    " · "
                    <span data-testid="estimate-memory-bound" data-value=kernel(|k| k.memory_bound_s)>
                        {named(Figure::KernelMemory)}
                    </span>
                    " · "
                    <span data-testid="estimate-optimizer" data-value=kernel(|k| k.optimizer_s)>
                        {named(Figure::Optimizer)}
                    </span>
                </Show>
            </p>
            <details class="assumptions">
                <summary><T zh="估算的假设" en="What the estimate assumes" /></summary>
                <p data-testid="estimate-assumptions">{assumptions}</p>
            </details>
        </div>
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;
    use parallel_core::hardware::Hardware;
    use parallel_core::{Plan, PlanConfig};

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let e = Plan::new(&PlanConfig::lesson_8_gpus()).unwrap().estimate();
        assert_each_lang_uses_all(text::ALL, |lang| {
            split_text(lang, &e);
            throughput_text(lang, &e);
            extra_text(lang, &e);
            text::DIM_TIME.fill(
                lang,
                &[("dim", &"TP"), ("seconds", &"1 s"), ("latency", &"1 ms")],
            );
            assumptions_text(lang, &PlanConfig::default());
            for card in [Hardware::H200, Hardware::B200, Hardware::A100] {
                let e = Plan::new(&PlanConfig::on(card)).unwrap().estimate();
                extra_text(lang, &e);
                kernels_text(lang, &e.kernels.unwrap());
                assumptions_text(lang, &PlanConfig::on(card));
            }
            text::SLOWDOWN.get(lang);
        });
        assert_eq!(
            split_text(Lang::En, &e),
            "compute 17.64 s + bubble 0.0 ms + exposed communication 0.0 ms"
        );
        assert_eq!(
            throughput_text(Lang::En, &e),
            "1,858 tokens per second per card (262,144 per step)"
        );
    }

    #[test]
    fn a_card_with_kernel_tables_says_so_and_the_lesson_card_does_not() {
        // The lesson's card: no kernel terms, §17's words.
        let lesson = Plan::new(&PlanConfig::lesson_8_gpus()).unwrap().estimate();
        assert!(lesson.kernels.is_none());
        assert!(extra_text(Lang::En, &lesson).contains("roofline ×"));
        let words = assumptions_text(Lang::En, &PlanConfig::default());
        assert!(words.contains("max(1, R/T_l)") && !words.contains("H200"));
        // The H200: its own tables, the kernel slowdown, every term written as the core's.
        let config = PlanConfig::on(Hardware::H200);
        let e = Plan::new(&config).unwrap().estimate();
        let k = e.kernels.unwrap();
        assert!(!k.borrowed);
        assert!(extra_text(Lang::En, &e).contains("kernel slowdown ×"));
        assert!(extra_text(Lang::Zh, &e).contains("内核放慢 ×"));
        let line = kernels_text(Lang::En, &k);
        for (term, value) in [
            ("GEMMs ", k.gemm_s),
            ("attention ", k.attention_s),
            ("memory-bound ", k.memory_bound_s),
            ("optimizer ", k.optimizer_s),
        ] {
            assert!(line.contains(&format!("{term}{value}")), "{line}");
        }
        let words = assumptions_text(Lang::En, &config);
        assert!(words.contains("measured on one H200") && words.contains("as they are"));
        assert!(!words.contains("R/T_l"));
        // The B200 borrows by the one rule, with its own numbers in the sentence.
        let b200 = PlanConfig::on(Hardware::B200);
        let words = assumptions_text(Lang::En, &b200);
        assert!(words.contains("borrows the H200's by one rule"), "{words}");
        assert!(words.contains(&parallel_core::formula::Show::Count.write(b200.gpu_tflops)));
        assert!(assumptions_text(Lang::En, &PlanConfig::on(Hardware::A100))
            .contains("FlashAttention-2"));
    }
}
