//! What a running training process holds on a card beside the model states and the activations
//! (SPEC §24), counted when `runtime_memory` is on: the CUDA context, the engine's
//! communication buffer and the caching allocator's reserve. Off by default, so the lesson's
//! figures stay the formulas' own.

use serde::Serialize;

use crate::formula::{Quantity, Show};
use crate::plan::Plan;
use crate::units::Bytes;

/// Bytes on the card outside PyTorch's caching allocator once a training step has run: the
/// CUDA context, the kernels' modules and the libraries' workspaces (total − free − reserved).
/// Measured on one H200 SXM, PyTorch 2.11.0 + CUDA 13.0, 2026-12-04
/// (`shared/measured/h200-2026-12-04/acts.json`, row `device.outside_allocator`; method in
/// `measure2.py`). One process, no NCCL communicator: NCCL's own buffers are not in it.
pub const CUDA_CONTEXT_BYTES: f64 = 787_283_968.0;

/// The caching allocator's reserved bytes over its allocated bytes at a training step's peak
/// (`max_memory_reserved / max_memory_allocated`): what it keeps cached beside what tensors
/// hold (fragmentation and rounding). Measured on one H200 SXM, PyTorch 2.11.0 + CUDA 13.0,
/// 2026-12-04, a Llama 3 8B-shaped 4-layer model with fused AdamW
/// (`shared/measured/h200-2026-12-04/acts.json`, row `allocator.reserved_over_allocated`).
pub const RESERVED_OVER_ALLOCATED: f64 = 1.052929799328152;

/// Where the two measured terms come from, as the page and the explanation cite them.
pub const SOURCE: &str = "CUDA context and allocator reserve: measured on one H200 SXM, \
    PyTorch 2.11.0 + CUDA 13.0, 2026-12-04; the buffer: Megatron-Core 0.19.2's \
    GlobalMemoryBuffer \"mpu\" (tensor_parallel/layers.py)";

/// The runtime terms of one card (SPEC §24).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RuntimeMemory {
    /// The CUDA context and libraries outside the allocator, [`CUDA_CONTEXT_BYTES`].
    pub context: Bytes,
    /// Megatron-Core's sequence-parallel all-gather buffer: one whole-sequence activation,
    /// 2·s'·b·h, kept for the run; zero without sequence parallelism.
    pub buffers: Bytes,
    /// The allocator's reserve: (r − 1)·(model states + activations + buffers), r =
    /// [`RESERVED_OVER_ALLOCATED`].
    pub reserve: Bytes,
    /// context + buffers + reserve.
    pub total: Bytes,
}

impl Plan {
    /// The runtime terms of a card whose tensors hold `allocated` bytes (model states +
    /// activations); `None` while `runtime_memory` is off (SPEC §24).
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig};
    /// let on = Plan::new(&PlanConfig { runtime_memory: true, ..PlanConfig::lesson_8_gpus() })?;
    /// let m = on.memory();
    /// let r = m.runtime.unwrap();
    /// assert_eq!(r.context.get(), 787_283_968.0);
    /// assert_eq!(m.total, m.model_states + m.activations + r.total);
    /// assert!(Plan::new(&PlanConfig::lesson_8_gpus())?.memory().runtime.is_none());
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn runtime_memory(&self, allocated: Bytes) -> Option<RuntimeMemory> {
        if !self.config().runtime_memory {
            return None;
        }
        let (context, buffers, reserve) = self.runtime_terms::<f64>(allocated.get());
        let (context, buffers, reserve) = (
            Bytes::new(context),
            Bytes::new(buffers.unwrap_or(0.0)),
            Bytes::new(reserve),
        );
        Some(RuntimeMemory {
            context,
            buffers,
            reserve,
            total: context + buffers + reserve,
        })
    }

    /// A card's total: `states` + `activations`, plus the runtime terms when they are on.
    /// Every total the lab shows (the headline, each stage, each card) comes from here.
    pub(crate) fn card_total(
        &self,
        states: Bytes,
        activations: Bytes,
    ) -> (Option<RuntimeMemory>, Bytes) {
        let allocated = states + activations;
        let runtime = self.runtime_memory(allocated);
        let total = runtime.map_or(allocated, |r| allocated + r.total);
        (runtime, total)
    }

    /// The three terms of a card whose tensors hold `allocated`, as formulas: the context;
    /// Megatron-Core's all-gather buffer (`get_global_memory_buffer().get_tensor(.., "mpu")`
    /// in `tensor_parallel/layers.py`: with sequence parallelism each column-parallel layer
    /// gathers its input's whole sequence, s'·b·h BF16 values, into one buffer kept for the
    /// run; `None` without it, when nothing is gathered); and the reserve,
    /// (r − 1)·(allocated + buffer).
    fn runtime_terms<Q: Quantity>(&self, allocated: Q) -> (Q, Option<Q>, Q) {
        let context = Q::var("context", CUDA_CONTEXT_BYTES, Show::Bytes);
        let buffer = self
            .sequence_parallel()
            .then(|| self.tensor::<Q>().named("buffer", Show::Bytes));
        let held = match buffer.clone() {
            Some(buffer) => allocated + buffer,
            None => allocated,
        };
        let reserve = (Q::var("r", RESERVED_OVER_ALLOCATED, Show::Count) - Q::lit(1.0)) * held;
        (context, buffer, reserve)
    }

    /// [`RuntimeMemory::total`] as a formula of the card's allocated bytes: context (+ buffer)
    /// + reserve.
    pub(crate) fn runtime_formula<Q: Quantity>(&self, allocated: Q) -> Q {
        match self.runtime_terms(allocated) {
            (context, Some(buffer), reserve) => context + buffer + reserve,
            (context, None, reserve) => context + reserve,
        }
    }
}
