//! Live markup: a piece of the page written once as markup and then kept current by one effect.
//!
//! A view built with `view!` compiles into code of its own for every element and keeps a
//! reactive node for every text or attribute that changes. For the figures beside a grid, which
//! change together on nearly every slider move, that was a large share of the page's wasm and
//! of its work per move. A live block instead is
//! - a **template**: the block's markup as a string, for the page's language and the block's
//!   shape (how many rows, which parts are there), with a `data-slot` name on each element
//!   that changes;
//! - its **fills**: what each slot shows now (its text, an attribute, a style property),
//!   computed in one memo from the core's figures;
//!
//! and one effect, the same code for every block, which writes the template when it changes
//! and then only the fills that differ from what the slots show. The device grid is drawn the
//! same way (`components::device_grid`).
//!
//! A block may hold "why?" buttons (`components::explain::explain_button`): their clicks and Escape are handled
//! once for the block, and each open explanation is written below its button, computed by the
//! core while it is open (`components::explain`).

use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

use leptos::ev::{KeyboardEvent, MouseEvent};
use leptos::prelude::*;
use parallel_core::explain::Figure;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use crate::components::explain::explanation_markup;
use crate::i18n::{use_lang, Lang};
use crate::lab::GridLab;

/// What a fill writes into its slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    /// The element's text.
    Text,
    /// An attribute (removed when the value is `None`).
    Attr(&'static str),
    /// A style property, through the CSS object model (the page's Content-Security-Policy
    /// refuses `style` attributes in markup).
    Style(&'static str),
}

/// One value for one slot: the element `[data-slot=SLOT]` of the block, or the block's own
/// element when the slot is `""`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fill {
    slot: Cow<'static, str>,
    write: Write,
    value: Option<String>,
}

impl Fill {
    /// The slot's text.
    pub fn text(slot: impl Into<Cow<'static, str>>, value: impl Into<String>) -> Fill {
        Fill {
            slot: slot.into(),
            write: Write::Text,
            value: Some(value.into()),
        }
    }

    /// An attribute of the slot; `None` removes it.
    pub fn attr(
        slot: impl Into<Cow<'static, str>>,
        name: &'static str,
        value: Option<String>,
    ) -> Fill {
        Fill {
            slot: slot.into(),
            write: Write::Attr(name),
            value,
        }
    }

    /// A style property of the slot.
    pub fn style(
        slot: impl Into<Cow<'static, str>>,
        property: &'static str,
        value: impl Into<String>,
    ) -> Fill {
        Fill {
            slot: slot.into(),
            write: Write::Style(property),
            value: Some(value.into()),
        }
    }

    fn write_to(&self, element: &Element) {
        let value = self.value.as_deref();
        match self.write {
            Write::Text => set_text(element, value.unwrap_or("")),
            Write::Attr(name) => {
                let _ = match value {
                    Some(value) => element.set_attribute(name, value),
                    None => element.remove_attribute(name),
                };
            }
            Write::Style(property) => {
                if let Some(element) = element.dyn_ref::<HtmlElement>() {
                    let _ = element.style().set_property(property, value.unwrap_or(""));
                }
            }
        }
    }
}

/// Sets an element's text: in its one text node when it has one (cheaper than replacing the
/// node, as `textContent` does).
pub fn set_text(element: &Element, text: &str) {
    match element.first_child() {
        Some(node)
            if node.node_type() == web_sys::Node::TEXT_NODE && node.next_sibling().is_none() =>
        {
            node.set_node_value(Some(text))
        }
        _ => element.set_text_content(Some(text)),
    }
}

/// The element a live block is written into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Root {
    /// A `<div>` (a figure).
    Div,
    /// A `<span>` (inline, as one "why?" button in a sentence).
    Span,
}

/// What a block has written into its element.
struct Drawn {
    root: Element,
    markup: String,
    /// Slot elements found so far in this markup.
    slots: Vec<(String, Element)>,
    /// The fills the slots show.
    fills: Vec<Fill>,
    /// The explanations open below their buttons, with their markup.
    panels: Vec<(Figure, String)>,
}

impl Drawn {
    fn new(root: Element) -> Drawn {
        Drawn {
            root,
            markup: String::new(),
            slots: Vec::new(),
            fills: Vec::new(),
            panels: Vec::new(),
        }
    }

