//! Numbers as the lab writes them, the same on the page and in the CLI: thousands separators
//! and percents. (Bytes and seconds write themselves: see [`crate::Bytes`], [`crate::Seconds`].)
//!
//! And a user's values quoted back in an error, each in a few dozen characters whatever was
//! given (issue 50: a 10 MB field must not make a 10 MB error): a number with [`quoted`], text
//! with [`quoted_text`], a library's message that quotes the input with [`quotes_shortened`].

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

/// A number a user typed, quoted back in an error in at most a few dozen characters, however
/// large or small: thousands separators and up to 4 decimals between 0.001 and 10^15, else
/// scientific notation (its shortest form, or 4 decimals when that is longer); `NaN` and `inf`
/// as Rust writes them.
///
/// ```
/// use parallel_core::numbers::quoted;
/// assert_eq!(quoted(22_500.0), "22,500");
/// assert_eq!(quoted(31.2), "31.2");
/// assert_eq!(quoted(0.2039), "0.2039");
/// assert_eq!(quoted(1e300), "1e300");
/// assert_eq!(quoted(5e-324), "5e-324");
/// assert_eq!(quoted(1e300 / 1e9), "1e291");
/// assert_eq!(quoted(-1.234567e-20), "-1.2346e-20");
/// assert_eq!(quoted(-1.5), "-1.5");
/// assert_eq!(quoted(f64::NAN), "NaN");
/// ```
pub fn quoted(value: f64) -> String {
    let size = value.abs();
    if !value.is_finite() || (size != 0.0 && !(1e-3..1e15).contains(&size)) {
        let shortest = format!("{value:e}");
        if shortest.find('e').unwrap_or(shortest.len()) <= "-1.2345".len() {
            return shortest;
        }
        let rounded = format!("{value:.4e}");
        let (mantissa, exponent) = rounded.split_once('e').unwrap_or((&rounded, ""));
        let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
        return format!("{mantissa}e{exponent}");
    }
    let rounded = (value * 1e4).round() / 1e4;
    let whole = rounded.trunc();
    let fraction = format!("{:.4}", (rounded - whole).abs());
    let decimals = fraction.trim_start_matches('0').trim_end_matches('0');
    let decimals = if decimals == "." { "" } else { decimals };
    let sign = if rounded < 0.0 && whole == 0.0 {
        "-"
    } else {
        ""
    };
    format!("{sign}{}{decimals}", thousands(whole))
}

/// The most characters of a user's text that an error quotes back ([`quoted_text`]), "…"
/// included: a key or a preset id reads whole, a pasted file does not.
pub const QUOTED_CHARS: usize = 80;

/// The most characters of a library's message about the input that an error keeps
/// ([`quotes_shortened`]): room for a quoted value or two and the words around them, serde's
/// list of a config's 35 field names included.
pub const MESSAGE_CHARS: usize = 8 * QUOTED_CHARS;

/// Text a user gave (a value, a key, a flag, a path), quoted back in an error: control
/// characters replaced by U+FFFD, so that the error stays one line, and cut to
/// [`QUOTED_CHARS`] characters ending in "…". Reads no further into `raw` than it keeps.
///
/// ```
/// use parallel_core::numbers::{quoted_text, QUOTED_CHARS};
/// assert_eq!(quoted_text("llama3-8b"), "llama3-8b");
/// assert_eq!(quoted_text("a\nb"), "a\u{fffd}b");
/// let huge = quoted_text(&"x".repeat(10_000_000));
/// assert_eq!(huge.chars().count(), QUOTED_CHARS);
/// assert!(huge.ends_with("xx…"));
/// ```
pub fn quoted_text(raw: &str) -> String {
    cut(raw, QUOTED_CHARS)
}

