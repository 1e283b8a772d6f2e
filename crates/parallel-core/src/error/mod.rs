//! The one error type of the crate, [`PlanError`], and the soft problems, [`Warning`].

use core::fmt;

use serde::{Serialize, Serializer};

/// Why a configuration was rejected: one variant per reason, carrying the numbers that
/// explain it, so that each face of the lab can word it in its own language.
///
/// [`PlanError::field`] names the `PlanConfig` field at fault (`model.<name>` inside an inline
/// model); `Display` gives one English line, `"<field>: <reason>"`, which the CLI prints as is.
/// The page writes its Chinese text from the variant itself, never from the English line.
///
/// # Example
/// ```
/// use parallel_core::{evaluate, PlanConfig, PlanError};
/// let err = evaluate(&PlanConfig { gpus: 8, tp: 3, ..PlanConfig::default() }).unwrap_err();
/// assert_eq!(err, PlanError::NotDivisible { gpus: 8, tp: 3, pp: 1, cp: 1 });
/// assert_eq!(err.field(), "gpus");
/// assert_eq!(err.to_string(), "gpus: 8 GPUs do not divide by tp·pp·cp = 3·1·1 = 3");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum PlanError {
    /// An integer field is 0 where at least 1 is needed (SPEC §2).
    BelowOne {
        /// The field.
        field: &'static str,
    },
    /// An inline model lacks a field it needs (SPEC §8).
    Missing {
        /// The field, `model.<name>`.
        field: &'static str,
    },
    /// An integer field above the largest value accepted ([`crate::MAX_GPUS`],
    /// [`crate::MAX_SEQ_LEN`]).
    AtMost {
        /// The field.
        field: &'static str,
        /// The largest value accepted.
        max: u64,
        /// The value given.
        got: u64,
    },
    /// A real-valued field (capacity, bandwidth) that is not a positive finite number.
    NotPositive {
        /// The field.
        field: &'static str,
        /// The value given.
        got: f64,
    },
    /// A share (an efficiency) that is not above 0 and at most 1.
    NotAShare {
        /// The field.
        field: &'static str,
        /// The value given.
        got: f64,
    },
    /// A real-valued field that may be 0 (a latency) but is negative or not finite.
    Negative {
        /// The field.
        field: &'static str,
        /// The value given.
        got: f64,
    },
    /// A ZeRO stage outside 0–3.
    ZeroStage {
        /// The stage given.
        got: u8,
    },
    /// N is not divisible by t·p·c (SPEC §2: d = N / (t·p·c) must be whole).
    NotDivisible {
        /// N.
        gpus: u32,
        /// t.
        tp: u32,
        /// p.
        pp: u32,
        /// c.
        cp: u32,
    },
    /// v > 1 with a schedule other than interleaved.
    ChunksNeedInterleaved {
        /// v.
        virtual_stages: u32,
        /// The schedule chosen: a config's spelling ("1f1b", "gpipe"), or "zb-h1" from the
        /// schedule view.
        schedule: &'static str,
    },
    /// The interleaved schedule with p = 1.
    InterleavedNeedsPipeline,
    /// The interleaved schedule with m not divisible by p.
    InterleavedMicroBatches {
        /// m.
        micro_batches: u32,
        /// p.
        pp: u32,
    },
    /// The interleaved schedule with neither L nor L + 2 divisible by p·v.
    InterleavedLayers {
        /// L.
        layers: u32,
        /// p.
        pp: u32,
        /// v.
        virtual_stages: u32,
    },
    /// e > 1 for a dense model.
    EpNeedsMoe {
        /// The model's label.
        model: String,
    },
    /// For an MoE model, N is not divisible by e·p.
    EpNotDivisible {
        /// N.
        gpus: u32,
        /// e.
        ep: u32,
        /// p.
        pp: u32,
    },
    /// For an MoE model, the routed experts do not split evenly over e cards.
    ExpertsNotDivisible {
        /// Routed experts per MoE layer.
        experts: u32,
        /// e.
        ep: u32,
    },
    /// An inline model's `full_attention_layers` or `moe_layers` above its `layers`.
    MoreThanLayers {
        /// The field, `model.full_attention_layers` or `model.moe_layers`.
        field: &'static str,
        /// The value given.
        value: u32,
        /// The model's layers.
        layers: u32,
    },
    /// An inline model's `top_k` above its `experts`.
    TopKAboveExperts {
        /// top_k.
        top_k: u32,
        /// experts.
        experts: u32,
    },
    /// An inline model's `params` below its routed expert parameters.
    ParamsBelowRouted,
    /// A card number outside the grid.
    NoSuchCard {
        /// The card asked for.
        card: u32,
        /// N (cards are 0 … N−1).
        gpus: u32,
    },
    /// A context-parallel layout with more ranks than tokens.
    CpAboveSeqLen {
        /// c.
        cp: u32,
        /// s.
        seq_len: u32,
    },
    /// A schedule view with more stage slots than it draws.
    TimelineTooLarge {
        /// p·m·v.
        slots: u64,
        /// The most it draws.
        max: u64,
    },
    /// The TP bench cannot split hidden and ffn into t equal parts.
    BenchSplit {
        /// Hidden size.
        hidden: usize,
        /// FFN size.
        ffn: usize,
        /// t.
        tp: usize,
    },
    /// The TP bench's matrices would exceed its size limit.
    BenchTooLarge {
        /// The most numbers a matrix may hold.
        max: usize,
    },
    /// A Hugging Face `config.json` names an architecture, model type or part that the
    /// parameter counter does not model (SPEC §13): rejected rather than counted wrongly.
    Unsupported {
        /// The field, `model.hf_config.<key>`.
        field: &'static str,
        /// The value given, e.g. `"MambaForCausalLM"`.
        value: String,
        /// The values the counter models, comma separated.
        supported: &'static str,
    },
}

