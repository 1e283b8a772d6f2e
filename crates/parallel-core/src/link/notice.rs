//! What a link could not use: [`Ignored`] parts with their [`IgnoredReason`], quoted safely.

use core::fmt;

/// Longest excerpt of the input quoted in a notice.
pub(super) const EXCERPT: usize = 24;

/// A part of a link that was not applied, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ignored {
    /// The part as written (shortened, control characters removed): safe to show as text.
    pub part: String,
    /// Why it was ignored.
    pub reason: IgnoredReason,
}

/// Why a part of a link was ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IgnoredReason {
    /// The key is not one the lab writes.
    UnknownKey,
    /// The key appeared before; the first one counts.
    Repeated,
    /// The value does not parse (e.g. letters where a number goes).
    Malformed,
    /// The value is outside what the field takes (e.g. ZeRO 7, card 99 on 64 cards).
    OutOfRange,
    /// This grid's size is fixed (N, GPUs per node) or TP is capped at a node.
    Fixed,
    /// The value parses but the plan would not be valid with it: the core's reason.
    Invalid(String),
    /// The link is longer than [`super::MAX_LINK_LEN`] or a grid has too many tokens.
    TooLong,
}

impl fmt::Display for Ignored {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match &self.reason {
            IgnoredReason::UnknownKey => "unknown key".to_string(),
            IgnoredReason::Repeated => "repeated; the first one counts".to_string(),
            IgnoredReason::Malformed => "not a value the lab writes".to_string(),
            IgnoredReason::OutOfRange => "out of range".to_string(),
            IgnoredReason::Fixed => "fixed in this grid".to_string(),
            IgnoredReason::Invalid(reason) => reason.clone(),
            IgnoredReason::TooLong => "too long; the rest was not read".to_string(),
        };
        write!(f, "\"{}\": {why}", self.part)
    }
}

/// A short, printable excerpt of untrusted input.
pub(super) fn excerpt(raw: &str) -> String {
    let clean: String = raw
        .chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    if clean.chars().count() > EXCERPT {
        let mut short: String = clean.chars().take(EXCERPT).collect();
        short.push('…');
        short
    } else {
        clean
    }
}

pub(super) fn ignored(part: &str, reason: IgnoredReason) -> Ignored {
    Ignored {
        part: excerpt(part),
        reason,
    }
}

/// Decodes %XX escapes; invalid escapes stay as written, invalid UTF-8 becomes U+FFFD.
pub(super) fn percent_decode(input: &str) -> String {
    let bytes = input.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(hi), Some(lo)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
