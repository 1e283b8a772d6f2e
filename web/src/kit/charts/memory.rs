//! Memory per card under ZeRO 0, 1, 2 and 3 for the current plan: stacked bars of weights,
//! gradients, optimizer states and activations, a line at the card's capacity, the current
//! stage highlighted.
//!
//! The four variants are the current plan with only `zero` changed, each checked and evaluated
//! by the core (`Plan::new`, `Plan::model_states`, `Plan::memory`).

use leptos::prelude::*;
use parallel_core::{Bytes, ModelStates, Plan, PlanConfig};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::axes::{bar_plot, capacity_line, mesh, outline, short, under_legend, HALF_BAR};
use super::canvas::{series_figure, spaced, CanvasSpec};
use super::layout::{fail, label, linear_ticks, message, Mark, Place, Scale, Ticked};
use super::palette::{ACTIVATIONS, BAD, GRADIENTS, INK, MUTED, OPTIMIZER, WEIGHTS};
use crate::kit::format;
use crate::kit::i18n::Lang;

/// The sentences of the memory chart.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The capacity line in the legend.
        pub const CAPACITY: Text = Text {
            zh: "单卡显存 {capacity}",
            en: "card {capacity}",
        };
        /// One bar of the summary: it fits.
        pub const BAR_FITS: Text = Text {
            zh: "ZeRO-{zero} {total}（放得下）",
            en: "ZeRO-{zero} {total} (fits)",
        };
        /// One bar of the summary: it fits, and it is the plan's own stage.
        pub const BAR_FITS_CURRENT: Text = Text {
            zh: "ZeRO-{zero} {total}（放得下，当前）",
            en: "ZeRO-{zero} {total} (fits, current)",
        };
        /// One bar of the summary: it does not fit.
        pub const BAR_OVER: Text = Text {
            zh: "ZeRO-{zero} {total}（放不下）",
            en: "ZeRO-{zero} {total} (does not fit)",
        };
        /// One bar of the summary: it does not fit, and it is the plan's own stage.
        pub const BAR_OVER_CURRENT: Text = Text {
            zh: "ZeRO-{zero} {total}（放不下，当前）",
            en: "ZeRO-{zero} {total} (does not fit, current)",
        };
        /// The chart in one sentence (`aria-label`); `bars` lists the bars above.
        pub const SUMMARY: Text = Text {
            zh: "各 ZeRO 阶段每卡显存（模型状态 + 激活）：{bars}；单卡显存 {capacity}。",
            en: "Memory per card at each ZeRO stage (model states + activations): {bars}. Card \
                 capacity {capacity}.",
        };
    }
}

/// One bar: the busiest card of the plan at one ZeRO stage.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryBar {
    /// The ZeRO stage, 0–3.
    pub zero: u8,
    /// Weights, gradients and optimizer states (`Plan::model_states`).
    pub states: ModelStates,
    /// Saved activations (`Plan::memory().activations`).
    pub activations: Bytes,
    /// Model states + activations (`Plan::memory().total`).
    pub total: Bytes,
    /// Whether the total fits the card (`Plan::memory().fits`).
    pub fits: bool,
}

impl MemoryBar {
    fn of(plan: &Plan) -> MemoryBar {
        let memory = plan.memory();
        MemoryBar {
            zero: plan.zero(),
            states: plan.model_states(),
            activations: memory.activations,
            total: memory.total,
            fits: memory.fits,
        }
    }
}

/// The memory chart's data: one bar per ZeRO stage (normally four), the card's capacity and
/// the plan's own stage.
#[derive(Clone, Debug, PartialEq)]
pub struct MemorySeries {
    /// Bars in ZeRO order. Only the current stage when the plan's config could not be rebuilt.
    pub bars: Vec<MemoryBar>,
    /// The card's capacity.
    pub capacity: Bytes,
    /// The plan's ZeRO stage.
    pub current_zero: u8,
}

/// The bars of `plan` at ZeRO 0–3: the plan itself at its own stage, and `Plan::new` of its
/// config with `zero` changed for the others.
///
/// A stage whose variant the core rejects (it never does: ZeRO takes no part in validity) is
/// left out rather than drawn wrong.
pub fn memory_series(plan: &Plan) -> MemorySeries {
    let current_zero = plan.zero();
    let bars = (0..=3u8)
        .filter_map(|zero| {
            if zero == current_zero {
                Some(MemoryBar::of(plan))
            } else {
                Plan::new(&PlanConfig {
                    zero,
                    ..plan.config().clone()
                })
                .ok()
                .map(|p| MemoryBar::of(&p))
            }
        })
        .collect();
    MemorySeries {
        bars,
        capacity: plan.capacity(),
        current_zero,
    }
}

