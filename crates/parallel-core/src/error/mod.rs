//! The one error type of the crate, [`PlanError`], and the soft problems, [`Warning`].

use core::fmt;

mod warning;

use crate::bounds::Bound;
use crate::config::{BenchField, Field, ModelField, RolloutField};
use crate::flags::kinds::LaunchError;
use crate::lang::Lang;
use crate::numbers::quoted;

pub use warning::{average_layers, Warning};

/// Why a configuration was rejected: one variant per reason, carrying the numbers that
/// explain it, so that each face of the lab can word it in its own language.
///
/// [`PlanError::field`] names the `PlanConfig` field at fault (`model.<name>` inside an inline
/// model); `Display` gives one English line, `"<field>: <reason>"`, which the CLI prints as is.
/// The page writes its Chinese text from the variant itself, never from the English line.
///
/// # Example
/// ```
/// use parallel_core::{evaluate, Field, PlanConfig, PlanError};
/// let err = evaluate(&PlanConfig { gpus: 8, tp: 3, ..PlanConfig::default() }).unwrap_err();
/// assert_eq!(err, PlanError::NotDivisible { gpus: 8, tp: 3, pp: 1, cp: 1 });
/// assert_eq!(err.field(), Field::Gpus);
/// assert_eq!(err.to_string(), "gpus: 8 GPUs do not divide by tp·pp·cp = 3·1·1 = 3");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum PlanError {
    /// An integer field is 0 where at least 1 is needed (SPEC §2).
    BelowOne {
        /// The field.
        field: Field,
    },
    /// An inline model lacks a field it needs (SPEC §8); so does a `config.json` model, or the
    /// plan search its `global_batch`.
    Missing {
        /// The field: `model.<name>`, `model.hf_config.<key>` or `global_batch`.
        field: Field,
    },
    /// An integer field above the largest value accepted ([`crate::MAX_GPUS`],
    /// [`crate::MAX_SEQ_LEN`]).
    AtMost {
        /// The field.
        field: Field,
        /// The largest value accepted.
        max: u64,
        /// The value given.
        got: u64,
    },
    /// A real-valued field (capacity, bandwidth) that is not a positive finite number.
    NotPositive {
        /// The field.
        field: Field,
        /// The value given.
        got: f64,
    },
    /// A share (an efficiency) that is not above 0 and at most 1.
    NotAShare {
        /// The field.
        field: Field,
        /// The value given.
        got: f64,
    },
    /// A real-valued field that may be 0 (a latency) but is negative or not finite.
    Negative {
        /// The field.
        field: Field,
        /// The value given.
        got: f64,
    },
    /// A real-valued field outside its physical bound ([`crate::bounds`]).
    OutOfRange {
        /// The field.
        field: Field,
        /// The value given.
        got: f64,
        /// Its bound.
        bound: Bound,
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
        field: Field,
        /// The value given.
        value: u32,
        /// The model's layers.
        layers: u32,
    },
    /// An inline model's field that must be a multiple of another of its fields (linear
    /// attention's value heads of its key heads).
    NotAMultiple {
        /// The field.
        field: Field,
        /// Its value.
        value: u32,
        /// The field it must be a multiple of.
        of_field: Field,
        /// That field's value.
        of: u32,
    },
    /// An inline model's field above another of its fields (heads above hidden, KV heads
    /// above heads).
    AboveField {
        /// The field.
        field: Field,
        /// Its value.
        value: u32,
        /// The field it may not pass.
        of_field: Field,
        /// That field's value.
        of: u32,
    },
    /// An MLA dimension (`q_lora_rank`, `qk_nope_head_dim`, `v_head_dim`) in a model without
    /// MLA's `kv_lora_rank` and `qk_rope_head_dim`.
    WithoutMla {
        /// The field given.
        field: Field,
    },
    /// An inline model's `top_k` above its `experts`.
    TopKAboveExperts {
        /// top_k.
        top_k: u32,
        /// experts.
        experts: u32,
    },
    /// An inline model's `params` below what its own shape fixes (embeddings, norms, routers
    /// and routed experts) or above ten times its shape's count.
    ParamsOffShape {
        /// The value given.
        got: f64,
        /// What the shape fixes.
        floor: f64,
        /// Ten times the shape's count.
        ceiling: f64,
    },
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
    /// The rollout pool (R cards, or the N training cards when colocated) does not split
    /// into whole engines of `gpus_per_engine` cards (SPEC §15).
    RolloutPool {
        /// The pool's cards: R, or N when colocated.
        pool: u32,
        /// E, cards per engine.
        gpus_per_engine: u32,
        /// Whether the pool is the training cards (R = 0).
        colocated: bool,
    },
    /// A rollout sequence (prompt + response) longer than [`crate::MAX_SEQ_LEN`] tokens
    /// (SPEC §15).
    RolloutTooLong {
        /// Tokens of a prompt.
        prompt_len: u32,
        /// The response cap.
        response_len: u32,
        /// The most tokens a sequence may have.
        max: u64,
    },
    /// Bytes per cached value other than 1 (FP8), 2 (BF16) or 4 (FP32) (SPEC §15).
    KvBytes {
        /// The value given.
        got: u32,
    },
    /// A Hugging Face `config.json` names an architecture, model type or part that the
    /// parameter counter does not model (SPEC §13): rejected rather than counted wrongly.
    Unsupported {
        /// The field, `model.hf_config.<key>`.
        field: Field,
        /// The value given, e.g. `"MambaForCausalLM"`.
        value: String,
        /// The values the counter models, comma separated.
        supported: &'static str,
    },
    /// Launch flags (SPEC §16): an engine's own rule refuses the plan, or a pasted launch
    /// command cannot be read. [`LaunchError::reason`] words it in both languages.
    Launch(LaunchError),
}

