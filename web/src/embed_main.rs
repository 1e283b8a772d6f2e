//! `embed.html`'s entry point: one widget, framed in a course page (see `embed::EmbedApp`).

fn main() {
    console_error_panic_hook::set_once();
    parallel_web::offline::register_service_worker();
    leptos::mount::mount_to_body(parallel_web::embed::EmbedApp);
}
