//! The witnesses of [`Omission`]: each evaluates a few plans with the core and returns whether
//! the figure in question is still computed without the thing left out. A witness that varies
//! a plan also checks a control, something the change *does* move in what the lab models; one
//! that compares a figure with its formula works the formula out by hand. So none holds for
//! nothing. `None` when a plan is refused (the witness then counts as failed). Memory's witnesses are in
//! `memory`, those of traffic and the estimate in `timing`; the plans and models they share
//! are here.

mod memory;
mod timing;

use memory::{
    activation_constants, buffers, even_split, expert_tensor_parallel, output_activations,
};
use timing::{
    cp_backward, expert_balance, kernel_efficiency, latency, outside_the_step, overlap,
    pipeline_messages, recompute_traffic, stage_time,
};

use super::Omission;
use crate::config::PlanConfig;
use crate::grid::Dim;
use crate::model::{InlineModel, ModelChoice, Preset};
use crate::plan::Plan;
use crate::traffic::Traffic;

/// Whether `item` is still left out; `None` when one of its plans is refused.
pub(super) fn holds(item: Omission) -> Option<bool> {
    match item {
        Omission::EvenSplit => even_split(),
        Omission::OutputActivations => output_activations(),
        Omission::ActivationConstants => activation_constants(),
        Omission::ExpertTensorParallel => expert_tensor_parallel(),
        Omission::Buffers => buffers(),
        Omission::ExpertBalance => expert_balance(),
        Omission::Latency => latency(),
        Omission::Overlap => overlap(),
        Omission::RecomputeTraffic => recompute_traffic(),
        Omission::CpBackward => cp_backward(),
        Omission::PipelineMessages => pipeline_messages(),
        Omission::KernelEfficiency => kernel_efficiency(),
        Omission::StageTime => stage_time(),
        Omission::OutsideTheStep => outside_the_step(),
    }
}

/// Equal to 12 significant digits (the same formula evaluated in another order).
pub(super) fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
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
