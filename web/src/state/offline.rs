//! Offline use: registers `sw.js` (copied next to `index.html` by Trunk), which caches the page
//! and its assets on the first visit. Only the real page registers it, not the browser tests.

use crate::state::later::after_next_frame;

/// Registers the service worker once the first frame is out: registering takes a few
/// milliseconds of the main thread that the grids' first frame does not wait for. Where the
/// browser has no service worker (or the page is opened from a file) the page simply works
/// online only.
pub fn register_service_worker() {
    after_next_frame(register);
}

fn register() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let protocol = window.location().protocol().unwrap_or_default();
    if protocol != "https:" && protocol != "http:" {
        return;
    }
    let container = window.navigator().service_worker();
    let registration = container.register("./sw.js");
    wasm_bindgen_futures::spawn_local(async move {
        if wasm_bindgen_futures::JsFuture::from(registration)
            .await
            .is_err()
        {
            leptos::logging::warn!(
                "offline use is not available: the service worker did not register"
            );
        }
    });
}
