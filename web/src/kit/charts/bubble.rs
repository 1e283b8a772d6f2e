//! The pipeline bubble against the number of micro-batches m, at the plan's p (and v when
//! interleaved): the ratio idle ÷ compute, (p−1)/(v·m), and its share of the step, for
//! m = 1..=64, the plan's own m marked. Both come from `parallel_core::Bubble::of`. The y axis
//! is logarithmic (the ratio spans nearly two decades over m = 1..64) and says so.

use leptos::prelude::*;
use parallel_core::{Bubble, Plan};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::axes::{mesh, plot, under_legend, Margins, Ticks};
use super::canvas::{series_figure, CanvasSpec};
use super::layout::{fail, label, log_ticks, message, tick_text, Mark, Place, Scale, Ticked};
use super::palette::{INK, MUTED, PP};
use crate::kit::format;
use crate::kit::i18n::Lang;

/// The chart runs over m = 1..=M_MAX, further when the plan's own m is larger.
pub const M_MAX: u32 = 64;
/// The chart never runs past this m, whatever the plan says.
const M_CAP: u32 = 1024;
/// PP's orange, darkened for text on white.
const PP_TEXT: RGBColor = RGBColor(0xb3, 0x5c, 0x00);

/// The sentences of the bubble chart.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The dashed curve's name in the legend.
        pub const RATIO: Text = Text {
            zh: "空等 ÷ 计算 = (p−1)/m",
            en: "idle ÷ compute = (p−1)/m",
        };
        /// The same, interleaved.
        pub const RATIO_INTERLEAVED: Text = Text {
            zh: "空等 ÷ 计算 = (p−1)/(v·m)",
            en: "idle ÷ compute = (p−1)/(v·m)",
        };
        /// The plan's own point in the legend.
        pub const CURRENT: Text = Text {
            zh: "当前 m = {m}",
            en: "current m = {m}",
        };
        /// The chart in one sentence (`aria-label`).
        pub const SUMMARY: Text = Text {
            zh: "流水线气泡（{stages}）：空等 ÷ 计算从 m = {first_m} 的 {first_ratio} 降到 m = \
                 {last_m} 的 {last_ratio}，占整步时间从 {first_share} 降到 {last_share}。当前 m = \
                 {m}：空等 ÷ 计算 {ratio}，占整步 {share}。",
            en: "Pipeline bubble at {stages}: idle ÷ compute falls from {first_ratio} at m = \
                 {first_m} to {last_ratio} at m = {last_m}; its share of the step from \
                 {first_share} to {last_share}. Current m = {m}: {ratio} idle ÷ compute, {share} \
                 of the step.",
        };
    }
}

/// The bubble at one m.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BubblePoint {
    /// Micro-batches per step.
    pub m: u32,
    /// `Bubble::of(p, m, v)`.
    pub bubble: Bubble,
}

/// The bubble chart's data.
#[derive(Clone, Debug, PartialEq)]
pub struct BubbleSeries {
    /// Pipeline stages p.
    pub pp: u32,
    /// Model chunks per stage v (1 unless the schedule is interleaved).
    pub virtual_stages: u32,
    /// The plan's m.
    pub current_m: u32,
    /// The plan's bubble (`Plan::bubble`).
    pub current: Bubble,
    /// m = 1..=64 (or up to the plan's m, at most 1024).
    pub points: Vec<BubblePoint>,
}

/// The bubble of `plan`'s p and v for every m of the chart.
pub fn bubble_series(plan: &Plan) -> BubbleSeries {
    let pp = plan.degrees().pp;
    // `Plan::new` allows v > 1 only with the interleaved schedule, so this is the v that counts.
    let virtual_stages = plan.virtual_stages();
    let current_m = plan.micro_batches();
    let last = current_m.clamp(M_MAX, M_CAP);
    BubbleSeries {
        pp,
        virtual_stages,
        current_m,
        current: plan.bubble(),
        points: (1..=last)
            .map(|m| BubblePoint {
                m,
                bubble: Bubble::of(pp, m, virtual_stages),
            })
            .collect(),
    }
}

