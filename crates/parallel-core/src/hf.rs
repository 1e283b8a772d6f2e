//! Models from a Hugging Face `config.json` (SPEC §13): [`HfConfig`] → [`HfModel`], an
//! [`InlineModel`] whose `params` is the exact count of the checkpoint.
//!
//! The counter of SPEC §8 ([`crate::count_params`]) models standard attention and gated MLPs
//! without biases. The families read here differ from it in small, known ways (biases of
//! q/k/v, per-head q/k norms, a shared-expert gate, multi-head latent attention), so the total
//! is counted here, family by family, exactly as the Hugging Face `transformers` modules
//! (and DeepSeek's own `modeling_deepseek.py`) create their weights:
//!
//! | part | parameters |
//! |---|---|
//! | embeddings, output head | V·h, and V·h again unless `tie_word_embeddings` |
//! | attention (standard) | q h·a·hd, k and v 2·h·kv·hd, o a·hd·h |
//! | + Qwen2, Qwen2-MoE | biases of q, k, v: a·hd + 2·kv·hd |
//! | + Qwen3, Qwen3-MoE | q_norm and k_norm: 2·hd |
//! | + `attention_bias` (Llama, Qwen3) | biases of q, k, v, o: a·hd + 2·kv·hd + h |
//! | attention (MLA, DeepSeek-V3) | q_a h·r_q + norm r_q + q_b r_q·a·(n + r) (or q h·a·(n + r) without `q_lora_rank`), kv_a h·(r_kv + r) + norm r_kv, kv_b r_kv·a·(n + v), o a·v·h |
//! | norms | 2·h per layer, h at the end |
//! | dense MLP | 3·h·ffn (+ 2·ffn + h with Llama's `mlp_bias`) |
//! | MoE layer | routed experts E·3·h·f, router h·E; DeepSeek: shared n_s·3·h·f and `e_score_correction_bias` E (when `topk_method` is `noaux_tc`); Qwen2-MoE: shared 3·h·f_s and its gate h |
//!
//! (a heads, kv KV heads, hd head_dim, E routed experts of width f, r_q/r_kv the LoRA ranks,
//! n/r/v the nope/rope/value head dims.) DeepSeek-V3's multi-token-prediction module
//! (`num_nextn_predict_layers`) is not counted: it is not used in the training step this lab
//! models, and 671B is the published total without it.
//!
//! Checks: the Llama 3 8B and 70B and Mixtral 8x7B configs count to their published totals
//! exactly (8,030,261,248; 70,553,706,496; 46,702,792,704), DeepSeek-V3 to 671,026,419,200
//! (671B published) and Qwen3-30B-A3B to 30,532,122,624 total, 3,353,032,704 active (30.5B and
//! 3.3B published): `crates/parallel-core/tests/hf_configs.rs`.
//!
//! A missing field the count needs, a zero where one is needed, experts without
//! `num_experts_per_tok`, an unknown `architectures` entry or `model_type` is a [`PlanError`]
//! naming the key as `model.hf_config.<key>`, never a silently wrong count.

use core::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::PlanError;
use crate::model::{at_least_one, required, InlineModel};

/// `model.hf_config.<key>`, the field named in errors.
macro_rules! key {
    ($name:literal) => {
        concat!("model.hf_config.", $name)
    };
}

/// Parameter counts above this are not exact as the `f64` of [`crate::Model::params`]: 2^53.
const MAX_EXACT: u128 = 1 << 53;

/// A model family the counter reads, chosen by the `architectures` entry of the config.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HfFamily {
    /// Llama 1–3 (`LlamaForCausalLM`): standard attention (GQA), gated MLP.
    Llama,
    /// Mistral (`MistralForCausalLM`): as Llama, no biases.
    Mistral,
    /// Mixtral (`MixtralForCausalLM`): every layer's MLP is `num_local_experts` experts of
    /// width `intermediate_size`, top `num_experts_per_tok`.
    Mixtral,
    /// Qwen2 dense (`Qwen2ForCausalLM`): biases on q, k and v.
    Qwen2,
    /// Qwen3 dense (`Qwen3ForCausalLM`): q_norm and k_norm of head_dim in every layer.
    Qwen3,
    /// Qwen2-MoE (`Qwen2MoeForCausalLM`): Qwen2's attention; routed experts plus one shared
    /// expert of `shared_expert_intermediate_size` with a one-output gate.
    Qwen2Moe,
    /// Qwen3-MoE (`Qwen3MoeForCausalLM`): Qwen3's attention; routed experts only.
    Qwen3Moe,
    /// DeepSeek-V3 (`DeepseekV3ForCausalLM`): multi-head latent attention, the first
    /// `first_k_dense_replace` layers dense, then routed and shared experts.
    DeepseekV3,
}

