//! The stage chart's data and its words: [`StageSeries`] read from the core (`series`), and
//! what is said instead of or besides the drawing: the summary (`aria-label`), the note shown
//! for one stage, and the `data-series` values for the tests.

use parallel_core::{stages_imbalance, Bytes, Plan};

use super::text;
use crate::kit::format;
use crate::kit::i18n::Lang;

/// Above this many stages the summary names only the busiest one.
const MAX_LISTED: usize = 16;

/// One stage's bar, in GB, as the core reports it (`StageMemory`): its model states, its
/// activations and its total.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bar {
    pub stage: u32,
    pub states: f64,
    pub activations: f64,
    /// The runtime terms (`StageMemory::runtime`, SPEC §24): 0 unless they are counted.
    pub runtime: f64,
    /// `StageMemory::total`: what the bar's top and its label show.
    pub total: f64,
}

/// The stage chart's data, in GB, as the core reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct StageSeries {
    /// Stage 0 … p − 1 (`Plan::memory_by_stage`).
    pub stages: Vec<Bar>,
    /// The card's capacity in GB (`Plan::capacity`).
    pub capacity_gb: f64,
    /// The largest total over the smallest (`stages_imbalance`).
    pub imbalance: f64,
    /// The stage with the largest total (`Plan::busiest_stage`).
    pub busiest: u32,
}

/// The stage chart's data for `plan`.
pub fn series(plan: &Plan) -> StageSeries {
    let stages = plan.memory_by_stage();
    StageSeries {
        stages: stages
            .iter()
            .map(|s| Bar {
                stage: s.stage,
                states: s.model_states.gb(),
                activations: s.activations.gb(),
                runtime: s.runtime.gb(),
                total: s.total.gb(),
            })
            .collect(),
        capacity_gb: plan.capacity().gb(),
        imbalance: stages_imbalance(&stages),
        busiest: plan.busiest_stage(),
    }
}

/// GB as the page writes bytes: "9.4 GB".
pub(super) fn gb(value: f64) -> String {
    format::bytes(Bytes::from_gb(value))
}

/// The imbalance as the caption writes it: "1.47".
pub(super) fn ratio(value: f64) -> String {
    format!("{value:.2}")
}

