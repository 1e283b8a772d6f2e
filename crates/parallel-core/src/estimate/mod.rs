//! The step-time estimate (SPEC §17, superseding §12's): how long one training step would
//! take on a card, with the bubble and the communication that compute does not hide.
//!
//! It is an estimate, labelled as one everywhere. Compute runs at the card's effective
//! `gpu_tflops`, slowed where a micro-batch is too thin to hide its weights' HBM reads
//! (`estimate/compute.rs`); each collective costs steps·α + bytes/bandwidth with the bytes a run sends
//! (`estimate/comm.rs`); only DP and expert-DP traffic overlaps compute (with the backward pass, two
//! thirds of it). TP, CP, EP and PP traffic sit on the critical path, and so do the optimizer
//! offload's PCIe copies (SPEC §14), whose CPU update time is not counted.

use serde::Serialize;

use crate::formula::{count_of, sum, Quantity, Show};
use crate::grid::Dim;
use crate::kernels::{Kernels, Provenance};
use crate::plan::Plan;
use crate::traffic::Traffic;
use crate::units::Seconds;

/// The share of compute that is the backward pass (2 of the 6 FLOPs per parameter and
/// token are forward): DP's gradient traffic can hide behind it, nothing else.
pub const BACKWARD_SHARE: f64 = 2.0 / 3.0;

pub use comm::{
    steps_per_call, CP_BACKWARD_BYTES, DP_BUCKET_BYTES, MEGATRON_BUCKET_PARAMS,
    MEGATRON_BUCKET_PARAMS_PER_RANK, TP_FULL_RECOMPUTE_BYTES,
};
pub use compute::FULL_RECOMPUTE_FACTOR;
pub use kernels::{
    MemoryBound, ATTENTION_FWD_BWD, MEMORY_BOUND_FORWARD, MEMORY_BOUND_STEP,
    OPTIMIZER_BYTES_PER_PARAM,
};

mod comm;
mod compute;
mod kernels;
mod projections;

/// One step of one plan, estimated (SPEC §12 and §17 `estimate`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// T = d·m·b·s, tokens per step across the grid.
    pub tokens_per_step: f64,
    /// (6·P_mm + 6·F·a·head_dim·s)·T, × 4/3 with full recompute (P_mm: [`crate::Model::matmul_params`]).
    pub flops_per_step: f64,
    /// FLOPs at the roofline ÷ (N · gpu_tflops · 10¹²).
    pub compute_s: Seconds,
    /// TP + CP + EP + PP (+ offload, SPEC §14) seconds, plus the DP and expert-DP seconds
    /// that the backward pass (2/3 of compute) does not hide; each α–β.
    pub exposed_comm_s: Seconds,
    /// The α part of the exposed communication (the unhidden DP time in proportion).
    pub latency_s: Seconds,
    /// max(1, R/T_l): how much the dense layers' GEMMs are slowed by HBM.
    pub roofline_factor: f64,
    /// compute × the bubble ratio.
    pub bubble_s: Seconds,
    /// compute + bubble + exposed communication.
    pub step_s: Seconds,
    /// T ÷ (step · N).
    pub tokens_per_s_per_gpu: f64,
    /// Model FLOPs ÷ (N · peak · step): the share of the card's peak the step uses.
    pub mfu: f64,
    /// Compute split by kernel, and the optimizer step, for a card with measured kernel
    /// tables (SPEC §18); `None` (and absent from the report) for the lesson's card.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernels: Option<KernelSplit>,
}

/// A step's compute by kind of kernel on a card with tables (SPEC §18), per step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct KernelSplit {
    /// The GEMMs' seconds: m·t_gemm.
    pub gemm_s: Seconds,
    /// The attention kernel's seconds: m·t_attention.
    pub attention_s: Seconds,
    /// The memory-bound kernels' seconds: m·t_mem.
    pub memory_bound_s: Seconds,
    /// The optimizer step's seconds, after the pipeline drains.
    pub optimizer_s: Seconds,
    /// Whether the tables are the H200's own (H200, H100) or borrowed by the one rule.
    pub borrowed: bool,
}

