//! Decimal numbers as the lab reads them (a link's `mem80p5`, a form's "55.6"), without
//! `str::parse::<f64>`.
//!
//! Core's float parser is correctly rounded for every input, and to be so it carries a table of
//! 128-bit powers of five: 10 KB of data that does not compress, in the page's wasm and in each
//! embed's. The numbers the lab reads are short, and for those one IEEE operation is exact
//! (Clinger's fast path): a decimal with at most 15 significant digits is `m · 10^e` with `m`
//! an integer below 2^53 and, as long as `|e| ≤ 22`, `10^|e|` exact too, so `m × 10^e` or
//! `m ÷ 10^-e` is one correctly rounded operation: the same `f64` as `str::parse` gives.
//!
//! Longer numbers (a student typing twenty digits) are read to their first 19 significant
//! digits and scaled by powers of ten in a few steps, so they can differ from the correctly
//! rounded value in the last bits (a relative error below 1e-15), and numbers below 1e-300
//! lose more (an `f64` holds them with fewer bits); the lab reads and shows no figure that
//! close.

/// `10^0 ..= 10^22`: every power of ten that an `f64` holds exactly.
const EXACT_POWERS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Integers below this are exact in an `f64`.
const EXACT_INTEGERS: u64 = 1 << 53;

/// Reads `[+|-] digits [. digits] [(e|E) [+|-] digits]` (at least one digit before or after
/// the point), as `str::parse::<f64>` does; `None` for anything else, including `inf` and
/// `NaN`. A number too large for an `f64` reads as an infinity, as with `str::parse`.
///
/// ```
/// use parallel_core::decimal::parse;
/// assert_eq!(parse("80.5"), Some(80.5));
/// assert_eq!(parse("-1.25e3"), Some(-1250.0));
/// assert_eq!(parse(".5"), Some(0.5));
/// assert_eq!(parse("5."), Some(5.0));
/// assert_eq!(parse("0.1"), "0.1".parse().ok());
/// assert_eq!(parse("1e"), None);
/// assert_eq!(parse("."), None);
/// assert_eq!(parse("inf"), None);
/// ```
pub fn parse(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let mut at = 0;
    let negative = match bytes.first() {
        Some(b'-') => {
            at += 1;
            true
        }
        Some(b'+') => {
            at += 1;
            false
        }
        _ => false,
    };

    // The significant digits, at most 19 of them (they fit a u64), and the power of ten that
    // scales them: digits past the 19th before the point add one each, digits after the point
    // (kept ones) take one each.
    let mut mantissa: u64 = 0;
    let mut kept = 0u32;
    let mut exponent: i64 = 0;
    let mut digits = 0usize;
    let mut exact = true;
    let mut push = |digit: u8, after_point: bool| {
        digits += 1;
        if mantissa == 0 && digit == 0 {
            // A leading zero: significant only as a place.
            if after_point {
                exponent -= 1;
            }
        } else if kept < 19 {
            mantissa = mantissa * 10 + u64::from(digit);
            kept += 1;
            if after_point {
                exponent -= 1;
            }
        } else {
            exact &= digit == 0;
            if !after_point {
                exponent += 1;
            }
        }
    };
    while let Some(&b) = bytes.get(at).filter(|b| b.is_ascii_digit()) {
        push(b - b'0', false);
        at += 1;
    }
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        while let Some(&b) = bytes.get(at).filter(|b| b.is_ascii_digit()) {
            push(b - b'0', true);
            at += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        let sign = match bytes.get(at) {
            Some(b'-') => {
                at += 1;
                -1
            }
            Some(b'+') => {
                at += 1;
                1
            }
            _ => 1,
        };
        let start = at;
        let mut written: i64 = 0;
        while let Some(&b) = bytes.get(at).filter(|b| b.is_ascii_digit()) {
            // Past a million the number is 0 or infinite whatever the rest says.
            written = (written * 10 + i64::from(b - b'0')).min(1_000_000);
            at += 1;
        }
        if at == start {
            return None;
        }
        exponent += sign * written;
    }
    if at != bytes.len() {
        return None;
    }

    let magnitude = scale(mantissa, exponent, exact && mantissa < EXACT_INTEGERS);
    Some(if negative { -magnitude } else { magnitude })
}

