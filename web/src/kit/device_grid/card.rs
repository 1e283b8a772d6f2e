//! One card of the device grid as view-models, one per part of the card that changes on its
//! own: what it shows of the selection ([`CardFace`]: class, groups, badges), its name and
//! coordinates ([`CardName`]), its memory ([`CardMemory`]: data attributes and tint) and whether
//! that memory fits ([`CardFit`]); and the tint's scale. `cards` binds each part to the card's
//! elements.

use parallel_core::{Bytes, Dim};

use super::words::{badge, card_label};
use crate::kit::i18n::Lang;
use crate::state::lab::CardLoad;

/// The tint of a card with `total` of `capacity` in use: a single-hue sequential scale (light
/// to dark blue, readable without colour vision), saturating at the capacity.
pub fn tint(total: Bytes, capacity: Bytes) -> String {
    const LIGHT: (f64, f64, f64) = (238.0, 243.0, 251.0);
    const DARK: (f64, f64, f64) = (23.0, 63.0, 135.0);
    let f = parallel_core::margin::fullness(total, capacity);
    let mix = |a: f64, b: f64| (a + (b - a) * f).round() as u8; // figures: a colour at the core's fullness
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(LIGHT.0, DARK.0),
        mix(LIGHT.1, DARK.1),
        mix(LIGHT.2, DARK.2)
    )
}

/// What a card shows of the selection: its class (groups and selection), its groups
/// (`data-groups`), whether it is selected (`data-selected`, `aria-pressed`) and its badges.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct CardFace {
    class: String,
    groups: Option<String>,
    selected: bool,
    badges: String,
}

impl CardFace {
    /// Its groups as dimension ids ("tp dp"); `None` leaves `data-groups` out.
    pub(super) fn groups(&self) -> Option<String> {
        self.groups.clone()
    }

    /// Its class without its fit: "card", its groups' roles, and "selected".
    pub(super) fn class(&self) -> &String {
        &self.class
    }

    /// Whether it is the selected card (`data-selected`, `aria-pressed`).
    pub(super) fn is_selected(&self) -> bool {
        self.selected
    }

    /// The group badges ("TD"), or "★" on the selected card.
    pub(super) fn badges(&self) -> String {
        self.badges.clone()
    }
}

/// A card's name (its `aria-label`, a sentence in the page's language) and its coordinates
/// ("t0 c0 p1 d2", or "r2" in the rollout phase).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct CardName {
    label: String,
    coords: String,
}

impl CardName {
    pub(super) fn label(&self) -> String {
        self.label.clone()
    }

    pub(super) fn coords(&self) -> String {
        self.coords.clone()
    }
}

/// What a card shows of the selection and its name: the card `card`, selected or not, in the
/// groups `roles` of the selected card, at `coords`.
pub(super) fn card_face(
    lang: Lang,
    card: u32,
    selected: bool,
    roles: &[Dim],
    coords: String,
) -> (CardFace, CardName) {
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
    let face = CardFace {
        class,
        groups,
        selected,
        badges,
    };
    let name = CardName {
        label: card_label(lang, card, selected, roles, &coords),
        coords,
    };
    (face, name)
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
    tint: String,
    /// On a card holding the hottest expert under uneven routing, its rank's load over an
    /// even one (SPEC §20, `data-expert-load`).
    hot: Option<String>,
}

/// Whether a card's memory fits its capacity, and whether it is above the safe share of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct CardFit {
    pub(super) fits: bool,
    pub(super) tight: bool,
}

impl CardFit {
    /// `data-fits` and `data-tight` as the card carries them.
    pub(super) fn flag(b: bool) -> &'static str {
        if b {
            "true"
        } else {
            "false"
        }
    }
}

impl CardMemory {
    /// Total bytes (`data-bytes`).
    pub(super) fn bytes(&self) -> String {
        self.bytes.clone()
    }

    /// Its stage in training (`data-stage`); `None` leaves the attribute out.
    pub(super) fn stage(&self) -> Option<String> {
        self.stage.clone()
    }

    /// Its engine in the rollout phase (`data-engine`); `None` leaves the attribute out.
    pub(super) fn engine(&self) -> Option<String> {
        self.engine.clone()
    }

    /// The tint bar's `fill` (a presentation attribute: the page's Content-Security-Policy
    /// refuses a `style` attribute).
    pub(super) fn tint(&self) -> String {
        self.tint.clone()
    }

    /// Its rank's load over an even one where it holds the hottest expert
    /// (`data-expert-load`); `None` leaves the attribute out.
    pub(super) fn hot(&self) -> Option<String> {
        self.hot.clone()
    }

