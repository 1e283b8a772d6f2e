//! A measured file against the lab (issue 38, SPEC §19): each figure that has both as a point
//! at (measured, lab) on log–log axes with the line lab = measured, eager PyTorch's as dots
//! and `torch.compile`'s as squares. Seconds and bytes lie twelve decades apart, so time and
//! memory each get a panel of their own (time in ms, memory in GB), side by side in the one
//! chart; a panel without points is left out. Every figure and ratio is the core's
//! `Comparison`; the chart only places them.

use leptos::prelude::*;
use parallel_core::check::{Comparison, Figure};
use parallel_core::explain::Unit;
use parallel_core::Bytes;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::axes::{mesh, point, points_legend, under_legend, Dot, Ticks};
use super::canvas::{series_canvas, CanvasSpec};
use super::layout::{fail, log_ticks, message, tick_text, Scale, Ticked};
use super::palette::INK;
use crate::kit::i18n::{Lang, T};

/// The chart's sentences.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The chart in one sentence (`aria-label`).
        pub const SUMMARY: Text = Text {
            zh: "实验室的数对实测的数（对数坐标，对角线上两者相等）：{points} 个点，实验室 ÷ 实测从 {low} 到 {high}。",
            en: "The lab's figures against the measured ones on log scales (on the diagonal they are equal): {points} points, lab ÷ measured from {low} to {high}.",
        };
        /// Nothing has both a lab figure and a measured one.
        pub const EMPTY: Text = Text {
            zh: "没有一项同时有实验室的数和实测的数。",
            en: "No figure has both a lab value and a measured one.",
        };
    }
}

/// Which PyTorch run a point was measured in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Eager PyTorch.
    Eager,
    /// `torch.compile`.
    Compiled,
}

impl Mode {
    /// The mode as `data-series` names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Eager => "eager",
            Mode::Compiled => "compiled",
        }
    }
}

/// A panel of the chart: time or memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    /// Seconds, shown in ms.
    Time,
    /// Bytes, shown in GB.
    Memory,
}

impl Panel {
    /// Both panels, in the chart's order (time, then memory).
    pub const ALL: [Panel; 2] = [Panel::Time, Panel::Memory];

    /// The panel of a figure in `unit`: seconds on the time panel, bytes on the memory panel.
    /// A ratio, a count or a rate has none: a measured file compares none (every
    /// [`Figure`] is seconds or bytes, which the tests check).
    pub const fn of(unit: Unit) -> Option<Panel> {
        match unit {
            Unit::Seconds => Some(Panel::Time),
            Unit::Bytes => Some(Panel::Memory),
            Unit::Ratio | Unit::Count | Unit::TokensPerSecond => None,
        }
    }

    /// A value of this panel as its axes show it: seconds in ms, bytes in GB.
    fn shown(self, value: f64) -> f64 {
        match self {
            Panel::Time => value * 1e3,
            Panel::Memory => Bytes::new(value).gb(),
        }
    }

    /// The panel's title and its axes' unit.
    fn title(self, lang: Lang) -> (&'static str, &'static str) {
        match self {
            Panel::Time => (lang.pick("单层时间", "Layer time"), "ms"),
            Panel::Memory => (lang.pick("显存", "Memory"), "GB"),
        }
    }
}

/// One figure in one mode.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckPoint {
    /// Which figure (its row `gpu-check-row-<id>`).
    pub figure: Figure,
    /// Eager or compiled.
    pub mode: Mode,
    /// Time or memory: the panel of the figure's unit.
    pub panel: Panel,
    /// Measured.
    pub measured: f64,
    /// The lab's.
    pub predicted: f64,
    /// lab ÷ measured, the core's.
    pub ratio: f64,
}

/// Where a figure's point in one mode was drawn, in the backend's pixels.
pub type Drawn = (Figure, Mode, (i32, i32));

