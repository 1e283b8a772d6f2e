//! [`Quantity`]: what a formula is written in, and [`Show`]: how its values are written.

use core::ops::{Add, Div, Mul, Sub};

use crate::numbers::thousands;
use crate::units::{Bytes, Seconds};

/// How a value is written when a formula is shown with the plan's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Show {
    /// A count or a plain number: whole numbers with separators ("27,781,427,952"), others
    /// with four significant digits ("0.8750").
    Count,
    /// Bytes: GB (SPEC §1), or MB below 0.1 GB so that a layer's few megabytes do not read
    /// "0.0 GB".
    Bytes,
    /// Bytes per second, in GB/s.
    Bandwidth,
    /// Seconds: "1.94 s", "67.1 ms".
    Seconds,
    /// A fraction as a percent: "21.9%".
    Percent,
}

impl Show {
    /// `value` written this way.
    ///
    /// ```
    /// use parallel_core::formula::Show;
    /// assert_eq!(Show::Count.write(27_781_427_952.0), "27,781,427,952");
    /// assert_eq!(Show::Count.write(0.875), "0.8750");
    /// assert_eq!(Show::Bytes.write(41_943_040.0), "41.9 MB");
    /// assert_eq!(Show::Seconds.write(1.944), "1.94 s");
    /// ```
    pub fn write(self, value: f64) -> String {
        match self {
            Show::Count => count(value),
            Show::Bytes if value.abs() < 1e8 => format!("{:.1} MB", value / 1e6),
            Show::Bytes => Bytes::new(value).to_string(),
            Show::Bandwidth => format!("{} GB/s", count(value / 1e9)),
            Show::Seconds => Seconds::new(value).to_string(),
            Show::Percent => crate::numbers::percent(value),
        }
    }
}

/// A number as the explanations write it: whole numbers with separators, others with four
/// significant digits.
pub(crate) fn count(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        thousands(x)
    } else if x.abs() >= 1000.0 {
        thousands(x.round())
    } else if x == 0.0 {
        "0".into()
    } else {
        let digits = (3 - x.abs().log10().floor() as i32).clamp(0, 8) as usize;
        format!("{x:.digits$}")
    }
}

/// What a formula is written in: a number (`f64`, for the report) or a number with its
/// working ([`super::Worked`], for the explanations).
pub trait Quantity:
    Sized + Clone + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// An input of the formula: its symbol, its value and how the value is written.
    fn var(symbol: &'static str, value: f64, show: Show) -> Self;
    /// A constant written as its value ("4", "12").
    fn lit(value: f64) -> Self;
    /// A constant written as `text` ("10¹²").
    fn constant(text: &'static str, value: f64) -> Self;
    /// A named factor written as its fraction ([`crate::numbers::fraction`]: "4/3", "3/2").
    fn factor(value: f64) -> Self;
    /// This quantity under a name of its own: shown as `symbol` in the formulas that use it,
    /// with its definition beside them.
    fn named(self, symbol: &'static str, show: Show) -> Self;
    /// The larger of the two.
    fn max(self, other: Self) -> Self;
    /// The smaller of the two.
    fn min(self, other: Self) -> Self;
    /// The least whole number at or above it (a count of buckets).
    fn ceil(self) -> Self;
    /// The value.
    fn value(&self) -> f64;
}

impl Quantity for f64 {
    #[inline]
    fn var(_: &'static str, value: f64, _: Show) -> f64 {
        value
    }
    #[inline]
    fn lit(value: f64) -> f64 {
        value
    }
    #[inline]
    fn constant(_: &'static str, value: f64) -> f64 {
        value
    }
    #[inline]
    fn factor(value: f64) -> f64 {
        value
    }
    #[inline]
    fn named(self, _: &'static str, _: Show) -> f64 {
        self
    }
    #[inline]
    fn max(self, other: f64) -> f64 {
        f64::max(self, other)
    }
    #[inline]
    fn min(self, other: f64) -> f64 {
        f64::min(self, other)
    }
    #[inline]
    fn ceil(self) -> f64 {
        f64::ceil(self)
    }
    #[inline]
    fn value(&self) -> f64 {
        *self
    }
}

/// The ring factor (k − 1)/k of a collective over a group of k cards (SPEC §5).
pub fn ring<Q: Quantity>(k: Q) -> Q {
    (k.clone() - Q::lit(1.0)) / k
}

/// A count as an input of a formula: `Q::var(symbol, value, Show::Count)`.
pub fn count_of<Q: Quantity>(symbol: &'static str, value: impl Into<f64>) -> Q {
    Q::var(symbol, value.into(), Show::Count)
}

/// The sum of `terms`, or 0 when there are none.
pub fn sum<Q: Quantity>(terms: impl IntoIterator<Item = Q>) -> Q {
    terms
        .into_iter()
        .reduce(|a, b| a + b)
        .unwrap_or_else(|| Q::lit(0.0))
}
