//! The controls beyond the lesson's: the model and the card (each with its facts), expert
//! parallelism for an MoE model, bytes per gradient, the pipeline schedule and memory
//! accounting. On the lesson's grids they sit behind "more controls" (see [`super::GridControls`]).

use leptos::prelude::*;
use parallel_core::hardware::Hardware;
use parallel_core::link::Control;
use parallel_core::{Accounting, ModelChoice, Precision, Preset, Schedule};

use super::card::{hardware_options, CardFacts};
use super::choice::Choice;
use super::slider::{ep_spec, Slider};
use crate::components::kit::GridKit;
use crate::components::model_card::ModelCard;
use crate::lab::{part, GridLab};

/// The model, card, EP, bytes-per-gradient, schedule and accounting controls, with what `kit`
/// adds among them (one's own config.json, CPU Adam).
#[component]
pub(super) fn MoreControls(lab: GridLab, kit: GridKit) -> impl IntoView {
    let shape = part(move || lab.plan.with(|p| *p.model()));
    let gpus = lab.config.with_untracked(|c| c.gpus);
    let is_moe = Memo::new(move |_| {
        lab.config
            .with(|c| c.model.resolve().is_ok_and(|m| m.is_moe()))
    });
    let is_moe = move || is_moe.get();
    let model = kit.shows(Control::Model).then(|| {
        view! {
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
                <ModelCard model=shape />
                {GridKit::draw(kit.own_model, lab)}
        }
    });
    let card = kit.shows(Control::Card).then(|| {
        view! {
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
        }
    });
    let precision = kit.shows(Control::Precision).then(|| {
        view! {
                <Choice
                    lab=lab
                    field="precision"
                    test_id="select-precision"
                    label_zh="每参数字节（梯度精度：课上记 16，种子 000 记 18）"
                    label_en="Bytes per parameter (gradients: the lesson counts 16, seed 000 18)"
                    options=vec![
                        ("bf16-grads", "16：BF16 梯度", "16: BF16 grads"),
                        ("fp32-grads", "18：FP32 梯度", "18: FP32 grads"),
                    ]
                    get=|c| c.precision.as_str().to_string()
                    set=|c, v| {
                        c.precision = match v {
                            "fp32-grads" => Precision::Fp32Grads,
                            _ => Precision::Bf16Grads,
                        }
                    }
                />
        }
    });
    let schedule = kit.shows(Control::Schedule).then(|| {
        view! {
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
        }
    });
    let accounting = kit.shows(Control::Accounting).then(|| {
        view! {
                <Choice
                    lab=lab
                    field="accounting"
                    test_id="select-accounting"
                    label_zh="显存怎么记（课上均分，记第一段；按段则每张卡记自己的段）"
                    label_en="Memory accounting (the lesson: an even split, the first stage; by stage: each card its own)"
                    options=vec![
                        ("even", "均分", "even split"),
                        ("stages", "按段计", "by stage"),
                    ]
                    get=|c| c.accounting.as_str().to_string()
                    set=|c, v| {
                        c.accounting = match v {
                            "stages" => Accounting::Stages,
                            _ => Accounting::Even,
                        }
                    }
                />
        }
    });
    let ep = kit.shows(Control::Ep);
    let is_moe = move || ep && is_moe();
    view! {
        {model}
        {card}
            <Show when=is_moe>
                <Slider spec=ep_spec(gpus) lab=lab />
            </Show>
        {precision}
            {GridKit::draw(kit.host, lab)}
        {schedule}
        {accounting}
    }
}
