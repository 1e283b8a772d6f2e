//! The sentences of the lesson's first screen, read from the page: its text travels once, in
//! the HTML (issue 53).
//!
//! A page's first screen is rendered into its HTML at build time, in both languages
//! (`src/bin/prerender.rs`). A sentence of a [`prose_table!`] is drawn there as
//! `<span data-prose="table.NAME">…</span>`. When the wasm starts, before it removes the first
//! screen, [`read_from_page`] keeps the text of every such span, per language, and the page draws
//! the same span from what it kept. The sentences themselves are in the wasm only in a split
//! module (`prose`, [`crate::state::split`]), fetched where the page did not hold them (a page
//! opened without its first screens, the wasm tests); the first screens rendered at build
//! time and the native tests read them from the table directly.

use std::cell::{Cell, RefCell};

use leptos::prelude::*;

use crate::kit::i18n::{use_lang, Lang, T};

/// A sentence of a [`prose_table!`]: its key and, outside the page's wasm, its text.
#[derive(Clone, Copy, Debug)]
pub struct Prose {
    /// `table.NAME`, the span's `data-prose`.
    pub key: &'static str,
    /// (中文, English).
    #[cfg(not(target_arch = "wasm32"))]
    pub text: (&'static str, &'static str),
    /// The table's sentences, from its split module.
    #[cfg(target_arch = "wasm32")]
    pub table: fn() -> Sentences,
}

