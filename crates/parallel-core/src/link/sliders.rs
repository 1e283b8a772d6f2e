//! The values a grid's sliders offer: one source for the page's sliders, the CLI's `defaults`
//! (which the browser tests read) and the plan search's "load into a grid".
//!
//! TP reaches a node's cards (TP stays within a node, as the lesson has it), PP and CP the
//! same 8, micro-batches 1–64, and the sequence 1,024–131,072 tokens in powers of two. EP and
//! the RL panel's cards per engine go over powers of two up to the grid's N; the log-prob
//! chunk over 256–131,072 tokens, with "the whole micro-batch" (0) before them.

use serde::Serialize;

use super::GridId;
use crate::config::{Field, PlanConfig, RolloutField};

/// Cards in a node on both grids: the most TP, and the most PP and CP, a grid's slider offers.
pub const GRID_MAX_DEGREE: u32 = 8;

/// One slider of a grid (its controls, then the RL panel's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slider {
    /// t.
    Tp,
    /// p.
    Pp,
    /// c.
    Cp,
    /// m.
    MicroBatches,
    /// s.
    SeqLen,
    /// e (MoE models only).
    Ep,
    /// E, cards per rollout engine.
    GpusPerEngine,
    /// Tokens whose log-probabilities are computed at once (0: the whole micro-batch).
    LogProbsChunk,
}

/// The values a slider offers: `min` to `max`, every whole number or (`powers_of_two`) every
/// power of two; with `zero`, 0 as well, one position before `min`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Range {
    /// The config field the slider sets ([`Slider::field`]), written as its key (`"tp"`,
    /// `"rollout.gpus_per_engine"`, …).
    pub field: Field,
    /// The smallest value above 0.
    pub min: u32,
    /// The largest value.
    pub max: u32,
    /// Whether it moves over powers of two.
    pub powers_of_two: bool,
    /// Whether 0 comes first.
    pub zero: bool,
}

impl Range {
    /// Where PageUp (`up`) or PageDown takes a slider over every whole number from `value`:
    /// to the next power of two above it, or the one below, held to the range. The lesson's
    /// values are powers of two (m = 8, 16, 32; TP 2, 4, 8), so a student reaches each in a
    /// press or two where the arrows take one step each (m from 8 to 32: 2 presses, not 24).
    /// `None` on a slider over powers of two, whose positions are one doubling apart already.
    ///
    /// ```
    /// use parallel_core::link::Slider;
    /// let m = Slider::MicroBatches.range(8);
    /// assert_eq!(m.page(8, true), Some(16));
    /// assert_eq!(m.page(12, true), Some(16));
    /// assert_eq!(m.page(12, false), Some(8));
    /// assert_eq!(m.page(64, true), Some(64));
    /// assert_eq!(Slider::Tp.range(8).page(3, true), Some(4));
    /// assert_eq!(Slider::SeqLen.range(8).page(4096, true), None);
    /// ```
    pub fn page(&self, value: u32, up: bool) -> Option<u32> {
        if self.powers_of_two || self.zero {
            return None;
        }
        let next = if up {
            value
                .saturating_add(1)
                .checked_next_power_of_two()
                .unwrap_or(self.max)
        } else if value <= 1 {
            1
        } else {
            1 << (value - 1).ilog2()
        };
        Some(next.clamp(self.min, self.max))
    }

    /// Whether the slider can show `value`.
    ///
    /// ```
    /// use parallel_core::link::{GridId, Slider};
    /// let seq = Slider::SeqLen.range(GridId::Eight.gpus());
    /// assert!(seq.offers(4096) && !seq.offers(3000) && !seq.offers(262_144));
    /// assert!(Slider::LogProbsChunk.range(8).offers(0));
    /// ```
    pub fn offers(&self, value: u32) -> bool {
        (value == 0 && self.zero)
            || ((self.min..=self.max).contains(&value)
                && (!self.powers_of_two || value.is_power_of_two()))
    }
}

impl Slider {
    /// Every slider, in page order.
    pub const ALL: [Slider; 8] = [
        Slider::Tp,
        Slider::Pp,
        Slider::Cp,
        Slider::MicroBatches,
        Slider::SeqLen,
        Slider::Ep,
        Slider::GpusPerEngine,
        Slider::LogProbsChunk,
    ];

    /// The config field it sets (where its errors are shown).
    ///
    /// ```
    /// use parallel_core::link::Slider;
    /// use parallel_core::{Field, RolloutField};
    /// assert_eq!(Slider::MicroBatches.field(), Field::MicroBatches);
    /// assert_eq!(Slider::GpusPerEngine.field(), Field::InRollout(RolloutField::GpusPerEngine));
    /// ```
    pub const fn field(self) -> Field {
        match self {
            Slider::Tp => Field::Tp,
            Slider::Pp => Field::Pp,
            Slider::Cp => Field::Cp,
            Slider::MicroBatches => Field::MicroBatches,
            Slider::SeqLen => Field::SeqLen,
            Slider::Ep => Field::Ep,
            Slider::GpusPerEngine => Field::InRollout(RolloutField::GpusPerEngine),
            Slider::LogProbsChunk => Field::LogProbsChunk,
        }
    }

    /// Its values on a grid of `gpus` cards.
    pub const fn range(self, gpus: u32) -> Range {
        let gpus = if gpus == 0 { 1 } else { gpus };
        let (min, max, powers_of_two, zero) = match self {
            Slider::Tp | Slider::Pp | Slider::Cp => (1, GRID_MAX_DEGREE, false, false),
            Slider::MicroBatches => (1, 64, false, false),
            Slider::SeqLen => (1024, 131_072, true, false),
            Slider::Ep | Slider::GpusPerEngine => (1, gpus, true, false),
            Slider::LogProbsChunk => (256, 131_072, true, true),
        };
        Range {
            field: self.field(),
            min,
            max,
            powers_of_two,
            zero,
        }
    }

