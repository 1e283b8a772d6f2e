//! Rendering a page's first screen to HTML at build time (`src/bin/prerender.rs`, the
//! `prerender` feature): the same components run natively, where there is no window. What
//! reads the address or listens to the window asks [`in_browser`] first; effects do not run
//! outside the browser, so what they do waits for the wasm.

use std::cell::RefCell;

use parallel_core::link::{self, Entry, LinkState, Widget};

/// Whether the page runs in a browser (the wasm build), not rendered to HTML at build time.
pub const fn in_browser() -> bool {
    cfg!(target_arch = "wasm32")
}

thread_local! {
    static LINK: RefCell<String> = const { RefCell::new(String::new()) };
}

/// The link a page is rendered from outside the browser (its fragment, without `#`).
pub fn set_link(fragment: &str) {
    LINK.with(|link| fragment.clone_into(&mut link.borrow_mut()));
}

/// The link set by [`set_link`]; empty (every default) until then.
pub fn link() -> String {
    LINK.with(|link| link.borrow().clone())
}

/// The window's width in CSS pixels; unbounded outside the browser, so a first screen is
/// rendered for a wide window (a phone's 64-card grid is laid out again when the wasm starts).
pub fn window_width() -> f64 {
    if !in_browser() {
        return f64::INFINITY;
    }
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .unwrap_or(f64::INFINITY)
}

/// The links an entry point's first screens are drawn from (each also in English), as the
/// core writes them less `lang`: the page at its defaults; for `embed.html`, each grid widget
/// at its defaults (what the embed dialog's snippet links to when nothing else is chosen).
/// A page opened with any other link shows its loading line until the wasm draws it.
pub fn screens(entry: Entry) -> Vec<String> {
    match entry {
        Entry::Lesson | Entry::Rl | Entry::Plan => vec![String::new()],
        Entry::Embed => [Widget::Grid8, Widget::Grid64]
            .into_iter()
            .map(|widget| {
                link::encode(&LinkState {
                    embed: Some(widget),
                    ..LinkState::default()
                })
            })
            .collect(),
    }
}
