//! The page's content below the two grids, drawn after the first frame.
//!
//! Loading builds the header, the intro and the first grid (with its controls, figures and
//! traffic table) in one go, so that grid answers as soon as the wasm has run; the RL page and
//! the planner build both grids so. Each grid's charts, what follows each grid (its tasks, table
//! and notes), the lesson's 64-card grid (below its first screen, and so not in its HTML) and
//! the parts below (real configurations, decisions, the evolution map, the counting note) are
//! then built one piece per task, in page order, the first after the first frame is painted.
//! A link to a section (`sec=`) or a contents link draws everything at once before scrolling
//! there. A piece built from a split module ([`LaterPart`],
//! [`crate::state::split`]) is drawn once its module is fetched. When every piece is drawn,
//! `<html>` gets `data-drawn="all"`. Where no [`LaterParts`] is provided (an embedded widget),
//! [`LaterPart`] draws at once.

use std::future::Future;
use std::sync::Arc;

use leptos::prelude::*;

use crate::kit::i18n::T;
use crate::state::split::{Split, SplitCall, SplitFailed};

/// The pieces drawn later, in page order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// The 8-card grid's charts (below its figures and traffic table).
    ChartsEight,
    /// Part one after the 8-card grid: tasks, the lesson's 8-card table, the CP layouts.
    PartOneRest,
    /// The lesson's 64-card grid, with its controls, figures and traffic table (its code is the
    /// 8-card grid's, in the page's own module).
    GridSixtyFour,
    /// The 64-card grid's charts.
    ChartsSixtyFour,
    /// Part two after the 64-card grid: tasks, the 64-card table, the takeaway.
    PartTwoRest,
    /// Part three, the real configurations.
    RealConfigs,
    /// Part four, the decisions (plan search and questions included).
    Decisions,
    /// The evolution map.
    Evolution,
    /// The counting note.
    CountingNote,
}

impl Piece {
    /// Every piece, in the order they are drawn.
    pub const ALL: [Piece; 9] = [
        Piece::ChartsEight,
        Piece::PartOneRest,
        Piece::GridSixtyFour,
        Piece::ChartsSixtyFour,
        Piece::PartTwoRest,
        Piece::RealConfigs,
        Piece::Decisions,
        Piece::Evolution,
        Piece::CountingNote,
    ];

    fn index(self) -> usize {
        Piece::ALL.iter().position(|p| *p == self).unwrap_or(0)
    }

    /// A whole section (its placeholder is a section of about its height) or the rest of one.
    fn is_section(self) -> bool {
        !matches!(
            self,
            Piece::ChartsEight
                | Piece::PartOneRest
                | Piece::GridSixtyFour
                | Piece::ChartsSixtyFour
                | Piece::PartTwoRest
        )
    }
}

/// Runs `f` once the next frame is out: a timer set from an animation frame runs after that
/// frame is painted, so the work does not hold the frame back.
/// Outside the browser (a first screen rendered to HTML) there is no next frame: nothing runs.
pub fn after_next_frame(f: impl FnOnce() + 'static) {
    if !crate::state::prerender::in_browser() {
        return;
    }
    request_animation_frame(move || set_timeout(f, std::time::Duration::ZERO));
}

/// How many of the later pieces are drawn, in page order; how many parts on the page are built
/// by a [`LaterPart`] (from a split module, or the lesson's 64-card grid from the page's own
/// code; numbered as they are created), and which of those are there (a bit per number).
#[derive(Clone, Copy)]
pub struct LaterParts {
    drawn: RwSignal<usize>,
    split: RwSignal<u32>,
    loaded: RwSignal<u64>,
}

impl LaterParts {
    /// None drawn yet, or all of them when `all_now`.
    pub fn new(all_now: bool) -> LaterParts {
        let count = Piece::ALL.len();
        let parts = LaterParts {
            drawn: RwSignal::new(if all_now { count } else { 0 }),
            split: RwSignal::new(0),
            loaded: RwSignal::new(0),
        };
        Effect::new(move |_| {
            let every = 1_u64
                .checked_shl(parts.split.get())
                .map_or(u64::MAX, |bit| bit - 1);
            if parts.drawn.get() >= count && parts.loaded.get() & every == every {
                if let Some(root) = document().document_element() {
                    let _ = root.set_attribute("data-drawn", "all");
                }
            }
        });
        parts
    }

    /// Draws the pieces one task after another, starting after the next frame is painted.
    pub fn draw_after_first_frame(self) {
        after_next_frame(move || self.draw_one());
    }