/// The chart's data: the rows' points in table order, eager before compiled.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckSeries {
    /// Every point with a positive lab figure, measured figure and ratio.
    pub points: Vec<CheckPoint>,
}

/// The points of a comparison: each row's eager and compiled measurement that stands beside a
/// lab figure (a log axis holds positive numbers only), on the panel of the row's unit.
pub fn check_series(comparison: &Comparison) -> CheckSeries {
    let positive = |x: Option<f64>| x.filter(|v| v.is_finite() && *v > 0.0);
    let points = comparison
        .rows
        .iter()
        .flat_map(|row| {
            [
                (Mode::Eager, row.eager, row.ratio_eager),
                (Mode::Compiled, row.compiled, row.ratio_compiled),
            ]
            .into_iter()
            .filter_map(move |(mode, measured, ratio)| {
                Some(CheckPoint {
                    figure: row.figure,
                    mode,
                    panel: Panel::of(row.unit)?,
                    measured: positive(measured)?,
                    predicted: positive(row.predicted)?,
                    ratio: positive(ratio)?,
                })
            })
        })
        .collect();
    CheckSeries { points }
}

impl CheckSeries {
    /// The points as JSON for `data-series`: `[{"figure":…,"mode":…,"measured":…,"lab":…,
    /// "ratio":…}, …]`.
    pub fn json(&self) -> String {
        let items: Vec<String> = self
            .points
            .iter()
            .map(|p| {
                format!(
                    "{{\"figure\":\"{}\",\"mode\":\"{}\",\"measured\":{},\"lab\":{},\"ratio\":{}}}",
                    p.figure.id(),
                    p.mode.as_str(),
                    p.measured,
                    p.predicted,
                    p.ratio
                )
            })
            .collect();
        format!("[{}]", items.join(","))
    }
}

/// The chart as one sentence, for `aria-label`.
pub fn summary(data: &CheckSeries, lang: Lang) -> String {
    if data.points.is_empty() {
        return text::EMPTY.get(lang).to_owned();
    }
    let ratios = data.points.iter().map(|p| p.ratio);
    let low = ratios.clone().fold(f64::INFINITY, f64::min);
    let high = ratios.fold(f64::NEG_INFINITY, f64::max);
    text::SUMMARY.fill(
        lang,
        &[
            ("points", &data.points.len()),
            ("low", &format!("{low:.2}×")),
            ("high", &format!("{high:.2}×")),
        ],
    )
}

/// The panels the points need: time, then memory.
fn panels(data: &CheckSeries) -> Vec<Panel> {
    Panel::ALL
        .into_iter()
        .filter(|panel| data.points.iter().any(|p| p.panel == *panel))
        .collect()
}

