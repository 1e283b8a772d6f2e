//! Memory per card stage by stage (SPEC §11): one stacked bar per pipeline stage, model states
//! below and activations on top, a dashed line at the card's capacity, and a caption with how
//! uneven the stages are (max ÷ min) and which stage is the busiest.
//!
//! Every figure comes from the core (`Plan::memory_by_stage`, `Plan::capacity`,
//! `stages_imbalance`, `Plan::busiest_stage`); the chart only converts bytes to GB and picks
//! where things go. With one stage (p = 1) the page shows a note instead of the canvas.
//!
//! `series` holds the data and what is said of it (summary, note, values), `draw` the drawing,
//! `text` the sentences; this module the chart's component.

mod draw;
mod series;
mod text;

use leptos::prelude::*;
use parallel_core::{Accounting, Plan};

use super::canvas::{series_canvas, CanvasSpec};
use crate::kit::i18n::{use_lang, Lang, T};
pub use draw::draw;
pub use series::{note, series, summary, values, StageSeries};

/// Memory per card for each pipeline stage of `plan`, drawn on a canvas
/// (`data-testid="chart-stages"`); with one stage a note (`chart-stages-note`) stands in for
/// it. `data-series` is [`values`].
#[component]
pub fn StageChart(#[prop(into)] plan: Signal<Plan>) -> impl IntoView {
    let lang = use_lang();
    let data = Memo::new(move |_| plan.with(series));
    let spec = CanvasSpec::of("chart-stages", data, summary, values, note);
    let by_stage = Memo::new(move |_| plan.with(|p| p.config().accounting == Accounting::Stages));
    view! {
        <div class="figure chart-figure chart-stages-figure">
            <h4><T zh="各流水线段的每卡显存" en="Memory per card, stage by stage" /></h4>
            {series_canvas(spec, data, draw)}
            <p class="secondary" data-testid="stages-accounting">
                {move || accounting_note(lang.get(), by_stage.get())}
            </p>
        </div>
    }
}

/// How this chart's totals stand to the memory figure's beside it (SPEC §11): the same when the
/// plan counts by stage, two accountings when it takes the lesson's even split.
fn accounting_note(lang: Lang, by_stage: bool) -> &'static str {
    if by_stage {
        text::AS_HEADLINE.get(lang)
    } else {
        text::AGAINST_EVEN.get(lang)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::series::tests::{many, of};
    use super::*;
    use crate::kit::charts::test_support::svg;
    use crate::kit::i18n::Lang;
    use parallel_core::PlanConfig;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let eight = of(PlanConfig::lesson_64_gpus());
        let one = of(PlanConfig::lesson_8_gpus());
        let wide = of(many());
        let runtime = of(PlanConfig {
            runtime_memory: true,
            ..PlanConfig::lesson_64_gpus()
        });
        let empty = StageSeries {
            stages: vec![],
            ..eight.clone()
        };
        crate::kit::text::testing::assert_all_used(text::ALL, || {
            for lang in [Lang::Zh, Lang::En] {
                for data in [&eight, &one, &wide, &empty, &runtime] {
                    summary(data, lang);
                    let _ = svg((640, 360), |area| draw(area, data, lang));
                }
                accounting_note(lang, true);
                accounting_note(lang, false);
            }
        });
    }
}
