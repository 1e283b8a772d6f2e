//! The plan search (SPEC §12): every plan of a model on a cluster for a global batch, ranked
//! by estimated step time.
//!
//! The candidates are t ≤ gpus_per_node dividing N, p dividing N/t (at most L stages), c
//! dividing N/(t·p), e dividing the experts with e·p dividing N (MoE models; 1 otherwise),
//! b ∈ {1, 2, 4, 8} with m = global_batch/(d·b) whole, ZeRO 0–3, the three recompute modes,
//! and the schedules GPipe, 1F1B and interleaved with v ∈ {2, 4} (with one stage only 1F1B:
//! the schedules are then the same plan, and interleaving needs p > 1). Each is checked by
//! [`Plan::new`]'s rules; those that fit are ranked by `step_s`: under the safe share of the
//! card first; on each side, the plans within [`EQUAL_TIME_SHARE`] of the side's quickest are a
//! tie and go first in a practitioner's order ([`Practice`]: no CP, fewer parallel dimensions,
//! smaller PP), the others by step; then lower total memory. [`SearchOutcome::why_first`] says
//! why the first plan leads ([`Reason`]).
//!
//! The search keeps the best `top` plans of each [`Practice`] as it goes (by step): the first
//! `top` of the whole order are among them, whatever the band turns out to hold.
//!
//! [`Search`] runs in slices ([`Search::advance`]) so that the page can spread it over
//! several frames and drop it when its inputs change; [`search`] runs it at once.

use crate::checks::required;
use crate::config::{Field, PlanConfig, Recompute, Schedule};
use crate::error::PlanError;
use crate::model::{Model, ModelChoice};
use crate::plan::Plan;

mod outcome;
mod rank;

pub use outcome::{reason, Found, Lead, Reason, Rival, SearchOutcome, Tally};
pub use rank::{equally_quick, Practice, EQUAL_TIME_SHARE};
use rank::{faster, keep, lighter, ranking, Ranked};

/// Micro-batch sizes b the search tries.
pub const MICRO_BATCH_SIZES: [u32; 4] = [1, 2, 4, 8];

/// Plans the search returns unless told otherwise (`--top K`).
pub const DEFAULT_TOP: usize = 20;

/// Valid plans that do not fit kept to show how near they come (the least memory first).
pub const NEAR_MISSES: usize = 5;

/// The schedules tried, with v.
const SCHEDULES: [(Schedule, u32); 4] = [
    (Schedule::OneFOneB, 1),
    (Schedule::Gpipe, 1),
    (Schedule::Interleaved, 2),
    (Schedule::Interleaved, 4),
];
const RECOMPUTES: [Recompute; 3] = [Recompute::None, Recompute::Selective, Recompute::Full];
/// Variants of one layout: ZeRO × recompute × schedule.
const VARIANTS: usize = 4 * RECOMPUTES.len() * SCHEDULES.len();

/// A layout: degrees, b and the m it leaves.
#[derive(Clone, Copy, Debug)]
struct Layout {
    tp: u32,
    pp: u32,
    cp: u32,
    ep: u32,
    b: u32,
    m: u32,
    /// Its practice's place in [`Search::practices`].
    practice: usize,
}

/// A search in progress.
#[derive(Debug)]
pub struct Search {
    base: PlanConfig,
    model: Model,
    /// The model as candidates carry it (resolved once; inline when given as a config.json).
    choice: ModelChoice,
    layouts: Vec<Layout>,
    next: u64,
    considered: u64,
    valid: u64,
    fitting: u64,
    comfortable: u64,
    top: usize,
    /// The practices of the layouts, each once.
    practices: Vec<Practice>,
    /// The best `top` fitting plans of each practice (beside [`Search::practices`]), quickest
    /// first.
    best: Vec<Vec<Ranked>>,
    misses: Vec<Ranked>,
}

fn divisors(n: u32) -> impl Iterator<Item = u32> {
    (1..=n).filter(move |k| n % k == 0)
}

