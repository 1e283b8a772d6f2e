//! Seed 003's questions that the lab answers with numbers: each with the grid and plan that
//! demonstrate it, the figure its answer cites, and the answer written from the plan's live
//! report (and, where the answer compares, the core's report of one other plan). No views.

use parallel_core::{
    evaluate, stages_imbalance, stages_range, Accounting, Bytes, Dim, Plan, PlanConfig, Recompute,
    Report, Rollout, Schedule,
};

use crate::kit::format;
use crate::kit::i18n::Lang;
use crate::kit::text::Text;

/// One question.
#[derive(Clone, Copy)]
pub struct Question {
    /// Its id (`question-<id>`).
    pub id: &'static str,
    /// The question as students ask it.
    pub ask: Text,
    /// 8 or 64: the grid its demonstration uses.
    pub grid: u32,
    /// The demonstration plan.
    pub plan: fn() -> PlanConfig,
    /// The test id of the figure on screen the answer cites.
    pub cites: &'static str,
    /// The answer, from the demonstration's plan and live report.
    pub answer: fn(Lang, &Plan, &Report) -> String,
}

/// The core's report of `config` (a plan the answer compares with), or the reason it fails.
fn other(config: PlanConfig) -> Option<Report> {
    evaluate(&config).ok()
}

fn bytes_of(report: Option<&Report>, pick: fn(&Report) -> Bytes) -> String {
    report.map_or_else(|| "—".to_string(), |r| format::bytes(pick(r)))
}

fn traffic_of(report: &Report, dim: Dim) -> String {
    report
        .comm
        .iter()
        .find(|t| t.dim == dim)
        .map_or_else(|| "0".to_string(), |t| format::bytes(t.bytes))
}

use super::words as text;

/// Questions the lab cannot compute, one line each.
pub const BEYOND: [Text; 1] = [
    Text {
        zh: "显存碎片、通信缓冲区和框架开销：本页不计，真实占用会比这里高一些。",
        en: "Fragmentation, communication buffers and framework overhead: not counted here, so real use runs somewhat higher.",
    },
];

fn eight(zero: u8, tp: u32, pp: u32, recompute: Recompute) -> PlanConfig {
    PlanConfig {
        tp,
        pp,
        zero,
        recompute,
        ..PlanConfig::default()
    }
}

