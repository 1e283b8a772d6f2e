//! A section of the lesson page: its `<section class="part">`, with the anchor the contents
//! and the links jump to, its heading (a numbered part's number before the title) and the
//! lead paragraph under it.

use leptos::prelude::*;
use parallel_core::link::Section;

use crate::kit::prose::{Say, Words};

/// The element of `section`: `id` is the section's anchor, and the `<h2>` (id
/// `<anchor>-title`) labels it with `number`, if the section is a numbered part, then the
/// title in the page's language; the lead, where the section has a fixed one, and the
/// section's content follow the heading.
#[component]
pub fn LessonSection(
    section: Section,
    test_id: &'static str,
    /// The title (a pair, or a sentence of the first screen, [`crate::kit::prose`]).
    #[prop(into)]
    title: Words,
    /// The part's number ("1" to "4"); the other sections have none.
    #[prop(optional)]
    number: Option<&'static str>,
    /// The lead paragraph under the heading.
    #[prop(optional, into)]
    lead: Option<Words>,
    /// A class beside `part` for a section styled on its own ("intro", "counting-note").
    #[prop(optional)]
    class: Option<&'static str>,
    children: Children,
) -> impl IntoView {
    let class = class.map_or_else(|| "part".to_owned(), |class| format!("part {class}"));
    let title_id = format!("{}-title", section.id());
    let labelled_by = title_id.clone();
    let number = number.map(|number| view! { <span class="part-number">{number}</span> });
    let lead = lead.map(|words| view! { <p class="lead"><Say words=words /></p> });
    view! {
        <section class=class id=section.id() data-testid=test_id aria-labelledby=labelled_by>
            <h2 id=title_id>{number}<Say words=title /></h2>
            {lead}
            {children()}
        </section>
    }
}
