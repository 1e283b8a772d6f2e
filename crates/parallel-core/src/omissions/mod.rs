//! What the lab does not count, in one list: each [`Omission`] with its title and its reason in
//! both languages, where it belongs ([`Topic`]), and whether the page's opening names it.
//!
//! The page's opening ("What this page leaves out"), the counting note, the CLI's `--help` and
//! `docs/formulas.md` (§11, between two marker comments, [`markdown`]) are all written from this
//! list, so they cannot say different things. Each reason says what the lab *does* count of the
//! thing, where it counts a part of it. Each item has a *witness*, test code that is not part of
//! this API (`tests/omissions/witness/`): it computes figures with the core and says whether the
//! lab still leaves the item out. `tests/omissions.rs` runs every witness: when the lab comes to
//! model an item, its witness turns false and the test names the item, so the text is changed
//! together with the formula.
//!
//! ```
//! use parallel_core::omissions::{Omission, Topic};
//! use parallel_core::Lang;
//! let latency = Omission::Latency;
//! assert_eq!(latency.topic(), Topic::Traffic);
//! assert_eq!(latency.title(Lang::En), "Latency of each message, in the traffic table");
//! assert!(latency.in_intro());
//! ```

mod list;
mod text;

pub use list::{Omission, Topic};

use crate::lang::Lang;

impl Omission {
    /// What is left out, as a short noun phrase.
    pub fn title(self, lang: Lang) -> &'static str {
        let (zh, en) = text::title(self);
        lang.pick(zh, en)
    }

    /// Why, and what the lab does count of it: one to three sentences. The estimate's factors
    /// they quote are filled in from its constants ([`crate::estimate::BACKWARD_SHARE`], …).
    pub fn reason(self, lang: Lang) -> String {
        use crate::estimate::{
            BACKWARD_SHARE, CP_BACKWARD_BYTES, FULL_RECOMPUTE_FACTOR, TP_FULL_RECOMPUTE_BYTES,
        };
        use crate::numbers::fraction;
        let (zh, en) = text::reason(self);
        [
            ("{backward}", BACKWARD_SHARE),
            ("{recompute}", FULL_RECOMPUTE_FACTOR),
            ("{tp_bytes}", TP_FULL_RECOMPUTE_BYTES),
            ("{cp_bytes}", CP_BACKWARD_BYTES),
        ]
        .iter()
        .fold(lang.pick(zh, en).to_owned(), |text, (name, value)| {
            text.replace(name, &fraction(*value))
        })
    }
}

/// Marker comment before the generated list in `docs/formulas.md`.
pub const DOCS_START: &str = "<!-- omissions:start (generated from parallel_core::omissions; \
                              crates/parallel-core/tests/omissions.rs keeps it equal) -->";
/// Marker comment after the generated list in `docs/formulas.md`.
pub const DOCS_END: &str = "<!-- omissions:end -->";

/// Column at which [`markdown`] wraps its lines.
const DOCS_WIDTH: usize = 100;

/// The list as Markdown, topic by topic: a bold topic line, then one bullet per item with its
/// title, id and reason, wrapped at 100 columns. `docs/formulas.md` holds exactly this text
/// between [`DOCS_START`] and [`DOCS_END`].
///
/// ```
/// use parallel_core::{omissions::markdown, Lang};
/// let md = markdown(Lang::En);
/// assert!(md.starts_with("**Memory**\n\n- **"));
/// assert!(md.contains("(`latency`)"));
/// ```
pub fn markdown(lang: Lang) -> String {
    let mut out = String::new();
    for (i, topic) in Topic::ALL.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str("**");
        out.push_str(topic.title(lang));
        out.push_str("**\n\n");
        for item in topic.omissions() {
            let bullet = format!(
                "- **{}** (`{}`): {}",
                item.title(lang),
                item.id(),
                item.reason(lang)
            );
            wrap_into(&mut out, &bullet, "  ", DOCS_WIDTH);
        }
    }
    out
}

