//! [`HfFamily`]: the model families the counter reads, and how a config names its family
//! (`architectures`, checked against `model_type`).

use super::config::{key, HfConfig};
use crate::error::PlanError;
use crate::numbers::quoted_text;

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
            value: quoted_text(value),
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
                    value: quoted_text(model_type),
                    supported: family.model_types(),
                });
            }
        }
        Ok(family)
    }
}
