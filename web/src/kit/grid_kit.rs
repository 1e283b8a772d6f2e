//! What a grid shows beyond the lesson's controls and figures, page by page.
//!
//! Each page hands its grids a [`GridKit`]: the lesson's keeps TP, PP, CP, m, the sequence,
//! ZeRO and recompute in view and the rest behind "more controls"; the RL page and the planner
//! add their own controls and figures. The additions are functions the page names, so a page
//! that does not name one never links its code into its wasm: the lesson names only the
//! rollout card's figure, an embedded widget none. The kits themselves are in
//! [`crate::kit::kits`], which names what they draw.

use leptos::prelude::*;
use parallel_core::link::{Control, Controls, Part as Drawn, Parts};

use crate::state::lab::GridLab;
use crate::state::split::SplitCall;

/// A part a page adds to a grid, drawn for that grid's lab.
pub type Part = fn(GridLab) -> AnyView;

/// How a page's grids draw the controls beyond the lesson's (model, card, …): a page's choice
/// of function (`More::LEADING`, `DISCLOSED` or `CHOSEN`, in [`crate::kit::controls`]), so
/// that a page which draws them from their split module links none of their code into the
/// module it waits for.
#[derive(Clone, Copy)]
pub struct More {
    /// The lesson's controls come first (the lesson, an embedded grid), or these do.
    pub lesson_first: bool,
    /// Draws them for a grid.
    pub draw: fn(GridLab, GridKit) -> AnyView,
}

/// What a page adds to each of its grids.
#[derive(Clone, Copy)]
pub struct GridKit {
    /// Where the controls beyond the lesson's (model, card, bytes per gradient, schedule,
    /// memory accounting, EP) are drawn: in view, or behind "more controls".
    pub more: More,
    /// After the model picker: the box for one's own config.json.
    pub own_model: Option<Part>,
    /// After bytes per gradient: where the optimizer lives (CPU Adam).
    pub host: Option<Part>,
    /// After every other control: the rollout engines.
    pub rollout: Option<Part>,
    /// After the memory figure: the host's memory and the rollout card.
    pub figures: Option<Part>,
    /// Under the traffic table: the launch flags, out and in.
    pub run: Option<Part>,
    /// Under the charts: one card's workload for a real GPU and its measured file beside the
    /// lab ("check on a GPU").
    pub check: Option<fn(GridLab) -> SplitCall>,
    /// Only these controls, in view (an embedded grid, as its link's `controls=` says);
    /// `None`: every control.
    pub shown: Option<Controls>,
    /// The parts drawn: every one on a page; an embedded grid's link's `parts=`, or the grid
    /// and its figures.
    pub parts: Parts,
    /// The device grid drawn compact (an embedded grid: four node boxes a row where they fit).
    pub compact: bool,
}

impl GridKit {
    /// Whether the grid draws `part`.
    pub fn draws(self, part: Drawn) -> bool {
        self.parts.contains(part)
    }

    /// Whether the grid shows `control`.
    pub fn shows(self, control: Control) -> bool {
        self.shown.is_none_or(|set| set.contains(control))
    }

    /// Draws `part` for `lab`, or nothing.
    pub fn draw(part: Option<Part>, lab: GridLab) -> impl IntoView {
        part.map(|draw| draw(lab))
    }
}