/// Every `architectures` entry the counter reads, for error messages.
const ARCHITECTURES: &str = "LlamaForCausalLM, MistralForCausalLM, MixtralForCausalLM, \
Qwen2ForCausalLM, Qwen3ForCausalLM, Qwen2MoeForCausalLM, Qwen3MoeForCausalLM, \
DeepseekV3ForCausalLM";

impl HfFamily {
    /// Every family, in the order of [`HfFamily::architecture`]'s list.
    pub const ALL: [HfFamily; 8] = [
        HfFamily::Llama,
        HfFamily::Mistral,
        HfFamily::Mixtral,
        HfFamily::Qwen2,
        HfFamily::Qwen3,
        HfFamily::Qwen2Moe,
        HfFamily::Qwen3Moe,
        HfFamily::DeepseekV3,
    ];

    /// The `architectures` entry of this family, e.g. `"LlamaForCausalLM"`.
    pub const fn architecture(self) -> &'static str {
        match self {
            HfFamily::Llama => "LlamaForCausalLM",
            HfFamily::Mistral => "MistralForCausalLM",
            HfFamily::Mixtral => "MixtralForCausalLM",
            HfFamily::Qwen2 => "Qwen2ForCausalLM",
            HfFamily::Qwen3 => "Qwen3ForCausalLM",
            HfFamily::Qwen2Moe => "Qwen2MoeForCausalLM",
            HfFamily::Qwen3Moe => "Qwen3MoeForCausalLM",
            HfFamily::DeepseekV3 => "DeepseekV3ForCausalLM",
        }
    }

    /// The `model_type` values a config of this family may carry, comma separated
    /// (Kimi K2 ships DeepSeek-V3's architecture as `kimi_k2`).
    pub const fn model_types(self) -> &'static str {
        match self {
            HfFamily::Llama => "llama",
            HfFamily::Mistral => "mistral",
            HfFamily::Mixtral => "mixtral",
            HfFamily::Qwen2 => "qwen2",
            HfFamily::Qwen3 => "qwen3",
            HfFamily::Qwen2Moe => "qwen2_moe",
            HfFamily::Qwen3Moe => "qwen3_moe",
            HfFamily::DeepseekV3 => "deepseek_v3, kimi_k2",
        }
    }

    /// A short label, e.g. `"Llama (config.json)"`.
    pub const fn label(self) -> &'static str {
        match self {
            HfFamily::Llama => "Llama (config.json)",
            HfFamily::Mistral => "Mistral (config.json)",
            HfFamily::Mixtral => "Mixtral (config.json)",
            HfFamily::Qwen2 => "Qwen2 (config.json)",
            HfFamily::Qwen3 => "Qwen3 (config.json)",
            HfFamily::Qwen2Moe => "Qwen2-MoE (config.json)",
            HfFamily::Qwen3Moe => "Qwen3-MoE (config.json)",
            HfFamily::DeepseekV3 => "DeepSeek-V3 (config.json)",
        }
    }

    /// The family of an `architectures` entry.
    ///
    /// ```
    /// use parallel_core::hf::HfFamily;
    /// assert_eq!(HfFamily::from_architecture("MixtralForCausalLM"), Some(HfFamily::Mixtral));
    /// assert_eq!(HfFamily::from_architecture("MambaForCausalLM"), None);
    /// ```
    pub fn from_architecture(name: &str) -> Option<HfFamily> {
        HfFamily::ALL.into_iter().find(|f| f.architecture() == name)
    }

    fn accepts_model_type(self, model_type: &str) -> bool {
        self.model_types().split(", ").any(|t| t == model_type)
    }
}

