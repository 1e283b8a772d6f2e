//! What the witnesses share: a comparison to 12 digits, a plan or a traffic row, or nothing when
//! the core refuses, and the small models and configs they vary.

use parallel_core::{Dim, InlineModel, ModelChoice, Plan, PlanConfig, Preset, Traffic};

/// Equal to 12 significant digits (the same formula evaluated in another order).
pub(super) fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
}

/// Bytes of model states per parameter at ZeRO 0 under the default precision, by hand: 2 for
/// the BF16 weights, g for the gradients (`Precision::grad_bytes`, 2 for BF16) and 12 for the
/// FP32 master weights and both Adam moments (ZeRO's ledger, SPEC §4): 16.
pub(super) fn state_bytes_per_param() -> f64 {
    2.0 + PlanConfig::default().precision.grad_bytes() + 12.0
}

pub(super) fn plan(config: PlanConfig) -> Option<Plan> {
    Plan::new(&config).ok()
}

pub(super) fn row(plan: &Plan, dim: Dim) -> Option<Traffic> {
    plan.traffic().into_iter().find(|t| t.dim == dim)
}

/// A small dense model with its parameter count given, so that its shape can change while P
/// (and so the even split's model states) stays put: 10 layers, h 1024, vocabulary 32,000.
pub(super) fn small() -> InlineModel {
    InlineModel {
        params: Some(1_000_000_000),
        hidden: Some(1024),
        layers: Some(10),
        heads: Some(8),
        kv_heads: Some(8),
        head_dim: Some(128),
        ffn: Some(4096),
        vocab: Some(32_000),
        ..InlineModel::default()
    }
}

/// [`small`] with every layer MoE: `experts` routed experts of width 512, top-`top_k`.
pub(super) fn small_moe(experts: u32, top_k: u32) -> InlineModel {
    InlineModel {
        moe_layers: Some(10),
        experts: Some(experts),
        top_k: Some(top_k),
        expert_ffn: Some(512),
        ..small()
    }
}

pub(super) fn inline(model: InlineModel, config: PlanConfig) -> PlanConfig {
    PlanConfig {
        model: ModelChoice::Inline(model),
        ..config
    }
}

pub(super) fn preset(preset: Preset, config: PlanConfig) -> PlanConfig {
    PlanConfig {
        model: ModelChoice::Preset(preset),
        ..config
    }
}
