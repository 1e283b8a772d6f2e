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

use parallel_core::link::{landing_of, Entry};

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

/// Mounts `app` on `<body>` in place of the entry point's static shell (painted before the
/// wasm ran; removed in the same task, so no frame shows neither), after [`land`].
pub fn start<V: leptos::IntoView + 'static>(here: Entry, app: fn() -> V) {
    console_error_panic_hook::set_once();
    if land(here) {
        return;
    }
    crate::state::offline::register_service_worker();
    if let Some(shell) = leptos::prelude::document().get_element_by_id("shell") {
        shell.remove();
    }
    leptos::mount::mount_to_body(app);
}