impl PlanError {
    /// The `PlanConfig` field at fault, e.g. [`Field::Tp`] or `model.hidden`
    /// ([`Field::Card`] for a card number, [`Field::Bench`] for the TP bench's shape).
    pub fn field(&self) -> Field {
        match self {
            PlanError::BelowOne { field }
            | PlanError::Missing { field }
            | PlanError::AtMost { field, .. }
            | PlanError::NotPositive { field, .. }
            | PlanError::NotAShare { field, .. }
            | PlanError::Negative { field, .. }
            | PlanError::OutOfRange { field, .. }
            | PlanError::MoreThanLayers { field, .. }
            | PlanError::NotAMultiple { field, .. }
            | PlanError::AboveField { field, .. }
            | PlanError::WithoutMla { field }
            | PlanError::Unsupported { field, .. } => *field,
            PlanError::ZeroStage { .. } => Field::Zero,
            PlanError::NotDivisible { .. } => Field::Gpus,
            PlanError::ChunksNeedInterleaved { .. } | PlanError::InterleavedLayers { .. } => {
                Field::VirtualStages
            }
            PlanError::InterleavedNeedsPipeline => Field::Schedule,
            PlanError::InterleavedMicroBatches { .. } | PlanError::TimelineTooLarge { .. } => {
                Field::MicroBatches
            }
            PlanError::EpNeedsMoe { .. }
            | PlanError::EpNotDivisible { .. }
            | PlanError::ExpertsNotDivisible { .. } => Field::Ep,
            PlanError::TopKAboveExperts { .. } => Field::InlineModel(ModelField::TopK),
            PlanError::ParamsOffShape { .. } => Field::InlineModel(ModelField::Params),
            PlanError::NoSuchCard { .. } => Field::Card,
            PlanError::CpAboveSeqLen { .. } => Field::Cp,
            PlanError::BenchSplit { .. } => Field::Bench(BenchField::Tp),
            PlanError::BenchTooLarge { .. } => Field::Bench(BenchField::Hidden),
            PlanError::RolloutPool { .. } => Field::InRollout(RolloutField::GpusPerEngine),
            PlanError::RolloutTooLong { .. } => Field::InRollout(RolloutField::ResponseLen),
            PlanError::KvBytes { .. } => Field::InRollout(RolloutField::KvBytes),
            PlanError::Launch(launch) => launch.field(),
        }
    }

    /// The number a reason computes from the variant's own, so that every language quotes the
    /// same: the product a count must divide by (tp·pp·cp, pp·v, ep·pp), the last card
    /// (gpus − 1), a sequence's tokens (prompt_len + response_len); `None` for the others.
    ///
    /// ```
    /// use parallel_core::PlanError;
    /// let (prompt_len, response_len, max) = (1_000, 70_000_000, 67_108_864);
    /// for (error, n) in [
    ///     (PlanError::NotDivisible { gpus: 8, tp: 3, pp: 2, cp: 1 }, 6),
    ///     (PlanError::InterleavedLayers { layers: 64, pp: 4, virtual_stages: 3 }, 12),
    ///     (PlanError::EpNotDivisible { gpus: 12, ep: 8, pp: 2 }, 16),
    ///     (PlanError::NoSuchCard { card: 9, gpus: 8 }, 7),
    ///     (PlanError::RolloutTooLong { prompt_len, response_len, max }, 70_001_000),
    /// ] {
    ///     assert_eq!(error.derived(), Some(n));
    ///     assert!(error.reason().contains(&n.to_string()), "{error}");
    /// }
    /// assert_eq!(PlanError::InterleavedNeedsPipeline.derived(), None);
    /// ```
    pub fn derived(&self) -> Option<u128> {
        let n = u128::from;
        match *self {
            PlanError::NotDivisible { tp, pp, cp, .. } => Some(n(tp) * n(pp) * n(cp)),
            PlanError::InterleavedLayers {
                pp, virtual_stages, ..
            } => Some(n(pp) * n(virtual_stages)),
            PlanError::EpNotDivisible { ep, pp, .. } => Some(n(ep) * n(pp)),
            PlanError::NoSuchCard { gpus, .. } => Some(n(gpus.saturating_sub(1))),
            PlanError::RolloutTooLong {
                prompt_len,
                response_len,
                ..
            } => Some(n(prompt_len) + n(response_len)),
            _ => None,
        }
    }

