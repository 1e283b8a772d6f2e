//! The optimizer on the host, "CPU Adam" (SPEC §14): the switch that moves Adam's states off
//! the cards, and the figure of what went to the host, per card and per node, against the
//! host's memory. The numbers are the report's (`memory.host`); nothing is computed here.

use leptos::prelude::*;
use parallel_core::explain::Figure;
use parallel_core::{Bytes, Field, HostMemory, OptimizerOffload};

use crate::kit::error_text::explain;
use crate::kit::explain_button::ExplainButton;
use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::state::lab::{part, GridLab};

/// The sentences of the host figure.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// What stayed on the card and what went to the host.
        pub const SPLIT: Text = Text {
            zh: "卡上留下权重和梯度 {states}；优化器状态（FP32 主权重与两个矩）连同一份 FP32 梯度放在主机：每卡 {host}。",
            en: "The card keeps weights and gradients, {states}; the optimizer states (FP32 master \
                 weights and both moments) and an FP32 copy of the gradients live on the host: \
                 {host} per card.",
        };
    }
}

/// The host's verdict: fits, or over the node's memory.
fn verdict(lang: Lang, host: &HostMemory) -> &'static str {
    if host.fits {
        lang.pick("✓ 主机放得下", "✓ fits in host memory")
    } else {
        lang.pick("✗ 超出主机内存", "✗ over the host's memory")
    }
}

/// The switch "Adam on the host (CPU Adam)": `optimizer_offload` "cpu" when on.
#[component]
pub fn OffloadSwitch(lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    // The core's reason under the switch when it was moved last and the plan is refused (as
    // under every control).
    let error = move || {
        lab.error_for(Field::OptimizerOffload)
            .map(|e| explain(lang.get(), &e))
    };
    let on = Memo::new(move |_| lab.config.with(|c| c.optimizer_offload.on_host()));
    let id = format!("toggle-offload-{}", lab.config.with_untracked(|c| c.gpus));
    let on_change = move |event: leptos::ev::Event| {
        let offload = if event_target_checked(&event) {
            OptimizerOffload::Cpu
        } else {
            OptimizerOffload::None
        };
        lab.edit(Field::OptimizerOffload, |c| c.optimizer_offload = offload);
    };
    view! {
        <div class="control control-switch" class:invalid=move || error().is_some()>
            <input type="checkbox" role="switch" id=id.clone() data-testid="toggle-offload"
                prop:checked=move || on.get() on:change=on_change />
            <label for=id>
                <span class="control-name">
                    <T zh="Adam 放到主机（CPU Adam）" en="Adam on the host (CPU Adam)" />
                </span>
            </label>
            <p class="control-note">
                <T zh="优化器状态（每参数 12 字节）离开显卡；梯度经 PCIe 下到主机，CPU 更新后 BF16 权重再传回。"
                   en="The optimizer states (12 bytes per parameter) leave the card; gradients go down to the host over PCIe, the CPU updates, and the BF16 weights come back." />
            </p>
            {move || error().map(|message| view! { <p class="control-error" role="alert">{message}</p> })}
        </div>
    }
}

/// What went to the host with the optimizer offloaded: per card, and the busiest node against
/// its host memory. Shown only while the optimizer is on the host. `states` is what stayed on
/// the card (the report's model states).
#[component]
pub fn HostMemoryFigure(
    #[prop(into)] host: Signal<Option<HostMemory>>,
    #[prop(into)] states: Signal<Bytes>,
    /// The grid whose figures the explanations open on.
    lab: GridLab,
) -> impl IntoView {
    let lang = use_lang();
    let host = part(move || host.get());
    // Every text and attribute of the figure is one kind of closure, read while it is shown.
    let show = move |read: fn(&HostMemory, Bytes, Lang) -> String| {
        move || {
            host.get()
                .map(|h| read(&h, states.get(), lang.get()))
                .unwrap_or_default()
        }
    };
    view! {
        <Show when=move || host.with(Option::is_some)>
            <div class="figure host-figure" class:over=move || host.with(|h| h.is_some_and(|h| !h.fits))>
                <h3 class="figure-title"><T zh="主机内存（CPU Adam）" en="Host memory (CPU Adam)" /></h3>
                <dl class="memory-numbers">
                    <div>
                        <dt><T zh="每卡放到主机" en="On the host per card" />" "<ExplainButton figure=Figure::HostPerGpu lab=lab /></dt>
                        <dd data-testid="mem-host" data-bytes=show(|h, _, _| format::raw_bytes(h.per_gpu))
                            data-node-bytes=show(|h, _, _| format::raw_bytes(h.per_node))
                            data-capacity=show(|h, _, _| format::raw_bytes(h.capacity))
                            data-fits=show(|h, _, _| h.fits.to_string())>
                            {show(|h, _, _| format::bytes(h.per_gpu))}
                        </dd>
                    </div>
                    <div class="memory-total">
                        <dt><T zh="最满的节点" en="The fullest node" />" "<ExplainButton figure=Figure::HostPerNode lab=lab /></dt>
                        <dd data-testid="mem-host-node" data-bytes=show(|h, _, _| format::raw_bytes(h.per_node))>
                            {show(|h, _, _| format!("{} / {}", format::bytes(h.per_node), format::bytes(h.capacity)))}
                            " "
                            <strong class="fit-verdict">{show(|h, _, lang| verdict(lang, h).to_string())}</strong>
                        </dd>
                    </div>
                </dl>
                <p class="secondary" data-testid="mem-host-split">
                    {show(|h, states, lang| text::SPLIT.fill(lang, &[("states", &states), ("host", &h.per_gpu)]))}
                </p>
                <p class="secondary">
                    <T zh="CPU 自己做更新的时间不计入步时估算。"
                       en="The CPU's own update time is not counted in the step-time estimate." />
                </p>
            </div>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;
    use parallel_core::{evaluate, PlanConfig};

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let config = PlanConfig {
            optimizer_offload: OptimizerOffload::Cpu,
            ..PlanConfig::lesson_8_gpus()
        };
        let report = evaluate(&config).unwrap();
        let host = report.memory.host.unwrap();
        assert_each_lang_uses_all(text::ALL, |lang| {
            text::SPLIT.fill(
                lang,
                &[
                    ("states", &report.memory.model_states),
                    ("host", &host.per_gpu),
                ],
            );
            verdict(lang, &host);
        });
    }
}