/// The keys of a Hugging Face `config.json` that the counter reads (SPEC §13); every other key
/// (`rope_theta`, `torch_dtype`, `quantization_config`, …) is ignored. Every key is optional
/// here; [`HfConfig::to_model`] says which ones a family needs.
///
/// Keys whose `null` means something (`q_lora_rank`: no query compression;
/// `n_shared_experts`, `n_routed_experts`: none) are kept as `Some(None)` when given as
/// `null` and `None` when absent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct HfConfig {
    /// The model classes, e.g. `["LlamaForCausalLM"]`; the first chooses the family.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub architectures: Option<Vec<String>>,
    /// `transformers`' model type, e.g. `"llama"`; checked against the family when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_type: Option<String>,
    /// Hidden size h.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden_size: Option<u32>,
    /// Layers L (the MTP module of DeepSeek-V3 is not among them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_hidden_layers: Option<u32>,
    /// Attention heads a.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_attention_heads: Option<u32>,
    /// KV heads (Llama: absent or null means a, as in Llama 1 and 2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_key_value_heads: Option<u32>,
    /// Head dimension (default h / a; required for Qwen3, whose default differs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_dim: Option<u32>,
    /// Dense FFN width (Mixtral: the width of each expert).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intermediate_size: Option<u32>,
    /// Vocabulary V.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vocab_size: Option<u32>,
    /// Whether the output head is the embedding matrix (default false in every family read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tie_word_embeddings: Option<bool>,
    /// Biases on q, k, v and o (Llama, Qwen3, Qwen3-MoE; DeepSeek: q_a, kv_a and o).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attention_bias: Option<bool>,
    /// Biases on the gate, up and down projections (Llama).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mlp_bias: Option<bool>,
    /// Sliding-window size (ignored by the count and by the formulas: noted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sliding_window: Option<u64>,
    /// Whether Qwen's sliding window is on (noted when true).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub use_sliding_window: Option<bool>,
    /// Attention kind of each layer; only `full_attention` and `sliding_attention` are read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layer_types: Option<Vec<String>>,
    /// Mixtral's routed experts per layer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_local_experts: Option<u32>,
    /// Qwen-MoE's routed experts per MoE layer (0: no MoE layers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_experts: Option<u32>,
    /// DeepSeek's routed experts per MoE layer (null: none).
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Option::is_none"
    )]
    pub n_routed_experts: Option<Option<u32>>,
    /// Experts each token is routed to, top-k.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_experts_per_tok: Option<u32>,
    /// Width of one routed expert (Qwen-MoE, DeepSeek).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moe_intermediate_size: Option<u32>,
    /// Width of Qwen2-MoE's shared expert.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared_expert_intermediate_size: Option<u32>,
    /// DeepSeek's shared experts per MoE layer, each of `moe_intermediate_size` (null: none).
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Option::is_none"
    )]
    pub n_shared_experts: Option<Option<u32>>,
    /// Qwen-MoE: layer i (from 0) is MoE when (i + 1) is a multiple of this (default 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decoder_sparse_step: Option<u32>,
    /// Qwen-MoE: layers (from 0) kept dense (default none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mlp_only_layers: Option<Vec<u32>>,
    /// DeepSeek: the first k layers are dense.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_k_dense_replace: Option<u32>,
    /// DeepSeek: from layer k on, layer i is MoE when i is a multiple of this (default 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moe_layer_freq: Option<u32>,
    /// DeepSeek's routing; `noaux_tc` carries an `e_score_correction_bias` per expert.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topk_method: Option<String>,
    /// MLA: rank of the query compression (null: a plain q projection).
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Option::is_none"
    )]
    pub q_lora_rank: Option<Option<u32>>,
    /// MLA: rank of the key/value compression.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_lora_rank: Option<u32>,
    /// MLA: per-head query/key dimension without rotary embedding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qk_nope_head_dim: Option<u32>,
    /// MLA: per-head query/key dimension with rotary embedding (the key part is shared).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qk_rope_head_dim: Option<u32>,
    /// MLA: per-head value dimension.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v_head_dim: Option<u32>,
    /// DeepSeek's multi-token-prediction layers: not counted (noted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_nextn_predict_layers: Option<u32>,
}

/// A key present as `null` is `Some(None)`; absent is `None` (via `#[serde(default)]`).
fn nullable<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<u32>>, D::Error> {
    Option::<u32>::deserialize(d).map(Some)
}

/// Something the count did that a reader should know: what was counted beyond SPEC §8's
/// counter, what was left out, and which defaults were taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HfNote {
    /// The output head shares the embedding matrix: V·h counted once.
    TiedEmbeddings,
    /// Llama without `num_key_value_heads`: as many KV heads as heads.
    KvHeadsAreHeads {
        /// The heads, a.
        heads: u32,
    },
    /// Qwen2's biases of q, k and v: a·hd + 2·kv·hd per layer.
    QkvBiases,
    /// `attention_bias`: biases of the attention projections.
    AttentionBiases,
    /// Llama's `mlp_bias`: biases of gate, up and down, 2·ffn + h per dense layer.
    MlpBiases,
    /// Qwen3's q_norm and k_norm: 2·hd per layer.
    QkNorms,
    /// Multi-head latent attention counted from its ranks; KV heads and head dim (v_head_dim)
    /// stand in for its cache in the CP formula.
    Mla,
    /// Qwen2-MoE's shared expert and its one-output gate: 3·h·width + h per MoE layer.
    SharedExpertGate {
        /// `shared_expert_intermediate_size`.
        width: u32,
    },
    /// Qwen2-MoE's shared expert is not a whole number of routed experts; the inline model's
    /// `shared_experts` is rounded (the count itself is exact).
    SharedExpertsRounded {
        /// `shared_expert_intermediate_size`.
        width: u32,
        /// `moe_intermediate_size`.
        expert: u32,
    },
    /// DeepSeek's `e_score_correction_bias`: one number per routed expert per MoE layer.
    RouterBias {
        /// Routed experts.
        experts: u32,
    },
    /// Dense layers in an MoE model, with the dense FFN width.
    DenseLayers {
        /// Dense layers.
        layers: u32,
        /// Their FFN width.
        ffn: u32,
    },
    /// DeepSeek's multi-token-prediction module is not counted.
    MtpNotCounted {
        /// `num_nextn_predict_layers`.
        layers: u32,
    },
    /// A sliding window, ignored: every layer is taken as full attention.
    SlidingWindowIgnored,
}

