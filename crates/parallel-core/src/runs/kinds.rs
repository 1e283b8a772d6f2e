//! The kinds of a published run: how a source counts FLOPs, which figure it publishes, and
//! the run itself as the lab writes it.

use serde::Serialize;

use crate::config::PlanConfig;

/// How a source counts the FLOPs of its utilisation figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Counting {
    /// Model FLOPs as PaLM counts them (Chowdhery et al. 2022, appendix B): 6·P_act + 12·L·a·
    /// head_dim·s per token (attention not halved for causality), no recomputation. Llama 3
    /// (Table 4) and Korthikanti et al. 2022 (MFU) count this way.
    Palm,
    /// Megatron-LM's count (Narayanan et al. 2021, eq. 3): 96·B·s·l·h²·(1 + s/(6h) +
    /// V/(16·l·h)) per batch of B sequences, the extra forward of full recomputation included.
    MegatronWithRecompute,
}

/// The figure a source publishes for a run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    /// A utilisation of the card's dense BF16 peak, counted as `Counting` says.
    Utilisation(Counting),
    /// Tokens per second per card.
    TokensPerSecond,
}

/// What a source published for a run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Published {
    /// The headline figure the ratio compares: a utilisation (0–1) or tokens/s per card.
    pub value: f64,
    /// Which figure it is.
    pub figure: Figure,
    /// TFLOP/s per card, where published.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tflops_per_gpu: Option<f64>,
    /// Peak memory per card in GiB, where published.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_gib: Option<f64>,
}

/// A published run.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Stable id, e.g. `"llama3-405b-8k-8192"`.
    pub id: &'static str,
    /// Where the figures come from: paper and table, or repository file and commit.
    pub source: &'static str,
    /// The run in a few words, in Chinese and English.
    pub label: (&'static str, &'static str),
    /// The plan as the lab writes it.
    pub config: PlanConfig,
    /// The published figures.
    pub published: Published,
    /// What the lab approximates to write the run as a plan, and what it leaves out that
    /// explains the rest of the ratio (Chinese, English).
    pub notes: (&'static str, &'static str),
}
