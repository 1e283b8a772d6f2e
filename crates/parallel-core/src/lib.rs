//! The formulas of Parallel Lab: how a training plan spreads a model over GPUs.
//!
//! Given a [`PlanConfig`] (model, GPUs, TP/PP/CP/EP degrees, micro-batches, sequence length,
//! ZeRO stage, recomputation, schedule), the crate computes, per the contract (docs/SPEC.md):
//! - the device grid: each card's coordinates and its TP, CP, PP, DP (and EP) groups, and
//!   whether a group talks over NVLink or InfiniBand ([`Grid`]);
//! - memory per card: model states under ZeRO 0–3 and activations under three recompute
//!   modes and three schedules ([`Plan::memory`]);
//! - bytes each card sends per step for each dimension, its collective, link and time
//!   ([`Plan::traffic`]);
//! - the pipeline bubble ([`Plan::bubble`]);
//! - context-parallel layouts ([`causal_pairs`]) and the TP split bench ([`tp_bench()`]);
//! - models read from a Hugging Face `config.json`, with their exact parameter count ([`hf`]).
//!
//! [`evaluate`] does all of it at once and returns a [`Report`].
//!
//! # What this crate does not do
//! It measures nothing: every figure is a formula of docs/SPEC.md, not a run. What those formulas
//! leave out (latency, most overlap, CP's backward, imbalanced expert routing, buffers and
//! fragmentation, …) is one list, [`omissions`], each item with its reason, and a witness in the
//! crate's tests (`tests/omissions.rs`) fails once the crate comes to model it; the page, the
//! CLI's `--help` and `docs/formulas.md` are written from it. It does no IO, reads no clock
//! and draws no random numbers, and it knows nothing of the browser: the same code runs in the
//! CLI and, compiled to wasm32, in the page.
//!
//! # Example
//! ```
//! use parallel_core::{evaluate, PlanConfig};
//! let report = evaluate(&PlanConfig { zero: 3, ..PlanConfig::default() })?;
//! assert_eq!(report.memory.total.to_string(), "58.2 GB");
//! # Ok::<(), parallel_core::PlanError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::panic))]

pub mod balance;
pub mod bounds;
mod bubble;
pub mod check;
mod checks;
mod config;
mod cp_layout;
pub mod decimal;
mod error;
pub mod estimate;
pub mod evolution;
pub mod explain;
pub mod finite;
pub mod flags;
pub mod formula;
mod grid;
pub mod hardware;
pub mod hf;
pub mod kernels;
pub mod lang;
pub mod lesson;
pub mod link;
pub mod margin;
pub mod measured;
mod memory;
mod model;
pub mod numbers;
mod offload;
pub mod omissions;
mod plan;
mod recipe;
mod report;
mod rollout;
pub mod routing;
pub mod runs;
pub mod runtime_memory;
mod schedule;
pub mod search;
mod sequences;
mod stages;
mod tp_bench;
pub mod traffic;
mod units;

pub use bubble::Bubble;
pub use config::{
    Accounting, BenchField, Field, ModelField, OptimizerOffload, PlanConfig, Precision, RankOrder,
    Recompute, Rollout, RolloutField, Schedule,
};
pub use cp_layout::{causal_pairs, cp_positions, cp_token_ranks, pair_imbalance, CpLayout};
pub use error::{average_layers, PlanError, Warning};
pub use estimate::Estimate;
pub use grid::{Coords, Dim, Grid, Groups, Link};
pub use lang::Lang;
pub use memory::{Activations, Memory, ModelStates};
pub use model::{
    count_params, InlineModel, LinearAttention, Mla, Mlp, Model, ModelChoice, Moe, Preset,
};
pub use offload::HostMemory;
pub use plan::{Degrees, Plan, MAX_GPUS, MAX_SEQ_LEN};
pub use report::{evaluate, Report};
pub use rollout::{RolloutPhase, RolloutReport};
pub use runtime_memory::RuntimeMemory;
pub use schedule::{simulate_schedule, Op, OpKind, ScheduleView, Timeline, MAX_TIMELINE_SLOTS};
pub use stages::{stages_imbalance, stages_range, StageMemory};
pub use tp_bench::{tp_bench, BenchShape, SplitMix, TpBench};
pub use traffic::{Collective, Traffic};
pub use units::{Bytes, BytesPerSec, Seconds, GB, GIB};