    /// A card's memory and fit; `hot`, its rank's load where it holds the hottest expert.
    pub(super) fn new(load: &CardLoad, capacity: Bytes, hot: Option<f64>) -> (CardMemory, CardFit) {
        let (total, fits, tight, stage, engine) = match load {
            CardLoad::Training(m) => (m.total, m.fits, m.tight, Some(m.stage), None),
            CardLoad::Rollout { engine, memory } => {
                (memory.total, memory.fits, memory.tight, None, Some(*engine))
            }
        };
        let memory = CardMemory {
            bytes: total.get().to_string(),
            stage: stage.map(|s| s.to_string()),
            engine: engine.map(|e| e.to_string()),
            tint: tint(total, capacity),
            hot: hot.map(parallel_core::numbers::quoted),
        };
        (memory, CardFit { fits, tight })
    }
}

/// A card's class: its groups and whether it is selected (`class`, [`CardFace::class`]), and whether it is over its capacity
/// (`over`) or above the safe share of it (`tight`: a dashed outline, the cue beside the tint).
pub(super) fn card_class(class: &str, fit: Option<CardFit>) -> String {
    match fit {
        Some(f) if !f.fits => format!("{class} over"),
        Some(f) if f.tight => format!("{class} tight"),
        _ => class.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::words::tests::lesson_rollout;
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

    /// Card 5 of the 64-card grid selected (TP 4 × PP 2): its class, groups, badges and name;
    /// a card of its TP group; a card of none of its groups; and the class of a card over its
    /// capacity or tight.
    #[test]
    fn a_card_shows_its_groups_selection_and_fit() {
        let plan = Plan::new(&PlanConfig {
            tp: 4,
            pp: 2,
            ..PlanConfig::lesson_64_gpus()
        })
        .unwrap();
        let grid = plan.grid();
        let groups = grid.groups(5).unwrap();
        let face = |card: u32| {
            let roles = crate::state::lab::roles_of(&groups, card);
            let c = grid.coords(card).unwrap();
            let coords = format!("t{} c{} p{} d{}", c.tp, c.cp, c.pp, c.dp);
            card_face(Lang::En, card, card == 5, &roles, coords)
        };
        let (selected, name) = face(5);
        assert!(selected.is_selected());
        assert!(selected.class.starts_with("card role-tp"), "{selected:?}");
        assert!(selected.class.ends_with(" selected"), "{selected:?}");
        assert_eq!(selected.badges(), "★");
        assert!(name.coords().starts_with("t1 c0 "), "{name:?}");
        assert_eq!(name.label(), format!("Card 5 {} (selected)", name.coords()));

        let (same_tp, name) = face(4);
        assert!(!same_tp.is_selected());
        assert!(same_tp.groups().unwrap().starts_with("tp"), "{same_tp:?}");
        assert!(same_tp.badges().starts_with('T'), "{same_tp:?}");
        assert!(name.label().contains("Same TP group"), "{name:?}");

        let stranger = (0..plan.gpus())
            .map(|card| face(card).0)
            .find(|f| f.groups().is_none())
            .unwrap();
        assert_eq!(stranger.class, "card");
        assert_eq!(stranger.badges(), "");

        let over = CardFit {
            fits: false,
            tight: true,
        };
        let tight = CardFit {
            fits: true,
            tight: true,
        };
        assert_eq!(card_class(stranger.class(), Some(over)), "card over");
        assert_eq!(card_class(stranger.class(), Some(tight)), "card tight");
        assert_eq!(card_class(stranger.class(), None), "card");

        let stage = StageMemory {
            fits: false,
            ..plan.memory_by_stage()[1]
        };
        let (memory, fit) = CardMemory::new(&CardLoad::Training(stage), plan.capacity(), None);
        assert_eq!(
            (memory.stage(), memory.engine(), fit.fits),
            (Some(String::from("1")), None, false)
        );
        assert_eq!(memory.bytes(), stage.total.get().to_string());
        assert_eq!(memory.tint(), tint(stage.total, plan.capacity()));
    }

    #[test]
    fn a_rollout_card_carries_its_engine_and_no_stage() {
        let memory = lesson_rollout();
        let load = CardLoad::Rollout { engine: 3, memory };
        let (own, fit) = CardMemory::new(&load, Bytes::new(80e9), None);
        assert_eq!(
            (own.stage(), own.engine()),
            (None, Some(String::from("3"))),
            "no stage, engine 3"
        );
        assert_eq!(own.bytes(), memory.total.get().to_string());
        assert_eq!((fit.fits, fit.tight), (memory.fits, memory.tight));
    }
}
