//! Numbers as students type them into the page's forms: one parser for every field, so
//! "55,6", "５５.６ GB" and "1,024" read the same everywhere, and one [`InputError`] whose
//! message names what is wrong in the page's language.

use crate::kit::format;
use crate::kit::i18n::Lang;

/// The largest figure in GB a field accepts: far above any card or step on this page.
pub const MAX_GB: f64 = 100_000.0;

/// The messages of [`InputError`], Chinese and English side by side.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// [`super::InputError::Empty`].
        pub const EMPTY: Text = Text {
            zh: "还没填：请写一个数，例如 {example}。",
            en: "Empty: write a number, for example {example}.",
        };
        /// [`super::InputError::NotANumber`].
        pub const NOT_A_NUMBER: Text = Text {
            zh: "这不是一个数：只写数字（可带小数点），例如 {example}。",
            en: "That is not a number: write digits (a decimal point is fine), for example {example}.",
        };
        /// [`super::InputError::Negative`].
        pub const NEGATIVE: Text = Text {
            zh: "不能是负数。",
            en: "It cannot be negative.",
        };
        /// [`super::InputError::NotPositive`].
        pub const NOT_POSITIVE: Text = Text {
            zh: "要大于 0。",
            en: "It must be above 0.",
        };
        /// [`super::InputError::NotWhole`].
        pub const NOT_WHOLE: Text = Text {
            zh: "要一个整数，例如 {example}。",
            en: "It must be a whole number, for example {example}.",
        };
        /// [`super::InputError::TooSmall`].
        pub const TOO_SMALL: Text = Text {
            zh: "太小了：至少是 {min}。",
            en: "Too small: the least accepted is {min}.",
        };
        /// [`super::InputError::TooLarge`].
        pub const TOO_LARGE: Text = Text {
            zh: "太大了：最多 {max}。",
            en: "Too large: the most accepted is {max}.",
        };
        /// [`super::InputError::NotBelow`].
        pub const NOT_BELOW: Text = Text {
            zh: "太大了：必须小于 {max}。",
            en: "Too large: it must be below {max}.",
        };
    }
}

// ---------------------------------------------------------------------------------------------
// Pure helpers: parsing and judging (tested natively below).
// ---------------------------------------------------------------------------------------------

/// Why a typed number was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// Nothing typed.
    Empty,
    /// Not a (finite) number.
    NotANumber,
    /// Below zero.
    Negative,
    /// Zero where a positive number is needed.
    NotPositive,
    /// A fraction where a whole number is needed.
    NotWhole,
    /// Below the smallest accepted value (shown as text).
    TooSmall(String),
    /// Above the largest accepted value (shown as text).
    TooLarge(String),
    /// At or above a bound it must stay under (shown as text).
    NotBelow(String),
}

impl InputError {
    /// The message in the page's language; `example` is a valid input to suggest.
    pub fn message(&self, lang: Lang, example: &str) -> String {
        match self {
            InputError::Empty => text::EMPTY.fill(lang, &[("example", &example)]),
            InputError::NotANumber => text::NOT_A_NUMBER.fill(lang, &[("example", &example)]),
            InputError::Negative => text::NEGATIVE.get(lang).to_string(),
            InputError::NotPositive => text::NOT_POSITIVE.get(lang).to_string(),
            InputError::NotWhole => text::NOT_WHOLE.fill(lang, &[("example", &example)]),
            InputError::TooSmall(min) => text::TOO_SMALL.fill(lang, &[("min", min)]),
            InputError::TooLarge(max) => text::TOO_LARGE.fill(lang, &[("max", max)]),
            InputError::NotBelow(max) => text::NOT_BELOW.fill(lang, &[("max", max)]),
        }
    }
}

/// Reads a number as typed: trims, drops a trailing unit (`GB`, `G`, `%`), accepts full-width
/// digits and a comma as thousands separator ("1,024") or as a decimal comma ("55,6").
pub fn parse_number(text: &str, units: &[&str]) -> Result<f64, InputError> {
    let normalized: String = text
        .trim()
        .chars()
        .map(|c| match c {
            '０'..='９' => {
                char::from_u32(u32::from(c) - u32::from('０') + u32::from('0')).unwrap_or(c)
            }
            '．' | '。' => '.',
            '，' => ',',
            '－' | '−' => '-',
            c => c,
        })
        .collect();
    let mut body = normalized.trim();
    for unit in units {
        let lower = body.to_ascii_lowercase();
        if lower.ends_with(unit) {
            body = body[..body.len() - unit.len()].trim_end();
            break;
        }
    }
    if body.is_empty() {
        return Err(InputError::Empty);
    }
    let body = body.replace([' ', '_'], "");
    let plain = if body.contains('.') {
        body.replace(',', "")
    } else {
        match body.rsplit_once(',') {
            // "1,024": thousands; "55,6": a decimal comma.
            Some((_, tail)) if tail.len() == 3 => body.replace(',', ""),
            Some((head, tail)) if !head.contains(',') => format!("{head}.{tail}"),
            Some(_) => return Err(InputError::NotANumber),
            None => body,
        }
    };
    let allowed = |c: char| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E');
    if !plain.chars().all(allowed) {
        return Err(InputError::NotANumber);
    }
    // The core's reader, not `str::parse` (see `parallel_core::decimal`).
    match parallel_core::decimal::parse(&plain) {
        Some(value) if value.is_finite() => Ok(value),
        _ => Err(InputError::NotANumber),
    }
}

