//! The page's state in its URL: read on load and on back/forward, written as the student
//! changes things. The codec is the core's (`parallel_core::link`), shared with the CLI's
//! `eval --url`; this module only moves strings between it, the signals and `window.location`.

use leptos::prelude::*;
use parallel_core::link::{self, Ignored, IgnoredReason, LinkState, Origin, Section, Widget};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use crate::kit::i18n::Lang;
use crate::state::lab::GridLab;
use crate::state::prerender;
use crate::state::scroll::bring_into_view_when_drawn;

/// The sentences of the link notice.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// One ignored part of a link, quoted, and why.
        pub const IGNORED: Text = Text {
            zh: "“{part}”：{why}",
            en: "“{part}”: {why}",
        };
    }
}

/// A change less than this long after the previous one replaces the history entry instead of
/// adding one, so that dragging a slider makes one entry, not fifty.
const HISTORY_PAUSE_MS: f64 = 1000.0;

/// How long the page must be quiet before the address is rewritten.
pub const WRITE_DELAY_MS: u64 = 120;

/// Everything the link holds, as the page's signals.
#[derive(Clone, Copy)]
pub struct PageState {
    /// The 8-card grid.
    pub lab8: GridLab,
    /// The 64-card grid.
    pub lab64: GridLab,
    /// The page's language.
    pub lang: RwSignal<Lang>,
    /// The section in view.
    pub section: RwSignal<Option<Section>>,
    /// The widget shown alone, when embedded (fixed for the page's life).
    pub embed: Option<Widget>,
    /// The controls an embedded grid shows (`None`: the lesson's; fixed for the page's life).
    pub controls: Option<parallel_core::link::Controls>,
    /// The parts an embedded grid draws (`None`: the grid and its figures; fixed for the
    /// page's life).
    pub parts: Option<parallel_core::link::Parts>,
    /// The course page an embedded widget takes messages from (`parent=`; `None`: the window
    /// that frames it, whatever its origin; fixed for the page's life).
    pub parent: StoredValue<Option<Origin>>,
    /// What the link on load (or back/forward) asked for that could not be applied.
    pub notices: RwSignal<Vec<Ignored>>,
}

impl PageState {
    /// The state as a link state. A grid whose controls show an invalid combination is
    /// written as its last valid plan (the one on screen).
    pub fn to_link(&self) -> LinkState {
        LinkState {
            g8: self.lab8.plan.with(|p| p.config().clone()),
            g64: self.lab64.plan.with(|p| p.config().clone()),
            card8: self.lab8.selected.get(),
            card64: self.lab64.selected.get(),
            section: self.section.get(),
            lang: self.lang.get(),
            embed: self.embed,
            controls: self.controls,
            parts: self.parts,
            parent: self.parent.get_value(),
        }
    }

    /// Puts a decoded link on the page.
    pub fn apply(&self, state: &LinkState, notices: Vec<Ignored>) {
        self.lab8.load(state.g8.clone());
        self.lab64.load(state.g64.clone());
        self.lab8.selected.set(state.card8);
        self.lab64.selected.set(state.card64);
        self.lang.set(state.lang);
        self.section.set(state.section);
        self.notices.set(notices);
    }

    /// The fragment of the current state (without `#`).
    pub fn fragment(&self) -> String {
        link::encode(&self.to_link())
    }

    /// The fragment of one widget in its current state, for an embed snippet, showing
    /// `controls` (`None`: the lesson's) and `parts` (`None`: the grid and its figures), and
    /// taking messages from `parent` (`None`: from the
    /// window that frames it).
    pub fn embed_fragment(
        &self,
        widget: Widget,
        controls: Option<parallel_core::link::Controls>,
        parts: Option<parallel_core::link::Parts>,
        parent: Option<Origin>,
    ) -> String {
        let mut state = self.to_link();
        state.embed = Some(widget);
        state.section = None;
        state.controls = controls;
        state.parts = parts;
        state.parent = parent;
        link::encode(&state)
    }
}

/// The page's address without its fragment, e.g. `https://host/course/parallel-lab/`.
pub fn base_url() -> String {
    let location = window().location();
    let origin = location.origin().unwrap_or_default();
    let path = location.pathname().unwrap_or_default();
    let search = location.search().unwrap_or_default();
    format!("{origin}{path}{search}")
}

/// The address of the embed entry point next to this page, e.g.
/// `https://host/course/parallel-lab/embed.html` (from `…/parallel-lab/` or `…/index.html`).
pub fn embed_url() -> String {
    let location = window().location();
    let origin = location.origin().unwrap_or_default();
    let path = location.pathname().unwrap_or_default();
    let folder = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let folder = if folder.is_empty() { "/" } else { folder };
    format!("{origin}{folder}embed.html")
}

/// The current fragment, without `#`.
pub fn current_fragment() -> String {
    if !prerender::in_browser() {
        return prerender::link();
    }
    let hash = window().location().hash().unwrap_or_default();
    hash.strip_prefix('#').unwrap_or(&hash).to_string()
}

/// Reads the link the page was opened with.
pub fn read_on_load() -> (LinkState, Vec<Ignored>) {
    link::decode(&current_fragment())
}