    /// Writes what differs between what the block shows and `template`, `fills`, `panels`.
    fn update(
        &mut self,
        template: Signal<String>,
        fills: Signal<Vec<Fill>>,
        panels: Memo<Vec<(Figure, String)>>,
    ) {
        // What the reader set in the old markup (see `Kept`), set again once the new one is
        // filled in (a table box can scroll only as far as its filled-in width).
        let mut kept = None;
        template.with(|markup| {
            if self.markup != *markup {
                kept = Some(Kept::read(&self.root));
                self.root.set_inner_html(markup);
                *self = Drawn {
                    markup: markup.clone(),
                    ..Drawn::new(self.root.clone())
                };
            }
        });
        fills.with(|fills| {
            self.fills.truncate(fills.len());
            for (i, fill) in fills.iter().enumerate() {
                if self.fills.get(i) == Some(fill) {
                    continue;
                }
                if let Some(slot) = self.slot(&fill.slot) {
                    fill.write_to(&slot);
                }
                // Only what changed is copied.
                match self.fills.get_mut(i) {
                    Some(shown) => shown.clone_from(fill),
                    None => self.fills.push(fill.clone()),
                }
            }
        });
        panels.with(|panels| self.sync_panels(panels));
        if let Some(kept) = kept {
            kept.restore(&self.root);
        }
    }

    fn slot(&mut self, name: &str) -> Option<Element> {
        if name.is_empty() {
            return Some(self.root.clone());
        }
        if let Some((_, element)) = self.slots.iter().find(|(slot, _)| slot == name) {
            return Some(element.clone());
        }
        let element = self
            .root
            .query_selector(&format!("[data-slot=\"{name}\"]"))
            .ok()??;
        self.slots.push((name.to_owned(), element.clone()));
        Some(element)
    }

    /// Writes the explanations of `want` below their buttons, removes the others.
    fn sync_panels(&mut self, want: &[(Figure, String)]) {
        for (figure, _) in &self.panels {
            if !want.iter().any(|(f, _)| f == figure) {
                let id = figure.id();
                let selector = format!("[data-explain=\"{id}\"] > .explanation");
                if let Some(panel) = find(&self.root, &selector) {
                    panel.remove();
                }
                if let Some(button) = explain_button_of(&self.root, *figure) {
                    let _ = button.set_attribute("aria-expanded", "false");
                }
            }
        }
        for (figure, markup) in want {
            if self.panels.iter().any(|(f, m)| f == figure && m == markup) {
                continue;
            }
            let id = figure.id();
            let Some(host) = find_or_self(&self.root, &format!("[data-explain=\"{id}\"]")) else {
                continue;
            };
            match find(&host, ":scope > .explanation") {
                Some(panel) => panel.set_outer_html(markup),
                None => {
                    let _ = host.insert_adjacent_html("beforeend", markup);
                }
            }
            if let Some(button) = explain_button_of(&self.root, *figure) {
                let _ = button.set_attribute("aria-expanded", "true");
            }
        }
        self.panels = want.to_vec();
    }
}

/// What a reader set inside a block that a new template would lose: which `<details>` are open,
/// how far each table box (`.table-scroll`) is scrolled, and which button or box has the focus.
/// Each is found again in the new markup by its order in the block (a rewrite keeps the block's
/// kinds of elements in the same order; a table box scrolled past its new width stops at its
/// end).
struct Kept {
    opened: Vec<bool>,
    scrolled: Vec<(i32, i32)>,
    /// The focused element's place among the block's focusable elements.
    focus: Option<u32>,
}

const FOCUSABLE: &str = "button, [tabindex], summary, a[href], input, select";

impl Kept {
    fn read(root: &Element) -> Kept {
        let opened = each(root, "details")
            .map(|d| d.has_attribute("open"))
            .collect();
        let scrolled = each(root, ".table-scroll")
            .map(|b| (b.scroll_left(), b.scroll_top()))
            .collect();
        let active = root.owner_document().and_then(|d| d.active_element());
        let focus = active
            .filter(|a| root.contains(Some(a)) && a != root)
            .and_then(|a| each(root, FOCUSABLE).position(|e| e == a))
            .and_then(|i| u32::try_from(i).ok());
        Kept {
            opened,
            scrolled,
            focus,
        }
    }

    fn restore(&self, root: &Element) {
        if self.opened.contains(&true) {
            for (details, &open) in each(root, "details").zip(&self.opened) {
                if open {
                    let _ = details.set_attribute("open", "");
                }
            }
        }
        if self.scrolled.iter().any(|&s| s != (0, 0)) {
            for (scroller, &(left, top)) in each(root, ".table-scroll").zip(&self.scrolled) {
                scroller.set_scroll_left(left);
                scroller.set_scroll_top(top);
            }
        }
        if let Some(i) = self.focus {
            if let Some(element) = each(root, FOCUSABLE).nth(i as usize) {
                if let Ok(element) = element.dyn_into::<HtmlElement>() {
                    let _ = element.focus();
                }
            }
        }
    }
}

/// The elements of `root` that match `selector`, in document order.
fn each(root: &Element, selector: &str) -> impl Iterator<Item = Element> {
    let all = root.query_selector_all(selector).ok();
    let count = all.as_ref().map_or(0, |all| all.length());
    (0..count).filter_map(move |i| {
        all.as_ref()?
            .item(i)
            .and_then(|node| node.dyn_into::<Element>().ok())
    })
}

