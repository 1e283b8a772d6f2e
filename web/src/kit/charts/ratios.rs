//! The lab against real figures (issue 35): one point per row of the published runs table and
//! of the table measured on one H200, at the row's lab ÷ reference, on a log axis (a point at
//! 2 is twice the reference, at 0.5 half of it), with the line lab = reference and a ±20% band.
//! A ratio is the one quantity the rows share (MFU, tokens per second, seconds, bytes), so it
//! is what the chart plots: the runs on the left, the measured figures on the right, dots and
//! squares in two colours. Every ratio is the core's (`RunRow::ratio`, `MeasuredRow::ratio`);
//! the chart only places them.

use leptos::prelude::*;
use parallel_core::measured::MeasuredRow;
use parallel_core::runs::RunRow;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::axes::{mesh, plot, point, points_legend, under_legend, Dot, Margins, Ticks};
use super::canvas::{chart_canvas, CanvasSpec};
use super::layout::{fail, message, Mark, Scale, Ticked};
use super::palette::{BAND, INK, MUTED};
use crate::kit::i18n::{use_lang, Lang, T};

/// The ±20% band: lab ÷ reference from 0.8 to 1.2.
pub const BAND_RANGE: (f64, f64) = (0.8, 1.2);
/// The y axis spans at least 1/4 to 4 (further, by powers of two, when a ratio lies outside).
const LEAST_SPAN: (f64, f64) = (0.25, 4.0);
/// Empty slots between the runs and the measured figures.
const GAP: f64 = 2.0;

/// The sentences of the chart.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The chart in one sentence (`aria-label`).
        pub const SUMMARY: Text = Text {
            zh: "实验室 ÷ 参照（对数坐标）：{runs} 个公开实测，比值从 {runs_low} 到 {runs_high}，\
                 {runs_near} 个在 ±20% 以内；{measured} 个在一张 H200 上的实测，比值从 {measured_low} \
                 到 {measured_high}，{measured_near} 个在 ±20% 以内。",
            en: "Lab ÷ reference on a log scale: {runs} published runs, ratios from {runs_low} to \
                 {runs_high}, {runs_near} of them within ±20%; {measured} figures measured on one \
                 H200, from {measured_low} to {measured_high}, {measured_near} within ±20%.",
        };
        /// The runs' group under the x axis.
        pub const RUNS: Text = Text {
            zh: "公开实测（{count} 行）",
            en: "published runs ({count})",
        };
        /// The measured figures' group under the x axis.
        pub const MEASURED: Text = Text {
            zh: "一张 H200 上实测（{count} 行）",
            en: "measured on one H200 ({count})",
        };
    }
}

/// Which table a point comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A published run (`parallel_core::runs`).
    Run,
    /// A figure measured on one H200 (`parallel_core::measured`).
    Measured,
}

impl Kind {
    /// The kind as the chart's `data-series` names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Run => "run",
            Kind::Measured => "measured",
        }
    }
}

/// One row of either table.
#[derive(Clone, Debug, PartialEq)]
pub struct RatioPoint {
    /// The row's id (its table row is `run-<id>` or `measured-<id>`).
    pub id: String,
    /// Its table.
    pub kind: Kind,
    /// The row's lab ÷ reference.
    pub ratio: f64,
}

/// The chart's data: the runs in their table's order, then the measured figures in theirs.
#[derive(Clone, Debug, PartialEq)]
pub struct RatioSeries {
    /// Every row.
    pub points: Vec<RatioPoint>,
}

/// The points of the two tables.
pub fn ratio_series(runs: &[RunRow], measured: &[MeasuredRow]) -> RatioSeries {
    let runs = runs.iter().map(|r| RatioPoint {
        id: r.id.to_string(),
        kind: Kind::Run,
        ratio: r.ratio,
    });
    let measured = measured.iter().map(|r| RatioPoint {
        id: r.id.clone(),
        kind: Kind::Measured,
        ratio: r.ratio,
    });
    RatioSeries {
        points: runs.chain(measured).collect(),
    }
}

