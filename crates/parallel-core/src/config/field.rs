//! [`Field`]: the one name of an input field, shared by the errors ([`crate::PlanError`],
//! [`crate::Warning`], the launch flags' refusals), the links' sliders and the page's
//! controls. A leaf module: it imports nothing of the crate, so every module can name a field.

use core::fmt;

use serde::{Serialize, Serializer};

/// A field of the input: a [`crate::PlanConfig`] field, a field inside one (an inline model's,
/// a `config.json` key, the rollout engines'), or what else a check names (a card number, the
/// TP bench's shape, a launch flag, a pasted command).
///
/// Its [`fmt::Display`] (and [`Field::key`], and its serde form) is the key the lab has always
/// written: `tp`, `model.hidden`, `model.hf_config.num_key_value_heads`, `rollout.kv_bytes`,
/// `--tensor-model-parallel-size`.
///
/// ```
/// use parallel_core::{Field, ModelField, RolloutField};
/// assert_eq!(Field::Tp.key(), "tp");
/// assert_eq!(Field::InlineModel(ModelField::Hidden).to_string(), "model.hidden");
/// assert_eq!(Field::InRollout(RolloutField::KvBytes).key(), "rollout.kv_bytes");
/// assert_eq!(Field::from_key("micro_batches"), Some(Field::MicroBatches));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// `model`: the preset id, inline model or `config.json`.
    Model,
    /// `gpus`, N.
    Gpus,
    /// `gpus_per_node`.
    GpusPerNode,
    /// `tp`, t.
    Tp,
    /// `pp`, p.
    Pp,
    /// `cp`, c.
    Cp,
    /// `ep`, e.
    Ep,
    /// `micro_batches`, m.
    MicroBatches,
    /// `micro_batch_size`, b.
    MicroBatchSize,
    /// `seq_len`, s.
    SeqLen,
    /// `zero`, the ZeRO stage.
    Zero,
    /// `recompute`.
    Recompute,
    /// `schedule`.
    Schedule,
    /// `virtual_stages`, v.
    VirtualStages,
    /// `precision`.
    Precision,
    /// `gpu_memory_gb`.
    GpuMemoryGb,
    /// `nvlink_gbps`.
    NvlinkGbps,
    /// `ib_gbps`.
    IbGbps,
    /// `order`, the rank order.
    Order,
    /// `accounting`.
    Accounting,
    /// `gpu_tflops`.
    GpuTflops,
    /// `global_batch` (the plan search's).
    GlobalBatch,
    /// `hardware`, the card preset.
    Hardware,
    /// `hbm_tbps`.
    HbmTbps,
    /// `peak_tflops`.
    PeakTflops,
    /// `matmul_efficiency`.
    MatmulEfficiency,
    /// `nvlink_latency_us`.
    NvlinkLatencyUs,
    /// `ib_latency_us`.
    IbLatencyUs,
    /// `optimizer_offload`.
    OptimizerOffload,
    /// `pcie_gbps`.
    PcieGbps,
    /// `host_memory_gb`.
    HostMemoryGb,
    /// `rollout`: the engines on or off.
    Rollout,
    /// `log_probs_chunk`.
    LogProbsChunk,
    /// `routing_skew`, ρ: the hottest expert's load over an even split (SPEC §20).
    RoutingSkew,
    /// `capacity_factor`, c_f: an expert's capacity over an even split (SPEC §20).
    CapacityFactor,
    /// `sequence_parallel`: on or off (SPEC §22).
    SequenceParallel,
    /// `runtime_memory`: the runtime terms counted or not (SPEC §24).
    RuntimeMemory,
    /// `sequence_skew`, σ: the longest micro-batch's tokens over s (SPEC §25).
    SequenceSkew,
    /// `model.<name>`: a field of an inline model.
    InlineModel(ModelField),
    /// `model.hf_config.<key>`: a key of a Hugging Face `config.json` (external data, hence a
    /// string).
    HfConfig(&'static str),
    /// `rollout.<name>`: a field of the rollout engines.
    InRollout(RolloutField),
    /// `card`: a card number of the grid.
    Card,
    /// The TP bench's shape: `tokens`, `hidden`, `ffn`, `tp`.
    Bench(BenchField),
    /// A launch flag, e.g. `--tensor-model-parallel-size`.
    Flag(&'static str),
    /// `command`: a pasted launch command as a whole.
    Command,
}

/// A field of an inline model ([`crate::InlineModel`]), `model.<name>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ModelField {
    /// `params`.
    Params,
    /// `hidden`.
    Hidden,
    /// `layers`.
    Layers,
    /// `heads`.
    Heads,
    /// `kv_heads`.
    KvHeads,
    /// `head_dim`.
    HeadDim,
    /// `full_attention_layers`.
    FullAttentionLayers,
    /// `ffn`.
    Ffn,
    /// `mlp`.
    Mlp,
    /// `vocab`.
    Vocab,
    /// `tied_embeddings`.
    TiedEmbeddings,
    /// `moe_layers`.
    MoeLayers,
    /// `experts`.
    Experts,
    /// `top_k`.
    TopK,
    /// `expert_ffn`.
    ExpertFfn,
    /// `shared_experts`.
    SharedExperts,
    /// `kv_lora_rank`.
    KvLoraRank,
    /// `qk_rope_head_dim`.
    QkRopeHeadDim,
    /// `q_lora_rank`.
    QLoraRank,
    /// `qk_nope_head_dim`.
    QkNopeHeadDim,
    /// `v_head_dim`.
    VHeadDim,
    /// `linear_num_key_heads`.
    LinearNumKeyHeads,
    /// `linear_num_value_heads`.
    LinearNumValueHeads,
    /// `linear_key_head_dim`.
    LinearKeyHeadDim,
    /// `linear_value_head_dim`.
    LinearValueHeadDim,
    /// `linear_conv_kernel_dim`.
    LinearConvKernelDim,
}

