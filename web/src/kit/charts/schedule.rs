//! The pipeline schedule, stages × time, drawn on a canvas: the core's `simulate_schedule`
//! timeline as coloured bars (forward, backward, and ZB-H1's weight-gradient pass). A canvas,
//! not SVG, because a timeline holds hundreds of bars and the page redraws it on every move
//! of a slider.

use leptos::prelude::*;
use parallel_core::{OpKind, Timeline};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::canvas::{chart_canvas, CanvasSpec};
use super::layout::{fail, Scale, DESIGN};
use super::palette;
use crate::kit::i18n::{use_lang, Lang};

/// Forward passes.
const FORWARD: RGBColor = RGBColor(0x74, 0xc0, 0xfc);
/// Backward passes.
const BACKWARD: RGBColor = RGBColor(0x1c, 0x7e, 0xd6);
/// ZB-H1's weight-gradient passes.
const WEIGHT: RGBColor = RGBColor(0x69, 0xdb, 0x7c);

/// The words of the schedule chart.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// A row's label.
        pub const STAGE: Text = Text {
            zh: "段 {stage}",
            en: "stage {stage}",
        };
    }
}

fn colour(kind: OpKind, chunk: u32) -> RGBColor {
    let base = match kind {
        OpKind::Forward => FORWARD,
        OpKind::Backward => BACKWARD,
        OpKind::Weight => WEIGHT,
    };
    if chunk % 2 == 1 {
        // Odd chunks a shade lighter, so interleaved chunks read apart.
        let mix = |c: u8| c + (255 - c) / 3;
        RGBColor(mix(base.0), mix(base.1), mix(base.2))
    } else {
        base
    }
}

/// Draws `timeline` on `area`: one row per stage, one bar per operation.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    timeline: &Timeline,
    lang: Lang,
) -> Result<(), String> {
    let scale = Scale::of(area)?;
    area.fill(&palette::PAPER).map_err(fail)?;
    let (label_w, top, bottom) = (52.0, 8.0, 8.0);
    let stages = f64::from(timeline.stages.max(1));
    let row = (DESIGN.1 - top - bottom) / stages;
    let tick = (DESIGN.0 - label_w - 8.0) / f64::from(timeline.total_ticks.max(1));
    for s in 0..timeline.stages {
        let y = top + f64::from(s) * row;
        let text = text::STAGE.fill(lang, &[("stage", &s)]);
        area.draw_text(
            &text,
            &scale.text((row * 0.5).clamp(8.0, 13.0), &palette::MUTED),
            (scale.px(4.0), scale.px(y + row * 0.3)),
        )
        .map_err(fail)?;
    }
    for op in &timeline.ops {
        let x0 = label_w + f64::from(op.start) * tick;
        let x1 = x0 + f64::from(op.ticks) * tick;
        let y0 = top + f64::from(op.stage) * row + row * 0.1;
        let y1 = y0 + row * 0.8;
        area.draw(&Rectangle::new(
            [
                (scale.px(x0), scale.px(y0)),
                (scale.px(x1).max(scale.px(x0) + 1) - 1, scale.px(y1)),
            ],
            colour(op.kind, op.chunk).filled(),
        ))
        .map_err(fail)?;
    }
    Ok(())
}

/// The schedule canvas (`data-testid="chart-schedule"`). `timeline` is the core's simulation,
/// or the reason there is none (shown instead of the canvas).
#[component]
pub fn ScheduleChart(
    #[prop(into)] timeline: Signal<Result<Timeline, String>>,
    #[prop(into)] summary: Signal<String>,
) -> impl IntoView {
    let lang = use_lang();
    let spec = CanvasSpec {
        test_id: "chart-schedule",
        summary,
        values: Signal::derive(move || {
            timeline.with(|t| match t {
                Ok(t) => format!(
                    "stages={} ticks={} idle={}",
                    t.stages, t.total_ticks, t.idle_share
                ),
                Err(_) => String::new(),
            })
        }),
        note: Signal::derive(move || timeline.with(|t| t.as_ref().err().cloned())),
    };
    chart_canvas(
        spec,
        move || {
            timeline.track();
            lang.track();
        },
        move |area| {
            timeline.with(|t| match t {
                Ok(t) => draw(area, t, lang.get()),
                Err(_) => Ok(()),
            })
        },
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::kit::charts::test_support::svg;
    use crate::kit::text::testing::assert_each_lang_uses_all;
    use parallel_core::{simulate_schedule, ScheduleView};

    #[test]
    fn draws_every_operation() {
        let t = simulate_schedule(ScheduleView::ZbH1, 4, 8, 1).unwrap();
        let (ok, out) = svg((640, 360), |area| draw(area, &t, Lang::En));
        ok.unwrap();
        assert_eq!(out.matches("<rect").count(), t.ops.len() + 1); // + the background
        assert!(out.contains("stage 3"));
    }

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let t = simulate_schedule(ScheduleView::OneFOneB, 2, 4, 1).unwrap();
        assert_each_lang_uses_all(text::ALL, |lang| {
            svg((640, 360), |area| draw(area, &t, lang)).0.unwrap();
        });
    }

    #[test]
    fn tiny_area_is_a_clean_error() {
        let t = simulate_schedule(ScheduleView::Gpipe, 2, 2, 1).unwrap();
        let (ok, _) = svg((10, 10), |area| draw(area, &t, Lang::Zh));
        assert!(ok.is_err());
    }
}