fn no_bubble_text(lang: Lang) -> &'static str {
    lang.pick(
        "PP = 1：只有一段流水线，没有气泡。",
        "PP = 1: a single pipeline stage, so there is no bubble.",
    )
}

fn ratio_label(lang: Lang, virtual_stages: u32) -> &'static str {
    if virtual_stages > 1 {
        text::RATIO_INTERLEAVED.get(lang)
    } else {
        text::RATIO.get(lang)
    }
}

fn stages_text(data: &BubbleSeries) -> String {
    if data.virtual_stages > 1 {
        format!("p = {}, v = {}", data.pp, data.virtual_stages)
    } else {
        format!("p = {}", data.pp)
    }
}

/// The x ticks: 1, then multiples of a power-of-two step (8 for m up to 64).
fn m_ticks(last: u32) -> Vec<f64> {
    let step = (last / 8).max(1).next_power_of_two();
    std::iter::once(1)
        .chain((1..).map(|k| k * step).take_while(|m| *m <= last))
        .filter(|m| *m >= 1)
        .map(f64::from)
        .collect()
}

/// Draws the bubble chart on `area`; p = 1 draws the note that there is no bubble.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &BubbleSeries,
    lang: Lang,
) -> Result<(), String> {
    let s = Scale::of(area)?;
    if data.pp <= 1 {
        return message(area, no_bubble_text(lang));
    }
    // (m, ratio %, share %), only where a log axis can show them.
    let points: Vec<(f64, f64, f64)> = data
        .points
        .iter()
        .map(|p| {
            (
                f64::from(p.m),
                p.bubble.ratio * 100.0,
                p.bubble.share * 100.0,
            )
        })
        .filter(|&(_, ratio, share)| ratio.is_finite() && share.is_finite() && share > 0.0)
        .collect();
    let (Some(first), Some(last)) = (points.first().copied(), points.last().copied()) else {
        return message(area, lang.pick("没有可画的点。", "Nothing to draw."));
    };
    let current_label = text::CURRENT.fill(lang, &[("m", &data.current_m)]);
    let stages = stages_text(data);
    let body = under_legend(
        area,
        s,
        &[
            (
                Mark::Line(PP),
                lang.pick("占整步时间", "share of the step").to_string(),
            ),
            (
                Mark::Dashed(INK),
                ratio_label(lang, data.virtual_stages).to_string(),
            ),
            (Mark::Dot(PP), current_label),
        ],
        Some(&stages),
    )?;

    let lowest = points.iter().map(|p| p.2).fold(f64::INFINITY, f64::min);
    let highest = points.iter().map(|p| p.1).fold(0.0, f64::max);
    // Room below the lowest point and above the highest for the current point's labels.
    let (ticks, range) = log_ticks(lowest / 2.0, highest * 1.5);
    let y_ticks = Ticks(
        ticks
            .into_iter()
            .map(|(v, d)| (v.log10(), format!("{}%", tick_text(v, d))))
            .collect(),
    );
    let x_end = last.0.max(first.0 + 1.0);
    let room = Margins {
        right: 20.0,
        x_labels: 44.0,
        y_labels: 58.0,
    };
    let x = Ticked::new(first.0..x_end, m_ticks(x_end as u32));
    let y = Ticked::new(range.start.log10()..range.end.log10(), y_ticks.places());
    let mut chart = plot(&body, s, room, x, y)?;
    let y_label = |v: &f64| y_ticks.label(v);
    let m_label = |m: &f64| format!("{m:.0}");
    let mut grid = mesh(&mut chart, s, 12.0);
    grid.x_label_formatter(&m_label)
        .y_label_formatter(&y_label)
        .x_desc(lang.pick("m（每步 micro-batch 数）", "m (micro-batches per step)"))
        .y_desc(lang.pick("%（对数坐标）", "% (log scale)"));
    grid.draw().map_err(fail)?;

    chart
        .draw_series(DashedLineSeries::new(
            points.iter().map(|&(m, ratio, _)| (m, ratio.log10())),
            s.px(6.0),
            s.px(4.0),
            INK.stroke_width(s.stroke(1.5)),
        ))
        .map_err(fail)?;
    chart
        .draw_series(LineSeries::new(
            points.iter().map(|&(m, _, share)| (m, share.log10())),
            PP.stroke_width(s.stroke(2.5)),
        ))
        .map_err(fail)?;

    let m = f64::from(data.current_m);
    let (ratio, share) = (data.current.ratio * 100.0, data.current.share * 100.0);
    if (first.0..=x_end).contains(&m) && share > 0.0 && ratio.is_finite() {
        chart
            .draw_series(DashedLineSeries::new(
                [(m, range.start.log10()), (m, range.end.log10())],
                s.px(3.0),
                s.px(3.0),
                MUTED.stroke_width(1),
            ))
            .map_err(fail)?;
        let ratio_at = (m, ratio.log10());
        let share_at = (m, share.log10());
        chart
            .draw_series([
                Circle::new(ratio_at, s.stroke(3.5), INK.filled()),
                Circle::new(share_at, s.stroke(4.5), PP.filled()),
            ])
            .map_err(fail)?;
        // The curves fall to the right: the ratio's label goes above and to the right of its
        // point, the share's below and to the left (to the right near the left edge).
        let ratio_place = Place {
            at: chart.backend_coord(&ratio_at),
            shift: (s.px(6.0), -s.px(3.0)),
            h: HPos::Left,
            v: VPos::Bottom,
        };
        label(
            area,
            &format::percent(data.current.ratio),
            ratio_place,
            s.text(12.0, &INK),
            true,
        )?;
        let near_left = m < first.0 + 0.12 * (x_end - first.0);
        let share_place = Place {
            at: chart.backend_coord(&share_at),
            shift: (if near_left { s.px(6.0) } else { -s.px(6.0) }, s.px(3.0)),
            h: if near_left { HPos::Left } else { HPos::Right },
            v: VPos::Top,
        };
        label(
            area,
            &format::percent(data.current.share),
            share_place,
            s.bold(13.0, &PP_TEXT),
            true,
        )?;
    }
    Ok(())
}

