//! One card of the device grid as a view-model and as markup: what it shows of the selection
//! ([`CardFace`]: class, group badges, coordinates, accessible name) and of its own memory
//! ([`CardMemory`]: data attributes and tint), its memory in words, and the card's first
//! markup ([`card_markup`]), which `patch` then keeps current. The markup holds only what code
//! makes of numbers and enums (ranks, coordinates, dimension ids, `true`/`false`, a colour);
//! the card's name, a sentence, is written by `patch` through the DOM.

use parallel_core::{Bytes, Dim, StageMemory};

use super::layout::{over_mark_at, CARD_H, CARD_W};
use crate::i18n::Lang;
use crate::vocab;

/// The words of a card.
mod text {
    use crate::text::Text;

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

    /// The same, for a card above 80% of its capacity.
    pub const CARD_MEMORY_TIGHT: Text = Text {
        zh: "卡 {card}：第 {stage} 段，{layers} 层；模型状态 {states} + 激活 {activations} = {total}（容量 {capacity}），偏紧：超过容量的 80%",
        en: "Card {card}: stage {stage}, {layers} layers; model states {states} + activations {activations} = {total} (capacity {capacity}), tight: above 80% of its capacity",
    };

    #[cfg(test)]
    pub const ALL: &[&Text] = &[
        &CARD,
        &CARD_SELECTED,
        &CARD_IN_GROUPS,
        &CARD_MEMORY,
        &CARD_MEMORY_OVER,
        &CARD_MEMORY_TIGHT,
    ];
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
        Dim::Offload => "O",
        Dim::Engine => "R",
    }
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
        let names: Vec<&str> = roles.iter().map(|d| vocab::group(lang, *d)).collect();
        let groups = names.join(lang.pick("、", ", "));
        text::CARD_IN_GROUPS.fill(lang, &[("face", &face), ("groups", &groups)])
    }
}

