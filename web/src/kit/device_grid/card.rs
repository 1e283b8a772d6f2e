//! One card of the device grid as a view-model and as markup: what it shows of the selection
//! ([`CardFace`]: class, group badges, coordinates, accessible name) and of its own memory
//! ([`CardMemory`]: data attributes and tint), its memory in words, and the card's first
//! markup ([`card_markup`]), which `patch` then keeps current. The markup holds only what code
//! makes of numbers and enums (ranks, coordinates, dimension ids, `true`/`false`, a colour);
//! the card's name, a sentence, is written by `patch` through the DOM.

use parallel_core::{Bytes, Dim};

use super::layout::{over_mark_at, CARD_H, CARD_W};
use super::words::{badge, card_label};
use crate::kit::i18n::Lang;
use crate::state::lab::CardLoad;

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
    /// Its pipeline stage, in training.
    stage: Option<String>,
    /// Its engine, in the rollout phase.
    engine: Option<String>,
    pub(super) fits: bool,
    pub(super) tight: bool,
    pub(super) tint: String,
}

impl CardMemory {
    /// The card's data attributes of its memory, in the order of [`CardMemory::attributes`].
    pub(super) const ATTRIBUTES: [&'static str; 5] = [
        "data-bytes",
        "data-stage",
        "data-engine",
        "data-fits",
        "data-tight",
    ];

    /// Total bytes, stage (training) or engine (rollout), whether it fits and whether it is
    /// tight, as the card's data attributes carry them; `None` leaves the attribute out.
    pub(super) fn attributes(&self) -> [Option<&str>; 5] {
        let flag = |b: bool| Some(if b { "true" } else { "false" });
        [
            Some(&self.bytes),
            self.stage.as_deref(),
            self.engine.as_deref(),
            flag(self.fits),
            flag(self.tight),
        ]
    }

    pub(super) fn new(load: &CardLoad, capacity: Bytes) -> CardMemory {
        let (total, fits, tight, stage, engine) = match load {
            CardLoad::Training(m) => (m.total, m.fits, m.tight, Some(m.stage), None),
            CardLoad::Rollout { engine, memory } => {
                (memory.total, memory.fits, memory.tight, None, Some(*engine))
            }
        };
        CardMemory {
            bytes: total.get().to_string(),
            stage: stage.map(|s| s.to_string()),
            engine: engine.map(|e| e.to_string()),
            fits,
            tight,
            tint: tint(total, capacity),
        }
    }
}

/// A card's class: its groups, whether it is selected, and whether it is over its capacity
/// (`over`) or above the safe share of it (`tight`: a dashed outline, the cue beside the tint).
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
            attribute(name, value);
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
    use parallel_core::{Plan, PlanConfig, StageMemory};

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
                let roles = crate::state::lab::roles_of(&groups, card);
                let c = grid.coords(card).unwrap();
                let coords = format!("t{} c{} p{} d{}", c.tp, c.cp, c.pp, c.dp);
                let face = CardFace::new(lang, card, card == 5, &roles, coords).unnamed();
                let own = StageMemory {
                    fits: card % 2 == 0,
                    tight: card % 3 == 0,
                    ..stages[0]
                };
                let own = CardMemory::new(&CardLoad::Training(own), plan.capacity());
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
    fn a_rollout_card_carries_its_engine_and_no_stage() {
        let memory = Plan::new(&PlanConfig {
            rollout: Some(parallel_core::Rollout::default()),
            ..PlanConfig::lesson_8_gpus()
        })
        .unwrap()
        .report()
        .rollout
        .unwrap();
        let load = CardLoad::Rollout { engine: 3, memory };
        let own = CardMemory::new(&load, Bytes::new(80e9));
        assert_eq!(
            own.attributes()[1..3],
            [None, Some("3")],
            "no stage, engine 3"
        );
        assert_eq!(
            own.attributes()[0],
            Some(memory.total.get().to_string().as_str())
        );
    }
}
