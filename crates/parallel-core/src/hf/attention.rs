//! The attention of a layer as the counter sees it ([`Attention`]): standard attention with
//! its family's biases and norms, or DeepSeek's multi-head latent attention with its ranks.

use super::config::{key, HfConfig};
use super::family::HfFamily;
use crate::checks::{at_least_one, required, required_nullable};
use crate::error::PlanError;
use crate::model::Mla;

/// Attention of a layer, as counted.
pub(super) enum Attention {
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

impl Attention {
    /// The head dimension of the inline model: the head's own, or MLA's value head dimension,
    /// which stands in for its compressed cache in the CP formula.
    pub(super) fn head_dim(&self) -> u32 {
        match *self {
            Attention::Standard { head_dim, .. } => head_dim,
            Attention::Mla { v, .. } => v,
        }
    }
}

impl Attention {
    /// MLA's dimensions; `None` for standard attention.
    pub(super) fn mla(&self) -> Option<Mla> {
        match *self {
            Attention::Standard { .. } => None,
            Attention::Mla {
                q_lora_rank,
                kv_lora_rank,
                nope,
                rope,
                v,
                ..
            } => Some(Mla {
                q_lora_rank,
                kv_lora_rank,
                qk_nope_head_dim: nope,
                qk_rope_head_dim: rope,
                v_head_dim: v,
            }),
        }
    }
}

impl HfConfig {
    /// The attention of the family, with its checks.
    pub(super) fn attention(
        &self,
        family: HfFamily,
        h: u32,
        heads: u32,
    ) -> Result<Attention, PlanError> {
        use HfFamily as F;
        let bias = self.attention_bias == Some(true);
        let head_dim_field = key!("head_dim");
        let head_dim = || match family {
            // Qwen3's default head_dim (128) is not h / a: the config must say.
            F::Qwen3 | F::Qwen3Moe => required(self.head_dim, head_dim_field),
            _ => at_least_one(self.head_dim.unwrap_or(h / heads), head_dim_field),
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
                q_lora_rank: required_nullable(self.q_lora_rank, key!("q_lora_rank"))?,
                kv_lora_rank: required(self.kv_lora_rank, key!("kv_lora_rank"))?,
                nope: required(self.qk_nope_head_dim, key!("qk_nope_head_dim"))?,
                rope: required(self.qk_rope_head_dim, key!("qk_rope_head_dim"))?,
                v: required(self.v_head_dim, key!("v_head_dim"))?,
                bias,
            },
        })
    }
}
