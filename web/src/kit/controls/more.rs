//! The controls beyond the lesson's: the model and the card (each with its facts), expert
//! parallelism for an MoE model, bytes per gradient, sequence parallelism, the pipeline
//! schedule, memory accounting and the runtime memory terms. On the lesson's grids they sit behind "more controls" (see [`super::GridControls`]).

use leptos::prelude::*;
use parallel_core::hardware::Hardware;
use parallel_core::link::{Control, GRID_MAX_CHUNKS};
use parallel_core::{Accounting, Field, ModelChoice, PlanConfig, Precision, Preset, Schedule};

use super::card::{card_options, CardFacts};
use super::choice::{Choice, Options};
use super::ids::test_id;
use super::slider::{ep_spec, Slider};
use crate::kit::choices::Choices;
use crate::kit::grid_kit::GridKit;
use crate::kit::model_card::ModelCard;
use crate::kit::routing::RoutingControls;
use crate::state::lab::{part, GridLab};
use crate::state::split::split_part;

/// The controls [`MoreControls`] draws, where a grid shows them.
pub(super) const MORE: [Control; 9] = [
    Control::Model,
    Control::Card,
    Control::Ep,
    Control::Precision,
    Control::SequenceParallel,
    Control::Schedule,
    Control::Accounting,
    Control::RuntimeMemory,
    Control::SequenceSkew,
];