/// Appends `text` to `out` broken at spaces so that lines stay within `width` characters
/// (a word longer than that stands alone), continuation lines indented by `indent`. A word
/// that would open a Markdown block at the start of a line ("+", "-", "*", ">", "#…", "1.")
/// stays on the line of the word before it.
fn wrap_into(out: &mut String, text: &str, indent: &str, width: usize) {
    let mut words: Vec<String> = Vec::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        match words.last_mut() {
            Some(previous) if opens_block(word) => {
                previous.push(' ');
                previous.push_str(word);
            }
            _ => words.push(word.to_string()),
        }
    }
    let mut line_len = 0;
    for word in &words {
        let len = word.chars().count();
        if line_len > 0 && line_len + 1 + len > width {
            out.push('\n');
            out.push_str(indent);
            line_len = indent.chars().count();
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += len;
    }
    out.push('\n');
}

/// Whether `word` at the start of a line would begin a list, a quote or a heading.
fn opens_block(word: &str) -> bool {
    let numbered = word
        .strip_suffix(['.', ')'])
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    matches!(word, "-" | "+" | "*") || word.starts_with(['>', '#']) || numbered
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::has_cjk;

    #[test]
    fn ids_are_unique_and_topics_keep_list_order() {
        let mut ids: Vec<&str> = Omission::ALL.iter().map(|o| o.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Omission::ALL.len());
        let grouped: Vec<Omission> = Topic::ALL.into_iter().flat_map(Topic::omissions).collect();
        assert_eq!(grouped, Omission::ALL, "ALL is grouped by topic");
        assert!(Topic::ALL.iter().all(|t| t.omissions().count() > 0));
    }

    #[test]
    fn every_text_is_in_its_language() {
        for item in Omission::ALL {
            for lang in Lang::ALL {
                let (title, reason) = (item.title(lang), item.reason(lang));
                assert!(!title.is_empty() && !reason.is_empty(), "{item:?}");
                assert_eq!(has_cjk(title), lang == Lang::Zh, "{item:?} title {lang:?}");
                assert_eq!(
                    has_cjk(&reason),
                    lang == Lang::Zh,
                    "{item:?} reason {lang:?}"
                );
                assert!(
                    !reason.contains('{'),
                    "{item:?}: a factor left unfilled: {reason}"
                );
            }
            let en = item.reason(Lang::En);
            assert!(en.ends_with('.'), "{item:?}: {en}");
            assert!(item.reason(Lang::Zh).ends_with('。'), "{item:?}");
        }
        assert!(Omission::ALL.iter().any(|o| o.in_intro()));
        assert!(Omission::ALL.iter().any(|o| !o.in_intro()));
        let overlap = Omission::Overlap.reason(Lang::En);
        assert!(overlap.contains("(2/3 of compute)"), "{overlap}");
        let recompute = Omission::RecomputeTraffic.reason(Lang::En);
        assert!(recompute.contains("(FLOPs × 4/3)") && recompute.contains("(TP bytes × 3/2, 6"));
    }

    #[test]
    fn markdown_lines_stay_within_the_width() {
        for lang in Lang::ALL {
            let md = markdown(lang);
            let bullets = md.lines().filter(|l| l.starts_with("- **")).count();
            assert_eq!(bullets, Omission::ALL.len());
            if lang == Lang::En {
                for line in md.lines() {
                    assert!(line.chars().count() <= DOCS_WIDTH, "{line}");
                }
            }
        }
    }

    #[test]
    fn wrapping_keeps_every_word() {
        let mut out = String::new();
        wrap_into(&mut out, "aa bb cc dd", "  ", 5);
        assert_eq!(out, "aa bb\n  cc\n  dd\n");
        let mut long = String::new();
        wrap_into(&mut long, "abcdefgh ij", "", 4);
        assert_eq!(long, "abcdefgh\nij\n");
        // No line opens with a list marker, a quote or a number and a dot.
        let mut markers = String::new();
        wrap_into(&mut markers, "aa + bb > cc 1. dd - ee", "", 2);
        assert_eq!(markers, "aa +\nbb >\ncc 1.\ndd -\nee\n");
    }
}
