//! The list itself: every [`Omission`] with its id, its [`Topic`] and whether the page's opening
//! names it. Its words are in `text`; its witnesses are test code, in `tests/omissions/witness/`.

use crate::lang::Lang;

/// The part of the lab's accounting an omission belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Topic {
    /// Memory per card: model states and activations.
    Memory,
    /// Bytes per card per step and their time.
    Traffic,
    /// The step-time estimate (SPEC §17 and §18).
    Estimate,
}

impl Topic {
    /// Every topic, in the order the counting note and the docs list them.
    pub const ALL: [Topic; 3] = [Topic::Memory, Topic::Traffic, Topic::Estimate];

    /// The topic's name, for a heading or a label.
    pub fn title(self, lang: Lang) -> &'static str {
        match self {
            Topic::Memory => lang.pick("显存", "Memory"),
            Topic::Traffic => lang.pick("通信", "Traffic"),
            Topic::Estimate => lang.pick("步时估算", "Step-time estimate"),
        }
    }

    /// The omissions of this topic, in list order.
    pub fn omissions(self) -> impl Iterator<Item = Omission> {
        Omission::ALL.into_iter().filter(move |o| o.topic() == self)
    }
}

/// One thing the lab does not count or model (SPEC §4, §5, §11, §12 and the code).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Omission {
    /// The default "even" accounting treats the pipeline stages as equal.
    EvenSplit,
    /// "By stage" adds one copy of FP32 logits and no embedding activations.
    OutputActivations,
    /// Korthikanti's constants are used for any layer shape.
    ActivationConstants,
    /// Experts are not split by tensor parallelism.
    ExpertTensorParallel,
    /// No workspaces, buckets, gathered parameters or fragmentation.
    Buffers,
    /// Rollout engines cache no state for linear-attention layers.
    LinearAttentionState,
    /// MoE routing is perfectly balanced; no all-to-all latency.
    ExpertBalance,
    /// Time is bytes ÷ bandwidth: no latency.
    Latency,
    /// No overlap except DP behind the backward pass.
    Overlap,
    /// Recomputation's repeated forward sends nothing again.
    RecomputeTraffic,
    /// CP's backward reduce-scatter is not counted.
    CpBackward,
    /// PP's messages are not split over the TP group.
    PipelineMessages,
    /// One effective throughput whatever the matrix size.
    KernelEfficiency,
    /// The bubble takes every stage to need the same time.
    StageTime,
    /// Nothing outside compute, bubble and exposed communication.
    OutsideTheStep,
    /// With the optimizer on the host, the CPU's own Adam update takes no time.
    CpuUpdate,
}

impl Omission {
    /// Every omission, grouped by topic (memory, traffic, estimate), in the order the page, the
    /// CLI and the docs list them.
    pub const ALL: [Omission; 16] = [
        Omission::EvenSplit,
        Omission::OutputActivations,
        Omission::ActivationConstants,
        Omission::ExpertTensorParallel,
        Omission::Buffers,
        Omission::LinearAttentionState,
        Omission::ExpertBalance,
        Omission::Latency,
        Omission::Overlap,
        Omission::RecomputeTraffic,
        Omission::CpBackward,
        Omission::PipelineMessages,
        Omission::KernelEfficiency,
        Omission::StageTime,
        Omission::OutsideTheStep,
        Omission::CpuUpdate,
    ];

    /// A short stable id (`"even-split"`, `"latency"`…): the page's `data-omission` and the
    /// name the docs and the witness test use.
    pub const fn id(self) -> &'static str {
        match self {
            Omission::EvenSplit => "even-split",
            Omission::OutputActivations => "output-activations",
            Omission::ActivationConstants => "activation-constants",
            Omission::ExpertTensorParallel => "expert-tensor-parallel",
            Omission::Buffers => "buffers",
            Omission::LinearAttentionState => "linear-attention-state",
            Omission::ExpertBalance => "expert-balance",
            Omission::Latency => "latency",
            Omission::Overlap => "overlap",
            Omission::RecomputeTraffic => "recompute-traffic",
            Omission::CpBackward => "cp-backward",
            Omission::PipelineMessages => "pipeline-messages",
            Omission::KernelEfficiency => "kernel-efficiency",
            Omission::StageTime => "stage-time",
            Omission::OutsideTheStep => "outside-the-step",
            Omission::CpuUpdate => "cpu-update",
        }
    }

    /// The part of the accounting it belongs to.
    pub const fn topic(self) -> Topic {
        match self {
            Omission::EvenSplit
            | Omission::OutputActivations
            | Omission::ActivationConstants
            | Omission::ExpertTensorParallel
            | Omission::Buffers
            | Omission::LinearAttentionState => Topic::Memory,
            Omission::ExpertBalance
            | Omission::Latency
            | Omission::Overlap
            | Omission::RecomputeTraffic
            | Omission::CpBackward
            | Omission::PipelineMessages => Topic::Traffic,
            Omission::KernelEfficiency
            | Omission::StageTime
            | Omission::OutsideTheStep
            | Omission::CpuUpdate => Topic::Estimate,
        }
    }

    /// Whether the page's opening names it among "what this page leaves out" (the counting
    /// note names every item).
    pub const fn in_intro(self) -> bool {
        matches!(
            self,
            Omission::EvenSplit
                | Omission::Buffers
                | Omission::ExpertBalance
                | Omission::Latency
                | Omission::Overlap
                | Omission::RecomputeTraffic
                | Omission::CpBackward
                | Omission::KernelEfficiency
        )
    }
}
