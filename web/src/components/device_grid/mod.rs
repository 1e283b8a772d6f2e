//! The device grid: cards drawn inside their node boxes, the selected card's TP / CP / PP / DP
//! groups lit (colour plus a second cue: outline style and a letter badge), and the ring hops
//! of each group drawn card to card, marked NVLink (inside a node) or InfiniBand (across).
//!
//! One component serves the 8-GPU machine and the 64-GPU cluster. It draws what the core says
//! (`Grid::groups`, `Link::of_cards`); its own arithmetic is only layout.

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use parallel_core::{Bytes, Dim, Groups, Link, Plan, StageMemory};
use wasm_bindgen::JsCast;

use crate::format;
use crate::i18n::{tr, use_lang, Lang, T};
use crate::lab::roles_of;
use crate::live::set_text;

/// Card size and spacing of the drawing, in SVG units.
const CARD_W: f64 = 58.0;
const CARD_H: f64 = 46.0;
const GAP: f64 = 8.0;
const NODE_PAD: f64 = 10.0;
const NODE_TITLE: f64 = 20.0;
const NODE_GAP: f64 = 18.0;
/// Cards per row inside a node box.
const CARDS_PER_ROW: u32 = 4;

/// The words of the device grid.
mod text {
    use crate::text::Text;

    /// A node box's title.
    pub const NODE: Text = Text {
        zh: "机器 {node}",
        en: "Node {node}",
    };
    /// A card's accessible name; `face` is the card's own text (rank, badges, coordinates).
    pub const CARD: Text = Text {
        zh: "卡 {face}",
        en: "Card {face}",
    };
    /// The selected card's accessible name.
    pub const CARD_SELECTED: Text = Text {
        zh: "卡 {face}（已选中）",
        en: "Card {face} (selected)",
    };
    /// The accessible name of a card in the selected card's groups, `groups` naming them.
    pub const CARD_IN_GROUPS: Text = Text {
        zh: "卡 {face}：{groups}",
        en: "Card {face}: {groups}",
    };

    /// A card's memory, read out on hover or focus.
    pub const CARD_MEMORY: Text = Text {
        zh: "卡 {card}：第 {stage} 段，{layers} 层；模型状态 {states} + 激活 {activations} = {total}（容量 {capacity}）",
        en: "Card {card}: stage {stage}, {layers} layers; model states {states} + activations {activations} = {total} (capacity {capacity})",
    };
    /// The same, for a card over its capacity.
    pub const CARD_MEMORY_OVER: Text = Text {
        zh: "卡 {card}：第 {stage} 段，{layers} 层；模型状态 {states} + 激活 {activations} = {total}，超过容量 {capacity}",
        en: "Card {card}: stage {stage}, {layers} layers; model states {states} + activations {activations} = {total}, over its capacity of {capacity}",
    };
    /// The tint's legend.
    pub const SCALE: Text = Text {
        zh: "卡的颜色：自己的显存合计，从 0 到容量 {capacity}；超过容量的卡标「!」。",
        en: "Card colour: its own total memory, from 0 to the capacity of {capacity}; a card over capacity is marked “!”.",
    };

    #[cfg(test)]
    pub const ALL: &[&Text] = &[
        &NODE,
        &CARD,
        &CARD_SELECTED,
        &CARD_IN_GROUPS,
        &CARD_MEMORY,
        &CARD_MEMORY_OVER,
        &SCALE,
    ];
}

/// A card's accessible name. It starts with what the card shows, in its order (rank, group
/// badges, coordinates: assistive technology and voice control find it by that text), then
/// says the same in words.
fn card_label(lang: Lang, card: u32, selected: bool, roles: &[Dim], coords: &str) -> String {
    let mut face = card.to_string();
    if !selected && !roles.is_empty() {
        face.push(' ');
        face.extend(roles.iter().map(|d| badge(*d)));
    }
    if !coords.is_empty() {
        face.push(' ');
        face.push_str(coords);
    }
    if selected {
        text::CARD_SELECTED.fill(lang, &[("face", &face)])
    } else if roles.is_empty() {
        text::CARD.fill(lang, &[("face", &face)])
    } else {
        let names: Vec<&str> = roles.iter().map(|d| group_name(lang, *d)).collect();
        let groups = names.join(lang.pick("、", ", "));
        text::CARD_IN_GROUPS.fill(lang, &[("face", &face), ("groups", &groups)])
    }
}

/// A card's memory in words (its stage, layers, states, activations, total, capacity).
fn card_memory_line(lang: Lang, card: u32, m: &StageMemory, capacity: Bytes) -> String {
    let template = if m.fits {
        &text::CARD_MEMORY
    } else {
        &text::CARD_MEMORY_OVER
    };
    template.fill(
        lang,
        &[
            ("card", &card),
            ("stage", &m.stage),
            ("layers", &m.layers),
            ("states", &m.model_states),
            ("activations", &m.activations),
            ("total", &m.total),
            ("capacity", &capacity),
        ],
    )
}

