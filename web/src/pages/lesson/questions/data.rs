//! Seed 003's questions that the lab answers with numbers, as one typed table: each with the
//! grid and plan that demonstrate it, the figure its answer cites, and its answer as a sentence
//! whose every figure is named ([`Value`]) and read from the plan's live report (or, where the
//! answer compares, from the core's report of one other plan). No views.

use parallel_core::explain::Figure;
use parallel_core::link::GridId;
use parallel_core::{
    stages_imbalance, stages_range, Accounting, Bytes, Dim, Plan, PlanConfig, Recompute, Report,
    Rollout, Schedule,
};

use super::words as text;
use crate::kit::format;
use crate::kit::i18n::Lang;
use crate::kit::text::Text;

/// A figure an answer quotes, read from a plan and its report.
#[derive(Clone, Copy, Debug)]
enum Value {
    /// Model states of the busiest card.
    States,
    /// Activations of the busiest card.
    Activations,
    /// Model states + activations.
    Total,
    /// The bubble ratio (p−1)/(v·m), as a percent.
    Bubble,
    /// Bytes a card sends per step in a dimension ("0" where it sends none).
    Traffic(Dim),
    /// Micro-batches in flight on the first stage.
    InFlight,
    /// Micro-batches per step, m.
    MicroBatches,
    /// The busiest pipeline stage.
    BusiestStage,
    /// The least memory of a stage.
    LeastStage,
    /// The busiest stage's memory over the least's, two decimals.
    StageRatio,
    /// The TP, PP and DP degrees, and the ZeRO stage.
    Tp,
    Pp,
    Dp,
    Zero,
    /// The plan's cards, N.
    Gpus,
    /// The estimated step time.
    Step,
    /// The rollout engines (SPEC §15): cards per engine, BF16 weights per card, sequences,
    /// tokens per sequence, KV cache per card, weights + KV cache.
    EngineGpus,
    RolloutWeights,
    Sequences,
    TokensPerSequence,
    KvCache,
    RolloutTotal,
    /// Whether a rollout card fits, as the end of a sentence.
    RolloutVerdict,
}

impl Value {
    /// The figure as the answer writes it in `lang`, from `plan` and its `report` ("—" for
    /// a rollout figure of a plan without engines).
    fn read(self, lang: Lang, plan: &Plan, report: &Report) -> String {
        let memory = &report.memory;
        let rollout = report.rollout;
        let engines = |pick: fn(&parallel_core::RolloutReport) -> String| {
            rollout.as_ref().map_or_else(|| "—".to_string(), pick)
        };
        match self {
            Value::States => format::bytes(memory.model_states),
            Value::Activations => format::bytes(memory.activations),
            Value::Total => format::bytes(memory.total),
            Value::Bubble => format::percent(report.bubble.ratio),
            Value::Traffic(dim) => report
                .comm
                .iter()
                .find(|t| t.dim == dim)
                .map_or_else(|| "0".to_string(), |t| format::bytes(t.bytes)),
            Value::InFlight => plan.micro_batches_in_flight().to_string(),
            Value::MicroBatches => plan.micro_batches().to_string(),
            Value::BusiestStage => report.busiest_stage.unwrap_or(0).to_string(),
            Value::LeastStage => format::bytes(
                stages_range(&report.by_stage).map_or(Bytes::ZERO, |(least, _)| least),
            ),
            Value::StageRatio => format!("{:.2}", stages_imbalance(&report.by_stage)),
            Value::Tp => plan.degrees().tp.to_string(),
            Value::Pp => plan.degrees().pp.to_string(),
            Value::Dp => plan.degrees().dp.to_string(),
            Value::Zero => plan.zero().to_string(),
            Value::Gpus => plan.gpus().to_string(),
            Value::Step => format::seconds(report.estimate.step_s),
            Value::EngineGpus => engines(|r| r.gpus_per_engine.to_string()),
            Value::RolloutWeights => engines(|r| format::bytes(r.weights)),
            Value::Sequences => engines(|r| format::thousands(r.sequences)),
            Value::TokensPerSequence => engines(|r| format::thousands(r.tokens_per_sequence)),
            Value::KvCache => engines(|r| format::bytes(r.kv_cache)),
            Value::RolloutTotal => engines(|r| format::bytes(r.total)),
            Value::RolloutVerdict => match rollout {
                Some(r) if r.fits => text::INFERENCE_FITS.get(lang).to_string(),
                _ => text::INFERENCE_OVER.fill(lang, &[("capacity", &memory.capacity)]),
            },
        }
    }
}

