//! The reactive state of one device grid: the config the controls show, the last valid plan,
//! the selected card, and everything derived from them through memos, so that many views
//! read one computation.

use leptos::prelude::*;
use parallel_core::estimate::CommTime;
use parallel_core::{
    Dim, Field, Groups, Plan, PlanConfig, PlanError, Report, RolloutPhase, RolloutReport,
    StageMemory, Traffic,
};

/// What one card of the grid holds in the phase shown: its training memory (its stage's, or
/// the even split's), or in the rollout phase its engine and a rollout card's memory.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CardLoad {
    /// The training phase: the card's memory as `cards_memory` gives it.
    Training(StageMemory),
    /// The rollout phase (SPEC §15): the card's engine, a rollout card's weights and KV cache
    /// (the report's `rollout`, whose `tight` says whether that total is above the safe share of the card).
    Rollout {
        /// The engine the card serves, ⌊card/E⌋.
        engine: u32,
        /// The report's `rollout`: every rollout card holds the same.
        memory: RolloutReport,
    },
}

/// One grid's state: what the student set and what the core makes of it.
#[derive(Clone, Copy)]
pub struct GridLab {
    /// The config as the controls show it (possibly invalid).
    pub config: RwSignal<PlanConfig>,
    /// The card whose groups are lit, if any.
    pub selected: RwSignal<Option<u32>>,
    /// The control the student touched last (the config field it sets), where errors are
    /// shown; `None` after a whole config was loaded.
    pub last_edited: RwSignal<Option<Field>>,
    /// Why the current config is rejected, if it is.
    pub error: Memo<Option<PlanError>>,
    /// The last valid plan: the page keeps showing it while the config is invalid.
    pub plan: Memo<Plan>,
    /// The report of `plan`.
    pub report: Memo<Report>,
    /// Traffic per dimension: from the selected card's own groups, or plan-wide.
    pub traffic: Memo<Vec<Traffic>>,
    /// The phase the student picked for the grid (`select-phase`).
    pub phase: RwSignal<RolloutPhase>,
    /// The phase the grid shows: the one picked when the plan's engines run on its own cards
    /// (colocated), training otherwise.
    pub shown_phase: Memo<RolloutPhase>,
    /// The selected card's groups in the phase shown (its engine in the rollout phase).
    pub groups: Memo<Option<Groups>>,
    /// What each card holds in the phase shown, card by card.
    pub card_loads: Memo<Vec<CardLoad>>,
    /// The memory each card shows (its own stage's with "stages", the even split's with
    /// "even"), card by card.
    pub cards_memory: Memo<Vec<StageMemory>>,
    /// Each dimension's time in the estimate (α–β, SPEC §17), from the plan's own traffic.
    pub comm_times: Memo<Vec<CommTime>>,
}