/// A field of the rollout engines ([`crate::Rollout`]), `rollout.<name>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RolloutField {
    /// `gpus_per_engine`, E.
    GpusPerEngine,
    /// `rollout_gpus`, R.
    RolloutGpus,
    /// `prompts`.
    Prompts,
    /// `samples_per_prompt`.
    SamplesPerPrompt,
    /// `prompt_len`.
    PromptLen,
    /// `response_len`.
    ResponseLen,
    /// `kv_bytes`.
    KvBytes,
    /// `pool`: where the engines run, colocated (R = 0) or on a separate pool. Not a key of
    /// its own (it is written with `rollout_gpus`): the page's choice of the two.
    Pool,
}

/// A dimension of the TP bench's shape ([`crate::BenchShape`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BenchField {
    /// `tokens`.
    Tokens,
    /// `hidden`.
    Hidden,
    /// `ffn`.
    Ffn,
    /// `tp`.
    Tp,
}

impl Field {
    /// Every plain [`crate::PlanConfig`] field, in the struct's order.
    pub const PLAIN: [Field; 38] = [
        Field::Model,
        Field::Gpus,
        Field::GpusPerNode,
        Field::Tp,
        Field::Pp,
        Field::Cp,
        Field::Ep,
        Field::MicroBatches,
        Field::MicroBatchSize,
        Field::SeqLen,
        Field::Zero,
        Field::Recompute,
        Field::Schedule,
        Field::VirtualStages,
        Field::Precision,
        Field::GpuMemoryGb,
        Field::NvlinkGbps,
        Field::IbGbps,
        Field::Order,
        Field::Accounting,
        Field::GpuTflops,
        Field::GlobalBatch,
        Field::Hardware,
        Field::HbmTbps,
        Field::PeakTflops,
        Field::MatmulEfficiency,
        Field::NvlinkLatencyUs,
        Field::IbLatencyUs,
        Field::OptimizerOffload,
        Field::PcieGbps,
        Field::HostMemoryGb,
        Field::Rollout,
        Field::LogProbsChunk,
        Field::RoutingSkew,
        Field::CapacityFactor,
        Field::SequenceParallel,
        Field::RuntimeMemory,
        Field::SequenceSkew,
    ];

    /// The key as errors, reports and the CLI write it (the same as `to_string()`).
    pub fn key(self) -> String {
        self.to_string()
    }

