//! [`Report`]: everything the `eval` command prints and the page shows for one plan, and the
//! memory each card shows, read off it ([`Plan::cards_memory`]).

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use crate::bubble::Bubble;
use crate::config::{Accounting, PlanConfig};
use crate::error::{PlanError, Warning};
use crate::estimate::Estimate;
use crate::memory::Memory;
use crate::plan::Plan;
use crate::rollout::RolloutReport;
use crate::stages::{busiest, StageMemory};
use crate::traffic::Traffic;
use crate::units::Bytes;

/// The evaluation of one plan (SPEC §10's `eval` JSON; `by_stage` and `busiest_stage` are
/// written inside `memory`, SPEC §11).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// d = N/(t·p·c).
    pub dp: u32,
    /// The headline memory: the first stage by §4's even split ("even", the lesson's numbers),
    /// or the busiest stage's entry of `by_stage` ("stages").
    pub memory: Memory,
    /// Memory of every pipeline stage (SPEC §11), in both accountings.
    pub by_stage: Vec<StageMemory>,
    /// With "stages": the stage the headline is (the first with the largest total).
    pub busiest_stage: Option<u32>,
    /// Traffic per dimension with more than one card.
    pub comm: Vec<Traffic>,
    /// Pipeline bubble.
    pub bubble: Bubble,
    /// The step-time estimate (SPEC §17, with §18's kernels on a card with tables).
    pub estimate: Estimate,
    /// The rollout engines of an RL step (SPEC §15); `None` for a training-only plan (and
    /// then not written in the JSON).
    pub rollout: Option<RolloutReport>,
    /// Uneven expert routing's figures (SPEC §20); `None` for a dense model (and then not
    /// written in the JSON).
    pub routing: Option<crate::routing::RoutingReport>,
    /// Soft problems.
    pub warnings: Vec<Warning>,
}

impl Plan {
    /// Memory, traffic and bubble of this plan.
    pub fn report(&self) -> Report {
        let by_stage = self.memory_by_stage();
        let (memory, busiest_stage) = match self.config().accounting {
            Accounting::Even => (self.memory(), None),
            Accounting::Stages => {
                let stage = busiest(&by_stage);
                let entry = by_stage[stage as usize];
                let memory = Memory {
                    model_states: entry.model_states,
                    activations: entry.activations,
                    runtime: self.card_total(entry.model_states, entry.activations).0,
                    total: entry.total,
                    capacity: self.capacity(),
                    fits: entry.fits,
                    tight: entry.tight,
                    host: self.host_memory(),
                };
                (memory, Some(stage))
            }
        };
        let comm = self.traffic();
        Report {
            dp: self.degrees().dp,
            rollout: self.rollout_report(memory.total),
            memory,
            by_stage,
            busiest_stage,
            estimate: self.estimate_with(&comm),
            comm,
            bubble: self.bubble(),
            routing: self.routing(),
            warnings: self.warnings().to_vec(),
        }
    }
}

impl Plan {
    /// The memory every card shows, card by card, read off this plan's `report` (no figure is
    /// computed again): with "stages" the `by_stage` entry of the card's own stage (its pp
    /// coordinate); with "even" the headline (§4's even split) on every card, tagged with the
    /// card's stage and that stage's layers.
    ///
    /// ```
    /// use parallel_core::{Accounting, Plan, PlanConfig};
    /// let plan = Plan::new(&PlanConfig::lesson_64_gpus())?;
    /// let even = plan.cards_memory(&plan.report());
    /// assert!(even.iter().all(|c| c.total == even[0].total));
    /// let stages = Plan::new(&PlanConfig { accounting: Accounting::Stages, ..PlanConfig::lesson_64_gpus() })?;
    /// let cards = stages.cards_memory(&stages.report());
    /// assert_eq!((cards[0].stage, cards[63].stage), (0, 7)); // TP 8 × PP 8: 8 cards a stage
    /// assert!(cards[63].total > cards[24].total);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn cards_memory(&self, report: &Report) -> Vec<StageMemory> {
        let grid = self.grid();
        let last = report.by_stage.len().saturating_sub(1);
        let even_experts = self
            .expert_states()
            .map_or(Bytes::ZERO, |experts| experts.total());
        // Uneven routing (SPEC §20) and sequences (§25): each stage's excesses, computed once,
        // which only a card of EP rank 0 (routing) or of DP replica 0 (sequences) holds; the
        // stage's (and the headline's) figures carry them.
        let stages = report.by_stage.len() as u32;
        let by_stage = |on: bool, stage_excess: &dyn Fn(u32) -> f64, even: &dyn Fn() -> f64| {
            if !on {
                return Vec::new();
            }
            (0..stages)
                .map(|stage| {
                    Bytes::new(match self.config().accounting {
                        Accounting::Stages => stage_excess(stage),
                        Accounting::Even => even(),
                    })
                })
                .collect::<Vec<Bytes>>()
        };
        let routing = by_stage(
            self.uneven(),
            &|stage| self.stage_routing_excess::<f64>(stage),
            &|| self.routing_excess::<f64>(),
        );
        let sequences = by_stage(
            self.uneven_sequences(),
            &|stage| self.stage_sequence_excess::<f64>(stage),
            &|| self.sequence_excess::<f64>(),
        );
        (0..self.gpus())
            .filter_map(|card| {
                let stage = grid.coords(card).map_or(0, |c| c.pp) as usize;
                let own = *report.by_stage.get(stage.min(last))?;
                let memory = match self.config().accounting {
                    Accounting::Stages => own,
                    Accounting::Even => StageMemory {
                        model_states: report.memory.model_states,
                        expert_states: even_experts,
                        activations: report.memory.activations,
                        runtime: report.memory.runtime.map_or(Bytes::ZERO, |r| r.total),
                        total: report.memory.total,
                        fits: report.memory.fits,
                        tight: report.memory.tight,
                        ..own
                    },
                };
                let at = stage.min(last);
                let cold = routing
                    .get(at)
                    .filter(|_| !self.holds_hot_expert(card))
                    .copied()
                    .unwrap_or(Bytes::ZERO)
                    + sequences
                        .get(at)
                        .filter(|_| !self.holds_long_sequence(card))
                        .copied()
                        .unwrap_or(Bytes::ZERO);
                Some(if cold.get() > 0.0 {
                    let activations = memory.activations - cold;
                    let (runtime, total) = self.card_total(memory.model_states, activations);
                    StageMemory {
                        activations,
                        runtime: runtime.map_or(Bytes::ZERO, |r| r.total),
                        total,
                        fits: total <= self.capacity(),
                        tight: crate::margin::tight(total, self.capacity()),
                        ..memory
                    }
                } else {
                    memory
                })
            })
            .collect()
    }
}

