//! A rejected plan in the page's language. The core's [`PlanError`] carries the numbers of
//! each reason; English is its own `Display`, Chinese is written here from the same variant,
//! so neither language borrows a sentence from the other.
//!
//! [`rejected`] and [`explain`] are here; the Chinese reasons are in `chinese`, the Chinese
//! names of the config fields they use in `fields`.

mod chinese;
mod fields;

use parallel_core::PlanError;

use crate::kit::i18n::Lang;

pub use fields::field_zh;

/// The sentences around a reason.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// A rejected plan: the core's reason after it.
        pub const REJECTED: Text = Text {
            zh: "核心拒绝了这个方案：{reason}",
            en: "The core rejects this plan: {reason}",
        };
    }
}

/// "The core rejects this plan: " and the reason, in `lang`.
pub fn rejected(lang: Lang, error: &PlanError) -> String {
    text::REJECTED.fill(lang, &[("reason", &explain(lang, error))])
}

/// The reason a plan is rejected, in `lang`.
pub fn explain(lang: Lang, error: &PlanError) -> String {
    match lang {
        Lang::En => error.to_string(),
        Lang::Zh => chinese::chinese(error),
    }
}

#[cfg(test)]
mod tests;