/// Every question, in the order seed 003 asks them.
pub fn questions() -> [Question; 12] {
    [
        Question {
            id: "dp-memory",
            ask: text::DP_ASK,
            grid: 8,
            plan: || eight(0, 1, 1, Recompute::Full),
            cites: "mem-states",
            answer: |lang, plan, r| {
                let zero3 = other(PlanConfig {
                    zero: 3,
                    ..plan.config().clone()
                });
                text::DP_ANSWER.fill(
                    lang,
                    &[
                        ("states", &r.memory.model_states),
                        (
                            "zero3",
                            &bytes_of(zero3.as_ref(), |r| r.memory.model_states),
                        ),
                    ],
                )
            },
        },
        Question {
            id: "tp-weights",
            ask: text::TP_ASK,
            grid: 8,
            plan: || eight(0, 8, 1, Recompute::Selective),
            cites: "mem-states",
            answer: |lang, plan, r| {
                let one = other(PlanConfig {
                    tp: 1,
                    gpus: 1,
                    ..plan.config().clone()
                });
                text::TP_ANSWER.fill(
                    lang,
                    &[
                        ("one", &bytes_of(one.as_ref(), |r| r.memory.model_states)),
                        ("states", &r.memory.model_states),
                        ("tp", &traffic_of(r, Dim::Tp)),
                    ],
                )
            },
        },
        Question {
            id: "pp-splits",
            ask: text::PP_ASK,
            grid: 8,
            plan: || eight(0, 1, 8, Recompute::Full),
            cites: "mem-states",
            answer: |lang, plan, r| {
                let tp = other(PlanConfig {
                    tp: 8,
                    pp: 1,
                    ..plan.config().clone()
                });
                text::PP_ANSWER.fill(
                    lang,
                    &[
                        ("states", &r.memory.model_states),
                        ("pp", &traffic_of(r, Dim::Pp)),
                        (
                            "tp",
                            &tp.as_ref()
                                .map_or_else(|| "—".to_string(), |t| traffic_of(t, Dim::Tp)),
                        ),
                    ],
                )
            },
        },
        Question {
            id: "1f1b-gpipe",
            ask: text::SCHEDULE_ASK,
            grid: 8,
            plan: || PlanConfig {
                micro_batches: 16,
                ..eight(0, 2, 4, Recompute::Full)
            },
            cites: "mem-activations",
            answer: |lang, plan, r| {
                let gpipe = other(PlanConfig {
                    schedule: Schedule::Gpipe,
                    ..plan.config().clone()
                });
                text::SCHEDULE_ANSWER.fill(
                    lang,
                    &[
                        ("in_flight", &plan.micro_batches_in_flight()),
                        ("activations", &r.memory.activations),
                        ("m", &plan.micro_batches()),
                        ("gpipe", &bytes_of(gpipe.as_ref(), |r| r.memory.activations)),
                        ("bubble", &format::percent(r.bubble.ratio)),
                    ],
                )
            },
        },
        Question {
            id: "sequence-parallel",
            ask: text::SP_ASK,
            grid: 8,
            plan: || eight(0, 8, 1, Recompute::Selective),
            cites: "mem-activations",
            answer: |lang, plan, r| {
                let one = other(PlanConfig {
                    tp: 1,
                    ..plan.config().clone()
                });
                text::SP_ANSWER.fill(
                    lang,
                    &[
                        ("activations", &r.memory.activations),
                        ("one", &bytes_of(one.as_ref(), |r| r.memory.activations)),
                    ],
                )
            },
        },
        Question {
            id: "pp-stages",
            ask: text::STAGES_ASK,
            grid: 64,
            plan: || PlanConfig {
                accounting: Accounting::Stages,
                ..PlanConfig::lesson_64_gpus()
            },
            cites: "mem-total",
            answer: |lang, _plan, r| {
                let least = stages_range(&r.by_stage).map_or(Bytes::ZERO, |(least, _)| least);
                let ratio = format!("{:.2}", stages_imbalance(&r.by_stage));
                text::STAGES_ANSWER.fill(
                    lang,
                    &[
                        ("stage", &r.busiest_stage.unwrap_or(0)),
                        ("total", &r.memory.total),
                        ("least", &least),
                        ("ratio", &ratio),
                    ],
                )
            },
        },
        Question {
            id: "still-tight",
            ask: text::TIGHT_ASK,
            grid: 64,
            plan: || PlanConfig {
                pp: 2,
                seq_len: 32_768,
                recompute: Recompute::Selective,
                ..PlanConfig::lesson_64_gpus()
            },
            cites: "mem-activations",
            answer: |lang, _plan, r| {
                text::TIGHT_ANSWER.fill(
                    lang,
                    &[
                        ("states", &r.memory.model_states),
                        ("activations", &r.memory.activations),
                        ("total", &r.memory.total),
                    ],
                )
            },
        },
        Question {
            id: "micro-batches",
            ask: text::MICRO_ASK,
            grid: 64,
            plan: || PlanConfig {
                micro_batches: 32,
                ..PlanConfig::lesson_64_gpus()
            },
            cites: "mem-activations",
            answer: |lang, plan, r| {
                let b2 = other(PlanConfig {
                    micro_batch_size: 2,
                    ..plan.config().clone()
                });
                text::MICRO_ANSWER.fill(
                    lang,
                    &[
                        ("activations", &r.memory.activations),
                        ("bubble", &format::percent(r.bubble.ratio)),
                        ("b2", &bytes_of(b2.as_ref(), |r| r.memory.activations)),
                    ],
                )
            },
        },
        Question {
            id: "zero3-tp",
            ask: text::ZERO3_ASK,
            grid: 64,
            plan: || PlanConfig {
                pp: 1,
                zero: 3,
                ..PlanConfig::lesson_64_gpus()
            },
            cites: "mem-activations",
            answer: |lang, plan, r| {
                let alone = other(PlanConfig {
                    tp: 1,
                    ..plan.config().clone()
                });
                text::ZERO3_ANSWER.fill(
                    lang,
                    &[
                        ("activations", &r.memory.activations),
                        (
                            "zero3_activations",
                            &bytes_of(alone.as_ref(), |r| r.memory.activations),
                        ),
                        (
                            "zero3_dp",
                            &alone
                                .as_ref()
                                .map_or_else(|| "—".to_string(), |a| traffic_of(a, Dim::Dp)),
                        ),
                    ],
                )
            },
        },
        Question {
            id: "bubble-memory",
            ask: text::BUBBLE_ASK,
            grid: 8,
            plan: || eight(0, 1, 8, Recompute::Full),
            cites: "bubble",
            answer: |lang, plan, r| {
                let more = other(PlanConfig {
                    micro_batches: 32,
                    ..plan.config().clone()
                });
                text::BUBBLE_ANSWER.fill(
                    lang,
                    &[
                        ("bubble", &format::percent(r.bubble.ratio)),
                        ("activations", &r.memory.activations),
                        (
                            "bubble32",
                            &more.as_ref().map_or_else(
                                || "—".to_string(),
                                |m| format::percent(m.bubble.ratio),
                            ),
                        ),
                        (
                            "activations32",
                            &bytes_of(more.as_ref(), |r| r.memory.activations),
                        ),
                    ],
                )
            },
        },
        Question {
            id: "choose-degrees",
            ask: text::CHOOSE_ASK,
            grid: 64,
            plan: || PlanConfig {
                pp: 2,
                zero: 1,
                ..PlanConfig::lesson_64_gpus()
            },
            cites: "mem-total",
            answer: |lang, plan, r| {
                let d = plan.degrees();
                text::CHOOSE_ANSWER.fill(
                    lang,
                    &[
                        ("tp", &d.tp),
                        ("pp", &d.pp),
                        ("dp", &d.dp),
                        ("zero", &plan.zero()),
                        ("total", &r.memory.total),
                        ("step", &format::seconds(r.estimate.step_s)),
                    ],
                )
            },
        },
        Question {
            id: "inference-memory",
            ask: text::INFERENCE_ASK,
            grid: 8,
            // The lesson's start with seed 000's default engines: one engine of all 8 cards,
            // 8 prompts × 8 samples of up to 133,120 tokens.
            plan: || PlanConfig {
                rollout: Some(Rollout::default()),
                ..PlanConfig::lesson_8_gpus()
            },
            cites: "rollout-kv",
            answer: |lang, plan, r| {
                let Some(rollout) = r.rollout else {
                    return String::new();
                };
                let verdict = if rollout.fits {
                    text::INFERENCE_FITS.get(lang).to_string()
                } else {
                    text::INFERENCE_OVER.fill(lang, &[("capacity", &r.memory.capacity)])
                };
                text::INFERENCE_ANSWER.fill(
                    lang,
                    &[
                        ("states", &r.memory.model_states),
                        ("zero", &plan.zero()),
                        ("dp", &plan.degrees().dp),
                        ("activations", &r.memory.activations),
                        ("train", &r.memory.total),
                        ("gpus", &plan.gpus()),
                        ("engine", &rollout.gpus_per_engine),
                        ("weights", &rollout.weights),
                        ("seqs", &format::thousands(rollout.sequences)),
                        ("tokens", &format::thousands(rollout.tokens_per_sequence)),
                        ("kv", &rollout.kv_cache),
                        ("total", &rollout.total),
                        ("verdict", &verdict),
                    ],
                )
            },
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_question_is_answered_from_its_plan_in_both_languages() {
        crate::kit::text::testing::assert_all_used(text::ALL, || {
            for q in questions() {
                let plan = Plan::new(&(q.plan)()).unwrap();
                assert_eq!(plan.gpus(), q.grid, "{}", q.id);
                let report = plan.report();
                for lang in [Lang::Zh, Lang::En] {
                    q.ask.get(lang);
                    let answer = (q.answer)(lang, &plan, &report);
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
                        (q.answer)(lang, &plan, &fits);
                    }
                }
            }
        });
        let q = questions()[0];
        let plan = Plan::new(&(q.plan)()).unwrap();
        let answer = (q.answer)(Lang::En, &plan, &plan.report());
        assert!(
            answer.contains("444.5 GB") && answer.contains("55.6 GB"),
            "{answer}"
        );
        // Seed 003's inference question: the anchor's weights and KV cache on the same cards
        // (1 engine of 8, 64 sequences of 133,120 tokens) beside its training states.
        let q = questions()[11];
        let plan = Plan::new(&(q.plan)()).unwrap();
        let answer = (q.answer)(Lang::En, &plan, &plan.report());
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