/// A figure in GB as the student typed it ("55.6", "55.6 GB", "５５.６").
pub fn parse_gb(text: &str) -> Result<f64, InputError> {
    let value = parse_number(text, &["gb", "g"])?;
    if value < 0.0 {
        Err(InputError::Negative)
    } else if value > MAX_GB {
        Err(InputError::TooLarge(format!(
            "{} GB",
            format::thousands(MAX_GB as u64)
        )))
    } else {
        Ok(value)
    }
}

/// A whole number in `min..=max`.
pub fn parse_whole(text: &str, min: u32, max: u32) -> Result<u32, InputError> {
    let value = parse_number(text, &[])?;
    if value.fract() != 0.0 {
        return Err(InputError::NotWhole);
    }
    if value < f64::from(min) {
        return Err(if value < 0.0 {
            InputError::Negative
        } else {
            InputError::TooSmall(min.to_string())
        });
    }
    if value > f64::from(max) {
        return Err(InputError::TooLarge(format::thousands(u64::from(max))));
    }
    Ok(value as u32)
}

/// A percent ("10", "10%", "１０％") above 0 and below 100, as a ratio; an empty field
/// means `when_empty` (a form's stated default).
pub fn parse_percent(text: &str, when_empty: f64) -> Result<f64, InputError> {
    if text.trim().is_empty() {
        return Ok(when_empty);
    }
    let value = parse_number(text, &["%", "％"])?;
    if value < 0.0 {
        Err(InputError::Negative)
    } else if value == 0.0 {
        Err(InputError::NotPositive)
    } else if value >= 100.0 {
        // A share of a step: 100% or more would accept every plan, so the check could not fail.
        Err(InputError::NotBelow("100%".to_string()))
    } else {
        Ok(value / 100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    /// The micro-batch field's bound in part four.
    const MAX_MICRO_BATCHES: u32 = 1024;

    #[test]
    fn gb_fields_accept_numbers_and_name_what_is_wrong() {
        let cases: [(&str, Result<f64, InputError>); 14] = [
            ("55.6", Ok(55.6)),
            (" 55.6 GB ", Ok(55.6)),
            ("55.6gb", Ok(55.6)),
            ("2.7 G", Ok(2.7)),
            ("５５．６", Ok(55.6)),
            ("55,6", Ok(55.6)),
            ("1,024", Ok(1024.0)),
            ("0", Ok(0.0)),
            ("", Err(InputError::Empty)),
            ("  GB", Err(InputError::Empty)),
            ("abc", Err(InputError::NotANumber)),
            ("inf", Err(InputError::NotANumber)),
            ("-3", Err(InputError::Negative)),
            ("1e9", Err(InputError::TooLarge("100,000 GB".to_string()))),
        ];
        for (text, expected) in cases {
            assert_eq!(parse_gb(text), expected, "{text:?}");
        }
        assert_eq!(parse_gb("NaN"), Err(InputError::NotANumber));
        assert_eq!(parse_gb("5 5"), Ok(55.0));
        assert_eq!(parse_gb("1,2,3"), Err(InputError::NotANumber));
    }

    #[test]
    fn whole_numbers_and_percent() {
        let whole = [
            ("32", MAX_MICRO_BATCHES, Ok(32)),
            ("8.5", MAX_MICRO_BATCHES, Err(InputError::NotWhole)),
            (
                "0",
                MAX_MICRO_BATCHES,
                Err(InputError::TooSmall("1".to_string())),
            ),
            ("-4", MAX_MICRO_BATCHES, Err(InputError::Negative)),
            (
                "99999999999999999999",
                MAX_MICRO_BATCHES,
                Err(InputError::TooLarge("1,024".to_string())),
            ),
            ("", 4, Err(InputError::Empty)),
        ];
        for (text, max, expected) in whole {
            assert_eq!(parse_whole(text, 1, max), expected, "{text:?}");
        }
        let not_below = Err(InputError::NotBelow("100%".to_string()));
        let percent = [
            ("", Ok(0.1)),
            ("25%", Ok(0.25)),
            ("0", Err(InputError::NotPositive)),
            ("150", not_below.clone()),
            ("100%", not_below),
            ("99.5", Ok(0.995)),
            ("ten", Err(InputError::NotANumber)),
        ];
        for (text, expected) in percent {
            assert_eq!(parse_percent(text, 0.1), expected, "{text:?}");
        }
    }

    #[test]
    fn messages_come_in_both_languages() {
        let han = parallel_core::lang::has_cjk;
        let every = [
            InputError::Empty,
            InputError::NotANumber,
            InputError::Negative,
            InputError::NotPositive,
            InputError::NotWhole,
            InputError::TooSmall("1".into()),
            InputError::TooLarge("9".into()),
            InputError::NotBelow("100%".into()),
        ];
        for e in &every {
            assert!(han(&e.message(Lang::Zh, "1")), "{e:?}");
            assert!(!han(&e.message(Lang::En, "1")), "{e:?}");
        }
        assert_each_lang_uses_all(text::ALL, |lang| {
            for e in &every {
                e.message(lang, "1");
            }
        });
    }
}