impl fmt::Display for HfNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            HfNote::TiedEmbeddings => {
                f.write_str("tied embeddings: the output head is the embedding matrix, counted once")
            }
            HfNote::KvHeadsAreHeads { heads } => write!(
                f,
                "num_key_value_heads absent: {heads} KV heads, one per attention head"
            ),
            HfNote::QkvBiases => f.write_str("biases of q/k/v counted"),
            HfNote::AttentionBiases => f.write_str("attention_bias: biases of the attention projections counted"),
            HfNote::MlpBiases => f.write_str("mlp_bias: biases of gate/up/down counted"),
            HfNote::QkNorms => f.write_str("q_norm and k_norm (head_dim each) counted in every layer"),
            HfNote::Mla => f.write_str(
                "multi-head latent attention counted from its ranks; kv_heads and head_dim (v_head_dim) stand in for its cache in the CP formula",
            ),
            HfNote::SharedExpertGate { width } => write!(
                f,
                "shared expert of width {width} and its gate counted in every MoE layer"
            ),
            HfNote::SharedExpertsRounded { width, expert } => write!(
                f,
                "shared expert width {width} is not a multiple of the expert width {expert}: shared_experts is rounded (params are exact)"
            ),
            HfNote::RouterBias { experts } => write!(
                f,
                "e_score_correction_bias ({experts} per MoE layer) counted"
            ),
            HfNote::DenseLayers { layers, ffn } => {
                write!(f, "{layers} dense layers with FFN {ffn}")
            }
            HfNote::MtpNotCounted { layers } => write!(
                f,
                "MTP module not counted (num_nextn_predict_layers = {layers})"
            ),
            HfNote::SlidingWindowIgnored => {
                f.write_str("sliding window ignored: every layer taken as full attention")
            }
        }
    }
}

impl Serialize for HfNote {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A `config.json` read: the inline model (with its exact count as `params`), its counts and
/// notes. Serializes as `parallel-lab model` prints it: `{"model", "params", "active_params",
/// "notes"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HfModel {
    /// The inline model of SPEC §8 this config stands for; `params` is the exact count.
    pub model: InlineModel,
    /// Total parameters P (MTP excluded).
    pub params: u64,
    /// Active parameters P_act = P − P_routed·(1 − top_k/experts) (SPEC §12); P when dense.
    pub active_params: u64,
    /// Routed expert parameters P_routed = moe_layers·experts·3·h·expert_ffn.
    #[serde(skip)]
    pub routed_params: u64,
    /// The family the config was read as.
    #[serde(skip)]
    pub family: HfFamily,
    /// What was counted, left out or defaulted.
    pub notes: Vec<HfNote>,
}

/// Attention of a layer, as counted.
enum Attention {
    Standard {
        head_dim: u32,
        qkv_bias: bool,
        o_bias: bool,
        qk_norm: bool,
    },
    Mla {
        q_lora_rank: Option<u32>,
        kv_lora_rank: u32,
        nope: u32,
        rope: u32,
        v: u32,
        bias: bool,
    },
}

/// The MoE part, as counted.
struct MoeParts {
    layers: u32,
    experts: u32,
    top_k: u32,
    expert_ffn: u32,
    /// Width of Qwen2-MoE's shared expert (0: none, or DeepSeek's experts of `expert_ffn`).
    shared_ffn: u32,
    /// Shared experts: DeepSeek's count; for the inline model of Qwen2-MoE, its shared width
    /// in routed experts, rounded.
    shared_experts: u32,
    /// Qwen2-MoE's one-output gate on the shared expert.
    shared_gate: bool,
    /// DeepSeek's per-expert score correction bias.
    router_bias: bool,
}

