//! The words of launch flags shared with [`crate::PlanError`]: which [`Engine`], which of its
//! own rules refuses a plan ([`EngineRule`]), and why a pasted command could not be read
//! ([`LaunchError`]). A leaf module: it imports nothing of the crate but [`Lang`] and [`Field`],
//! so the error type can hold these without an import circle.

use crate::config::Field;
use crate::lang::Lang;

/// A training engine the lab writes launch arguments for (SPEC §16).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Megatron-LM: a `torchrun … pretrain_gpt.py …` line.
    #[default]
    Megatron,
    /// slime (RL on Megatron-LM and SGLang): a `python3 train.py …` line with its cluster and
    /// rollout flags.
    Slime,
    /// DeepSpeed: a `deepspeed …` line and its JSON config.
    DeepSpeed,
}

impl Engine {
    /// Every engine, in the order the CLI lists them.
    pub const ALL: [Engine; 3] = [Engine::Megatron, Engine::Slime, Engine::DeepSpeed];

    /// The id used by `--engine` and in JSON: "megatron", "slime" or "deepspeed".
    pub const fn id(self) -> &'static str {
        match self {
            Engine::Megatron => "megatron",
            Engine::Slime => "slime",
            Engine::DeepSpeed => "deepspeed",
        }
    }

    /// The engine's own name, "Megatron-LM", "slime", "DeepSpeed".
    pub const fn name(self) -> &'static str {
        match self {
            Engine::Megatron => "Megatron-LM",
            Engine::Slime => "slime",
            Engine::DeepSpeed => "DeepSpeed",
        }
    }

    /// The engine of an id, if it is one.
    ///
    /// ```
    /// use parallel_core::flags::Engine;
    /// assert_eq!(Engine::from_id("slime"), Some(Engine::Slime));
    /// assert_eq!(Engine::from_id("fsdp"), None);
    /// ```
    pub fn from_id(id: &str) -> Option<Engine> {
        Engine::ALL.into_iter().find(|e| e.id() == id)
    }
}

