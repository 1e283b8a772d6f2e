//! "Which plan should I use?": the plan search of SPEC §12 on the page. Model, cards, cards
//! per node, sequence, global batch, card memory, bandwidths and TFLOP/s in; the fitting
//! plans ranked by estimated step time out, each loadable into the grid of its size.
//!
//! The first search waits until the panel comes near the viewport (a reader who never scrolls
//! here costs the page nothing). Then it runs when the inputs settle ([`SETTLE_MS`] after the
//! last keystroke) or on the
//! button, in a Web Worker ([`worker`]; where none starts, in slices of [`SLICE`] candidates
//! spread over timer callbacks), so a slider moved meanwhile is never blocked; a change of
//! input drops the search in flight.
//!
//! Rooms: [`form`] reads the inputs into a `PlanConfig` (no views), [`results`] shows the
//! outcome; beside the search, [`runs`] sets the published runs and [`measured`] the figures
//! measured on one H200 against the lab's.

pub mod form;
pub mod measured;
pub mod results;
mod running;
pub mod runs;
pub mod worker;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::*;
use parallel_core::hardware::Hardware;
use parallel_core::search::{Search, EQUAL_TIME_SHARE};
use parallel_core::{PlanConfig, Preset};

use crate::kit::error_text::explain;
use crate::kit::fields::{NumberField, SelectField};
use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::state::lab::GridLab;
use form::{card_texts, config_of, defaults, FIELDS, FIRST_CARD_FIELD};
use results::{sorted, summary, PlanTable, SortKey};
use running::{slice, Status};
pub use running::{SLICE, TOP};

/// How long the inputs must rest before the search runs on its own.
pub const SETTLE_MS: u64 = 400;

