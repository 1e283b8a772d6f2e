//! The step-time estimate beside the bubble (SPEC §12, §17): step time split into compute,
//! bubble and exposed communication, the latency in it, the roofline factor, each dimension's
//! α–β time, tokens per second per card and MFU. Always called an estimate, with its
//! assumptions one click away. Every figure comes from the report's `estimate` and the core's
//! per-dimension times.

use leptos::prelude::*;
use parallel_core::estimate::CommTime;
use parallel_core::explain::Figure;
use parallel_core::{Estimate, PlanConfig, Seconds};

use crate::components::dim_rows::dim_rows;
use crate::components::explain::figure_name;
use crate::components::explain_button::ExplainButton;
use crate::format;
use crate::i18n::{use_lang, Lang, T};
use crate::lab::{part, GridLab};

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
    /// The latency, roofline and MFU line.
    pub const EXTRA: Text = Text {
        zh: "其中延迟 {latency} · 屋顶线 ×{roofline} · MFU {mfu}",
        en: "latency {latency} of it · roofline ×{roofline} · MFU {mfu}",
    };
    /// One dimension's time in the estimate.
    pub const DIM_TIME: Text = Text {
        zh: "{dim} {seconds}（延迟 {latency}）",
        en: "{dim} {seconds} (latency {latency})",
    };
    /// The assumptions, at this plan's card.
    pub const ASSUMPTIONS: Text = Text {
        zh: "这是估算，不是测量。FLOPs = (6·P_act + 6·F·a·head_dim·s)·T，全量重计算再 ×4/3。\
             计算时间 = FLOPs ÷ (N × 每卡 {tflops} TFLOP/s 的有效算力)，权重部分再乘屋顶线倍数 \
             max(1, R/T_l)：R = 有效算力 ÷ 显存带宽 {hbm} TB/s，T_l = s·b/c 是每卡每个 micro-batch 的 \
             token 数（路由专家按各自分到的 token 另算）。每次集合通信 = 步数 × α + 字节 ÷ 带宽，\
             α 为 NVLink {nvlink_us} µs、网络 {ib_us} µs；全量重计算让 TP 每层多 2 次调用（字节 ×3/2），\
             CP 算上反向（字节 ×2），DP 按 50 MB 一桶；ZeRO-2/3 只存梯度的一份分片，\
             每个 micro-batch 反向后都要 reduce-scatter，ZeRO-3 每个 micro-batch 的前向和反向\
             还要各 all-gather 一次权重。气泡 = 计算 × (p−1)/(v·m)；TP、CP、EP、PP 在关键路径上，\
             DP 与专家 DP 只能藏在反向传播（计算的 2/3）后面。MFU = 模型 FLOPs ÷ \
             (N × 峰值 {peak} TFLOP/s × 每步时间)。",
        en: "An estimate, not a measurement. FLOPs = (6·P_act + 6·F·a·head_dim·s)·T, × 4/3 with \
             full recompute. Compute = FLOPs ÷ (N × an effective {tflops} TFLOP/s per card), the \
             weights' part × the roofline factor max(1, R/T_l): R = that rate ÷ the HBM's {hbm} \
             TB/s, T_l = s·b/c the tokens of a micro-batch on a card (routed experts by the tokens \
             each receives). Each collective call = steps × α + bytes ÷ bandwidth, α = \
             {nvlink_us} µs over NVLink and {ib_us} µs over the network; full recompute adds 2 TP \
             calls a layer (bytes × 3/2), CP counts its backward (bytes × 2), DP runs in 50 MB \
             buckets; ZeRO-2/3 keep only a shard of the gradients, so they reduce-scatter after \
             every micro-batch's backward, and ZeRO-3 gathers the weights again for every \
             micro-batch's forward and backward. Bubble = compute × (p−1)/(v·m); TP, CP, EP and \
             PP sit on the critical path, DP and expert DP hide only behind the backward pass (2/3 of compute). MFU = model \
             FLOPs ÷ (N × the {peak} TFLOP/s peak × the step).",
    };

    #[cfg(test)]
    pub const ALL: &[&Text] = &[&SPLIT, &THROUGHPUT, &EXTRA, &DIM_TIME, &ASSUMPTIONS];
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

/// "latency 14.3 ms of it · roofline ×1 · MFU 44.9%".
fn extra_text(lang: Lang, e: &Estimate) -> String {
    text::EXTRA.fill(
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

/// The assumptions with the card's own numbers.
fn assumptions_text(lang: Lang, c: &PlanConfig) -> String {
    let number = |x: f64| parallel_core::formula::Show::Count.write(x);
    text::ASSUMPTIONS.fill(
        lang,
        &[
            ("tflops", &number(c.gpu_tflops)),
            ("hbm", &number(c.hbm_tbps)),
            ("nvlink_us", &number(c.nvlink_latency_us)),
            ("ib_us", &number(c.ib_latency_us)),
            ("peak", &number(c.peak_tflops)),
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
    let named = move |figure: Figure| {
        view! {
            <span class="why-item">
                {move || figure_name(lang.get(), figure)}
                " "
                <ExplainButton figure=figure lab=lab />
            </span>
        }
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
                        ("dim", &crate::vocab::dim(lang, t.dim)),
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
                extra_text(lang, &e);
                text::DIM_TIME.fill(
                    lang,
                    &[("dim", &"TP"), ("seconds", &"1 s"), ("latency", &"1 ms")],
                );
                assumptions_text(lang, &PlanConfig::default());
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
