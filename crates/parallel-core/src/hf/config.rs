//! [`HfConfig`]: the keys of a Hugging Face `config.json` that the counter reads, as serde reads
//! them, and `key!`, the name of a key in errors.

use serde::{Deserialize, Deserializer, Serialize};

/// `model.hf_config.<key>`, the field named in errors: [`crate::Field::HfConfig`].
macro_rules! key {
    ($name:literal) => {
        $crate::config::Field::HfConfig($name)
    };
}
pub(super) use key;

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
