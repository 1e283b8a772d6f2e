//! What a search returns: the plans found, why the first is ahead, and the tally that
//! crosses threads.

use serde::{Deserialize, Serialize};

use crate::config::PlanConfig;
use crate::estimate::Term;
use crate::report::Report;
use crate::units::{Bytes, Seconds};

/// One plan found: its config (give it to `eval`) and its report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Found {
    /// The plan as `eval` takes it.
    pub config: PlanConfig,
    /// Its report, `estimate` included.
    pub report: Report,
}

/// What a search found (SPEC §12's `search` JSON).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchOutcome {
    /// Candidate plans enumerated.
    pub considered: u64,
    /// Candidates that pass [`crate::Plan::new`]'s checks.
    pub valid: u64,
    /// Valid plans whose busiest card fits its memory.
    pub fitting: u64,
    /// Fitting plans whose busiest card stays under the safe share of its memory ([`crate::margin`]);
    /// when it is 0, every plan found is tight.
    pub comfortable: u64,
    /// The best fitting plans: those under the safe share of the card ([`crate::margin::SAFE_SHARE`]) first, quickest first within
    /// each (ties: less memory first).
    pub plans: Vec<Found>,
    /// The valid plans that do not fit, least memory first (not part of the CLI's JSON).
    #[serde(skip)]
    pub near_misses: Vec<Found>,
    /// When the first plan splits the sequence (CP > 1): the best fitting plan that does not,
    /// to show what context parallelism buys (absent when none fits, or the first has CP 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub without_cp: Option<Found>,
}

/// Why the first plan of a ranking is ahead of the second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ahead {
    /// The first stays under the safe share of the card ([`crate::margin::SAFE_SHARE`]) and the second does not ([`crate::margin`]).
    Margin,
    /// Quicker, by `gap` seconds a step: `term` is the largest difference, by `by` seconds
    /// (positive: the first is quicker on it).
    Quicker {
        /// The second's step time minus the first's.
        gap: Seconds,
        /// The term that differs most.
        term: Term,
        /// The second's term minus the first's.
        by: Seconds,
    },
    /// Equally quick; less memory on the busiest card, by `by`.
    LessMemory {
        /// The second's total minus the first's.
        by: Bytes,
    },
    /// The first does not split the sequence and the second does, quicker by `gap` seconds
    /// a step, at most [`super::EQUAL_TIME_SHARE`] of the second's step: equally quick, and
    /// the plan without CP ranks first.
    WithoutCp {
        /// The first's step time minus the second's (positive).
        gap: Seconds,
        /// `gap` as a share of the second's step time (at most the band).
        share: f64,
        /// The second's CP degree.
        cp: u32,
    },
    /// Equal in time and memory: the first comes first in enumeration order.
    Tie,
}

impl SearchOutcome {
    /// Why the top plan beats the next, when there are two.
    pub fn why_first(&self) -> Option<Ahead> {
        let [first, second, ..] = self.plans.as_slice() else {
            return None;
        };
        let (a, b) = (&first.report.estimate, &second.report.estimate);
        if first.config.cp == 1 && second.config.cp > 1 && a.step_s > b.step_s {
            let gap = a.step_s.get() - b.step_s.get();
            return Some(Ahead::WithoutCp {
                gap: Seconds::new(gap),
                share: gap / b.step_s.get(),
                cp: second.config.cp,
            });
        }
        Some(ahead(&first.report, &second.report))
    }

    /// How much longer a step of the best plan without CP takes than the first plan's, when
    /// the first has CP > 1 and a CP-1 plan fits.
    pub fn cp_gap(&self) -> Option<Seconds> {
        let first = self.plans.first()?;
        let without = self.without_cp.as_ref()?;
        Some(Seconds::new(
            without.report.estimate.step_s.get() - first.report.estimate.step_s.get(),
        ))
    }

    /// What context parallelism buys the first plan over the best plan without it, when the
    /// first has CP > 1 and a CP-1 plan fits: the term that differs most.
    pub fn why_cp(&self) -> Option<Ahead> {
        let first = self.plans.first()?;
        let without = self.without_cp.as_ref()?;
        Some(ahead(&first.report, &without.report))
    }
}

/// Why `a` ranks before `b`: the largest term of the estimate that differs, or the memory.
pub fn ahead(a: &Report, b: &Report) -> Ahead {
    if !a.memory.tight && b.memory.tight {
        return Ahead::Margin;
    }
    if a.estimate.step_s != b.estimate.step_s {
        if let Some((term, by)) = a.estimate.largest_difference(&b.estimate) {
            let gap = Seconds::new(b.estimate.step_s.get() - a.estimate.step_s.get());
            return Ahead::Quicker { gap, term, by };
        }
    }
    let by = Bytes::new(b.memory.total.get() - a.memory.total.get());
    if by.get() != 0.0 {
        Ahead::LessMemory { by }
    } else {
        Ahead::Tie
    }
}

/// What a search kept, by enumeration index ([`super::Search::tally`]): the counts, the best plans
/// in order, the best with CP 1 and the near misses. Small enough to post between threads.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Candidate plans enumerated.
    pub considered: u64,
    /// Candidates that pass [`crate::Plan::new`]'s checks.
    pub valid: u64,
    /// Valid plans that fit.
    pub fitting: u64,
    /// Fitting plans under the safe share of the card ([`crate::margin::SAFE_SHARE`]).
    pub comfortable: u64,
    /// The best fitting plans, in order.
    pub best: Vec<u64>,
    /// The best fitting plan with CP 1 (at most one).
    pub best_without_cp: Vec<u64>,
    /// The valid plans that do not fit, least memory first.
    pub misses: Vec<u64>,
}