    /// The field of a key the lab writes: a plain field, `model.<name>`, `rollout.<name>`,
    /// `card`, `command` or the bench's `tokens`, `hidden`, `ffn` (`tp` is the plan's). A
    /// `config.json` key and a launch flag are external data and give `None`, as does any
    /// other string.
    ///
    /// ```
    /// use parallel_core::{BenchField, Field, ModelField};
    /// assert_eq!(Field::from_key("model.top_k"), Some(Field::InlineModel(ModelField::TopK)));
    /// assert_eq!(Field::from_key("ffn"), Some(Field::Bench(BenchField::Ffn)));
    /// assert_eq!(Field::from_key("tp"), Some(Field::Tp));
    /// assert_eq!(Field::from_key("model.hf_config.head_dim"), None);
    /// assert_eq!(Field::from_key("tp_size"), None);
    /// ```
    pub fn from_key(key: &str) -> Option<Field> {
        if let Some(name) = key.strip_prefix("model.") {
            return ModelField::ALL
                .into_iter()
                .find(|f| f.name() == name)
                .map(Field::InlineModel);
        }
        if let Some(name) = key.strip_prefix("rollout.") {
            return RolloutField::ALL
                .into_iter()
                .find(|f| f.name() == name)
                .map(Field::InRollout);
        }
        Field::PLAIN
            .into_iter()
            .chain([Field::Card, Field::Command])
            .chain(BenchField::ALL.map(Field::Bench))
            .find(|f| f.fixed_key() == Some(key))
    }

    /// The whole key when it is one fixed word (not `model.…` or `rollout.…`).
    const fn fixed_key(self) -> Option<&'static str> {
        Some(match self {
            Field::Model => "model",
            Field::Gpus => "gpus",
            Field::GpusPerNode => "gpus_per_node",
            Field::Tp => "tp",
            Field::Pp => "pp",
            Field::Cp => "cp",
            Field::Ep => "ep",
            Field::MicroBatches => "micro_batches",
            Field::MicroBatchSize => "micro_batch_size",
            Field::SeqLen => "seq_len",
            Field::Zero => "zero",
            Field::Recompute => "recompute",
            Field::Schedule => "schedule",
            Field::VirtualStages => "virtual_stages",
            Field::Precision => "precision",
            Field::GpuMemoryGb => "gpu_memory_gb",
            Field::NvlinkGbps => "nvlink_gbps",
            Field::IbGbps => "ib_gbps",
            Field::Order => "order",
            Field::Accounting => "accounting",
            Field::GpuTflops => "gpu_tflops",
            Field::GlobalBatch => "global_batch",
            Field::Hardware => "hardware",
            Field::HbmTbps => "hbm_tbps",
            Field::PeakTflops => "peak_tflops",
            Field::MatmulEfficiency => "matmul_efficiency",
            Field::NvlinkLatencyUs => "nvlink_latency_us",
            Field::IbLatencyUs => "ib_latency_us",
            Field::OptimizerOffload => "optimizer_offload",
            Field::PcieGbps => "pcie_gbps",
            Field::HostMemoryGb => "host_memory_gb",
            Field::Rollout => "rollout",
            Field::LogProbsChunk => "log_probs_chunk",
            Field::RoutingSkew => "routing_skew",
            Field::CapacityFactor => "capacity_factor",
            Field::SequenceParallel => "sequence_parallel",
            Field::RuntimeMemory => "runtime_memory",
            Field::SequenceSkew => "sequence_skew",
            Field::Card => "card",
            Field::Bench(bench) => bench.name(),
            Field::Flag(flag) => flag,
            Field::Command => "command",
            Field::InlineModel(_) | Field::HfConfig(_) | Field::InRollout(_) => return None,
        })
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Field::InlineModel(field) => write!(f, "model.{}", field.name()),
            Field::HfConfig(key) => write!(f, "model.hf_config.{key}"),
            Field::InRollout(field) => write!(f, "rollout.{}", field.name()),
            other => f.write_str(other.fixed_key().unwrap_or_default()),
        }
    }
}