/// One of an engine's own checks that a plan breaks (SPEC §16), with its numbers. Megatron's
/// come from `megatron/training/arguments.py` `validate_args`, `TransformerConfig.__post_init__`
/// and the interleaved schedule (`megatron/core/pipeline_parallel/schedules.py`); DeepSpeed
/// 0.19.8's from its engines (`deepspeed/runtime/engine.py`, `deepspeed/runtime/pipe/engine.py`)
/// and its MoE groups (`deepspeed/utils/groups.py`) (versions in `flags/names.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineRule {
    /// num_attention_heads must be a multiple of tensor_model_parallel_size.
    HeadsByTp {
        /// Attention heads.
        heads: u32,
        /// t.
        tp: u32,
    },
    /// num_query_groups must be a multiple or a divisor of tensor_model_parallel_size.
    QueryGroupsByTp {
        /// KV heads (query groups).
        groups: u32,
        /// t.
        tp: u32,
    },
    /// seq_length must be a multiple of 2·context_parallel_size when c > 1.
    SeqByTwiceCp {
        /// s.
        seq_len: u32,
        /// c.
        cp: u32,
    },
    /// The layers (with one more each for the embedding and the loss when accounted) must
    /// divide by the pipeline size.
    LayersByPp {
        /// Layers as Megatron counts them.
        layers: u32,
        /// p.
        pp: u32,
    },
    /// Gated DeltaNet (`TransformerConfig.__post_init__`): linear_num_key_heads and
    /// linear_num_value_heads multiples of t·c (the model's, or Megatron's defaults 16 and 32
    /// where they are not published).
    LinearHeadsByTpCp {
        /// linear_num_key_heads.
        key_heads: u32,
        /// t.
        tp: u32,
        /// c.
        cp: u32,
    },
    /// num_experts must be a multiple of expert_model_parallel_size.
    ExpertsByEp {
        /// Routed experts.
        experts: u32,
        /// e.
        ep: u32,
    },
    /// The interleaved schedule needs pipeline_model_parallel_size > 1.
    InterleavedPp,
    /// The interleaved schedule needs at least p micro-batches (a group of p per chunk).
    InterleavedMicroBatches {
        /// m.
        micro_batches: u32,
        /// p.
        pp: u32,
    },
    /// Megatron-Core's `initialize_model_parallel` (parallel_state.py): "When not using pp-last
    /// rank ordering, the data parallel size of the attention and moe layers must be the
    /// same". The lab's order tp-cp-pp-dp is `--use-tp-pp-dp-mapping`, which is not pp-last;
    /// with p > 1 the expert mesh's data-parallel size N/(etp·e·p) must then equal d.
    OrderDataParallel {
        /// d, the attention layers' data-parallel size N/(t·c·p).
        attention_dp: u32,
        /// N/(etp·e·p), the expert layers' (etp = t and e = 1 for a dense model).
        expert_dp: u32,
        /// The groups that move on the grid under Megatron's default order tp-cp-dp-pp.
        moved: MovedGroups,
    },
    /// DeepSpeed's pipeline engine: "ZeRO-2 and ZeRO-3 are incompatible with pipeline
    /// parallelism".
    PipelineZero {
        /// The ZeRO stage.
        zero: u8,
        /// p.
        pp: u32,
    },
    /// DeepSpeed 0.19.8 `DeepSpeedEngine._do_optimizer_sanity_check`: without ZeRO, BF16 weights
    /// accumulate their gradients in BF16 only ("unsupported mix of model_dtype=torch.bfloat16
    /// and grad_accum_dtype=torch.float32"); ZeRO 1–3 accumulate in FP32.
    Fp32GradsWithoutZero,
    /// DeepSpeed 0.19.8: only the ZeRO optimizers move the optimizer to the host
    /// (`zero_optimization.offload_optimizer`, "Valid for ZeRO stage 1, 2, 3"); without ZeRO the
    /// optimizer stays on the card.
    OffloadWithoutZero,
    /// DeepSpeed 0.19.8 `_do_optimizer_sanity_check`: the pipeline engine without ZeRO runs BF16
    /// training through its BF16_Optimizer (`deepspeed/runtime/bf16_optimizer.py`), which shards
    /// the FP32 master weights and Adam moments over the data-parallel group as ZeRO 1 does.
    PipelineShardsStates {
        /// p.
        pp: u32,
        /// The cards the states are sharded over, d·c.
        group: u32,
    },
    /// DeepSpeed 0.19.8 `groups._create_expert_and_data_parallel` (deepspeed/utils/groups.py, as
    /// `MoE.set_deepspeed_parallelism` calls it) takes each pipeline stage as N/p consecutive
    /// ranks: pipe must be the outermost axis, which the order tp-cp-pp-dp is not when p > 1 and
    /// d > 1.
    MoeStagesInterleaved {
        /// p.
        pp: u32,
        /// d.
        dp: u32,
    },
}

impl EngineRule {
    /// The `PlanConfig` field to change.
    pub const fn field(self) -> Field {
        match self {
            EngineRule::HeadsByTp { .. } | EngineRule::QueryGroupsByTp { .. } => Field::Tp,
            EngineRule::SeqByTwiceCp { .. } => Field::SeqLen,
            EngineRule::LinearHeadsByTpCp { key_heads, tp, .. } if key_heads % tp != 0 => Field::Tp,
            EngineRule::LinearHeadsByTpCp { .. } => Field::Cp,
            EngineRule::LayersByPp { .. } | EngineRule::InterleavedPp => Field::Pp,
            EngineRule::ExpertsByEp { .. } => Field::Ep,
            EngineRule::InterleavedMicroBatches { .. } => Field::MicroBatches,
            EngineRule::PipelineZero { .. } | EngineRule::PipelineShardsStates { .. } => {
                Field::Zero
            }
            EngineRule::OrderDataParallel { .. } | EngineRule::MoeStagesInterleaved { .. } => {
                Field::Order
            }
            EngineRule::Fp32GradsWithoutZero => Field::Precision,
            EngineRule::OffloadWithoutZero => Field::OptimizerOffload,
        }
    }

