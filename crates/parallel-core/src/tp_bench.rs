//! The TP bench (SPEC §7): Y = GeLU(X·W)·V computed whole and split over t cards.
//!
//! Splitting W by columns and V by rows, each card computes GeLU(X·W_i)·V_i and the partial
//! outputs are summed (one all-reduce): the result equals the unsplit one up to floating-point
//! rounding. Splitting W by rows instead (each card holds a slice of the input features) makes
//! each card apply GeLU to a *partial* sum X_i·W_i, and GeLU is not linear, so the sum of the
//! partial outputs differs. Both differences are really computed here, in f32, on matrices
//! drawn from a seeded generator (the page passes a fresh seed; the core has no randomness).

use serde::Serialize;

use crate::config::{BenchField, Field};
use crate::error::PlanError;

/// Sizes of the bench.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BenchShape {
    /// Rows of X (tokens).
    pub tokens: usize,
    /// Columns of X = rows of W = columns of Y.
    pub hidden: usize,
    /// Columns of W = rows of V.
    pub ffn: usize,
    /// Number of cards t.
    pub tp: usize,
}

impl Default for BenchShape {
    fn default() -> Self {
        BenchShape {
            tokens: 4,
            hidden: 8,
            ffn: 32,
            tp: 2,
        }
    }
}

/// What the bench found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TpBench {
    /// The shape used.
    pub shape: BenchShape,
    /// Largest |Y_split − Y| when W is split by columns and V by rows (rounding level).
    pub column_split_max_diff: f64,
    /// Largest |Y_split − Y| when W is split by rows (GeLU on partial sums: not zero).
    pub row_split_max_diff: f64,
    /// Largest |Y| of the unsplit result, for scale.
    pub output_max_abs: f64,
}

impl TpBench {
    /// A difference counts as rounding when it is below this fraction of the output's largest
    /// value. f32 keeps about 7 significant digits (ε ≈ 1.2e-7) and the bench sums a few dozen
    /// products, so rounding stays near 1e-7 of the output; splitting W by rows is off by a
    /// sizeable fraction of it.
    pub const ROUNDING_LEVEL: f64 = 1e-5;

    /// Whether `diff` is at rounding level against an output whose largest |Y| is
    /// `output_max_abs`: `diff` ≤ [`TpBench::ROUNDING_LEVEL`] · max(|Y|, 1).
    ///
    /// ```
    /// use parallel_core::{tp_bench, BenchShape, TpBench};
    /// let r = tp_bench(7, BenchShape::default())?;
    /// assert!(TpBench::is_rounding_level(r.column_split_max_diff, r.output_max_abs));
    /// assert!(!TpBench::is_rounding_level(r.row_split_max_diff, r.output_max_abs));
    /// assert!(TpBench::is_rounding_level(1e-6, 0.5) && !TpBench::is_rounding_level(2e-5, 0.5));
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn is_rounding_level(diff: f64, output_max_abs: f64) -> bool {
        diff <= Self::ROUNDING_LEVEL * output_max_abs.max(1.0)
    }
}

/// A small deterministic generator (SplitMix64, Steele, Lea and Flood 2014): a seed gives the
/// same numbers on every machine. The bench draws its matrices from it; tests draw their
/// hostile inputs from it, with the seed printed for a replay.
///
/// ```
/// use parallel_core::SplitMix;
/// let mut rng = SplitMix::new(0);
/// assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
/// assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// The generator at `seed`.
    pub const fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in [-1, 1) from 24 random bits, exact in `f32`.
    fn next_unit(&mut self) -> f32 {
        ((self.next_u64() >> 40) as f32 / (1u64 << 23) as f32) - 1.0
    }

    fn matrix(&mut self, rows: usize, cols: usize) -> Matrix {
        Matrix {
            rows,
            cols,
            data: (0..rows * cols).map(|_| self.next_unit()).collect(),
        }
    }
}

#[derive(Clone, Debug)]
struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<f32>,
}

impl Matrix {
    fn at(&self, r: usize, c: usize) -> f32 {
        self.data[r * self.cols + c]
    }

    fn zeros(rows: usize, cols: usize) -> Matrix {
        Matrix {
            rows,
            cols,
            data: vec![0.0; rows * cols],
        }
    }

    /// Columns [from, to) of self.
    fn columns(&self, from: usize, to: usize) -> Matrix {
        let mut out = Matrix::zeros(self.rows, to - from);
        for r in 0..self.rows {
            for c in from..to {
                out.data[r * out.cols + c - from] = self.at(r, c);
            }
        }
        out
    }

    /// Rows [from, to) of self.
    fn rows(&self, from: usize, to: usize) -> Matrix {
        Matrix {
            rows: to - from,
            cols: self.cols,
            data: self.data[from * self.cols..to * self.cols].to_vec(),
        }
    }

