//! The Parallel Lab pages: a Leptos (client-side rendered) app over `parallel-core`.
//!
//! - [`pages`]: one room per entry point (the lesson, the RL layout step, the planner, the
//!   embedded widget), each owning its sections; `src/bin/` holds their `main`s, which all call
//!   [`pages::start`].
//! - [`kit`]: what the pages are built from (grid, controls, figures, charts, explanations,
//!   text). A page imports the kit, never another page.
//! - [`state`]: the link, the page's state and the two [`state::lab::GridLab`]s (the 8-GPU
//!   machine and the 64-GPU cluster) holding a `PlanConfig` each; every figure is derived from
//!   the core through memos and only formatted in the kit. Text comes in pairs (中文, English),
//!   see [`kit::i18n`].

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::panic))]
// Rendering the pages to HTML (the `prerender` feature) nests deeper types than the browser build.
#![recursion_limit = "256"]

pub mod kit;
pub mod pages;
pub mod state;
