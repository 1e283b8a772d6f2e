//! FlashAttention-2's published A100 attention rates (SPEC §18), copied from its figure: Dao
//! 2023, "FlashAttention-2: Faster Attention with Better Parallelism and Work Partitioning"
//! (arXiv 2307.08691), Fig. 4 (d), "Attention forward + backward speed (A100 80GB SXM4), with
//! causal mask, head dimension 128", the FlashAttention-2 bars; the same figure is
//! `assets/flash2_a100_fwd_bwd_benchmark.png` of Dao-AILab/flash-attention (@ 0251105a), whose
//! README gives the setup: hidden dimension 2,048 (16 heads of 128), batch 16k ÷ sequence
//! length.

/// Where the numbers come from.
pub(super) const SOURCE: &str = "FlashAttention-2 (Dao 2023, arXiv 2307.08691), Fig. 4 (d): \
     A100 80GB SXM4, causal, head dim 128, forward + backward";

/// (query length, TFLOP/s), FlashAttention-2's bars.
pub(super) const ATTENTION_FA2: [(f64, f64); 6] = [
    (512.0, 99.0),
    (1024.0, 133.0),
    (2048.0, 155.0),
    (4096.0, 173.0),
    (8192.0, 182.0),
    (16384.0, 189.0),
];

/// Query rows of each call: 16,384 tokens × 16 heads.
pub(super) const ATTENTION_FA2_ROWS: f64 = 262_144.0;