/// Draws the memory chart on `area`.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &MemorySeries,
    lang: Lang,
) -> Result<(), String> {
    let s = Scale::of(area)?;
    if data.bars.is_empty() {
        return message(area, lang.pick("没有可画的方案。", "No plan to draw."));
    }
    let capacity = text::CAPACITY.fill(lang, &[("capacity", &format::bytes(data.capacity))]);
    let entries = [
        (Mark::Swatch(WEIGHTS), lang.pick("权重", "weights")),
        (Mark::Swatch(GRADIENTS), lang.pick("梯度", "gradients")),
        (
            Mark::Swatch(OPTIMIZER),
            lang.pick("优化器状态", "optimizer states"),
        ),
        (Mark::Swatch(ACTIVATIONS), lang.pick("激活", "activations")),
        (Mark::Dashed(BAD), capacity.as_str()),
    ]
    .map(|(mark, name)| (mark, name.to_string()));
    let body = under_legend(area, s, &entries, None)?;

    let highest = data
        .bars
        .iter()
        .map(|bar| bar.total.gb())
        .filter(|gb| gb.is_finite())
        .fold(data.capacity.gb(), f64::max);
    let (ticks, y_end) = linear_ticks(highest * 1.1, 5);
    let (mut chart, centres) = bar_plot(&body, s, data.bars.len(), Ticked::new(0.0..y_end, ticks))?;
    let y_label = |v: &f64| short(*v);
    let mut grid = mesh(&mut chart, s, 12.0);
    grid.disable_x_mesh()
        .y_label_formatter(&y_label)
        .y_desc("GB");
    grid.draw().map_err(fail)?;

    for (bar, &x) in data.bars.iter().zip(&centres) {
        let current = bar.zero == data.current_zero;
        let alpha = if current { 1.0 } else { 0.55 };
        let parts = [
            (bar.states.weights, WEIGHTS),
            (bar.states.gradients, GRADIENTS),
            (bar.states.optimizer, OPTIMIZER),
            (bar.activations, ACTIVATIONS),
        ];
        let mut base = 0.0;
        let mut rects = Vec::with_capacity(parts.len());
        for (bytes, color) in parts {
            let top = base + bytes.gb();
            rects.push(Rectangle::new(
                [(x - HALF_BAR, base), (x + HALF_BAR, top)],
                color.mix(alpha).filled(),
            ));
            base = top;
        }
        chart.draw_series(rects).map_err(fail)?;
        if current {
            outline(&mut chart, x, bar.total.gb(), s)?;
        }
    }
    capacity_line(&mut chart, data.capacity.gb(), s)?;

    for (bar, &x) in data.bars.iter().zip(&centres) {
        let current = bar.zero == data.current_zero;
        let color = if bar.fits { INK } else { BAD };
        let (value, name) = if current {
            (s.bold(12.0, &color), s.bold(13.0, &INK))
        } else {
            (s.text(12.0, &color), s.text(13.0, &INK))
        };
        let top = chart.backend_coord(&(x, bar.total.gb()));
        label(
            area,
            &format::bytes(bar.total),
            Place::above(top, s),
            value,
            true,
        )?;
        let foot = chart.backend_coord(&(x, 0.0));
        let zero = format!("ZeRO-{}", bar.zero);
        label(area, &zero, Place::below(foot, s, 8.0), name, false)?;
        if current {
            let below = Place::below(foot, s, 24.0);
            label(
                area,
                lang.pick("当前", "current"),
                below,
                s.text(12.0, &MUTED),
                false,
            )?;
        }
    }
    Ok(())
}

/// The chart as one sentence, for `aria-label`.
pub fn summary(data: &MemorySeries, lang: Lang) -> String {
    let bars: Vec<String> = data
        .bars
        .iter()
        .map(|bar| {
            let text = match (bar.fits, bar.zero == data.current_zero) {
                (true, false) => text::BAR_FITS,
                (true, true) => text::BAR_FITS_CURRENT,
                (false, false) => text::BAR_OVER,
                (false, true) => text::BAR_OVER_CURRENT,
            };
            text.fill(
                lang,
                &[("zero", &bar.zero), ("total", &format::bytes(bar.total))],
            )
        })
        .collect();
    text::SUMMARY.fill(
        lang,
        &[
            ("bars", &bars.join(lang.pick("，", ", "))),
            ("capacity", &format::bytes(data.capacity)),
        ],
    )
}

/// Memory per card at ZeRO 0–3 for `plan`, drawn on a canvas (`data-testid="chart-memory"`).
/// `data-series` holds "stage:total bytes" pairs for tests.
#[component]
pub fn MemoryChart(#[prop(into)] plan: Signal<Plan>) -> impl IntoView {
    let series = Memo::new(move |_| plan.with(memory_series));
    let values = |s: &MemorySeries| {
        spaced(
            s.bars
                .iter()
                .map(|b| format!("{}:{}", b.zero, b.total.get())),
        )
    };
    let spec = CanvasSpec::of("chart-memory", series, summary, values, |_, _| None);
    let title = (
        "各 ZeRO 阶段的每卡显存",
        "Memory per card at each ZeRO stage",
    );
    series_figure(title, spec, series, draw)
}

#[cfg(test)]
// `|a, d, l| draw(a, d, l)` is no redundant closure: it takes an SVG of any lifetime, which
// the generic `draw` alone does not.
#[allow(clippy::unwrap_used, clippy::panic, clippy::redundant_closure)]
mod tests;