/// The chart as one sentence, for `aria-label`.
pub fn summary(data: &BubbleSeries, lang: Lang) -> String {
    let (Some(first), Some(last)) = (data.points.first(), data.points.last()) else {
        return no_bubble_text(lang).to_string();
    };
    if data.pp <= 1 {
        return no_bubble_text(lang).to_string();
    }
    let pct = format::percent;
    text::SUMMARY.fill(
        lang,
        &[
            ("stages", &stages_text(data)),
            ("first_m", &first.m),
            ("first_ratio", &pct(first.bubble.ratio)),
            ("first_share", &pct(first.bubble.share)),
            ("last_m", &last.m),
            ("last_ratio", &pct(last.bubble.ratio)),
            ("last_share", &pct(last.bubble.share)),
            ("m", &data.current_m),
            ("ratio", &pct(data.current.ratio)),
            ("share", &pct(data.current.share)),
        ],
    )
}

/// The bubble against m at `plan`'s p (and v), the plan's m marked, drawn on a canvas
/// (`data-testid="chart-bubble"`); p = 1 shows a note instead. `data-series` holds the current
/// point as "p=… v=… m=… ratio=… share=…".
#[component]
pub fn BubbleChart(#[prop(into)] plan: Signal<Plan>) -> impl IntoView {
    let series = Memo::new(move |_| plan.with(bubble_series));
    let values = |s: &BubbleSeries| {
        format!(
            "p={} v={} m={} ratio={} share={}",
            s.pp, s.virtual_stages, s.current_m, s.current.ratio, s.current.share
        )
    };
    let note = |s: &BubbleSeries, lang| (s.pp <= 1).then(|| no_bubble_text(lang).to_string());
    let spec = CanvasSpec::of("chart-bubble", series, summary, values, note);
    series_figure(
        ("流水线气泡随 m 的变化", "Pipeline bubble against m"),
        spec,
        series,
        draw,
    )
}

#[cfg(test)]
// `|a, d, l| draw(a, d, l)` is no redundant closure: it takes an SVG of any lifetime, which
// the generic `draw` alone does not.
#[allow(clippy::unwrap_used, clippy::panic, clippy::redundant_closure)]
mod tests;
