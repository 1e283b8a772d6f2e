//! A model given field by field in a config ([`InlineModel`], SPEC §8): its defaults and its
//! checks, each naming the field as `model.<field>`.

use serde::{Deserialize, Serialize};

use super::shape::{count_params, LinearAttention, Mla, Mlp, Model, Moe};
use crate::checks::{at_least_one_or, required};
use crate::config::{Field, ModelField};
use crate::error::PlanError;

/// How far a given `params` may exceed its shape's count ([`count_params`]): ten times, as far
/// as a card's figures may go beyond the known cards ([`crate::bounds::MARGIN`]).
pub const PARAMS_ABOVE_SHAPE: f64 = crate::bounds::MARGIN;

/// A model given inline in a config (SPEC §8), before defaults and checks.
///
/// `params` is counted with [`count_params`] when absent; `kv_heads` defaults to `heads`,
/// `head_dim` to hidden/heads, `full_attention_layers` to `layers`. `kv_lora_rank` and
/// `qk_rope_head_dim` describe multi-head latent attention (both or neither; `q_lora_rank`,
/// `qk_nope_head_dim` and `v_head_dim` with them): the KV cache of rollout engines (SPEC §15)
/// then holds their sum per layer and token. The `linear_*` fields describe the layers other
/// than the F full-attention ones (Gated DeltaNet), defaulting to Qwen3-Next's.
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
    /// MLA's compressed query rank (absent: queries projected from h directly).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub q_lora_rank: Option<u32>,
    /// MLA's query and key dimension without RoPE, per head (default: head_dim).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qk_nope_head_dim: Option<u32>,
    /// MLA's value dimension per head (default: head_dim).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v_head_dim: Option<u32>,
    /// Linear attention's query and key heads (default 16, as the four below: Qwen3-Next's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linear_num_key_heads: Option<u32>,
    /// Linear attention's value heads, a multiple of its key heads (default 32).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linear_num_value_heads: Option<u32>,
    /// Linear attention's query and key dimension (default 128).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linear_key_head_dim: Option<u32>,
    /// Linear attention's value dimension (default 128).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linear_value_head_dim: Option<u32>,
    /// Linear attention's convolution kernel (default 4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linear_conv_kernel_dim: Option<u32>,
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
        // Each head reads at least one of the hidden size's dimensions, and a KV head serves
        // at least one query head: more is not a model.
        for (value, field, of, of_field) in [
            (heads, ModelField::Heads, hidden, ModelField::Hidden),
            (kv_heads, ModelField::KvHeads, heads, ModelField::Heads),
        ] {
            if value > of {
                return Err(PlanError::AboveField {
                    field: Field::InlineModel(field),
                    value,
                    of_field: Field::InlineModel(of_field),
                    of,
                });
            }
        }
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
        let mla = self.mla(head_dim)?;
        let linear = if full_attention_layers < layers {
            Some(self.linear()?)
        } else {
            None
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
            linear,
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
        // A given total holds at least what the shape fixes and the formulas take out of it
        // (one embedding matrix V·h, the norms (2L + 1)·h, the routers and the routed
        // experts), and at most ten times what its shape counts (`bounds::MARGIN`): the parts
        // the counter does not model (biases, extra norms, an unpublished linear attention)
        // are a few percent, 14% for the anchor.
        let h = f64::from(hidden);
        let routers = moe.map_or(0.0, |m| f64::from(m.moe_layers) * h * f64::from(m.experts));
        let floor = f64::from(model.vocab) * h
            + (2.0 * f64::from(layers) + 1.0) * h
            + routers
            + model.routed_params();
        let ceiling = PARAMS_ABOVE_SHAPE * count_params(&model);
        if model.params < floor || model.params > ceiling {
            return Err(PlanError::ParamsOffShape {
                got: model.params,
                floor,
                ceiling,
            });
        }
        Ok(model)
    }

    /// MLA's dimensions, when `kv_lora_rank` or `qk_rope_head_dim` is given (both then are
    /// needed); the head dimensions default to `head_dim`. An MLA dimension without them is
    /// named, never dropped.
    fn mla(&self, head_dim: u32) -> Result<Option<Mla>, PlanError> {
        let field = Field::InlineModel;
        if self.kv_lora_rank.is_none() && self.qk_rope_head_dim.is_none() {
            let given = [
                (self.q_lora_rank, ModelField::QLoraRank),
                (self.qk_nope_head_dim, ModelField::QkNopeHeadDim),
                (self.v_head_dim, ModelField::VHeadDim),
            ]
            .into_iter()
            .find(|(value, _)| value.is_some());
            return match given {
                Some((_, f)) => Err(PlanError::WithoutMla { field: field(f) }),
                None => Ok(None),
            };
        }
        Ok(Some(Mla {
            q_lora_rank: match self.q_lora_rank {
                Some(rank) => Some(at_least_one_or(
                    Some(rank),
                    field(ModelField::QLoraRank),
                    1,
                )?),
                None => None,
            },
            kv_lora_rank: required(self.kv_lora_rank, field(ModelField::KvLoraRank))?,
            qk_nope_head_dim: at_least_one_or(
                self.qk_nope_head_dim,
                field(ModelField::QkNopeHeadDim),
                head_dim,
            )?,
            qk_rope_head_dim: required(self.qk_rope_head_dim, field(ModelField::QkRopeHeadDim))?,
            v_head_dim: at_least_one_or(self.v_head_dim, field(ModelField::VHeadDim), head_dim)?,
        }))
    }

    /// The linear-attention layers' dimensions, each defaulting to Qwen3-Next's; value heads
    /// a multiple of key heads (Megatron-LM's `TransformerConfig` checks the same).
    fn linear(&self) -> Result<LinearAttention, PlanError> {
        let d = LinearAttention::QWEN3_NEXT;
        let one = |v, f, default| at_least_one_or(v, Field::InlineModel(f), default);
        let la = LinearAttention {
            key_heads: one(
                self.linear_num_key_heads,
                ModelField::LinearNumKeyHeads,
                d.key_heads,
            )?,
            value_heads: one(
                self.linear_num_value_heads,
                ModelField::LinearNumValueHeads,
                d.value_heads,
            )?,
            key_head_dim: one(
                self.linear_key_head_dim,
                ModelField::LinearKeyHeadDim,
                d.key_head_dim,
            )?,
            value_head_dim: one(
                self.linear_value_head_dim,
                ModelField::LinearValueHeadDim,
                d.value_head_dim,
            )?,
            conv_kernel: one(
                self.linear_conv_kernel_dim,
                ModelField::LinearConvKernelDim,
                d.conv_kernel,
            )?,
        };
        if la.value_heads % la.key_heads != 0 {
            return Err(PlanError::NotAMultiple {
                field: Field::InlineModel(ModelField::LinearNumValueHeads),
                value: la.value_heads,
                of_field: Field::InlineModel(ModelField::LinearNumKeyHeads),
                of: la.key_heads,
            });
        }
        Ok(la)
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

    /// A small model with both kinds of attention, its figures counted by hand.
    fn small(extra: InlineModel) -> Result<Model, PlanError> {
        InlineModel {
            hidden: Some(256),
            heads: Some(4),
            head_dim: Some(64),
            ffn: Some(512),
            vocab: Some(1000),
            tied_embeddings: true,
            ..extra
        }
        .resolve()
    }

    #[test]
    fn linear_attention_layers_count_as_gated_deltanet() {
        // 4 layers, 1 full: embeddings 256,000; attention 262,144; three GDN layers of
        // in_proj 256·(2·64 + 2·128 + 2·4) = 100,352, conv 4·(2·64 + 128) = 1,024, out_proj
        // 128·256 = 32,768 and dt_bias, A_log, out norm 2·4 + 32 = 40; norms 2,048; MLPs
        // 1,572,864; final norm 256.
        let m = small(InlineModel {
            layers: Some(4),
            full_attention_layers: Some(1),
            linear_num_key_heads: Some(2),
            linear_num_value_heads: Some(4),
            linear_key_head_dim: Some(32),
            linear_value_head_dim: Some(32),
            ..InlineModel::default()
        })
        .expect("valid");
        assert_eq!(m.params, 2_495_864.0);
        // FLOPs leave out the norms (9·256) and the gates and output norm (3·40).
        assert_eq!(m.matmul_params(), 2_495_864.0 - 2_304.0 - 120.0);
        // Unspecified, the linear layers are Qwen3-Next's.
        let default = small(InlineModel {
            layers: Some(4),
            full_attention_layers: Some(1),
            ..InlineModel::default()
        })
        .expect("valid");
        assert_eq!(default.linear, Some(LinearAttention::QWEN3_NEXT));
        let err = small(InlineModel {
            layers: Some(4),
            full_attention_layers: Some(1),
            linear_num_key_heads: Some(16),
            linear_num_value_heads: Some(24),
            ..InlineModel::default()
        })
        .unwrap_err();
        assert_eq!(
            err.field(),
            Field::InlineModel(ModelField::LinearNumValueHeads)
        );
    }

    #[test]
    fn mla_layers_count_as_deepseek_builds_them() {
        // 2 layers: q 48·(256 + 4·(64 + 16) + 1) = 27,696; kv 32·(256 + 4·128 + 1) = 24,608
        // and the RoPE key 256·16 = 4,096; o 4·64·256 = 65,536; embeddings 256,000, norms
        // 1,024, MLPs 786,432, final norm 256.
        let mla = InlineModel {
            layers: Some(2),
            kv_lora_rank: Some(32),
            qk_rope_head_dim: Some(16),
            q_lora_rank: Some(48),
            ..InlineModel::default()
        };
        let m = small(mla.clone()).expect("valid");
        assert_eq!(m.params, 1_287_584.0);
        assert_eq!(m.attention_head_dim(), (64.0 + 16.0 + 64.0) / 2.0);
        // Without a query rank, q is h·a·(n + r) = 81,920 instead.
        let direct = small(InlineModel {
            q_lora_rank: None,
            ..mla
        })
        .expect("valid");
        assert_eq!(direct.params, 1_287_584.0 + 2.0 * (81_920.0 - 27_696.0));
        // An MLA dimension without MLA is named.
        let err = small(InlineModel {
            layers: Some(2),
            v_head_dim: Some(128),
            ..InlineModel::default()
        })
        .unwrap_err();
        assert_eq!(err.field(), Field::InlineModel(ModelField::VHeadDim));
    }

    #[test]
    fn deepseek_v3_counts_within_its_published_total() {
        let v3 = Preset::DeepseekV3.model();
        assert_eq!(count_params(&v3), 671_026_404_352.0);
        assert!((count_params(&v3) - v3.params).abs() / v3.params < 1e-4);
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
