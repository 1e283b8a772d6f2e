//! Reading a measured table between its points (SPEC §18): rates are interpolated linearly in
//! log(rate) over log(size), so a rate that doubles from 1,024 to 2,048 tokens reads √2 of the
//! way at 1,448. Outside a table's range a coordinate is held at the nearest edge, with one
//! exception that keeps times physical: a GEMM with fewer tokens than the table's smallest
//! takes the smallest's time (it still streams all its weights), so its rate falls with M.

/// Where `x` falls on the ascending axis `axis`: the index `i` of the point at or below it and
/// the fraction `t` of the way, in log space, to point `i + 1`. Outside the axis, the nearest
/// edge (`t` = 0 or 1). An axis of one point gives (0, 0).
pub(crate) fn locate(axis: &[f64], x: f64) -> (usize, f64) {
    let last = axis.len().saturating_sub(1);
    // NaN and anything at or below the first point read the first point.
    if last == 0 || x.partial_cmp(&axis[0]) != Some(core::cmp::Ordering::Greater) {
        return (0, 0.0);
    }
    if x >= axis[last] {
        return (last - 1, 1.0);
    }
    let i = axis
        .iter()
        .rposition(|&a| a <= x)
        .unwrap_or(0)
        .min(last - 1);
    let (lo, hi) = (ln(axis[i]), ln(axis[i + 1]));
    (i, (ln(x) - lo) / (hi - lo))
}

/// The natural logarithm, the same bits natively and in wasm (`libm`, not the platform's).
fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// Linear interpolation of `ln a` and `ln b` at fraction `t`, back out of log space.
fn log_mix(a: f64, b: f64, t: f64) -> f64 {
    if t <= 0.0 {
        a
    } else if t >= 1.0 {
        b
    } else {
        libm::exp(ln(a) * (1.0 - t) + ln(b) * t)
    }
}

/// The three GEMMs of a linear layer's training step, as a table keys them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Forward, Y = X·Wᵀ: [M, K] × [K, N].
    Forward,
    /// The input's gradient, dX = dY·W: [M, N] × [N, K].
    Dgrad,
    /// The weight's gradient, dW = dYᵀ·X: [N, M] × [M, K].
    Wgrad,
}

impl Pass {
    /// The three passes of a backward-trained layer.
    pub const ALL: [Pass; 3] = [Pass::Forward, Pass::Dgrad, Pass::Wgrad];

    fn index(self) -> usize {
        match self {
            Pass::Forward => 0,
            Pass::Dgrad => 1,
            Pass::Wgrad => 2,
        }
    }
}

/// A measured bf16 GEMM table on a regular grid of tokens M × output width N × input width K
/// (powers of two), a rate in TFLOP/s for each pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GemmTable {
    /// Tokens M, ascending.
    pub m: &'static [f64; 8],
    /// Output widths N, ascending.
    pub n: &'static [f64; 7],
    /// Input widths K, ascending.
    pub k: &'static [f64; 7],
    /// TFLOP/s by pass, M, N, K.
    pub tflops: &'static [[[[f32; 7]; 7]; 8]; 3],
}

impl GemmTable {
    /// The fastest rate measured in the table, any pass and shape, TFLOP/s.
    pub fn max_rate(&self) -> f64 {
        self.tflops
            .iter()
            .flatten()
            .flatten()
            .flatten()
            .map(|r| f64::from(*r))
            .fold(0.0, f64::max)
    }

    /// The table's rate for a GEMM of `m` tokens, `n` outputs and `k` inputs, TFLOP/s:
    /// trilinear in log space between the eight grid points around it; each coordinate held
    /// at the grid's nearest edge outside it, except that below the smallest M the time of
    /// the smallest M is kept (rate × m/M_min).
    ///
    /// ```
    /// use parallel_core::kernels::{Pass, H200_GEMM};
    /// // A grid point reads its measurement.
    /// assert_eq!(H200_GEMM.rate(Pass::Forward, 4096.0, 4096.0, 4096.0), 561.4_f32 as f64);
    /// ```
    pub fn rate(&self, pass: Pass, m: f64, n: f64, k: f64) -> f64 {
        let table = &self.tflops[pass.index()];
        let (i, ti) = locate(self.m, m);
        let (j, tj) = locate(self.n, n);
        let (l, tl) = locate(self.k, k);
        let at = |a: usize, b: usize, c: usize| f64::from(table[a][b][c]);
        let along_k = |a: usize, b: usize| log_mix(at(a, b, l), at(a, b, l + 1), tl);
        let along_n = |a: usize| log_mix(along_k(a, j), along_k(a, j + 1), tj);
        let rate = log_mix(along_n(i), along_n(i + 1), ti);
        let smallest = self.m[0];
        if m < smallest {
            rate * m / smallest
        } else {
            rate
        }
    }
}

