//! The memory figure beside a grid: the busiest card's model states, activations and (when
//! counted) runtime terms against its capacity, as a bar and as numbers, each with its
//! explanation. Each number carries its raw value in a `data-*` attribute for the browser tests.

use leptos::prelude::*;
use parallel_core::explain::Figure;
use parallel_core::formula::Show;
use parallel_core::{Bytes, Memory, RuntimeMemory};

use crate::kit::explain_button::ExplainButton;
use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::state::lab::GridLab;

/// The sentences of the memory figure.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The memory bar, read out (its `aria-label`).
        pub const MEMORY_BAR: Text = Text {
            zh: "模型状态 {states} + 激活 {activations} = {total} / {capacity}",
            en: "model states {states} + activations {activations} = {total} / {capacity}",
        };
        /// The memory bar, read out, with the runtime terms counted.
        pub const MEMORY_BAR_RUNTIME: Text = Text {
            zh: "模型状态 {states} + 激活 {activations} + 运行时 {runtime} = {total} / {capacity}",
            en: "model states {states} + activations {activations} + runtime {runtime} = {total} / {capacity}",
        };
        /// The runtime terms, split, with where the measured two come from.
        pub const RUNTIME_SPLIT: Text = Text {
            zh: "CUDA 上下文 {context} + 聚齐缓冲 {buffers} + 分配器预留 {reserve}（上下文与预留：一张 H200 上实测，PyTorch 2.11，2026-12-04）",
            en: "CUDA context {context} + gather buffer {buffers} + allocator reserve {reserve} (context and reserve: measured on one H200, PyTorch 2.11, 2026-12-04)",
        };

        /// The memory figure's title with the lesson's even split.
        pub const MEMORY_EVEN: Text = Text {
            zh: "每卡显存（课上的均分记法：最忙的卡，第一段流水线）",
            en: "Memory per card (the lesson's even split: the busiest, first pipeline stage)",
        };
        /// The memory figure's title stage by stage: the busiest stage, named.
        pub const MEMORY_BUSIEST: Text = Text {
            zh: "每卡显存（按段计：最忙的是第 {stage} 段）",
            en: "Memory per card (stage by stage: the busiest is stage {stage})",
        };

        /// An MoE model's model states, split: the routed experts and the dense rest.
        pub const EXPERT_SPLIT: Text = Text {
            zh: "其中路由专家 {experts}，稠密部分 {dense}",
            en: "of which routed experts {experts}, dense part {dense}",
        };
    }
}

/// The memory bar in words: model states + activations (+ runtime) = total / capacity.
fn memory_label(lang: Lang, m: &Memory) -> String {
    let runtime = m.runtime.map(|r| r.total);
    let parts: [(&str, &dyn std::fmt::Display); 4] = [
        ("states", &m.model_states),
        ("activations", &m.activations),
        ("total", &m.total),
        ("capacity", &m.capacity),
    ];
    match &runtime {
        None => text::MEMORY_BAR.fill(lang, &parts),
        Some(runtime) => {
            let mut all = parts.to_vec();
            all.push(("runtime", runtime));
            text::MEMORY_BAR_RUNTIME.fill(lang, &all)
        }
    }
}

/// The runtime terms split into the CUDA context, the buffer and the reserve, each in GB, or
/// in MB below 0.1 GB (a buffer of a few megabytes would read "0.0 GB").
fn runtime_split(lang: Lang, r: &RuntimeMemory) -> String {
    let write = |b: Bytes| Show::Bytes.write(b.get());
    text::RUNTIME_SPLIT.fill(
        lang,
        &[
            ("context", &write(r.context)),
            ("buffers", &write(r.buffers)),
            ("reserve", &write(r.reserve)),
        ],
    )
}

/// An MoE model's model states split into the routed experts and the dense rest (both the
/// core's figures).
fn expert_split(lang: Lang, experts: Bytes, dense: Bytes) -> String {
    text::EXPERT_SPLIT.fill(lang, &[("experts", &experts), ("dense", &dense)])
}

/// The memory figure's title: the even split's first stage, or the busiest stage by number.
fn memory_title(lang: Lang, busiest: Option<u32>) -> String {
    match busiest {
        None => text::MEMORY_EVEN.get(lang).to_string(),
        Some(stage) => text::MEMORY_BUSIEST.fill(lang, &[("stage", &stage)]),
    }
}

/// The figure's bars: each part's share of the larger of total and capacity.
fn share(m: &Memory, part: Bytes) -> String {
    // figures: the core's share written as a CSS width, in percent (formatting)
    format!("{:.2}%", 100.0 * m.bar_share(part))
}