impl MoeParts {
    /// Parameters of the shared part of one MoE layer: Qwen2-MoE 3·h·width + h (its gate),
    /// DeepSeek n_s·3·h·f.
    fn shared_params(&self, h: u32) -> u128 {
        let h = u128::from(h);
        if self.shared_gate {
            sum(&[mul(&[3, h, u128::from(self.shared_ffn)]), h])
        } else {
            mul(&[
                u128::from(self.shared_experts),
                3,
                h,
                u128::from(self.expert_ffn),
            ])
        }
    }
}

/// A nullable field that must be present: `null` is `None`; a number must be at least 1.
fn need_nullable(
    value: Option<Option<u32>>,
    field: &'static str,
) -> Result<Option<u32>, PlanError> {
    match value {
        None => Err(PlanError::Missing { field }),
        Some(Some(0)) => Err(PlanError::BelowOne { field }),
        Some(v) => Ok(v),
    }
}

/// `value` at most `max`, else an error naming `field`.
fn at_most(value: u32, max: u32, field: &'static str) -> Result<u32, PlanError> {
    if value > max {
        Err(PlanError::AtMost {
            field,
            max: max.into(),
            got: value.into(),
        })
    } else {
        Ok(value)
    }
}

/// Multiples of `step` in 0 … n−1 (ceil(n / step)).
fn multiples_below(n: u32, step: u32) -> u32 {
    n.div_ceil(step)
}

/// A product, saturating (a saturated total is rejected as above 2^53).
fn mul(factors: &[u128]) -> u128 {
    factors.iter().fold(1, |acc, &f| acc.saturating_mul(f))
}

/// A sum, saturating.
fn sum(terms: &[u128]) -> u128 {
    terms.iter().fold(0, |acc, &t| acc.saturating_add(t))
}

impl HfConfig {
    /// The family of `architectures` (every entry must name the same one), checked against
    /// `model_type` when given.
    pub fn family(&self) -> Result<HfFamily, PlanError> {
        let field = key!("architectures");
        let Some((first, rest)) = self.architectures.as_deref().and_then(|a| a.split_first())
        else {
            return Err(PlanError::Missing { field });
        };
        let unsupported = |value: &str| PlanError::Unsupported {
            field,
            value: value.to_string(),
            supported: ARCHITECTURES,
        };
        let family = HfFamily::from_architecture(first).ok_or_else(|| unsupported(first))?;
        if let Some(other) = rest
            .iter()
            .find(|a| HfFamily::from_architecture(a) != Some(family))
        {
            return Err(unsupported(other));
        }
        if let Some(model_type) = &self.model_type {
            if !family.accepts_model_type(model_type) {
                return Err(PlanError::Unsupported {
                    field: key!("model_type"),
                    value: model_type.clone(),
                    supported: family.model_types(),
                });
            }
        }
        Ok(family)
    }

    /// Reads the config: the family's exact parameter count (see the module's table), the
    /// inline model of SPEC §8 carrying it as `params`, and notes.
    ///
    /// ```
    /// use parallel_core::hf::HfConfig;
    /// let llama3_8b = HfConfig {
    ///     architectures: Some(vec!["LlamaForCausalLM".into()]),
    ///     hidden_size: Some(4096),
    ///     num_hidden_layers: Some(32),
    ///     num_attention_heads: Some(32),
    ///     num_key_value_heads: Some(8),
    ///     intermediate_size: Some(14336),
    ///     vocab_size: Some(128_256),
    ///     ..HfConfig::default()
    /// };
    /// assert_eq!(llama3_8b.to_model()?.params, 8_030_261_248);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn to_model(&self) -> Result<HfModel, PlanError> {
        use HfFamily as F;
        let family = self.family()?;
        let mut notes = Vec::new();
        let h = required(self.hidden_size, key!("hidden_size"))?;
        let layers = required(self.num_hidden_layers, key!("num_hidden_layers"))?;
        let heads = required(self.num_attention_heads, key!("num_attention_heads"))?;
        let vocab = required(self.vocab_size, key!("vocab_size"))?;
        let kv_field = key!("num_key_value_heads");
        let kv_heads = match family {
            F::Llama => {
                if self.num_key_value_heads.is_none() {
                    notes.push(HfNote::KvHeadsAreHeads { heads });
                }
                at_least_one(self.num_key_value_heads, kv_field, heads)?
            }
            // MLA has no KV heads of its own: the stand-in for the CP formula.
            F::DeepseekV3 => at_least_one(self.num_key_value_heads, kv_field, heads)?,
            _ => required(self.num_key_value_heads, kv_field)?,
        };
        at_most(kv_heads, heads, kv_field)?;
        self.check_layer_types()?;

