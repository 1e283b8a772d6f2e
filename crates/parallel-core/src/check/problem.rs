//! [`CheckError`]: what is wrong with a measured file, named by its field, in both languages.

use crate::lang::Lang;

/// What is wrong with a measured file: the field (a dotted path, e.g. `eager.peak_bytes`) and
/// the problem in a sentence, in English and in Chinese.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError {
    /// The field at fault; empty for the file as a whole.
    pub field: String,
    /// What is wrong with it (English).
    pub problem: String,
    /// The same in Chinese.
    pub problem_zh: String,
}

impl CheckError {
    /// The whole sentence in `lang`; English is the [`Display`](core::fmt::Display) form.
    ///
    /// ```
    /// use parallel_core::{check::Measured, Lang};
    /// let e = Measured::read("{}").unwrap_err();
    /// assert!(e.text(Lang::En).starts_with("measured file, `format`: missing"));
    /// assert!(e.text(Lang::Zh).starts_with("实测文件的 `format`：缺少"));
    /// ```
    pub fn text(&self, lang: Lang) -> String {
        match (lang, self.field.is_empty()) {
            (Lang::En, _) => self.to_string(),
            (Lang::Zh, true) => format!("实测文件：{}", self.problem_zh),
            (Lang::Zh, false) => format!("实测文件的 `{}`：{}", self.field, self.problem_zh),
        }
    }
}

impl core::fmt::Display for CheckError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.field.is_empty() {
            write!(f, "measured file: {}", self.problem)
        } else {
            write!(f, "measured file, `{}`: {}", self.field, self.problem)
        }
    }
}

impl std::error::Error for CheckError {}

/// A problem at `field`, in English and Chinese.
pub(super) fn problem(field: &str, en: impl Into<String>, zh: impl Into<String>) -> CheckError {
    CheckError {
        field: field.to_owned(),
        problem: en.into(),
        problem_zh: zh.into(),
    }
}
