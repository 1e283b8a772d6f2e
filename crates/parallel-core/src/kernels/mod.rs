//! Kernel rates measured on a real card (SPEC §18): what one card's GEMMs, attention and
//! memory-bound kernels run at, by shape, as card data.
//!
//! - `h200`: the tables measured on one H200 (2026-12-04), copied from
//!   `data/h200-2026-12-04/`;
//! - `a100`: FlashAttention-2's published A100 attention rates;
//! - `table`: reading a table between its points ([`GemmTable::rate`],
//!   [`AttentionTable::rate`]).
//!
//! **The one rule for every card.** A card's GEMM rate for a shape is the H200 table's rate
//! for that shape × the card's large-GEMM rate ÷ the table's (`gpu_tflops` ÷ the H200's
//! measured 8,192³ GEMM, 761.84 TFLOP/s). The H200 and the H100 SXM (the same chip at the same
//! clocks) state that measured rate as their `gpu_tflops`, so their scale is 1 and they read
//! the table as measured; every other card's `gpu_tflops` is its datasheet peak ×
//! `matmul_efficiency`, so it *borrows* the H200's shape dependence. Attention is read from
//! the card's own table when it has one (A100: FlashAttention-2's), else from the H200's at
//! the same scale. Memory-bound kernels run at the card's HBM bandwidth × the H200's measured
//! copy ratio (4.07 of 4.8 TB/s). The lesson's card has no tables: it keeps its stated 400
//! TFLOP/s and SPEC §17's roofline.

mod a100;
mod h200;
mod table;

pub use table::{AttentionTable, GemmTable, Pass};

use crate::config::PlanConfig;
use crate::hardware::Hardware;

/// The H200's bf16 GEMM grid (`gemm_grid.json`): M 128–16,384 × N, K 512–32,768.
pub const H200_GEMM: GemmTable = GemmTable {
    m: &h200::GEMM_M,
    n: &h200::GEMM_N,
    k: &h200::GEMM_K,
    tflops: &h200::GEMM_TFLOPS,
};

/// The H200's causal attention, PyTorch's flash kernel (`attn.json`, `layer.json`).
pub const H200_ATTENTION: AttentionTable = AttentionTable {
    full: &h200::ATTENTION_FLASH_FULL,
    full_rows: h200::ATTENTION_FLASH_ROWS,
    partial: &h200::ATTENTION_FLASH_LAYER,
};

/// FlashAttention-2's published A100 causal attention (Dao 2023, Fig. 4 (d)); the occupancy
/// of smaller calls was not published, so every call reads the full rate.
pub const A100_ATTENTION: AttentionTable = AttentionTable {
    full: &a100::ATTENTION_FA2,
    full_rows: a100::ATTENTION_FA2_ROWS,
    partial: &[],
};

pub use crate::hardware::H200_GEMM_8192_TFLOPS;

/// The H200's measured copy bandwidth, read + write, TB/s (`card.json`).
pub const H200_COPY_TBPS: f64 = h200::COPY_TBPS;

/// The H200's HBM bandwidth by its datasheet, TB/s: the denominator of the copy ratio.
pub const H200_HBM_TBPS: f64 = 4.8;

/// Where the tables come from, as the explanations cite it.
pub const H200_SOURCE: &str = "measured on one H200 SXM (PyTorch 2.11.0, CUDA 13.0, bf16; \
     CUDA-event medians after warm-up), 2026-12-04";

/// Where FlashAttention-2's A100 rates come from.
pub const A100_ATTENTION_SOURCE: &str = a100::SOURCE;

/// Whose measurement a card's tables are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provenance {
    /// Measured on this chip (the H200; the H100 SXM is the same chip at the same clocks).
    Measured,
    /// Borrowed from the H200 measurement by the one rule of this module.
    Borrowed,
}

/// One card's kernel rates, ready for the estimate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kernels {
    /// The GEMM table.
    pub gemm: GemmTable,
    /// The attention table.
    pub attention: AttentionTable,
    /// Multiplier of the GEMM table's rates: `gpu_tflops` ÷ 761.84.
    pub gemm_scale: f64,
    /// Multiplier of the attention table's rates (1 for a card's own table at its default
    /// rate).
    pub attention_scale: f64,
    /// Bandwidth of the memory-bound kernels, TB/s: `hbm_tbps` × 4.07/4.8.
    pub copy_tbps: f64,
    /// Measured on this chip, or borrowed.
    pub provenance: Provenance,
    /// Whether attention comes from FlashAttention-2's A100 figure.
    pub own_attention: bool,
}

