//! The page's two languages: Chinese first, English on the switch.
//!
//! Every string of the page is written as a pair, so the two can never drift apart and a
//! missing translation is a compile error rather than a mixed-language page: words and static
//! text in place, `tr("中文", "English")` or `<T zh="…" en="…"/>`; a sentence that carries
//! figures whole, with named parameters, in its file's text table (see [`crate::kit::text`]), never
//! glued from separately translated fragments.

use leptos::prelude::*;

/// The language of the page: the core's [`Lang`], shared with the links and the CLI.
pub use parallel_core::Lang;

/// The page's language, shared through context.
#[derive(Clone, Copy, Debug)]
pub struct LangContext(pub RwSignal<Lang>);

/// Provides the language context (once, at the root) and returns its signal.
pub fn provide_lang(initial: Lang) -> RwSignal<Lang> {
    let lang = RwSignal::new(initial);
    provide_context(LangContext(lang));
    lang
}

/// The current language as a signal; Chinese when no context was provided.
pub fn use_lang() -> Signal<Lang> {
    match use_context::<LangContext>() {
        Some(LangContext(lang)) => lang.into(),
        None => Signal::stored(Lang::Zh),
    }
}

/// A reactive pick between two strings, for attributes and computed text.
pub fn tr(
    zh: &'static str,
    en: &'static str,
) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    let lang = use_lang();
    move || lang.get().pick(zh, en)
}

/// Text in both languages; shows the one of the page.
#[component]
pub fn T(zh: &'static str, en: &'static str) -> impl IntoView {
    tr(zh, en)
}
