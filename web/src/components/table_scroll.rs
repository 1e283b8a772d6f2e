//! The box around a wide table: it scrolls sideways on a narrow screen, and because it does, a
//! keyboard user can tab to it (then scroll it with the arrow keys) and a screen reader
//! announces it as a named group (a group, not a region: the page has several tables of the
//! same kind, and landmarks would need names that differ).

use leptos::prelude::*;

use crate::format::escape_markup;
use crate::i18n::{use_lang, Lang};

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

/// The same box as markup, around `table` (markup), for a live block (`crate::live`).
pub fn table_scroll_markup(lang: Lang, zh: &str, en: &str, table: &str) -> String {
    format!(
        "<div class=\"table-scroll\" tabindex=\"0\" role=\"group\" aria-label=\"{}\">{table}</div>",
        escape_markup(lang.pick(zh, en))
    )
}

/// A table's column heads as markup, in `lang`: one `<th scope="col">` per (中文, English,
/// numeric) entry, numeric ones of class `num`.
pub fn head_cells(lang: Lang, heads: &[(&str, &str, bool)]) -> String {
    heads
        .iter()
        .map(|&(zh, en, numeric)| {
            let class = if numeric { " class=\"num\"" } else { "" };
            format!("<th scope=\"col\"{class}>{}</th>", lang.pick(zh, en))
        })
        .collect()
}