/// Model states + activations of the busiest card against its capacity. `busiest` names the
/// stage when memory is accounted stage by stage.
#[component]
pub fn MemoryFigure(
    #[prop(into)] memory: Signal<Memory>,
    #[prop(into)] busiest: Signal<Option<u32>>,
    /// The routed experts' and the dense part's model states of the card shown (MoE models), if any.
    #[prop(into)]
    experts: Signal<Option<(Bytes, Bytes)>>,
    /// The grid whose figures the explanations open on.
    lab: GridLab,
) -> impl IntoView {
    let lang = use_lang();
    // Every text, attribute and width read from the memory is one kind of closure, so the
    // view compiles one way of keeping them current.
    let show =
        move |read: fn(&Memory, Lang) -> String| move || memory.with(|m| read(m, lang.get()));
    view! {
        <div class="figure memory-figure" class:over=move || !memory.with(|m| m.fits)>
            <h3 class="figure-title" data-testid="memory-title"
                data-busiest-stage=move || busiest.get().map(|s| s.to_string())>
                {move || memory_title(lang.get(), busiest.get())}
            </h3>
            // The widths through the CSS object model (`style:`): the page's
            // Content-Security-Policy refuses `style` attributes.
            <div class="memory-bar" role="img" aria-label=show(|m, lang| memory_label(lang, m))>
                <span class="bar-states" style:width=show(|m, _| share(m, m.model_states))></span>
                <span class="bar-activations" style:width=show(|m, _| share(m, m.activations))></span>
                <span class="bar-runtime"
                    style:width=show(|m, _| share(m, m.runtime.map_or(Bytes::ZERO, |r| r.total)))></span>
                <span class="bar-capacity" style:left=show(|m, _| share(m, m.capacity))></span>
            </div>
            <dl class="memory-numbers">
                <div>
                    <dt><T zh="模型状态" en="Model states" />" "<ExplainButton figure=Figure::ModelStates lab=lab /></dt>
                    <dd data-testid="mem-states" data-bytes=show(|m, _| format::raw_bytes(m.model_states))>
                        {show(|m, _| format::bytes(m.model_states))}
                    </dd>
                    <Show when=move || experts.with(Option::is_some)>
                        <dd class="memory-split" data-testid="mem-experts"
                            data-bytes=move || experts.get().map(|(e, _)| format::raw_bytes(e))>
                            {move || experts.get().map(|(e, dense)| expert_split(lang.get(), e, dense))}
                        </dd>
                    </Show>
                </div>
                <div>
                    <dt><T zh="激活" en="Activations" />" "<ExplainButton figure=Figure::Activations lab=lab /></dt>
                    <dd data-testid="mem-activations" data-bytes=show(|m, _| format::raw_bytes(m.activations))>
                        {show(|m, _| format::bytes(m.activations))}
                    </dd>
                </div>
                <Show when=move || memory.with(|m| m.runtime.is_some())>
                    <div>
                        <dt><T zh="运行时" en="Runtime" />" "<ExplainButton figure=Figure::Runtime lab=lab /></dt>
                        <dd data-testid="mem-runtime"
                            data-bytes=show(|m, _| m.runtime.map(|r| format::raw_bytes(r.total)).unwrap_or_default())>
                            {show(|m, _| m.runtime.map(|r| format::bytes(r.total)).unwrap_or_default())}
                        </dd>
                        <dd class="memory-split" data-testid="mem-runtime-split"
                            data-context=show(|m, _| m.runtime.map(|r| format::raw_bytes(r.context)).unwrap_or_default())
                            data-buffers=show(|m, _| m.runtime.map(|r| format::raw_bytes(r.buffers)).unwrap_or_default())
                            data-reserve=show(|m, _| m.runtime.map(|r| format::raw_bytes(r.reserve)).unwrap_or_default())>
                            {show(|m, lang| m.runtime.map(|r| runtime_split(lang, &r)).unwrap_or_default())}
                        </dd>
                    </div>
                </Show>
                <div class="memory-total">
                    <dt><T zh="合计" en="Total" />" "<ExplainButton figure=Figure::Total lab=lab /></dt>
                    <dd data-testid="mem-total" data-bytes=show(|m, _| format::raw_bytes(m.total))
                        data-fits=show(|m, _| m.fits.to_string())
                        data-tight=show(|m, _| m.tight.to_string())>
                        {show(|m, _| format!("{} / {}", format::bytes(m.total), format::bytes(m.capacity)))}
                        " "
                        <strong class="fit-verdict">
                            {show(|m, lang| {
                                if !m.fits {
                                    lang.pick("✗ 放不下", "✗ does not fit").to_string()
                                } else if m.tight {
                                    let safe = format::safe_share();
                                    match lang {
                                        Lang::Zh => format!("✓ 放得下，但偏紧（超过 {safe}）"),
                                        Lang::En => format!("✓ fits, but tight (above {safe})"),
                                    }
                                } else {
                                    lang.pick("✓ 放得下", "✓ fits").to_string()
                                }
                            })}
                        </strong>
                    </dd>
                </div>
            </dl>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;
    use parallel_core::{evaluate, PlanConfig};

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let memory = evaluate(&PlanConfig::lesson_8_gpus()).unwrap().memory;
        let runtime = evaluate(&PlanConfig {
            runtime_memory: true,
            ..PlanConfig::lesson_64_gpus()
        })
        .unwrap()
        .memory;
        assert_each_lang_uses_all(text::ALL, |lang| {
            memory_label(lang, &memory);
            memory_label(lang, &runtime);
            runtime_split(lang, &runtime.runtime.unwrap());
            memory_title(lang, None);
            memory_title(lang, Some(7));
            expert_split(lang, Bytes::new(2e9), Bytes::new(5e9));
        });
        assert_eq!(
            memory_title(Lang::Zh, Some(7)),
            "每卡显存（按段计：最忙的是第 7 段）"
        );
        assert_eq!(
            memory_label(Lang::Zh, &memory),
            "模型状态 55.6 GB + 激活 2.7 GB = 58.2 GB / 80.0 GB"
        );
        // The 64-card lesson plan, TP 8: a 2·4,096·5,120-byte buffer, 41.9 MB.
        let r = runtime.runtime.unwrap();
        assert_eq!(r.buffers.get(), 2.0 * 4096.0 * 5120.0);
        assert_eq!(
            runtime_split(Lang::En, &r),
            format!(
                "CUDA context 0.8 GB + gather buffer 41.9 MB + allocator reserve {} (context and \
                 reserve: measured on one H200, PyTorch 2.11, 2026-12-04)",
                r.reserve
            )
        );
    }
}
