//! Model shapes: the presets of SPEC §8, inline models, and the parameter counter.
//!
//! A [`Model`] is what the formulas read: total parameters P, hidden size h, layers L, full
//! attention layers F, heads a, KV heads, head dim, and the MoE part when there is one.

use core::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::PlanError;
use crate::hf::HfConfig;

/// A named model of the lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Qwen3.8-27B, the lesson's anchor: dense, 64 layers of which 16 full attention.
    Qwen38_27b,
    /// Llama 3 405B (dense, GQA with 8 KV heads).
    Llama3_405b,
    /// DeepSeek-V3 (MoE: 3 dense + 58 MoE layers, 256 routed experts, top-8).
    DeepseekV3,
    /// Llama 3 8B (dense, GQA with 8 KV heads), from its `config.json` (SPEC §13).
    Llama3_8b,
    /// Llama 3 70B (dense, GQA with 8 KV heads), from its `config.json` (SPEC §13).
    Llama3_70b,
    /// Mixtral 8x7B (MoE: every layer 8 experts, top-2), from its `config.json` (SPEC §13).
    Mixtral8x7b,
    /// Qwen3-30B-A3B (MoE: every layer 128 experts, top-8), from its `config.json` (SPEC §13).
    Qwen3_30bA3b,
}

impl Preset {
    /// Every preset, in the order they are listed to users: the anchor, then dense models by
    /// size, then MoE models by size.
    pub const ALL: [Preset; 7] = [
        Preset::Qwen38_27b,
        Preset::Llama3_8b,
        Preset::Llama3_70b,
        Preset::Llama3_405b,
        Preset::Qwen3_30bA3b,
        Preset::Mixtral8x7b,
        Preset::DeepseekV3,
    ];

    /// The id used in configs and links, e.g. `"qwen3.8-27b"`.
    pub const fn id(self) -> &'static str {
        match self {
            Preset::Qwen38_27b => "qwen3.8-27b",
            Preset::Llama3_405b => "llama3-405b",
            Preset::DeepseekV3 => "deepseek-v3",
            Preset::Llama3_8b => "llama3-8b",
            Preset::Llama3_70b => "llama3-70b",
            Preset::Mixtral8x7b => "mixtral-8x7b",
            Preset::Qwen3_30bA3b => "qwen3-30b-a3b",
        }
    }

    /// The display name, e.g. `"Qwen3.8-27B"`.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Qwen38_27b => "Qwen3.8-27B",
            Preset::Llama3_405b => "Llama 3 405B",
            Preset::DeepseekV3 => "DeepSeek-V3",
            Preset::Llama3_8b => "Llama 3 8B",
            Preset::Llama3_70b => "Llama 3 70B",
            Preset::Mixtral8x7b => "Mixtral 8x7B",
            Preset::Qwen3_30bA3b => "Qwen3-30B-A3B",
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
            // The presets below are what `hf::HfConfig::to_model` reads from the models'
            // published `config.json` files (tests/hf_configs.rs checks field by field).
            // Published total, counted exactly by `count_params` too.
            Preset::Llama3_8b => Model {
                params: 8_030_261_248.0,
                hidden: 4096,
                layers: 32,
                full_attention_layers: 32,
                heads: 32,
                kv_heads: 8,
                head_dim: 128,
                ffn: 14_336,
                vocab: 128_256,
                tied_embeddings: false,
                moe: None,
            },
            // Published total, counted exactly by `count_params` too.
            Preset::Llama3_70b => Model {
                params: 70_553_706_496.0,
                hidden: 8192,
                layers: 80,
                full_attention_layers: 80,
                heads: 64,
                kv_heads: 8,
                head_dim: 128,
                ffn: 28_672,
                vocab: 128_256,
                tied_embeddings: false,
                moe: None,
            },
            // Published total, counted exactly by `count_params` too (router h·8 per layer).
            // No dense MLP: `intermediate_size` 14,336 is the width of each expert.
            Preset::Mixtral8x7b => Model {
                params: 46_702_792_704.0,
                hidden: 4096,
                layers: 32,
                full_attention_layers: 32,
                heads: 32,
                kv_heads: 8,
                head_dim: 128,
                ffn: 0,
                vocab: 32_000,
                tied_embeddings: false,
                moe: Some(Moe {
                    moe_layers: 32,
                    experts: 8,
                    top_k: 2,
                    expert_ffn: 14_336,
                    shared_experts: 0,
                }),
            },
            // Published 30.5B total, 3.3B active: the exact count of `hf`, which adds
            // Qwen3's q_norm and k_norm (2·128 per layer) to `count_params`. No dense layer.
            Preset::Qwen3_30bA3b => Model {
                params: 30_532_122_624.0,
                hidden: 2048,
                layers: 48,
                full_attention_layers: 48,
                heads: 32,
                kv_heads: 4,
                head_dim: 128,
                ffn: 0,
                vocab: 151_936,
                tied_embeddings: false,
                moe: Some(Moe {
                    moe_layers: 48,
                    experts: 128,
                    top_k: 8,
                    expert_ffn: 768,
                    shared_experts: 0,
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

    /// Active parameters per token, P_act = P − P_routed·(1 − top_k/experts) (SPEC §12; P for
    /// a dense model): the routed experts a token skips are taken out.
    ///
    /// ```
    /// use parallel_core::Preset;
    /// let qwen = Preset::Qwen3_30bA3b.model();
    /// assert_eq!(qwen.active_params(), 3_353_032_704.0); // published: 3.3B active
    /// ```
    pub fn active_params(&self) -> f64 {
        match self.moe {
            Some(m) => {
                self.params
                    - self.routed_params() * (1.0 - f64::from(m.top_k) / f64::from(m.experts))
            }
            None => self.params,
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

/// A field that must be present and at least 1 (inline models and config.json alike).
pub(crate) fn required(value: Option<u32>, field: &'static str) -> Result<u32, PlanError> {
    match value {
        None => Err(PlanError::Missing { field }),
        Some(0) => Err(PlanError::BelowOne { field }),
        Some(v) => Ok(v),
    }
}

/// A field that may be absent (then `default`) but not 0.
pub(crate) fn at_least_one(
    value: Option<u32>,
    field: &'static str,
    default: u32,
) -> Result<u32, PlanError> {
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

/// The `model` field of a config: a preset id, an inline model, or a Hugging Face
/// `config.json` written as `{"hf_config": {...}}` (SPEC §13).
///
/// ```
/// use parallel_core::{ModelChoice, Preset};
/// let choice: ModelChoice = serde_json::from_str(r#""llama3-8b""#).unwrap();
/// assert_eq!(choice, ModelChoice::Preset(Preset::Llama3_8b));
/// let hf: ModelChoice = serde_json::from_str(
///     r#"{"hf_config": {"architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
///         "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
///         "intermediate_size": 14336, "vocab_size": 128256}}"#,
/// ).unwrap();
/// assert_eq!(hf.resolve().unwrap(), Preset::Llama3_8b.model());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelChoice {
    /// One of [`Preset::ALL`], written as its id.
    Preset(Preset),
    /// A model given field by field.
    Inline(InlineModel),
    /// A Hugging Face `config.json`, read by [`HfConfig::to_model`]; written as
    /// `{"hf_config": {...}}`.
    HfConfig(Box<HfConfig>),
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
            ModelChoice::HfConfig(c) => c.to_model()?.model.resolve(),
        }
    }

    /// A short label: the preset's name, "custom model", or the family of a `config.json`
    /// (e.g. "Llama (config.json)").
    pub fn label(&self) -> &'static str {
        match self {
            ModelChoice::Preset(p) => p.name(),
            ModelChoice::Inline(_) => "custom model",
            ModelChoice::HfConfig(c) => c.family().map_or("config.json model", |f| f.label()),
        }
    }
}

impl Serialize for ModelChoice {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ModelChoice::Preset(p) => serializer.serialize_str(p.id()),
            ModelChoice::Inline(m) => m.serialize(serializer),
            ModelChoice::HfConfig(c) => {
                use serde::ser::SerializeMap;
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry(HF_CONFIG_KEY, c)?;
                map.end()
            }
        }
    }
}

