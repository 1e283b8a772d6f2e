//! The pages' first screens, rendered to HTML at build time from the same components as the
//! wasm draws (issue 53): `scripts/first-screen.mjs` runs this natively after Trunk's build and
//! writes what it prints into each page.
//!
//! Prints one JSON object: for each entry point's file, its screens (each the link it is drawn
//! from, as a key without the language, the language, and the HTML of the page's `<body>` as
//! the wasm's first frame draws it) and its loading line (for a link no screen was drawn from).
//! Effects never run here (the executor below drops what is spawned): what they do (charts on
//! canvas, the address, listeners) is the wasm's, once it has taken over.

use any_spawner::{CustomExecutor, Executor, PinnedFuture, PinnedLocalFuture};
use leptos::prelude::*;
use parallel_core::link::Entry;
use parallel_core::Lang;
use parallel_web::kit::first_screen::LoadingLine;
use parallel_web::state::prerender::screens;

/// An executor that runs nothing: outside the browser the page's effects wait for the wasm.
struct NeverRun;

impl CustomExecutor for NeverRun {
    fn spawn(&self, _: PinnedFuture<()>) {}
    fn spawn_local(&self, _: PinnedLocalFuture<()>) {}
    fn poll_local(&self) {}
}

/// The HTML of `entry`'s page drawn from the link `fragment`.
fn render(entry: Entry, fragment: &str) -> String {
    parallel_web::state::prerender::set_link(fragment);
    let owner = Owner::new();
    let html = owner.with(|| match entry {
        Entry::Lesson => view! { <parallel_web::pages::lesson::LessonPage /> }.to_html(),
        Entry::Rl => view! { <parallel_web::pages::rl::RlPage /> }.to_html(),
        Entry::Plan => view! { <parallel_web::pages::plan::PlanPage /> }.to_html(),
        Entry::Embed => view! { <parallel_web::pages::embed::EmbedApp /> }.to_html(),
    });
    owner.unset();
    html
}

fn main() {
    // Drawn once, here: no read of a signal is meant to track (the wasm's reads do), so a debug
    // build's warning for each read outside a tracking context (some 210,000 lines) is off.
    let _drawn_once = leptos::reactive::diagnostics::SpecialNonReactiveZone::enter();
    if Executor::init_custom_executor(NeverRun).is_err() {
        eprintln!("parallel-prerender: an executor was already set");
        std::process::exit(1);
    }
    let mut pages = serde_json::Map::new();
    for entry in Entry::ALL {
        let mut drawn = Vec::new();
        for key in screens(entry) {
            for lang in [Lang::Zh, Lang::En] {
                let fragment = match (key.is_empty(), lang) {
                    (_, Lang::Zh) => key.to_string(),
                    (true, Lang::En) => "lang=en".to_string(),
                    (false, Lang::En) => format!("{key}&lang=en"),
                };
                drawn.push(serde_json::json!({
                    "key": key,
                    "lang": lang.tag(),
                    "html": render(entry, &fragment),
                }));
            }
        }
        let owner = Owner::new();
        let loading = owner.with(|| view! { <LoadingLine entry=entry /> }.to_html());
        owner.unset();
        pages.insert(
            entry.file().to_string(),
            serde_json::json!({ "screens": drawn, "loading": loading }),
        );
    }
    println!("{}", serde_json::Value::Object(pages));
}
