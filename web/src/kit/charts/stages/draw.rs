//! The stage chart drawn on any plotters backend: one stacked bar per pipeline stage (model
//! states below, activations on top, the busiest outlined), a dashed line at the card's
//! capacity, the caption and legend above, and the totals and stage names beside the bars.
//!
//! [`draw`] runs the steps in drawing order: [`draw_head`], the axes ([`Axes::of`]), which
//! names fit under the bars ([`BarNames::fit`]), [`draw_mesh`], [`draw_bars`], the capacity
//! line ([`capacity_line`]), [`label_bars`] and [`label_capacity`].

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::series::{gb, ratio, StageSeries};
use super::text;
use crate::kit::charts::axes::{
    bar_plot, capacity_line, mesh, outline, short, Plot as Chart, HALF_BAR as HALF,
};
use crate::kit::charts::layout::{
    anchored, fail, label, legend, linear_ticks, message, Mark, Place, Scale, Ticked,
};
use crate::kit::charts::palette::{ACTIVATIONS, BAD, INK, PAPER, RUNTIME, WEIGHTS};
use crate::kit::i18n::Lang;

/// Model states: the colour at the foot of the memory chart's stacks (weights).
pub(super) const STATES: RGBColor = WEIGHTS;

/// Draws the stage chart on `area`.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &StageSeries,
    lang: Lang,
) -> Result<(), String> {
    let s = Scale::of(area)?;
    if data.stages.is_empty() {
        return message(area, text::NOTHING.get(lang));
    }
    area.fill(&PAPER).map_err(fail)?;
    let (head, body) = area.split_vertically(s.px(56.0));
    draw_head(&head, s, data, lang)?;

    let axes = Axes::of(data);
    let y = Ticked::new(0.0..axes.y_end, axes.ticks.clone());
    let (mut chart, centres) = bar_plot(&body, s, data.stages.len(), y)?;

    let names = BarNames::fit(area, &chart, data, s, lang)?;
    draw_mesh(&mut chart, s, lang, names.named)?;
    draw_bars(&mut chart, data, &centres, s)?;
    if let Some(capacity) = axes.capacity {
        capacity_line(&mut chart, capacity, s)?;
    }
    label_bars(area, &chart, data, &centres, s, lang, &names)?;
    if let Some(capacity) = axes.capacity {
        label_capacity(area, &chart, capacity, s, lang)?;
    }
    Ok(())
}

/// The caption (imbalance and busiest stage) and the legend, above the chart.
fn draw_head<DB: DrawingBackend>(
    head: &DrawingArea<DB, Shift>,
    s: Scale,
    data: &StageSeries,
    lang: Lang,
) -> Result<(), String> {
    let (caption_row, legend_row) = head.split_vertically(s.px(26.0));
    let caption = text::CAPTION.fill(
        lang,
        &[
            ("imbalance", &ratio(data.imbalance)),
            ("busiest", &data.busiest),
        ],
    );
    caption_row
        .draw(&Text::new(
            caption,
            (s.px(12.0), s.px(15.0)),
            anchored(s.bold(14.0, &INK), HPos::Left, VPos::Center),
        ))
        .map_err(fail)?;
    legend(
        &legend_row,
        s,
        &[
            (Mark::Swatch(STATES), text::STATES.get(lang).to_string()),
            (
                Mark::Swatch(ACTIVATIONS),
                text::ACTIVATIONS.get(lang).to_string(),
            ),
        ]
        .into_iter()
        .chain(
            data.stages
                .iter()
                .any(|b| b.runtime > 0.0)
                .then(|| (Mark::Swatch(RUNTIME), text::RUNTIME.get(lang).to_string())),
        )
        .collect::<Vec<_>>(),
        None,
    )
}

/// The y axis: GB up to the tallest bar or the capacity (with room above).
struct Axes {
    ticks: Vec<f64>,
    y_end: f64,
    /// The card's capacity in GB, when there is one to draw.
    capacity: Option<f64>,
}

impl Axes {
    fn of(data: &StageSeries) -> Axes {
        let capacity = Some(data.capacity_gb).filter(|gb| gb.is_finite() && *gb > 0.0);
        let highest = data
            .stages
            .iter()
            .map(|bar| bar.total)
            .filter(|gb| gb.is_finite())
            .fold(capacity.unwrap_or(0.0), f64::max);
        let (ticks, y_end) = linear_ticks(highest * 1.1, 5);
        Axes {
            ticks,
            y_end,
            capacity,
        }
    }
}

/// Names under the bars: "stage i" under each when they fit, else numbers at a round stride
/// and the axis named once; and whether every total fits above its bar.
struct BarNames {
    /// Each bar carries "stage i" (else a number, every `every`th bar).
    named: bool,
    every: usize,
    /// Every bar carries its total (else the busiest only).
    all_totals: bool,
}