    /// The rule and the plan's numbers, in `lang`.
    pub fn reason(self, lang: Lang) -> String {
        match self {
            EngineRule::HeadsByTp { heads, tp } => match lang {
                Lang::En => format!("num_attention_heads {heads} must be a multiple of tensor_model_parallel_size {tp}"),
                Lang::Zh => format!("注意力头数 {heads} 必须是 TP = {tp} 的倍数"),
            },
            EngineRule::QueryGroupsByTp { groups, tp } => match lang {
                Lang::En => format!("num_query_groups {groups} must be a multiple or a divisor of tensor_model_parallel_size {tp}"),
                Lang::Zh => format!("KV 组数 {groups} 必须是 TP = {tp} 的倍数或约数"),
            },
            EngineRule::SeqByTwiceCp { seq_len, cp } => match lang {
                Lang::En => format!("seq_length {seq_len} must be a multiple of 2 × context_parallel_size = {}", 2 * u64::from(cp)),
                Lang::Zh => format!("序列长度 {seq_len} 必须是 2 × CP = {} 的倍数", 2 * u64::from(cp)),
            },
            EngineRule::LayersByPp { layers, pp } => match lang {
                Lang::En => format!("the {layers} layers must divide by pipeline_model_parallel_size {pp}"),
                Lang::Zh => format!("{layers} 层必须能被 PP = {pp} 整除"),
            },
            EngineRule::LinearHeadsByTpCp { key_heads, tp, cp } => match lang {
                Lang::En => format!("the linear attention's linear_num_key_heads {key_heads} must be a multiple of tensor_model_parallel_size × context_parallel_size = {}", u64::from(tp) * u64::from(cp)),
                Lang::Zh => format!("线性注意力的 key 头数 {key_heads} 必须是 TP × CP = {} 的倍数", u64::from(tp) * u64::from(cp)),
            },
            EngineRule::ExpertsByEp { experts, ep } => match lang {
                Lang::En => format!("num_experts {experts} must be a multiple of expert_model_parallel_size {ep}"),
                Lang::Zh => format!("专家数 {experts} 必须是 EP = {ep} 的倍数"),
            },
            EngineRule::InterleavedPp => match lang {
                Lang::En => "the interleaved schedule needs pipeline_model_parallel_size > 1".to_string(),
                Lang::Zh => "interleaved 调度需要 PP 大于 1".to_string(),
            },
            EngineRule::InterleavedMicroBatches { micro_batches, pp } => match lang {
                Lang::En => format!("the interleaved schedule needs at least pipeline_model_parallel_size = {pp} micro-batches (got {micro_batches})"),
                Lang::Zh => format!("interleaved 调度至少需要 PP = {pp} 个 micro-batch（现在是 {micro_batches}）"),
            },
            EngineRule::OrderDataParallel { attention_dp, expert_dp, moved } => match lang {
                Lang::En => format!(
                    "with --use-tp-pp-dp-mapping (order tp-cp-pp-dp) and pipeline stages, the data-parallel size of the attention layers ({attention_dp}) and of Megatron-Core's expert mesh N/(etp·e·p) ({expert_dp}, built for dense models too) must be the same; Megatron's default order tp-cp-dp-pp (pp last) runs this plan, and moves its {} groups on the grid",
                    moved.names()
                ),
                Lang::Zh => format!(
                    "用 --use-tp-pp-dp-mapping（顺序 tp-cp-pp-dp）且有流水线时，注意力层的 DP 大小（{attention_dp}）必须等于 Megatron-Core 专家网格的 N/(etp·e·p)（{expert_dp}，稠密模型也有这个网格）；Megatron 默认的顺序 tp-cp-dp-pp（PP 在最外层）能运行这个方案，网格上会移动的是 {} 组",
                    moved.names()
                ),
            },
            EngineRule::PipelineZero { zero, pp } => match lang {
                Lang::En => format!("ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism (zero {zero}, pipeline {pp} stages); take ZeRO 1 (or 0 when d·c = 1)"),
                Lang::Zh => format!("ZeRO-2 和 ZeRO-3 不能与流水线并行同用（ZeRO {zero}，PP = {pp}）；请选 ZeRO 1（d·c = 1 时也可选 0）"),
            },
            EngineRule::Fp32GradsWithoutZero => match lang {
                Lang::En => "without ZeRO, DeepSpeed 0.19.8 accumulates BF16 weights' gradients in BF16 only (data_types.grad_accum_dtype fp32 is an \"unsupported mix\" at ZeRO 0); FP32 gradients need ZeRO 1–3, or take BF16 gradients at ZeRO 0".to_string(),
                Lang::Zh => "不用 ZeRO 时，DeepSpeed 0.19.8 只能用 BF16 累加 BF16 权重的梯度（ZeRO 0 下 data_types.grad_accum_dtype 设为 fp32 是“unsupported mix”）；FP32 梯度需要 ZeRO 1–3，或在 ZeRO 0 下改用 BF16 梯度".to_string(),
            },
            EngineRule::OffloadWithoutZero => match lang {
                Lang::En => "DeepSpeed moves the optimizer to the host only through its ZeRO optimizers (zero_optimization.offload_optimizer is valid for ZeRO 1–3); take ZeRO 1–3 with the optimizer on the host, or keep it on the card at ZeRO 0".to_string(),
                Lang::Zh => "DeepSpeed 只通过 ZeRO 优化器把优化器放到主机上（zero_optimization.offload_optimizer 只对 ZeRO 1–3 有效）；请用 ZeRO 1–3 并卸载优化器，或在 ZeRO 0 下把优化器留在卡上".to_string(),
            },
            EngineRule::PipelineShardsStates { pp, group } => match lang {
                Lang::En => format!("with {pp} pipeline stages and no ZeRO, DeepSpeed's pipeline engine runs BF16 training through its BF16_Optimizer, which shards the FP32 master weights and Adam moments over the {group} data-parallel cards as ZeRO 1 does; take ZeRO 1, which is what DeepSpeed runs"),
                Lang::Zh => format!("有 {pp} 个流水线段且不用 ZeRO 时，DeepSpeed 的流水线引擎用 BF16_Optimizer 做 BF16 训练，它像 ZeRO 1 一样把 FP32 主权重和 Adam 动量切分到 {group} 张数据并行卡上；请选 ZeRO 1，DeepSpeed 实际运行的就是它"),
            },
            EngineRule::MoeStagesInterleaved { pp, dp } => match lang {
                Lang::En => format!("DeepSpeed's MoE layers form their expert groups within each pipeline stage taken as a block of consecutive ranks (pipe the outermost axis), while the order tp-cp-pp-dp interleaves the {pp} stages over the {dp} data-parallel replicas; take the order tp-cp-dp-pp"),
                Lang::Zh => format!("DeepSpeed 的 MoE 层在每个流水线段内组专家组，并把一个段当作一块连续的 rank（PP 在最外层），而顺序 tp-cp-pp-dp 把 {pp} 个段交错在 {dp} 个数据并行副本之间；请改用顺序 tp-cp-dp-pp"),
            },
        }
    }
}

