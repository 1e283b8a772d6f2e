//! The controls of a grid: sliders for TP, PP, CP, micro-batches and sequence length, and
//! selectors for ZeRO, recomputation and schedule. DP is derived and shown, never set.
//!
//! Every value a slider can reach is a number the core accepts on its own; a combination
//! the core rejects (say TP 3 on 8 cards) shows the core's reason right under the control that
//! was moved, while the figures keep the last valid plan.

mod card;
pub(crate) mod choice;
pub(crate) mod slider;

use leptos::prelude::*;
use parallel_core::explain::Figure;
use parallel_core::hardware::Hardware;
use parallel_core::{Accounting, ModelChoice, Precision, Preset, Recompute, Schedule};

use crate::components::explain_button::ExplainButton;
use crate::components::model_card::ModelCard;
use crate::components::offload::OffloadSwitch;
use crate::components::own_model::OwnModel;
use crate::components::rollout::RolloutPanel;
use crate::i18n::T;
use crate::lab::{part, GridLab};

pub use card::hardware_options;
use card::CardFacts;
use choice::Choice;
use slider::{ep_spec, slider_specs, Slider};

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
            <RolloutPanel lab=lab />
        </div>
    }
}
