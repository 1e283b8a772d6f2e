//! Checking a plan on one real GPU (SPEC §19).
//!
//! One GPU cannot run a 64-card plan, but it can run what one card of it runs: the layers of
//! its pipeline stage at its own widths (after TP), its tokens (after CP), its experts (after
//! EP) and its micro-batches in flight. [`Plan::workload`] writes that down with the lab's
//! figures for it; the measuring program shipped in `scripts/gpu-check/` builds it in PyTorch
//! and writes a measured file; [`Measured::read`] reads that file (every problem named by its
//! field) and [`Measured::compare`] sets each figure beside the lab's, with what the lab does
//! not count that explains the difference; a figure no card can measure (a time of 0 s, a
//! peak below the layers' own states or above the card's memory) is refused by its field.
//! [`measured_for`] finds the shipped measurements (one H200's) that check a card of the same
//! shapes. Nothing about traffic can be checked on one card, and [`Unbuilt`] says so with the
//! rest of what is not built.
//!
//! [`Plan::workload`]: crate::Plan::workload

mod compare;
mod known;
mod physical;
mod problem;
mod read;
mod unbuilt;
mod workload;

#[cfg(test)]
mod tests;

pub use compare::{preset_of_device, show, show_ratio, CheckRow, Comparison, Figure};
pub use known::{known, measured_for, Known};
pub use problem::CheckError;
pub use read::{Figures, Measured, MeasuredCard, MEASURED_FORMAT};
pub use unbuilt::Unbuilt;
pub use workload::{
    ExpertShape, LayerFigures, LayerShape, Predicted, StageLayers, Tokens, Workload, CHECK_VERSION,
    WORKLOAD_FORMAT,
};
