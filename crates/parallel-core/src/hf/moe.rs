//! The mixture-of-experts part as the counter sees it ([`MoeParts`]): which layers are MoE in
//! each family, their routed and shared experts, and the checks of their keys.

use super::config::{key, HfConfig};
use super::family::HfFamily;
use crate::checks::{at_least_one_or, at_most, required, required_nullable};
use crate::error::PlanError;

/// The MoE part, as counted.
pub(super) struct MoeParts {
    pub(super) layers: u32,
    pub(super) experts: u32,
    pub(super) top_k: u32,
    pub(super) expert_ffn: u32,
    /// Width of Qwen2-MoE's shared expert (0: none, or DeepSeek's experts of `expert_ffn`).
    pub(super) shared_ffn: u32,
    /// Shared experts: DeepSeek's count; for the inline model of Qwen2-MoE, its shared width
    /// in routed experts, rounded.
    pub(super) shared_experts: u32,
    /// Qwen2-MoE's one-output gate on the shared expert.
    pub(super) shared_gate: bool,
    /// DeepSeek's per-expert score correction bias.
    pub(super) router_bias: bool,
}

/// Multiples of `step` in 0 … n−1 (ceil(n / step)).
fn multiples_below(n: u32, step: u32) -> u32 {
    n.div_ceil(step)
}

impl HfConfig {
    /// The MoE part of the family (`None` for dense families and MoE configs without MoE
    /// layers), with its checks.
    pub(super) fn moe(&self, family: HfFamily, layers: u32) -> Result<Option<MoeParts>, PlanError> {
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
                        at_least_one_or(self.decoder_sparse_step, key!("decoder_sparse_step"), 1)?;
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
                match required_nullable(self.n_routed_experts, key!("n_routed_experts"))? {
                    None => None,
                    Some(experts) => {
                        let first_dense = self.first_k_dense_replace.ok_or(PlanError::Missing {
                            field: key!("first_k_dense_replace"),
                        })?;
                        let first_dense =
                            at_most(first_dense, layers, key!("first_k_dense_replace"))?;
                        let freq = at_least_one_or(self.moe_layer_freq, key!("moe_layer_freq"), 1)?;
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
