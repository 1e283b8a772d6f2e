//! "Check on a GPU" under a grid (issue 38, SPEC §19): one card of the grid's plan checked on
//! the GPU a student has. The card is the grid's selected one (card 0 when none is): its
//! workload (`workload`: the file `parallel-lab check --emit --card N` prints, the measuring
//! program `check.py` and the command), then the measured file it writes brought back
//! (`load`: chosen, dropped or pasted, read by the core) and set beside the lab
//! (`comparison`, with the chart `charts::CheckPlot`). The planner's panel ([`GpuCheck`]) does
//! all of it; the lesson's ([`GpuCheckOffer`]) offers the workload and the command and sends
//! the measured file to the planner with the plan and card in the link, so that the lesson's
//! wasm holds none of the reading, the comparison or the chart. The panels are closed at
//! first and build their contents when first opened; every figure in them is the core's
//! (`Plan::workload`, `Measured::compare`).

mod comparison;
mod load;
mod text;
mod workload;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests;

use leptos::html::Details;
use leptos::prelude::*;
use parallel_core::check::{measured_for, Comparison};

use crate::kit::error_text::explain;
use crate::kit::i18n::use_lang;
use crate::state::lab::GridLab;
use crate::state::permalink::PageState;
use comparison::ComparisonView;
use load::{Loaded, MeasuredInput, Refused};
use parallel_core::link::{encode, for_page, Entry};
use workload::WorkloadSteps;

use crate::state::split::split_part;

split_part! { in gpu_check;
    /// The planner's panel ([`GpuCheck`]), from a split module of its own.
    pub fn gpu_check_panel(lab: GridLab) { view! { <GpuCheck lab=lab /> } }
}

split_part! { in gpu_check;
    /// The lesson's panel ([`GpuCheckOffer`]), from the same split module.
    pub fn gpu_check_offer(lab: GridLab) { view! { <GpuCheckOffer lab=lab /> } }
}

/// The planner's panel of one grid: the workload, the measured file and the comparison.
#[component]
pub fn GpuCheck(lab: GridLab) -> impl IntoView {
    view! {
        <Folded>
            <CheckBody lab=lab />
        </Folded>
    }
}

/// The lesson's panel of one grid: the workload and the command, and the measured file taken
/// to the planner's panel of the same plan and card.
#[component]
pub fn GpuCheckOffer(lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let page = use_context::<PageState>();
    let href = move || {
        let state = page.map(|page| for_page(&page.to_link(), Entry::Plan));
        format!(
            "{}#{}",
            Entry::Plan.file(),
            state.map(|s| encode(&s)).unwrap_or_default()
        )
    };
    view! {
        <Folded>
            <div class="gpu-check-body">
                <Workload lab=lab checked=Checked::of(lab) last=ViewFn::from(move || view! {
                    {move || text::TO_PLANNER.get(lang.get())}" "
                    <a href=href data-testid="gpu-check-planner">{move || text::PLANNER.get(lang.get())}</a>
                }) />
            </div>
        </Folded>
    }
}

/// The folded panel; its contents are built when it is first opened, then kept (a
/// comparison survives closing it).
#[component]
fn Folded(children: ChildrenFn) -> impl IntoView {
    let lang = use_lang();
    let details = NodeRef::<Details>::new();
    // Built when first opened, then kept (a comparison survives closing the panel).
    let opened = RwSignal::new(false);
    let on_toggle = move |_| {
        if details.get_untracked().is_some_and(|d| d.open()) && !opened.get_untracked() {
            opened.set(true);
        }
    };
    view! {
        <details class="gpu-check" data-testid="gpu-check" node_ref=details on:toggle=on_toggle>
            <summary>{move || text::SUMMARY.get(lang.get())}</summary>
            <Show when=move || opened.get()>
                {children()}
            </Show>
        </details>
    }
}

