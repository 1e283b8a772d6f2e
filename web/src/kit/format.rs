//! Formatting of the core's figures for the page. Nothing here computes a formula: values
//! arrive computed and leave as text.

use parallel_core::{Bytes, Seconds, Traffic};
use serde::Serialize;

use crate::kit::i18n::Lang;

/// Bytes as a `data-bytes` attribute carries them: the plain number, for the tests.
pub fn raw_bytes(value: Bytes) -> String {
    value.get().to_string()
}

/// "55.6 GB" (SPEC §1: GB = 1e9 bytes, one decimal).
pub fn bytes(value: Bytes) -> String {
    value.to_string()
}

pub use parallel_core::numbers::{percent, rule_percent};

/// The share of a card the estimate may fill with a margin
/// ([`parallel_core::margin::SAFE_SHARE`]) as the page writes it: "80%".
pub fn safe_share() -> String {
    rule_percent(parallel_core::margin::SAFE_SHARE)
}

/// The estimate's named factors as the prose quotes them, from the core's constants:
/// [recompute FLOPs "4/3", TP bytes with full recompute "3/2", CP bytes "2", DP bucket
/// "50 MB", the backward's share "2/3"].
pub fn estimate_factors() -> [String; 5] {
    use parallel_core::estimate::{
        BACKWARD_SHARE, CP_BACKWARD_BYTES, DP_BUCKET_BYTES, FULL_RECOMPUTE_FACTOR,
        TP_FULL_RECOMPUTE_BYTES,
    };
    use parallel_core::numbers::{fraction, megabytes};
    [
        fraction(FULL_RECOMPUTE_FACTOR),
        fraction(TP_FULL_RECOMPUTE_BYTES),
        fraction(CP_BACKWARD_BYTES),
        megabytes(DP_BUCKET_BYTES),
        fraction(BACKWARD_SHARE),
    ]
}

/// Seconds as "1.94 s" or "67.1 ms".
pub fn seconds(value: Seconds) -> String {
    value.to_string()
}

/// A whole number with thousands separators: 16777216 → "16,777,216" (the core's
/// [`parallel_core::numbers::thousands`], for counts the page holds as integers).
pub fn thousands(value: u64) -> String {
    // Counts on the page stay far below 2^53, where f64 is exact.
    parallel_core::numbers::thousands(value as f64)
}

/// Traffic per dimension in one line: "EP 214.6 GB (IB) · PP 3.8 GB (IB)".
pub fn traffic_line(lang: Lang, comm: &[Traffic]) -> String {
    if comm.is_empty() {
        return lang.pick("无", "none").to_string();
    }
    comm.iter()
        .map(|t| {
            format!(
                "{} {} ({})",
                t.dim.label(),
                bytes(t.bytes),
                t.link.short_name()
            )
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A set of card ranks, runs of three or more shortened: [0..8] → "0–7", [0, 8] → "0, 8".
pub fn cards(ranks: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ranks.len() {
        let start = ranks[i];
        let mut end = i;
        while end + 1 < ranks.len() && ranks[end + 1] == ranks[end] + 1 {
            end += 1;
        }
        if end - i >= 2 {
            parts.push(format!("{start}–{}", ranks[end]));
            i = end + 1;
        } else {
            parts.push(start.to_string());
            i += 1;
        }
    }
    parts.join(", ")
}

/// A value as JSON text with the CLI's field names, written as the CLI writes it (serde_json;
/// a `data-*` attribute a reader or a test can copy into `parallel-lab`); empty if it cannot
/// be written.
pub fn json_text<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_safe_share_reads_as_the_page_always_wrote_it() {
        assert_eq!(safe_share(), "80%");
        assert_eq!(estimate_factors(), ["4/3", "3/2", "2", "50 MB", "2/3"]);
        assert_eq!(rule_percent(crate::kit::tolerance::TOLERANCE), "5%");
    }

    #[test]
    fn card_lists_are_short() {
        assert_eq!(cards(&[0, 1, 2, 3, 4, 5, 6, 7]), "0–7");
        assert_eq!(cards(&[0, 8]), "0, 8");
        assert_eq!(cards(&[0, 16, 32, 48]), "0, 16, 32, 48");
        assert_eq!(cards(&[0, 1, 8, 9, 10]), "0, 1, 8–10");
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(16_777_216), "16,777,216");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
    }
}
