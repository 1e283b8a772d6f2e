//! What a page shows around its first screen before the wasm has taken over (issue 53): the
//! line for a link no first screen was drawn from, and the note that an early click waits.
//! Both are rendered at build time (`src/bin/prerender.rs`) in both languages at once, each
//! shown by `<html lang>` (set from the link before anything is painted, `assets/landing.js`);
//! the wasm removes them with the first screen (`pages::start`).

use leptos::prelude::*;
use parallel_core::link::Entry;

/// Both languages of a line, each in its own `lang` (the stylesheet shows the page's).
#[component]
fn Both(zh: &'static str, en: &'static str) -> impl IntoView {
    view! {
        <span lang="zh">{zh}</span>
        <span lang="en">{en}</span>
    }
}

/// The loading line (shown where no first screen matches the link) and the waiting note
/// (shown once something was clicked or typed before the wasm took over; the click is kept and
/// done then, `assets/first-screen.js`).
#[component]
pub fn LoadingLine(entry: Entry) -> impl IntoView {
    let (zh, en) = match entry {
        Entry::Embed => (
            "并行实验室的部件正在载入……",
            "The Parallel Lab widget is loading…",
        ),
        Entry::Lesson | Entry::Rl | Entry::Plan => {
            ("设备网格正在载入……", "The device grids are loading…")
        }
    };
    view! {
        <p class="first-screen-loading" data-testid="first-screen-loading">
            <Both zh=zh en=en />
        </p>
        <p class="first-screen-wait" role="status" data-testid="first-screen-wait">
            <Both
                zh="页面还在载入：你刚才的操作已记下，就绪后立即生效。"
                en="Still loading: what you just did is kept and takes effect as soon as the page is ready."
            />
        </p>
    }
}