    /// Draws the next piece, then schedules the one after it as a task of its own.
    fn draw_one(self) {
        let drawn = self.drawn.get_untracked();
        if drawn < Piece::ALL.len() {
            self.drawn.set(drawn + 1);
            set_timeout(move || self.draw_one(), std::time::Duration::ZERO);
        }
    }

    /// Draws every piece now (before scrolling to one of them).
    pub fn draw_all(self) {
        if !self.all_drawn() {
            self.drawn.set(Piece::ALL.len());
        }
    }

    /// Whether every piece is drawn (untracked).
    fn all_drawn(self) -> bool {
        self.drawn.get_untracked() >= Piece::ALL.len()
    }

    /// Whether `piece` is drawn.
    pub fn is_drawn(self, piece: Piece) -> bool {
        self.drawn.get() > piece.index()
    }

    /// One more part built by a [`LaterPart`]: the page is drawn only once it is there.
    /// Returns its number.
    fn expect_split(self) -> u32 {
        let number = self.split.get_untracked();
        self.split.set(number + 1);
        number
    }

    /// Part `number`'s split module is there and the part drawn from it.
    fn mark_loaded(self, number: u32) {
        self.loaded
            .update(|set| *set |= 1_u64.checked_shl(number).unwrap_or(0));
    }
}

/// The part `load` builds from its split module ([`crate::state::split`]), or from the page's
/// own code (a future ready at once: the lesson's 64-card grid), once `piece` is drawn (at
/// once where no [`LaterParts`] is provided, or no `piece` given); before, and while the
/// module is fetched, a placeholder (an empty section or block; inline, without a piece).
/// A module that could not be fetched leaves a note and a button that tries again.
#[component]
pub fn LaterPart<F, Fut>(#[prop(optional)] piece: Option<Piece>, load: F) -> impl IntoView
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Split> + Send + 'static,
{
    // The call boxed, so that what follows is compiled once for every part.
    later_part(piece, Arc::new(move || -> SplitCall { Box::pin(load()) }))
}

/// [`LaterPart`]'s drawing.
fn later_part(piece: Option<Piece>, load: Arc<dyn Fn() -> SplitCall + Send + Sync>) -> AnyView {
    // Only the page's later pieces count towards `data-drawn`, not a part opened on request
    // (a panel opened and closed again before its module came would hold it back).
    let parts = piece
        .and(use_context::<LaterParts>())
        .map(|parts| (parts, parts.expect_split()));
    let drawn: Signal<bool> = match (parts, piece) {
        (Some((parts, _)), Some(piece)) => Memo::new(move |_| parts.is_drawn(piece)).into(),
        _ => Signal::stored(true),
    };
    let tries = RwSignal::new(0_u32);
    (move || {
        if !drawn.get() {
            return placeholder(piece);
        }
        tries.track();
        let load = Arc::clone(&load);
        view! {
            <Suspense fallback=move || placeholder(piece)>
                {move || {
                    let load = Arc::clone(&load);
                    Suspend::new(async move {
                        match load().await {
                            Ok(part) => {
                                if let Some((parts, number)) = parts {
                                    parts.mark_loaded(number);
                                }
                                part
                            }
                            Err(SplitFailed) => view! { <NotLoaded tries=tries /> }.into_any(),
                        }
                    })
                }}
            </Suspense>
        }
        .into_any()
    })
    .into_any()
}

/// What stands in for a piece not drawn yet: for a whole section, a section of about its
/// height, so the scroll bar does not jump; for a part of no piece, an empty inline element.
fn placeholder(piece: impl Into<Option<Piece>>) -> AnyView {
    match piece.into() {
        Some(piece) if piece.is_section() => {
            view! { <section class="part later-part" aria-hidden="true"></section> }.into_any()
        }
        Some(_) => view! { <div class="later-block" aria-hidden="true"></div> }.into_any(),
        // A part opened on request (a panel, a widget): nothing that takes room meanwhile.
        None => view! { <span class="later-block" aria-hidden="true"></span> }.into_any(),
    }
}

/// A part whose module could not be fetched: why, and a button that tries again.
#[component]
fn NotLoaded(tries: RwSignal<u32>) -> impl IntoView {
    view! {
        <p class="later-failed" role="alert">
            <T zh="这一部分没有载入：网络中断，或网站已换成新版本（那就刷新页面）。"
               en="This part did not load: the network failed, or the site has a newer version (then reload the page)." />
            " "
            <button type="button" on:click=move |_| tries.update(|count| *count += 1)>
                <T zh="再试一次" en="Try again" />
            </button>
        </p>
    }
}
