//! The state every entry point (the three pages of `pages`, `embed.html`'s `EmbedApp`) starts from:
//! the link read, the language, both grids' labs, the page's state as context, kept in step
//! with the address.

use leptos::prelude::*;
use parallel_core::link::Entry;

use crate::kit::i18n::provide_lang;
use crate::state::lab::GridLab;
use crate::state::permalink::{self, PageState};

/// An entry point's title (中文, English); each HTML file starts with its Chinese one.
pub const fn page_title(entry: Entry) -> (&'static str, &'static str) {
    match entry {
        Entry::Lesson | Entry::Embed => (
            "并行实验室 · 一张卡不够怎么办",
            "Parallel Lab · when one card is not enough",
        ),
        Entry::Rl => (
            "并行实验室 · RL 一步的卡怎么摆",
            "Parallel Lab · laying out an RL step",
        ),
        Entry::Plan => ("并行实验室 · 规划器", "Parallel Lab · the planner"),
    }
}

/// The state every entry point starts from: the link read, the language provided and kept on
/// `<html lang>` and the title, both grids' labs, the page's state provided as context and
/// kept in step with the address. Returns the state and the link it came from.
pub fn start_page(here: Entry) -> (PageState, parallel_core::link::LinkState) {
    let (state, notices) = permalink::read_on_load();
    let lang = provide_lang(state.lang);
    Effect::new(move |_| {
        let lang = lang.get();
        let document = document();
        if let Some(root) = document.document_element() {
            if root.get_attribute("lang").as_deref() != Some(lang.tag()) {
                let _ = root.set_attribute("lang", lang.tag());
            }
        }
        // Written only when it differs: every entry point starts with its Chinese title
        // (a title write costs a few milliseconds of the page's start).
        let (zh, en) = page_title(here);
        let title = lang.pick(zh, en);
        if document.title() != title {
            document.set_title(title);
        }
    });
    let lab8 = GridLab::new(state.g8.clone());
    let lab64 = GridLab::new(state.g64.clone());
    lab8.selected.set(state.card8);
    lab64.selected.set(state.card64);
    let page = PageState {
        lab8,
        lab64,
        lang,
        section: RwSignal::new(state.section),
        embed: state.embed,
        controls: state.controls,
        parts: state.parts,
        parent: StoredValue::new(state.parent.clone()),
        notices: RwSignal::new(notices),
    };
    provide_context(page);
    permalink::sync(page);
    (page, state)
}