    fn matmul(&self, other: &Matrix) -> Matrix {
        let mut out = Matrix::zeros(self.rows, other.cols);
        for r in 0..self.rows {
            for k in 0..self.cols {
                let a = self.at(r, k);
                for c in 0..other.cols {
                    out.data[r * other.cols + c] += a * other.at(k, c);
                }
            }
        }
        out
    }

    fn gelu(mut self) -> Matrix {
        // tanh approximation (Hendrycks & Gimpel 2016), as in GPT-2 and Megatron-LM.
        const K: f32 = 0.797_884_6; // √(2/π)
        for v in &mut self.data {
            *v = 0.5 * *v * (1.0 + (K * (*v + 0.044_715 * *v * *v * *v)).tanh());
        }
        self
    }

    fn add(mut self, other: &Matrix) -> Matrix {
        for (a, b) in self.data.iter_mut().zip(&other.data) {
            *a += b;
        }
        self
    }

    fn max_abs_diff(&self, other: &Matrix) -> f64 {
        self.data
            .iter()
            .zip(&other.data)
            .map(|(a, b)| f64::from((a - b).abs()))
            .fold(0.0, f64::max)
    }
}

/// Largest bench the page may ask for (keeps it instant in the browser).
const MAX_BENCH_CELLS: usize = 1 << 16;

/// Runs the bench on matrices drawn from `seed`.
///
/// ```
/// use parallel_core::{tp_bench, BenchShape};
/// let r = tp_bench(7, BenchShape::default()).unwrap();
/// assert!(r.column_split_max_diff < 1e-5);
/// assert!(r.row_split_max_diff > 1e-3);
/// ```
pub fn tp_bench(seed: u64, shape: BenchShape) -> Result<TpBench, PlanError> {
    let BenchShape {
        tokens,
        hidden,
        ffn,
        tp,
    } = shape;
    for (value, field) in [
        (tokens, BenchField::Tokens),
        (hidden, BenchField::Hidden),
        (ffn, BenchField::Ffn),
        (tp, BenchField::Tp),
    ] {
        if value == 0 {
            return Err(PlanError::BelowOne {
                field: Field::Bench(field),
            });
        }
    }
    if ffn % tp != 0 || hidden % tp != 0 {
        return Err(PlanError::BenchSplit { hidden, ffn, tp });
    }
    let cells = [tokens * hidden, hidden * ffn, ffn * hidden];
    if cells.iter().any(|&n| n > MAX_BENCH_CELLS) || tokens.saturating_mul(ffn) > MAX_BENCH_CELLS {
        return Err(PlanError::BenchTooLarge {
            max: MAX_BENCH_CELLS,
        });
    }
    let mut rng = SplitMix::new(seed);
    let x = rng.matrix(tokens, hidden);
    let w = rng.matrix(hidden, ffn);
    let v = rng.matrix(ffn, hidden);
    let whole = x.matmul(&w).gelu().matmul(&v);

    let f_part = ffn / tp;
    let h_part = hidden / tp;
    let mut column_split = Matrix::zeros(tokens, hidden);
    let mut row_split = Matrix::zeros(tokens, hidden);
    for i in 0..tp {
        let (f0, f1) = (i * f_part, (i + 1) * f_part);
        let partial = x.matmul(&w.columns(f0, f1)).gelu().matmul(&v.rows(f0, f1));
        column_split = column_split.add(&partial);

        let (h0, h1) = (i * h_part, (i + 1) * h_part);
        let wrong = x.columns(h0, h1).matmul(&w.rows(h0, h1)).gelu().matmul(&v);
        row_split = row_split.add(&wrong);
    }
    Ok(TpBench {
        shape,
        column_split_max_diff: column_split.max_abs_diff(&whole),
        row_split_max_diff: row_split.max_abs_diff(&whole),
        output_max_abs: whole
            .data
            .iter()
            .map(|v| f64::from(v.abs()))
            .fold(0.0, f64::max),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_split_matches_and_row_split_does_not_for_many_seeds() {
        for seed in 0..50 {
            for tp in [2, 4, 8] {
                let shape = BenchShape {
                    tokens: 3,
                    hidden: 16,
                    ffn: 64,
                    tp,
                };
                let r = tp_bench(seed, shape).unwrap();
                assert!(
                    r.column_split_max_diff < 1e-4 * r.output_max_abs.max(1.0),
                    "{r:?}"
                );
                assert!(r.row_split_max_diff > 1e-3, "{r:?}");
            }
        }
    }

    #[test]
    fn uneven_split_is_an_error() {
        let err = tp_bench(
            1,
            BenchShape {
                tokens: 2,
                hidden: 6,
                ffn: 8,
                tp: 4,
            },
        )
        .unwrap_err();
        assert_eq!(err.field(), Field::Bench(BenchField::Tp));
    }
}
