fn main() {
    console_error_panic_hook::set_once();
    parallel_web::offline::register_service_worker();
    // The static shell of index.html (title and intro, painted before the wasm ran) goes in
    // the same task as the app is mounted, so no frame shows neither.
    if let Some(shell) = leptos::prelude::document().get_element_by_id("shell") {
        shell.remove();
    }
    leptos::mount::mount_to_body(parallel_web::App);
}