        let attention = self.attention(family, h, heads)?;
        let moe = self.moe(family, layers)?;
        let moe_layers = moe.as_ref().map_or(0, |m| m.layers);
        let dense_layers = layers - moe_layers;
        let ffn = if dense_layers > 0 {
            required(self.intermediate_size, key!("intermediate_size"))?
        } else {
            0
        };
        let tied = self.tie_word_embeddings.unwrap_or(false);
        let mlp_bias = family == F::Llama && self.mlp_bias == Some(true);

        // The count, term by term (module table), saturating: a saturated total is above
        // MAX_EXACT and rejected.
        let w = u128::from;
        let (h_, a, kv) = (w(h), w(heads), w(kv_heads));
        let attention_params = match attention {
            Attention::Standard {
                head_dim,
                qkv_bias,
                o_bias,
                qk_norm,
            } => {
                let hd = w(head_dim);
                sum(&[
                    mul(&[2, h_, a, hd]),
                    mul(&[2, h_, kv, hd]),
                    if qkv_bias {
                        sum(&[mul(&[a, hd]), mul(&[2, kv, hd])])
                    } else {
                        0
                    },
                    if o_bias { h_ } else { 0 },
                    if qk_norm { mul(&[2, hd]) } else { 0 },
                ])
            }
            Attention::Mla {
                q_lora_rank,
                kv_lora_rank,
                nope,
                rope,
                v,
                bias,
            } => {
                let (r_kv, nope, rope, v) = (w(kv_lora_rank), w(nope), w(rope), w(v));
                let q = match q_lora_rank.map(w) {
                    // q_a_proj (+ bias), q_a_layernorm, q_b_proj.
                    Some(r_q) => sum(&[
                        mul(&[h_, r_q]),
                        if bias { r_q } else { 0 },
                        r_q,
                        mul(&[r_q, a, nope + rope]),
                    ]),
                    None => mul(&[h_, a, nope + rope]),
                };
                sum(&[
                    q,
                    // kv_a_proj_with_mqa (+ bias), kv_a_layernorm, kv_b_proj, o_proj (+ bias).
                    mul(&[h_, r_kv + rope]),
                    if bias { r_kv + rope } else { 0 },
                    r_kv,
                    mul(&[r_kv, a, nope + v]),
                    mul(&[a, v, h_]),
                    if bias { h_ } else { 0 },
                ])
            }
        };
        let ffn_ = w(ffn);
        let dense_mlp = sum(&[
            mul(&[3, h_, ffn_]),
            if mlp_bias {
                sum(&[mul(&[2, ffn_]), h_])
            } else {
                0
            },
        ]);
        let mut total = sum(&[
            mul(&[if tied { 1 } else { 2 }, w(vocab), h_]),
            mul(&[w(layers), sum(&[attention_params, mul(&[2, h_])])]),
            mul(&[w(dense_layers), dense_mlp]),
            h_,
        ]);
        let mut routed = 0u128;
        let mut inactive = 0u128;
        if let Some(m) = &moe {
            let per_expert = mul(&[3, h_, w(m.expert_ffn)]);
            let per_layer = sum(&[
                mul(&[w(m.experts), per_expert]),
                mul(&[h_, w(m.experts)]),
                m.shared_params(h),
                if m.router_bias { w(m.experts) } else { 0 },
            ]);
            total = sum(&[total, mul(&[w(m.layers), per_layer])]);
            routed = mul(&[w(m.layers), w(m.experts), per_expert]);
            inactive = mul(&[w(m.layers), w(m.experts - m.top_k), per_expert]);
        }
        if total > MAX_EXACT {
            return Err(PlanError::AtMost {
                field: "model.params",
                max: MAX_EXACT as u64,
                got: u64::try_from(total).unwrap_or(u64::MAX),
            });
        }
        // total ≤ 2^53 and routed, inactive ≤ total.
        let params = total as u64;