impl Search {
    /// Prepares the search of `base` (its gpus, gpus_per_node, model, seq_len, global_batch,
    /// gpu_memory_gb, bandwidths, gpu_tflops, precision, order and accounting are kept), for
    /// the `top` best plans. Errors name the field: a model that does not resolve, a missing
    /// `global_batch`, or a base field out of range.
    pub fn new(base: &PlanConfig, top: usize) -> Result<Search, PlanError> {
        let model = base.model.resolve()?;
        let global_batch = required(base.global_batch, Field::GlobalBatch)?;
        // The base's own fields (GPUs, memory, bandwidths, …) checked once, as a 1-way plan.
        let probe = PlanConfig {
            tp: 1,
            pp: 1,
            cp: 1,
            ep: 1,
            micro_batches: 1,
            micro_batch_size: 1,
            zero: 0,
            schedule: Schedule::OneFOneB,
            virtual_stages: 1,
            ..base.clone()
        };
        Plan::with_model(&probe, model)?;
        let choice = match &base.model {
            ModelChoice::HfConfig(config) => ModelChoice::Inline(config.to_model()?.model),
            other => other.clone(),
        };
        let n = base.gpus;
        let experts = model.moe.map(|m| m.experts);
        let mut layouts = Vec::new();
        let mut practices: Vec<Practice> = Vec::new();
        for tp in divisors(n).filter(|t| *t <= base.gpus_per_node) {
            for pp in divisors(n / tp).filter(|p| *p <= model.layers) {
                for cp in divisors(n / (tp * pp)) {
                    let dp = n / (tp * pp * cp);
                    let eps: Vec<u32> = match experts {
                        Some(experts) => divisors(experts)
                            .filter(|e| u64::from(*e) * u64::from(pp) <= u64::from(n))
                            .filter(|e| n % (e * pp) == 0)
                            .collect(),
                        None => vec![1],
                    };
                    for ep in eps {
                        let kind = Practice::of(tp, cp, pp, ep);
                        let practice = match practices.iter().position(|p| *p == kind) {
                            Some(at) => at,
                            None => {
                                practices.push(kind);
                                practices.len() - 1
                            }
                        };
                        for b in MICRO_BATCH_SIZES {
                            let per_step = u64::from(dp) * u64::from(b);
                            if u64::from(global_batch) % per_step == 0 {
                                let m = (u64::from(global_batch) / per_step) as u32;
                                layouts.push(Layout {
                                    tp,
                                    pp,
                                    cp,
                                    ep,
                                    b,
                                    m,
                                    practice,
                                });
                            }
                        }
                    }
                }
            }
        }
        Ok(Search {
            base: base.clone(),
            model,
            choice,
            layouts,
            next: 0,
            considered: 0,
            valid: 0,
            fitting: 0,
            comfortable: 0,
            top,
            best: vec![Vec::new(); practices.len()],
            practices,
            misses: Vec::new(),
        })
    }

    /// Enumeration slots in all (layouts × variants; with one stage, the slots of other
    /// schedules than 1F1B are skipped, not considered).
    pub fn total(&self) -> u64 {
        self.layouts.len() as u64 * VARIANTS as u64
    }

    /// Enumeration slots done so far (for a progress bar: `done() / total()`).
    pub fn done(&self) -> u64 {
        self.next
    }

    /// Whether slot `index` is a distinct plan: with one stage only 1F1B is.
    fn distinct(&self, index: u64) -> bool {
        let layout = self.layouts[(index / VARIANTS as u64) as usize];
        let variant = (index % VARIANTS as u64) as usize;
        layout.pp > 1 || SCHEDULES[variant % SCHEDULES.len()].0 == Schedule::OneFOneB
    }

    /// The candidate config at enumeration index `index` (the base's other fields kept).
    fn candidate(&self, index: u64) -> PlanConfig {
        let layout = self.layouts[(index / VARIANTS as u64) as usize];
        let variant = (index % VARIANTS as u64) as usize;
        let (schedule, virtual_stages) = SCHEDULES[variant % SCHEDULES.len()];
        let recompute = RECOMPUTES[(variant / SCHEDULES.len()) % RECOMPUTES.len()];
        let zero = (variant / (SCHEDULES.len() * RECOMPUTES.len())) as u8;
        PlanConfig {
            model: self.choice.clone(),
            tp: layout.tp,
            pp: layout.pp,
            cp: layout.cp,
            ep: layout.ep,
            micro_batches: layout.m,
            micro_batch_size: layout.b,
            zero,
            recompute,
            schedule,
            virtual_stages,
            ..self.base.clone()
        }
    }

    /// Evaluates up to `budget` more candidates; true when every candidate is done.
    pub fn advance(&mut self, budget: u64) -> bool {
        let end = (self.next + budget).min(self.total());
        while self.next < end {
            let index = self.next;
            self.next += 1;
            if !self.distinct(index) {
                continue;
            }
            self.considered += 1;
            let Ok(plan) = Plan::with_model(&self.candidate(index), self.model) else {
                continue;
            };
            self.valid += 1;
            let (total, fits, tight) = plan.headline_memory();
            if fits {
                self.fitting += 1;
                self.comfortable += u64::from(!tight);
                let at = self.layouts[(index / VARIANTS as u64) as usize].practice;
                let ranked = Ranked {
                    tight,
                    step: plan.estimate().step_s.get(),
                    practice: self.practices[at],
                    total,
                    index,
                };
                keep(&mut self.best[at], self.top, ranked, faster);
            } else {
                let at = self.layouts[(index / VARIANTS as u64) as usize].practice;
                keep(
                    &mut self.misses,
                    NEAR_MISSES,
                    Ranked {
                        tight,
                        step: 0.0,
                        practice: self.practices[at],
                        total,
                        index,
                    },
                    lighter,
                );
            }
        }
        self.next >= self.total()
    }

