//! The witnesses of [`Omission`], test code of `tests/omissions.rs` (not part of the core's
//! API): each evaluates a few plans through the core's public API and returns whether the
//! figure in question is still computed without the thing left out. A witness that varies a
//! plan also checks a control, something the change *does* move in what the lab models; one
//! that compares a figure with its formula works the formula out by hand, with the core's named
//! constants where it has them (`estimate::BACKWARD_SHARE`, `estimate::FULL_RECOMPUTE_FACTOR`).
//! So none holds for nothing. `None` when a plan is refused (the witness then counts as
//! failed). Memory's witnesses are in `memory`, those of traffic and the estimate in `timing`;
//! the plans and models they share are in `fixtures`.

mod fixtures;
mod memory;
mod timing;

use memory::{
    activation_constants, buffers, even_split, expert_tensor_parallel, linear_attention_state,
    output_activations,
};
use timing::{
    cp_backward, cpu_update, expert_balance, kernel_efficiency, latency, outside_the_step, overlap,
    pipeline_messages, recompute_traffic, stage_time,
};

use parallel_core::omissions::Omission;

/// Whether `item` is still left out; `None` when one of its plans is refused. The match is
/// exhaustive, so a new item does not compile without its witness.
pub(super) fn holds(item: Omission) -> Option<bool> {
    match item {
        Omission::EvenSplit => even_split(),
        Omission::OutputActivations => output_activations(),
        Omission::ActivationConstants => activation_constants(),
        Omission::ExpertTensorParallel => expert_tensor_parallel(),
        Omission::Buffers => buffers(),
        Omission::LinearAttentionState => linear_attention_state(),
        Omission::ExpertBalance => expert_balance(),
        Omission::Latency => latency(),
        Omission::Overlap => overlap(),
        Omission::RecomputeTraffic => recompute_traffic(),
        Omission::CpBackward => cp_backward(),
        Omission::PipelineMessages => pipeline_messages(),
        Omission::KernelEfficiency => kernel_efficiency(),
        Omission::StageTime => stage_time(),
        Omission::OutsideTheStep => outside_the_step(),
        Omission::CpuUpdate => cpu_update(),
    }
}
