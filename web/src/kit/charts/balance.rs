//! The 3D balance (SPEC §23): memory per card against the bytes a card sends per step, for TP,
//! PP and the ZeRO stage each moved alone from the plan as it stands (`Plan::balance`). Each
//! lever is a line of its points, labelled with its value; the plan itself, where the three
//! meet, is ringed; the card's capacity is the dashed line.

use leptos::prelude::*;
use parallel_core::balance::{BalancePoint, Lever, LeverPath};
use parallel_core::{Bytes, Plan};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::axes::{capacity_line, mesh, plot, short, under_legend, Margins};
use super::canvas::{series_figure, spaced, CanvasSpec};
use super::layout::{fail, label, linear_ticks, message, Mark, Place, Scale, Ticked};
use super::palette::{BAD, DP, INK, PP, TP};
use crate::kit::format;
use crate::kit::i18n::Lang;

/// The sentences of the balance chart.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The capacity line in the legend.
        pub const CAPACITY: Text = Text {
            zh: "单卡显存 {capacity}",
            en: "card {capacity}",
        };
        /// One lever's path in the summary.
        pub const PATH: Text = Text {
            zh: "{lever} 从 {first} 到 {last}：每卡显存 {memory_first} → {memory_last}，每步发送 {sent_first} → {sent_last}",
            en: "{lever} from {first} to {last}: memory per card {memory_first} → {memory_last}, sent per step {sent_first} → {sent_last}",
        };
        /// The chart in one sentence (`aria-label`); `paths` lists the paths above.
        pub const SUMMARY: Text = Text {
            zh: "3D 平衡，一次只动一个旋钮：{paths}。当前方案 {memory}、每步发送 {sent}；单卡显存 {capacity}。",
            en: "3D balance, one lever moved at a time: {paths}. The current plan: {memory}, {sent} sent per step; card capacity {capacity}.",
        };
    }
}

/// The balance chart's data: each lever's path (`Plan::balance`) and the card's capacity.
#[derive(Clone, Debug, PartialEq)]
pub struct BalanceSeries {
    /// TP, PP and ZeRO, in that order.
    pub paths: Vec<LeverPath>,
    /// The card's capacity.
    pub capacity: Bytes,
}

/// The balance of `plan`.
pub fn balance_series(plan: &Plan) -> BalanceSeries {
    BalanceSeries {
        paths: plan.balance(),
        capacity: plan.capacity(),
    }
}

/// A lever's colour: its dimension's (ZeRO is data parallelism's).
fn color(lever: Lever) -> RGBColor {
    match lever {
        Lever::Tp => TP,
        Lever::Pp => PP,
        Lever::Zero => DP,
    }
}

/// A lever's name on the chart and in the summary.
fn name(lever: Lever) -> &'static str {
    match lever {
        Lever::Tp => "TP",
        Lever::Pp => "PP",
        Lever::Zero => "ZeRO",
    }
}

/// A point's label: "2" on TP's and PP's lines, "Z1" on ZeRO's.
fn value_label(lever: Lever, value: u32) -> String {
    match lever {
        Lever::Zero => format!("Z{value}"),
        _ => value.to_string(),
    }
}

/// The plan's own point (where the three paths meet).
fn current(data: &BalanceSeries) -> Option<&BalancePoint> {
    let path = data.paths.first()?;
    path.points.iter().find(|p| p.value == path.current)
}

/// Draws the balance chart on `area`.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &BalanceSeries,
    lang: Lang,
) -> Result<(), String> {
    let s = Scale::of(area)?;
    let all: Vec<&BalancePoint> = data.paths.iter().flat_map(|p| &p.points).collect();
    if all.is_empty() {
        return message(area, lang.pick("没有可画的方案。", "No plan to draw."));
    }
    let capacity = text::CAPACITY.fill(lang, &[("capacity", &format::bytes(data.capacity))]);
    let mut entries: Vec<(Mark, String)> = data
        .paths
        .iter()
        .map(|p| (Mark::Line(color(p.lever)), name(p.lever).to_string()))
        .collect();
    entries.push((
        Mark::Dot(INK),
        lang.pick("当前方案", "current plan").to_string(),
    ));
    entries.push((Mark::Dashed(BAD), capacity));
    let body = under_legend(area, s, &entries, None)?;

    let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
    let most_sent = all.iter().map(|p| finite(p.sent.gb())).fold(0.0, f64::max);
    let most_memory = all
        .iter()
        .map(|p| finite(p.memory.gb()))
        .fold(data.capacity.gb(), f64::max);
    let (x_ticks, x_end) = linear_ticks(most_sent * 1.08, 5);
    let (y_ticks, y_end) = linear_ticks(most_memory * 1.1, 5);
    let room = Margins {
        right: 24.0,
        x_labels: 44.0,
        y_labels: 52.0,
    };
    let mut chart = plot(
        &body,
        s,
        room,
        Ticked::new(0.0..x_end, x_ticks),
        Ticked::new(0.0..y_end, y_ticks),
    )?;
    let axis_label = |v: &f64| short(*v);
    let mut grid = mesh(&mut chart, s, 12.0);
    grid.x_label_formatter(&axis_label)
        .y_label_formatter(&axis_label)
        .x_desc(lang.pick("每卡每步发送（GB）", "sent per card per step (GB)"))
        .y_desc(lang.pick("每卡显存（GB）", "memory per card (GB)"));
    grid.draw().map_err(fail)?;
    capacity_line(&mut chart, data.capacity.gb(), s)?;

    for path in &data.paths {
        let ink = color(path.lever);
        let at = |p: &BalancePoint| (finite(p.sent.gb()), finite(p.memory.gb()));
        chart
            .draw_series(LineSeries::new(
                path.points.iter().map(at),
                ink.stroke_width(s.stroke(2.0)),
            ))
            .map_err(fail)?;
        for point in &path.points {
            // A plan that fits is a filled dot; one over the card, a ring.
            let style = if point.fits {
                ink.filled()
            } else {
                ink.stroke_width(s.stroke(1.5))
            };
            chart
                .draw_series([Circle::new(at(point), s.stroke(3.5), style)])
                .map_err(fail)?;
            if point.value != path.current {
                let place = Place {
                    at: chart.backend_coord(&at(point)),
                    shift: (s.px(5.0), -s.px(3.0)),
                    h: HPos::Left,
                    v: VPos::Bottom,
                };
                let text = value_label(path.lever, point.value);
                label(area, &text, place, s.text(11.0, &ink), true)?;
            }
        }
    }
    if let Some(point) = current(data) {
        let at = (finite(point.sent.gb()), finite(point.memory.gb()));
        chart
            .draw_series([
                Circle::new(at, s.stroke(7.0), INK.stroke_width(s.stroke(2.0))),
                Circle::new(at, s.stroke(3.0), INK.filled()),
            ])
            .map_err(fail)?;
        let place = Place {
            at: chart.backend_coord(&at),
            shift: (s.px(9.0), s.px(4.0)),
            h: HPos::Left,
            v: VPos::Top,
        };
        let text = format!(
            "{} · {}",
            format::bytes(point.memory),
            format::bytes(point.sent)
        );
        label(area, &text, place, s.bold(12.0, &INK), true)?;
    }
    Ok(())
}