/// One average layer of one micro-batch on a card, by kind of kernel (SPEC §18): what a
/// forward + backward of one layer takes at the card's shapes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LayerKernels {
    /// The layer's GEMMs.
    pub gemm_s: Seconds,
    /// Its attention kernel.
    pub attention_s: Seconds,
    /// Its memory-bound kernels.
    pub memory_bound_s: Seconds,
    /// The three together.
    pub total_s: Seconds,
}

/// The three terms a step is made of, for saying why one plan beats another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Term {
    /// Compute time (FLOPs, recomputation).
    Compute,
    /// The pipeline bubble.
    Bubble,
    /// Communication on the critical path.
    ExposedComm,
    /// The optimizer step (SPEC §18).
    Optimizer,
}

impl Term {
    /// The report's name of the term.
    pub const fn as_str(self) -> &'static str {
        match self {
            Term::Compute => "compute_s",
            Term::Bubble => "bubble_s",
            Term::ExposedComm => "exposed_comm_s",
            Term::Optimizer => "optimizer_s",
        }
    }
}

impl Estimate {
    /// The optimizer step's seconds (0 without kernel tables).
    pub fn optimizer_s(&self) -> Seconds {
        self.kernels.map_or(Seconds::new(0.0), |k| k.optimizer_s)
    }

    /// The term that differs most between `self` and `other`, and by how much (other − self:
    /// positive when `self` is quicker on it). `None` when no term differs.
    ///
    /// ```
    /// use parallel_core::{estimate::Term, Plan, PlanConfig};
    /// // On 8 cards, TP 8 and PP 8 compute the same tokens; PP 8 idles 7/8 of its compute.
    /// let tp = Plan::new(&PlanConfig { tp: 8, ..PlanConfig::default() })?.estimate();
    /// let pp = Plan::new(&PlanConfig { pp: 8, ..PlanConfig::default() })?.estimate();
    /// assert_eq!(tp.compute_s, pp.compute_s);
    /// let (term, by) = tp.largest_difference(&pp).unwrap();
    /// assert_eq!(term, Term::Bubble);
    /// assert!(by.get() > 0.0 && tp.step_s < pp.step_s);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn largest_difference(&self, other: &Estimate) -> Option<(Term, Seconds)> {
        [
            (Term::Compute, self.compute_s, other.compute_s),
            (Term::Bubble, self.bubble_s, other.bubble_s),
            (Term::ExposedComm, self.exposed_comm_s, other.exposed_comm_s),
            (Term::Optimizer, self.optimizer_s(), other.optimizer_s()),
        ]
        .into_iter()
        .map(|(term, a, b)| (term, Seconds::new(b.get() - a.get())))
        .filter(|(_, by)| by.get() != 0.0)
        .max_by(|a, b| a.1.get().abs().total_cmp(&b.1.get().abs()))
    }
}

/// The dimensions on the critical path: their traffic waits. The offload's PCIe copies are
/// exposed too (SPEC §14): the update waits for the gradients, the next step for the weights.
const BLOCKING: [Dim; 5] = [Dim::Tp, Dim::Cp, Dim::Ep, Dim::Pp, Dim::Offload];

/// One dimension's estimated seconds, with its α part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CommTime {
    /// The dimension.
    pub dim: Dim,
    /// calls·steps·α + k·bytes/bandwidth.
    pub seconds: Seconds,
    /// calls·steps·α.
    pub latency: Seconds,
}

/// The seconds of `times`' dimensions that are (or are not) on the critical path, as a
/// formula (0 when there are none).
fn seconds_of<Q: Quantity>(times: &[CommTime], blocking: bool) -> Q {
    sum(times
        .iter()
        .filter(|t| BLOCKING.contains(&t.dim) == blocking)
        .map(|t| Q::var(t.dim.as_str(), t.seconds.get(), Show::Seconds)))
}

