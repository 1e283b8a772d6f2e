//! The step-time estimate (SPEC §12): how long one training step would take at an effective
//! `gpu_tflops` per card, with the bubble and the communication that compute does not hide.
//!
//! It is an estimate, labelled as one everywhere: it takes a fixed effective throughput
//! (no kernel efficiency curve), ring collectives at full link bandwidth, no latency, and
//! lets only DP and expert-DP traffic overlap compute (with the backward pass, two thirds
//! of it). TP, CP, EP and PP traffic sit on the critical path.

use serde::Serialize;

use crate::config::Recompute;
use crate::formula::{count_of, sum, Quantity, Show};
use crate::grid::Dim;
use crate::plan::Plan;
use crate::traffic::Traffic;
use crate::units::Seconds;

/// The share of compute that is the backward pass (2 of the 6 FLOPs per parameter and
/// token are forward): DP's gradient traffic can hide behind it, nothing else.
pub const BACKWARD_SHARE: f64 = 2.0 / 3.0;

/// The extra forward of full recomputation: 8 FLOPs per parameter and token instead of 6.
pub const FULL_RECOMPUTE_FACTOR: f64 = 4.0 / 3.0;

/// One step of one plan, estimated (SPEC §12 `estimate`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// T = d·m·b·s, tokens per step across the grid.
    pub tokens_per_step: f64,
    /// (6·P_act + 6·F·a·head_dim·s)·T, × 4/3 with full recompute.
    pub flops_per_step: f64,
    /// FLOPs ÷ (N · gpu_tflops · 10¹²).
    pub compute_s: Seconds,
    /// TP + CP + EP + PP seconds, plus the DP and expert-DP seconds that the backward pass
    /// (2/3 of compute) does not hide.
    pub exposed_comm_s: Seconds,
    /// compute × the bubble ratio.
    pub bubble_s: Seconds,
    /// compute + bubble + exposed communication.
    pub step_s: Seconds,
    /// T ÷ (step · N).
    pub tokens_per_s_per_gpu: f64,
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
}

impl Term {
    /// The report's name of the term.
    pub const fn as_str(self) -> &'static str {
        match self {
            Term::Compute => "compute_s",
            Term::Bubble => "bubble_s",
            Term::ExposedComm => "exposed_comm_s",
        }
    }
}

impl Estimate {
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
        ]
        .into_iter()
        .map(|(term, a, b)| (term, Seconds::new(b.get() - a.get())))
        .filter(|(_, by)| by.get() != 0.0)
        .max_by(|a, b| a.1.get().abs().total_cmp(&b.1.get().abs()))
    }
}

/// The seconds of `comm`'s dimensions among `dims`, as a formula (0 when there are none).
fn seconds_of<Q: Quantity>(comm: &[Traffic], dims: &[Dim]) -> Q {
    sum(comm
        .iter()
        .filter(|t| dims.contains(&t.dim))
        .map(|t| Q::var(t.dim.as_str(), t.seconds.get(), Show::Seconds)))
}

/// TP + CP + EP + PP seconds: communication on the critical path.
fn blocking<Q: Quantity>(comm: &[Traffic]) -> Q {
    seconds_of(comm, &[Dim::Tp, Dim::Cp, Dim::Ep, Dim::Pp])
}

/// DP + expert-DP seconds: communication that can hide behind the backward pass.
fn hidden<Q: Quantity>(comm: &[Traffic]) -> Q {
    seconds_of(comm, &[Dim::Dp, Dim::Edp])
}

impl Plan {
    /// FLOPs of one step (SPEC §12): (6·P_act + 6·F·a·head_dim·s)·T, the second term being
    /// causal attention's score and value products over the F full-attention layers; × 4/3
    /// with full recompute (one more forward). Sources: Kaplan et al. 2020 (6·P per token),
    /// Narayanan et al. 2021 §5.1 (attention, recomputation).
    pub fn flops_per_step(&self) -> f64 {
        self.flops()
    }

    /// [`Plan::flops_per_step`] as a formula.
    pub(crate) fn flops<Q: Quantity>(&self) -> Q {
        let model = self.model();
        let attention = Q::lit(6.0)
            * count_of("F", model.full_attention_layers)
            * count_of("a", model.heads)
            * count_of("head_dim", model.head_dim)
            * count_of("s", self.seq_len());
        let flops = (Q::lit(6.0) * count_of("P_act", model.active_params()) + attention)
            * self.tokens::<Q>().named("T", Show::Count);
        match self.recompute() {
            Recompute::Full => flops * Q::constant("4/3", FULL_RECOMPUTE_FACTOR),
            Recompute::Selective | Recompute::None => flops,
        }
        .named("FLOPs", Show::Count)
    }

    /// Compute time: FLOPs/(N·TFLOP/s·10¹²), as a formula.
    pub(crate) fn compute<Q: Quantity>(&self) -> Q {
        self.flops::<Q>()
            / (count_of::<Q>("N", self.gpus())
                * count_of("TFLOP/s", self.config().gpu_tflops)
                * Q::constant("10¹²", 1e12))
    }

    /// The bubble's and the exposed communication's seconds, as formulas of the compute time
    /// `compute`: compute·bubble, and tp + cp + ep + pp + max(dp + edp − (2/3)·compute, 0).
    pub(crate) fn step_terms<Q: Quantity>(&self, comm: &[Traffic], compute: f64) -> (Q, Q) {
        let compute = || Q::var("compute", compute, Show::Seconds);
        let bubble = compute() * Q::var("bubble", self.bubble().ratio, Show::Count);
        let unhidden =
            (hidden::<Q>(comm) - Q::constant("2/3", BACKWARD_SHARE) * compute()).max(Q::lit(0.0));
        let exposed = blocking::<Q>(comm) + unhidden;
        (bubble, exposed)
    }

    /// The step time as a formula: compute + bubble + exposed communication.
    pub(crate) fn step<Q: Quantity>(&self, comm: &[Traffic], compute: f64) -> Q {
        let (bubble, exposed) = self.step_terms::<Q>(comm, compute);
        Q::var("compute", compute, Show::Seconds)
            + bubble.named("bubble time", Show::Seconds)
            + exposed.named("exposed", Show::Seconds)
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
    /// // No pipeline, and ZeRO-3's 0.9 s of DP traffic hides behind the backward pass.
    /// assert!(e.bubble_s.get() == 0.0 && e.exposed_comm_s.get() == 0.0);
    /// assert_eq!(e.step_s, e.compute_s);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn estimate(&self) -> Estimate {
        self.estimate_with(&self.traffic())
    }

    /// The step-time estimate with the traffic `comm` already computed for this plan:
    /// step = compute·(1 + bubble ratio) + tp + cp + ep + pp
    ///        + max(0, dp + edp − (2/3)·compute)   (SPEC §12).
    pub fn estimate_with(&self, comm: &[Traffic]) -> Estimate {
        let compute: f64 = self.compute();
        let (bubble, exposed) = self.step_terms::<f64>(comm, compute);
        let step: f64 = self.step(comm, compute);
        Estimate {
            tokens_per_step: self.tokens(),
            flops_per_step: self.flops(),
            compute_s: Seconds::new(compute),
            exposed_comm_s: Seconds::new(exposed),
            bubble_s: Seconds::new(bubble),
            step_s: Seconds::new(step),
            tokens_per_s_per_gpu: if step > 0.0 {
                self.throughput(step)
            } else {
                0.0
            },
        }
    }
}