/// The chart as one sentence, for `aria-label`.
pub fn summary(data: &BalanceSeries, lang: Lang) -> String {
    let paths: Vec<String> = data
        .paths
        .iter()
        .filter_map(|path| {
            let (first, last) = (path.points.first()?, path.points.last()?);
            Some(text::PATH.fill(
                lang,
                &[
                    ("lever", &name(path.lever)),
                    ("first", &value_label(path.lever, first.value)),
                    ("last", &value_label(path.lever, last.value)),
                    ("memory_first", &format::bytes(first.memory)),
                    ("memory_last", &format::bytes(last.memory)),
                    ("sent_first", &format::bytes(first.sent)),
                    ("sent_last", &format::bytes(last.sent)),
                ],
            ))
        })
        .collect();
    let (memory, sent) = current(data).map_or_else(
        || ("—".to_string(), "—".to_string()),
        |p| (format::bytes(p.memory), format::bytes(p.sent)),
    );
    text::SUMMARY.fill(
        lang,
        &[
            ("paths", &paths.join(lang.pick("；", "; "))),
            ("memory", &memory),
            ("sent", &sent),
            ("capacity", &format::bytes(data.capacity)),
        ],
    )
}

/// The 3D balance of `plan`, drawn on a canvas (`data-testid="chart-balance"`). `data-series`
/// holds each point as "lever:value:memory bytes:sent bytes".
#[component]
pub fn BalanceChart(#[prop(into)] plan: Signal<Plan>) -> impl IntoView {
    let series = Memo::new(move |_| plan.with(balance_series));
    let values = |s: &BalanceSeries| {
        spaced(s.paths.iter().flat_map(|path| {
            path.points.iter().map(|p| {
                format!(
                    "{}:{}:{}:{}",
                    path.lever.as_str(),
                    p.value,
                    p.memory.get(),
                    p.sent.get()
                )
            })
        }))
    };
    let spec = CanvasSpec::of("chart-balance", series, summary, values, |_, _| None);
    let title = (
        "3D 平衡：每卡显存与每步发送的字节，一次只动一个旋钮",
        "3D balance: memory per card against bytes sent per step, one lever at a time",
    );
    series_figure(title, spec, series, draw)
}

#[cfg(test)]
// `|a, d, l| draw(a, d, l)` is no redundant closure: it takes an SVG of any lifetime, which
// the generic `draw` alone does not.
#[allow(clippy::unwrap_used, clippy::panic, clippy::redundant_closure)]
mod tests {
    use super::*;
    use crate::kit::charts::test_support::{assert_said, svg, Said};
    use crate::kit::text::testing::assert_each_lang_uses_all;
    use parallel_core::PlanConfig;

    fn lesson_64() -> Plan {
        Plan::new(&PlanConfig::lesson_64_gpus()).unwrap()
    }

    #[test]
    fn the_series_is_the_cores_balance() {
        let plan = lesson_64();
        let data = balance_series(&plan);
        assert_eq!(data.paths, plan.balance());
        assert_eq!(data.capacity, plan.capacity());
        let levers: Vec<Lever> = data.paths.iter().map(|p| p.lever).collect();
        assert_eq!(levers, Lever::ALL);
    }

    #[test]
    fn it_draws_and_says_each_lever_in_both_languages() {
        let data = balance_series(&lesson_64());
        let said = Said {
            en: &[
                "TP",
                "PP",
                "ZeRO",
                "current plan",
                "Z3",
                "sent per card per step (GB)",
            ],
            zh: &["TP", "PP", "ZeRO", "当前方案", "Z3", "每卡显存（GB）"],
            zh_summary: &["TP 从 1 到 8", "ZeRO 从 Z0 到 Z3", "当前方案"],
        };
        assert_said(|a, d, l| draw(a, d, l), summary, &data, said);
    }

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let data = balance_series(&lesson_64());
        assert_each_lang_uses_all(text::ALL, |lang| {
            let (drawn, _) = svg((640, 360), |area| draw(area, &data, lang));
            assert_eq!(drawn, Ok(()));
            summary(&data, lang)
        });
    }
}