/// A card's memory in words (its stage, layers, states, activations, total, capacity).
pub(super) fn card_memory_line(lang: Lang, card: u32, m: &StageMemory, capacity: Bytes) -> String {
    let template = if !m.fits {
        &text::CARD_MEMORY_OVER
    } else if m.tight {
        &text::CARD_MEMORY_TIGHT
    } else {
        &text::CARD_MEMORY
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
pub(super) struct CardFace {
    class: String,
    groups: Option<String>,
    selected: bool,
    label: String,
    pub(super) badges: String,
    pub(super) coords: String,
}

impl CardFace {
    /// The card's attributes of the selection, in the order of [`CardFace::attributes`] (its
    /// name, `aria-label`, is [`CardFace::label`]).
    pub(super) const ATTRIBUTES: [&'static str; 3] =
        ["data-groups", "data-selected", "aria-pressed"];

    /// Its groups (dimension ids) and whether it is selected (twice: for tests and for
    /// assistive technology); `None` leaves the attribute out.
    pub(super) fn attributes(&self) -> [Option<&str>; 3] {
        [
            self.groups.as_deref(),
            self.selected.then_some("true"),
            Some(if self.selected { "true" } else { "false" }),
        ]
    }

    /// The card's name (its `aria-label`): a sentence in the page's language.
    pub(super) fn label(&self) -> &str {
        &self.label
    }

    /// The face as [`card_markup`] writes it: without a name, so that `patch` writes the
    /// name through the DOM.
    pub(super) fn unnamed(mut self) -> CardFace {
        self.label.clear();
        self
    }

    pub(super) fn new(
        lang: Lang,
        card: u32,
        selected: bool,
        roles: &[Dim],
        coords: String,
    ) -> CardFace {
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

/// What a card shows of its own memory: the data attributes and the tint. (Its memory in words
/// is read out below the grid, and is the title of the card under the pointer or focus only.)
#[derive(Clone, Debug, PartialEq)]
pub(super) struct CardMemory {
    bytes: String,
    stage: String,
    pub(super) fits: bool,
    pub(super) tight: bool,
    pub(super) tint: String,
}

impl CardMemory {
    /// The card's data attributes of its memory, in the order of [`CardMemory::attributes`].
    pub(super) const ATTRIBUTES: [&'static str; 4] =
        ["data-bytes", "data-stage", "data-fits", "data-tight"];

    /// Total bytes, stage, whether it fits and whether it is tight, as the card's data
    /// attributes carry them.
    pub(super) fn attributes(&self) -> [&str; 4] {
        let flag = |b: bool| if b { "true" } else { "false" };
        [&self.bytes, &self.stage, flag(self.fits), flag(self.tight)]
    }

    pub(super) fn new(m: &StageMemory, capacity: Bytes) -> CardMemory {
        CardMemory {
            bytes: m.total.get().to_string(),
            stage: m.stage.to_string(),
            fits: m.fits,
            tight: m.tight,
            tint: tint(m.total, capacity),
        }
    }
}

/// A card's class: its groups, whether it is selected, and whether it is over its capacity
/// (`over`) or above 80% of it (`tight`: a dashed outline, the cue beside the tint).
pub(super) fn card_class(face: &CardFace, memory: Option<&CardMemory>) -> String {
    match memory {
        Some(m) if !m.fits => format!("{} over", face.class),
        Some(m) if m.tight => format!("{} tight", face.class),
        _ => face.class.clone(),
    }
}

/// One card as SVG markup, in the state `face` and `own` describe, without its name (`patch`
/// writes that). The spaces between the texts are not drawn (SVG ignores text outside
/// `<text>`); they keep the card's text "1 TD t0 c0 p0 d1" in words for tools that read it,
/// matching the start of its name.
///
/// Nothing in it is text from a reader, a link or a config: the rank, the position, the
/// coordinates and the memory are numbers; the class, `data-groups` and the badges are made of
/// dimension ids and letters (`card`, `role-tp`, `T`, `★`); the rest is `true`/`false` and a
/// colour `#rrggbb`. So it is written without escaping (`card_markup_is_made_of_code_s_words`
/// checks that no value can end an attribute or a tag).
pub(super) fn card_markup(
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
            let _ = write!(g, r#" {name}="{value}""#);
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
        face.map_or("", |f| f.badges.as_str()),
        x + 8.0,
        y + CARD_H - 8.0,
        face.map_or("", |f| f.coords.as_str()),
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

#[cfg(test)]
mod tests {
    use super::*;
    use parallel_core::{Plan, PlanConfig};

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

    /// Every card of the 64-card grid, with a card selected (groups and badges) and over its
    /// capacity, in both languages: the markup has no value that could end an attribute or a
    /// tag, and no name (`patch` writes it).
    #[test]
    fn card_markup_is_made_of_code_s_words() {
        let plan = Plan::new(&PlanConfig {
            tp: 4,
            pp: 2,
            ..PlanConfig::lesson_64_gpus()
        })
        .unwrap();
        let grid = plan.grid();
        let groups = grid.groups(5).unwrap();
        let stages = plan.memory_by_stage();
        for lang in [Lang::Zh, Lang::En] {
            for card in 0..plan.gpus() {
                let roles = crate::lab::roles_of(&groups, card);
                let c = grid.coords(card).unwrap();
                let coords = format!("t{} c{} p{} d{}", c.tp, c.cp, c.pp, c.dp);
                let face = CardFace::new(lang, card, card == 5, &roles, coords).unnamed();
                let own = StageMemory {
                    fits: card % 2 == 0,
                    tight: card % 3 == 0,
                    ..stages[0]
                };
                let own = CardMemory::new(&own, plan.capacity());
                let markup = card_markup(card, (12.5, 40.0), Some(&face), Some(&own));
                let values: Vec<&str> = markup.split('"').skip(1).step_by(2).collect();
                assert!(values.len() > 10, "{markup}");
                for value in values {
                    assert!(!value.contains(['<', '>', '&']), "{value:?} in {markup}");
                }
                let texts = markup
                    .split('>')
                    .filter_map(|part| part.split('<').next())
                    .collect::<String>();
                assert!(!texts.contains('&'), "{markup}");
                assert!(!markup.contains("aria-label"), "{markup}");
            }
        }
    }

    #[test]
    fn card_names_start_with_the_card_s_own_text() {
        let tp_dp = [Dim::Tp, Dim::Dp];
        crate::text::testing::assert_all_used(text::ALL, || {
            for lang in [Lang::Zh, Lang::En] {
                card_label(lang, 1, false, &tp_dp, "t1 c0 p0 d0");
                card_label(lang, 0, true, &tp_dp, "t0 c0 p0 d0");
                card_label(lang, 9, false, &[], "");
                let plan = Plan::new(&PlanConfig::lesson_64_gpus()).unwrap();
                let stages = plan.memory_by_stage();
                card_memory_line(lang, 63, &stages[7], plan.capacity());
                let over = StageMemory {
                    fits: false,
                    ..stages[0]
                };
                card_memory_line(lang, 0, &over, plan.capacity());
                let tight = StageMemory {
                    tight: true,
                    ..stages[0]
                };
                card_memory_line(lang, 0, &tight, plan.capacity());
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
}
