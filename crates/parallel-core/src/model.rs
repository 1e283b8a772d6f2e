//! Model shapes: the presets of SPEC §8, inline models, and the parameter counter.
//!
//! A [`Model`] is what the formulas read: total parameters P, hidden size h, layers L, full
//! attention layers F, heads a, KV heads, head dim, and the MoE part when there is one.

use core::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::PlanError;

/// A named model of the lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Qwen3.8-27B, the lesson's anchor: dense, 64 layers of which 16 full attention.
    Qwen38_27b,
    /// Llama 3 405B (dense, GQA with 8 KV heads).
    Llama3_405b,
    /// DeepSeek-V3 (MoE: 3 dense + 58 MoE layers, 256 routed experts, top-8).
    DeepseekV3,
}

impl Preset {
    /// Every preset, in the order they are listed to users.
    pub const ALL: [Preset; 3] = [Preset::Qwen38_27b, Preset::Llama3_405b, Preset::DeepseekV3];

    /// The id used in configs and links, e.g. `"qwen3.8-27b"`.
    pub const fn id(self) -> &'static str {
        match self {
            Preset::Qwen38_27b => "qwen3.8-27b",
            Preset::Llama3_405b => "llama3-405b",
            Preset::DeepseekV3 => "deepseek-v3",
        }
    }

    /// The display name, e.g. `"Qwen3.8-27B"`.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Qwen38_27b => "Qwen3.8-27B",
            Preset::Llama3_405b => "Llama 3 405B",
            Preset::DeepseekV3 => "DeepSeek-V3",
        }
    }

    /// Looks a preset up by its id.
    ///
    /// ```
    /// use parallel_core::Preset;
    /// assert_eq!(Preset::from_id("llama3-405b"), Some(Preset::Llama3_405b));
    /// assert_eq!(Preset::from_id("gpt-5"), None);
    /// ```
    pub fn from_id(id: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.id() == id)
    }

    /// The ids of every preset, comma separated (for error messages).
    pub fn valid_ids() -> String {
        Preset::ALL.map(Preset::id).join(", ")
    }

    /// The model this preset stands for.
    pub const fn model(self) -> Model {
        match self {
            // SPEC §8: the official count, used as given (linear attention is not modelled
            // by the counter).
            Preset::Qwen38_27b => Model {
                params: 27_781_427_952.0,
                hidden: 5120,
                layers: 64,
                full_attention_layers: 16,
                heads: 24,
                kv_heads: 4,
                head_dim: 256,
                ffn: 17_408,
                vocab: 248_320,
                tied_embeddings: false,
                moe: None,
            },
            // Counted by `count_params`: 405,853,388,800 (checked in tests).
            Preset::Llama3_405b => Model {
                params: 405_853_388_800.0,
                hidden: 16_384,
                layers: 126,
                full_attention_layers: 126,
                heads: 128,
                kv_heads: 8,
                head_dim: 128,
                ffn: 53_248,
                vocab: 128_256,
                tied_embeddings: false,
                moe: None,
            },
            // Published total (MLA is not modelled by the counter). KV heads and head dim
            // stand in for MLA's compressed cache in the CP formula.
            Preset::DeepseekV3 => Model {
                params: 671e9,
                hidden: 7168,
                layers: 61,
                full_attention_layers: 61,
                heads: 128,
                kv_heads: 128,
                head_dim: 128,
                ffn: 18_432,
                vocab: 129_280,
                tied_embeddings: false,
                moe: Some(Moe {
                    moe_layers: 58,
                    experts: 256,
                    top_k: 8,
                    expert_ffn: 2048,
                    shared_experts: 1,
                }),
            },
        }
    }
}

/// The mixture-of-experts part of a model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moe {
    /// Layers whose MLP is a set of experts (the others are dense).
    pub moe_layers: u32,
    /// Routed experts per MoE layer.
    pub experts: u32,
    /// Experts each token is routed to.
    pub top_k: u32,
    /// FFN width of one expert.
    pub expert_ffn: u32,
    /// Shared (always active) experts per MoE layer.
    pub shared_experts: u32,
}

