//! The controls of a grid: sliders for TP, PP, CP, micro-batches and sequence length, and
//! selectors for ZeRO, recomputation and schedule. DP is derived and shown, never set.
//!
//! Every value a slider can reach is a number the core accepts on its own; a combination
//! the core rejects (say TP 3 on 8 cards) shows the core's reason right under the control that
//! was moved, while the figures keep the last valid plan.

use leptos::prelude::*;
use parallel_core::explain::Figure;
use parallel_core::hardware::Hardware;
use parallel_core::{Accounting, ModelChoice, PlanConfig, Precision, Preset, Recompute, Schedule};

use crate::components::explain_button::ExplainButton;
use crate::components::model_card::ModelCard;
use crate::components::offload::OffloadSwitch;
use crate::components::own_model::OwnModel;
use crate::error_text::explain;
use crate::format;
use crate::i18n::{use_lang, T};
use crate::lab::{part, GridLab};

/// A slider's bounds; the sequence-length slider moves over powers of two.
#[derive(Clone, Copy)]
struct SliderSpec {
    field: &'static str,
    test_id: &'static str,
    label_zh: &'static str,
    label_en: &'static str,
    min: u32,
    max: u32,
    /// When set, the slider's position is log2 of the value.
    log2: bool,
    get: fn(&PlanConfig) -> u32,
    set: fn(&mut PlanConfig, u32),
}

impl SliderSpec {
    /// The input's range of positions: the values themselves, or their log2.
    fn positions(&self) -> (u32, u32) {
        if self.log2 {
            (self.min.max(1).ilog2(), self.max.max(1).ilog2())
        } else {
            (self.min, self.max)
        }
    }

    /// The position that shows `value` (values off the slider's grid take the one below).
    fn position_of(&self, value: u32) -> u32 {
        let (low, high) = self.positions();
        let position = if self.log2 {
            value.max(1).ilog2()
        } else {
            value
        };
        position.clamp(low, high)
    }

    /// The value at a position the input reports (a string, as the DOM gives it). A position
    /// outside the range, or not a number, is held to the nearest end: the slider never sets
    /// a value it does not show.
    fn value_at(&self, raw: &str) -> u32 {
        let (low, high) = self.positions();
        let position = raw.trim().parse::<u32>().unwrap_or(low).clamp(low, high);
        if self.log2 {
            1u32 << position.min(31)
        } else {
            position
        }
    }
}

#[component]
fn Slider(spec: SliderSpec, lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    // This slider's own value: moving another control does not run this one's views again.
    let value = Memo::new(move |_| lab.config.with(|c| (spec.get)(c)));
    let value = move || value.get();
    let shown = move || format::thousands(u64::from(value()));
    let on_input = move |event: leptos::ev::Event| {
        let value = spec.value_at(&event_target_value(&event));
        lab.edit(spec.field, |c| (spec.set)(c, value));
    };
    let error = move || {
        if lab.last_edited.get() != spec.field {
            return None;
        }
        lab.error.get().map(|e| explain(lang.get(), &e))
    };
    let id = format!("{}-{}", spec.test_id, lab.config.with_untracked(|c| c.gpus));
    view! {
        <div class="control" class:invalid=move || error().is_some()>
            <label for=id.clone()>
                <span class="control-name">{move || lang.get().pick(spec.label_zh, spec.label_en)}</span>
                <output class="control-value">{shown}</output>
            </label>
            <input
                id=id
                type="range"
                data-testid=spec.test_id
                min=spec.positions().0
                max=spec.positions().1
                step="1"
                prop:value=move || spec.position_of(value()).to_string()
                aria-valuetext=shown
                on:input=on_input
            />
            {move || error().map(|message| view! { <p class="control-error" role="alert">{message}</p> })}
        </div>
    }
}

