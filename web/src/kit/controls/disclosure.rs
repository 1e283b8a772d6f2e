//! "More controls": on the lesson's grids, the controls beyond the lesson's sit behind one
//! disclosure. It starts closed, unless the plan (from a link, say) already sets one of them,
//! and opens by itself whenever one of them changes from elsewhere (a guided step, a row's
//! "load", a search result), so a field that something sets is never hidden.
//!
//! What it holds is built from a split module ([`crate::state::split`]), fetched when it is
//! first opened: closed, as the lesson starts, none of it is in the module the page waits for.

use leptos::html::Details;
use leptos::prelude::*;
use parallel_core::PlanConfig;

use super::more::more_controls;
use crate::kit::grid_kit::GridKit;
use crate::kit::i18n::T;
use crate::state::lab::GridLab;
use crate::state::later::LaterPart;

/// The values of the fields behind the disclosure, to compare.
#[derive(Clone, PartialEq)]
struct Beyond {
    model: parallel_core::ModelChoice,
    hardware: parallel_core::hardware::Hardware,
    ep: u32,
    precision: parallel_core::Precision,
    schedule: parallel_core::Schedule,
    virtual_stages: u32,
    accounting: parallel_core::Accounting,
}

impl Beyond {
    fn of(c: &PlanConfig) -> Beyond {
        Beyond {
            model: c.model.clone(),
            hardware: c.hardware,
            ep: c.ep,
            precision: c.precision,
            schedule: c.schedule,
            virtual_stages: c.virtual_stages,
            accounting: c.accounting,
        }
    }
}

/// The disclosure and, inside it once it has been opened, [`super::more::MoreControls`] (from their split
/// module, [`more_controls`]).
#[component]
pub(super) fn Disclosure(lab: GridLab, kit: GridKit) -> impl IntoView {
    let beyond = Memo::new(move |_| lab.config.with(Beyond::of));
    let neutral = Beyond::of(&PlanConfig::default());
    let open = RwSignal::new(beyond.with_untracked(|b| *b != neutral));
    // A change to a field in here, made anywhere, opens it.
    Effect::new(move |previous: Option<()>| {
        beyond.track();
        if previous.is_some() {
            open.set(true);
        }
    });
    // Drawn from the first opening on, and kept when closed again.
    let opened = Memo::new(move |was: Option<&bool>| was == Some(&true) || open.get());
    let details = NodeRef::<Details>::new();
    view! {
        <details
            class="more-controls"
            data-testid="more-controls"
            node_ref=details
            prop:open=move || open.get()
            on:toggle=move |_| {
                if let Some(element) = details.get_untracked() {
                    open.set(element.open());
                }
            }
        >
            <summary data-testid="more-controls-toggle">
                <T zh="更多控件：模型、卡型、梯度字节、序列并行、调度、显存记账" en="More controls: model, card, gradient bytes, sequence parallelism, schedule, memory accounting" />
            </summary>
            <div class="more-grid">
                <Show when=move || opened.get()>
                    <LaterPart load=move || more_controls(lab, kit) />
                </Show>
            </div>
        </details>
    }
}