/// Where an answer reads a figure: the demonstration plan, or the one plan it compares with.
#[derive(Clone, Copy, Debug)]
enum Quote {
    Demo(Value),
    Compared(Value),
}

/// One question: what students ask, its demonstration (a grid and a plan on it), the figure
/// on screen its answer cites, and the answer's sentence with the figure each name quotes.
#[derive(Clone, Copy)]
pub struct Question {
    /// Its id (`question-<id>`).
    pub id: &'static str,
    /// The question as students ask it.
    pub ask: Text,
    /// The grid its demonstration uses.
    pub grid: GridId,
    /// The figure on screen the answer cites.
    pub cites: Figure,
    /// The demonstration plan, from the grid's start ([`GridId::start`]).
    demo: fn(PlanConfig) -> PlanConfig,
    /// The plan the answer compares with, from the demonstration plan.
    compared: Option<fn(PlanConfig) -> PlanConfig>,
    /// The answer's sentence.
    answer: Text,
    /// Each name of the sentence and the figure it quotes.
    quotes: &'static [(&'static str, Quote)],
}

impl Question {
    /// The demonstration plan.
    pub fn plan(&self) -> PlanConfig {
        (self.demo)(self.grid.start())
    }

    /// The answer in `lang`, from the demonstration's plan and live report; a figure of a
    /// compared plan the core refuses is "—".
    pub fn answer(&self, lang: Lang, plan: &Plan, report: &Report) -> String {
        let compared = self.compared.and_then(|change| {
            let plan = Plan::new(&change(plan.config().clone())).ok()?;
            let report = plan.report();
            Some((plan, report))
        });
        let values: Vec<(&str, String)> = self
            .quotes
            .iter()
            .map(|&(name, quote)| {
                let value = match quote {
                    Quote::Demo(value) => value.read(lang, plan, report),
                    Quote::Compared(value) => compared.as_ref().map_or_else(
                        || "—".to_string(),
                        |(plan, report)| value.read(lang, plan, report),
                    ),
                };
                (name, value)
            })
            .collect();
        let args: Vec<(&str, &dyn std::fmt::Display)> = values
            .iter()
            .map(|(name, value)| (*name, value as &dyn std::fmt::Display))
            .collect();
        self.answer.fill(lang, &args)
    }
}

/// Questions the lab cannot compute, one line each.
pub const BEYOND: [Text; 1] = [
    Text {
        zh: "显存碎片、通信缓冲区和框架开销：本页不计，真实占用会比这里高一些。",
        en: "Fragmentation, communication buffers and framework overhead: not counted here, so real use runs somewhat higher.",
    },
];

/// Every question, in the order seed 003 asks them.
pub fn questions() -> [Question; 12] {
    QUESTIONS
}