impl Serialize for Report {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        /// `memory` as written: the headline's fields, then `by_stage` and `busiest_stage`.
        #[derive(Serialize)]
        struct MemoryOut<'a> {
            #[serde(flatten)]
            headline: &'a Memory,
            by_stage: &'a [StageMemory],
            #[serde(skip_serializing_if = "Option::is_none")]
            busiest_stage: Option<u32>,
        }
        let mut out = serializer.serialize_struct("Report", 8)?;
        out.serialize_field("dp", &self.dp)?;
        out.serialize_field(
            "memory",
            &MemoryOut {
                headline: &self.memory,
                by_stage: &self.by_stage,
                busiest_stage: self.busiest_stage,
            },
        )?;
        out.serialize_field("comm", &self.comm)?;
        out.serialize_field("bubble", &self.bubble)?;
        out.serialize_field("estimate", &self.estimate)?;
        if let Some(rollout) = &self.rollout {
            out.serialize_field("rollout", rollout)?;
        }
        if let Some(routing) = &self.routing {
            out.serialize_field("routing", routing)?;
        }
        out.serialize_field("warnings", &self.warnings)?;
        out.end()
    }
}

impl Report {
    /// The dimension that sends the most per card per step ([`crate::traffic::heaviest`]:
    /// the first in report order on a tie).
    pub fn heaviest_traffic(&self) -> Option<&Traffic> {
        crate::traffic::heaviest(&self.comm)
    }

    /// The model states the memory figure shows, split into routed experts and the dense rest
    /// (experts, dense): with accounting by stage the busiest stage's
    /// ([`StageMemory::dense_states`]), else the even split's ([`Plan::expert_states`] and
    /// [`Plan::dense_states`] of `plan`, this report's plan). `None` for a dense model, or a
    /// busiest stage that holds no routed expert.
    pub fn states_split(&self, plan: &Plan) -> Option<(Bytes, Bytes)> {
        match self.busiest_stage {
            Some(stage) => self
                .by_stage
                .get(stage as usize)
                .filter(|s| s.expert_states.get() > 0.0)
                .map(|s| (s.expert_states, s.dense_states())),
            None => plan
                .expert_states()
                .map(|e| (e.total(), plan.dense_states().total())),
        }
    }
}

/// Checks a config and evaluates it: [`Plan::new`] then [`Plan::report`].
///
/// # Example: the lesson's 64-GPU plan TP 8 × PP 2 × DP 4, ZeRO-1
/// ```
/// use parallel_core::{evaluate, Link, PlanConfig};
/// let r = evaluate(&PlanConfig { gpus: 64, tp: 8, pp: 2, zero: 1, ..PlanConfig::default() }).unwrap();
/// assert_eq!(r.dp, 4);
/// assert_eq!(r.memory.model_states.to_string(), "12.2 GB");
/// let dp = r.comm.iter().find(|t| t.dim.as_str() == "dp").unwrap();
/// assert_eq!((dp.bytes.to_string(), dp.link), ("5.2 GB".to_string(), Link::InfiniBand));
/// assert_eq!(r.bubble.ratio, 0.125);
/// ```
pub fn evaluate(config: &PlanConfig) -> Result<Report, PlanError> {
    Plan::new(config).map(|plan| plan.report())
}