    /// Its value in a plan (E: 0 without rollout).
    pub fn get(self, c: &PlanConfig) -> u32 {
        match self {
            Slider::Tp => c.tp,
            Slider::Pp => c.pp,
            Slider::Cp => c.cp,
            Slider::MicroBatches => c.micro_batches,
            Slider::SeqLen => c.seq_len,
            Slider::Ep => c.ep,
            Slider::GpusPerEngine => c.rollout.map_or(0, |r| r.gpus_per_engine),
            Slider::LogProbsChunk => c.log_probs_chunk,
        }
    }

    /// Sets its value in a plan (E only where the plan has rollout engines).
    pub fn set(self, c: &mut PlanConfig, value: u32) {
        match self {
            Slider::Tp => c.tp = value,
            Slider::Pp => c.pp = value,
            Slider::Cp => c.cp = value,
            Slider::MicroBatches => c.micro_batches = value,
            Slider::SeqLen => c.seq_len = value,
            Slider::Ep => c.ep = value,
            Slider::GpusPerEngine => {
                if let Some(r) = c.rollout.as_mut() {
                    r.gpus_per_engine = value;
                }
            }
            Slider::LogProbsChunk => c.log_probs_chunk = value,
        }
    }
}

/// The most model chunks per stage a grid's schedule control offers (interleaved, v = 2).
pub const GRID_MAX_CHUNKS: u32 = 2;

impl GridId {
    /// Whether this grid's controls can show `c`: its N and node size, every slider's value
    /// among those offered, one sequence per micro-batch and at most
    /// [`GRID_MAX_CHUNKS`] chunks per stage.
    ///
    /// ```
    /// use parallel_core::link::GridId;
    /// use parallel_core::PlanConfig;
    /// let lesson = PlanConfig::lesson_64_gpus();
    /// assert_eq!(GridId::for_plan(&lesson), Some(GridId::SixtyFour));
    /// let long = PlanConfig { seq_len: 262_144, ..lesson };
    /// assert_eq!(GridId::for_plan(&long), None);
    /// ```
    pub fn shows(self, c: &PlanConfig) -> bool {
        c.gpus == self.gpus()
            && c.gpus_per_node == self.base().gpus_per_node
            && c.micro_batch_size == 1
            && c.virtual_stages <= GRID_MAX_CHUNKS
            && Slider::ALL
                .into_iter()
                .filter(|s| *s != Slider::GpusPerEngine || c.rollout.is_some())
                .all(|s| s.range(self.gpus()).offers(s.get(c)))
    }

    /// The grid whose controls can show `c`, if one can.
    pub fn for_plan(c: &PlanConfig) -> Option<GridId> {
        GridId::ALL.into_iter().find(|g| g.shows(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_grids_start_on_plans_their_sliders_show() {
        for grid in GridId::ALL {
            assert!(grid.shows(&grid.start()), "{grid:?}");
            assert!(grid.shows(&grid.base()), "{grid:?}");
        }
    }

    #[test]
    fn a_value_off_a_slider_keeps_the_plan_off_the_grids() {
        let lesson = PlanConfig::lesson_8_gpus();
        for off in [
            PlanConfig {
                tp: 16,
                ..lesson.clone()
            },
            PlanConfig {
                micro_batches: 65,
                ..lesson.clone()
            },
            PlanConfig {
                seq_len: 3000,
                ..lesson.clone()
            },
            PlanConfig {
                micro_batch_size: 2,
                ..lesson.clone()
            },
            PlanConfig {
                virtual_stages: 4,
                ..lesson.clone()
            },
            PlanConfig {
                gpus: 16,
                ..lesson.clone()
            },
            PlanConfig {
                log_probs_chunk: 100,
                ..lesson.clone()
            },
        ] {
            assert_eq!(GridId::for_plan(&off), None, "{off:?}");
        }
    }

    #[test]
    fn a_range_is_written_with_its_field_s_key() {
        let json = serde_json::to_value(Slider::GpusPerEngine.range(8)).unwrap();
        assert_eq!(json["field"], "rollout.gpus_per_engine");
        let keys: Vec<String> = Slider::ALL.map(|s| s.range(8).field.key()).into();
        let want = [
            "tp",
            "pp",
            "cp",
            "micro_batches",
            "seq_len",
            "ep",
            "rollout.gpus_per_engine",
            "log_probs_chunk",
        ];
        assert_eq!(keys, want);
    }

    #[test]
    fn set_then_get_is_the_value() {
        let mut c = PlanConfig {
            rollout: Some(crate::Rollout::default()),
            ..PlanConfig::lesson_8_gpus()
        };
        for slider in Slider::ALL {
            let value = slider.range(8).max;
            slider.set(&mut c, value);
            assert_eq!(slider.get(&c), value, "{slider:?}");
        }
        let mut plain = PlanConfig::lesson_8_gpus();
        Slider::GpusPerEngine.set(&mut plain, 4);
        assert_eq!(plain.rollout, None, "E adds no engines");
    }

    #[test]
    fn ranges_hold_their_ends_and_nothing_between_powers() {
        for slider in Slider::ALL {
            for gpus in [8, 64] {
                let r = slider.range(gpus);
                assert!(
                    r.min <= r.max && r.offers(r.min) && r.offers(r.max),
                    "{r:?}"
                );
                assert!(!r.offers(r.max + 1) && (r.zero || !r.offers(0)), "{r:?}");
                if r.powers_of_two && r.min < 4 && r.max >= 4 {
                    assert!(!r.offers(3), "{r:?}");
                }
            }
        }
    }
}
