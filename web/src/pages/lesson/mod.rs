//! The lesson (`index.html`, seed 001), for students: the 8- and 64-card grids with the
//! lesson's controls (the rest behind "more controls"), predict then check, the lesson's tables,
//! Llama 3 and DeepSeek-V3, the decisions, the evolution map and the questions.

pub mod cluster;
pub mod counting_note;
pub mod cp_layouts;
pub mod decisions;
pub mod evolution;
pub mod intro;
pub mod one_machine;
pub mod prediction;
pub mod questions;
pub mod tasks;

use leptos::prelude::*;
use parallel_core::link::Entry;

use crate::kit::real_configs::RealConfigs;
use crate::pages::lesson::cluster::Cluster;
use crate::pages::lesson::counting_note::CountingNote;
use crate::pages::lesson::decisions::Decisions;
use crate::pages::lesson::evolution::EvolutionMap;
use crate::pages::lesson::intro::Intro;
use crate::pages::lesson::one_machine::OneMachine;
use crate::pages::page_top;
use crate::state::lab::GridLab;
use crate::state::later::{LaterPart, LaterParts, Piece};
use crate::state::split::split_part;
use crate::state::{permalink, start};

/// The whole lesson. `main.rs` mounts it on `<body>`.
///
/// The state starts from the URL (`permalink`): a link restores both grids, the selected
/// cards, the section and the language.
#[component]
pub fn LessonPage() -> impl IntoView {
    let (page, state) = start::start_page(Entry::Lesson);
    let (lab8, lab64) = (page.lab8, page.lab64);
    // A link that names a widget was sent to `embed.html` before this was mounted
    // (`pages::land`); should that redirect ever be refused, the link still lands here, on the
    // whole lesson with its grids' plans. The widget alone is `embed.html`'s, so that this
    // page's wasm carries none of it (nor the `parallel-lab:set` message it answers).
    permalink::track_section(page.section);
    // A link to a section draws the whole page at once, so the scroll lands on its place.
    let later = LaterParts::new(state.section.is_some());
    provide_context(later);
    if let Some(section) = state.section {
        permalink::scroll_to(section);
    } else {
        later.draw_after_first_frame();
    }
    view! {
        {page_top(
            page,
            Entry::Lesson,
            ("并行实验室：给锚点配一套并行方案", "Parallel Lab: a parallel plan for the anchor model"),
        )}
        <main class="page">
            <Intro />
            <OneMachine lab=lab8 />
            <Cluster lab=lab64 />
            <LaterPart piece=Piece::RealConfigs load=real_configs_part />
            <LaterPart piece=Piece::Decisions load=move || decisions_part(lab8, lab64) />
            <LaterPart piece=Piece::Evolution load=evolution_part />
            <LaterPart piece=Piece::CountingNote load=counting_note_part />
        </main>
    }
    .into_any()
}

// The sections below the two grids, each from a split module of its own
// (`crate::state::split`), fetched when it is drawn after the first frame.

split_part! { in real_configs;
    /// Part three, the real configurations.
    fn real_configs_part() { view! { <RealConfigs /> } }
}

split_part! { in decisions;
    /// Part four, the decisions, over both grids' labs.
    fn decisions_part(lab8: GridLab, lab64: GridLab) { view! { <Decisions lab8=lab8 lab64=lab64 /> } }
}

split_part! { in evolution;
    /// The evolution map.
    fn evolution_part() { view! { <EvolutionMap /> } }
}

split_part! { in counting_note;
    /// The counting note.
    fn counting_note_part() { view! { <CountingNote /> } }
}