        // Notes, in the order of the module table.
        if tied {
            notes.push(HfNote::TiedEmbeddings);
        }
        match attention {
            Attention::Standard {
                qkv_bias,
                o_bias,
                qk_norm,
                ..
            } => {
                if o_bias {
                    notes.push(HfNote::AttentionBiases);
                } else if qkv_bias {
                    notes.push(HfNote::QkvBiases);
                }
                if qk_norm {
                    notes.push(HfNote::QkNorms);
                }
            }
            Attention::Mla { bias, .. } => {
                notes.push(HfNote::Mla);
                if bias {
                    notes.push(HfNote::AttentionBiases);
                }
            }
        }
        if mlp_bias {
            notes.push(HfNote::MlpBiases);
        }
        if let Some(m) = &moe {
            if dense_layers > 0 {
                notes.push(HfNote::DenseLayers {
                    layers: dense_layers,
                    ffn,
                });
            }
            if m.shared_gate {
                notes.push(HfNote::SharedExpertGate {
                    width: m.shared_ffn,
                });
                if m.shared_ffn % m.expert_ffn != 0 {
                    notes.push(HfNote::SharedExpertsRounded {
                        width: m.shared_ffn,
                        expert: m.expert_ffn,
                    });
                }
            }
            if m.router_bias {
                notes.push(HfNote::RouterBias { experts: m.experts });
            }
        }
        if family == F::DeepseekV3 {
            if let Some(n) = self.num_nextn_predict_layers.filter(|&n| n > 0) {
                notes.push(HfNote::MtpNotCounted { layers: n });
            }
        }
        let sliding = match family {
            F::Mistral | F::Mixtral => self.sliding_window.is_some(),
            F::Qwen2 | F::Qwen3 | F::Qwen2Moe | F::Qwen3Moe => {
                self.use_sliding_window == Some(true)
            }
            F::Llama | F::DeepseekV3 => false,
        } || self
            .layer_types
            .as_ref()
            .is_some_and(|t| t.iter().any(|k| k == "sliding_attention"));
        if sliding {
            notes.push(HfNote::SlidingWindowIgnored);
        }

