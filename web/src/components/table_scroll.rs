//! The box around a wide table: it scrolls sideways on a narrow screen, and because it does, a
//! keyboard user can tab to it (then scroll it with the arrow keys) and a screen reader
//! announces it as a named group (a group, not a region: the page has several tables of the
//! same kind, and landmarks would need names that differ).

use leptos::prelude::*;

use crate::i18n::use_lang;

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
