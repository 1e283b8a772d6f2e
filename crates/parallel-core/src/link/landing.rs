//! Where a link lands: the lab has two entry points, the whole page (`index.html`) and one
//! widget alone (`embed.html`), and one rule picks between them.
//!
//! A link whose `embed=` names a [`Widget`](super::Widget) (as [`decode`] reads it: the first
//! `embed` key, percent-decoded and trimmed) belongs to `embed.html`; every other link, a
//! malformed or unknown `embed=` included, belongs to the whole page, which names what it
//! ignored in its notice. Both pages apply the same rule to the same fragment, so a link is sent
//! on at most once and never back: `assets/landing.js` is this rule transcribed for the moment
//! before the wasm loads (inlined into both pages), and a test in the web crate holds the two
//! equal over random links.

use super::fragment::decode;

/// One of the lab's two entry points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Entry {
    /// `index.html`: the whole lesson.
    Page,
    /// `embed.html`: one widget alone, for a course page's frame.
    Embed,
}

impl Entry {
    /// Both entry points.
    pub const ALL: [Entry; 2] = [Entry::Page, Entry::Embed];

    /// The entry point's file, next to the other one in the same folder.
    pub fn file(self) -> &'static str {
        match self {
            Entry::Page => "index.html",
            Entry::Embed => "embed.html",
        }
    }
}

/// The entry point a link (a whole URL, or a fragment with or without `#`, as [`decode`]
/// takes it) lands on: [`Entry::Embed`] exactly when it names a widget.
///
/// ```
/// use parallel_core::link::{landing, Entry};
/// assert_eq!(landing("g64=tp8&embed=grid-64"), Entry::Embed);
/// assert_eq!(landing("embed=%20grid-64%20"), Entry::Embed); // trimmed, as decode reads it
/// assert_eq!(landing("embed=nonsense"), Entry::Page); // the page names it in its notice
/// assert_eq!(landing("embed="), Entry::Page);
/// assert_eq!(landing("embed=grid-64x"), Entry::Page);
/// assert_eq!(landing("g64=tp8"), Entry::Page);
/// ```
pub fn landing(link: &str) -> Entry {
    match decode(link).0.embed {
        Some(_) => Entry::Embed,
        None => Entry::Page,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::Widget;

    #[test]
    fn every_widget_lands_on_the_embed_and_the_rest_on_the_page() {
        for widget in Widget::ALL {
            let link = format!("#g8=tp2&embed={}&lang=en", widget.id());
            assert_eq!(landing(&link), Entry::Embed, "{link}");
        }
        for link in [
            "",
            "#",
            "#embed",
            "#embed=",
            "#embed=GRID-64",
            "#embed=grid-64%00",
            "#embed=<script>alert(1)</script>",
            "#card=1e309&lang=xx&embed=nonsense",
            // The first `embed` decides; a second is a repeated key, ignored.
            "#embed=nonsense&embed=grid-64",
        ] {
            assert_eq!(landing(link), Entry::Page, "{link}");
        }
        assert_eq!(landing("#embed=grid-64&embed=nonsense"), Entry::Embed);
    }

    #[test]
    fn a_link_past_the_length_limit_loses_its_widget_there() {
        let pad = "x".repeat(crate::link::MAX_LINK_LEN);
        assert_eq!(landing(&format!("{pad}&embed=grid-8")), Entry::Page);
        let pad = "x".repeat(crate::link::MAX_LINK_LEN - "&embed=grid-8".len());
        assert_eq!(landing(&format!("{pad}&embed=grid-8")), Entry::Embed);
    }
}
