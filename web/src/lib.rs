//! The Parallel Lab pages: a Leptos (client-side rendered) app over `parallel-core`, with one
//! entry point per audience ([`pages`]) and one for embedded widgets ([`embed`]).
//!
//! State lives in two [`lab::GridLab`]s (the 8-GPU machine and the 64-GPU cluster) holding a
//! `PlanConfig` each; every figure is derived from the core through memos and only formatted
//! here. Text comes in pairs (中文, English), see [`i18n`].

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::panic))]

pub mod charts;
pub mod components;
pub mod embed;
pub mod error_text;
pub mod format;
pub mod i18n;
pub mod input;
pub mod js_api;
pub mod lab;
pub mod landing;
pub mod later;
pub mod offline;
pub mod pages;
pub mod permalink;
pub mod scroll;
pub mod sections;
pub mod start;
pub mod text;
pub mod tolerance;
pub mod vocab;
