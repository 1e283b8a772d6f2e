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
use plotters::style::text_anchor::{HPos, VPos};

use super::canvas::{series_canvas, CanvasSpec};
use super::layout::{
    category_axis, fail, label, legend, linear_ticks, message, Mark, Place, Scale, Ticked,
};
use super::palette::{ACTIVATIONS, BAD, GRADIENTS, GRID, INK, MUTED, OPTIMIZER, PAPER, WEIGHTS};
use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};

/// The sentences of the memory chart.
mod text {
    use crate::kit::text::Text;

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

    #[cfg(test)]
    pub const ALL: &[&Text] = &[
        &CAPACITY,
        &BAR_FITS,
        &BAR_FITS_CURRENT,
        &BAR_OVER,
        &BAR_OVER_CURRENT,
        &SUMMARY,
    ];
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

/// A number of an axis without noise: 0.30000000000000004 → "0.3", 500 → "500".
fn short(value: f64) -> String {
    format!("{}", (value * 100.0).round() / 100.0)
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
    area.fill(&PAPER).map_err(fail)?;
    let (top, body) = area.split_vertically(s.px(32.0));
    legend(
        &top,
        s,
        &[
            (
                Mark::Swatch(WEIGHTS),
                lang.pick("权重", "weights").to_string(),
            ),
            (
                Mark::Swatch(GRADIENTS),
                lang.pick("梯度", "gradients").to_string(),
            ),
            (
                Mark::Swatch(OPTIMIZER),
                lang.pick("优化器状态", "optimizer states").to_string(),
            ),
            (
                Mark::Swatch(ACTIVATIONS),
                lang.pick("激活", "activations").to_string(),
            ),
            (
                Mark::Dashed(BAD),
                text::CAPACITY.fill(lang, &[("capacity", &format::bytes(data.capacity))]),
            ),
        ],
        None,
    )?;

    let highest = data
        .bars
        .iter()
        .map(|bar| bar.total.gb())
        .filter(|gb| gb.is_finite())
        .fold(data.capacity.gb(), f64::max);
    let (ticks, y_end) = linear_ticks(highest * 1.1, 5);
    let (x_range, centres) = category_axis(data.bars.len(), 4);
    let x_end = x_range.end;
    let mut chart = ChartBuilder::on(&body)
        .margin_left(s.px(8.0))
        .margin_right(s.px(16.0))
        .margin_top(s.px(6.0))
        .x_label_area_size(s.px(44.0))
        .y_label_area_size(s.px(52.0))
        .build_cartesian_2d(Ticked::new(x_range, vec![]), Ticked::new(0.0..y_end, ticks))
        .map_err(fail)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .bold_line_style(GRID.stroke_width(1))
        .light_line_style(TRANSPARENT)
        .axis_style(MUTED.stroke_width(s.stroke(1.0)))
        .set_all_tick_mark_size(s.px(4.0))
        .label_style(s.text(12.0, &MUTED))
        .y_label_formatter(&|v| short(*v))
        .y_desc("GB")
        .axis_desc_style(s.text(12.0, &MUTED))
        .draw()
        .map_err(fail)?;

    const HALF: f64 = 0.3;
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
                [(x - HALF, base), (x + HALF, top)],
                color.mix(alpha).filled(),
            ));
            base = top;
        }
        chart.draw_series(rects).map_err(fail)?;
        if current {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x - HALF, 0.0), (x + HALF, bar.total.gb())],
                    INK.stroke_width(s.stroke(2.0)),
                )))
                .map_err(fail)?;
        }
    }
    chart
        .draw_series(DashedLineSeries::new(
            vec![(0.0, data.capacity.gb()), (x_end, data.capacity.gb())],
            s.px(7.0),
            s.px(4.0),
            BAD.stroke_width(s.stroke(1.5)),
        ))
        .map_err(fail)?;

    for (bar, &x) in data.bars.iter().zip(&centres) {
        let current = bar.zero == data.current_zero;
        let color = if bar.fits { INK } else { BAD };
        let value = if current {
            s.bold(12.0, &color)
        } else {
            s.text(12.0, &color)
        };
        let top = chart.backend_coord(&(x, bar.total.gb()));
        let above = Place {
            at: top,
            shift: (0, -s.px(4.0)),
            h: HPos::Center,
            v: VPos::Bottom,
        };
        label(area, &format::bytes(bar.total), above, value, true)?;
        let foot = chart.backend_coord(&(x, 0.0));
        let name = if current {
            s.bold(13.0, &INK)
        } else {
            s.text(13.0, &INK)
        };
        let below = |dy: f64| Place {
            at: foot,
            shift: (0, s.px(dy)),
            h: HPos::Center,
            v: VPos::Top,
        };
        label(area, &format!("ZeRO-{}", bar.zero), below(8.0), name, false)?;
        if current {
            label(
                area,
                lang.pick("当前", "current"),
                below(24.0),
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
    let lang = use_lang();
    let series = Memo::new(move |_| plan.with(memory_series));
    let spec = CanvasSpec {
        test_id: "chart-memory",
        summary: Signal::derive(move || series.with(|s| summary(s, lang.get()))),
        values: Signal::derive(move || {
            series.with(|s| {
                s.bars
                    .iter()
                    .map(|bar| format!("{}:{}", bar.zero, bar.total.get()))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
        }),
        note: Signal::stored(None),
    };
    view! {
        <div class="figure chart-figure chart-memory-figure">
            <h4><T zh="各 ZeRO 阶段的每卡显存" en="Memory per card at each ZeRO stage" /></h4>
            {series_canvas(spec, series, draw)}
        </div>
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests;