/// The parameters of one stage's figures: total, model states and activations.
fn figures(bar: &Bar) -> [(&'static str, String); 3] {
    [
        ("total", gb(bar.total)),
        ("states", gb(bar.states)),
        ("activations", gb(bar.activations)),
    ]
}

/// The note shown instead of the chart: with one stage, its figures; otherwise none.
pub fn note(data: &StageSeries, lang: Lang) -> Option<String> {
    match data.stages.as_slice() {
        [bar] => {
            let [total, st, act] = figures(bar);
            Some(text::ONE_STAGE.fill(
                lang,
                &[
                    (total.0, &total.1),
                    (st.0, &st.1),
                    (act.0, &act.1),
                    ("capacity", &gb(data.capacity_gb)),
                ],
            ))
        }
        _ => None,
    }
}

/// The chart as one sentence, for `aria-label`.
pub fn summary(data: &StageSeries, lang: Lang) -> String {
    if data.stages.is_empty() {
        return text::NOTHING.get(lang).to_string();
    }
    if let Some(one) = note(data, lang) {
        return one;
    }
    let capacity = gb(data.capacity_gb);
    let imbalance = ratio(data.imbalance);
    if data.stages.len() > MAX_LISTED {
        let bar = data
            .stages
            .iter()
            .find(|b| b.stage == data.busiest)
            .unwrap_or(&data.stages[0]);
        let [total, st, act] = figures(bar);
        return text::SUMMARY_MANY.fill(
            lang,
            &[
                ("count", &data.stages.len()),
                ("busiest", &data.busiest),
                (total.0, &total.1),
                (st.0, &st.1),
                (act.0, &act.1),
                ("capacity", &capacity),
                ("imbalance", &imbalance),
            ],
        );
    }
    let bars: Vec<String> = data
        .stages
        .iter()
        .map(|bar| {
            let [total, st, act] = figures(bar);
            text::BAR.fill(
                lang,
                &[
                    ("stage", &bar.stage),
                    (total.0, &total.1),
                    (st.0, &st.1),
                    (act.0, &act.1),
                ],
            )
        })
        .collect();
    text::SUMMARY.fill(
        lang,
        &[
            ("bars", &bars.join(lang.pick("，", ", "))),
            ("capacity", &capacity),
            ("imbalance", &imbalance),
            ("busiest", &data.busiest),
        ],
    )
}

/// The drawn values for `data-series`: "capacity=… imbalance=… busiest=…", then one
/// "stage:states:activations" triple per stage, all in GB.
pub fn values(data: &StageSeries) -> String {
    let head = format!(
        "capacity={} imbalance={} busiest={}",
        data.capacity_gb, data.imbalance, data.busiest
    );
    std::iter::once(head)
        .chain(
            data.stages
                .iter()
                .map(|b| format!("{}:{}:{}", b.stage, b.states, b.activations)),
        )
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
pub(super) mod tests {
    use super::*;
    use crate::kit::charts::test_support::has_cjk;
    use parallel_core::PlanConfig;

    pub(in crate::kit::charts::stages) fn of(config: PlanConfig) -> StageSeries {
        series(&Plan::new(&config).unwrap())
    }

    /// 64 cards, PP 64: more stages than names fit under the bars.
    pub(in crate::kit::charts::stages) fn many() -> PlanConfig {
        PlanConfig {
            gpus: 64,
            pp: 64,
            ..PlanConfig::default()
        }
    }

    #[test]
    fn series_reads_the_core_s_stages() {
        let plan = Plan::new(&PlanConfig::lesson_64_gpus()).unwrap();
        let data = series(&plan);
        let core = plan.memory_by_stage();
        assert_eq!(data.stages.len(), 8);
        for (bar, s) in data.stages.iter().zip(&core) {
            assert_eq!(bar.stage, s.stage);
            assert_eq!(bar.states, s.model_states.gb());
            assert_eq!(bar.activations, s.activations.gb());
            assert_eq!(bar.total, s.total.gb());
        }
        assert_eq!(data.capacity_gb, 80.0);
        assert_eq!(data.imbalance, stages_imbalance(&core));
        // 9.40 GB on stage 7 over 6.39 GB on stage 6.
        assert_eq!(ratio(data.imbalance), "1.47");
        assert_eq!(data.busiest, 7);
        assert!(data.stages.iter().all(|b| b.runtime == 0.0));
    }

    #[test]
    fn the_runtime_terms_sit_on_top_of_each_bar() {
        let plan = Plan::new(&PlanConfig {
            runtime_memory: true,
            ..PlanConfig::lesson_64_gpus()
        })
        .unwrap();
        for (bar, s) in series(&plan).stages.iter().zip(&plan.memory_by_stage()) {
            assert!(bar.runtime > 0.0);
            assert_eq!(bar.runtime, s.runtime.gb());
            let sum = bar.states + bar.activations + bar.runtime;
            assert!((sum - bar.total).abs() < 1e-9, "{bar:?}");
        }
    }

    #[test]
    fn summaries_in_both_languages() {
        let data = of(PlanConfig::lesson_64_gpus());
        let en = summary(&data, Lang::En);
        assert!(en.starts_with("Memory per card by pipeline stage: stage 0 "));
        assert!(en.ends_with("Card capacity 80.0 GB; max ÷ min = 1.47, busiest: stage 7."));
        assert!(!has_cjk(&en));
        let zh = summary(&data, Lang::Zh);
        assert!(zh.starts_with("各流水线段的每卡显存：第 0 段 "));
        assert!(zh.ends_with("单卡显存 80.0 GB；最大 ÷ 最小 = 1.47，最忙的是第 7 段。"));
        assert_eq!(note(&data, Lang::En), None);
        let v = values(&data);
        assert!(v.starts_with("capacity=80 imbalance=1.4"));
        assert_eq!(v.split(' ').count(), 3 + 8);

        let one = of(PlanConfig::lesson_8_gpus());
        assert_eq!(one.stages.len(), 1);
        let note_en = note(&one, Lang::En).unwrap();
        assert!(note_en.starts_with("PP = 1: there is one pipeline stage only"));
        assert_eq!(summary(&one, Lang::En), note_en);
        assert!(note(&one, Lang::Zh).unwrap().contains("只有一个流水线段"));

        let long = summary(&of(many()), Lang::En);
        assert!(long.starts_with("Memory per card over 64 pipeline stages"));
    }
}
