//! Seed 003's first questions: what data, tensor, pipeline and sequence parallelism each
//! split, what TP costs, whether the stages are even, and how the three balance.

use parallel_core::explain::Figure;
use parallel_core::link::{Control, GridId};
use parallel_core::{Accounting, Dim, ModelChoice, PlanConfig, Preset, Recompute, Schedule};

use super::super::data::{Question, Quote, Value};
use super::super::words as text;

pub(super) const SPLITS: [Question; 9] = {
    use Quote::{Compared, Demo};
    use Value::*;
    [
        Question {
            id: "dp-memory",
            ask: text::DP_ASK,
            grid: GridId::Eight,
            cites: Figure::ModelStates,
            control: Some(Control::Zero),
            demo: |start| PlanConfig { zero: 0, ..start },
            compared: &[|demo| PlanConfig { zero: 3, ..demo }],
            answer: text::DP_ANSWER,
            quotes: &[("states", Demo(States)), ("zero3", Compared(0, States))],
        },
        Question {
            id: "tp-weights",
            ask: text::TP_ASK,
            grid: GridId::Eight,
            cites: Figure::ModelStates,
            control: Some(Control::Tp),
            demo: tp8_selective,
            compared: &[whole_on_one_card],
            answer: text::TP_ANSWER,
            quotes: &[
                ("one", Compared(0, States)),
                ("states", Demo(States)),
                ("tp", Demo(Traffic(Dim::Tp))),
            ],
        },
        Question {
            id: "tp4-7b",
            ask: text::TP4_ASK,
            grid: GridId::Eight,
            cites: Figure::ModelStates,
            control: Some(Control::Tp),
            // Llama 3 8B (8.03B parameters): the lab's model nearest the question's 7B.
            demo: |start| PlanConfig {
                model: ModelChoice::Preset(Preset::Llama3_8b),
                zero: 0,
                tp: 4,
                ..start
            },
            compared: &[whole_on_one_card],
            answer: text::TP4_ANSWER,
            quotes: &[
                ("params", Demo(Params)),
                ("whole", Compared(0, Weights)),
                ("weights", Demo(Weights)),
                ("whole_states", Compared(0, States)),
                ("states", Demo(States)),
            ],
        },
        Question {
            id: "pp-splits",
            ask: text::PP_ASK,
            grid: GridId::Eight,
            cites: Figure::ModelStates,
            control: Some(Control::Pp),
            demo: |start| PlanConfig {
                zero: 0,
                pp: 8,
                ..start
            },
            compared: &[|demo| PlanConfig {
                tp: 8,
                pp: 1,
                ..demo
            }],
            answer: text::PP_ANSWER,
            quotes: &[
                ("states", Demo(States)),
                ("pp", Demo(Traffic(Dim::Pp))),
                ("tp", Compared(0, Traffic(Dim::Tp))),
            ],
        },
        Question {
            id: "1f1b-gpipe",
            ask: text::SCHEDULE_ASK,
            grid: GridId::Eight,
            cites: Figure::Activations,
            control: Some(Control::Schedule),
            demo: |start| PlanConfig {
                zero: 0,
                tp: 2,
                pp: 4,
                micro_batches: 16,
                ..start
            },
            compared: &[|demo| PlanConfig {
                schedule: Schedule::Gpipe,
                ..demo
            }],
            answer: text::SCHEDULE_ANSWER,
            quotes: &[
                ("in_flight", Demo(InFlight)),
                ("activations", Demo(Activations)),
                ("m", Demo(MicroBatches)),
                ("gpipe", Compared(0, Activations)),
                ("bubble", Demo(Bubble)),
            ],
        },
        Question {
            id: "sequence-parallel",
            ask: text::SP_ASK,
            grid: GridId::Eight,
            cites: Figure::Activations,
            control: Some(Control::SequenceParallel),
            demo: tp8_selective,
            // The same plan without sequence parallelism, and at TP 1.
            compared: &[
                |demo| PlanConfig {
                    sequence_parallel: false,
                    ..demo
                },
                |demo| PlanConfig { tp: 1, ..demo },
            ],
            answer: text::SP_ANSWER,
            quotes: &[
                ("activations", Demo(Activations)),
                ("off", Compared(0, Activations)),
                ("one", Compared(1, Activations)),
            ],
        },
        Question {
            id: "tp-traffic",
            ask: text::TP_TRAFFIC_ASK,
            grid: GridId::Eight,
            cites: Figure::Traffic(Dim::Tp),
            control: Some(Control::Tp),
            demo: |start| PlanConfig {
                zero: 0,
                tp: 4,
                ..start
            },
            // The same model at PP 4, and at DP 8 alone.
            compared: &[
                |demo| PlanConfig {
                    tp: 1,
                    pp: 4,
                    ..demo
                },
                |demo| PlanConfig { tp: 1, ..demo },
            ],
            answer: text::TP_TRAFFIC_ANSWER,
            quotes: &[
                ("states", Demo(States)),
                ("tp", Demo(Traffic(Dim::Tp))),
                ("tp_link", Demo(Link(Dim::Tp))),
                ("tp_time", Demo(TrafficTime(Dim::Tp))),
                ("pp_states", Compared(0, States)),
                ("pp", Compared(0, Traffic(Dim::Pp))),
                ("bubble", Compared(0, Bubble)),
                ("dp_states", Compared(1, States)),
                ("dp", Compared(1, Traffic(Dim::Dp))),
            ],
        },
        Question {
            id: "pp-stages",
            ask: text::STAGES_ASK,
            grid: GridId::SixtyFour,
            cites: Figure::Total,
            control: Some(Control::Pp),
            demo: |start| PlanConfig {
                accounting: Accounting::Stages,
                ..start
            },
            compared: &[],
            answer: text::STAGES_ANSWER,
            quotes: &[
                ("stage", Demo(BusiestStage)),
                ("total", Demo(Total)),
                ("least", Demo(LeastStage)),
                ("ratio", Demo(StageRatio)),
            ],
        },
        Question {
            id: "3d-balance",
            ask: text::BALANCE_ASK,
            grid: GridId::SixtyFour,
            cites: Figure::Total,
            control: Some(Control::Tp),
            demo: |start| PlanConfig {
                tp: 4,
                pp: 2,
                zero: 1,
                ..start
            },
            // One dimension moved at a time: more TP, more PP, ZeRO-3 on DP.
            compared: &[
                |demo| PlanConfig {
                    tp: 8,
                    pp: 1,
                    ..demo
                },
                |demo| PlanConfig {
                    tp: 2,
                    pp: 4,
                    ..demo
                },
                |demo| PlanConfig { zero: 3, ..demo },
            ],
            answer: text::BALANCE_ANSWER,
            quotes: &[
                ("total", Demo(Total)),
                ("step", Demo(Step)),
                ("tp8_total", Compared(0, Total)),
                ("tp8_step", Compared(0, Step)),
                ("tp8_tp", Compared(0, Traffic(Dim::Tp))),
                ("pp4_total", Compared(1, Total)),
                ("pp4_step", Compared(1, Step)),
                ("pp4_bubble", Compared(1, Bubble)),
                ("z3_total", Compared(2, Total)),
                ("z3_step", Compared(2, Step)),
                ("z3_dp", Compared(2, Traffic(Dim::Dp))),
            ],
        },
    ]
};

/// TP 8 over the machine's cards with selective recompute and no ZeRO: the plan of the TP
/// questions and of sequence parallelism.
fn tp8_selective(start: PlanConfig) -> PlanConfig {
    PlanConfig {
        zero: 0,
        tp: 8,
        recompute: Recompute::Selective,
        ..start
    }
}

/// The same model whole on one card, the TP questions' comparison.
fn whole_on_one_card(demo: PlanConfig) -> PlanConfig {
    PlanConfig {
        tp: 1,
        gpus: 1,
        ..demo
    }
}
