//! The "why?" button beside a figure (`explain::ExplanationPanel` is what it opens): it owns
//! whether its panel is open. A click toggles the panel; the panel's close button and Escape
//! (on the button or in the panel) close it and give the focus back to the button. The panel's
//! code is fetched when one is first opened (a split point, `crate::state::split`).

use leptos::ev::KeyboardEvent;
use leptos::html::Button;
use leptos::prelude::*;
use parallel_core::explain::Figure;

use crate::kit::explain::{button_label, panel_id, ExplanationPanel};
use crate::kit::i18n::use_lang;
use crate::state::lab::GridLab;
use crate::state::later::LaterPart;
use crate::state::split::split_part;

/// The "why?" button of `figure` on `lab`'s plan and, while open, its panel below it (inside
/// the same `span.explain`, which carries the figure's id in `data-explain`).
#[component]
pub fn ExplainButton(figure: Figure, lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let open = RwSignal::new(false);
    let button = NodeRef::<Button>::new();
    let gpus = lab.config.with_untracked(|c| c.gpus);
    let close = move || {
        open.set(false);
        if let Some(button) = button.get_untracked() {
            let _ = button.focus();
        }
    };
    let on_key = move |event: KeyboardEvent| {
        if event.key() == "Escape" && open.get_untracked() {
            event.prevent_default();
            event.stop_propagation();
            close();
        }
    };
    let id = figure.id();
    view! {
        <span class="explain" data-explain=id.clone() on:keydown=on_key>
            <button
                type="button"
                class="explain-button"
                node_ref=button
                data-testid=format!("explain-{id}")
                aria-expanded=move || if open.get() { "true" } else { "false" }
                aria-controls=panel_id(figure, gpus)
                aria-label=move || button_label(lang.get(), figure)
                on:click=move |_| open.update(|open| *open = !*open)
            >
                "?"
            </button>
            <Show when=move || open.get()>
                <LaterPart load=move || explanation_panel(figure, lab, Callback::new(move |()| close())) />
            </Show>
        </span>
    }
}

split_part! { in explain;
    /// The panel, from a split module of its own (the core's explanations and how they are
    /// drawn): fetched when a student first asks "why?".
    fn explanation_panel(figure: Figure, lab: GridLab, on_close: Callback<()>) {
        view! { <ExplanationPanel figure=figure lab=lab on_close=on_close /> }
    }
}