fn find(scope: &Element, selector: &str) -> Option<Element> {
    scope.query_selector(selector).ok().flatten()
}

fn explain_button_of(root: &Element, figure: Figure) -> Option<Element> {
    let id = figure.id();
    // The selector's first part may match the block's own element (a lone button's block).
    find(root, &format!("[data-explain=\"{id}\"] > .explain-button"))
}

/// The element matching `selector`: the block's own element or one inside it.
fn find_or_self(root: &Element, selector: &str) -> Option<Element> {
    if root.matches(selector).unwrap_or(false) {
        return Some(root.clone());
    }
    find(root, selector)
}

/// The figure whose `span.explain` holds `target`, if any.
fn figure_at(target: &Element) -> Option<(Figure, Element)> {
    let host = target.closest("[data-explain]").ok()??;
    let figure = Figure::from_id(&host.get_attribute("data-explain")?)?;
    Some((figure, host))
}

/// Gives the focus back to the button of the `span.explain` `host`.
fn focus_button(host: &Element) {
    let button = find(host, ".explain-button");
    if let Some(button) = button.and_then(|b| b.dyn_into::<HtmlElement>().ok()) {
        let _ = button.focus();
    }
}

/// A live block: `template` written into a `<div>` or `<span>` of class `class` and `fills`
/// kept in its slots (a fill of the slot `""` may set the block's own `class` as well).
/// With `explain`, the block's "why?" buttons open that grid's explanations.
pub fn live(
    root: Root,
    class: &'static str,
    template: Signal<String>,
    fills: Signal<Vec<Fill>>,
    explain: Option<GridLab>,
) -> AnyView {
    let lang = use_lang();
    let open = RwSignal::new(Vec::<Figure>::new());
    // The open explanations' markup, each computed while it is open from the plan the block
    // shows.
    let panels = Memo::new(move |_| {
        let Some(lab) = explain else {
            return Vec::new();
        };
        let lang = lang.get();
        open.with(|open| {
            open.iter()
                .map(|&figure| (figure, explanation_markup(lang, lab, figure)))
                .collect::<Vec<_>>()
        })
    });
    // The block's content is written when its element is built (a directive runs then), so
    // the figures are there as soon as the view is mounted; the effect keeps them current.
    let drawn = Rc::new(RefCell::new(None::<Drawn>));
    let start = {
        let drawn = Rc::clone(&drawn);
        move |element: Element| {
            let mut written = Drawn::new(element);
            untrack(|| written.update(template, fills, panels));
            *drawn.borrow_mut() = Some(written);
        }
    };
    Effect::new(move |_| {
        template.track();
        fills.track();
        panels.track();
        if let Some(written) = drawn.borrow_mut().as_mut() {
            written.update(template, fills, panels);
        }
    });
    let toggle = move |figure: Figure| {
        open.update(|open| match open.iter().position(|&f| f == figure) {
            Some(i) => {
                open.remove(i);
            }
            None => open.push(figure),
        })
    };
    let close = move |figure: Figure, host: &Element| {
        open.update(|open| open.retain(|&f| f != figure));
        focus_button(host);
    };
    let on_click = move |event: MouseEvent| {
        if explain.is_none() {
            return;
        }
        let Some(target) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return;
        };
        let Some((figure, host)) = figure_at(&target) else {
            return;
        };
        if target.closest(".explain-button").ok().flatten().is_some() {
            toggle(figure);
        } else if target.closest("[data-close]").ok().flatten().is_some() {
            close(figure, &host);
        }
    };
    let on_key = move |event: KeyboardEvent| {
        if explain.is_none() || event.key() != "Escape" {
            return;
        }
        let Some(target) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return;
        };
        let Some((figure, host)) = figure_at(&target) else {
            return;
        };
        if open.with_untracked(|open| open.contains(&figure)) {
            event.prevent_default();
            event.stop_propagation();
            close(figure, &host);
        }
    };
    match root {
        Root::Div => {
            view! { <div class=class use:start on:click=on_click on:keydown=on_key></div> }
                .into_any()
        }
        Root::Span => {
            view! { <span class=class use:start on:click=on_click on:keydown=on_key></span> }
                .into_any()
        }
    }
}

/// A block of markup that changes only with the page's language (a table of published
/// figures, a note): `markup(lang)`, written whole when the language changes. Its element
/// adds no box (`display: contents`), so the markup's parts are laid out as its parent's.
pub fn markup_block(markup: fn(Lang) -> String) -> AnyView {
    let lang = use_lang();
    let template = crate::lab::part(move || markup(lang.get()));
    live(
        Root::Div,
        "markup-block",
        template,
        Signal::stored(Vec::new()),
        None,
    )
}