/// A message that a library (serde, serde_json) wrote about the input and that quotes the
/// input's values between `"` or `` ` `` (`invalid type: string "…", expected u32`, `unknown
/// field `…``): each quoted value through [`quoted_text`], and the whole cut to
/// [`MESSAGE_CHARS`] characters, so that no value, however quoted, runs longer.
///
/// ```
/// use parallel_core::numbers::quotes_shortened;
/// let long = "8".repeat(1000);
/// let short = quotes_shortened(&format!("invalid type: string \"{long}\", expected u32"));
/// assert!(short.starts_with("invalid type: string \"888"));
/// assert!(short.ends_with("8…\", expected u32"));
/// assert_eq!(quotes_shortened("unknown variant `most`, expected `full`"),
///            "unknown variant `most`, expected `full`");
/// ```
pub fn quotes_shortened(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(open) = rest.find(['"', '`']) {
        let quote = rest[open..].chars().next().unwrap_or('"');
        out.push_str(&rest[..open + 1]);
        let inside = &rest[open + 1..];
        let close = closing(inside, quote).unwrap_or(inside.len());
        out.push_str(&quoted_text(&inside[..close]));
        rest = &inside[close..];
        if let Some(after) = rest.strip_prefix(quote) {
            out.push(quote);
            rest = after;
        }
        if out.chars().count() > MESSAGE_CHARS {
            break;
        }
    }
    out.push_str(rest);
    cut(&out, MESSAGE_CHARS)
}

/// Where the quoted value starting at `inside` ends: the next `quote`, skipping `\"` escapes
/// inside `"` (serde writes strings with Rust's escapes).
fn closing(inside: &str, quote: char) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in inside.char_indices() {
        match c {
            '\\' if quote == '"' && !escaped => escaped = true,
            c if c == quote && !escaped => return Some(i),
            _ => escaped = false,
        }
    }
    None
}

/// `raw` with control characters replaced, cut to `max` characters ending in "…".
fn cut(raw: &str, max: usize) -> String {
    let mut chars = raw
        .chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c });
    let mut out: String = chars.by_ref().take(max).collect();
    if chars.next().is_some() {
        out.pop();
        out.push('…');
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

/// A count in billions with one decimal: 653.9e9 → "653.9B" (a model's parameters in prose).
///
/// ```
/// assert_eq!(parallel_core::numbers::billions(653_915_000_000.0), "653.9B");
/// assert_eq!(parallel_core::numbers::billions(27.8e9), "27.8B");
/// ```
pub fn billions(count: f64) -> String {
    format!("{:.1}B", count / 1e9)
}

/// A rate in whole teras (10¹²), its unit left to the sentence: 400e12 FLOP/s → "400" (an
/// effective rate written "400 TFLOPS").
///
/// ```
/// use parallel_core::evolution::EFFECTIVE_FLOPS;
/// assert_eq!(parallel_core::numbers::teras(EFFECTIVE_FLOPS), "400");
/// assert_eq!(parallel_core::numbers::teras(989.4e12), "989");
/// ```
pub fn teras(per_second: f64) -> String {
    format!("{:.0}", per_second / 1e12)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_value_is_cut_whatever_its_quotes_hold() {
        // An escaped quote does not end the value; the value is cut, the rest kept.
        let escaped = format!("string \"a\\\"{}\", expected u32", "b".repeat(500));
        let short = quotes_shortened(&escaped);
        assert!(short.starts_with("string \"a\\\"bbb"), "{short}");
        assert!(short.ends_with("b…\", expected u32"), "{short}");
        // A value of many quotes and a value never closed stay within the message's bound.
        for flood in ["`x".repeat(100_000), format!("\"{}", "y".repeat(100_000))] {
            let short = quotes_shortened(&format!("unknown field {flood}"));
            assert!(short.chars().count() <= MESSAGE_CHARS, "{}", short.len());
            assert!(!short.contains(&"y".repeat(QUOTED_CHARS)));
        }
        assert_eq!(
            quoted_text(&"é".repeat(QUOTED_CHARS)),
            "é".repeat(QUOTED_CHARS)
        );
        assert_eq!(quoted_text(""), "");
    }
}