impl PlanError {
    /// The `PlanConfig` field at fault, e.g. `"tp"` or `"model.hidden"` (`"card"` for a card
    /// number, `"tokens"`/`"hidden"`/`"ffn"`/`"tp"` for the TP bench's shape).
    pub fn field(&self) -> &'static str {
        match self {
            PlanError::BelowOne { field }
            | PlanError::Missing { field }
            | PlanError::AtMost { field, .. }
            | PlanError::NotPositive { field, .. }
            | PlanError::NotAShare { field, .. }
            | PlanError::Negative { field, .. }
            | PlanError::MoreThanLayers { field, .. }
            | PlanError::Unsupported { field, .. } => field,
            PlanError::ZeroStage { .. } => "zero",
            PlanError::NotDivisible { .. } => "gpus",
            PlanError::ChunksNeedInterleaved { .. } | PlanError::InterleavedLayers { .. } => {
                "virtual_stages"
            }
            PlanError::InterleavedNeedsPipeline => "schedule",
            PlanError::InterleavedMicroBatches { .. } | PlanError::TimelineTooLarge { .. } => {
                "micro_batches"
            }
            PlanError::EpNeedsMoe { .. }
            | PlanError::EpNotDivisible { .. }
            | PlanError::ExpertsNotDivisible { .. } => "ep",
            PlanError::TopKAboveExperts { .. } => "model.top_k",
            PlanError::ParamsBelowRouted => "model.params",
            PlanError::NoSuchCard { .. } => "card",
            PlanError::CpAboveSeqLen { .. } => "cp",
            PlanError::BenchSplit { .. } => "tp",
            PlanError::BenchTooLarge { .. } => "hidden",
        }
    }

    /// The English reason, without the field name.
    pub fn reason(&self) -> String {
        match self {
            PlanError::BelowOne { .. } => "must be at least 1 (got 0)".to_string(),
            PlanError::Missing { field } if field.starts_with("model.hf_config.") => {
                "missing: the parameter counter needs it".to_string()
            }
            PlanError::Missing { field } if field.starts_with("model.") => {
                "missing: an inline model needs it".to_string()
            }
            // Outside a model only the plan search has a field it cannot do without.
            PlanError::Missing { .. } => "missing: the plan search needs it".to_string(),
            PlanError::AtMost { max, got, .. } => format!("must be at most {max} (got {got})"),
            PlanError::NotPositive { got, .. } => format!("must be a positive number (got {got})"),
            PlanError::NotAShare { got, .. } => {
                format!("must be above 0 and at most 1 (got {got})")
            }
            PlanError::Negative { got, .. } => {
                format!("must be a number of at least 0 (got {got})")
            }
            PlanError::ZeroStage { got } => {
                format!("ZeRO stage must be 0, 1, 2 or 3 (got {got})")
            }
            PlanError::NotDivisible { gpus, tp, pp, cp } => format!(
                "{gpus} GPUs do not divide by tp·pp·cp = {tp}·{pp}·{cp} = {}",
                u128::from(*tp) * u128::from(*pp) * u128::from(*cp)
            ),
            PlanError::ChunksNeedInterleaved {
                virtual_stages,
                schedule,
            } => format!(
                "{virtual_stages} model chunks per stage need the interleaved schedule (schedule is {schedule})"
            ),
            PlanError::InterleavedNeedsPipeline => {
                "interleaved needs a pipeline: pp must be above 1".to_string()
            }
            PlanError::InterleavedMicroBatches { micro_batches, pp } => format!(
                "interleaved needs micro_batches divisible by pp: {micro_batches} is not a multiple of {pp}"
            ),
            PlanError::InterleavedLayers {
                layers,
                pp,
                virtual_stages,
            } => format!(
                "interleaved needs the {layers} layers (or {layers} + 2, with one layer fewer on the first and the last stage) divisible by pp·virtual_stages = {pp}·{virtual_stages} = {}",
                u64::from(*pp) * u64::from(*virtual_stages)
            ),
            PlanError::EpNeedsMoe { model } => {
                format!("expert parallelism needs an MoE model; {model} is dense")
            }
            PlanError::EpNotDivisible { gpus, ep, pp } => format!(
                "{gpus} GPUs do not divide by ep·pp = {ep}·{pp} = {}",
                u64::from(*ep) * u64::from(*pp)
            ),
            PlanError::ExpertsNotDivisible { experts, ep } => {
                format!("the {experts} experts of an MoE layer do not split evenly over ep = {ep} cards")
            }
            PlanError::MoreThanLayers { value, layers, .. } => {
                format!("{value} is more than the model's {layers} layers")
            }
            PlanError::TopKAboveExperts { top_k, experts } => {
                format!("{top_k} is more than the {experts} experts")
            }
            PlanError::ParamsBelowRouted => {
                "is smaller than the routed expert parameters it must contain".to_string()
            }
            PlanError::NoSuchCard { card, gpus } => format!(
                "card {card} does not exist: the grid has cards 0–{}",
                gpus.saturating_sub(1)
            ),
            PlanError::CpAboveSeqLen { cp, seq_len } => {
                format!("{cp} ranks cannot share {seq_len} tokens")
            }
            PlanError::TimelineTooLarge { slots, max } => format!(
                "the schedule view draws at most {max} stage slots (pp·m·v = {slots})"
            ),
            PlanError::BenchSplit { hidden, ffn, tp } => {
                format!("the bench splits hidden {hidden} and ffn {ffn} into {tp} equal parts")
            }
            PlanError::BenchTooLarge { max } => {
                format!("the bench keeps each matrix under {max} numbers")
            }
            PlanError::Unsupported {
                value, supported, ..
            } => format!(
                "`{value}` is not modelled by the parameter counter (supported: {supported})"
            ),
        }
    }
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field(), self.reason())
    }
}

