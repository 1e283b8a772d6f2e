//! What a search returns: the plans found, why the first is ahead ([`Reason`]), and the tally
//! that crosses threads.

use serde::{Deserialize, Serialize};

use super::rank::{equally_quick, Practice};
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

impl Found {
    /// Its [`Practice`]: what decides a tie.
    pub fn practice(&self) -> Practice {
        let c = &self.config;
        Practice::of(c.tp, c.cp, c.pp, c.ep)
    }
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
    /// The best fitting plans in the search's order (SPEC §17): those under the safe share of
    /// the card ([`crate::margin::SAFE_SHARE`]) first; on each side the tie (steps within
    /// [`super::EQUAL_TIME_SHARE`] of the side's quickest) first, by [`super::Practice`], then
    /// the rest by step.
    pub plans: Vec<Found>,
    /// The valid plans that do not fit, least memory first (not part of the CLI's JSON).
    #[serde(skip)]
    pub near_misses: Vec<Found>,
    /// Why the first plan ranks first: against the second, and against the quickest plan on
    /// its side of the safe share when that is neither.
    pub why_first: Vec<Lead>,
    /// The quickest fitting plan on the first plan's side of the safe share, when the tie rule
    /// put another plan first (absent when the first is the quickest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quickest: Option<Found>,
    /// When the first plan splits the sequence (CP > 1): the best fitting plan that does not,
    /// to show what context parallelism buys (absent when none fits, or the first has CP 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub without_cp: Option<Found>,
}

/// Which plan the first is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rival {
    /// The second plan of the ranking.
    Second,
    /// The quickest plan on the first plan's side of the safe share
    /// ([`SearchOutcome::quickest`]), when it is neither the first nor the second.
    Quickest,
}

/// Why the first plan ranks ahead of a rival.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Lead {
    /// The rival.
    pub against: Rival,
    /// The rival's place in [`SearchOutcome::plans`], from 1 (none when it is not among them).
    pub rank: Option<usize>,
    /// The reason, with the numbers it rests on.
    pub reason: Reason,
}

/// Why one fitting plan ranks ahead of another (SPEC §17), with the numbers it rests on. Shares
/// are fractions (0.02 is 2%). The JSON names each by its [`Reason::id`] under `"id"`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "id", rename_all = "snake_case")]
pub enum Reason {
    /// The first's busiest card stays under the safe share of its memory
    /// ([`crate::margin::SAFE_SHARE`]) and the rival's does not.
    UnderSafeShare {
        /// The first's busiest card: total ÷ capacity.
        share: f64,
        /// The rival's.
        rival_share: f64,
    },
    /// Quicker, and not a tie: the rival's step lies more than [`super::EQUAL_TIME_SHARE`]
    /// above the quickest plan's.
    Quicker {
        /// The rival's step minus the first's.
        #[serde(rename = "gap_s")]
        gap: Seconds,
        /// `gap` ÷ the first's step.
        share: f64,
        /// The rival's step above the quickest plan's, as a share of it (beyond the band).
        over_quickest: f64,
        /// The term of the step that differs most.
        term: Term,
        /// The rival's term minus the first's (positive: the first is quicker on it).
        #[serde(rename = "by_s")]
        by: Seconds,
    },
    /// A tie (both within the band of the quickest), and the first does not split the
    /// sequence while the rival does.
    TieNoCp {
        /// How far apart the two steps are.
        #[serde(rename = "gap_s")]
        gap: Seconds,
        /// `gap` ÷ the quicker of the two steps (at most the band).
        share: f64,
        /// The rival's CP degree.
        rival_cp: u32,
    },
    /// A tie, neither splits the sequence or both do, and the first has fewer parallel
    /// dimensions (TP, CP, PP, EP above 1).
    TieFewerDimensions {
        /// How far apart the two steps are.
        #[serde(rename = "gap_s")]
        gap: Seconds,
        /// `gap` ÷ the quicker of the two steps.
        share: f64,
        /// The first's dimensions above 1.
        dimensions: u32,
        /// The rival's.
        rival_dimensions: u32,
    },
    /// A tie, as many dimensions, and the first has fewer pipeline stages.
    TieSmallerPp {
        /// How far apart the two steps are.
        #[serde(rename = "gap_s")]
        gap: Seconds,
        /// `gap` ÷ the quicker of the two steps.
        share: f64,
        /// The first's PP.
        pp: u32,
        /// The rival's.
        rival_pp: u32,
    },
    /// A tie between plans alike in CP, dimensions and PP: the first is the quicker.
    TieQuicker {
        /// The rival's step minus the first's.
        #[serde(rename = "gap_s")]
        gap: Seconds,
        /// `gap` ÷ the first's step.
        share: f64,
    },
    /// The same step and practice; the first uses less memory on its busiest card.
    LessMemory {
        /// The rival's total minus the first's.
        #[serde(rename = "by_bytes")]
        by: Bytes,
    },
    /// Equal in time and memory: the first comes first in enumeration order.
    Enumeration,
}

impl Reason {
    /// The reason's stable id, as the CLI's JSON writes it (`"id"`) and the page tags it.
    ///
    /// ```
    /// use parallel_core::search::Reason;
    /// assert_eq!(Reason::Enumeration.id(), "enumeration");
    /// ```
    pub fn id(&self) -> &'static str {
        match self {
            Reason::UnderSafeShare { .. } => "under_safe_share",
            Reason::Quicker { .. } => "quicker",
            Reason::TieNoCp { .. } => "tie_no_cp",
            Reason::TieFewerDimensions { .. } => "tie_fewer_dimensions",
            Reason::TieSmallerPp { .. } => "tie_smaller_pp",
            Reason::TieQuicker { .. } => "tie_quicker",
            Reason::LessMemory { .. } => "less_memory",
            Reason::Enumeration => "enumeration",
        }
    }
}

