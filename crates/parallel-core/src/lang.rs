//! [`Lang`]: the lab's two languages, one type for the core (links), the CLI and the page.

/// A language of the lab: Chinese first, English on the switch.
///
/// Text pairs are always written Chinese first: `lang.pick("中文", "English")`.
///
/// ```
/// use parallel_core::Lang;
/// assert_eq!(Lang::En.pick("卡", "card"), "card");
/// assert_eq!(Lang::default(), Lang::Zh);
/// assert_eq!(Lang::from_code("en"), Some(Lang::En));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// 中文, the page's first language.
    #[default]
    Zh,
    /// English.
    En,
}

impl Lang {
    /// Both languages, Chinese first.
    pub const ALL: [Lang; 2] = [Lang::Zh, Lang::En];

    /// The text for this language, from a (中文, English) pair.
    pub fn pick<'a>(self, zh: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }

    /// The short code used in links and on the command line: "zh" or "en".
    pub const fn code(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }

    /// The language of a short code ("zh", "en"), if it is one.
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.code() == code)
    }

    /// The BCP 47 tag for `<html lang>`: "zh-CN" or "en".
    pub const fn tag(self) -> &'static str {
        match self {
            Lang::Zh => "zh-CN",
            Lang::En => "en",
        }
    }

    /// The other language.
    pub const fn toggled(self) -> Lang {
        match self {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        }
    }
}

/// Whether `c` belongs to Chinese text as the lab writes it: CJK ideographs (U+4E00–9FFF),
/// CJK symbols and punctuation (U+3000–303F) and full-width forms (U+FF00–FFEF). The English
/// page and the English CLI output hold none of these.
///
/// ```
/// use parallel_core::lang::is_cjk;
/// assert!(is_cjk('卡') && is_cjk('，') && is_cjk('（'));
/// assert!(!is_cjk('A') && !is_cjk('·') && !is_cjk('—'));
/// ```
pub fn is_cjk(c: char) -> bool {
    matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3000}'..='\u{303f}' | '\u{ff00}'..='\u{ffef}')
}

/// Whether `text` holds a character of Chinese text ([`is_cjk`]).
pub fn has_cjk(text: &str) -> bool {
    text.chars().any(is_cjk)
}