/// The one key of the `{"hf_config": {...}}` form.
const HF_CONFIG_KEY: &str = "hf_config";

/// A map whose first key was already read (to tell `{"hf_config": ...}` from an inline
/// model): yields that key again, then the rest of the map.
struct FirstKeyAgain<A> {
    first: Option<String>,
    rest: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for FirstKeyAgain<A> {
    type Error = A::Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.first.take() {
            Some(key) => seed
                .deserialize(de::value::StringDeserializer::<A::Error>::new(key))
                .map(Some),
            None => self.rest.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, A::Error> {
        self.rest.next_value_seed(seed)
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
                    "a preset id ({}), an inline model object or {{\"hf_config\": {{...}}}}",
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

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ModelChoice, A::Error> {
                let first: Option<String> = map.next_key()?;
                if first.as_deref() == Some(HF_CONFIG_KEY) {
                    let config: HfConfig = map.next_value()?;
                    if let Some(other) = map.next_key::<String>()? {
                        return Err(de::Error::custom(format!(
                            "`{other}` next to `hf_config`: a config.json model takes no other field"
                        )));
                    }
                    return Ok(ModelChoice::HfConfig(Box::new(config)));
                }
                InlineModel::deserialize(de::value::MapAccessDeserializer::new(FirstKeyAgain {
                    first,
                    rest: map,
                }))
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
    fn config_json_presets_count_as_published() {
        // SPEC §13: exact published totals, which the §8 counter reproduces.
        for (preset, total) in [
            (Preset::Llama3_8b, 8_030_261_248.0),
            (Preset::Llama3_70b, 70_553_706_496.0),
            (Preset::Mixtral8x7b, 46_702_792_704.0),
        ] {
            assert_eq!(preset.model().params, total, "{preset:?}");
            assert_eq!(count_params(&preset.model()), total, "{preset:?}");
        }
        // Qwen3's q_norm and k_norm (2·128 per layer, 48 layers) are beyond the §8 counter.
        let qwen = Preset::Qwen3_30bA3b.model();
        assert_eq!(count_params(&qwen) + 48.0 * 256.0, qwen.params);
        // Ids are distinct and found again.
        for preset in Preset::ALL {
            assert_eq!(Preset::from_id(preset.id()), Some(preset));
        }
        assert_eq!(Preset::ALL[0], Preset::Qwen38_27b);
    }

    #[test]
    fn active_params_take_out_the_skipped_experts() {
        assert_eq!(Preset::Llama3_8b.model().active_params(), 8_030_261_248.0);
        let mixtral = Preset::Mixtral8x7b.model();
        assert_eq!(
            mixtral.active_params(),
            mixtral.params - 32.0 * 6.0 * 3.0 * 4096.0 * 14_336.0
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
