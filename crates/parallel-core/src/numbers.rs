//! Numbers as the lab writes them, the same on the page and in the CLI: thousands separators
//! and percents. (Bytes and seconds write themselves: see [`crate::Bytes`], [`crate::Seconds`].)

/// A whole number with thousands separators, rounded: 16777216 → "16,777,216".
///
/// Takes an `f64` because counts such as tokens per step are computed as reals; integers up to
/// 2^53 are exact.
///
/// ```
/// use parallel_core::numbers::thousands;
/// assert_eq!(thousands(16_777_216.0), "16,777,216");
/// assert_eq!(thousands(999.6), "1,000");
/// assert_eq!(thousands(-1234.0), "-1,234");
/// ```
pub fn thousands(value: f64) -> String {
    let digits = format!("{:.0}", value.abs());
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if value < 0.0 && digits != "0" {
        out.push('-');
    }
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A fraction as a percent with one decimal: 0.375 → "37.5%".
///
/// ```
/// assert_eq!(parallel_core::numbers::percent(0.21875), "21.9%");
/// ```
pub fn percent(fraction: f64) -> String {
    format!("{:.1}%", fraction * 100.0)
}

/// A rule's share as prose writes it, with no trailing decimals: 0.8 → "80%", 0.05 → "5%"
/// (a figure's share keeps one decimal: [`percent`]).
///
/// ```
/// assert_eq!(parallel_core::numbers::rule_percent(parallel_core::margin::SAFE_SHARE), "80%");
/// ```
pub fn rule_percent(share: f64) -> String {
    format!("{}%", share * 100.0)
}

/// A factor as the formulas write it: the fraction with the smallest denominator (up to 12)
/// that equals it, else its decimal. 4/3 → "4/3", 1.5 → "3/2", 2 → "2".
///
/// The named factors of the estimate ([`crate::estimate::FULL_RECOMPUTE_FACTOR`],
/// [`crate::estimate::BACKWARD_SHARE`], …) are written with it in the explanations and the
/// prose, so their text cannot drift from their value.
///
/// ```
/// use parallel_core::numbers::fraction;
/// assert_eq!(fraction(4.0 / 3.0), "4/3");
/// assert_eq!(fraction(1.5), "3/2");
/// assert_eq!(fraction(2.0), "2");
/// assert_eq!(fraction(0.1234), "0.1234");
/// ```
pub fn fraction(value: f64) -> String {
    for den in 1..=12u32 {
        let num = (value * f64::from(den)).round();
        if (num / f64::from(den) - value).abs() <= 1e-12 * value.abs().max(1.0) {
            return if den == 1 {
                format!("{num}")
            } else {
                format!("{num}/{den}")
            };
        }
    }
    format!("{value}")
}

/// A byte count in decimal megabytes, whole: 50e6 → "50 MB" (a bucket size in prose).
///
/// ```
/// assert_eq!(parallel_core::numbers::megabytes(50e6), "50 MB");
/// ```
pub fn megabytes(bytes: f64) -> String {
    format!("{} MB", thousands(bytes / 1e6))
}

/// A count in whole millions: 40e6 → "40M" (a bucket's parameters in prose).
///
/// ```
/// assert_eq!(parallel_core::numbers::millions(40e6), "40M");
/// assert_eq!(parallel_core::numbers::millions(1e6), "1M");
/// ```
pub fn millions(count: f64) -> String {
    format!("{}M", thousands(count / 1e6))
}
