//! The `model` field of a config, [`ModelChoice`], and its serde form: a preset id, an inline
//! model object, or `{"hf_config": {...}}`. Deserialization is written by hand so that an
//! object is told apart by its first key.

use core::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::inline::InlineModel;
use super::preset::Preset;
use super::shape::Model;
use crate::error::PlanError;
use crate::hf::HfConfig;
use crate::numbers::quoted_text;

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
// One per plan, moved rarely: an inline model's 26 optional fields (about 200 bytes) cost less
// than a box at every match on it.
#[allow(clippy::large_enum_variant)]
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
                        "unknown preset \"{}\"; valid: {}",
                        quoted_text(id),
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
                            "`{}` next to `hf_config`: a config.json model takes no other field",
                            quoted_text(&other)
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
