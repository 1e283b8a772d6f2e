//! What the charts' plotting areas share: the legend row above them, the look of their mesh,
//! tick labels looked up by value, the plotting area of a bar chart (categories across, GB up)
//! with its capacity line and outlined bar, the labels above and under a bar, and the dot or
//! square of a point. Nothing here computes a figure of the lesson; it only draws where the
//! chart says.

use plotters::chart::MeshStyle;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::layout::{category_axis, fail, legend, Mark, Place, Scale, Ticked};
use super::palette::{BAD, GRID, INK, MEASURED, MUTED, PAPER, RUN};

/// A chart's plotting area: both axes with the ticks the chart gives them.
pub type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<Ticked, Ticked>>;

/// Fills `area` with paper, draws the legend row (`entries`, then `note` right-aligned) at its
/// top and returns the rest, where the chart goes.
pub fn under_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: Scale,
    entries: &[(Mark, String)],
    note: Option<&str>,
) -> Result<DrawingArea<DB, Shift>, String> {
    area.fill(&PAPER).map_err(fail)?;
    let (top, body) = area.split_vertically(s.px(32.0));
    legend(&top, s, entries, note)?;
    Ok(body)
}

/// The mesh every chart draws: grid lines at its ticks only, muted axes, tick labels of
/// `label_size` design units and axis names of 12. The chart adds its formatters and names,
/// then draws it.
pub fn mesh<'a, 'b, DB: DrawingBackend>(
    chart: &'b mut Plot<'a, DB>,
    s: Scale,
    label_size: f64,
) -> MeshStyle<'a, 'b, Ticked, Ticked, DB> {
    let mut mesh = chart.configure_mesh();
    mesh.bold_line_style(GRID.stroke_width(1))
        .light_line_style(TRANSPARENT)
        .axis_style(MUTED.stroke_width(s.stroke(1.0)))
        .set_all_tick_mark_size(s.px(4.0))
        .label_style(s.text(label_size, &MUTED))
        .axis_desc_style(s.text(12.0, &MUTED));
    mesh
}

/// An axis's ticks with their texts: each tick's place on the axis and what is written there.
#[derive(Clone, Debug, Default)]
pub struct Ticks(pub Vec<(f64, String)>);

impl Ticks {
    /// Where the ticks sit, for [`Ticked`].
    pub fn places(&self) -> Vec<f64> {
        self.0.iter().map(|(at, _)| *at).collect()
    }

    /// The text of the tick at `at` (empty where there is none).
    pub fn label(&self, at: &f64) -> String {
        self.0
            .iter()
            .find(|(tick, _)| (tick - at).abs() < 1e-9)
            .map(|(_, text)| text.clone())
            .unwrap_or_default()
    }
}

/// A number of an axis without noise: 0.30000000000000004 → "0.3", 500 → "500".
pub fn short(value: f64) -> String {
    format!("{}", (value * 100.0).round() / 100.0)
}

/// Room around a plotting area under the legend, in design units: right of it, and the label
/// areas under it (x) and left of it (y).
#[derive(Clone, Copy, Debug)]
pub struct Margins {
    /// Right of the plotting area.
    pub right: f64,
    /// The x axis's labels and name, under it.
    pub x_labels: f64,
    /// The y axis's labels and name, left of it.
    pub y_labels: f64,
}

/// A bar chart's room: short numbers up the side, two lines of names under the bars.
const BARS: Margins = Margins {
    right: 16.0,
    x_labels: 44.0,
    y_labels: 52.0,
};

/// The plotting area on `body` (under a legend) with the axes `x` and `y`.
pub fn plot<'a, DB: DrawingBackend>(
    body: &'a DrawingArea<DB, Shift>,
    s: Scale,
    room: Margins,
    x: Ticked,
    y: Ticked,
) -> Result<Plot<'a, DB>, String> {
    ChartBuilder::on(body)
        .margin_left(s.px(8.0))
        .margin_right(s.px(room.right))
        .margin_top(s.px(6.0))
        .x_label_area_size(s.px(room.x_labels))
        .y_label_area_size(s.px(room.y_labels))
        .build_cartesian_2d(x, y)
        .map_err(fail)
}