impl Kernels {
    /// The kernel rates of the config's card; `None` for the lesson's card, which keeps its
    /// stated rate (SPEC §18).
    ///
    /// ```
    /// use parallel_core::{hardware::Hardware, kernels::{Kernels, Provenance}, PlanConfig};
    /// let h200 = Kernels::of(&PlanConfig::on(Hardware::H200)).unwrap();
    /// assert_eq!((h200.gemm_scale, h200.provenance), (1.0, Provenance::Measured));
    /// assert!((h200.copy_tbps - 4.075).abs() < 1e-9);
    /// let b200 = Kernels::of(&PlanConfig::on(Hardware::B200)).unwrap();
    /// assert_eq!(b200.provenance, Provenance::Borrowed);
    /// assert!(Kernels::of(&PlanConfig::default()).is_none());
    /// ```
    pub fn of(config: &PlanConfig) -> Option<Kernels> {
        let provenance = match config.hardware {
            Hardware::Lesson => return None,
            Hardware::H200 | Hardware::H100 => Provenance::Measured,
            Hardware::A100 | Hardware::B200 | Hardware::Mi300x => Provenance::Borrowed,
        };
        let gemm_scale = config.gpu_tflops / H200_GEMM_8192_TFLOPS;
        let (attention, attention_scale, own_attention) = match config.hardware {
            Hardware::A100 => (
                A100_ATTENTION,
                config.gpu_tflops / (config.peak_tflops * config.matmul_efficiency),
                true,
            ),
            _ => (H200_ATTENTION, gemm_scale, false),
        };
        Some(Kernels {
            gemm: H200_GEMM,
            attention,
            gemm_scale,
            attention_scale,
            copy_tbps: config.hbm_tbps * H200_COPY_TBPS / H200_HBM_TBPS,
            provenance,
            own_attention,
        })
    }

    /// The fastest rate any of its kernels runs at, TFLOP/s: the tables' fastest measured
    /// rates, scaled. Above the card's `peak_tflops` the MFU of a step could pass 1.
    pub fn max_rate(&self) -> f64 {
        (self.gemm.max_rate() * self.gemm_scale)
            .max(self.attention.max_rate() * self.attention_scale)
    }

    /// Whether the config's card is timed by kernel tables, its own or borrowed: every card
    /// but the lesson's (SPEC §18), exactly where [`Kernels::of`] gives some. For the questions
    /// that need no rates (what Megatron-Core sends on a real card), without building them.
    ///
    /// ```
    /// use parallel_core::{hardware::Hardware, kernels::Kernels, PlanConfig};
    /// for card in Hardware::ALL {
    ///     let config = PlanConfig::on(card);
    ///     assert_eq!(Kernels::apply_to(&config), Kernels::of(&config).is_some());
    /// }
    /// ```
    pub fn apply_to(config: &PlanConfig) -> bool {
        config.hardware != Hardware::Lesson
    }

    /// The card's rate for a GEMM of `m` tokens, `n` outputs and `k` inputs, FLOP/s.
    pub fn gemm_flops_per_s(&self, pass: Pass, m: f64, n: f64, k: f64) -> f64 {
        self.gemm.rate(pass, m, n, k) * self.gemm_scale * 1e12
    }

    /// The card's forward + backward rate for causal attention over `length` query tokens
    /// with `n` heads × batch, FLOP/s.
    pub fn attention_flops_per_s(&self, length: f64, n: f64) -> f64 {
        self.attention.rate(length, n) * self.attention_scale * 1e12
    }

    /// The sentence an explanation cites for these rates.
    pub fn source(&self) -> &'static str {
        match (self.provenance, self.own_attention) {
            (Provenance::Measured, _) => H200_SOURCE,
            (Provenance::Borrowed, false) => {
                "borrowed from the H200 measurement (rates by \
                 shape × this card's gpu_tflops ÷ 761.84; copies at its HBM × 4.07/4.8), \
                 measured on one H200 SXM (PyTorch 2.11.0, CUDA 13.0), 2026-12-04"
            }
            (Provenance::Borrowed, true) => {
                "GEMMs and copies borrowed from the H200 \
                 measurement (rates by shape × this card's gpu_tflops ÷ 761.84; copies at its \
                 HBM × 4.07/4.8; one H200 SXM, PyTorch 2.11.0, 2026-12-04); attention from \
                 FlashAttention-2's A100 figure (Dao 2023, arXiv 2307.08691, Fig. 4)"
            }
        }
    }
}

#[cfg(test)]
mod tests;
