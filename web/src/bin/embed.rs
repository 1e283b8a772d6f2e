//! `embed.html`'s entry point: one widget, framed in a course page (see `embed::EmbedApp`).

fn main() {
    parallel_web::pages::start(
        parallel_core::link::Entry::Embed,
        parallel_web::pages::embed::EmbedApp,
    );
}