impl RatioSeries {
    /// The points of one kind.
    fn of(&self, kind: Kind) -> impl Iterator<Item = &RatioPoint> {
        self.points.iter().filter(move |p| p.kind == kind)
    }

    /// The points as JSON for `data-series`: `[{"id":…,"kind":"run","ratio":…}, …]` (a ratio
    /// that is not a number is `null`).
    pub fn json(&self) -> String {
        let items: Vec<String> = self
            .points
            .iter()
            .map(|p| {
                format!(
                    "{{\"id\":\"{}\",\"kind\":\"{}\",\"ratio\":{}}}",
                    p.id.escape_default(),
                    p.kind.as_str(),
                    finite_or_null(p.ratio)
                )
            })
            .collect();
        format!("[{}]", items.join(","))
    }
}

fn finite_or_null(x: f64) -> String {
    if x.is_finite() {
        x.to_string()
    } else {
        "null".to_string()
    }
}

/// Whether a ratio is drawn: a positive number (a log axis holds nothing else).
fn drawable(ratio: f64) -> bool {
    ratio.is_finite() && ratio > 0.0
}

/// Each point's slot on the x axis: the runs at 0, 1, …; the measured figures after a gap.
pub fn slots(data: &RatioSeries) -> Vec<f64> {
    let runs = data.of(Kind::Run).count() as f64;
    let (mut run, mut measured) = (0.0, 0.0);
    data.points
        .iter()
        .map(|p| match p.kind {
            Kind::Run => {
                run += 1.0;
                run - 1.0
            }
            Kind::Measured => {
                measured += 1.0;
                runs + GAP + measured - 1.0
            }
        })
        .collect()
}

/// The y axis's ends: [`LEAST_SPAN`], widened by powers of two to hold every drawable ratio.
pub fn y_range(data: &RatioSeries) -> (f64, f64) {
    let ratios = data.points.iter().map(|p| p.ratio).filter(|r| drawable(*r));
    let (low, high) = ratios.fold((LEAST_SPAN.0, LEAST_SPAN.1), |(lo, hi), r| {
        (lo.min(r), hi.max(r))
    });
    (
        2f64.powf(low.log2().floor().max(-20.0)),
        2f64.powf(high.log2().ceil().min(20.0)),
    )
}

/// The ratio written as the tables write it ("0.79").
fn ratio_text(ratio: f64) -> String {
    format!("{ratio:.2}")
}

/// Lowest, highest and the count within ±20% of one kind's ratios (or `None` when it has
/// none).
fn spread(data: &RatioSeries, kind: Kind) -> Option<(f64, f64, usize)> {
    let ratios: Vec<f64> = data
        .of(kind)
        .map(|p| p.ratio)
        .filter(|r| r.is_finite())
        .collect();
    let low = ratios.iter().copied().reduce(f64::min)?;
    let high = ratios.iter().copied().reduce(f64::max)?;
    let near = ratios
        .iter()
        .filter(|r| (BAND_RANGE.0..=BAND_RANGE.1).contains(*r))
        .count();
    Some((low, high, near))
}

/// The chart as one sentence, for `aria-label`.
pub fn summary(data: &RatioSeries, lang: Lang) -> String {
    let none = (f64::NAN, f64::NAN, 0);
    let (runs_low, runs_high, runs_near) = spread(data, Kind::Run).unwrap_or(none);
    let (m_low, m_high, m_near) = spread(data, Kind::Measured).unwrap_or(none);
    text::SUMMARY.fill(
        lang,
        &[
            ("runs", &data.of(Kind::Run).count()),
            ("runs_low", &ratio_text(runs_low)),
            ("runs_high", &ratio_text(runs_high)),
            ("runs_near", &runs_near),
            ("measured", &data.of(Kind::Measured).count()),
            ("measured_low", &ratio_text(m_low)),
            ("measured_high", &ratio_text(m_high)),
            ("measured_near", &m_near),
        ],
    )
}

