//! The lab's three pages, one per audience, each its own entry point and wasm: [`lesson`]
//! (`index.html`, the students' lesson), [`rl`] (`rl.html`, the RL layout step) and [`plan`]
//! (`plan.html`, the planner). They share the grids, their state and the components; each
//! names only the parts it shows, so each wasm holds only those.
//!
//! Before anything is drawn, an entry point applies the core's landing rule
//! ([`parallel_core::link::landing`]) to its link and, where the rule says the link belongs
//! elsewhere, sends it there once ([`land`]).

pub mod embed;
pub mod lesson;
pub mod plan;
pub mod rl;

use leptos::prelude::*;
use parallel_core::link::{landing_of, Entry};
use wasm_bindgen::JsCast;

use crate::kit::grid_kit::GridKit;
use crate::kit::grid_section::BothGrids;
use crate::kit::header::PageHeader;
use crate::kit::i18n::T;
use crate::kit::share::LinkNotice;
use crate::state::later::LaterParts;
use crate::state::permalink::PageState;
use crate::state::start;

/// Sends the page's link to the entry point the core's rule names, if that is not `here`.
/// Returns whether it did (then nothing should be mounted).
pub fn land(here: Entry) -> bool {
    let fragment = crate::state::permalink::current_fragment();
    let (state, _) = parallel_core::link::decode(&fragment);
    let there = landing_of(&state, here);
    if there == here {
        return false;
    }
    let hash = if fragment.is_empty() {
        String::new()
    } else {
        format!("#{fragment}")
    };
    leptos::prelude::window()
        .location()
        .replace(&format!("{}{hash}", there.file()))
        .is_ok()
}

/// Mounts `app` on `<body>` in place of the entry point's first screen (rendered at build time
/// from the same components, `src/bin/prerender.rs`), after [`land`], keeping the first
/// screens' sentences ([`crate::kit::prose::read_from_page`]) first. The first screen, its
/// loading line and its waiting note are removed and the app mounted in the same task, so no
/// frame shows neither and, the two being drawn alike, nothing moves; then `<html>` gets
/// `data-app="mounted"` and `parallel-lab:mounted` is sent on the document, for
/// `assets/first-screen.js` to do again on the app what was clicked or typed on the first
/// screen.
pub fn start<V: leptos::IntoView + 'static>(here: Entry, app: fn() -> V) {
    console_error_panic_hook::set_once();
    if land(here) {
        return;
    }
    crate::state::offline::register_service_worker();
    let document = leptos::prelude::document();
    // The first screens' sentences, kept before they go: the page draws them from these.
    crate::kit::prose::read_from_page(&document);
    if let Ok(olds) =
        document.query_selector_all(".first-screen, .first-screen-loading, .first-screen-wait")
    {
        for at in 0..olds.length() {
            if let Some(old) = olds
                .get(at)
                .and_then(|node| node.dyn_into::<web_sys::Element>().ok())
            {
                old.remove();
            }
        }
    }
    leptos::mount::mount_to_body(app);
    if let Some(root) = document.document_element() {
        let _ = root.set_attribute("data-app", "mounted");
    }
    if let Ok(mounted) = web_sys::Event::new("parallel-lab:mounted") {
        let _ = document.dispatch_event(&mounted);
    }
}

/// A page's top: its header (`title` in 中文 and English, `here` marked among the pages) and
/// the notice of what its link held.
pub fn page_top(
    page: PageState,
    here: Entry,
    title: (&'static str, &'static str),
) -> impl IntoView {
    view! {
        <PageHeader page=page here=here title_zh=title.0 title_en=title.1 />
        <LinkNotice page=page />
    }
}

/// A tool page (the planner, the RL step), its parts drawn after the first frame: its top, a
/// lead paragraph (中文, English), both grids with what the page adds to them (`kit`), then
/// what `rest` draws of the page's state.
pub fn grid_page(
    here: Entry,
    title: (&'static str, &'static str),
    lead: (&'static str, &'static str),
    kit: GridKit,
    rest: impl FnOnce(PageState) -> AnyView,
) -> impl IntoView {
    let (page, _) = start::start_page(here);
    let later = LaterParts::new(false);
    provide_context(later);
    later.draw_after_first_frame();
    view! {
        {page_top(page, here, title)}
        <main class="page">
            <section class="part intro">
                <p class="lead"><T zh=lead.0 en=lead.1 /></p>
            </section>
            <BothGrids page=page kit=kit />
            {rest(page)}
        </main>
    }
}
