//! A search's state on the page ([`Status`]) and the search run on the page's own thread, in
//! slices ([`slice`]): where no Web Worker starts ([`super::worker`]).

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::*;
use parallel_core::search::{Search, SearchOutcome};
use parallel_core::{Bytes, PlanConfig, PlanError};

/// Candidates evaluated per timer callback (about a millisecond of wasm).
pub const SLICE: u64 = 3000;

/// Plans the table lists.
pub const TOP: usize = 20;

/// Where a search stands.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Status {
    /// Not run yet (or the inputs do not read).
    Idle,
    /// Running: the share done.
    Running(f64),
    /// Done, with the card capacity searched against.
    Done(Box<SearchOutcome>, Bytes),
    /// The core rejected the base config: why, as a value (worded when shown).
    Rejected(PlanError),
}

/// Runs one slice of `search`, then schedules the next, until done or superseded.
pub(super) fn slice(
    search: Rc<RefCell<Search>>,
    base: PlanConfig,
    run: u64,
    generation: StoredValue<u64>,
    status: RwSignal<Status>,
) {
    if generation.get_value() != run {
        return;
    }
    let finished = search.borrow_mut().advance(SLICE);
    if finished {
        let outcome = search.borrow().outcome();
        status.set(Status::Done(
            Box::new(outcome),
            Bytes::from_gb(base.gpu_memory_gb),
        ));
        return;
    }
    let share = {
        let s = search.borrow();
        s.done() as f64 / s.total().max(1) as f64
    };
    status.set(Status::Running(share));
    set_timeout(
        move || slice(search, base, run, generation, status),
        Duration::ZERO,
    );
}