    /// The English reason, without the field name.
    pub fn reason(&self) -> String {
        match self {
            PlanError::BelowOne { .. } => "must be at least 1 (got 0)".to_string(),
            PlanError::Missing {
                field: Field::HfConfig(_),
            } => "missing: the parameter counter needs it".to_string(),
            PlanError::Missing {
                field: Field::InlineModel(_),
            } => "missing: an inline model needs it".to_string(),
            // Outside a model only the plan search has a field it cannot do without.
            PlanError::Missing { .. } => "missing: the plan search needs it".to_string(),
            PlanError::AtMost { max, got, .. } => format!("must be at most {max} (got {got})"),
            PlanError::NotPositive { got, .. } => {
                format!("must be a positive number (got {})", quoted(*got))
            }
            PlanError::NotAShare { got, .. } => {
                format!("must be above 0 and at most 1 (got {})", quoted(*got))
            }
            PlanError::Negative { got, .. } => {
                format!("must be a number of at least 0 (got {})", quoted(*got))
            }
            PlanError::OutOfRange { got, bound, .. } => bound.reason(Lang::En, *got),
            PlanError::ZeroStage { got } => {
                format!("ZeRO stage must be 0, 1, 2 or 3 (got {got})")
            }
            PlanError::NotDivisible { gpus, tp, pp, cp } => format!(
                "{gpus} GPUs do not divide by tp·pp·cp = {tp}·{pp}·{cp} = {}",
                self.derived().unwrap_or_default()
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
                self.derived().unwrap_or_default()
            ),
            PlanError::EpNeedsMoe { model } => {
                format!("expert parallelism needs an MoE model; {model} is dense")
            }
            PlanError::EpNotDivisible { gpus, ep, pp } => format!(
                "{gpus} GPUs do not divide by ep·pp = {ep}·{pp} = {}",
                self.derived().unwrap_or_default()
            ),
            PlanError::ExpertsNotDivisible { experts, ep } => {
                format!("the {experts} experts of an MoE layer do not split evenly over ep = {ep} cards")
            }
            PlanError::MoreThanLayers { value, layers, .. } => {
                format!("{value} is more than the model's {layers} layers")
            }
            PlanError::NotAMultiple {
                value, of_field, of, ..
            } => format!("{value} is not a multiple of {} = {of}", of_field.key()),
            PlanError::AboveField {
                value, of_field, of, ..
            } => format!("{value} is more than {} = {of}", of_field.key()),
            PlanError::WithoutMla { .. } => "is an MLA dimension: it needs model.kv_lora_rank and model.qk_rope_head_dim".to_string(),
            PlanError::TopKAboveExperts { top_k, experts } => {
                format!("{top_k} is more than the {experts} experts")
            }
            PlanError::ParamsOffShape {
                got,
                floor,
                ceiling,
            } => format!(
                "must be between {} (its embeddings, norms and routed experts alone) and {} (ten times its shape's count) (got {})",
                quoted(*floor),
                quoted(*ceiling),
                quoted(*got)
            ),
            PlanError::NoSuchCard { card, .. } => format!(
                "card {card} does not exist: the grid has cards 0–{}",
                self.derived().unwrap_or_default()
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
            PlanError::RolloutPool {
                pool,
                gpus_per_engine,
                colocated,
            } => format!(
                "the {} of {pool} cards does not split into engines of {gpus_per_engine} cards",
                if *colocated {
                    "colocated pool (the training cards)"
                } else {
                    "rollout pool"
                }
            ),
            PlanError::RolloutTooLong {
                prompt_len,
                response_len,
                max,
            } => format!(
                "prompt_len + response_len = {prompt_len} + {response_len} = {} tokens, more than {max}",
                self.derived().unwrap_or_default()
            ),
            PlanError::KvBytes { got } => {
                format!("bytes per cached value must be 1 (FP8), 2 (BF16) or 4 (FP32) (got {got})")
            }
            PlanError::Unsupported {
                value, supported, ..
            } => format!(
                "`{value}` is not modelled by the parameter counter (supported: {supported})"
            ),
            PlanError::Launch(launch) => launch.reason(crate::lang::Lang::En),
        }
    }
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field(), self.reason())
    }
}

impl std::error::Error for PlanError {}