impl Plan {
    /// FLOPs of one step (SPEC §12): (6·P_mm + 6·F·a·head_dim·s)·T, P_mm the parameters a
    /// token meets in a matrix product (the output layer once, no input embedding, norms or
    /// routers: Megatron-LM's `num_floating_point_operations`), the second term being
    /// causal attention's score and value products over the F full-attention layers; × 4/3
    /// with full recompute (one more forward). Sources: Kaplan et al. 2020 (6·P per token),
    /// Narayanan et al. 2021 §5.1 (attention, recomputation).
    pub fn flops_per_step(&self) -> f64 {
        self.flops()
    }

    /// Each traffic row's estimated time (SPEC §17), in the rows' order.
    pub fn comm_times(&self, comm: &[Traffic]) -> Vec<CommTime> {
        comm.iter()
            .map(|row| CommTime {
                dim: row.dim,
                seconds: Seconds::new(self.comm_seconds(row)),
                latency: Seconds::new(self.comm_latency(row)),
            })
            .collect()
    }

    /// The bubble's and the exposed communication's seconds, as formulas of the compute time
    /// `compute`: compute·bubble, and tp + cp + ep + pp (+ offload) + max(dp + edp − (2/3)·compute, 0).
    pub(crate) fn step_terms<Q: Quantity>(&self, times: &[CommTime], compute: f64) -> (Q, Q) {
        let compute = || Q::var("compute", compute, Show::Seconds);
        let bubble = compute() * Q::var("bubble", self.bubble().ratio, Show::Count);
        let unhidden = (seconds_of::<Q>(times, false) - Q::factor(BACKWARD_SHARE) * compute())
            .max(Q::lit(0.0));
        let exposed = seconds_of::<Q>(times, true) + unhidden;
        (bubble, exposed)
    }

    /// The step time as a formula: compute + bubble + exposed communication (+ the
    /// optimizer step on a card with kernel tables, SPEC §18).
    pub(crate) fn step<Q: Quantity>(&self, times: &[CommTime], compute: f64) -> Q {
        let (bubble, exposed) = self.step_terms::<Q>(times, compute);
        let step = Q::var("compute", compute, Show::Seconds)
            + bubble.named("bubble time", Show::Seconds)
            + exposed.named("exposed", Show::Seconds);
        match Kernels::of(self.config()) {
            Some(kernels) => {
                step + self
                    .optimizer_time::<Q>(&kernels)
                    .named("optimizer", Show::Seconds)
            }
            None => step,
        }
    }

    /// The α part of the exposed time: the blocking dimensions' α (the offload has none),
    /// plus the unhidden share of DP and expert DP's α (unhidden × their α ÷ their time).
    pub(crate) fn latency<Q: Quantity>(&self, times: &[CommTime], compute: f64) -> Q {
        let alpha = |blocking: bool| {
            sum(times
                .iter()
                .filter(|t| BLOCKING.contains(&t.dim) == blocking && t.dim != Dim::Offload)
                .map(|t| Q::var(t.dim.as_str(), t.latency.get(), Show::Seconds)))
        };
        let hidden = seconds_of::<Q>(times, false);
        if hidden.value() <= 0.0 {
            return alpha(true);
        }
        let unhidden = (hidden.clone()
            - Q::factor(BACKWARD_SHARE) * Q::var("compute", compute, Show::Seconds))
        .max(Q::lit(0.0))
        .named("unhidden", Show::Seconds);
        alpha(true) + unhidden * alpha(false).named("α of dp", Show::Seconds) / hidden
    }

    /// A step's compute split by kernel kind, and its optimizer step (SPEC §18).
    fn kernel_split(&self, kernels: &Kernels) -> KernelSplit {
        let times = self.kernel_times::<f64>(kernels);
        let m = f64::from(self.micro_batches());
        KernelSplit {
            gemm_s: Seconds::new(m * times.gemm),
            attention_s: Seconds::new(m * times.attention),
            memory_bound_s: Seconds::new(m * times.memory),
            optimizer_s: Seconds::new(self.optimizer_time(kernels)),
            borrowed: kernels.provenance == Provenance::Borrowed,
        }
    }

