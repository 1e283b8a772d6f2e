//! How figures are written in table cells: GB with one decimal, percents, thousands
//! separators, fit marks and the one-line summary of a plan's traffic.

use parallel_core::{Bubble, Memory, Traffic};

/// Shown where a figure does not apply (no pipeline, no model config).
pub const NOT_APPLICABLE: &str = "—";

pub use parallel_core::numbers::{percent, thousands};

/// The total with ✓ when it fits the card, ✗ when it does not: "58.2 GB ✓".
pub fn total_with_fit(memory: &Memory) -> String {
    let mark = if memory.fits { '✓' } else { '✗' };
    format!("{} {mark}", memory.total)
}

/// Each dimension's bytes per card per step and its link, joined by " · ":
/// "tp 75.2 GB (NVLink) · pp 0.7 GB (IB) · dp 5.2 GB (IB)"; "—" when nothing is sent.
pub fn comm_summary(comm: &[Traffic]) -> String {
    if comm.is_empty() {
        return NOT_APPLICABLE.to_string();
    }
    comm.iter()
        .map(|t| format!("{} {} ({})", t.dim, t.bytes, t.link.short_name()))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The bubble ratio (p−1)/m and its share of the step, or "—" twice without a pipeline.
pub fn bubble_cells(pp: u32, bubble: &Bubble) -> [String; 2] {
    if pp <= 1 {
        [NOT_APPLICABLE.to_string(), NOT_APPLICABLE.to_string()]
    } else {
        [percent(bubble.ratio), percent(bubble.share)]
    }
}

/// The phase that sets a shared card's peak: "训练" / "training", "推理" / "rollout".
pub fn phase_name(lang: crate::args::Lang, phase: parallel_core::RolloutPhase) -> &'static str {
    match phase {
        parallel_core::RolloutPhase::Training => lang.pick("训练", "training"),
        parallel_core::RolloutPhase::Rollout => lang.pick("推理", "rollout"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        for (value, text) in [
            (0.0, "0"),
            (999.0, "999"),
            (1000.0, "1,000"),
            (16_777_216.0, "16,777,216"),
            (131_072.0, "131,072"),
            (-1234.0, "-1,234"),
        ] {
            assert_eq!(thousands(value), text);
        }
    }

    #[test]
    fn percents_have_one_decimal() {
        assert_eq!(percent(0.375), "37.5%");
        assert_eq!(percent(0.21875), "21.9%");
        assert_eq!(percent(0.125), "12.5%");
    }
}