    /// What the search has kept so far, by enumeration index: with the same base, another
    /// [`Search`] (in another thread, say a Web Worker's) builds the same outcome from it
    /// ([`Search::outcome_of`]) without enumerating again.
    pub fn tally(&self) -> Tally {
        let indices = |ranked: &[Ranked]| ranked.iter().map(|r| r.index).collect();
        let kept = self.best.iter().flatten().copied().collect();
        let (best, quickest) = ranking(kept, self.top);
        let without_cp = self
            .best
            .iter()
            .filter_map(|plans| plans.first())
            .filter(|r| !r.practice.splits_sequence)
            .min_by(|a, b| faster(a, b));
        Tally {
            considered: self.considered,
            valid: self.valid,
            fitting: self.fitting,
            comfortable: self.comfortable,
            best: indices(&best),
            quickest: quickest.iter().map(|r| r.index).collect(),
            best_without_cp: without_cp.iter().map(|r| r.index).collect(),
            misses: indices(&self.misses),
        }
    }

    /// The outcome so far (all of it once [`Search::advance`] returned true): the kept plans
    /// with their full reports, their model as the base gave it.
    pub fn outcome(&self) -> SearchOutcome {
        self.outcome_of(&self.tally())
    }

    /// The outcome of a tally of this search's base: the kept plans evaluated again with
    /// their full reports, their model as the base gave it. An index outside the enumeration
    /// (a tally of another base) is skipped.
    pub fn outcome_of(&self, tally: &Tally) -> SearchOutcome {
        let found = |indices: &[u64]| -> Vec<Found> {
            indices
                .iter()
                .filter(|index| **index < self.total())
                .filter_map(|&index| {
                    let mut config = self.candidate(index);
                    let plan = Plan::with_model(&config, self.model).ok()?;
                    config.model = self.base.model.clone();
                    Some(Found {
                        report: plan.report(),
                        config,
                    })
                })
                .collect()
        };
        let plans = found(&tally.best);
        let first_splits = plans.first().is_some_and(|f| f.config.cp > 1);
        let without_cp = first_splits
            .then(|| found(&tally.best_without_cp).into_iter().next())
            .flatten();
        let quickest = found(&tally.quickest)
            .into_iter()
            .next()
            .filter(|q| plans.first().is_some_and(|f| f.config != q.config));
        SearchOutcome {
            considered: tally.considered,
            valid: tally.valid,
            fitting: tally.fitting,
            comfortable: tally.comfortable,
            why_first: outcome::leads(&plans, quickest.as_ref()),
            quickest,
            without_cp,
            plans,
            near_misses: found(&tally.misses),
        }
    }
}

/// The search both benchmarks time (`parallel-lab bench` natively, `tests/bench.mjs` in the
/// page's wasm): the anchor on 1,024 cards (8 a node), a global batch of 1,024 sequences of
/// 4,096 tokens.
pub fn bench_config() -> PlanConfig {
    PlanConfig {
        gpus: 1024,
        global_batch: Some(1024),
        ..PlanConfig::default()
    }
}

/// Runs the whole search of `base` for the `top` best plans (SPEC §12).
///
/// ```
/// use parallel_core::{search::search, PlanConfig};
/// // The lesson's 8 cards with a global batch of 64 sequences.
/// let found = search(&PlanConfig { global_batch: Some(64), ..PlanConfig::default() }, 20)?;
/// assert!(found.fitting > 0 && found.fitting <= found.valid && found.valid <= found.considered);
/// let steps: Vec<f64> = found.plans.iter().map(|p| p.report.estimate.step_s.get()).collect();
/// assert!(steps.windows(2).all(|w| w[0] <= w[1]));
/// # Ok::<(), parallel_core::PlanError>(())
/// ```
pub fn search(base: &PlanConfig, top: usize) -> Result<SearchOutcome, PlanError> {
    let mut search = Search::new(base, top)?;
    search.advance(u64::MAX);
    Ok(search.outcome())
}

impl Plan {
    /// The headline memory's total, whether it fits and whether it is tight, in this plan's
    /// accounting, without building the whole report (the search asks this of every
    /// candidate).
    pub(crate) fn headline_memory(&self) -> (f64, bool, bool) {
        match self.config().accounting {
            crate::config::Accounting::Even => {
                let m = self.memory();
                (m.total.get(), m.fits, m.tight)
            }
            crate::config::Accounting::Stages => {
                let stages = self.memory_by_stage();
                let busiest = crate::stages::busiest(&stages) as usize;
                stages
                    .get(busiest)
                    .map_or((0.0, false, false), |s| (s.total.get(), s.fits, s.tight))
            }
        }
    }
}