impl SearchOutcome {
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
    /// first has CP > 1 and a CP-1 plan fits: [`Reason::Quicker`] with the term that differs
    /// most, or [`Reason::UnderSafeShare`].
    pub fn why_cp(&self) -> Option<Reason> {
        let first = self.plans.first()?;
        let without = self.without_cp.as_ref()?;
        Some(reason(first, without, self.quickest_step()?))
    }

    /// The quickest step on the first plan's side of the safe share: the tie band's reference.
    pub fn quickest_step(&self) -> Option<Seconds> {
        self.quickest
            .as_ref()
            .or(self.plans.first())
            .map(|q| q.report.estimate.step_s)
    }
}

/// Why `first` ranks before `rival` in the search's order (SPEC §17), where `quickest` is the
/// quickest step on the first's side of the safe share: the safe share, then, when both steps
/// are within [`super::EQUAL_TIME_SHARE`] of `quickest` (a tie), [`super::Practice`]'s order;
/// then the step, the memory and the enumeration.
///
/// ```
/// use parallel_core::hardware::Hardware;
/// use parallel_core::search::{reason, search, Reason};
/// use parallel_core::PlanConfig;
/// // The planner's default search: 64 H100s, 4,096 tokens, 256 sequences a step.
/// let base = PlanConfig { gpus: 64, global_batch: Some(256), ..PlanConfig::on(Hardware::H100) };
/// let found = search(&base, 5)?;
/// let quickest = found.quickest.as_ref().unwrap();
/// let why = reason(&found.plans[0], quickest, quickest.report.estimate.step_s);
/// assert!(matches!(why, Reason::TieNoCp { rival_cp: 2, .. }));
/// # Ok::<(), parallel_core::PlanError>(())
/// ```
pub fn reason(first: &Found, rival: &Found, quickest: Seconds) -> Reason {
    let (a, b) = (&first.report, &rival.report);
    if !a.memory.tight && b.memory.tight {
        let share = |m: &crate::memory::Memory| m.total.get() / m.capacity.get();
        return Reason::UnderSafeShare {
            share: share(&a.memory),
            rival_share: share(&b.memory),
        };
    }
    let (sa, sb) = (a.estimate.step_s.get(), b.estimate.step_s.get());
    let q = quickest.get();
    let (pa, pb) = (first.practice(), rival.practice());
    let tie = equally_quick(q, sa) && equally_quick(q, sb);
    let apart = Seconds::new((sa - sb).abs());
    let apart_share = apart.get() / sa.min(sb);
    if tie || sa == sb {
        if tie && pa.splits_sequence != pb.splits_sequence {
            return Reason::TieNoCp {
                gap: apart,
                share: apart_share,
                rival_cp: rival.config.cp,
            };
        }
        if tie && pa.dimensions != pb.dimensions {
            return Reason::TieFewerDimensions {
                gap: apart,
                share: apart_share,
                dimensions: pa.dimensions,
                rival_dimensions: pb.dimensions,
            };
        }
        if pa.pp != pb.pp {
            return Reason::TieSmallerPp {
                gap: apart,
                share: apart_share,
                pp: pa.pp,
                rival_pp: pb.pp,
            };
        }
    }
    if sa != sb {
        let gap = Seconds::new(sb - sa);
        if tie {
            return Reason::TieQuicker {
                gap,
                share: gap.get() / sa,
            };
        }
        if let Some((term, by)) = a.estimate.largest_difference(&b.estimate) {
            return Reason::Quicker {
                gap,
                share: gap.get() / sa,
                over_quickest: (sb - q) / q,
                term,
                by,
            };
        }
    }
    let by = Bytes::new(b.memory.total.get() - a.memory.total.get());
    if by.get() != 0.0 {
        Reason::LessMemory { by }
    } else {
        Reason::Enumeration
    }
}

/// Why the first of `plans` ranks first: against the second, and against `quickest` (the
/// quickest plan on its side) when that is neither.
pub(super) fn leads(plans: &[Found], quickest: Option<&Found>) -> Vec<Lead> {
    let Some(first) = plans.first() else {
        return Vec::new();
    };
    let step = quickest.map_or(first.report.estimate.step_s, |q| q.report.estimate.step_s);
    let mut leads = Vec::new();
    if let Some(second) = plans.get(1) {
        leads.push(Lead {
            against: Rival::Second,
            rank: Some(2),
            reason: reason(first, second, step),
        });
    }
    if let Some(quickest) = quickest {
        let at = plans.iter().position(|p| p.config == quickest.config);
        if at.is_none() || at > Some(1) {
            leads.push(Lead {
                against: Rival::Quickest,
                rank: at.map(|i| i + 1),
                reason: reason(first, quickest, step),
            });
        }
    }
    leads
}

/// What a search kept, by enumeration index ([`super::Search::tally`]): the counts, the best plans
/// in order, the quickest, the best with CP 1 and the near misses. Small enough to post between
/// threads.
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
    /// The best fitting plans, in the search's order.
    pub best: Vec<u64>,
    /// The quickest fitting plan on the first plan's side of the safe share (at most one).
    pub quickest: Vec<u64>,
    /// The best fitting plan with CP 1 (at most one).
    pub best_without_cp: Vec<u64>,
    /// The valid plans that do not fit, least memory first.
    pub misses: Vec<u64>,
}
