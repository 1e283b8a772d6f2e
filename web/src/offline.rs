//! Offline use: registers `sw.js` (copied next to `index.html` by Trunk), which caches the page
//! and its assets on the first visit. Only the real page registers it, not the browser tests.

/// Registers the service worker; where the browser has none (or the page is opened from a
/// file) the page simply works online only.
pub fn register_service_worker() {
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
