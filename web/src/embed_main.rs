//! `embed.html`'s entry point: one widget, framed in a course page (see `embed::EmbedApp`).

fn main() {
    console_error_panic_hook::set_once();
    parallel_web::offline::register_service_worker();
    // The static line of embed.html goes in the same task as the widget is mounted.
    if let Some(shell) = leptos::prelude::document().get_element_by_id("shell") {
        shell.remove();
    }
    leptos::mount::mount_to_body(parallel_web::embed::EmbedApp);
}