split_part! { in more_controls;
    /// [`MoreControls`], from a split module of its own.
    pub(super) fn more_controls(lab: GridLab, kit: GridKit) {
        view! { <MoreControls lab=lab kit=kit /> }
    }
}

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
        // The presets, then "your own model" (a config.json, set elsewhere).
        let list = Preset::ALL
            .iter()
            .map(|p| (Some(*p), p.name(), p.name()))
            .chain([(None, "你自己的模型", "your own model")])
            .collect();
        let options = Options {
            choices: Choices { list, id: |p| p.map_or("custom", Preset::id) },
            get: |c| match &c.model {
                ModelChoice::Preset(p) => Some(*p),
                _ => None,
            },
            set: |c, preset| {
                if let Some(preset) = preset {
                    c.model = ModelChoice::Preset(preset);
                    // Expert parallelism and routing exist only for MoE models.
                    if !preset.model().is_moe() {
                        c.ep = 1;
                        let even = PlanConfig::default();
                        c.routing_skew = even.routing_skew;
                        c.capacity_factor = even.capacity_factor;
                    }
                }
            },
        };
        view! {
            <Choice lab=lab field=Field::Model test_id=test_id(Control::Model) label_zh="模型" label_en="Model" options=options />
            <ModelCard model=shape />
            {GridKit::draw(kit.own_model, lab)}
        }
    });
    let card = kit.shows(Control::Card).then(|| {
        let options = Options {
            choices: Choices { list: card_options(), id: Hardware::as_str },
            get: |c| c.hardware,
            set: |c, hardware| *c = c.clone().use_card(hardware),
        };
        view! {
            <Choice lab=lab field=Field::Hardware test_id=test_id(Control::Card) label_zh="卡型" label_en="Card" options=options />
            <CardFacts lab=lab />
        }
    });
    let precision = kit.shows(Control::Precision).then(|| {
        let words = |p| match p {
            Precision::Bf16Grads => ("16：BF16 梯度", "16: BF16 grads"),
            Precision::Fp32Grads => ("18：FP32 梯度", "18: FP32 grads"),
        };
        let options = Options {
            choices: Choices::named(
                &[Precision::Bf16Grads, Precision::Fp32Grads],
                Precision::as_str,
                words,
            ),
            get: |c| c.precision,
            set: |c, v| c.precision = v,
        };
        view! {
            <Choice lab=lab field=Field::Precision test_id=test_id(Control::Precision) options=options
                label_zh="每参数字节（梯度精度：课上记 16，种子 000 记 18）"
                label_en="Bytes per parameter (gradients: the lesson counts 16, seed 000 18)" />
        }
    });
    let schedule = kit.shows(Control::Schedule).then(|| {
        let words = |s| match s {
            Schedule::OneFOneB => ("1F1B", "1F1B"),
            Schedule::Gpipe => ("GPipe", "GPipe"),
            Schedule::Interleaved => ("interleaved(v = 2)", "interleaved (v = 2)"),
        };
        let schedules = [Schedule::OneFOneB, Schedule::Gpipe, Schedule::Interleaved];
        let options = Options {
            choices: Choices::named(&schedules, Schedule::as_str, words),
            get: |c| c.schedule,
            // Interleaved runs the grid's two chunks a stage; the others one.
            set: |c, schedule| {
                c.schedule = schedule;
                c.virtual_stages = if schedule == Schedule::Interleaved {
                    GRID_MAX_CHUNKS
                } else {
                    1
                };
            },
        };
        view! { <Choice lab=lab field=Field::Schedule test_id=test_id(Control::Schedule) label_zh="流水线调度" label_en="Pipeline schedule" options=options /> }
    });
    let accounting = kit.shows(Control::Accounting).then(|| {
        let words = |a| match a {
            Accounting::Even => ("均分", "even split"),
            Accounting::Stages => ("按段计", "by stage"),
        };
        let options = Options {
            choices: Choices::named(&[Accounting::Even, Accounting::Stages], Accounting::as_str, words),
            get: |c| c.accounting,
            set: |c, v| c.accounting = v,
        };
        view! {
            <Choice lab=lab field=Field::Accounting test_id=test_id(Control::Accounting) options=options
                label_zh="显存怎么记（课上均分，记第一段；按段则每张卡记自己的段）"
                label_en="Memory accounting (the lesson: an even split, the first stage; by stage: each card its own)" />
        }
    });
    let sequence = kit.shows(Control::SequenceParallel).then(|| {
        let options = Options {
            choices: Choices::switch(
                true,
                ("开：也按 TP 切开", "on: split over TP"),
                ("关：每卡存整份", "off: kept whole"),
            ),
            get: |c| c.sequence_parallel,
            set: |c, v| c.sequence_parallel = v,
        };
        view! {
            <Choice lab=lab field=Field::SequenceParallel test_id=test_id(Control::SequenceParallel) options=options
                label_zh="序列并行（SP，TP > 1 时才起作用：LayerNorm、Dropout 前后的激活也按 TP 切开，关掉则每卡存整份）"
                label_en="Sequence parallelism (SP, acts only when TP > 1: the activations around LayerNorm and dropout split over TP too; off, every card keeps them whole)" />
        }
    });
    let runtime = kit.shows(Control::RuntimeMemory).then(|| {
        let options = Options {
            choices: Choices::switch(false, ("开：算上", "on: counted"), ("关：不算", "off")),
            get: |c| c.runtime_memory,
            set: |c, v| c.runtime_memory = v,
        };
        view! {
            <Choice lab=lab field=Field::RuntimeMemory test_id=test_id(Control::RuntimeMemory) options=options
                label_zh="运行时显存（CUDA 上下文、序列并行的聚齐缓冲、分配器预留；前后两项在一张 H200 上实测）"
                label_en="Runtime memory (the CUDA context, the sequence-parallel gather buffer, the allocator's reserve; the first and last measured on one H200)" />
        }
    });
    let sequences = kit.shows(Control::SequenceSkew).then(|| {
        // σ in halves (2 = 1×); `None`: a σ no option spells (from a link or the CLI), shown
        // as itself and chosen only by the plan, as the model select's "your own model".
        let list = [
            (Some(2), "1×：都打包成 s", "1×: all packed to s"),
            (Some(3), "1.5×", "1.5×"),
            (Some(4), "2×", "2×"),
            (Some(8), "4×", "4×"),
            (None, "其他 σ", "other σ"),
        ]
        .to_vec();
        let options = Options {
            choices: Choices {
                list,
                id: |o: Option<u8>| match o {
                    Some(2) => "packed",
                    Some(3) => "x1.5",
                    Some(4) => "x2",
                    Some(8) => "x4",
                    _ => "other",
                },
            },
            get: |c| {
                let halves = c.sequence_skew * 2.0;
                [2u8, 3, 4, 8].into_iter().find(|&o| f64::from(o) == halves)
            },
            set: |c, o| {
                if let Some(halves) = o {
                    c.sequence_skew = f64::from(halves) / 2.0;
                }
            },
        };
        view! {
            <Choice lab=lab field=Field::SequenceSkew test_id=test_id(Control::SequenceSkew) options=options
                label_zh="最长的 micro-batch（序列不等长、不打包时，它落在第一组数据并行的卡上）"
                label_en="The longest micro-batch (sequences of uneven length, not packed: it lands on the first data-parallel replica's cards)" />
        }
    });
    let ep = kit.shows(Control::Ep);
    let is_moe = move || ep && is_moe();
    view! {
        {model}
        {card}
            <Show when=is_moe>
                <Slider spec=ep_spec(gpus) lab=lab />
                <RoutingControls lab=lab />
            </Show>
        {precision}
            {GridKit::draw(kit.host, lab)}
        {sequence}
        {schedule}
        {accounting}
        {runtime}
        {sequences}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::controls::slider::SLIDER_CONTROLS;

    #[test]
    fn every_control_is_the_lessons_or_one_of_these_once() {
        // An embedded grid fetches these controls' module only where its link names one of
        // them: a control missing from both lists would never be drawn there.
        for control in Control::ALL {
            let lessons = SLIDER_CONTROLS.contains(&control)
                || matches!(control, Control::Zero | Control::Recompute);
            assert_ne!(lessons, MORE.contains(&control), "{control:?}");
        }
        assert_eq!(Control::ALL.len(), SLIDER_CONTROLS.len() + 2 + MORE.len());
    }
}