impl BarNames {
    fn fit<DB: DrawingBackend>(
        area: &DrawingArea<DB, Shift>,
        chart: &Chart<'_, DB>,
        data: &StageSeries,
        s: Scale,
        lang: Lang,
    ) -> Result<BarNames, String> {
        let slot =
            f64::from(chart.backend_coord(&(1.0, 0.0)).0 - chart.backend_coord(&(0.0, 0.0)).0)
                .max(1.0);
        let last = data.stages.iter().map(|b| b.stage).max().unwrap_or(0);
        let width = |text: &str, style: &TextStyle<'static>| -> Result<f64, String> {
            let (w, _) = area.estimate_text_size(text, style).map_err(fail)?;
            Ok(f64::from(w))
        };
        let named =
            width(&stage_name(lang, last), &s.bold(13.0, &INK))? + f64::from(s.px(6.0)) <= slot;
        let every = if named {
            1
        } else {
            stride((width(&last.to_string(), &s.text(13.0, &INK))? + f64::from(s.px(8.0))) / slot)
        };
        let widest_total = data
            .stages
            .iter()
            .map(|bar| gb(bar.total))
            .max_by_key(String::len)
            .unwrap_or_default();
        let all_totals = width(&widest_total, &s.bold(12.0, &INK))? + f64::from(s.px(4.0)) <= slot;
        Ok(BarNames {
            named,
            every,
            all_totals,
        })
    }
}

/// A bar's name under it: "stage 3".
fn stage_name(lang: Lang, stage: u32) -> String {
    text::STAGE.fill(lang, &[("stage", &stage)])
}

/// The grid lines, axes and their labels ("GB"; the x axis named when the bars carry
/// numbers only).
fn draw_mesh<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    s: Scale,
    lang: Lang,
    named: bool,
) -> Result<(), String> {
    let y_label = |v: &f64| short(*v);
    let mut grid = mesh(chart, s, 12.0);
    grid.disable_x_mesh()
        .y_label_formatter(&y_label)
        .y_desc("GB");
    if !named {
        grid.x_desc(text::STAGE_AXIS.get(lang));
    }
    grid.draw().map_err(fail)
}

/// One stacked bar per stage, the busiest outlined (when there are several).
fn draw_bars<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    data: &StageSeries,
    centres: &[f64],
    s: Scale,
) -> Result<(), String> {
    for (bar, &x) in data.stages.iter().zip(centres) {
        let (stage, states, top) = (bar.stage, bar.states, bar.total);
        // The runtime terms on top (SPEC §24); without them the activations reach the total.
        // figures: where the stack's middle block ends (drawing geometry, not a figure shown)
        let held = top - bar.runtime;
        chart
            .draw_series([
                Rectangle::new([(x - HALF, 0.0), (x + HALF, states)], STATES.filled()),
                Rectangle::new([(x - HALF, states), (x + HALF, held)], ACTIVATIONS.filled()),
                Rectangle::new([(x - HALF, held), (x + HALF, top)], RUNTIME.filled()),
            ])
            .map_err(fail)?;
        if stage == data.busiest && data.stages.len() > 1 {
            outline(chart, x, top, s)?;
        }
    }
    Ok(())
}

/// Totals above the bars when they fit (else the busiest one only), and the names under them.
fn label_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &Chart<'_, DB>,
    data: &StageSeries,
    centres: &[f64],
    s: Scale,
    lang: Lang,
    names: &BarNames,
) -> Result<(), String> {
    for (bar, &x) in data.stages.iter().zip(centres) {
        let (stage, total) = (bar.stage, bar.total);
        let busiest = stage == data.busiest;
        if names.all_totals || busiest {
            let value = if busiest {
                s.bold(12.0, &INK)
            } else {
                s.text(12.0, &INK)
            };
            let above = Place::above(chart.backend_coord(&(x, total)), s);
            label(area, &gb(total), above, value, true)?;
        }
        // figures: every n-th stage is named, a layout stride
        if stage as usize % names.every == 0 {
            let below = Place::below(chart.backend_coord(&(x, 0.0)), s, 8.0);
            let style = if busiest {
                s.bold(13.0, &INK)
            } else {
                s.text(13.0, &INK)
            };
            let name = if names.named {
                stage_name(lang, stage)
            } else {
                stage.to_string()
            };
            label(area, &name, below, style, false)?;
        }
    }
    Ok(())
}