impl GridLab {
    /// State for a grid that starts at `initial` (which must be valid: the lesson's starts
    /// are; an invalid one falls back to the core's defaults).
    pub fn new(initial: PlanConfig) -> GridLab {
        let fallback = Plan::new(&initial).unwrap_or_default();
        let config = RwSignal::new(initial);
        let selected = RwSignal::new(None::<u32>);
        let checked = Memo::new(move |_| Plan::new(&config.read()));
        let error = Memo::new(move |_| checked.read().as_ref().err().cloned());
        let plan = Memo::new(move |previous: Option<&Plan>| match &*checked.read() {
            Ok(plan) => plan.clone(),
            Err(_) => previous.cloned().unwrap_or_else(|| fallback.clone()),
        });
        let report = Memo::new(move |_| plan.read().report());
        let traffic = Memo::new(move |_| {
            let plan = plan.read();
            match selected.get() {
                Some(card) => plan
                    .traffic_for_card(card)
                    .unwrap_or_else(|_| plan.traffic()),
                None => plan.traffic(),
            }
        });
        let phase = RwSignal::new(RolloutPhase::Training);
        let shown_phase = Memo::new(move |_| {
            let colocated = report.with(|r| r.rollout.is_some_and(|r| r.colocated));
            if colocated {
                phase.get()
            } else {
                RolloutPhase::Training
            }
        });
        let groups = Memo::new(move |_| {
            let card = selected.get()?;
            plan.read()
                .groups_in(shown_phase.get(), card)
                .ok()
                .flatten()
        });
        let cards_memory = Memo::new(move |_| report.with(|r| plan.read().cards_memory(r)));
        let card_loads = Memo::new(move |_| {
            let rollout = report.with(|r| r.rollout);
            match (shown_phase.get(), rollout) {
                (RolloutPhase::Rollout, Some(memory)) => {
                    let plan = plan.read();
                    (0..plan.gpus())
                        .map(|card| CardLoad::Rollout {
                            engine: plan.engine_of(card).ok().flatten().unwrap_or_default(),
                            memory,
                        })
                        .collect()
                }
                _ => cards_memory
                    .get()
                    .into_iter()
                    .map(CardLoad::Training)
                    .collect(),
            }
        });
        let comm_times = Memo::new(move |_| report.with(|r| plan.read().comm_times(&r.comm)));
        GridLab {
            config,
            selected,
            last_edited: RwSignal::new(None),
            error,
            plan,
            report,
            traffic,
            phase,
            shown_phase,
            groups,
            card_loads,
            cards_memory,
            comm_times,
        }
    }

    /// Changes the config through `edit`, remembering which field the student touched.
    pub fn edit(&self, field: Field, edit: impl FnOnce(&mut PlanConfig)) {
        self.touch(Some(field));
        self.config.update(edit);
    }

    /// Replaces the whole config (a table row or a guided task) and clears the error focus.
    pub fn load(&self, config: PlanConfig) {
        self.touch(None);
        self.config.set(config);
    }

    /// [`GridLab::load`] from a button away from the grid (a step's setup, a table's row, a
    /// search result), then brings the grid it changed to the top of the viewport
    /// ([`crate::state::scroll::bring_into_view`]): the student sees what the button did.
    pub fn load_into_view(&self, config: PlanConfig) {
        let gpus = self.config.with_untracked(|c| c.gpus);
        self.load(config);
        crate::state::scroll::bring_into_view(format!("[data-grid-view=\"{gpus}\"]"));
    }

    /// Why the core refuses the plan, when `field`'s control is the one moved last (each
    /// control shows the reason under itself); `None` otherwise or when the plan is valid.
    pub fn error_for(&self, field: Field) -> Option<PlanError> {
        if self.last_edited.get() != Some(field) {
            return None;
        }
        self.error.get()
    }

    /// Records the control touched last; only a different one wakes the controls' error
    /// views (a slider moved twice in a row does not run the others' again).
    fn touch(&self, field: Option<Field>) {
        if self.last_edited.get_untracked() != field {
            self.last_edited.set(field);
        }
    }

    /// Toggles the selection of `card`: selecting it again clears it.
    pub fn toggle(&self, card: u32) {
        self.selected.update(|selected| {
            *selected = if *selected == Some(card) {
                None
            } else {
                Some(card)
            }
        });
    }
}

/// A part of a lab's state that a figure or control shows, as a memo: it runs again only when
/// its part changes.
pub fn part<T>(read: impl Fn() -> T + Send + Sync + 'static) -> Signal<T>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    Memo::new(move |_| read()).into()
}

/// The groups of the selected card that a given card belongs to, in the order tp, cp, pp, dp,
/// ep, edp (only groups of more than one card; EP and expert DP for MoE models with e > 1).
pub fn roles_of(groups: &Groups, card: u32) -> Vec<Dim> {
    groups
        .each()
        .filter(|(_, members)| members.len() > 1 && members.contains(&card))
        .map(|(dim, _)| dim)
        .collect()
}
