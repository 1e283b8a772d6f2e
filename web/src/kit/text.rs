//! Sentences as text: each sentence of the page that carries a figure is written whole, once
//! per language, with named parameters, and filled in at run time.
//!
//! A [`Text`] holds a Chinese and an English template, such as
//! `"卡 {card} 每步发出的通信（按它自己的组与链路）"` and
//! `"Card {card} sends per step (its own groups and links)"`. Each section or component keeps
//! its templates in a small text table (a `mod text { … }` near the top of its file), the two
//! languages side by side, so a sentence is read, reviewed and translated in one place; the
//! code fills it with [`Text::fill`] and never glues a sentence from separately translated
//! fragments.
//!
//! A parameter is `{name}`, the name made of ASCII letters, digits and `_`; any other brace is
//! literal text. Both languages of a text use the same names (each may use them in its own
//! order). Figures are formatted before they are passed (`format::bytes`, `format::percent`…),
//! so a template holds words and punctuation only; Chinese templates use full-width punctuation.
//!
//! A table is written inside [`text_table!`], which also lists its texts as `ALL` for the
//! native tests. There [`Text::fill`] panics when a template's parameters and the arguments
//! passed do not match exactly, and each text table is checked entry by entry with
//! [`testing::check_table`] and [`testing::assert_all_used`] (most often through
//! [`testing::assert_each_lang_uses_all`]).

use std::fmt::{Display, Write};

use crate::kit::i18n::Lang;

/// One sentence (or phrase) in both languages, with `{name}` parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Text {
    /// 中文.
    pub zh: &'static str,
    /// English.
    pub en: &'static str,
}

