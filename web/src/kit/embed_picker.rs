//! The embed dialog's two choices for a grid widget: the controls it shows (`controls=`) and
//! the parts it draws (`parts=`), each a list of checkboxes a teacher ticks.

use leptos::prelude::*;
use parallel_core::link::{Control, Controls, Part, Parts, Widget};

use crate::kit::i18n::{use_lang, T};

/// A control's name in the embed dialog (中文, English).
fn control_name(control: Control) -> (&'static str, &'static str) {
    match control {
        Control::Tp => ("TP", "TP"),
        Control::Pp => ("PP", "PP"),
        Control::Cp => ("CP", "CP"),
        Control::MicroBatches => ("micro-batch 数 m", "micro-batches m"),
        Control::Seq => ("序列长度", "sequence length"),
        Control::Zero => ("ZeRO", "ZeRO"),
        Control::Recompute => ("重计算", "recompute"),
        Control::Model => ("模型", "model"),
        Control::Card => ("卡型", "card"),
        Control::Ep => ("EP（MoE）", "EP (MoE)"),
        Control::Precision => ("梯度字节", "gradient bytes"),
        Control::Schedule => ("流水线调度", "pipeline schedule"),
        Control::Accounting => ("显存记账", "memory accounting"),
        Control::SequenceParallel => ("序列并行", "sequence parallelism"),
        Control::RuntimeMemory => ("运行时显存", "runtime memory"),
        Control::SequenceSkew => ("序列不等长", "uneven sequences"),
    }
}

/// A part's name in the embed dialog (中文, English).
fn part_name(part: Part) -> (&'static str, &'static str) {
    match part {
        Part::Grid => ("设备网格", "the device grid"),
        Part::Figures => ("显存、气泡与提醒", "memory, bubble and warnings"),
        Part::Estimate => ("步时估算", "the step-time estimate"),
        Part::Traffic => ("通信表", "the traffic table"),
        Part::ChartMemory => ("图：ZeRO 各级显存", "chart: memory by ZeRO stage"),
        Part::ChartBalance => ("图：3D 平衡", "chart: the 3D balance"),
        Part::ChartStages => ("图：各段显存", "chart: memory by stage"),
        Part::ChartTraffic => ("图：各维通信", "chart: traffic by dimension"),
        Part::ChartBubble => ("图：气泡", "chart: the bubble"),
        Part::Schedule => ("流水线时间线", "the pipeline timeline"),
    }
}

/// One checkbox of a picker: its test id, its name, whether it is ticked, and what ticking
/// it does.
struct Check {
    test_id: String,
    name: (&'static str, &'static str),
    ticked: Signal<bool>,
    tick: Callback<bool>,
}

/// A picker: a fieldset of checkboxes under its legend.
fn check_list(
    test_id: String,
    class: &'static str,
    legend: AnyView,
    checks: Vec<Check>,
) -> impl IntoView {
    let lang = use_lang();
    let boxes = checks
        .into_iter()
        .map(|check| {
            let Check {
                test_id,
                name: (zh, en),
                ticked,
                tick,
            } = check;
            view! {
                <label class="check">
                    <input
                        type="checkbox"
                        data-testid=test_id
                        prop:checked=move || ticked.get()
                        on:change=move |ev| tick.run(event_target_checked(&ev))
                    />
                    " " {move || lang.get().pick(zh, en)}
                </label>
            }
        })
        .collect_view();
    view! {
        <fieldset class=class data-testid=test_id>
            <legend>{legend}</legend>
            {boxes}
        </fieldset>
    }
}

/// The controls a grid widget shows: one checkbox per control, the lesson's ticked to begin
/// with.
#[component]
pub fn ControlPicker(widget: Widget, picked: RwSignal<Controls>) -> impl IntoView {
    let checks = Control::ALL
        .into_iter()
        .map(|control| Check {
            test_id: format!("embed-control-{}-{}", widget.id(), control.id()),
            name: control_name(control),
            ticked: Signal::derive(move || picked.get().contains(control)),
            tick: Callback::new(move |on| picked.update(|set| *set = set.with(control, on))),
        })
        .collect();
    let legend =
        view! { <T zh="挂件里显示哪些控件：" en="Controls the widget shows:" /> }.into_any();
    check_list(
        format!("embed-controls-{}", widget.id()),
        "embed-controls",
        legend,
        checks,
    )
}

/// The parts a grid widget draws: one checkbox per part, the grid and its figures ticked to
/// begin with (one screen in a course page's column).
#[component]
pub fn PartPicker(widget: Widget, picked: RwSignal<Parts>) -> impl IntoView {
    let checks = Part::ALL
        .into_iter()
        .map(|part| Check {
            test_id: format!("embed-part-{}-{}", widget.id(), part.id()),
            name: part_name(part),
            ticked: Signal::derive(move || picked.get().contains(part)),
            tick: Callback::new(move |on| picked.update(|set| *set = set.with(part, on))),
        })
        .collect();
    let legend = view! {
        <T zh="挂件里画哪些部分（默认只有网格和它的数字，一屏之内）："
           en="Parts the widget draws (by default the grid and its figures, one screen):" />
    }
    .into_any();
    check_list(
        format!("embed-parts-{}", widget.id()),
        "embed-controls",
        legend,
        checks,
    )
}