/// Draws the chart on `area` and returns where each point was drawn, in the backend's pixels
/// (`None` for a ratio a log axis cannot hold).
pub fn draw_points<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &RatioSeries,
    lang: Lang,
) -> Result<Vec<Option<(i32, i32)>>, String> {
    let s = Scale::of(area)?;
    if !data.points.iter().any(|p| drawable(p.ratio)) {
        message(area, lang.pick("没有可画的点。", "Nothing to draw."))?;
        return Ok(vec![None; data.points.len()]);
    }
    let mut entries = points_legend(
        lang.pick("公开实测", "published runs"),
        lang.pick("一张 H200 上实测", "measured on one H200"),
        lang.pick("实验室 = 参照", "lab = reference"),
    );
    entries.push((Mark::Swatch(BAND), "±20%".to_string()));
    let body = under_legend(area, s, &entries, None)?;

    let slots = slots(data);
    let runs = data.of(Kind::Run).count();
    let measured = data.of(Kind::Measured).count();
    let last = slots.iter().copied().fold(0.0, f64::max);
    let x_range = -1.0..last + 1.0;
    let run_centre = (runs as f64 - 1.0).max(0.0) / 2.0;
    let measured_centre = runs as f64 + GAP + (measured as f64 - 1.0).max(0.0) / 2.0;
    let group_label = |x: &f64| {
        if (x - run_centre).abs() < 1e-9 {
            text::RUNS.fill(lang, &[("count", &runs)])
        } else if (x - measured_centre).abs() < 1e-9 {
            text::MEASURED.fill(lang, &[("count", &measured)])
        } else {
            String::new()
        }
    };
    let (low, high) = y_range(data);
    let y_ticks = {
        let (from, to) = (low.log2().round() as i32, high.log2().round() as i32);
        let tick = |k| 2f64.powi(k);
        Ticks(
            (from..=to)
                .map(|k| (tick(k).log10(), tick(k).to_string()))
                .collect(),
        )
    };
    let room = Margins {
        right: 20.0,
        x_labels: 30.0,
        y_labels: 58.0,
    };
    let x = Ticked::new(x_range.clone(), vec![run_centre, measured_centre]);
    let y = Ticked::new(low.log10()..high.log10(), y_ticks.places());
    let mut chart = plot(&body, s, room, x, y)?;
    let y_label = |v: &f64| y_ticks.label(v);
    let mut grid = mesh(&mut chart, s, 12.0);
    grid.disable_x_mesh()
        .x_label_formatter(&group_label)
        .y_label_formatter(&y_label)
        .y_desc(lang.pick(
            "实验室 ÷ 公开或实测（对数坐标）",
            "lab ÷ published or measured (log scale)",
        ));
    grid.draw().map_err(fail)?;

    // The ±20% band, the line lab = reference, and a dashed line between the two tables.
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [
                (x_range.start, BAND_RANGE.0.log10()),
                (x_range.end, BAND_RANGE.1.log10()),
            ],
            BAND.filled(),
        )))
        .map_err(fail)?;
    chart
        .draw_series(LineSeries::new(
            [(x_range.start, 0.0), (x_range.end, 0.0)],
            INK.stroke_width(s.stroke(1.5)),
        ))
        .map_err(fail)?;
    if runs > 0 && measured > 0 {
        let between = runs as f64 - 1.0 + GAP / 2.0;
        chart
            .draw_series(DashedLineSeries::new(
                [(between, low.log10()), (between, high.log10())],
                s.px(4.0),
                s.px(4.0),
                MUTED.stroke_width(1),
            ))
            .map_err(fail)?;
    }

    // The points, in backend pixels: dots for the runs, squares for the measured figures.
    let mut drawn = Vec::with_capacity(data.points.len());
    for (p, x) in data.points.iter().zip(slots) {
        if !drawable(p.ratio) {
            drawn.push(None);
            continue;
        }
        let at = chart.backend_coord(&(x, p.ratio.log10()));
        let dot = match p.kind {
            Kind::Run => Dot::Round,
            Kind::Measured => Dot::Square,
        };
        point(area, s, at, dot)?;
        drawn.push(Some(at));
    }
    Ok(drawn)
}

