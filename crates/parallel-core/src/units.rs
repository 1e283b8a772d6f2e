//! Quantities that carry their unit: [`Bytes`], [`BytesPerSec`] and [`Seconds`].
//!
//! SPEC §1: the core counts bytes everywhere (as `f64`: figures reach 1e13), bandwidths in
//! GB/s (1 GB = 1e9 bytes) and time as bytes ÷ bandwidth. Only the operators that make sense
//! exist: `Bytes + Bytes`, `Bytes * f64`, `Bytes / f64`, `Bytes / BytesPerSec = Seconds`.

use core::fmt;
use core::ops::{Add, AddAssign, Div, Mul, Sub};

use serde::Serialize;

/// One decimal gigabyte, 1e9 bytes (SPEC §1: "GB = 1e9 bytes").
pub const GB: f64 = 1e9;
/// One gibibyte, 2^30 bytes.
pub const GIB: f64 = 1_073_741_824.0;

/// An amount of memory or traffic, in bytes.
///
/// # Example
/// ```
/// use parallel_core::Bytes;
/// let states = Bytes::from_gb(55.6);
/// assert_eq!(states.to_string(), "55.6 GB");
/// assert_eq!((states * 2.0).gb(), 111.2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize)]
#[serde(transparent)]
pub struct Bytes(f64);

impl Bytes {
    /// Exactly zero bytes (a dense model's expert states).
    pub fn is_zero(&self) -> bool {
        self.0 == 0.0
    }

    /// Zero bytes.
    pub const ZERO: Bytes = Bytes(0.0);

    /// Wraps a byte count.
    pub const fn new(bytes: f64) -> Bytes {
        Bytes(bytes)
    }

    /// `gb` decimal gigabytes (× 1e9).
    pub fn from_gb(gb: f64) -> Bytes {
        Bytes(gb * GB)
    }

    /// The raw byte count.
    pub const fn get(self) -> f64 {
        self.0
    }

    /// In decimal gigabytes (÷ 1e9).
    pub fn gb(self) -> f64 {
        self.0 / GB
    }

    /// In gibibytes (÷ 2^30).
    pub fn gib(self) -> f64 {
        self.0 / GIB
    }

    /// In mebibytes (÷ 2^20): the lesson's notation for a small model's states.
    ///
    /// ```
    /// use parallel_core::Bytes;
    /// assert_eq!(Bytes::new(3_145_728.0).mib(), 3.0);
    /// assert_eq!(Bytes::new(1_073_741_824.0).mib(), 1024.0);
    /// ```
    pub fn mib(self) -> f64 {
        self.0 / 1_048_576.0
    }

    /// Formats as GiB with one decimal, e.g. "2.5 GiB" (the lesson's C9 notation).
    ///
    /// ```
    /// use parallel_core::Bytes;
    /// assert_eq!(Bytes::new(2_684_354_560.0).display_gib(), "2.5 GiB");
    /// ```
    pub fn display_gib(self) -> String {
        format!("{:.1} GiB", self.gib())
    }
}

impl fmt::Display for Bytes {
    /// One decimal in GB by default ("55.6 GB"); a precision overrides it (`{:.3}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = f.precision().unwrap_or(1);
        write!(f, "{:.*} GB", digits, self.gb())
    }
}

impl Add for Bytes {
    type Output = Bytes;
    fn add(self, rhs: Bytes) -> Bytes {
        Bytes(self.0 + rhs.0)
    }
}

impl Sub for Bytes {
    type Output = Bytes;
    fn sub(self, rhs: Bytes) -> Bytes {
        Bytes(self.0 - rhs.0)
    }
}

impl AddAssign for Bytes {
    fn add_assign(&mut self, rhs: Bytes) {
        self.0 += rhs.0;
    }
}

impl Mul<f64> for Bytes {
    type Output = Bytes;
    fn mul(self, rhs: f64) -> Bytes {
        Bytes(self.0 * rhs)
    }
}

impl Div<f64> for Bytes {
    type Output = Bytes;
    fn div(self, rhs: f64) -> Bytes {
        Bytes(self.0 / rhs)
    }
}

impl Div<BytesPerSec> for Bytes {
    type Output = Seconds;
    /// Time to move these bytes over a link: bytes ÷ bandwidth (SPEC §1).
    fn div(self, rhs: BytesPerSec) -> Seconds {
        Seconds(self.0 / rhs.0)
    }
}

impl core::iter::Sum for Bytes {
    fn sum<I: Iterator<Item = Bytes>>(iter: I) -> Bytes {
        iter.fold(Bytes::ZERO, Add::add)
    }
}

/// A link bandwidth, in bytes per second.
///
/// ```
/// use parallel_core::{Bytes, BytesPerSec};
/// let ib = BytesPerSec::from_gbps(50.0);
/// assert_eq!((Bytes::from_gb(97.2) / ib).get(), 1.944);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize)]
#[serde(transparent)]
pub struct BytesPerSec(f64);

impl BytesPerSec {
    /// `gbps` decimal gigabytes per second (× 1e9).
    pub fn from_gbps(gbps: f64) -> BytesPerSec {
        BytesPerSec(gbps * GB)
    }

    /// In GB/s.
    pub fn gbps(self) -> f64 {
        self.0 / GB
    }

    /// The raw bytes per second.
    pub const fn get(self) -> f64 {
        self.0
    }
}

impl fmt::Display for BytesPerSec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} GB/s", self.gbps())
    }
}

/// A duration in seconds (the "time" of a dimension: its bytes over its link).
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize)]
#[serde(transparent)]
pub struct Seconds(f64);

impl Seconds {
    /// Wraps a number of seconds.
    pub const fn new(seconds: f64) -> Seconds {
        Seconds(seconds)
    }

    /// The raw number of seconds.
    pub const fn get(self) -> f64 {
        self.0
    }

    /// The length of a time whatever its sign: a difference written "more by 0.20 s".
    ///
    /// ```
    /// use parallel_core::Seconds;
    /// assert_eq!(Seconds::new(-0.2).abs(), Seconds::new(0.2));
    /// assert_eq!(Seconds::new(1.5).abs(), Seconds::new(1.5));
    /// ```
    pub fn abs(self) -> Seconds {
        Seconds(self.0.abs())
    }
}

impl fmt::Display for Seconds {
    /// "1.94 s" above a second, "67.1 ms" below, "14.0 µs" under a tenth of a millisecond
    /// (a collective's α), "0.0 ms" for nothing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 >= 1.0 {
            write!(f, "{:.2} s", self.0)
        } else if self.0 > 0.0 && self.0 < 1e-4 {
            write!(f, "{:.1} µs", self.0 * 1e6)
        } else {
            write!(f, "{:.1} ms", self.0 * 1e3)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_rounds_to_one_decimal() {
        assert_eq!(Bytes::new(55_562_855_904.0).to_string(), "55.6 GB");
        assert_eq!(format!("{:.3}", Bytes::new(41_943_040.0)), "0.042 GB");
        assert_eq!(Seconds::new(1.944).to_string(), "1.94 s");
        assert_eq!(Seconds::new(0.0671).to_string(), "67.1 ms");
        assert_eq!(Seconds::new(14e-6).to_string(), "14.0 µs");
        assert_eq!(Seconds::new(0.0).to_string(), "0.0 ms");
    }

    #[test]
    fn bytes_over_bandwidth_is_seconds() {
        let t = Bytes::from_gb(160.0) / BytesPerSec::from_gbps(160.0);
        assert_eq!(t.get(), 1.0);
    }
}