/// A measured causal-attention table (forward + backward, head dim 128): a rate by query length
/// for calls of one size, and how the rate falls for smaller calls.
///
/// A call of length s over n heads × batch runs n·s query rows. `full` holds the rate by length
/// for calls of `full_rows` rows; `partial` holds rates measured at fewer rows at some lengths.
/// The rate of a call is full(s) × occupancy(s, rows), where the occupancy at a measured
/// length is the partial rate ÷ the full rate there, log-linear over log rows up to 1 at
/// `full_rows` (and 1 above it), and log-linear over log length between the measured lengths
/// (the nearest one outside them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttentionTable {
    /// (query length, TFLOP/s) at `full_rows` rows a call or more, ascending in length.
    pub full: &'static [(f64, f64)],
    /// Query rows (heads × batch × length) of each call of `full`.
    pub full_rows: f64,
    /// (query length, heads × batch, TFLOP/s) measured with fewer rows, sorted by length then
    /// heads × batch.
    pub partial: &'static [(f64, f64, f64)],
}

impl AttentionTable {
    /// The fastest rate measured in the table, full or partial, TFLOP/s (an upper bound of
    /// [`AttentionTable::rate`], whose occupancy interpolates between the measured points).
    pub fn max_rate(&self) -> f64 {
        let full = self.full.iter().map(|p| p.1);
        let partial = self.partial.iter().map(|p| p.2);
        full.chain(partial).fold(0.0, f64::max)
    }

    /// The full-size rate at `length`: log-linear between the measured lengths, the nearest
    /// edge outside them.
    pub fn full_rate(&self, length: f64) -> f64 {
        let lengths: Vec<f64> = self.full.iter().map(|p| p.0).collect();
        if lengths.is_empty() {
            return f64::NAN;
        }
        let (i, t) = locate(&lengths, length);
        match self.full.get(i + 1) {
            Some(next) => log_mix(self.full[i].1, next.1, t),
            None => self.full[i].1,
        }
    }

    /// The occupancy at one length measured in `partial`: rate ÷ full rate, log-linear in log
    /// rows between the measured calls and 1 at `full_rows`; repeated points average.
    fn occupancy_at(&self, length: f64, rows: f64) -> f64 {
        let full = self.full_rate(length);
        let mut points: Vec<(f64, f64)> = Vec::new();
        for p in self.partial.iter().filter(|p| p.0 == length) {
            let r = p.1 * p.0;
            match points.iter_mut().find(|q| q.0 == r) {
                Some(q) => q.1 = (q.1 * p.2 / full).sqrt(),
                None => points.push((r, p.2 / full)),
            }
        }
        points.retain(|p| p.0 < self.full_rows);
        points.push((self.full_rows, 1.0));
        let axis: Vec<f64> = points.iter().map(|p| p.0).collect();
        let (i, t) = locate(&axis, rows);
        match points.get(i + 1) {
            Some(next) => log_mix(points[i].1, next.1, t),
            None => points[i].1,
        }
    }

    /// The share of the full rate a call of `rows` query rows at `length` reaches: between
    /// the lengths measured in `partial`, log-linear in log length (the nearest outside).
    pub fn occupancy(&self, length: f64, rows: f64) -> f64 {
        let mut lengths: Vec<f64> = self.partial.iter().map(|p| p.0).collect();
        lengths.dedup();
        if lengths.is_empty() {
            return 1.0;
        }
        let (i, t) = locate(&lengths, length);
        let low = self.occupancy_at(lengths[i], rows);
        match lengths.get(i + 1) {
            Some(&next) => log_mix(low, self.occupancy_at(next, rows), t),
            None => low,
        }
    }

    /// The table's rate for causal attention over `length` query tokens with `n` heads ×
    /// batch, TFLOP/s: full(length) × occupancy(length, n·length).
    ///
    /// ```
    /// use parallel_core::kernels::H200_ATTENTION;
    /// // 16,384 tokens a call of 32 heads at 4,096: a measured point.
    /// assert_eq!(H200_ATTENTION.rate(4096.0, 128.0), 263.8);
    /// ```
    pub fn rate(&self, length: f64, n: f64) -> f64 {
        self.full_rate(length) * self.occupancy(length, n * length)
    }
}