/// `mantissa · 10^exponent`, in one correctly rounded operation when `exact` (the mantissa is
/// exact as an `f64`) and the power allows it.
fn scale(mantissa: u64, exponent: i64, exact: bool) -> f64 {
    if mantissa == 0 {
        return 0.0;
    }
    let power = |e: i64| EXACT_POWERS[e.unsigned_abs() as usize];
    if exact {
        if (0..=22).contains(&exponent) {
            return mantissa as f64 * power(exponent);
        }
        if (-22..0).contains(&exponent) {
            return mantissa as f64 / power(exponent);
        }
        // Above 10^22: the extra zeros may still leave an exact integer (1e25 = 1000 · 10^22).
        if exponent > 22 && exponent <= 22 + 15 {
            if let Some(m) = mantissa.checked_mul(10u64.pow((exponent - 22) as u32)) {
                if m < EXACT_INTEGERS {
                    return m as f64 * EXACT_POWERS[22];
                }
            }
        }
    }
    // Beyond the fast path: scale in steps of at most 10^22 (each step rounds once).
    let mut value = mantissa as f64;
    let mut left = exponent;
    while left > 0 && value.is_finite() {
        let step = left.min(22);
        value *= power(step);
        left -= step;
    }
    while left < 0 && value != 0.0 {
        let step = left.max(-22);
        value /= power(step);
        left -= step;
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The same answer as `str::parse::<f64>`, bit for bit, or both refuse.
    fn same_as_core(text: &str) {
        let ours = parse(text);
        let core = text.parse::<f64>().ok();
        match (ours, core) {
            (Some(a), Some(b)) => assert_eq!(a.to_bits(), b.to_bits(), "{text}: {a} vs {b}"),
            (None, None) => {}
            _ => panic!("{text}: {ours:?} vs {core:?}"),
        }
    }

    #[test]
    fn reads_what_core_reads_and_refuses_what_it_refuses() {
        for text in [
            "0",
            "-0",
            "+0",
            "1",
            "80.5",
            "0.1",
            "0.2",
            "0.3",
            "55.6",
            "1,024",
            "1e3",
            "1E3",
            "1e+3",
            "1e-3",
            "2.5e-7",
            ".5",
            "5.",
            "-.5",
            "+5.",
            "00012.500",
            "0.000001",
            "123456789012345",
            "9007199254740993",
            "1e22",
            "1e23",
            "1.5e25",
            "1e400",
            "-1e400",
            "",
            ".",
            "-",
            "+",
            "e5",
            "1e",
            "1e+",
            "1e-",
            "1.2.3",
            "1-2",
            "--1",
            " 1",
            "1 ",
            "0x10",
            "1_000",
            "1e1000000000",
            "1e-1000000000",
        ] {
            same_as_core(text);
        }
        // Core's words for the infinities and NaN are not numbers a student or a link writes.
        for text in ["inf", "-inf", "NaN", "infinity"] {
            assert_eq!(parse(text), None, "{text}");
        }
    }

    #[test]
    fn longer_numbers_are_close() {
        for text in [
            "0.333333333333333333333333",
            "12345678901234567890123",
            "3.141592653589793238462643383279",
            "1.7976931348623157e308",
            "2.2250738585072014e-308",
            "98765432109876543210e-30",
        ] {
            let ours = parse(text).unwrap();
            let core: f64 = text.parse().unwrap();
            assert!(
                ((ours - core) / core).abs() < 1e-15,
                "{text}: {ours} vs {core}"
            );
        }
    }

    /// A decimal string of up to `digits` digits with a point somewhere, and maybe an exponent.
    fn decimal(digits: usize) -> impl Strategy<Value = String> {
        (
            proptest::collection::vec(0u8..10, 1..=digits),
            any::<prop::sample::Index>(),
            prop::option::of(-30i32..30),
            any::<bool>(),
        )
            .prop_map(|(ds, point, exp, negative)| {
                let mut s: String = ds.iter().map(|d| char::from(b'0' + d)).collect();
                s.insert(point.index(s.len() + 1), '.');
                if s == "." {
                    s = "0.".into();
                }
                if let Some(e) = exp {
                    s.push_str(&format!("e{e}"));
                }
                if negative {
                    s.insert(0, '-');
                }
                s
            })
    }

    proptest! {
        /// Up to 15 significant digits and a power within ±22: exactly `str::parse`.
        #[test]
        fn short_numbers_are_exactly_core(text in decimal(15)) {
            let core: f64 = text.parse().unwrap();
            let ours = parse(&text).unwrap();
            let mantissa_digits = text.bytes().filter(u8::is_ascii_digit).count();
            let shown = text.split(['e', 'E']).next().unwrap_or("");
            // Within the fast path whenever the scaled power stays inside ±22.
            let point = shown.find('.').map_or(0, |p| shown.len() - p - 1) as i64;
            let e: i64 = text.split(['e', 'E']).nth(1).map_or(0, |e| e.parse().unwrap());
            if mantissa_digits <= 15 && (e - point).abs() <= 22 {
                prop_assert_eq!(ours.to_bits(), core.to_bits(), "{}", text);
            } else {
                prop_assert!(ours == core || ((ours - core) / core).abs() < 1e-15, "{}: {} vs {}", text, ours, core);
            }
        }

        /// Any length: within a relative 1e-15 of `str::parse`.
        #[test]
        fn long_numbers_are_close_to_core(text in decimal(30)) {
            let core: f64 = text.parse().unwrap();
            let ours = parse(&text).unwrap();
            prop_assert!(ours == core || ((ours - core) / core).abs() < 1e-15, "{}: {} vs {}", text, ours, core);
        }

        /// Any text at all: refused exactly when `str::parse` refuses it (our grammar is
        /// core's without `inf` and `NaN`).
        #[test]
        fn any_text_is_refused_as_core_refuses_it(text in "[-+0-9.eE]{0,8}") {
            prop_assert_eq!(parse(&text).is_some(), text.parse::<f64>().is_ok(), "{}", text);
        }
    }
}
