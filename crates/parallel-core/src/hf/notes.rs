//! [`HfNote`]: what a reader of a count should know (what was counted beyond SPEC §8's counter,
//! what was left out, which defaults were taken), and which notes a reading gives.

use core::fmt;

use serde::{Serialize, Serializer};

use super::attention::Attention;
use super::config::HfConfig;
use super::family::HfFamily;
use super::reading::Reading;

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

/// The notes of a reading: a defaulted KV head count first, then in the order of the module
/// table (embeddings, attention, MLP, experts), then what was left out.
pub(super) fn notes(config: &HfConfig, reading: &Reading) -> Vec<HfNote> {
    use HfFamily as F;
    let mut notes = Vec::new();
    let family = reading.family;
    if family == F::Llama && config.num_key_value_heads.is_none() {
        notes.push(HfNote::KvHeadsAreHeads {
            heads: reading.heads,
        });
    }
    if reading.tied {
        notes.push(HfNote::TiedEmbeddings);
    }
    match reading.attention {
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
    if reading.mlp_bias {
        notes.push(HfNote::MlpBiases);
    }
    if let Some(m) = &reading.moe {
        if reading.dense_layers > 0 {
            notes.push(HfNote::DenseLayers {
                layers: reading.dense_layers,
                ffn: reading.ffn,
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
        if let Some(n) = config.num_nextn_predict_layers.filter(|&n| n > 0) {
            notes.push(HfNote::MtpNotCounted { layers: n });
        }
    }
    if sliding_window(config, family) {
        notes.push(HfNote::SlidingWindowIgnored);
    }
    notes
}

/// Whether the config turns a sliding window on (each family says so in its own key), which the
/// count and the formulas ignore.
fn sliding_window(config: &HfConfig, family: HfFamily) -> bool {
    use HfFamily as F;
    let by_family = match family {
        F::Mistral | F::Mixtral => config.sliding_window.is_some(),
        F::Qwen2 | F::Qwen3 | F::Qwen2Moe | F::Qwen3Moe => config.use_sliding_window == Some(true),
        F::Llama | F::DeepseekV3 => false,
    };
    by_family
        || config
            .layer_types
            .as_ref()
            .is_some_and(|t| t.iter().any(|k| k == "sliding_attention"))
}