/// Declares a text table: the `Text` constants written inside it as usual, each with its doc
/// comment, and, in the tests, `ALL`, a reference to each of them in order, for
/// [`testing::check_table`] and [`testing::assert_all_used`]. A text added to the table is
/// then checked without being named a second time.
///
/// Use it as `text_table! { /// Its doc. pub const NAME: Text = Text { zh: "…", en: "…" }; … }`,
/// with `Text` imported where it is called.
macro_rules! text_table {
    ($($(#[$attr:meta])* $vis:vis const $name:ident: Text = $text:expr;)+) => {
        $($(#[$attr])* $vis const $name: Text = $text;)+

        /// Every text of this table, in order, for the table's tests.
        #[cfg(test)]
        pub(super) const ALL: &[&Text] = &[$(&$name),+];
    };
}
pub(crate) use text_table;

/// A piece of a template: literal text or the name of a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Text shown as it is.
    Literal(&'static str),
    /// A `{name}` parameter, by name.
    Param(&'static str),
}

impl Text {
    /// The template in `lang`, as written (for a text without parameters).
    pub fn get(&self, lang: Lang) -> &'static str {
        #[cfg(test)]
        testing::record(self);
        lang.pick(self.zh, self.en)
    }

    /// The template in `lang` with every `{name}` replaced by the value named `name` in
    /// `args`. A parameter without a value is left as written (the native tests fail on it
    /// first, as on a value that no parameter uses).
    pub fn fill(&self, lang: Lang, args: &[(&str, &dyn Display)]) -> String {
        #[cfg(test)]
        testing::check_call(self, lang, args);
        let template = lang.pick(self.zh, self.en);
        let mut out = String::with_capacity(template.len() + 16);
        for piece in pieces(template) {
            match piece {
                Piece::Literal(text) => out.push_str(text),
                Piece::Param(name) => match args.iter().find(|(n, _)| *n == name) {
                    Some((_, value)) => {
                        let _ = write!(out, "{value}");
                    }
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                },
            }
        }
        out
    }

    /// The template in `lang` cut into literal text and parameters, for a sentence whose
    /// figures are shown with markup (`<strong>…</strong>`) rather than as plain text.
    pub fn pieces(&self, lang: Lang) -> Vec<Piece> {
        #[cfg(test)]
        testing::record(self);
        pieces(lang.pick(self.zh, self.en)).collect()
    }
}

/// Whether `name` can be the name of a parameter.
fn is_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The pieces of a template, in order: the text between two parameters is one piece.
pub fn pieces(template: &'static str) -> impl Iterator<Item = Piece> {
    let mut rest = template;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut from = 0;
        while let Some(open) = rest[from..].find('{').map(|i| from + i) {
            let name = rest[open + 1..]
                .find('}')
                .map(|close| &rest[open + 1..open + 1 + close])
                .filter(|name| is_name(name));
            match name {
                Some(name) if open == 0 => {
                    rest = &rest[name.len() + 2..];
                    return Some(Piece::Param(name));
                }
                Some(_) => {
                    let literal = &rest[..open];
                    rest = &rest[open..];
                    return Some(Piece::Literal(literal));
                }
                None => from = open + 1,
            }
        }
        let literal = rest;
        rest = "";
        Some(Piece::Literal(literal))
    })
}

/// The parameter names of a template, in order of appearance, each once.
pub fn params(template: &'static str) -> Vec<&'static str> {
    let mut names = Vec::new();
    for piece in pieces(template) {
        if let Piece::Param(name) = piece {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// Checks for the text tables, used by the native tests of each section and component.
#[cfg(test)]
pub mod testing {
    use std::cell::RefCell;
    use std::collections::BTreeSet;
    use std::fmt::Display;

    use super::{params, pieces, Piece, Text};
    use crate::kit::i18n::Lang;

    thread_local! {
        /// Every text read or filled on this thread (each test runs on its own thread).
        static USED: RefCell<Vec<Text>> = const { RefCell::new(Vec::new()) };
    }

    pub(super) fn record(text: &Text) {
        USED.with(|used| used.borrow_mut().push(*text));
    }

    /// Panics unless `args` names exactly the parameters of `text` in `lang`, each once.
    pub(super) fn check_call(text: &Text, lang: Lang, args: &[(&str, &dyn Display)]) {
        record(text);
        let template = lang.pick(text.zh, text.en);
        let wanted: BTreeSet<&str> = params(template).into_iter().collect();
        let given: Vec<&str> = args.iter().map(|(name, _)| *name).collect();
        let given_set: BTreeSet<&str> = given.iter().copied().collect();
        assert_eq!(
            given.len(),
            given_set.len(),
            "an argument is given twice: {given:?} for {template:?}"
        );
        assert_eq!(
            given_set, wanted,
            "the arguments do not match the parameters of {template:?}"
        );
    }

    /// Problems with one entry of a text table: a language empty, a brace that is not part of
    /// a `{name}`, Chinese characters or punctuation in the English, or parameters that differ
    /// between the languages.
    pub fn problems(text: &Text) -> Vec<String> {
        let mut out = Vec::new();
        for (lang, template) in [("zh", text.zh), ("en", text.en)] {
            if template.trim().is_empty() {
                out.push(format!("{lang} is empty"));
            }
            let literal: String = pieces(template)
                .filter_map(|piece| match piece {
                    Piece::Literal(text) => Some(text),
                    Piece::Param(_) => None,
                })
                .collect();
            if literal.contains(['{', '}']) {
                out.push(format!("{lang} has a stray brace: {template:?}"));
            }
        }
        if parallel_core::lang::has_cjk(text.en) {
            out.push(format!("en has Chinese text: {:?}", text.en));
        }
        let zh: BTreeSet<&str> = params(text.zh).into_iter().collect();
        let en: BTreeSet<&str> = params(text.en).into_iter().collect();
        if zh != en {
            out.push(format!(
                "parameters differ: zh {zh:?}, en {en:?} in {:?}",
                text.en
            ));
        }
        out
    }

    /// Panics when any entry of `table` has [`problems`].
    pub fn check_table(table: &[&Text]) {
        let found: Vec<String> = table.iter().flat_map(|text| problems(text)).collect();
        assert!(
            found.is_empty(),
            "text table problems:\n{}",
            found.join("\n")
        );
    }

    /// Runs `f` and returns every text it read or filled.
    pub fn used_by(f: impl FnOnce()) -> Vec<Text> {
        USED.with(|used| used.borrow_mut().clear());
        f();
        USED.with(|used| used.borrow_mut().drain(..).collect())
    }

    /// Checks every entry of `table` (see [`check_table`]) and that `f`, which calls the
    /// functions of a file in both languages, reads or fills each of them: with the check
    /// of [`Text::fill`], every parameter of every entry then has its argument and every
    /// argument its parameter.
    pub fn assert_all_used(table: &[&Text], f: impl FnOnce()) {
        check_table(table);
        let used = used_by(f);
        let unused: Vec<&str> = table
            .iter()
            .filter(|text| !used.contains(text))
            .map(|text| text.en)
            .collect();
        assert!(
            unused.is_empty(),
            "texts never filled by the test: {unused:#?}"
        );
    }

    /// [`assert_all_used`] with `f` called once per language, Chinese first: the usual
    /// "every sentence is filled with its names" test of a file is one call to this.
    pub fn assert_each_lang_uses_all<R>(table: &[&Text], mut f: impl FnMut(Lang) -> R) {
        assert_all_used(table, || {
            for lang in Lang::ALL {
                f(lang);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{assert_all_used, check_table, problems};
    use super::*;

    const CARD: Text = Text {
        zh: "卡 {card} 每步发出的通信（按它自己的组与链路）",
        en: "Card {card} sends per step (its own groups and links)",
    };
    const TWO: Text = Text {
        zh: "{b} 在前，{a} 在后；又是 {a}。",
        en: "{a} first, then {b}; {a} again.",
    };

    #[test]
    fn fills_named_parameters_in_each_language() {
        assert_eq!(
            CARD.fill(Lang::Zh, &[("card", &3)]),
            "卡 3 每步发出的通信（按它自己的组与链路）"
        );
        assert_eq!(
            CARD.fill(Lang::En, &[("card", &3)]),
            "Card 3 sends per step (its own groups and links)"
        );
        let (a, b) = ("A".to_string(), 2.5);
        assert_eq!(
            TWO.fill(Lang::Zh, &[("a", &a), ("b", &b)]),
            "2.5 在前，A 在后；又是 A。"
        );
        assert_eq!(
            TWO.fill(Lang::En, &[("b", &b), ("a", &a)]),
            "A first, then 2.5; A again."
        );
        assert_eq!(CARD.get(Lang::En), CARD.en);
    }

    #[test]
    fn braces_that_are_not_parameters_are_text() {
        let odd: Vec<Piece> = pieces("a {x} {not a name} {} {y").collect();
        assert_eq!(
            odd,
            [
                Piece::Literal("a "),
                Piece::Param("x"),
                Piece::Literal(" {not a name} {} {y"),
            ]
        );
        assert_eq!(params("{x}{y_2}{x}"), ["x", "y_2"]);
        assert_eq!(pieces("").count(), 0);
        assert_eq!(pieces("{x}").collect::<Vec<_>>(), [Piece::Param("x")]);
    }

    #[test]
    fn pieces_keep_markup_apart() {
        let text = Text {
            zh: "参数量 {params}；",
            en: "Parameters: {params}; ",
        };
        assert_eq!(
            text.pieces(Lang::Zh),
            [
                Piece::Literal("参数量 "),
                Piece::Param("params"),
                Piece::Literal("；")
            ]
        );
    }

    #[test]
    #[should_panic(expected = "do not match")]
    fn a_missing_argument_fails_the_tests() {
        let _ = CARD.fill(Lang::Zh, &[]);
    }

    #[test]
    #[should_panic(expected = "do not match")]
    fn an_unknown_argument_fails_the_tests() {
        let _ = CARD.fill(Lang::En, &[("card", &1), ("cards", &2)]);
    }

    #[test]
    fn tables_are_checked_entry_by_entry() {
        check_table(&[&CARD, &TWO]);
        let mismatch = Text {
            zh: "卡 {card}",
            en: "Card {rank}",
        };
        let stray = Text {
            zh: "卡 {card",
            en: "Card {card",
        };
        let mixed = Text {
            zh: "卡 {card}",
            en: "Card {card}：",
        };
        assert_eq!(problems(&mismatch).len(), 1);
        assert_eq!(problems(&stray).len(), 2);
        assert_eq!(problems(&mixed).len(), 1);
        assert_all_used(&[&CARD], || {
            for lang in [Lang::Zh, Lang::En] {
                let _ = CARD.fill(lang, &[("card", &0)]);
            }
        });
    }

    #[test]
    #[should_panic(expected = "never filled")]
    fn an_unused_entry_fails_the_tests() {
        assert_all_used(&[&CARD, &TWO], || {
            let _ = CARD.get(Lang::Zh);
        });
    }
}
