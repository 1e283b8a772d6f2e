//! The plan search in a Web Worker, so that no search, however many cards, holds up the page.
//!
//! The planner (`plan.html`) loads a second wasm for it, the `parallel-search` binary, through
//! Trunk's loader shim (`parallel-search_loader.js`). The page posts the search's base plan;
//! the worker enumerates every candidate ([`Search::advance`]) and posts its progress, then
//! the search's [`Tally`] (the counts and the kept plans' enumeration indices). The page builds
//! the outcome from the tally with a search of the same base ([`Search::outcome_of`]: the 26 or
//! so kept plans evaluated again), so the results are the CLI's exactly. A newer search
//! terminates the worker of the older one. Where no worker starts (its script missing, say),
//! the page runs the search in slices on its own thread, as it did before.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use parallel_core::search::{Search, Tally};
use parallel_core::{Bytes, PlanConfig};
use serde::{Deserialize, Serialize};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use super::running::{slice, Status, SLICE, TOP};

/// The worker's script, next to the page (Trunk writes it unhashed).
const SCRIPT: &str = "./parallel-search_loader.js";

/// What the worker posts back.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reply {
    /// Its wasm is running and it listens: the page may post the base now (a message posted
    /// before would reach no handler, the wasm still loading).
    Ready,
    /// The share of the candidates done.
    Progress {
        /// Done ÷ total, 0 to 1.
        share: f64,
    },
    /// Every candidate is done: what the search kept.
    Done {
        /// The enumeration's slots: the page's search of the same base has as many, unless
        /// the worker's code is not the page's (a stale copy), which the page then does not use.
        total: u64,
        /// The counts and the kept plans' indices.
        tally: Tally,
    },
    /// The base did not read as a plan, or the core rejected it.
    Failed,
}

/// The worker's side: answers each posted base plan with progress, then its tally. Called by
/// the `parallel-search` binary's `main`; outside a dedicated worker it does nothing.
pub fn serve() {
    let Ok(scope) = js_sys::global().dyn_into::<web_sys::DedicatedWorkerGlobalScope>() else {
        return;
    };
    let out = scope.clone();
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            let post = |reply: &Reply| {
                if let Ok(value) = serde_wasm_bindgen::to_value(reply) {
                    let _ = out.post_message(&value);
                }
            };
            let search = serde_wasm_bindgen::from_value::<PlanConfig>(event.data())
                .ok()
                .and_then(|base| Search::new(&base, TOP).ok());
            let Some(mut search) = search else {
                post(&Reply::Failed);
                return;
            };
            while !search.advance(SLICE) {
                let share = search.done() as f64 / search.total().max(1) as f64;
                post(&Reply::Progress { share });
            }
            post(&Reply::Done {
                total: search.total(),
                tally: search.tally(),
            });
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    if let Ok(ready) = serde_wasm_bindgen::to_value(&Reply::Ready) {
        let _ = scope.post_message(&ready);
    }
}

/// Runs the search a handler holds on the page instead, in slices (once: it is taken).
fn run_here(
    search: &RefCell<Option<Search>>,
    base: &PlanConfig,
    run: u64,
    generation: StoredValue<u64>,
    status: RwSignal<Status>,
) {
    if let Some(search) = search.borrow_mut().take() {
        slice(
            Rc::new(RefCell::new(search)),
            base.clone(),
            run,
            generation,
            status,
        );
    }
}

/// The worker of the search in flight, with its message and error handlers.
type Running = (
    web_sys::Worker,
    Closure<dyn Fn(web_sys::MessageEvent)>,
    Closure<dyn Fn(web_sys::Event)>,
);

thread_local! {
    static CURRENT: RefCell<Option<Running>> = const { RefCell::new(None) };
}

/// Stops the search in flight, if any, and drops its handler. Never called from that
/// handler (it would free the closure that is running): see [`terminate`].
pub(super) fn stop() {
    CURRENT.with(|current| {
        if let Some((worker, _, _)) = current.borrow_mut().take() {
            worker.terminate();
        }
    });
}

/// Stops the worker in flight and keeps its handler until the next search replaces it: for
/// the handler itself, once it has what it waited for.
fn terminate() {
    CURRENT.with(|current| {
        if let Some((worker, _, _)) = current.borrow().as_ref() {
            worker.terminate();
        }
    });
}

/// Runs `search` (prepared on the page from `base`) in a new worker, superseding the one in
/// flight; its progress and outcome go to `status` while `generation` is still `run`. Gives
/// the search back when no worker could be started: then the caller runs it on the page.
pub(super) fn run(
    search: Search,
    base: PlanConfig,
    run: u64,
    generation: StoredValue<u64>,
    status: RwSignal<Status>,
) -> Result<(), Box<Search>> {
    stop();
    let Ok(worker) = web_sys::Worker::new(SCRIPT) else {
        return Err(Box::new(search));
    };
    let Ok(message) = serde_wasm_bindgen::to_value(&base) else {
        worker.terminate();
        return Err(Box::new(search));
    };
    let to_worker = worker.clone();
    let capacity = Bytes::from_gb(base.gpu_memory_gb);
    let search = Rc::new(RefCell::new(Some(search)));
    // A worker that cannot load (its script missing, say) never says it is ready: search on
    // the page.
    let on_error = {
        let (search, base) = (search.clone(), base.clone());
        Closure::<dyn Fn(web_sys::Event)>::new(move |_: web_sys::Event| {
            if generation.get_value() == run {
                terminate();
                run_here(&search, &base, run, generation, status);
            }
        })
    };
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            if generation.get_value() != run {
                return;
            }
            match serde_wasm_bindgen::from_value::<Reply>(event.data()) {
                Ok(Reply::Ready) => {
                    if to_worker.post_message(&message).is_err() {
                        terminate();
                        run_here(&search, &base, run, generation, status);
                    }
                }
                Ok(Reply::Progress { share }) => status.set(Status::Running(share)),
                Ok(Reply::Done { total, tally })
                    if search.borrow().as_ref().is_some_and(|s| s.total() == total) =>
                {
                    if let Some(search) = search.borrow().as_ref() {
                        let outcome = search.outcome_of(&tally);
                        status.set(Status::Done(Box::new(outcome), capacity));
                    }
                    terminate();
                }
                // The worker could not read what the page read, or is not the page's own
                // code: search on the page.
                Ok(Reply::Failed | Reply::Done { .. }) | Err(_) => {
                    terminate();
                    run_here(&search, &base, run, generation, status);
                }
            }
        });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    CURRENT.with(|current| *current.borrow_mut() = Some((worker, on_message, on_error)));
    Ok(())
}