/// The tint of a card with `total` of `capacity` in use: a single-hue sequential scale (light
/// to dark blue, readable without colour vision), saturating at the capacity.
pub fn tint(total: Bytes, capacity: Bytes) -> String {
    const LIGHT: (f64, f64, f64) = (238.0, 243.0, 251.0);
    const DARK: (f64, f64, f64) = (23.0, 63.0, 135.0);
    let f = if capacity.get() > 0.0 {
        (total.get() / capacity.get()).clamp(0.0, 1.0)
    } else {
        1.0
    };
    let mix = |a: f64, b: f64| (a + (b - a) * f).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(LIGHT.0, DARK.0),
        mix(LIGHT.1, DARK.1),
        mix(LIGHT.2, DARK.2)
    )
}

/// What a card shows of the selection: its class, group badges, coordinates and name.
#[derive(Clone, Debug, PartialEq)]
struct CardFace {
    class: String,
    groups: Option<String>,
    selected: bool,
    label: String,
    badges: String,
    coords: String,
}

impl CardFace {
    /// The card's attributes of the selection, in the order of [`CardFace::attributes`].
    const ATTRIBUTES: [&'static str; 4] =
        ["data-groups", "data-selected", "aria-pressed", "aria-label"];

    /// Its groups, whether it is selected (twice: for tests and for assistive technology) and
    /// its name; `None` leaves the attribute out.
    fn attributes(&self) -> [Option<&str>; 4] {
        [
            self.groups.as_deref(),
            self.selected.then_some("true"),
            Some(if self.selected { "true" } else { "false" }),
            Some(&self.label),
        ]
    }

    fn new(lang: Lang, card: u32, selected: bool, roles: &[Dim], coords: String) -> CardFace {
        let mut class = String::from("card");
        for dim in roles {
            class.push_str(" role-");
            class.push_str(dim.as_str());
        }
        if selected {
            class.push_str(" selected");
        }
        let groups = (!roles.is_empty()).then(|| {
            roles
                .iter()
                .map(|d| d.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        });
        let badges = if selected {
            String::from("★")
        } else {
            roles.iter().map(|d| badge(*d)).collect()
        };
        CardFace {
            class,
            groups,
            selected,
            label: card_label(lang, card, selected, roles, &coords),
            badges,
            coords,
        }
    }
}

/// A card's class: its groups, whether it is selected, and whether it is over its capacity.
fn card_class(face: &CardFace, memory: Option<&CardMemory>) -> String {
    if memory.is_some_and(|m| !m.fits) {
        format!("{} over", face.class)
    } else {
        face.class.clone()
    }
}

/// Where the "!" of a card over its capacity goes (its text's anchor, the end of the line),
/// for a card whose top-left corner is `origin`.
fn over_mark_at((x, y): (f64, f64)) -> (f64, f64) {
    (x + CARD_W - 6.0, y + CARD_H - 8.0)
}

/// One card as SVG markup, in the state `face` and `own` describe. The spaces between the
/// texts are not drawn (SVG ignores text outside `<text>`); they keep the card's text
/// "1 TD t0 c0 p0 d1" in words for tools that read it, matching the start of its name.
fn card_markup(
    card: u32,
    (x, y): (f64, f64),
    face: Option<&CardFace>,
    own: Option<&CardMemory>,
) -> String {
    use std::fmt::Write;
    let mut g = String::with_capacity(640);
    let class = face
        .map(|f| card_class(f, own))
        .unwrap_or_else(|| String::from("card"));
    let _ = write!(
        g,
        r#"<g class="{class}" data-testid="card-{card}" data-card="{card}""#
    );
    let mut attribute = |name: &str, value: Option<&str>| {
        if let Some(value) = value {
            let _ = write!(g, r#" {name}="{}""#, format::escape_markup(value));
        }
    };
    if let Some(values) = face.map(CardFace::attributes) {
        for (name, value) in CardFace::ATTRIBUTES.into_iter().zip(values) {
            attribute(name, value);
        }
    }
    if let Some(values) = own.map(CardMemory::attributes) {
        for (name, value) in CardMemory::ATTRIBUTES.into_iter().zip(values) {
            attribute(name, Some(value));
        }
    }
    attribute("role", Some("button"));
    attribute("tabindex", Some("0"));
    let text = |s: Option<&str>| format::escape_markup(s.unwrap_or_default());
    let _ = write!(
        g,
        r#"><title></title><rect class="card-body" x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="6"></rect>"#,
    );
    let _ = write!(
        g,
        r#"<rect class="card-tint" x="{}" y="{}" width="{}" height="5" rx="2"{}></rect>"#,
        x + 6.0,
        y + 3.0,
        CARD_W - 12.0,
        own.map(|m| format!(r#" fill="{}""#, m.tint))
            .unwrap_or_default(),
    );
    let _ = write!(
        g,
        r#"<text class="card-rank" x="{}" y="{}">{card}</text> <text class="card-badge" x="{}" y="{}" text-anchor="end">{}</text> <text class="card-coords" x="{}" y="{}">{}</text>"#,
        x + 8.0,
        y + 20.0,
        x + CARD_W - 6.0,
        y + 17.0,
        text(face.map(|f| f.badges.as_str())),
        x + 8.0,
        y + CARD_H - 8.0,
        text(face.map(|f| f.coords.as_str())),
    );
    if own.is_some_and(|m| !m.fits) {
        let (mx, my) = over_mark_at((x, y));
        let _ = write!(
            g,
            r#" <text class="card-over" x="{mx}" y="{my}" text-anchor="end">!</text>"#
        );
    }
    g.push_str("</g>");
    g
}

/// What a card shows of its own memory: the data attributes and the tint. (Its memory in words
/// is read out below the grid, and is the title of the card under the pointer or focus only.)
#[derive(Clone, Debug, PartialEq)]
struct CardMemory {
    bytes: String,
    stage: String,
    fits: bool,
    tint: String,
}

impl CardMemory {
    /// The card's data attributes of its memory, in the order of [`CardMemory::attributes`].
    const ATTRIBUTES: [&'static str; 3] = ["data-bytes", "data-stage", "data-fits"];

    /// Total bytes, stage and whether it fits, as the card's data attributes carry them.
    fn attributes(&self) -> [&str; 3] {
        [
            &self.bytes,
            &self.stage,
            if self.fits { "true" } else { "false" },
        ]
    }

    fn new(m: &StageMemory, capacity: Bytes) -> CardMemory {
        CardMemory {
            bytes: m.total.get().to_string(),
            stage: m.stage.to_string(),
            fits: m.fits,
            tint: tint(m.total, capacity),
        }
    }
}

/// A card's elements that change: found once, written by `CardNodes::write`.
struct CardNodes {
    g: web_sys::Element,
    tint: web_sys::Element,
    badge: web_sys::Element,
    coords: web_sys::Element,
    /// The card's top-left corner in the drawing.
    origin: (f64, f64),
}

/// What the cards' elements show, with the elements.
struct Drawn {
    nodes: Vec<CardNodes>,
    faces: Vec<CardFace>,
    memories: Vec<Option<CardMemory>>,
}

const SVG_NS: &str = "http://www.w3.org/2000/svg";

impl CardNodes {
    fn find(svg: &web_sys::Element, card: u32, origin: (f64, f64)) -> Option<CardNodes> {
        let g = svg
            .query_selector(&format!("[data-card='{card}']"))
            .ok()??;
        let child = |selector: &str| g.query_selector(selector).ok().flatten();
        Some(CardNodes {
            tint: child(".card-tint")?,
            badge: child(".card-badge")?,
            coords: child(".card-coords")?,
            g,
            origin,
        })
    }

    /// Writes into the card's elements whatever differs between `old` (what they show) and
    /// `new`.
    fn write(
        &self,
        old: (Option<&CardFace>, Option<&CardMemory>),
        new: (&CardFace, Option<&CardMemory>),
    ) {
        let (old_face, old_memory) = old;
        let (face, memory) = new;
        let set = |element: &web_sys::Element, name: &str, value: Option<&str>| {
            let _ = match value {
                Some(value) => element.set_attribute(name, value),
                None => element.remove_attribute(name),
            };
        };
        let over = |m: Option<&CardMemory>| m.is_some_and(|m| !m.fits);
        let class = card_class(face, memory);
        if old_face.map(|f| card_class(f, old_memory)) != Some(class.clone()) {
            set(&self.g, "class", Some(&class));
        }
        if old_face != Some(face) {
            let old = old_face;
            let was = old.map(CardFace::attributes);
            for (i, (name, value)) in CardFace::ATTRIBUTES
                .into_iter()
                .zip(face.attributes())
                .enumerate()
            {
                if was.map(|values| values[i]) != Some(value) {
                    set(&self.g, name, value);
                }
            }
            if old.map(|f| &f.badges) != Some(&face.badges) {
                set_text(&self.badge, &face.badges);
            }
            if old.map(|f| &f.coords) != Some(&face.coords) {
                set_text(&self.coords, &face.coords);
            }
        }
        if old_memory != memory {
            let (was, now) = (
                old_memory.map(CardMemory::attributes),
                memory.map(CardMemory::attributes),
            );
            for (i, name) in CardMemory::ATTRIBUTES.into_iter().enumerate() {
                let value = now.map(|values| values[i]);
                if was.map(|values| values[i]) != value {
                    set(&self.g, name, value);
                }
            }
            if old_memory.map(|m| &m.tint) != memory.map(|m| &m.tint) {
                // The `fill` presentation attribute (the page's Content-Security-Policy would
                // refuse a `style` attribute).
                set(&self.tint, "fill", memory.map(|m| m.tint.as_str()));
            }
        }
        // The "!" of a card over its capacity, after a space (as the card's other texts).
        if over(old_memory) != over(memory) {
            let mark = self.g.query_selector(".card-over").ok().flatten();
            match (over(memory), mark) {
                (true, None) => self.add_over_mark(),
                (false, Some(mark)) => {
                    if let Some(space) = mark.previous_sibling() {
                        if space.node_type() == web_sys::Node::TEXT_NODE {
                            let _ = self.g.remove_child(&space);
                        }
                    }
                    mark.remove();
                }
                _ => {}
            }
        }
    }

    fn add_over_mark(&self) {
        let Some(document) = self.g.owner_document() else {
            return;
        };
        let Ok(mark) = document.create_element_ns(Some(SVG_NS), "text") else {
            return;
        };
        let (x, y) = over_mark_at(self.origin);
        let _ = mark.set_attribute("class", "card-over");
        let _ = mark.set_attribute("x", &x.to_string());
        let _ = mark.set_attribute("y", &y.to_string());
        let _ = mark.set_attribute("text-anchor", "end");
        mark.set_text_content(Some("!"));
        let _ = self.g.append_with_str_1(" ");
        let _ = self.g.append_with_node_1(&mark);
    }
}

/// Where everything sits: a pure function of N and the node size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    gpus: u32,
    gpus_per_node: u32,
    node_columns: u32,
}

impl Layout {
    /// One box per node, two node boxes a row when there are several.
    pub fn new(gpus: u32, gpus_per_node: u32) -> Layout {
        let gpus_per_node = gpus_per_node.max(1);
        let nodes = gpus.div_ceil(gpus_per_node);
        Layout {
            gpus,
            gpus_per_node,
            node_columns: if nodes > 1 { 2 } else { 1 },
        }
    }

    fn nodes(&self) -> u32 {
        self.gpus.div_ceil(self.gpus_per_node)
    }

    fn node_size(&self) -> (f64, f64) {
        let cols = self.gpus_per_node.min(CARDS_PER_ROW);
        let rows = self.gpus_per_node.div_ceil(CARDS_PER_ROW);
        (
            2.0 * NODE_PAD + f64::from(cols) * CARD_W + f64::from(cols - 1) * GAP,
            NODE_TITLE + 2.0 * NODE_PAD + f64::from(rows) * CARD_H + f64::from(rows - 1) * GAP,
        )
    }

    /// Top-left corner of a node box.
    pub fn node_origin(&self, node: u32) -> (f64, f64) {
        let (w, h) = self.node_size();
        let col = node % self.node_columns;
        let row = node / self.node_columns;
        (
            f64::from(col) * (w + NODE_GAP),
            f64::from(row) * (h + NODE_GAP),
        )
    }

    /// Top-left corner of a card.
    pub fn card_origin(&self, card: u32) -> (f64, f64) {
        let node = card / self.gpus_per_node;
        let slot = card % self.gpus_per_node;
        let (nx, ny) = self.node_origin(node);
        (
            nx + NODE_PAD + f64::from(slot % CARDS_PER_ROW) * (CARD_W + GAP),
            ny + NODE_TITLE + NODE_PAD + f64::from(slot / CARDS_PER_ROW) * (CARD_H + GAP),
        )
    }

    /// Centre of a card.
    pub fn card_centre(&self, card: u32) -> (f64, f64) {
        let (x, y) = self.card_origin(card);
        (x + CARD_W / 2.0, y + CARD_H / 2.0)
    }

    /// The SVG view box "0 0 W H".
    pub fn view_box(&self) -> String {
        let (w, h) = self.node_size();
        let rows = self.nodes().div_ceil(self.node_columns);
        let cols = self.node_columns.min(self.nodes());
        let width = f64::from(cols) * w + f64::from(cols - 1) * NODE_GAP;
        let height = f64::from(rows) * h + f64::from(rows.saturating_sub(1)) * NODE_GAP;
        format!("-2 -2 {} {}", width + 4.0, height + 4.0)
    }

    /// The card the arrow key leads to from `card`, staying on the grid.
    pub fn neighbour(&self, card: u32, key: &str) -> Option<u32> {
        let step = CARDS_PER_ROW.min(self.gpus_per_node);
        let next = match key {
            "ArrowRight" => card.checked_add(1),
            "ArrowLeft" => card.checked_sub(1),
            "ArrowDown" => card.checked_add(step),
            "ArrowUp" => card.checked_sub(step),
            "Home" => Some(0),
            "End" => self.gpus.checked_sub(1),
            _ => None,
        }?;
        (next < self.gpus).then_some(next)
    }
}

/// A ring hop between two cards of one group.
#[derive(Clone, Debug, PartialEq)]
pub struct Hop {
    /// The group's dimension.
    pub dim: Dim,
    /// From card.
    pub from: u32,
    /// To card.
    pub to: u32,
    /// The link this hop crosses.
    pub link: Link,
}

/// The hops of the selected card's groups: consecutive members in rank order, closed into a
/// ring for the collectives (TP, CP, DP); PP is a chain of point-to-point sends.
pub fn hops(groups: &Groups, gpus_per_node: u32) -> Vec<Hop> {
    let mut out = Vec::new();
    for (dim, members) in [
        (Dim::Tp, &groups.tp),
        (Dim::Cp, &groups.cp),
        (Dim::Pp, &groups.pp),
        (Dim::Dp, &groups.dp),
    ] {
        if members.len() < 2 {
            continue;
        }
        let mut pairs: Vec<(u32, u32)> = members.windows(2).map(|w| (w[0], w[1])).collect();
        if dim != Dim::Pp && members.len() > 2 {
            pairs.push((members[members.len() - 1], members[0]));
        }
        out.extend(pairs.into_iter().map(|(from, to)| Hop {
            dim,
            from,
            to,
            link: Link::of_cards(&[from, to], gpus_per_node),
        }));
    }
    out
}

/// The hops as SVG paths, one per hop: each bent a little by its group's dimension, so that
/// hops of different groups between the same cards stay apart.
fn hops_markup(hops: &[Hop], layout: &Layout) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(hops.len() * 120);
    for hop in hops {
        let (x1, y1) = layout.card_centre(hop.from);
        let (x2, y2) = layout.card_centre(hop.to);
        let bend = match hop.dim {
            Dim::Tp => 10.0,
            Dim::Cp => -10.0,
            Dim::Pp => 22.0,
            _ => -22.0,
        };
        let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let (cx, cy) = (mx - dy / len * bend, my + dx / len * bend);
        let (dim, link) = (hop.dim.as_str(), hop.link.as_str());
        let _ = write!(
            out,
            r#"<path class="hop hop-{dim} hop-{link}" data-link="{link}" data-from="{}" data-to="{}" d="M{x1:.1},{y1:.1} Q{cx:.1},{cy:.1} {x2:.1},{y2:.1}"></path>"#,
            hop.from, hop.to
        );
    }
    out
}

/// The group's letter badge: the non-colour cue.
pub fn badge(dim: Dim) -> &'static str {
    match dim {
        Dim::Tp => "T",
        Dim::Cp => "C",
        Dim::Pp => "P",
        Dim::Dp => "D",
        Dim::Ep => "E",
        Dim::Edp => "X",
    }
}

/// The name of a group in the legend.
pub fn group_name(lang: Lang, dim: Dim) -> &'static str {
    match dim {
        Dim::Tp => lang.pick("同一个 TP 组", "Same TP group"),
        Dim::Cp => lang.pick("同一个 CP 组", "Same CP group"),
        Dim::Pp => lang.pick("同一条流水线（PP）", "Same pipeline (PP)"),
        Dim::Dp => lang.pick("同一个 DP 组", "Same DP group"),
        Dim::Ep => lang.pick("同一个 EP 组", "Same EP group"),
        Dim::Edp => lang.pick("同一个专家 DP 组", "Same expert-DP group"),
    }
}

fn focus_card(event: &KeyboardEvent, card: u32) {
    let Some(target) = event.current_target() else {
        return;
    };
    let Ok(element) = target.dyn_into::<web_sys::Element>() else {
        return;
    };
    let Some(svg) = element.closest("svg").ok().flatten() else {
        return;
    };
    if let Ok(Some(next)) = svg.query_selector(&format!("[data-card='{card}']")) {
        if let Ok(next) = next.dyn_into::<web_sys::SvgElement>() {
            let _ = next.focus();
        }
    }
}

/// The grid of cards. `plan` gives N, the node size and each card's coordinates; `groups` the
/// selected card's groups; `on_toggle` / `on_clear` are how a click or a key changes the
/// selection.
#[component]
pub fn DeviceGrid(
    /// `data-testid` of the grid ("grid-8", "grid-64").
    test_id: &'static str,
    /// The (last valid) plan.
    #[prop(into)]
    plan: Signal<Plan>,
    /// The selected card.
    #[prop(into)]
    selected: Signal<Option<u32>>,
    /// The selected card's groups.
    #[prop(into)]
    groups: Signal<Option<Groups>>,
    /// The memory each card shows, card by card (its stage's, or the even split's).
    #[prop(into)]
    memory: Signal<Vec<StageMemory>>,
    /// Click or Enter on a card.
    on_toggle: Callback<u32>,
    /// Escape.
    on_clear: Callback<()>,
) -> impl IntoView {
    let lang = use_lang();
    let (gpus, gpus_per_node) = plan.with_untracked(|p| (p.gpus(), p.gpus_per_node()));
    let layout = Layout::new(gpus, gpus_per_node);
    let nodes = layout.nodes();
    let roles = Memo::new(move |_| {
        groups.with(|groups| match groups {
            Some(g) => (0..gpus).map(|card| roles_of(g, card)).collect::<Vec<_>>(),
            None => vec![Vec::new(); gpus as usize],
        })
    });

    // Each card's coordinates, as one memo: a change of m or s leaves them equal, so the 64
    // card labels are not touched at all.
    let coord_labels = Memo::new(move |_| {
        plan.with(|p| {
            let grid = p.grid();
            (0..gpus)
                .map(|card| {
                    grid.coords(card)
                        .map(|c| format!("t{} c{} p{} d{}", c.tp, c.cp, c.pp, c.dp))
                        .unwrap_or_default()
                })
                .collect::<Vec<_>>()
        })
    });

    let node_boxes = (0..nodes)
        .map(|node| {
            let (x, y) = layout.node_origin(node);
            let (w, h) = layout.node_size();
            view! {
                <g class="node">
                    <rect class="node-box" x=x y=y width=w height=h rx="10" />
                    <text class="node-title" x=x + NODE_PAD y=y + 15.0>
                        {move || text::NODE.fill(lang.get(), &[("node", &node)])}
                    </text>
                </g>
            }
        })
        .collect_view();

    // The card under the pointer or the keyboard focus: its memory is read out below the grid.
    let pointed = RwSignal::new(None::<u32>);
    // One capacity for every card (the tint's top and the read-out's "capacity").
    let capacity = Memo::new(move |_| plan.with(|p| p.capacity()));

    // What every card shows, as two grid-wide memos: the selection's side (groups, coordinates,
    // name) and the memory's side. A PP move changes nearly every card; one effect then writes
    // only the attributes and texts that changed, instead of ~15 reactive nodes per card each
    // re-running (which cost ~4 ms per move on the 64-card grid).
    let faces = Memo::new(move |_| {
        let lang = lang.get();
        let selected = selected.get();
        roles.with(|roles| {
            coord_labels.with(|coords| {
                (0..gpus)
                    .map(|card| {
                        let i = card as usize;
                        CardFace::new(
                            lang,
                            card,
                            selected == Some(card),
                            roles.get(i).map_or(&[], Vec::as_slice),
                            coords.get(i).cloned().unwrap_or_default(),
                        )
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    let memories = Memo::new(move |_| {
        let capacity = capacity.get();
        memory.with(|m| {
            (0..gpus)
                .map(|card| m.get(card as usize).map(|m| CardMemory::new(m, capacity)))
                .collect::<Vec<_>>()
        })
    });
    // The memory in words of the card under the pointer or holding the focus: read out below
    // the grid, and that card's title (the browser's tooltip). Only that one card has a title,
    // so a move does not write 64 of them.
    let pointed_line = Memo::new(move |_| {
        let card = pointed.get()?;
        let m = memory.with(|m| m.get(card as usize).copied())?;
        Some((card, card_memory_line(lang.get(), card, &m, capacity.get())))
    });
    let svg = NodeRef::<leptos::svg::Svg>::new();
    let shown = (faces.get_untracked(), memories.get_untracked());
    // The cards are drawn as one piece of markup (one parse instead of ~20 calls into the DOM
    // per card), with the first state; their events are handled once for the whole grid below,
    // and `CardNodes::write` keeps every attribute and text up to date.
    let markup = (0..gpus)
        .map(|card| {
            let face = shown.0.get(card as usize);
            let own = shown.1.get(card as usize).and_then(Option::as_ref);
            card_markup(card, layout.card_origin(card), face, own)
        })
        .collect::<String>();
    let card_of = |target: Option<web_sys::EventTarget>| -> Option<u32> {
        let element = target?.dyn_into::<web_sys::Element>().ok()?;
        let card = element.closest("[data-card]").ok()??;
        card.get_attribute("data-card")?.parse().ok()
    };
    let on_key = move |event: KeyboardEvent| {
        let Some(card) = card_of(event.target()) else {
            return;
        };
        let key = event.key();
        match key.as_str() {
            "Enter" | " " => {
                event.prevent_default();
                on_toggle.run(card);
            }
            "Escape" => on_clear.run(()),
            other => {
                if let Some(next) = layout.neighbour(card, other) {
                    event.prevent_default();
                    focus_card(&event, next);
                }
            }
        }
    };
    let point = move |card: Option<u32>| {
        if pointed.get_untracked() != card {
            pointed.set(card);
        }
    };
    let cards = view! {
        <g
            class="cards"
            inner_html=markup
            on:click=move |event| {
                if let Some(card) = card_of(event.target()) {
                    on_toggle.run(card);
                }
            }
            on:keydown=on_key
            // The card under the pointer or holding the focus; leaving for another card (or
            // for none) says so through the event's related target.
            on:mouseover=move |event| point(card_of(event.target()))
            on:mouseout=move |event| point(card_of(event.related_target()))
            on:focusin=move |event| point(card_of(event.target()))
            on:focusout=move |event| point(card_of(event.related_target()))
        ></g>
    };
    // The one effect that keeps the cards current: it compares each card's new face and memory
    // with what its elements show and writes the difference.
    Effect::new(move |previous: Option<Option<Drawn>>| {
        let (faces, memories) = (faces.get(), memories.get());
        let drawn = match previous.flatten() {
            Some(drawn) => drawn,
            None => {
                let root = svg.get()?;
                let nodes = (0..gpus)
                    .map(|card| CardNodes::find(&root, card, layout.card_origin(card)))
                    .collect::<Option<Vec<_>>>()?;
                Drawn {
                    nodes,
                    faces: shown.0.clone(),
                    memories: shown.1.clone(),
                }
            }
        };
        for (i, node) in drawn.nodes.iter().enumerate() {
            let (Some(face), Some(memory)) = (faces.get(i), memories.get(i)) else {
                continue;
            };
            let old = (
                drawn.faces.get(i),
                drawn.memories.get(i).and_then(Option::as_ref),
            );
            node.write(old, (face, memory.as_ref()));
        }
        Some(Drawn {
            nodes: drawn.nodes,
            faces,
            memories,
        })
    });

    // The pointed card's title; the card pointed before loses its own.
    Effect::new(move |titled: Option<Option<u32>>| {
        let root = svg.get()?;
        let title = |card: u32| {
            root.query_selector(&format!("[data-card='{card}'] > title"))
                .ok()
                .flatten()
        };
        pointed_line.with(|now| {
            let card = now.as_ref().map(|(card, _)| *card);
            if let Some(before) = titled.flatten().filter(|&before| Some(before) != card) {
                if let Some(element) = title(before) {
                    set_text(&element, "");
                }
            }
            let (card, line) = now.as_ref()?;
            set_text(&title(*card)?, line);
            Some(*card)
        })
    });

    // The hops of the selected card's groups, drawn as one piece of markup: their number
    // changes with the groups, and rebuilding a list of views re-writes every attribute of
    // every path (Leptos' erased attributes are removed and set again, not compared).
    let hop_lines = move || {
        groups.with(|g| {
            g.as_ref()
                .map(|g| hops_markup(&hops(g, gpus_per_node), &layout))
                .unwrap_or_default()
        })
    };

    view! {
        <figure class="grid-figure">
            <svg
                node_ref=svg
                class="device-grid"
                data-testid=test_id
                viewBox=layout.view_box()
                role="group"
                aria-label=tr("设备网格：点一张卡看它的分组", "Device grid: pick a card to see its groups")
            >
                {node_boxes}
                <g class="hops" aria-hidden="true" inner_html=hop_lines></g>
                {cards}
            </svg>
            <p class="card-memory-detail" data-testid="card-memory-detail" aria-live="polite">
                {move || pointed_line.with(|line| line.as_ref().map(|(_, line)| line.clone()))}
            </p>
            <div class="memory-scale" data-testid="memory-scale">
                <span class="memory-scale-end">"0 GB"</span>
                <span class="memory-scale-bar" aria-hidden="true"></span>
                <span class="memory-scale-end">{move || format::bytes(capacity.get())}</span>
                <span class="memory-scale-note">
                    {move || text::SCALE.fill(lang.get(), &[("capacity", &format::bytes(capacity.get()))])}
                </span>
            </div>
            <GroupLegend groups=groups gpus_per_node=gpus_per_node />
        </figure>
    }
}

/// The legend: each lit group with its swatch, members and link.
#[component]
fn GroupLegend(#[prop(into)] groups: Signal<Option<Groups>>, gpus_per_node: u32) -> impl IntoView {
    let lang = use_lang();
    // The dimensions lit for the selected card (none without a selection): they change only
    // with the selection or the model, so the list is built again only then, and a slider
    // move rewrites only the members' texts.
    let lit = Memo::new(move |_| {
        groups.with(|g| {
            g.as_ref()
                .map(|g| g.each().map(|(dim, _)| dim).collect::<Vec<_>>())
        })
    });
    move || {
        match lit.get() {
        None => view! {
            <p class="legend-hint">
                <T zh="点任意一张卡（或用方向键 + Enter），看它的 TP、CP、PP、DP 组；再点一次或按 Esc 取消。"
                   en="Click any card (or use the arrow keys and Enter) to light up its TP, CP, PP and DP groups; click again or press Esc to clear." />
            </p>
        }
        .into_any(),
        Some(dims) => {
            let rows = dims
                .into_iter()
                .map(|dim| {
                    let detail = move || {
                        let lang = lang.get();
                        let members =
                            groups.with(|g| g.as_ref().and_then(|g| g.of(dim)).map(<[u32]>::to_vec))?;
                        Some(if members.len() > 1 {
                            let link = Link::of_cards(&members, gpus_per_node);
                            format!("{} · {}", format::cards(&members), format::link(lang, link))
                        } else {
                            lang.pick("只有自己（这一维是 1）", "only itself (degree 1)").to_string()
                        })
                    };
                    view! {
                        <li class=format!("legend-item legend-{}", dim.as_str()) data-testid=format!("legend-{}", dim.as_str())>
                            <span class=format!("swatch swatch-{}", dim.as_str()) aria-hidden="true">{badge(dim)}</span>
                            <span class="legend-name">{move || group_name(lang.get(), dim)}</span>
                            <span class="legend-members">{detail}</span>
                        </li>
                    }
                })
                .collect_view();
            view! { <ul class="legend">{rows}</ul> }.into_any()
        }
    }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parallel_core::PlanConfig;

    #[test]
    fn the_tint_runs_light_to_dark_and_saturates_at_capacity() {
        let cap = Bytes::new(80e9);
        assert_eq!(tint(Bytes::new(0.0), cap), "#eef3fb");
        assert_eq!(tint(cap, cap), "#173f87");
        assert_eq!(tint(Bytes::new(1e12), cap), tint(cap, cap));
        let shade = |b: f64| u8::from_str_radix(&tint(Bytes::new(b), cap)[1..3], 16).unwrap();
        assert!(
            shade(10e9) > shade(40e9) && shade(40e9) > shade(70e9),
            "darker with more memory"
        );
    }

    /// Card 0's hops on 64 cards, TP 8 × PP 2 (DP 4), 8 cards a machine.
    fn card_0_hops() -> Vec<Hop> {
        let plan = Plan::new(&PlanConfig {
            gpus: 64,
            tp: 8,
            pp: 2,
            ..PlanConfig::default()
        })
        .unwrap();
        hops(&plan.grid().groups(0).unwrap(), 8)
    }

    #[test]
    fn hops_close_rings_but_not_pipelines() {
        let hops = card_0_hops();
        let count = |dim| hops.iter().filter(|h| h.dim == dim).count();
        assert_eq!((count(Dim::Tp), count(Dim::Pp), count(Dim::Dp)), (8, 1, 4));
        assert!(hops
            .iter()
            .filter(|h| h.dim == Dim::Tp)
            .all(|h| h.link == Link::NvLink));
        assert!(hops
            .iter()
            .filter(|h| h.dim != Dim::Tp)
            .all(|h| h.link == Link::InfiniBand));
    }

    #[test]
    fn hops_are_drawn_as_one_path_each_naming_its_cards_and_link() {
        let drawn = card_0_hops();
        let markup = hops_markup(&drawn, &Layout::new(64, 8));
        assert_eq!(markup.matches("<path ").count(), drawn.len());
        assert!(markup.contains(
            r#"class="hop hop-tp hop-nvlink" data-link="nvlink" data-from="0" data-to="1""#
        ));
        assert!(markup
            .contains(r#"class="hop hop-pp hop-ib" data-link="ib" data-from="0" data-to="8""#));
        assert!(!markup.contains("NaN"));
    }

    #[test]
    fn card_names_start_with_the_card_s_own_text() {
        let tp_dp = [Dim::Tp, Dim::Dp];
        crate::text::testing::assert_all_used(text::ALL, || {
            for lang in [Lang::Zh, Lang::En] {
                card_label(lang, 1, false, &tp_dp, "t1 c0 p0 d0");
                card_label(lang, 0, true, &tp_dp, "t0 c0 p0 d0");
                card_label(lang, 9, false, &[], "");
                text::NODE.fill(lang, &[("node", &2)]);
                let plan = Plan::new(&PlanConfig::lesson_64_gpus()).unwrap();
                let stages = plan.memory_by_stage();
                card_memory_line(lang, 63, &stages[7], plan.capacity());
                let over = StageMemory {
                    fits: false,
                    ..stages[0]
                };
                card_memory_line(lang, 0, &over, plan.capacity());
                text::SCALE.fill(lang, &[("capacity", &"80.0 GB")]);
            }
        });
        assert_eq!(
            card_label(Lang::En, 1, false, &tp_dp, "t1 c0 p0 d0"),
            "Card 1 TD t1 c0 p0 d0: Same TP group, Same DP group"
        );
        assert_eq!(
            card_label(Lang::Zh, 0, true, &tp_dp, "t0 c0 p0 d0"),
            "卡 0 t0 c0 p0 d0（已选中）"
        );
        assert_eq!(card_label(Lang::En, 9, false, &[], ""), "Card 9");
    }

    #[test]
    fn layout_puts_nodes_in_two_columns() {
        let layout = Layout::new(64, 8);
        assert_eq!(layout.node_origin(0).1, layout.node_origin(1).1);
        assert!(layout.node_origin(2).1 > layout.node_origin(0).1);
        assert_eq!(layout.neighbour(0, "ArrowLeft"), None);
        assert_eq!(layout.neighbour(3, "ArrowDown"), Some(7));
        assert_eq!(layout.neighbour(63, "ArrowRight"), None);
    }
}
