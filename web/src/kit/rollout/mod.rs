//! The rollout engines of an RL step (SPEC §15): the panel under a grid's controls that turns
//! them on and sets them (`controls`, with its typed counts in `inputs`), and the figure of
//! one rollout card's memory beside the grid (`figures`). Every number shown is the core's
//! (the report's `rollout`); nothing is computed here.

mod controls;
mod figures;
mod inputs;
mod phase;

pub use controls::RolloutPanel;
pub use figures::RolloutFigure;

use leptos::prelude::*;

use crate::state::lab::GridLab;
use crate::state::later::LaterPart;
use crate::state::split::split_part;

split_part! { in rollout_figure;
    /// [`RolloutFigure`], from a split module of its own.
    fn rollout_figure_part(lab: GridLab) { view! { <RolloutFigure lab=lab /> } }
}

/// [`RolloutFigure`] on a page whose plans have rollout engines only now and then (the lesson:
/// a link with engines opened afresh lands on the RL page, SPEC §15, but one applied to the
/// open page stays): its code is fetched the first time the plan has engines, and the figure
/// is drawn then.
#[component]
pub fn RolloutFigureWhenSet(lab: GridLab) -> impl IntoView {
    let engines = Memo::new(move |_| lab.report.with(|r| r.rollout.is_some()));
    view! {
        <Show when=move || engines.get()>
            <LaterPart load=move || rollout_figure_part(lab) />
        </Show>
    }
}