/// A resolved model: every figure the formulas need.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// Total parameters P.
    pub params: f64,
    /// Hidden size h.
    pub hidden: u32,
    /// Transformer layers L.
    pub layers: u32,
    /// Layers with full (softmax) attention F; the rest are linear attention.
    pub full_attention_layers: u32,
    /// Attention heads a.
    pub heads: u32,
    /// Key/value heads.
    pub kv_heads: u32,
    /// Dimension of one head.
    pub head_dim: u32,
    /// FFN width of the dense MLP.
    pub ffn: u32,
    /// Vocabulary size V.
    pub vocab: u32,
    /// Whether the output head shares the embedding matrix.
    pub tied_embeddings: bool,
    /// The MoE part, `None` for a dense model.
    pub moe: Option<Moe>,
}

impl Model {
    /// Whether the model has experts (SPEC §8: `experts` and `moe_layers` both above 0).
    pub fn is_moe(&self) -> bool {
        self.moe.is_some()
    }

    /// Routed expert parameters, P_routed = moe_layers · experts · 3 · h · expert_ffn
    /// (SPEC §8; 0 for a dense model). DeepSeek-V3: 58·256·3·7168·2048 ≈ 653.9e9.
    ///
    /// ```
    /// use parallel_core::Preset;
    /// let routed = Preset::DeepseekV3.model().routed_params();
    /// assert_eq!((routed / 1e8).round() / 10.0, 653.9);
    /// ```
    pub fn routed_params(&self) -> f64 {
        match self.moe {
            Some(m) => {
                f64::from(m.moe_layers)
                    * f64::from(m.experts)
                    * 3.0
                    * f64::from(self.hidden)
                    * f64::from(m.expert_ffn)
            }
            None => 0.0,
        }
    }

    /// Layers with a dense MLP, L − moe_layers.
    pub fn dense_layers(&self) -> u32 {
        self.layers - self.moe.map_or(0, |m| m.moe_layers)
    }
}

/// Counts the parameters of a model from its shape (SPEC §8).
///
/// Embeddings V·h, an untied output head V·h (none when tied); per layer: attention
/// h·a·hd (q) + 2·h·kv·hd (k, v) + a·hd·h (o), a gated MLP 3·h·ffn (MoE layers:
/// (experts + shared)·3·h·expert_ffn plus a router h·experts), two norms of h; a final norm
/// of h; no biases. MLA and linear attention are not modelled: presets that use them carry
/// their published total.
///
/// ```
/// use parallel_core::{count_params, Preset};
/// assert_eq!(count_params(&Preset::Llama3_405b.model()), 405_853_388_800.0);
/// ```
pub fn count_params(m: &Model) -> f64 {
    let h = f64::from(m.hidden);
    let hd = f64::from(m.head_dim);
    let a = f64::from(m.heads);
    let kv = f64::from(m.kv_heads);
    let vocab = f64::from(m.vocab);
    let embeddings = vocab * h * if m.tied_embeddings { 1.0 } else { 2.0 };
    let attention = h * a * hd + 2.0 * h * kv * hd + a * hd * h;
    let norms = 2.0 * h;
    let dense_mlp = 3.0 * h * f64::from(m.ffn);
    let dense_layers = f64::from(m.dense_layers());
    let mut total =
        embeddings + f64::from(m.layers) * (attention + norms) + dense_layers * dense_mlp + h;
    if let Some(moe) = m.moe {
        let experts = f64::from(moe.experts);
        let per_layer =
            (experts + f64::from(moe.shared_experts)) * 3.0 * h * f64::from(moe.expert_ffn)
                + h * experts;
        total += f64::from(moe.moe_layers) * per_layer;
    }
    total
}

/// A model given inline in a config (SPEC §8), before defaults and checks.
///
/// `params` is counted with [`count_params`] when absent; `kv_heads` defaults to `heads`,
/// `head_dim` to hidden/heads, `full_attention_layers` to `layers`.
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
}

fn required(value: Option<u32>, field: &'static str) -> Result<u32, PlanError> {
    match value {
        None => Err(PlanError::Missing { field }),
        Some(0) => Err(PlanError::BelowOne { field }),
        Some(v) => Ok(v),
    }
}

