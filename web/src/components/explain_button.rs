//! A lone "why?" button, in a sentence rather than in a figure's live block: a live block of
//! its own (`crate::live` handles its click and writes the panel beside it).

use leptos::prelude::*;
use parallel_core::explain::Figure;

use crate::components::explain::button_markup;
use crate::i18n::use_lang;
use crate::lab::GridLab;
use crate::live::{live, Fill, Root};

/// A lone "why?" button (in a sentence rather than in a figure's live block) and, when open,
/// the panel beside it.
#[component]
pub fn ExplainButton(figure: Figure, lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let gpus = lab.config.with_untracked(|c| c.gpus);
    let template = Signal::derive(move || button_markup(lang.get(), figure, gpus));
    let fills = Signal::stored(vec![Fill::attr("", "data-explain", Some(figure.id()))]);
    live(Root::Span, "explain", template, fills, Some(lab))
}