/// The questions' table. The 8-card demonstrations start from ZeRO-0 (the lesson's 8-card
/// start is ZeRO-3).
const QUESTIONS: [Question; 12] = {
    use Quote::{Compared, Demo};
    use Value::*;
    [
        Question {
            id: "dp-memory",
            ask: text::DP_ASK,
            grid: GridId::Eight,
            cites: Figure::ModelStates,
            demo: |start| PlanConfig { zero: 0, ..start },
            compared: Some(|demo| PlanConfig { zero: 3, ..demo }),
            answer: text::DP_ANSWER,
            quotes: &[("states", Demo(States)), ("zero3", Compared(States))],
        },
        Question {
            id: "tp-weights",
            ask: text::TP_ASK,
            grid: GridId::Eight,
            cites: Figure::ModelStates,
            demo: |start| PlanConfig {
                zero: 0,
                tp: 8,
                recompute: Recompute::Selective,
                ..start
            },
            compared: Some(|demo| PlanConfig {
                tp: 1,
                gpus: 1,
                ..demo
            }),
            answer: text::TP_ANSWER,
            quotes: &[
                ("one", Compared(States)),
                ("states", Demo(States)),
                ("tp", Demo(Traffic(Dim::Tp))),
            ],
        },
        Question {
            id: "pp-splits",
            ask: text::PP_ASK,
            grid: GridId::Eight,
            cites: Figure::ModelStates,
            demo: |start| PlanConfig {
                zero: 0,
                pp: 8,
                ..start
            },
            compared: Some(|demo| PlanConfig {
                tp: 8,
                pp: 1,
                ..demo
            }),
            answer: text::PP_ANSWER,
            quotes: &[
                ("states", Demo(States)),
                ("pp", Demo(Traffic(Dim::Pp))),
                ("tp", Compared(Traffic(Dim::Tp))),
            ],
        },
        Question {
            id: "1f1b-gpipe",
            ask: text::SCHEDULE_ASK,
            grid: GridId::Eight,
            cites: Figure::Activations,
            demo: |start| PlanConfig {
                zero: 0,
                tp: 2,
                pp: 4,
                micro_batches: 16,
                ..start
            },
            compared: Some(|demo| PlanConfig {
                schedule: Schedule::Gpipe,
                ..demo
            }),
            answer: text::SCHEDULE_ANSWER,
            quotes: &[
                ("in_flight", Demo(InFlight)),
                ("activations", Demo(Activations)),
                ("m", Demo(MicroBatches)),
                ("gpipe", Compared(Activations)),
                ("bubble", Demo(Bubble)),
            ],
        },
        Question {
            id: "sequence-parallel",
            ask: text::SP_ASK,
            grid: GridId::Eight,
            cites: Figure::Activations,
            demo: |start| PlanConfig {
                zero: 0,
                tp: 8,
                recompute: Recompute::Selective,
                ..start
            },
            compared: Some(|demo| PlanConfig { tp: 1, ..demo }),
            answer: text::SP_ANSWER,
            quotes: &[
                ("activations", Demo(Activations)),
                ("one", Compared(Activations)),
            ],
        },
        Question {
            id: "pp-stages",
            ask: text::STAGES_ASK,
            grid: GridId::SixtyFour,
            cites: Figure::Total,
            demo: |start| PlanConfig {
                accounting: Accounting::Stages,
                ..start
            },
            compared: None,
            answer: text::STAGES_ANSWER,
            quotes: &[
                ("stage", Demo(BusiestStage)),
                ("total", Demo(Total)),
                ("least", Demo(LeastStage)),
                ("ratio", Demo(StageRatio)),
            ],
        },
        Question {
            id: "still-tight",
            ask: text::TIGHT_ASK,
            grid: GridId::SixtyFour,
            cites: Figure::Activations,
            demo: |start| PlanConfig {
                pp: 2,
                seq_len: 32_768,
                recompute: Recompute::Selective,
                ..start
            },
            compared: None,
            answer: text::TIGHT_ANSWER,
            quotes: &[
                ("states", Demo(States)),
                ("activations", Demo(Activations)),
                ("total", Demo(Total)),
            ],
        },
        Question {
            id: "micro-batches",
            ask: text::MICRO_ASK,
            grid: GridId::SixtyFour,
            cites: Figure::Activations,
            demo: |start| PlanConfig {
                micro_batches: 32,
                ..start
            },
            compared: Some(|demo| PlanConfig {
                micro_batch_size: 2,
                ..demo
            }),
            answer: text::MICRO_ANSWER,
            quotes: &[
                ("activations", Demo(Activations)),
                ("bubble", Demo(Bubble)),
                ("b2", Compared(Activations)),
            ],
        },
        Question {
            id: "zero3-tp",
            ask: text::ZERO3_ASK,
            grid: GridId::SixtyFour,
            cites: Figure::Activations,
            demo: |start| PlanConfig {
                pp: 1,
                zero: 3,
                ..start
            },
            compared: Some(|demo| PlanConfig { tp: 1, ..demo }),
            answer: text::ZERO3_ANSWER,
            quotes: &[
                ("activations", Demo(Activations)),
                ("zero3_activations", Compared(Activations)),
                ("zero3_dp", Compared(Traffic(Dim::Dp))),
            ],
        },
        Question {
            id: "bubble-memory",
            ask: text::BUBBLE_ASK,
            grid: GridId::Eight,
            cites: Figure::BubbleRatio,
            demo: |start| PlanConfig {
                zero: 0,
                pp: 8,
                ..start
            },
            compared: Some(|demo| PlanConfig {
                micro_batches: 32,
                ..demo
            }),
            answer: text::BUBBLE_ANSWER,
            quotes: &[
                ("bubble", Demo(Bubble)),
                ("activations", Demo(Activations)),
                ("bubble32", Compared(Bubble)),
                ("activations32", Compared(Activations)),
            ],
        },
        Question {
            id: "choose-degrees",
            ask: text::CHOOSE_ASK,
            grid: GridId::SixtyFour,
            cites: Figure::Total,
            demo: |start| PlanConfig {
                pp: 2,
                zero: 1,
                ..start
            },
            compared: None,
            answer: text::CHOOSE_ANSWER,
            quotes: &[
                ("tp", Demo(Tp)),
                ("pp", Demo(Pp)),
                ("dp", Demo(Dp)),
                ("zero", Demo(Zero)),
                ("total", Demo(Total)),
                ("step", Demo(Step)),
            ],
        },
        Question {
            id: "inference-memory",
            ask: text::INFERENCE_ASK,
            grid: GridId::Eight,
            cites: Figure::RolloutKv,
            // The lesson's start with seed 000's default engines: one engine of all 8 cards,
            // 8 prompts × 8 samples of up to 133,120 tokens.
            demo: |start| PlanConfig {
                rollout: Some(Rollout::default()),
                ..start
            },
            compared: None,
            answer: text::INFERENCE_ANSWER,
            quotes: &[
                ("states", Demo(States)),
                ("zero", Demo(Zero)),
                ("dp", Demo(Dp)),
                ("activations", Demo(Activations)),
                ("train", Demo(Total)),
                ("gpus", Demo(Gpus)),
                ("engine", Demo(EngineGpus)),
                ("weights", Demo(RolloutWeights)),
                ("seqs", Demo(Sequences)),
                ("tokens", Demo(TokensPerSequence)),
                ("kv", Demo(KvCache)),
                ("total", Demo(RolloutTotal)),
                ("verdict", Demo(RolloutVerdict)),
            ],
        },
    ]
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_question_is_answered_from_its_plan_in_both_languages() {
        crate::kit::text::testing::assert_all_used(text::ALL, || {
            for q in questions() {
                let plan = Plan::new(&q.plan()).unwrap();
                assert_eq!(plan.gpus(), q.grid.gpus(), "{}", q.id);
                let report = plan.report();
                for lang in [Lang::Zh, Lang::En] {
                    q.ask.get(lang);
                    let answer = q.answer(lang, &plan, &report);
                    assert!(!answer.contains('—'), "{}: {answer}", q.id);
                    // The inference answer's other verdict: a rollout card that fits.
                    if let Some(rollout) = report.rollout {
                        let fits = Report {
                            rollout: Some(parallel_core::RolloutReport {
                                fits: true,
                                ..rollout
                            }),
                            ..report.clone()
                        };
                        q.answer(lang, &plan, &fits);
                    }
                }
            }
        });
        let q = questions()[0];
        let plan = Plan::new(&q.plan()).unwrap();
        let answer = q.answer(Lang::En, &plan, &plan.report());
        assert!(
            answer.contains("444.5 GB") && answer.contains("55.6 GB"),
            "{answer}"
        );
        // Seed 003's inference question: the anchor's weights and KV cache on the same cards
        // (1 engine of 8, 64 sequences of 133,120 tokens) beside its training states.
        let q = questions()[11];
        let plan = Plan::new(&q.plan()).unwrap();
        let answer = q.answer(Lang::En, &plan, &plan.report());
        assert!(
            answer.contains("55.6 GB")
                && answer.contains("6.9 GB a card")
                && answer.contains("64 sequences of 133,120 tokens takes 139.6 GB")
                && answer.contains("over a card's 80.0 GB"),
            "{answer}"
        );
        for t in BEYOND {
            assert!(!t.zh.is_empty() && !t.en.is_empty());
        }
    }
}