fn at_least_one(value: Option<u32>, field: &'static str, default: u32) -> Result<u32, PlanError> {
    match value {
        Some(0) => Err(PlanError::BelowOne { field }),
        Some(v) => Ok(v),
        None => Ok(default),
    }
}

impl InlineModel {
    /// Applies the defaults of SPEC §8 and checks every field, naming it as `model.<field>`.
    pub fn resolve(&self) -> Result<Model, PlanError> {
        let hidden = required(self.hidden, "model.hidden")?;
        let layers = required(self.layers, "model.layers")?;
        let heads = required(self.heads, "model.heads")?;
        let kv_heads = at_least_one(self.kv_heads, "model.kv_heads", heads)?;
        let head_dim = at_least_one(self.head_dim, "model.head_dim", (hidden / heads).max(1))?;
        let full_attention_layers = self.full_attention_layers.unwrap_or(layers);
        if full_attention_layers > layers {
            return Err(PlanError::MoreThanLayers {
                field: "model.full_attention_layers",
                value: full_attention_layers,
                layers,
            });
        }
        let moe_layers = self.moe_layers.unwrap_or(0);
        let experts = self.experts.unwrap_or(0);
        let moe = if moe_layers > 0 && experts > 0 {
            if moe_layers > layers {
                return Err(PlanError::MoreThanLayers {
                    field: "model.moe_layers",
                    value: moe_layers,
                    layers,
                });
            }
            let top_k = required(self.top_k, "model.top_k")?;
            if top_k > experts {
                return Err(PlanError::TopKAboveExperts { top_k, experts });
            }
            Some(Moe {
                moe_layers,
                experts,
                top_k,
                expert_ffn: required(self.expert_ffn, "model.expert_ffn")?,
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
                required(self.ffn, "model.ffn")?
            };
            (ffn, required(self.vocab, "model.vocab")?)
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
            vocab,
            tied_embeddings: self.tied_embeddings,
            moe,
        };
        model.params = match self.params {
            Some(0) => {
                return Err(PlanError::BelowOne {
                    field: "model.params",
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

/// The `model` field of a config: a preset id or an inline model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelChoice {
    /// One of [`Preset::ALL`], written as its id.
    Preset(Preset),
    /// A model given field by field.
    Inline(InlineModel),
}

impl Default for ModelChoice {
    fn default() -> Self {
        ModelChoice::Preset(Preset::Qwen38_27b)
    }
}

impl ModelChoice {
    /// The model with defaults applied, or the first problem of an inline model.
    pub fn resolve(&self) -> Result<Model, PlanError> {
        match self {
            ModelChoice::Preset(p) => Ok(p.model()),
            ModelChoice::Inline(m) => m.resolve(),
        }
    }

    /// A short label: the preset's name, or "custom model".
    pub fn label(&self) -> &'static str {
        match self {
            ModelChoice::Preset(p) => p.name(),
            ModelChoice::Inline(_) => "custom model",
        }
    }
}

impl Serialize for ModelChoice {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ModelChoice::Preset(p) => serializer.serialize_str(p.id()),
            ModelChoice::Inline(m) => m.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for ModelChoice {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ChoiceVisitor;

        impl<'de> Visitor<'de> for ChoiceVisitor {
            type Value = ModelChoice;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(
                    f,
                    "a preset id ({}) or an inline model object",
                    Preset::valid_ids()
                )
            }

            fn visit_str<E: de::Error>(self, id: &str) -> Result<ModelChoice, E> {
                Preset::from_id(id).map(ModelChoice::Preset).ok_or_else(|| {
                    E::custom(format!(
                        "unknown preset \"{id}\"; valid: {}",
                        Preset::valid_ids()
                    ))
                })
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ModelChoice, A::Error> {
                InlineModel::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(ModelChoice::Inline)
            }
        }

        deserializer.deserialize_any(ChoiceVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llama3_405b_counts_to_the_published_figure() {
        assert_eq!(
            count_params(&Preset::Llama3_405b.model()),
            405_853_388_800.0
        );
    }

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
        assert_eq!(err.field(), "model.layers");
    }
}