impl std::error::Error for PlanError {}

/// A soft problem: the plan is still evaluated, the page shows it beside the result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Warning {
    /// t > gpus_per_node: the TP group crosses nodes and its all-reduce runs over InfiniBand.
    TpAcrossNodes {
        /// TP degree.
        tp: u32,
        /// GPUs that share NVLink.
        gpus_per_node: u32,
    },
    /// L is not a multiple of p: layer counts per stage are real averages L/p.
    LayersNotDivisible {
        /// Model layers L.
        layers: u32,
        /// Pipeline degree p.
        pp: u32,
    },
    /// s is not a multiple of 2c: the zigzag layout pads the sequence.
    ZigzagPadding {
        /// Sequence length s.
        seq_len: u32,
        /// Context-parallel degree c.
        cp: u32,
    },
    /// With the optimizer on the host, the busiest node's offloaded states (16·Ψ_o per card)
    /// outgrow its host memory (SPEC §14).
    HostMemoryOver {
        /// The busiest node's host bytes, in GB.
        per_node_gb: f64,
        /// Host memory per node, GB.
        host_memory_gb: f64,
    },
}

impl Warning {
    /// The `PlanConfig` field the warning is about.
    pub fn field(&self) -> &'static str {
        match self {
            Warning::TpAcrossNodes { .. } => "tp",
            Warning::LayersNotDivisible { .. } => "pp",
            Warning::ZigzagPadding { .. } => "seq_len",
            Warning::HostMemoryOver { .. } => "host_memory_gb",
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Warning::TpAcrossNodes { tp, gpus_per_node } => write!(
                f,
                "tp: TP {tp} is larger than a node of {gpus_per_node} GPUs, so its all-reduce crosses InfiniBand"
            ),
            Warning::LayersNotDivisible { layers, pp } => write!(
                f,
                "pp: {layers} layers do not divide by PP {pp}; per-stage figures use the average {:.2} layers",
                f64::from(layers) / f64::from(pp)
            ),
            Warning::ZigzagPadding { seq_len, cp } => write!(
                f,
                "seq_len: {seq_len} tokens do not divide into 2·CP = {} chunks; zigzag needs padding",
                2 * u64::from(cp)
            ),
            Warning::HostMemoryOver {
                per_node_gb,
                host_memory_gb,
            } => write!(
                f,
                "host_memory_gb: a node's offloaded optimizer states take {per_node_gb:.1} GB, more than its {host_memory_gb} GB of host memory"
            ),
        }
    }
}

impl Serialize for Warning {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
