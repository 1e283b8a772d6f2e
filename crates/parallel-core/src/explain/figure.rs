//! [`Figure`]: each figure the page shows and can explain, and its id (its test id on the
//! page).

use crate::grid::Dim;

/// A figure the page shows and can explain. Its [`Figure::id`] is the figure's test id on the
/// page (`explain-<id>` is its button).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Figure {
    /// Model states of the busiest card.
    ModelStates,
    /// Activations of the busiest card.
    Activations,
    /// The runtime terms: CUDA context, buffer, allocator reserve (SPEC §24).
    Runtime,
    /// Model states + activations (+ runtime).
    Total,
    /// Data-parallel degree d.
    Dp,
    /// Bytes one card sends per step for a dimension.
    Traffic(Dim),
    /// Seconds of that traffic at its link's bandwidth.
    TrafficTime(Dim),
    /// Bubble ratio (p−1)/(v·m).
    BubbleRatio,
    /// The bubble's share of the step.
    BubbleShare,
    /// Tokens per step T.
    TokensPerStep,
    /// Estimated step time.
    StepTime,
    /// Estimated compute time.
    Compute,
    /// Estimated tokens per second per card.
    Throughput,
    /// The estimate's seconds for a dimension, α–β.
    CommTime(Dim),
    /// The α part of the exposed communication.
    Latency,
    /// The dense layers' roofline factor max(1, R/T_l).
    Roofline,
    /// Model FLOPs utilisation.
    Mfu,
    /// The GEMMs' share of compute, from measured rates (SPEC §18).
    KernelGemm,
    /// The attention kernel's share of compute, from measured rates (SPEC §18).
    KernelAttention,
    /// The memory-bound kernels' share of compute, at the copy bandwidth (SPEC §18).
    KernelMemory,
    /// The optimizer step (SPEC §18).
    Optimizer,
    /// Host bytes of one card's offloaded optimizer, 16·Ψ_o (SPEC §14).
    HostPerGpu,
    /// Host bytes of the busiest node: the sum over its cards (SPEC §14).
    HostPerNode,
    /// BF16 weights per rollout card, 2·P/E (SPEC §15).
    RolloutWeights,
    /// KV cache per rollout card, ⌈n/engines⌉·T_seq·F·k (SPEC §15).
    RolloutKv,
    /// A rollout card's weights + KV cache (SPEC §15).
    RolloutTotal,
    /// A card's peak over training and rollout (SPEC §15).
    RolloutPeak,
    /// What the hottest expert's EP rank holds beyond an even split (SPEC §20).
    RoutingExcess,
    /// What the busiest EP rank adds to compute (SPEC §20).
    RoutingWait,
}

impl Figure {
    /// The figure's id, its test id on the page: `mem-states`, `traffic-tp`,
    /// `traffic-tp-time`, `bubble`, `estimate-step`, …
    pub fn id(&self) -> String {
        match self {
            Figure::ModelStates => "mem-states".into(),
            Figure::Activations => "mem-activations".into(),
            Figure::Runtime => "mem-runtime".into(),
            Figure::Total => "mem-total".into(),
            Figure::Dp => "derived-dp".into(),
            Figure::Traffic(dim) => format!("traffic-{}", dim.as_str()),
            Figure::TrafficTime(dim) => format!("traffic-{}-time", dim.as_str()),
            Figure::BubbleRatio => "bubble".into(),
            Figure::BubbleShare => "bubble-share".into(),
            Figure::TokensPerStep => "estimate-tokens".into(),
            Figure::StepTime => "estimate-step".into(),
            Figure::Compute => "estimate-compute".into(),
            Figure::Throughput => "estimate-throughput".into(),
            Figure::CommTime(dim) => format!("estimate-{}", dim.as_str()),
            Figure::Latency => "estimate-latency".into(),
            Figure::Roofline => "estimate-roofline".into(),
            Figure::Mfu => "estimate-mfu".into(),
            Figure::KernelGemm => "estimate-gemm".into(),
            Figure::KernelAttention => "estimate-attention".into(),
            Figure::KernelMemory => "estimate-memory-bound".into(),
            Figure::Optimizer => "estimate-optimizer".into(),
            Figure::HostPerGpu => "mem-host".into(),
            Figure::HostPerNode => "mem-host-node".into(),
            Figure::RolloutWeights => "rollout-weights".into(),
            Figure::RolloutKv => "rollout-kv".into(),
            Figure::RolloutTotal => "rollout-total".into(),
            Figure::RolloutPeak => "rollout-peak".into(),
            Figure::RoutingExcess => "routing-excess".into(),
            Figure::RoutingWait => "routing-wait".into(),
        }
    }

    /// The figure of an id, if it is one.
    pub fn from_id(id: &str) -> Option<Figure> {
        let fixed = [
            Figure::ModelStates,
            Figure::Activations,
            Figure::Runtime,
            Figure::Total,
            Figure::Dp,
            Figure::BubbleRatio,
            Figure::BubbleShare,
            Figure::TokensPerStep,
            Figure::StepTime,
            Figure::Compute,
            Figure::Throughput,
            Figure::Latency,
            Figure::Roofline,
            Figure::Mfu,
            Figure::KernelGemm,
            Figure::KernelAttention,
            Figure::KernelMemory,
            Figure::Optimizer,
            Figure::HostPerGpu,
            Figure::HostPerNode,
            Figure::RolloutWeights,
            Figure::RolloutKv,
            Figure::RolloutTotal,
            Figure::RolloutPeak,
            Figure::RoutingExcess,
            Figure::RoutingWait,
        ];
        fixed
            .into_iter()
            .chain(Dim::ALL.into_iter().map(Figure::Traffic))
            .chain(Dim::ALL.into_iter().map(Figure::TrafficTime))
            .chain(Dim::ALL.into_iter().map(Figure::CommTime))
            .find(|f| f.id() == id)
    }
}
