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
