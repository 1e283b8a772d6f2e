//! Seed 003's later questions: expert parallelism, what unbalances memory, why a card stays
//! tight, micro-batches, ZeRO with TP and with DP, the bubble, choosing degrees, the largest
//! models and inference.

use parallel_core::explain::Figure;
use parallel_core::link::{Control, GridId};
use parallel_core::{Dim, ModelChoice, PlanConfig, Preset, Recompute, Rollout};

use super::super::data::{Question, Quote, Value};
use super::super::words as text;

pub(super) const BALANCE: [Question; 10] = {
    use Quote::{Compared, Demo};
    use Value::*;
    [
        Question {
            id: "expert-parallel",
            ask: text::EP_ASK,
            grid: GridId::SixtyFour,
            cites: Figure::ModelStates,
            control: Some(Control::Ep),
            demo: mixtral_ep8,
            // Without EP; and with PP 2, where the EP group spans two nodes.
            compared: &[
                |demo| PlanConfig { ep: 1, ..demo },
                |demo| PlanConfig { pp: 2, ..demo },
            ],
            answer: text::EP_ANSWER,
            quotes: &[
                ("experts", Demo(ExpertsPerCard)),
                ("states", Demo(States)),
                ("all", Compared(0, ExpertsPerCard)),
                ("states1", Compared(0, States)),
                ("ep", Demo(Traffic(Dim::Ep))),
                ("ep_link", Demo(Link(Dim::Ep))),
                ("pp_ep", Compared(1, Traffic(Dim::Ep))),
                ("pp_link", Compared(1, Link(Dim::Ep))),
                ("pp_time", Compared(1, TrafficTime(Dim::Ep))),
            ],
        },
        Question {
            id: "imbalance",
            ask: text::IMBALANCE_ASK,
            grid: GridId::SixtyFour,
            cites: Figure::RoutingExcess,
            control: Some(Control::RuntimeMemory),
            // Wang et al. 2024's worst measured load (max/mean 1.937, `MEASURED_SKEWS`), and
            // the runtime terms counted (SPEC §24).
            demo: |start| PlanConfig {
                routing_skew: 1.937,
                runtime_memory: true,
                ..mixtral_ep8(start)
            },
            compared: &[],
            answer: text::IMBALANCE_ANSWER,
            quotes: &[
                ("skew", Demo(Skew)),
                ("hot", Demo(HotTokens)),
                ("even", Demo(EvenTokens)),
                ("excess", Demo(RoutingExcess)),
                ("wait", Demo(RoutingWait)),
                ("runtime", Demo(Runtime)),
                ("context", Demo(RuntimeContext)),
                ("reserve", Demo(RuntimeReserve)),
            ],
        },
        Question {
            id: "still-tight",
            ask: text::TIGHT_ASK,
            grid: GridId::SixtyFour,
            cites: Figure::Activations,
            control: Some(Control::Seq),
            demo: |start| PlanConfig {
                pp: 2,
                seq_len: 32_768,
                recompute: Recompute::Selective,
                ..start
            },
            compared: &[],
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
            control: Some(Control::MicroBatches),
            demo: |start| PlanConfig {
                micro_batches: 32,
                ..start
            },
            compared: &[|demo| PlanConfig {
                micro_batch_size: 2,
                ..demo
            }],
            answer: text::MICRO_ANSWER,
            quotes: &[
                ("activations", Demo(Activations)),
                ("bubble", Demo(Bubble)),
                ("b2", Compared(0, Activations)),
            ],
        },
        Question {
            id: "zero3-tp",
            ask: text::ZERO3_ASK,
            grid: GridId::SixtyFour,
            cites: Figure::Activations,
            control: Some(Control::Tp),
            demo: |start| PlanConfig {
                pp: 1,
                zero: 3,
                ..start
            },
            compared: &[|demo| PlanConfig { tp: 1, ..demo }],
            answer: text::ZERO3_ANSWER,
            quotes: &[
                ("activations", Demo(Activations)),
                ("zero3_activations", Compared(0, Activations)),
                ("zero3_dp", Compared(0, Traffic(Dim::Dp))),
            ],
        },
        Question {
            id: "bubble-memory",
            ask: text::BUBBLE_ASK,
            grid: GridId::Eight,
            cites: Figure::BubbleRatio,
            control: Some(Control::MicroBatches),
            demo: |start| PlanConfig {
                zero: 0,
                pp: 8,
                ..start
            },
            compared: &[|demo| PlanConfig {
                micro_batches: 32,
                ..demo
            }],
            answer: text::BUBBLE_ANSWER,
            quotes: &[
                ("bubble", Demo(Bubble)),
                ("activations", Demo(Activations)),
                ("bubble32", Compared(0, Bubble)),
                ("activations32", Compared(0, Activations)),
            ],
        },
        Question {
            id: "dp-zero",
            ask: text::DP_ZERO_ASK,
            grid: GridId::SixtyFour,
            cites: Figure::ModelStates,
            control: Some(Control::Zero),
            demo: |start| PlanConfig {
                tp: 8,
                pp: 1,
                zero: 0,
                ..start
            },
            compared: &[
                |demo| PlanConfig { zero: 1, ..demo },
                |demo| PlanConfig { zero: 2, ..demo },
                |demo| PlanConfig { zero: 3, ..demo },
            ],
            answer: text::DP_ZERO_ANSWER,
            quotes: &[
                ("s0", Demo(States)),
                ("s1", Compared(0, States)),
                ("s2", Compared(1, States)),
                ("s3", Compared(2, States)),
                ("d0", Demo(Traffic(Dim::Dp))),
                ("d2", Compared(1, Traffic(Dim::Dp))),
                ("d3", Compared(2, Traffic(Dim::Dp))),
                ("step0", Demo(Step)),
                ("step3", Compared(2, Step)),
            ],
        },
        Question {
            id: "choose-degrees",
            ask: text::CHOOSE_ASK,
            grid: GridId::SixtyFour,
            cites: Figure::Total,
            control: Some(Control::Tp),
            demo: |start| PlanConfig {
                pp: 2,
                zero: 1,
                ..start
            },
            compared: &[],
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
            id: "largest-models",
            ask: text::LARGEST_ASK,
            grid: GridId::SixtyFour,
            cites: Figure::Total,
            control: Some(Control::Pp),
            // Llama 3 405B: TP 8 inside the nodes, PP 8 across them.
            demo: |start| PlanConfig {
                model: ModelChoice::Preset(Preset::Llama3_405b),
                tp: 8,
                pp: 8,
                zero: 0,
                ..start
            },
            // The walk: DP alone; with ZeRO-3; with TP 8 (DP 8); and Llama 3's own run.
            compared: &[
                |demo| PlanConfig {
                    tp: 1,
                    pp: 1,
                    ..demo
                },
                |demo| PlanConfig {
                    tp: 1,
                    pp: 1,
                    zero: 3,
                    ..demo
                },
                |demo| PlanConfig {
                    pp: 1,
                    zero: 3,
                    ..demo
                },
                llama3_run,
            ],
            answer: text::LARGEST_ANSWER,
            quotes: &[
                ("dp_states", Compared(0, States)),
                ("z3_states", Compared(1, States)),
                ("z3_dp", Compared(1, Traffic(Dim::Dp))),
                ("z3_activations", Compared(1, Activations)),
                ("z3_step", Compared(1, Step)),
                ("tp_activations", Compared(2, Activations)),
                ("tp_dp", Compared(2, Traffic(Dim::Dp))),
                ("tp_step", Compared(2, Step)),
                ("pp", Demo(Traffic(Dim::Pp))),
                ("pp_link", Demo(Link(Dim::Pp))),
                ("step", Demo(Step)),
                ("bubble", Demo(Bubble)),
                ("total", Demo(Total)),
                ("run", Compared(3, Run)),
                ("run_states", Compared(3, States)),
            ],
        },
        Question {
            id: "inference-memory",
            ask: text::INFERENCE_ASK,
            grid: GridId::Eight,
            cites: Figure::RolloutKv,
            control: None,
            // The lesson's start with seed 000's default engines: one engine of all 8 cards,
            // 8 prompts × 8 samples of up to 133,120 tokens.
            demo: |start| PlanConfig {
                rollout: Some(Rollout::default()),
                ..start
            },
            compared: &[],
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

/// Mixtral 8x7B with its experts spread over 8 cards (EP 8, no TP or PP, ZeRO-1): the plan
/// of the expert-parallel and the imbalance questions.
fn mixtral_ep8(start: PlanConfig) -> PlanConfig {
    PlanConfig {
        model: ModelChoice::Preset(Preset::Mixtral8x7b),
        tp: 1,
        pp: 1,
        ep: 8,
        zero: 1,
        ..start
    }
}

/// The published run of Llama 3 405B on 8,192 H100s at 8K tokens (`runs`, Llama 3's Table 4),
/// as the plan the largest-models answer compares with; a plan of no cards (which the core
/// refuses, so the answer says "—" and its test fails) if the run is not there.
fn llama3_run(_: PlanConfig) -> PlanConfig {
    parallel_core::runs::runs()
        .into_iter()
        .find(|run| run.id == "llama3-405b-8k-8192")
        .map_or_else(
            || PlanConfig {
                gpus: 0,
                ..PlanConfig::default()
            },
            |run| run.config,
        )
}