/// Keeps the URL and the page in step: writes the fragment when the state changes, and
/// applies the URL on back/forward. Call once, after the state has been applied.
pub fn sync(page: PageState) {
    let last_write = StoredValue::new(0.0_f64);
    let last_without_section = StoredValue::new(None::<LinkState>);
    let first = StoredValue::new(true);
    // Writing the address waits for the page to be quiet for a moment: a slider drag writes
    // once, and the write never delays the figures' update.
    let generation = StoredValue::new(0_u64);
    Effect::new(move |_| {
        // One reading of the state per change: the fragment is its encoding, and what the
        // change did is seen by comparing the state without its section.
        let state = page.to_link();
        let fragment = link::encode(&state);
        let without_section = LinkState {
            section: None,
            ..state
        };
        let first_run = first.get_value();
        first.set_value(false);
        let only_scrolled =
            last_without_section.with_value(|last| last.as_ref() == Some(&without_section));
        last_without_section.set_value(Some(without_section));
        let now = js_sys::Date::now();
        // A new history entry only for a change the student made after a pause: not for the
        // link the page was opened with (rewritten in its canonical form), not for scrolling,
        // not inside a course page's frame (whose history is the course page's), and not for
        // the rapid steps of a slider drag.
        let push = !first_run
            && !only_scrolled
            && page.embed.is_none()
            && now - last_write.get_value() >= HISTORY_PAUSE_MS;
        if !first_run && !only_scrolled {
            last_write.set_value(now);
        }
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        let write = move || {
            if generation.get_value() != mine || fragment == current_fragment() {
                return;
            }
            let url = format!("{}#{fragment}", base_url());
            if let Ok(history) = window().history() {
                let result = if push {
                    history.push_state_with_url(&JsValue::NULL, "", Some(&url))
                } else {
                    history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
                };
                if result.is_err() {
                    leptos::logging::warn!("could not update the address bar");
                }
            }
        };
        if first_run {
            write();
        } else {
            set_timeout(write, std::time::Duration::from_millis(WRITE_DELAY_MS));
        }
    });

    if !prerender::in_browser() {
        return;
    }
    let on_pop = Closure::<dyn Fn()>::new(move || {
        let (state, notices) = read_on_load();
        page.apply(&state, notices);
    });
    let _ = window().add_event_listener_with_callback("popstate", on_pop.as_ref().unchecked_ref());
    let _ =
        window().add_event_listener_with_callback("hashchange", on_pop.as_ref().unchecked_ref());
    on_pop.forget();
}

/// Follows which section is in view (for the link), without ever scrolling by itself.
pub fn track_section(section: RwSignal<Option<Section>>) {
    if !prerender::in_browser() {
        return;
    }
    let on_scroll = Closure::<dyn Fn()>::new(move || {
        let document = document();
        let mut current = None;
        for id in Section::ALL {
            if let Some(element) = document.get_element_by_id(id.id()) {
                if element.get_bounding_client_rect().top() <= 120.0 {
                    current = Some(id);
                }
            }
        }
        if section.get_untracked() != current {
            section.set(current);
        }
    });
    let options = web_sys::AddEventListenerOptions::new();
    options.set_passive(true);
    let _ = window().add_event_listener_with_callback_and_add_event_listener_options(
        "scroll",
        on_scroll.as_ref().unchecked_ref(),
        &options,
    );
    on_scroll.forget();
}

/// Scrolls to a section and records it as the one in view (the contents links: a plain
/// `href="#part-one"` would replace the page's state in the address). `later` draws what is
/// still to be drawn first, and the scroll waits until it is there (a piece drawn above the
/// section after the scroll would move it).
pub fn go_to(
    section: RwSignal<Option<Section>>,
    to: Section,
    later: Option<crate::state::later::LaterParts>,
) {
    // Draw the rest of the page, then scroll once it is there (at the next frame if it is).
    if let Some(later) = later {
        later.draw_all();
    }
    bring_into_view_when_drawn(format!("#{}", to.id()));
    section.set(Some(to));
}

/// Scrolls the section a link names into view, once the page is drawn.
pub fn scroll_to(section: Section) {
    bring_into_view_when_drawn(format!("#{}", section.id()));
}

/// The notice line for one ignored part, in the page's language.
pub fn describe(lang: Lang, ignored: &Ignored) -> String {
    let why = match (&ignored.reason, lang) {
        (IgnoredReason::UnknownKey, Lang::Zh) => "不认识这个键".to_string(),
        (IgnoredReason::UnknownKey, Lang::En) => "unknown key".to_string(),
        (IgnoredReason::Repeated, Lang::Zh) => "重复了，只用第一个".to_string(),
        (IgnoredReason::Repeated, Lang::En) => "repeated; the first one counts".to_string(),
        (IgnoredReason::Malformed, Lang::Zh) => "不是实验室会写出的值".to_string(),
        (IgnoredReason::Malformed, Lang::En) => "not a value the lab writes".to_string(),
        (IgnoredReason::OutOfRange, Lang::Zh) => "超出范围".to_string(),
        (IgnoredReason::OutOfRange, Lang::En) => "out of range".to_string(),
        (IgnoredReason::Fixed, Lang::Zh) => "这个网格的卡数与机器固定，TP 不跨机".to_string(),
        (IgnoredReason::Fixed, Lang::En) => {
            "fixed in this grid (its size, and TP within a node)".to_string()
        }
        (IgnoredReason::Invalid(_), Lang::Zh) => "和其余设置组合不成立".to_string(),
        (IgnoredReason::Invalid(reason), Lang::En) => reason.clone(),
        (IgnoredReason::TooLong, Lang::Zh) => "太长，后面的部分没有读".to_string(),
        (IgnoredReason::TooLong, Lang::En) => "too long; the rest was not read".to_string(),
    };
    text::IGNORED.fill(lang, &[("part", &ignored.part), ("why", &why)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let ignored = Ignored {
            part: "g8: tp3".to_string(),
            reason: IgnoredReason::OutOfRange,
        };
        assert_each_lang_uses_all(text::ALL, |lang| {
            describe(lang, &ignored);
        });
        assert_eq!(describe(Lang::Zh, &ignored), "“g8: tp3”：超出范围");
        assert_eq!(describe(Lang::En, &ignored), "“g8: tp3”: out of range");
    }
}