/// A `<select>` over fixed options.
#[component]
fn Choice(
    lab: GridLab,
    field: &'static str,
    test_id: &'static str,
    label_zh: &'static str,
    label_en: &'static str,
    /// (value, 中文, English)
    options: Vec<(&'static str, &'static str, &'static str)>,
    get: fn(&PlanConfig) -> String,
    set: fn(&mut PlanConfig, &str),
) -> impl IntoView {
    let lang = use_lang();
    let error = move || {
        if lab.last_edited.get() != field {
            return None;
        }
        lab.error.get().map(|e| explain(lang.get(), &e))
    };
    // This selector's own value, as its option's value.
    let current = Memo::new(move |_| lab.config.with(get));
    let id = format!("{}-{}", test_id, lab.config.with_untracked(|c| c.gpus));
    let options = options
        .into_iter()
        .map(|(value, zh, en)| {
            view! {
                <option value=value selected=move || current.with(|c| c == value)>
                    {move || lang.get().pick(zh, en)}
                </option>
            }
        })
        .collect_view();
    view! {
        <div class="control" class:invalid=move || error().is_some()>
            <label for=id.clone()>
                <span class="control-name">{move || lang.get().pick(label_zh, label_en)}</span>
            </label>
            <select
                id=id
                data-testid=test_id
                prop:value=move || current.get()
                on:change=move |event| {
                    let value = event_target_value(&event);
                    lab.edit(field, |c| set(c, &value));
                    // An option the config cannot take as it is ("your own model" before a
                    // config is pasted) does not stay selected: the select shows the config.
                    let shown = lab.config.with_untracked(get);
                    if shown != value {
                        event_target::<web_sys::HtmlSelectElement>(&event).set_value(&shown);
                    }
                }
            >
                {options}
            </select>
            {move || error().map(|message| view! { <p class="control-error" role="alert">{message}</p> })}
        </div>
    }
}

/// The five sliders of a grid, in page order. `max_tp` caps TP (a node, as the lesson does);
/// `max_degree` caps PP and CP.
fn slider_specs(max_tp: u32, max_degree: u32) -> [SliderSpec; 5] {
    [
        SliderSpec {
            field: "tp",
            test_id: "slider-tp",
            label_zh: "TP 张量并行",
            label_en: "TP tensor parallel",
            min: 1,
            max: max_tp,
            log2: false,
            get: |c| c.tp,
            set: |c, v| c.tp = v,
        },
        SliderSpec {
            field: "pp",
            test_id: "slider-pp",
            label_zh: "PP 流水线并行",
            label_en: "PP pipeline parallel",
            min: 1,
            max: max_degree,
            log2: false,
            get: |c| c.pp,
            set: |c, v| c.pp = v,
        },
        SliderSpec {
            field: "cp",
            test_id: "slider-cp",
            label_zh: "CP 上下文并行",
            label_en: "CP context parallel",
            min: 1,
            max: max_degree,
            log2: false,
            get: |c| c.cp,
            set: |c, v| c.cp = v,
        },
        SliderSpec {
            field: "micro_batches",
            test_id: "slider-m",
            label_zh: "每步 micro-batch 数 m",
            label_en: "Micro-batches per step m",
            min: 1,
            max: 64,
            log2: false,
            get: |c| c.micro_batches,
            set: |c, v| c.micro_batches = v,
        },
        SliderSpec {
            field: "seq_len",
            test_id: "slider-seq",
            label_zh: "序列长度 s",
            label_en: "Sequence length s",
            min: 1024,
            max: 131_072,
            log2: true,
            get: |c| c.seq_len,
            set: |c, v| c.seq_len = v,
        },
    ]
}

/// The expert-parallel slider, for MoE models: e over powers of two up to the grid's N.
fn ep_spec(gpus: u32) -> SliderSpec {
    SliderSpec {
        field: "ep",
        test_id: "slider-ep",
        label_zh: "EP 专家并行",
        label_en: "EP expert parallel",
        min: 1,
        max: gpus.max(1),
        log2: true,
        get: |c| c.ep,
        set: |c, v| c.ep = v,
    }
}

/// The card picker's options: the lesson's card, then the presets by name.
pub fn hardware_options() -> Vec<(&'static str, &'static str, &'static str)> {
    Hardware::ALL
        .iter()
        .map(|h| match h {
            Hardware::Lesson => (h.as_str(), "课上的卡", "the lesson's card"),
            _ => (h.as_str(), h.name(), h.name()),
        })
        .collect()
}

/// The grid's card in numbers (memory, HBM, peak and effective rate, links), with the
/// datasheet it comes from.
#[component]
fn CardFacts(lab: GridLab) -> impl IntoView {
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

/// All controls of one grid. `max_tp` caps TP (a node, as the lesson does).
#[component]
pub fn GridControls(lab: GridLab, max_tp: u32, max_degree: u32) -> impl IntoView {
    let sliders = slider_specs(max_tp, max_degree)
        .into_iter()
        .map(|spec| view! { <Slider spec=spec lab=lab /> })
        .collect_view();

    let dp = move || lab.report.with(|r| r.dp);
    let model = part(move || lab.plan.with(|p| *p.model()));
    let gpus = lab.config.with_untracked(|c| c.gpus);
    let is_moe = Memo::new(move |_| {
        lab.config
            .with(|c| c.model.resolve().is_ok_and(|m| m.is_moe()))
    });
    let is_moe = move || is_moe.get();
    view! {
        <div class="controls">
            <Choice
                lab=lab
                field="model"
                test_id="select-model"
                label_zh="模型"
                label_en="Model"
                options=Preset::ALL
                    .iter()
                    .map(|p| (p.id(), p.name(), p.name()))
                    .chain([("custom", "你自己的模型", "your own model")])
                    .collect()
                get=|c| match &c.model {
                    ModelChoice::Preset(p) => p.id().to_string(),
                    _ => "custom".to_string(),
                }
                set=|c, v| {
                    if let Some(preset) = Preset::from_id(v) {
                        c.model = ModelChoice::Preset(preset);
                        // Expert parallelism exists only for MoE models.
                        if !preset.model().is_moe() {
                            c.ep = 1;
                        }
                    }
                }
            />
            <ModelCard model=model />
            <OwnModel lab=lab />
            <Choice
                lab=lab
                field="hardware"
                test_id="select-hardware"
                label_zh="卡型"
                label_en="Card"
                options=hardware_options()
                get=|c| c.hardware.as_str().to_string()
                set=|c, v| {
                    if let Some(hardware) = Hardware::from_id(v) {
                        *c = c.clone().use_card(hardware);
                    }
                }
            />
            <CardFacts lab=lab />
            {sliders}
            <Show when=is_moe>
                <Slider spec=ep_spec(gpus) lab=lab />
            </Show>
            <Choice
                lab=lab
                field="zero"
                test_id="select-zero"
                label_zh="ZeRO 阶段"
                label_en="ZeRO stage"
                options=vec![
                    ("0", "0：不切", "0: none"),
                    ("1", "1：切优化器状态", "1: optimizer states"),
                    ("2", "2：再切梯度", "2: + gradients"),
                    ("3", "3：再切参数", "3: + parameters"),
                ]
                get=|c| c.zero.to_string()
                set=|c, v| c.zero = v.parse().unwrap_or(0)
            />
            <Choice
                lab=lab
                field="precision"
                test_id="select-precision"
                label_zh="每参数字节（梯度精度）"
                label_en="Bytes per parameter (gradients)"
                options=vec![
                    ("bf16-grads", "16：BF16 梯度（课上的账）", "16: BF16 gradients (the lesson)"),
                    ("fp32-grads", "18：FP32 梯度（种子 000 的账）", "18: FP32 gradients (seed 000)"),
                ]
                get=|c| c.precision.as_str().to_string()
                set=|c, v| {
                    c.precision = match v {
                        "fp32-grads" => Precision::Fp32Grads,
                        _ => Precision::Bf16Grads,
                    }
                }
            />
            <OffloadSwitch lab=lab />
            <Choice
                lab=lab
                field="recompute"
                test_id="select-recompute"
                label_zh="激活重计算"
                label_en="Activation recompute"
                options=vec![
                    ("full", "全量", "full"),
                    ("selective", "选择性", "selective"),
                    ("none", "不重计算", "none"),
                ]
                get=|c| c.recompute.as_str().to_string()
                set=|c, v| {
                    c.recompute = match v {
                        "none" => Recompute::None,
                        "selective" => Recompute::Selective,
                        _ => Recompute::Full,
                    }
                }
            />
            <Choice
                lab=lab
                field="schedule"
                test_id="select-schedule"
                label_zh="流水线调度"
                label_en="Pipeline schedule"
                options=vec![
                    ("1f1b", "1F1B", "1F1B"),
                    ("gpipe", "GPipe", "GPipe"),
                    ("interleaved", "interleaved(v = 2)", "interleaved (v = 2)"),
                ]
                get=|c| c.schedule.as_str().to_string()
                set=|c, v| {
                    let (schedule, v) = match v {
                        "gpipe" => (Schedule::Gpipe, 1),
                        "interleaved" => (Schedule::Interleaved, 2),
                        _ => (Schedule::OneFOneB, 1),
                    };
                    c.schedule = schedule;
                    c.virtual_stages = v;
                }
            />
            <Choice
                lab=lab
                field="accounting"
                test_id="select-accounting"
                label_zh="显存怎么记"
                label_en="Memory accounting"
                options=vec![
                    ("even", "课上的均分（第一段）", "the lesson's even split"),
                    ("stages", "按段计（每张卡自己的段）", "by stage (each card its own)"),
                ]
                get=|c| c.accounting.as_str().to_string()
                set=|c, v| {
                    c.accounting = match v {
                        "stages" => Accounting::Stages,
                        _ => Accounting::Even,
                    }
                }
            />
            <div class="control derived">
                <span class="control-name"><T zh="DP 数据并行（推出来的）" en="DP data parallel (derived)" /></span>
                <output class="control-value" data-testid="derived-dp">{dp}</output>
                " "<ExplainButton figure=Figure::Dp lab=lab />
                <p class="control-note"><T zh="d = N ÷ (TP·PP·CP)" en="d = N ÷ (TP·PP·CP)" /></p>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parallel_core::Plan;

    #[test]
    fn every_position_shows_a_value_in_range_and_back() {
        for spec in slider_specs(8, 8) {
            let (low, high) = spec.positions();
            assert!(low <= high, "{}", spec.field);
            for position in low..=high {
                let value = spec.value_at(&position.to_string());
                assert!(
                    (spec.min..=spec.max).contains(&value),
                    "{} at {position}: {value}",
                    spec.field
                );
                assert_eq!(
                    spec.position_of(value),
                    position,
                    "{} round trip",
                    spec.field
                );
            }
            assert_eq!(
                spec.value_at(&low.to_string()),
                spec.min,
                "{} left end",
                spec.field
            );
            assert_eq!(
                spec.value_at(&high.to_string()),
                spec.max,
                "{} right end",
                spec.field
            );
        }
    }

    #[test]
    fn positions_outside_the_range_hold_to_its_ends() {
        for spec in slider_specs(8, 8) {
            let (low, high) = spec.positions();
            for raw in ["0", "", "x", "-3"] {
                assert_eq!(
                    spec.value_at(raw),
                    spec.value_at(&low.to_string()),
                    "{} {raw:?}",
                    spec.field
                );
            }
            for raw in [high + 1, 1024, 131_072, u32::MAX] {
                assert_eq!(
                    spec.value_at(&raw.to_string()),
                    spec.max,
                    "{} {raw}",
                    spec.field
                );
            }
        }
    }

    #[test]
    fn the_sequence_slider_reaches_1024_to_131072_and_the_core_takes_each() {
        let spec = slider_specs(8, 8)[4];
        assert_eq!(spec.field, "seq_len");
        let (low, high) = spec.positions();
        let values: Vec<u32> = (low..=high)
            .map(|p| spec.value_at(&p.to_string()))
            .collect();
        assert_eq!(
            values,
            [1024, 2048, 4096, 8192, 16_384, 32_768, 65_536, 131_072]
        );
        for seq_len in values {
            for start in [PlanConfig::lesson_8_gpus(), PlanConfig::lesson_64_gpus()] {
                let mut config = start;
                (spec.set)(&mut config, seq_len);
                assert!(Plan::new(&config).is_ok(), "s = {seq_len}");
            }
        }
    }
}