/// The card the panel checks and its first steps (the workload and the command), or the
/// plan's own reason while the grid's config is refused; `last` is the step after them.
#[component]
fn Workload(lab: GridLab, checked: Checked, last: ViewFn) -> impl IntoView {
    let lang = use_lang();
    let Checked { card, workload } = checked;
    let card_line = move || {
        workload.with(|w| match w {
            Ok(w) => text::CARD.fill(
                lang.get(),
                &[
                    ("card", &w.card),
                    ("stage", &w.coords.pp),
                    ("layers", &w.layers.total),
                    ("held", &w.held()),
                ],
            ),
            Err(error) => explain(lang.get(), error),
        })
    };
    move || {
        match lab.error.get() {
        Some(error) => view! {
            <p class="control-error" role="status" data-testid="gpu-check-plan-error">{move || explain(lang.get(), &error)}</p>
        }
        .into_any(),
        None => view! {
            <p data-testid="gpu-check-card" data-checked=move || card.get().to_string()>{card_line}</p>
            <ol class="gpu-check-steps">
                <WorkloadSteps plan=lab.plan card=card />
                <li>{last.run()}</li>
            </ol>
        }
        .into_any(),
    }
    }
}

/// The card a grid's panel checks (its selected one, card 0 when none is) and its workload,
/// derived once for everything the panel shows of it.
#[derive(Clone, Copy)]
struct Checked {
    card: Memo<u32>,
    workload: Memo<Result<parallel_core::check::Workload, parallel_core::PlanError>>,
}

impl Checked {
    fn of(lab: GridLab) -> Checked {
        let card = Memo::new(move |_| lab.selected.get().unwrap_or(0));
        let workload = Memo::new(move |_| lab.plan.with(|p| p.workload(card.get())));
        Checked { card, workload }
    }
}

/// What the planner's panel holds once opened.
#[component]
fn CheckBody(lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let gpus = lab.config.with_untracked(|c| c.gpus);
    let checked = Checked::of(lab);
    let loaded = RwSignal::<Loaded>::new(None);
    let result = Memo::new(move |_| -> Option<Result<Comparison, Refused>> {
        loaded.with(|l| {
            l.as_ref().map(|read| match read {
                Ok(measured) => measured.compare(lang.get()).map_err(Refused::File),
                Err(refused) => Err(refused.clone()),
            })
        })
    });
    let comparison =
        Memo::new(move |_| result.with(|r| r.as_ref().and_then(|r| r.as_ref().ok()).cloned()));
    let refused = move || {
        result.with(|r| match r {
            Some(Err(refused)) => {
                let refused = refused.clone();
                let field = refused.field().to_owned();
                Some(view! {
                    <p class="control-error" role="alert" data-testid="gpu-check-error" data-field=field>
                        {move || refused.text(lang.get())}
                    </p>
                })
            }
            _ => None,
        })
    };
    let has_comparison = Memo::new(move |_| comparison.with(Option::is_some));
    // The shipped measurements of a card of these shapes: the lab's figures with their check.
    let known = Memo::new(move |_| {
        checked
            .workload
            .with(|w| w.as_ref().map(measured_for).unwrap_or_default())
    });
    let known_lines = move || {
        known.with(|known| {
            known
                .iter()
                .map(|k| {
                    let (name, measured) = (k.name, k.measured.clone());
                    let line = {
                        let (card, date) = (measured.card.name.clone(), measured.date.clone());
                        move || text::KNOWN.fill(lang.get(), &[("card", &card), ("date", &date)])
                    };
                    view! {
                        <p class="gpu-check-known" data-testid="gpu-check-known" data-known=name>
                            {line}" "
                            <button type="button" class="small" data-testid="gpu-check-show-known"
                                on:click=move |_| loaded.set(Some(Ok(measured.clone())))>
                                {move || text::SHOW_KNOWN.get(lang.get())}
                            </button>
                        </p>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <div class="gpu-check-body">
            <Workload lab=lab checked=checked last=ViewFn::from(move || text::STEP_LOAD.get(lang.get())) />
            {move || lab.error.get().is_none().then_some(known_lines)}
            <MeasuredInput gpus=gpus loaded=loaded />
            {refused}
            <Show when=move || has_comparison.get()>
                <ComparisonView comparison=comparison />
            </Show>
        </div>
    }
}
