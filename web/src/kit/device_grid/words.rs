//! A card's words: its accessible name (what it shows, then the same in words) and its memory
//! read out below the grid, in training or in the rollout phase, in the page's language.

use std::fmt::Display;

use parallel_core::{Bytes, Dim, StageMemory};

use crate::kit::format;
use crate::kit::i18n::Lang;
use crate::kit::vocab;
use crate::state::lab::CardLoad;

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

/// The words of a card.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
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

        /// A card's runtime terms inside its memory line (SPEC §24), when they are counted.
        pub const RUNTIME_PART: Text = Text {
            zh: " + 运行时 {runtime}",
            en: " + runtime {runtime}",
        };
        /// A card's memory, read out on hover or focus.
        pub const CARD_MEMORY: Text = Text {
            zh: "卡 {card}：第 {stage} 段，{layers} 层；模型状态 {states} + 激活 {activations}{runtime} = {total}（容量 {capacity}）",
            en: "Card {card}: stage {stage}, {layers} layers; model states {states} + activations {activations}{runtime} = {total} (capacity {capacity})",
        };
        /// The same, for a card over its capacity.
        pub const CARD_MEMORY_OVER: Text = Text {
            zh: "卡 {card}：第 {stage} 段，{layers} 层；模型状态 {states} + 激活 {activations}{runtime} = {total}，超过容量 {capacity}",
            en: "Card {card}: stage {stage}, {layers} layers; model states {states} + activations {activations}{runtime} = {total}, over its capacity of {capacity}",
        };

        /// The same, for a card above the safe share (`safe`) of its capacity.
        pub const CARD_MEMORY_TIGHT: Text = Text {
            zh: "卡 {card}：第 {stage} 段，{layers} 层；模型状态 {states} + 激活 {activations}{runtime} = {total}（容量 {capacity}），偏紧：超过容量的 {safe}",
            en: "Card {card}: stage {stage}, {layers} layers; model states {states} + activations {activations}{runtime} = {total} (capacity {capacity}), tight: above {safe} of its capacity",
        };

        /// A card's memory in the rollout phase (SPEC §15).
        pub const ROLLOUT_MEMORY: Text = Text {
            zh: "卡 {card}：推理引擎 {engine}；BF16 权重 {weights} + KV cache {kv} = {total}（容量 {capacity}）",
            en: "Card {card}: rollout engine {engine}; BF16 weights {weights} + KV cache {kv} = {total} (capacity {capacity})",
        };
        /// The same, over its capacity.
        pub const ROLLOUT_MEMORY_OVER: Text = Text {
            zh: "卡 {card}：推理引擎 {engine}；BF16 权重 {weights} + KV cache {kv} = {total}，超过容量 {capacity}",
            en: "Card {card}: rollout engine {engine}; BF16 weights {weights} + KV cache {kv} = {total}, over its capacity of {capacity}",
        };
        /// The same, above the safe share (`safe`) of its capacity.
        pub const ROLLOUT_MEMORY_TIGHT: Text = Text {
            zh: "卡 {card}：推理引擎 {engine}；BF16 权重 {weights} + KV cache {kv} = {total}（容量 {capacity}），偏紧：超过容量的 {safe}",
            en: "Card {card}: rollout engine {engine}; BF16 weights {weights} + KV cache {kv} = {total} (capacity {capacity}), tight: above {safe} of its capacity",
        };
    }
}

/// A card's accessible name. It starts with what the card shows, in its order (rank, group
/// badges, coordinates: assistive technology and voice control find it by that text), then
/// says the same in words.
pub(super) fn card_label(
    lang: Lang,
    card: u32,
    selected: bool,
    roles: &[Dim],
    coords: &str,
) -> String {
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

/// A card's memory in words: in training its stage, layers, states, activations, total and
/// capacity; in the rollout phase its engine, weights, KV cache, total and capacity.
pub(super) fn card_load_line(lang: Lang, card: u32, load: &CardLoad, capacity: Bytes) -> String {
    let (m, engine, tight) = match load {
        CardLoad::Training(m) => return card_memory_line(lang, card, m, capacity),
        CardLoad::Rollout { memory, engine } => (memory, engine, memory.tight),
    };
    let safe = format::safe_share();
    let mut args: Vec<(&str, &dyn Display)> = vec![
        ("card", &card),
        ("engine", engine),
        ("weights", &m.weights),
        ("kv", &m.kv_cache),
        ("total", &m.total),
        ("capacity", &capacity),
    ];
    let template = if !m.fits {
        &text::ROLLOUT_MEMORY_OVER
    } else if tight {
        args.push(("safe", &safe));
        &text::ROLLOUT_MEMORY_TIGHT
    } else {
        &text::ROLLOUT_MEMORY
    };
    template.fill(lang, &args)
}

/// A training card's memory in words (its stage, layers, states, activations, total,
/// capacity).
fn card_memory_line(lang: Lang, card: u32, m: &StageMemory, capacity: Bytes) -> String {
    let safe = format::safe_share();
    let runtime = if m.runtime.get() > 0.0 {
        text::RUNTIME_PART.fill(lang, &[("runtime", &m.runtime)])
    } else {
        String::new()
    };
    let mut args: Vec<(&str, &dyn Display)> = vec![
        ("card", &card),
        ("stage", &m.stage),
        ("layers", &m.layers),
        ("states", &m.model_states),
        ("activations", &m.activations),
        ("runtime", &runtime),
        ("total", &m.total),
        ("capacity", &capacity),
    ];
    let template = if !m.fits {
        &text::CARD_MEMORY_OVER
    } else if m.tight {
        args.push(("safe", &safe));
        &text::CARD_MEMORY_TIGHT
    } else {
        &text::CARD_MEMORY
    };
    template.fill(lang, &args)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use parallel_core::{Plan, PlanConfig, Rollout, RolloutReport};

    /// The rollout memory of the lesson's 8 cards with the default engines: the rollout card
    /// of this file's tests and of `card`'s.
    pub(in crate::kit::device_grid) fn lesson_rollout() -> RolloutReport {
        let config = PlanConfig {
            rollout: Some(Rollout::default()),
            ..PlanConfig::lesson_8_gpus()
        };
        Plan::new(&config).unwrap().report().rollout.unwrap()
    }

    #[test]
    fn card_names_start_with_the_card_s_own_text() {
        let tp_dp = [Dim::Tp, Dim::Dp];
        crate::kit::text::testing::assert_all_used(text::ALL, || {
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
                let runtime = Plan::new(&PlanConfig {
                    runtime_memory: true,
                    ..PlanConfig::lesson_64_gpus()
                })
                .unwrap();
                let line =
                    card_memory_line(lang, 5, &runtime.memory_by_stage()[0], plan.capacity());
                assert!(
                    line.contains(lang.pick(" + 运行时 ", " + runtime ")),
                    "{line}"
                );
                let rollout = lesson_rollout();
                for (fits, tight) in [(true, false), (false, false), (true, true)] {
                    let memory = parallel_core::RolloutReport {
                        fits,
                        tight,
                        ..rollout
                    };
                    let load = CardLoad::Rollout { engine: 0, memory };
                    card_load_line(lang, 3, &load, plan.capacity());
                }
            }
        });
        let memory = lesson_rollout();
        let load = CardLoad::Rollout { engine: 0, memory };
        let line = card_load_line(Lang::En, 3, &load, Bytes::new(80e9));
        assert!(
            line.starts_with("Card 3: rollout engine 0; BF16 weights "),
            "{line}"
        );
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