/// A field is written as its key (`"tp"`, `"rollout.gpus_per_engine"`).
impl Serialize for Field {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl ModelField {
    /// Every field of an inline model, in the struct's order.
    pub const ALL: [ModelField; 26] = [
        ModelField::Params,
        ModelField::Hidden,
        ModelField::Layers,
        ModelField::Heads,
        ModelField::KvHeads,
        ModelField::HeadDim,
        ModelField::FullAttentionLayers,
        ModelField::Ffn,
        ModelField::Mlp,
        ModelField::Vocab,
        ModelField::TiedEmbeddings,
        ModelField::MoeLayers,
        ModelField::Experts,
        ModelField::TopK,
        ModelField::ExpertFfn,
        ModelField::SharedExperts,
        ModelField::KvLoraRank,
        ModelField::QkRopeHeadDim,
        ModelField::QLoraRank,
        ModelField::QkNopeHeadDim,
        ModelField::VHeadDim,
        ModelField::LinearNumKeyHeads,
        ModelField::LinearNumValueHeads,
        ModelField::LinearKeyHeadDim,
        ModelField::LinearValueHeadDim,
        ModelField::LinearConvKernelDim,
    ];

    /// Its name in an inline model (`hidden`, `top_k`, …).
    pub const fn name(self) -> &'static str {
        match self {
            ModelField::Params => "params",
            ModelField::Hidden => "hidden",
            ModelField::Layers => "layers",
            ModelField::Heads => "heads",
            ModelField::KvHeads => "kv_heads",
            ModelField::HeadDim => "head_dim",
            ModelField::FullAttentionLayers => "full_attention_layers",
            ModelField::Ffn => "ffn",
            ModelField::Mlp => "mlp",
            ModelField::Vocab => "vocab",
            ModelField::TiedEmbeddings => "tied_embeddings",
            ModelField::MoeLayers => "moe_layers",
            ModelField::Experts => "experts",
            ModelField::TopK => "top_k",
            ModelField::ExpertFfn => "expert_ffn",
            ModelField::SharedExperts => "shared_experts",
            ModelField::KvLoraRank => "kv_lora_rank",
            ModelField::QkRopeHeadDim => "qk_rope_head_dim",
            ModelField::QLoraRank => "q_lora_rank",
            ModelField::QkNopeHeadDim => "qk_nope_head_dim",
            ModelField::VHeadDim => "v_head_dim",
            ModelField::LinearNumKeyHeads => "linear_num_key_heads",
            ModelField::LinearNumValueHeads => "linear_num_value_heads",
            ModelField::LinearKeyHeadDim => "linear_key_head_dim",
            ModelField::LinearValueHeadDim => "linear_value_head_dim",
            ModelField::LinearConvKernelDim => "linear_conv_kernel_dim",
        }
    }
}

impl RolloutField {
    /// Every field of the rollout engines, in the struct's order, then the page's `pool`.
    pub const ALL: [RolloutField; 8] = [
        RolloutField::GpusPerEngine,
        RolloutField::RolloutGpus,
        RolloutField::Prompts,
        RolloutField::SamplesPerPrompt,
        RolloutField::PromptLen,
        RolloutField::ResponseLen,
        RolloutField::KvBytes,
        RolloutField::Pool,
    ];

    /// Its name in the engines (`gpus_per_engine`, `kv_bytes`, …).
    pub const fn name(self) -> &'static str {
        match self {
            RolloutField::GpusPerEngine => "gpus_per_engine",
            RolloutField::RolloutGpus => "rollout_gpus",
            RolloutField::Prompts => "prompts",
            RolloutField::SamplesPerPrompt => "samples_per_prompt",
            RolloutField::PromptLen => "prompt_len",
            RolloutField::ResponseLen => "response_len",
            RolloutField::KvBytes => "kv_bytes",
            RolloutField::Pool => "pool",
        }
    }
}

impl BenchField {
    /// Every dimension of the bench's shape, in the struct's order.
    pub const ALL: [BenchField; 4] = [
        BenchField::Tokens,
        BenchField::Hidden,
        BenchField::Ffn,
        BenchField::Tp,
    ];

    /// Its name (`tokens`, `hidden`, `ffn`, `tp`).
    pub const fn name(self) -> &'static str {
        match self {
            BenchField::Tokens => "tokens",
            BenchField::Hidden => "hidden",
            BenchField::Ffn => "ffn",
            BenchField::Tp => "tp",
        }
    }
}

#[cfg(test)]
mod tests;