/// The search panel. A row's `load` puts its plan into `lab8` or `lab64` and scrolls there.
#[component]
pub fn PlanSearch(lab8: GridLab, lab64: GridLab) -> impl IntoView {
    let lang = use_lang();
    let model = RwSignal::new(Preset::Qwen38_27b);
    let hardware = RwSignal::new(form::DEFAULT_CARD);
    let texts: [RwSignal<String>; FIELDS.len()] = defaults().map(RwSignal::new);
    // Picking a card writes its numbers into the card fields, which stay editable.
    Effect::new(move |previous: Option<Hardware>| {
        let card = hardware.get();
        if previous.is_some_and(|p| p != card) {
            for (field, text) in texts[FIRST_CARD_FIELD..].iter().zip(card_texts(card)) {
                field.set(text);
            }
        }
        card
    });
    let config = Memo::new(move |_| {
        let values = texts.map(|t| t.get());
        config_of(model.get(), hardware.get(), &values).ok()
    });
    let status = RwSignal::new(Status::Idle);
    // Bumped by every input change and every start: a slice of an older run sees a newer
    // number and stops.
    let generation = StoredValue::new(0u64);

    let run_now = move || {
        let Some(base) = config.get_untracked() else {
            status.set(Status::Idle);
            return;
        };
        let run = generation.get_value() + 1;
        generation.set_value(run);
        match Search::new(&base, TOP) {
            Err(e) => status.set(Status::Rejected(e)),
            Ok(search) => {
                status.set(Status::Running(0.0));
                // In a Web Worker; on the page, in slices, where none starts.
                if let Err(search) = worker::run(search, base.clone(), run, generation, status) {
                    slice(
                        Rc::new(RefCell::new(*search)),
                        base,
                        run,
                        generation,
                        status,
                    );
                }
            }
        }
    };
    // The first search waits until the panel comes near the viewport: a student who never
    // scrolls here costs the page nothing.
    let panel = NodeRef::<leptos::html::Div>::new();
    let near = RwSignal::new(false);
    let seen = Memo::new(move |was: Option<&bool>| was.copied().unwrap_or(false) || near.get());
    Effect::new(move |_| {
        if let Some(element) = panel.get() {
            crate::kit::charts::canvas::watch_visibility(&element, near);
        }
    });
    // Inputs settle → search.
    let started = StoredValue::new(false);
    Effect::new(move |_| {
        let readable = config.with(Option::is_some);
        if !seen.get() {
            return;
        }
        let run = generation.get_value() + 1;
        generation.set_value(run);
        worker::stop();
        // The shown outcome is of other inputs now: it goes until the new one is in.
        status.set(Status::Idle);
        if !readable {
            return;
        }
        // The first run (the panel just came into view) starts at once; later ones wait for
        // the inputs to settle.
        let delay = if started.get_value() { SETTLE_MS } else { 0 };
        started.set_value(true);
        set_timeout(
            move || {
                if generation.get_value() == run {
                    run_now();
                }
            },
            Duration::from_millis(delay),
        );
    });

    let sort = RwSignal::new((SortKey::Rank, false));
    let rows = Signal::derive(move || {
        let (key, descending) = sort.get();
        status.with(|s| match s {
            Status::Done(outcome, _) => sorted(&outcome.plans, key, descending),
            _ => Vec::new(),
        })
    });
    let misses = Signal::derive(move || {
        status.with(|s| match s {
            Status::Done(outcome, _) if outcome.fitting == 0 => {
                sorted(&outcome.near_misses, SortKey::Memory, false)
            }
            _ => Vec::new(),
        })
    });
    let on_load = Callback::new(move |plan: PlanConfig| {
        let (lab, section) = if plan.gpus == 8 {
            (lab8, "section-8")
        } else {
            (lab64, "section-64")
        };
        lab.selected.set(None);
        lab.load(plan);
        crate::state::scroll::bring_into_view(format!("[data-testid=\"{section}\"]"));
    });

    let fields = FIELDS
        .iter()
        .zip(texts)
        .map(|(field, value)| {
            view! {
                <NumberField id=field.id label_zh=field.zh label_en=field.en unit=field.unit
                    example=field.example value=value validate=field.check />
            }
        })
        .collect_view();
    let state_line = move || status.with(|s| status_line(lang.get(), s));
    let running = move || status.with(|s| matches!(s, Status::Running(_)));
    let done = move || status.with(|s| matches!(s, Status::Done(..)));
    view! {
        <div class="search-panel" data-testid="search-panel" node_ref=panel>
            <h3><T zh="哪套方案最快？把所有方案搜一遍" en="Which plan is quickest? Search every plan" /></h3>
            <p class="lead">
                {move || results::text::LEAD.fill(lang.get(), &[
                    ("safe", &format::safe_share()),
                    ("band", &format::rule_percent(EQUAL_TIME_SHARE)),
                ])}
            </p>
            <div class="search-form decision-form">
                <SelectField id="search-model" label_zh="模型" label_en="Model" choices=form::models() value=model />
                <SelectField id="search-hardware" label_zh="卡型" label_en="Card" choices=form::cards() value=hardware />
                {fields}
                <button type="button" data-testid="search-run" disabled=running on:click=move |_| run_now()>
                    <T zh="搜索" en="Search" />
                </button>
            </div>
            <p class="search-status" role="status" data-testid="search-status"
               data-done=move || done().to_string()>{state_line}</p>
            <ul class="search-why" data-testid="search-why">
                {move || status.with(|s| match s {
                    Status::Done(outcome, _) => results::why_first(lang.get(), outcome),
                    _ => Vec::new(),
                }).into_iter().map(|(id, sentence)| view! {
                    <li data-reason=id>{sentence}</li>
                }).collect_view()}
            </ul>
            <Show when=move || !rows.with(Vec::is_empty)>
                <PlanTable rows=rows miss=false sort=sort on_load=on_load />
            </Show>
            <Show when=move || !misses.with(Vec::is_empty)>
                <PlanTable rows=misses miss=true sort=sort on_load=on_load />
            </Show>
        </div>
    }
}

/// The status line of a search in `lang`. A rejection is kept as the core's error and worded
/// here, so a language switch after it rewords it.
fn status_line(lang: Lang, status: &Status) -> String {
    match status {
        Status::Idle => lang
            .pick(
                "上面的数都填好、停下来后，就会自动搜索。",
                "The search runs on its own once the figures above read and rest.",
            )
            .to_string(),
        Status::Running(done) => format!(
            "{}{:.0}%",
            lang.pick("正在搜索… ", "Searching… "),
            done * 100.0
        ),
        Status::Rejected(error) => explain(lang, error),
        Status::Done(outcome, capacity) => summary(lang, outcome, *capacity).join(" "),
    }
}

#[cfg(test)]
mod status_tests {
    use super::*;
    use parallel_core::search::Search;

    #[test]
    fn a_rejection_is_worded_in_the_language_shown_now() {
        let base = PlanConfig {
            nvlink_gbps: 0.0,
            global_batch: Some(64),
            ..PlanConfig::default()
        };
        let Err(error) = Search::new(&base, 5) else {
            panic!("a search over a 0 GB/s NVLink is refused");
        };
        let status = Status::Rejected(error);
        let (zh, en) = (
            status_line(Lang::Zh, &status),
            status_line(Lang::En, &status),
        );
        assert!(parallel_core::lang::has_cjk(&zh), "{zh}");
        assert!(!parallel_core::lang::has_cjk(&en), "{en}");
        assert!(en.contains("nvlink_gbps"), "{en}");
    }
}