/// Every sentence of a table, as (key, 中文, English), from its split module.
#[cfg(target_arch = "wasm32")]
pub type Sentences = std::pin::Pin<
    Box<
        dyn std::future::Future<
            Output = Result<
                Vec<(&'static str, &'static str, &'static str)>,
                crate::state::split::SplitFailed,
            >,
        >,
    >,
>;

/// A sentence kept: its key, 中文, English.
type Kept = (String, String, String);

thread_local! {
    /// The sentences kept from the page (or fetched): a few dozen, found by key (a list is
    /// less code in the module the page waits for than a map).
    static KEPT: RefCell<Vec<Kept>> = const { RefCell::new(Vec::new()) };
    /// Notified when sentences are fetched, for the spans drawn before they came.
    static FETCHED: ArcTrigger = ArcTrigger::new();
    /// Whether a fetch of the sentences is under way.
    static FETCHING: Cell<bool> = const { Cell::new(false) };
}

/// Keeps the text of every `[data-prose]` span of the page's first screens, per language
/// (`<div class="first-screen" data-lang>`); called before they are removed.
pub fn read_from_page(document: &web_sys::Document) {
    for (lang, selector) in [
        (Lang::Zh, r#".first-screen[data-lang|="zh"] [data-prose]"#),
        (Lang::En, r#".first-screen[data-lang="en"] [data-prose]"#),
    ] {
        let Ok(spans) = document.query_selector_all(selector) else {
            continue;
        };
        for at in 0..spans.length() {
            let Some(span) = spans.get(at) else { continue };
            let key = wasm_bindgen::JsCast::dyn_ref::<web_sys::Element>(&span)
                .and_then(|element| element.get_attribute("data-prose"));
            if let (Some(key), Some(text)) = (key, span.text_content()) {
                keep(key, lang, text);
            }
        }
    }
}

/// Keeps `text` as the sentence `key` in `lang`.
fn keep(key: String, lang: Lang, text: String) {
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        let at = match kept.iter().position(|(k, _, _)| *k == key) {
            Some(at) => at,
            None => {
                kept.push((key, String::new(), String::new()));
                kept.len() - 1
            }
        };
        let sentence = &mut kept[at];
        match lang {
            Lang::Zh => sentence.1 = text,
            Lang::En => sentence.2 = text,
        }
    });
}

impl Prose {
    /// The sentence in `lang`: from the table outside the page's wasm; in it, as the page held
    /// it, else fetched (empty until then).
    pub fn get(self, lang: Lang) -> String {
        #[cfg(not(target_arch = "wasm32"))]
        {
            lang.pick(self.text.0, self.text.1).to_owned()
        }
        #[cfg(target_arch = "wasm32")]
        {
            FETCHED.with(|fetched| fetched.track());
            let kept = KEPT.with(|kept| {
                kept.borrow()
                    .iter()
                    .find(|(key, _, _)| key == self.key)
                    .map(|(_, zh, en)| lang.pick(zh, en).to_owned())
                    .filter(|text| !text.is_empty())
            });
            kept.unwrap_or_else(|| {
                self.fetch();
                String::new()
            })
        }
    }

    /// Fetches the table's sentences (one fetch at a time; a failed one is tried again by the
    /// next sentence drawn).
    #[cfg(target_arch = "wasm32")]
    fn fetch(self) {
        if FETCHING.with(|fetching| fetching.replace(true)) {
            return;
        }
        leptos::task::spawn_local(async move {
            let sentences = (self.table)().await;
            FETCHING.with(|fetching| fetching.replace(false));
            if let Ok(sentences) = sentences {
                for (key, zh, en) in sentences {
                    keep(key.to_owned(), Lang::Zh, zh.to_owned());
                    keep(key.to_owned(), Lang::En, en.to_owned());
                }
                FETCHED.with(|fetched| fetched.notify());
            }
        });
    }
}

/// A sentence of a prose table, in the page's language, in its `<span data-prose>`.
#[component]
pub fn Said(prose: Prose) -> impl IntoView {
    let lang = use_lang();
    view! { <span data-prose=prose.key>{move || prose.get(lang.get())}</span> }
}

/// Words of the page: a pair written in place, or a sentence of a prose table.
#[derive(Clone, Copy, Debug)]
pub enum Words {
    /// (中文, English), in the wasm as in the page.
    Pair(&'static str, &'static str),
    /// A sentence the page's first screen holds.
    Prose(Prose),
}

impl From<(&'static str, &'static str)> for Words {
    fn from((zh, en): (&'static str, &'static str)) -> Words {
        Words::Pair(zh, en)
    }
}

impl From<Prose> for Words {
    fn from(prose: Prose) -> Words {
        Words::Prose(prose)
    }
}

impl Words {
    /// The words in `lang` (a sentence, as [`Prose::get`]).
    pub fn get(self, lang: Lang) -> String {
        match self {
            Words::Pair(zh, en) => lang.pick(zh, en).to_owned(),
            Words::Prose(prose) => prose.get(lang),
        }
    }
}

/// Draws words: a pair as [`T`] does, a sentence as [`Said`].
#[component]
pub fn Say(words: Words) -> impl IntoView {
    match words {
        Words::Pair(zh, en) => view! { <T zh=zh en=en /> }.into_any(),
        Words::Prose(prose) => view! { <Said prose=prose /> }.into_any(),
    }
}

/// `prose_table! { table; /// doc \n pub const NAME = ("中文", "English"); … }`: a [`Prose`]
/// const for each sentence, keyed `table.NAME`, and, in the page's wasm, the split point that
/// holds their text (the split module `prose`, shared by every table). Outside the wasm, a
/// test's `PROSE` lists them.
macro_rules! prose_table {
    ($table:ident; $($(#[$attr:meta])* $vis:vis const $name:ident = ($zh:literal, $en:literal);)+) => {
        #[cfg(target_arch = "wasm32")]
        $crate::state::split::split_fn! { in prose;
            /// This table's sentences, (key, 中文, English).
            fn sentences() -> Vec<(&'static str, &'static str, &'static str)> {
                vec![$((concat!(stringify!($table), ".", stringify!($name)), $zh, $en)),+]
            }
        }

        $(
            $(#[$attr])*
            $vis const $name: $crate::kit::prose::Prose = $crate::kit::prose::Prose {
                key: concat!(stringify!($table), ".", stringify!($name)),
                #[cfg(not(target_arch = "wasm32"))]
                text: ($zh, $en),
                #[cfg(target_arch = "wasm32")]
                table: || Box::pin(sentences()),
            };
        )+

        /// Every sentence of this table, in order, for its tests.
        #[cfg(all(test, not(target_arch = "wasm32")))]
        pub(super) const PROSE: &[$crate::kit::prose::Prose] = &[$($name),+];
    };
}
pub(crate) use prose_table;

/// Checks for a table's tests.
#[cfg(all(test, not(target_arch = "wasm32")))]
pub mod testing {
    use super::Prose;

    /// Every sentence of `table` is keyed by its table, once, and written in both languages
    /// (no Chinese in the English).
    pub fn check_table(table: &[Prose]) {
        let mut keys: Vec<&str> = table.iter().map(|prose| prose.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), table.len(), "a key twice");
        let name = table[0].key.split('.').next().unwrap_or_default();
        for prose in table {
            assert_eq!(prose.key.split('.').next(), Some(name), "{}", prose.key);
            let (zh, en) = prose.text;
            assert!(
                !zh.trim().is_empty() && !en.trim().is_empty(),
                "{}",
                prose.key
            );
            assert!(!parallel_core::lang::has_cjk(en), "{}: {en}", prose.key);
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    prose_table! { sample;
        const FIRST = ("第一句", "The first");
    }

    #[test]
    fn a_sentence_is_keyed_by_its_table_and_read_from_it_outside_the_page() {
        assert_eq!(FIRST.key, "sample.FIRST");
        assert_eq!(FIRST.get(Lang::Zh), "第一句");
        assert_eq!(Words::from(FIRST).get(Lang::En), "The first");
        assert_eq!(Words::from(("甲", "A")).get(Lang::Zh), "甲");
        testing::check_table(PROSE);
    }
}