/// Which of a card's groups differ between two rank orders of one plan: bits in the order
/// TP, CP, PP, DP, EP, EDP (kept as bits so that this leaf module needs no grid type).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MovedGroups(pub u8);

impl MovedGroups {
    /// The groups' names, in the bits' order.
    pub const NAMES: [&'static str; 6] = ["TP", "CP", "PP", "DP", "EP", "EDP"];

    /// The names of the groups that move, joined by "/" ("PP/DP").
    ///
    /// ```
    /// use parallel_core::flags::MovedGroups;
    /// assert_eq!(MovedGroups(0b1100).names(), "PP/DP");
    /// ```
    pub fn names(self) -> String {
        Self::NAMES
            .iter()
            .enumerate()
            .filter(|(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, name)| *name)
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// Why launch flags could not be written or a pasted launch command could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaunchError {
    /// The engine's own checks refuse the plan.
    Refused {
        /// The engine.
        engine: Engine,
        /// The rule broken.
        rule: EngineRule,
    },
    /// A flag the lab reads has a value it cannot read (`--tensor-model-parallel-size two`).
    BadValue {
        /// The flag.
        flag: &'static str,
        /// The value given.
        value: String,
        /// What it should be, in English ("a whole number ≥ 1").
        expected: &'static str,
    },
    /// A flag the lab reads has no value (the line ends, or another flag follows).
    NoValue {
        /// The flag.
        flag: &'static str,
    },
    /// A quote opened and never closed.
    Unterminated {
        /// `'` or `"`.
        quote: char,
    },
    /// A flag the plan cannot do without is absent (`--num-layers` …).
    Missing {
        /// The flag.
        flag: &'static str,
    },
    /// `--global-batch-size` is not a whole number of micro-batches per pipeline.
    GlobalBatch {
        /// The global batch given.
        global: u64,
        /// d·b, sequences per micro-batch step over the data-parallel replicas.
        per_micro_batch: u64,
    },
}

impl LaunchError {
    /// The field or flag at fault.
    pub fn field(&self) -> Field {
        match self {
            LaunchError::Refused { rule, .. } => rule.field(),
            LaunchError::BadValue { flag, .. }
            | LaunchError::NoValue { flag }
            | LaunchError::Missing { flag } => Field::Flag(flag),
            LaunchError::Unterminated { .. } => Field::Command,
            LaunchError::GlobalBatch { .. } => Field::Flag("--global-batch-size"),
        }
    }

    /// The reason, in `lang`.
    pub fn reason(&self, lang: Lang) -> String {
        match (self, lang) {
            (LaunchError::Refused { engine, rule }, Lang::En) => {
                format!("{} refuses this plan: {}", engine.name(), rule.reason(lang))
            }
            (LaunchError::Refused { engine, rule }, Lang::Zh) => {
                format!("{} 拒绝这个方案：{}", engine.name(), rule.reason(lang))
            }
            (LaunchError::BadValue { value, expected, .. }, Lang::En) => {
                format!("`{value}` is not {expected}")
            }
            (LaunchError::BadValue { value, .. }, Lang::Zh) => {
                format!("`{value}` 不是可读的取值")
            }
            (LaunchError::NoValue { .. }, Lang::En) => "needs a value".to_string(),
            (LaunchError::NoValue { .. }, Lang::Zh) => "缺少取值".to_string(),
            (LaunchError::Unterminated { quote }, Lang::En) => {
                format!("a {quote} quote is never closed")
            }
            (LaunchError::Unterminated { quote }, Lang::Zh) => format!("引号 {quote} 没有闭合"),
            (LaunchError::Missing { .. }, Lang::En) => {
                "missing: the lab needs it to count the model".to_string()
            }
            (LaunchError::Missing { .. }, Lang::Zh) => "缺失：实验室需要它来计算模型".to_string(),
            (
                LaunchError::GlobalBatch {
                    global,
                    per_micro_batch,
                },
                Lang::En,
            ) => format!(
                "{global} sequences do not split into micro-batches of data-parallel × micro-batch-size = {per_micro_batch}"
            ),
            (
                LaunchError::GlobalBatch {
                    global,
                    per_micro_batch,
                },
                Lang::Zh,
            ) => format!("全局批量 {global} 不能按 DP × micro-batch 大小 = {per_micro_batch} 整分"),
        }
    }
}
