//! The box around a wide table: it scrolls sideways on a narrow screen, and because it does, a
//! keyboard user can tab to it (then scroll it with the arrow keys) and a screen reader
//! announces it as a named group (a group, not a region: the page has several tables of the
//! same kind, and landmarks would need names that differ).

use leptos::prelude::*;

use crate::kit::i18n::{use_lang, T};

/// A scrollable, focusable, named group around `children` (a table).
#[component]
pub fn TableScroll(zh: &'static str, en: &'static str, children: Children) -> impl IntoView {
    let lang = use_lang();
    view! {
        <div class="table-scroll" tabindex="0" role="group" aria-label=move || lang.get().pick(zh, en)>
            {children()}
        </div>
    }
}

/// A table's column heads in the page's language: one `<th scope="col">` per (中文, English,
/// numeric) entry, numeric ones of class `num`.
pub fn head_cells(heads: &'static [(&'static str, &'static str, bool)]) -> impl IntoView {
    heads
        .iter()
        .map(|&(zh, en, numeric)| {
            view! { <th scope="col" class=numeric.then_some("num")><T zh=zh en=en /></th> }
        })
        .collect_view()
}

/// A table's heading and the paragraph that introduces it, each (中文, English).
pub fn table_intro(
    title: (&'static str, &'static str),
    intro: (&'static str, &'static str),
) -> impl IntoView {
    view! {
        <h3><T zh=title.0 en=title.1 /></h3>
        <p><T zh=intro.0 en=intro.1 /></p>
    }
}