/// The plotting area of a bar chart under its legend: `bars` category slots across (at least
/// four, the bars centred), `y` up. Returns the area and each bar's centre on x.
pub fn bar_plot<'a, DB: DrawingBackend>(
    body: &'a DrawingArea<DB, Shift>,
    s: Scale,
    bars: usize,
    y: Ticked,
) -> Result<(Plot<'a, DB>, Vec<f64>), String> {
    let (x_range, centres) = category_axis(bars, 4);
    let chart = plot(body, s, BARS, Ticked::new(x_range, vec![]), y)?;
    Ok((chart, centres))
}

/// Half a stacked bar's width, in x units (one unit a slot).
pub const HALF_BAR: f64 = 0.3;

/// The dashed line at the card's capacity (`gb`), across a bar chart.
pub fn capacity_line<DB: DrawingBackend>(
    chart: &mut Plot<'_, DB>,
    gb: f64,
    s: Scale,
) -> Result<(), String> {
    let x_end = chart.x_range().end;
    chart
        .draw_series(DashedLineSeries::new(
            vec![(0.0, gb), (x_end, gb)],
            s.px(7.0),
            s.px(4.0),
            BAD.stroke_width(s.stroke(1.5)),
        ))
        .map_err(fail)?;
    Ok(())
}

/// The outline around the bar centred at `x`, from 0 to `top` (the bar the chart points at).
pub fn outline<DB: DrawingBackend>(
    chart: &mut Plot<'_, DB>,
    x: f64,
    top: f64,
    s: Scale,
) -> Result<(), String> {
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(x - HALF_BAR, 0.0), (x + HALF_BAR, top)],
            INK.stroke_width(s.stroke(2.0)),
        )))
        .map_err(fail)?;
    Ok(())
}

impl Place {
    /// Just above `at` (a bar's top), centred.
    pub fn above(at: (i32, i32), s: Scale) -> Place {
        Place {
            at,
            shift: (0, -s.px(4.0)),
            h: HPos::Center,
            v: VPos::Bottom,
        }
    }

    /// `dy` design units under `at` (a bar's foot), centred.
    pub fn below(at: (i32, i32), s: Scale, dy: f64) -> Place {
        Place {
            at,
            shift: (0, s.px(dy)),
            h: HPos::Center,
            v: VPos::Top,
        }
    }
}

/// A point's mark: a dot (a published run, an eager measurement) or a square (a figure
/// measured on the H200, a compiled one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dot {
    /// A dot in the runs' colour.
    Round,
    /// A square in the measured figures' colour.
    Square,
}

/// The legend of a chart of points: what its dots are, what its squares are, and its line
/// where the lab equals the reference.
pub fn points_legend(round: &str, square: &str, line: &str) -> Vec<(Mark, String)> {
    vec![
        (Mark::Dot(RUN), round.to_owned()),
        (Mark::Swatch(MEASURED), square.to_owned()),
        (Mark::Line(INK), line.to_owned()),
    ]
}

/// Draws the mark at `at`, in the backend's pixels (as `ChartContext::backend_coord` gives).
pub fn point<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: Scale,
    at: (i32, i32),
    dot: Dot,
) -> Result<(), String> {
    let base = area.get_base_pixel();
    let (x, y) = (at.0 - base.0, at.1 - base.1);
    let half = s.px(4.0).max(1);
    match dot {
        Dot::Round => area.draw(&Circle::new((x, y), s.stroke(4.0), RUN.filled())),
        Dot::Square => area.draw(&Rectangle::new(
            [(x - half, y - half), (x + half, y + half)],
            MEASURED.filled(),
        )),
    }
    .map_err(fail)
}