/// Draws the chart on `area` (the tests' entry point; the page keeps the points' places).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &RatioSeries,
    lang: Lang,
) -> Result<(), String> {
    draw_points(area, data, lang).map(|_| ())
}

/// Where the points were drawn, as `data-drawn` carries them: `[[x,y],…]` in the canvas's
/// pixels, `null` for a point not drawn.
fn drawn_json(drawn: &[Option<(i32, i32)>]) -> String {
    let items: Vec<String> = drawn
        .iter()
        .map(|p| p.map_or_else(|| "null".to_string(), |(x, y)| format!("[{x},{y}]")))
        .collect();
    format!("[{}]", items.join(","))
}

/// The chart of the two tables' ratios on a canvas (`data-testid="chart-ratios"`). The canvas's
/// `data-series` holds the points as JSON (id, kind, ratio); once drawn, the figure's
/// `data-drawn` holds where each was drawn, in the canvas's pixels.
#[component]
pub fn RatioChart() -> impl IntoView {
    let lang = use_lang();
    // The ratios do not depend on the language: the rows are read once, in English.
    let series = Memo::new(move |_| {
        let runs = parallel_core::runs::run_rows(Lang::En).unwrap_or_default();
        let measured = parallel_core::measured::measured_rows(Lang::En).unwrap_or_default();
        ratio_series(&runs, &measured)
    });
    let drawn = RwSignal::new(String::new());
    let note = |s: &RatioSeries, lang: Lang| {
        let nothing = lang.pick("没有可画的点。", "Nothing to draw.");
        s.points.is_empty().then(|| nothing.to_string())
    };
    let spec = CanvasSpec::of("chart-ratios", series, summary, RatioSeries::json, note);
    let canvas = chart_canvas(
        spec,
        move || {
            series.track();
            lang.track();
        },
        move |area| {
            let at = series.with(|s| draw_points(area, s, lang.get()))?;
            let json = drawn_json(&at);
            if drawn.with_untracked(|d| *d != json) {
                drawn.set(json);
            }
            Ok(())
        },
    );
    view! {
        <div class="figure chart-figure chart-ratios-figure" data-testid="chart-ratios-figure"
            data-drawn=move || drawn.get()>
            <h4><T zh="实验室与实测：每一行的比值" en="The lab against real figures, row by row" /></h4>
            {canvas}
            <p class="caption">
                <T zh="每个点是上面两张表中的一行：实验室的数 ÷ 公开或实测的数，纵轴是对数坐标（2 表示实验室是参照的两倍，0.5 表示一半），带子是 ±20%。左边的公开实测比的是 MFU、占峰值的比例或每卡 token/s，比值大于 1 表示实验室估得比实测快；右边 H200 上的实测比的是时间和字节，比值小于 1 表示实验室的时间比实测短（估得快）或字节比实测少。"
                   en="Each point is one row of the two tables above: the lab's figure ÷ the published or measured one, on a log scale (2 means the lab says twice the reference, 0.5 half), with a ±20% band. On the left the published runs compare MFU, share of peak or tokens per second per card, so a ratio above 1 means the lab estimates faster than the run; on the right the H200's figures compare seconds and bytes, so a ratio below 1 means the lab counts less time (estimates faster) or fewer bytes than measured." />
            </p>
        </div>
    }
}

#[cfg(test)]
// `|a, d, l| draw(a, d, l)` is no redundant closure: it takes an SVG of any lifetime, which
// the generic `draw` alone does not.
#[allow(clippy::unwrap_used, clippy::panic, clippy::redundant_closure)]
mod tests;