    /// One average layer of one micro-batch on a card (SPEC §18): the stage's layers' kernel
    /// times ÷ (L/p). `None` for a card without kernel tables (the lesson's).
    ///
    /// ```
    /// use parallel_core::{hardware::Hardware, Plan, PlanConfig};
    /// let plan = Plan::new(&PlanConfig { tp: 8, ..PlanConfig::on(Hardware::H200) })?;
    /// let layer = plan.layer_kernels().unwrap();
    /// assert!(layer.gemm_s.get() > layer.memory_bound_s.get());
    /// assert!(Plan::new(&PlanConfig::default())?.layer_kernels().is_none());
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn layer_kernels(&self) -> Option<LayerKernels> {
        let kernels = Kernels::of(self.config())?;
        let times = self.stage_layer_times::<f64>(&kernels);
        let per_stage = f64::from(self.model().layers) / f64::from(self.degrees().pp);
        let each = |s: f64| Seconds::new(s / per_stage);
        Some(LayerKernels {
            gemm_s: each(times.gemm),
            attention_s: each(times.attention),
            memory_bound_s: each(times.memory),
            total_s: each(times.gemm + times.attention + times.memory),
        })
    }

    /// Tokens per second per card, T/(step·N), as a formula of the step time `step`.
    pub(crate) fn throughput<Q: Quantity>(&self, step: f64) -> Q {
        self.tokens::<Q>().named("T", Show::Count)
            / (Q::var("step", step, Show::Seconds) * count_of("N", self.gpus()))
    }

    /// The step-time estimate with this plan's own traffic ([`Plan::traffic`]).
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig};
    /// // The lesson's 8 cards, DP 8, ZeRO-3: T = 8·8·1·4096 = 262,144 tokens.
    /// let e = Plan::new(&PlanConfig { zero: 3, ..PlanConfig::default() })?.estimate();
    /// assert_eq!(e.tokens_per_step, 262_144.0);
    /// // No pipeline, and ZeRO-3's DP traffic hides behind the backward pass.
    /// assert!(e.bubble_s.get() == 0.0 && e.exposed_comm_s.get() == 0.0);
    /// assert_eq!(e.step_s, e.compute_s);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn estimate(&self) -> Estimate {
        self.estimate_with(&self.traffic())
    }

    /// The step-time estimate with the traffic `comm` already computed for this plan:
    /// step = compute·(1 + bubble ratio) + tp + cp + ep + pp (+ offload, SPEC §14)
    ///        + max(0, dp + edp − (2/3)·compute)   (SPEC §17), each dimension α–β; the
    /// offload's PCIe seconds are bytes/pcie_gbps, exposed. The CPU's own Adam update is not
    /// counted.
    pub fn estimate_with(&self, comm: &[Traffic]) -> Estimate {
        let times = self.comm_times(comm);
        let compute: f64 = self.compute();
        let (bubble, exposed) = self.step_terms::<f64>(&times, compute);
        let step: f64 = self.step(&times, compute);
        let positive = |f: &dyn Fn() -> f64| if step > 0.0 { f() } else { 0.0 };
        Estimate {
            tokens_per_step: self.tokens(),
            flops_per_step: self.flops(),
            compute_s: Seconds::new(compute),
            exposed_comm_s: Seconds::new(exposed),
            latency_s: Seconds::new(self.latency(&times, compute)),
            roofline_factor: self.roofline(),
            bubble_s: Seconds::new(bubble),
            step_s: Seconds::new(step),
            tokens_per_s_per_gpu: positive(&|| self.throughput(step)),
            mfu: positive(&|| self.mfu(step)),
            kernels: Kernels::of(self.config()).map(|k| self.kernel_split(&k)),
        }
    }
}
