//! A model given field by field in a config ([`InlineModel`], SPEC §8): its defaults and its
//! checks, each naming the field as `model.<field>`.

use serde::{Deserialize, Serialize};

use super::shape::{count_params, Mla, Mlp, Model, Moe};
use crate::checks::{at_least_one_or, required};
use crate::config::{Field, ModelField};
use crate::error::PlanError;

/// A model given inline in a config (SPEC §8), before defaults and checks.
///
/// `params` is counted with [`count_params`] when absent; `kv_heads` defaults to `heads`,
/// `head_dim` to hidden/heads, `full_attention_layers` to `layers`. `kv_lora_rank` and
/// `qk_rope_head_dim` describe multi-head latent attention (both or neither): the KV cache of
/// rollout engines (SPEC §15) then holds their sum per layer and token.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InlineModel {
    /// Total parameters (counted from the shape when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<u64>,
    /// Hidden size h (required).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<u32>,
    /// Layers L (required).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layers: Option<u32>,
    /// Attention heads a (required).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heads: Option<u32>,
    /// KV heads (default: heads).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_heads: Option<u32>,
    /// Head dimension (default: hidden / heads).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_dim: Option<u32>,
    /// Full-attention layers F (default: layers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full_attention_layers: Option<u32>,
    /// Dense FFN width (required when params is absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ffn: Option<u32>,
    /// The dense MLP's kind (default gated; `"plain"` for GPT's h → ffn → h).
    #[serde(skip_serializing_if = "Mlp::is_gated")]
    pub mlp: Mlp,
    /// Vocabulary (required when params is absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vocab: Option<u32>,
    /// Output head tied to the embeddings (default false).
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub tied_embeddings: bool,
    /// MoE layers (MoE when this and `experts` are above 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moe_layers: Option<u32>,
    /// Routed experts per MoE layer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub experts: Option<u32>,
    /// Experts per token.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_k: Option<u32>,
    /// FFN width of one expert.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expert_ffn: Option<u32>,
    /// Shared experts per MoE layer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared_experts: Option<u32>,
    /// MLA's compressed KV latent rank (absent: standard attention).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_lora_rank: Option<u32>,
    /// MLA's decoupled RoPE key dimension (needed with `kv_lora_rank`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qk_rope_head_dim: Option<u32>,
}

impl InlineModel {
    /// Applies the defaults of SPEC §8 and checks every field, naming it as `model.<field>`.
    pub fn resolve(&self) -> Result<Model, PlanError> {
        let hidden = required(self.hidden, Field::InlineModel(ModelField::Hidden))?;
        let layers = required(self.layers, Field::InlineModel(ModelField::Layers))?;
        let heads = required(self.heads, Field::InlineModel(ModelField::Heads))?;
        let kv_heads = at_least_one_or(
            self.kv_heads,
            Field::InlineModel(ModelField::KvHeads),
            heads,
        )?;
        let head_dim = at_least_one_or(
            self.head_dim,
            Field::InlineModel(ModelField::HeadDim),
            (hidden / heads).max(1),
        )?;
        let full_attention_layers = self.full_attention_layers.unwrap_or(layers);
        if full_attention_layers > layers {
            return Err(PlanError::MoreThanLayers {
                field: Field::InlineModel(ModelField::FullAttentionLayers),
                value: full_attention_layers,
                layers,
            });
        }
        let moe_layers = self.moe_layers.unwrap_or(0);
        let experts = self.experts.unwrap_or(0);
        let moe = if moe_layers > 0 && experts > 0 {
            if moe_layers > layers {
                return Err(PlanError::MoreThanLayers {
                    field: Field::InlineModel(ModelField::MoeLayers),
                    value: moe_layers,
                    layers,
                });
            }
            let top_k = required(self.top_k, Field::InlineModel(ModelField::TopK))?;
            if top_k > experts {
                return Err(PlanError::TopKAboveExperts { top_k, experts });
            }
            Some(Moe {
                moe_layers,
                experts,
                top_k,
                expert_ffn: required(self.expert_ffn, Field::InlineModel(ModelField::ExpertFfn))?,
                shared_experts: self.shared_experts.unwrap_or(0),
            })
        } else {
            None
        };
        let (ffn, vocab) = if self.params.is_some() {
            (self.ffn.unwrap_or(0), self.vocab.unwrap_or(0))
        } else {
            let ffn = if moe.is_some_and(|m| m.moe_layers == layers) {
                self.ffn.unwrap_or(0)
            } else {
                required(self.ffn, Field::InlineModel(ModelField::Ffn))?
            };
            (
                ffn,
                required(self.vocab, Field::InlineModel(ModelField::Vocab))?,
            )
        };
        let mla = match (self.kv_lora_rank, self.qk_rope_head_dim) {
            (None, None) => None,
            (rank, rope) => Some(Mla {
                kv_lora_rank: required(rank, Field::InlineModel(ModelField::KvLoraRank))?,
                qk_rope_head_dim: required(rope, Field::InlineModel(ModelField::QkRopeHeadDim))?,
            }),
        };
        let mut model = Model {
            params: 0.0,
            hidden,
            layers,
            full_attention_layers,
            heads,
            kv_heads,
            head_dim,
            ffn,
            mlp: self.mlp,
            vocab,
            tied_embeddings: self.tied_embeddings,
            moe,
            mla,
        };
        model.params = match self.params {
            Some(0) => {
                return Err(PlanError::BelowOne {
                    field: Field::InlineModel(ModelField::Params),
                })
            }
            Some(p) => p as f64,
            None => count_params(&model),
        };
        if model.routed_params() > model.params {
            return Err(PlanError::ParamsBelowRouted);
        }
        Ok(model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Preset;

    #[test]
    fn inline_model_defaults() {
        let inline = InlineModel {
            params: Some(7_500_000_000),
            hidden: Some(4096),
            layers: Some(32),
            heads: Some(32),
            ffn: Some(16384),
            vocab: Some(32000),
            ..InlineModel::default()
        };
        let m = inline.resolve().expect("valid");
        assert_eq!(
            (m.kv_heads, m.head_dim, m.full_attention_layers),
            (32, 128, 32)
        );
        assert!(!m.is_moe());
    }

    #[test]
    fn inline_model_without_params_is_counted() {
        let llama = Preset::Llama3_405b.model();
        let inline = InlineModel {
            hidden: Some(llama.hidden),
            layers: Some(llama.layers),
            heads: Some(llama.heads),
            kv_heads: Some(llama.kv_heads),
            head_dim: Some(llama.head_dim),
            ffn: Some(llama.ffn),
            vocab: Some(llama.vocab),
            ..InlineModel::default()
        };
        assert_eq!(inline.resolve().expect("valid").params, 405_853_388_800.0);
    }

    #[test]
    fn inline_model_names_the_missing_field() {
        let err = InlineModel {
            hidden: Some(64),
            ..InlineModel::default()
        }
        .resolve()
        .unwrap_err();
        assert_eq!(err.field(), Field::InlineModel(ModelField::Layers));
    }
}