        let head_dim = match attention {
            Attention::Standard { head_dim, .. } => head_dim,
            Attention::Mla { v, .. } => v,
        };
        let model = InlineModel {
            params: Some(params),
            hidden: Some(h),
            layers: Some(layers),
            heads: Some(heads),
            kv_heads: Some(kv_heads),
            head_dim: Some(head_dim),
            full_attention_layers: Some(layers),
            ffn: (ffn > 0).then_some(ffn),
            vocab: Some(vocab),
            tied_embeddings: tied,
            moe_layers: moe.as_ref().map(|m| m.layers),
            experts: moe.as_ref().map(|m| m.experts),
            top_k: moe.as_ref().map(|m| m.top_k),
            expert_ffn: moe.as_ref().map(|m| m.expert_ffn),
            shared_experts: moe.as_ref().map(|m| m.shared_experts).filter(|&s| s > 0),
        };
        Ok(HfModel {
            model,
            params,
            active_params: (total - inactive) as u64,
            routed_params: routed as u64,
            family,
            notes,
        })
    }

    /// `layer_types`, when given: only full and sliding attention are modelled.
    fn check_layer_types(&self) -> Result<(), PlanError> {
        if let Some(kind) = self
            .layer_types
            .iter()
            .flatten()
            .find(|k| !matches!(k.as_str(), "full_attention" | "sliding_attention"))
        {
            return Err(PlanError::Unsupported {
                field: key!("layer_types"),
                value: kind.clone(),
                supported: "full_attention, sliding_attention",
            });
        }
        Ok(())
    }

    /// The attention of the family, with its checks.
    fn attention(&self, family: HfFamily, h: u32, heads: u32) -> Result<Attention, PlanError> {
        use HfFamily as F;
        let bias = self.attention_bias == Some(true);
        let head_dim_field = key!("head_dim");
        let head_dim = || match family {
            // Qwen3's default head_dim (128) is not h / a: the config must say.
            F::Qwen3 | F::Qwen3Moe => required(self.head_dim, head_dim_field),
            _ => match self.head_dim {
                Some(hd) => required(Some(hd), head_dim_field),
                None => required(Some(h / heads), head_dim_field),
            },
        };
        Ok(match family {
            F::Llama => Attention::Standard {
                head_dim: head_dim()?,
                qkv_bias: bias,
                o_bias: bias,
                qk_norm: false,
            },
            F::Mistral | F::Mixtral => {
                if bias {
                    return Err(PlanError::Unsupported {
                        field: key!("attention_bias"),
                        value: "true".to_string(),
                        supported: "false",
                    });
                }
                Attention::Standard {
                    head_dim: head_dim()?,
                    qkv_bias: false,
                    o_bias: false,
                    qk_norm: false,
                }
            }
            // Qwen2's q, k and v always carry biases; `attention_bias` is not read.
            F::Qwen2 | F::Qwen2Moe => Attention::Standard {
                head_dim: head_dim()?,
                qkv_bias: true,
                o_bias: false,
                qk_norm: false,
            },
            F::Qwen3 | F::Qwen3Moe => Attention::Standard {
                head_dim: head_dim()?,
                qkv_bias: bias,
                o_bias: bias,
                qk_norm: true,
            },
            F::DeepseekV3 => Attention::Mla {
                q_lora_rank: need_nullable(self.q_lora_rank, key!("q_lora_rank"))?,
                kv_lora_rank: required(self.kv_lora_rank, key!("kv_lora_rank"))?,
                nope: required(self.qk_nope_head_dim, key!("qk_nope_head_dim"))?,
                rope: required(self.qk_rope_head_dim, key!("qk_rope_head_dim"))?,
                v: required(self.v_head_dim, key!("v_head_dim"))?,
                bias,
            },
        })
    }

    /// The MoE part of the family (`None` for dense families and MoE configs without MoE
    /// layers), with its checks.
    fn moe(&self, family: HfFamily, layers: u32) -> Result<Option<MoeParts>, PlanError> {
        use HfFamily as F;
        let top_k_field = key!("num_experts_per_tok");
        let top_k = |experts: u32| -> Result<u32, PlanError> {
            at_most(
                required(self.num_experts_per_tok, top_k_field)?,
                experts,
                top_k_field,
            )
        };
        let parts = match family {
            F::Llama | F::Mistral | F::Qwen2 | F::Qwen3 => None,
            F::Mixtral => {
                let experts = required(self.num_local_experts, key!("num_local_experts"))?;
                Some(MoeParts {
                    layers,
                    experts,
                    top_k: top_k(experts)?,
                    expert_ffn: required(self.intermediate_size, key!("intermediate_size"))?,
                    shared_ffn: 0,
                    shared_experts: 0,
                    shared_gate: false,
                    router_bias: false,
                })
            }
            F::Qwen2Moe | F::Qwen3Moe => {
                let experts_field = key!("num_experts");
                let experts = self.num_experts.ok_or(PlanError::Missing {
                    field: experts_field,
                })?;
                if experts == 0 {
                    None
                } else {
                    let step =
                        at_least_one(self.decoder_sparse_step, key!("decoder_sparse_step"), 1)?;
                    let mut dense: Vec<u32> = self.mlp_only_layers.clone().unwrap_or_default();
                    dense.sort_unstable();
                    dense.dedup();
                    if let Some(&last) = dense.last() {
                        at_most(last, layers - 1, key!("mlp_only_layers"))?;
                    }
                    let listed_sparse = dense.iter().filter(|&&i| (i + 1) % step == 0).count();
                    let moe_layers = layers / step - listed_sparse as u32;
                    let top_k = top_k(experts)?;
                    let expert_ffn =
                        required(self.moe_intermediate_size, key!("moe_intermediate_size"))?;
                    let (shared_ffn, shared_experts) = if family == F::Qwen2Moe {
                        let width = required(
                            self.shared_expert_intermediate_size,
                            key!("shared_expert_intermediate_size"),
                        )?;
                        let whole = (f64::from(width) / f64::from(expert_ffn)).round().max(1.0);
                        (width, whole as u32)
                    } else {
                        (0, 0)
                    };
                    (moe_layers > 0).then_some(MoeParts {
                        layers: moe_layers,
                        experts,
                        top_k,
                        expert_ffn,
                        shared_ffn,
                        shared_experts,
                        shared_gate: family == F::Qwen2Moe,
                        router_bias: false,
                    })
                }
            }
            F::DeepseekV3 => {
                match need_nullable(self.n_routed_experts, key!("n_routed_experts"))? {
                    None => None,
                    Some(experts) => {
                        let first_dense = self.first_k_dense_replace.ok_or(PlanError::Missing {
                            field: key!("first_k_dense_replace"),
                        })?;
                        let first_dense =
                            at_most(first_dense, layers, key!("first_k_dense_replace"))?;
                        let freq = at_least_one(self.moe_layer_freq, key!("moe_layer_freq"), 1)?;
                        let moe_layers =
                            multiples_below(layers, freq) - multiples_below(first_dense, freq);
                        let top_k = top_k(experts)?;
                        let expert_ffn =
                            required(self.moe_intermediate_size, key!("moe_intermediate_size"))?;
                        let shared = match self.n_shared_experts {
                            None => {
                                return Err(PlanError::Missing {
                                    field: key!("n_shared_experts"),
                                })
                            }
                            Some(n) => n.unwrap_or(0),
                        };
                        (moe_layers > 0).then_some(MoeParts {
                            layers: moe_layers,
                            experts,
                            top_k,
                            expert_ffn,
                            shared_ffn: 0,
                            shared_experts: shared,
                            shared_gate: false,
                            router_bias: self.topk_method.as_deref() == Some("noaux_tc"),
                        })
                    }
                }
            }
        };
        Ok(parts)
    }
}