/// The capacity line's label, at its right end.
fn label_capacity<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &Chart<'_, DB>,
    capacity: f64,
    s: Scale,
    lang: Lang,
) -> Result<(), String> {
    let place = Place {
        at: chart.backend_coord(&(chart.x_range().end, capacity)),
        shift: (-s.px(4.0), -s.px(3.0)),
        h: HPos::Right,
        v: VPos::Bottom,
    };
    let text = text::CAPACITY.fill(lang, &[("capacity", &gb(capacity))]);
    label(area, &text, place, s.text(12.0, &BAD), true)
}

/// The smallest round stride (1, 2, 5 × 10^k) of at least `needed`.
fn stride(needed: f64) -> usize {
    let mut power = 1usize;
    loop {
        for m in [1, 2, 5] {
            let step = m * power;
            if step as f64 >= needed {
                return step;
            }
        }
        match power.checked_mul(10) {
            Some(next) => power = next,
            None => return usize::MAX,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::kit::charts::stages::series::tests::{many, of};
    use crate::kit::charts::stages::series::Bar;
    use crate::kit::charts::test_support::{has_cjk, rects, svg, texts};
    use parallel_core::PlanConfig;

    #[test]
    fn one_bar_per_stage_and_the_capacity_line() {
        let data = of(PlanConfig::lesson_64_gpus());
        let (ok, en) = svg((640, 360), |area| draw(area, &data, Lang::En));
        ok.unwrap();
        // One swatch in the legend, one bar part per stage.
        assert_eq!(rects(&en, STATES).len(), 9);
        assert_eq!(rects(&en, ACTIVATIONS).len(), 9);
        let words = texts(&en);
        for stage in 0..8 {
            assert!(
                words.contains(&format!("stage {stage}").as_str()),
                "stage {stage}"
            );
        }
        assert!(words.contains(&"card capacity 80.0 GB"));
        assert!(words.contains(&"max ÷ min = 1.47, busiest: stage 7"));
        assert!(words.contains(&"9.4 GB") && words.contains(&"6.4 GB"));
        assert!(en.contains("stroke=\"#C92A2A\""), "no capacity line");
        assert!(!has_cjk(&en), "English chart holds Chinese text");

        let (ok, zh) = svg((1280, 720), |area| draw(area, &data, Lang::Zh));
        ok.unwrap();
        assert_eq!(rects(&zh, STATES).len(), 9);
        let words = texts(&zh);
        assert!(words.contains(&"第 7 段") && words.contains(&"单卡显存 80.0 GB"));
        assert!(words.contains(&"最大 ÷ 最小 = 1.47，最忙的是第 7 段"));
    }

    #[test]
    fn many_stages_are_numbered_at_a_stride() {
        let data = of(many());
        assert_eq!(data.stages.len(), 64);
        let (ok, en) = svg((640, 360), |area| draw(area, &data, Lang::En));
        ok.unwrap();
        assert_eq!(rects(&en, STATES).len(), 65);
        let words = texts(&en);
        assert!(words.contains(&"pipeline stage") && !words.contains(&"stage 1"));
        // Every fifth stage is numbered.
        assert!(words.contains(&"55") && !words.contains(&"56"));
        assert_eq!(stride(1.0), 1);
        assert_eq!(stride(2.3), 5);
        assert_eq!(stride(11.0), 20);
    }

    #[test]
    fn degenerate_inputs_do_not_panic() {
        let data = of(PlanConfig::lesson_64_gpus());
        let empty = StageSeries {
            stages: vec![],
            ..data.clone()
        };
        let (ok, out) = svg((640, 360), |area| draw(area, &empty, Lang::En));
        ok.unwrap();
        assert!(out.contains("No pipeline stage to draw."));
        assert!(svg((0, 0), |area| draw(area, &data, Lang::En)).0.is_err());
        assert!(svg((64, 36), |area| draw(area, &data, Lang::Zh)).0.is_ok());
        let odd = StageSeries {
            capacity_gb: f64::NAN,
            imbalance: f64::INFINITY,
            stages: vec![
                Bar {
                    stage: 0,
                    states: f64::NAN,
                    activations: 1.0,
                    runtime: f64::INFINITY,
                    total: f64::NAN,
                },
                Bar {
                    stage: 1,
                    states: 0.0,
                    activations: 0.0,
                    runtime: 0.0,
                    total: 0.0,
                },
            ],
            busiest: 9,
        };
        assert!(svg((640, 360), |area| draw(area, &odd, Lang::En)).0.is_ok());
        let _ = super::super::series::summary(&odd, Lang::Zh);
        let huge = of(PlanConfig {
            gpus: 1024,
            pp: 1024,
            ..PlanConfig::default()
        });
        assert!(svg((640, 360), |area| draw(area, &huge, Lang::En))
            .0
            .is_ok());
    }
}