/// Draws one panel: its points at (measured, lab), the line lab = measured. Returns where each
/// of them was drawn, in the backend's pixels.
fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &CheckSeries,
    panel: Panel,
    lang: Lang,
) -> Result<Vec<Drawn>, String> {
    let s = Scale::of(area)?;
    // A square panel, so that lab = measured runs at 45°.
    let (w, h) = area.dim_in_pixel();
    let side_margin = i32::try_from(w.saturating_sub(h) / 2).unwrap_or(0);
    let area = &area.margin(0, 0, side_margin, side_margin);
    let points: Vec<&CheckPoint> = data.points.iter().filter(|p| p.panel == panel).collect();
    let values = points
        .iter()
        .flat_map(|p| [panel.shown(p.measured), panel.shown(p.predicted)]);
    let lo = values.clone().fold(f64::INFINITY, f64::min);
    let hi = values.fold(f64::NEG_INFINITY, f64::max);
    // Room around the outermost points, so that none sits on the frame.
    let (ticks, range) = log_ticks(lo / 1.5, hi * 1.5);
    let log_range = range.start.log10()..range.end.log10();
    let ticks = Ticks(
        ticks
            .into_iter()
            .map(|(v, decimals)| (v.log10(), tick_text(v, decimals)))
            .collect(),
    );
    let axis = || Ticked::new(log_range.clone(), ticks.places());
    let (title, unit_name) = panel.title(lang);
    let mut chart = ChartBuilder::on(area)
        .caption(title, s.bold(13.0, &INK))
        .margin_left(s.px(6.0))
        .margin_right(s.px(14.0))
        .x_label_area_size(s.px(40.0))
        .y_label_area_size(s.px(52.0))
        .build_cartesian_2d(axis(), axis())
        .map_err(fail)?;
    let tick_label = |v: &f64| ticks.label(v);
    let mut grid = mesh(&mut chart, s, 11.0);
    grid.x_label_formatter(&tick_label)
        .y_label_formatter(&tick_label)
        .x_desc(format!("{} ({unit_name})", lang.pick("实测", "measured")))
        .y_desc(format!("{} ({unit_name})", lang.pick("实验室", "lab")));
    grid.draw().map_err(fail)?;
    chart
        .draw_series(LineSeries::new(
            [
                (log_range.start, log_range.start),
                (log_range.end, log_range.end),
            ],
            INK.stroke_width(s.stroke(1.5)),
        ))
        .map_err(fail)?;
    let mut drawn = Vec::with_capacity(points.len());
    for p in points {
        let at = chart.backend_coord(&(
            panel.shown(p.measured).log10(),
            panel.shown(p.predicted).log10(),
        ));
        let dot = match p.mode {
            Mode::Eager => Dot::Round,
            Mode::Compiled => Dot::Square,
        };
        point(area, s, at, dot)?;
        drawn.push((p.figure, p.mode, at));
    }
    Ok(drawn)
}

/// Draws the chart on `area`; returns where each point was drawn, in the backend's pixels.
pub fn draw_points<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &CheckSeries,
    lang: Lang,
) -> Result<Vec<Drawn>, String> {
    let s = Scale::of(area)?;
    let panels = panels(data);
    if panels.is_empty() {
        message(area, text::EMPTY.get(lang))?;
        return Ok(Vec::new());
    }
    let line = lang.pick("实验室 = 实测", "lab = measured");
    let entries = points_legend("eager", "compiled", line);
    let body = under_legend(area, s, &entries, None)?;
    let mut drawn = Vec::new();
    for (part, panel) in body.split_evenly((1, panels.len())).iter().zip(panels) {
        drawn.extend(draw_panel(part, data, panel, lang)?);
    }
    Ok(drawn)
}

/// Draws the chart on `area` (the canvas's entry point).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &CheckSeries,
    lang: Lang,
) -> Result<(), String> {
    draw_points(area, data, lang).map(|_| ())
}

/// The chart of a comparison on a canvas (`data-testid="gpu-check-plot"`), its points as JSON
/// in `data-series`.
#[component]
pub fn CheckPlot(comparison: Memo<Option<Comparison>>) -> impl IntoView {
    let series =
        Memo::new(move |_| comparison.with(|c| c.as_ref().map(check_series).unwrap_or_default()));
    let note = |s: &CheckSeries, lang| {
        s.points
            .is_empty()
            .then(|| text::EMPTY.get(lang).to_owned())
    };
    let spec = CanvasSpec::of("gpu-check-plot", series, summary, CheckSeries::json, note);
    view! {
        <div class="figure chart-figure" data-testid="gpu-check-plot-figure">
            <h4><T zh="实验室对实测" en="The lab against the measurement" /></h4>
            {series_canvas(spec, series, draw)}
            <p class="caption">
                <T zh="每个点是表里的一项：横轴是实测，纵轴是实验室的数，都是对数坐标；点在对角线上方，实验室的数比实测大，在下方则小。圆点是 eager，方块是 torch.compile；时间和显存各占一块。"
                   en="Each point is one figure of the table: measured across, the lab's figure up, both on log scales; a point above the diagonal means the lab says more than was measured, below it less. Dots are eager, squares torch.compile; time and memory each have a panel." />
            </p>
        </div>
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests;
