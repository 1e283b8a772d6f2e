//! Models: what the formulas read of one, and the three ways a config names one.
//!
//! A [`Model`] is what the formulas read: total parameters P, hidden size h, layers L, full
//! attention layers F, heads a, KV heads, head dim, and the MoE part when there is one. A
//! config's `model` is a [`ModelChoice`]: a [`Preset`] of the lesson, an [`InlineModel`] given
//! field by field, or a Hugging Face `config.json` ([`crate::hf`]).
//!
//! - `shape`: [`Model`], [`Moe`] and what is counted from them ([`count_params`], routed and
//!   active parameters);
//! - `preset`: the lesson's named models;
//! - `inline`: an inline model's defaults and checks;
//! - `choice`: [`ModelChoice`] and its serde form.

mod choice;
mod inline;
mod preset;
mod shape;

pub use choice::ModelChoice;
pub use inline::InlineModel;
pub use preset::Preset;
pub use shape::{count_params, LinearAttention, Mla, Mlp, Model, Moe};
