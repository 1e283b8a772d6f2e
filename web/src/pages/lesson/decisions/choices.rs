//! What the selects of decisions ① and ② hold (the ZeRO stages and ways of recomputing as the
//! grid's selects offer them): typed values, each with its options' words and
//! its one spelling as a DOM value ([`Choices`]). A form's signal holds the value itself, so
//! a plan is built from the selects without reading any text back.

use parallel_core::{Dim, Link, Recompute};

use crate::kit::choices::Choices;
pub use crate::kit::controls::choice::ZeroStage;
use crate::kit::controls::choice::{recompute_choices, zero_choices};
use crate::kit::i18n::Lang;
use crate::kit::vocab;

/// A TP or PP degree the forms offer: 1, 2, 4 or 8 (up to one machine's 8 cards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Degree {
    /// 1: not split.
    One,
    /// 2.
    Two,
    /// 4.
    Four,
    /// 8.
    Eight,
}

impl Degree {
    /// Every degree, in order.
    pub const ALL: [Degree; 4] = [Degree::One, Degree::Two, Degree::Four, Degree::Eight];

    /// The degree as the plan holds it (`tp`, `pp`).
    pub const fn get(self) -> u32 {
        match self {
            Degree::One => 1,
            Degree::Two => 2,
            Degree::Four => 4,
            Degree::Eight => 8,
        }
    }

    /// The degree as its option's DOM value and its words: "1", "2", "4", "8".
    pub const fn as_str(self) -> &'static str {
        match self {
            Degree::One => "1",
            Degree::Two => "2",
            Degree::Four => "4",
            Degree::Eight => "8",
        }
    }
}

/// Decision ①'s ZeRO stages, each with what it shards, as the grid's select offers them.
pub fn zero_explained() -> Choices<ZeroStage> {
    zero_choices()
}

/// Decision ②'s ZeRO stages, by number alone.
pub fn zero_bare() -> Choices<ZeroStage> {
    Choices::named(&ZeroStage::ALL, ZeroStage::as_str, |z| {
        (z.as_str(), z.as_str())
    })
}

/// The TP and PP degrees.
pub fn degrees() -> Choices<Degree> {
    Choices::named(&Degree::ALL, Degree::as_str, |d| (d.as_str(), d.as_str()))
}

/// Decision ①'s ways of keeping activations: full, selective, none, as the grid's select
/// offers them.
pub fn recompute() -> Choices<Recompute> {
    recompute_choices()
}

/// "Choose" (`None`, the empty DOM value), then each of `values` named in both languages by
/// `name`.
fn or_choose<V: Copy>(
    values: &[V],
    name: fn(Lang, V) -> &'static str,
) -> Vec<(Option<V>, &'static str, &'static str)> {
    std::iter::once((None, "请选择", "choose"))
        .chain(
            values
                .iter()
                .map(|&v| (Some(v), name(Lang::Zh, v), name(Lang::En, v))),
        )
        .collect()
}

/// Decision ②'s heaviest dimension: TP, PP or DP, none chosen at first.
pub fn heaviest() -> Choices<Option<Dim>> {
    Choices {
        list: or_choose(&[Dim::Tp, Dim::Pp, Dim::Dp], vocab::dim),
        id: |d| d.map_or("", Dim::as_str),
    }
}

/// Decision ②'s link: NVLink or InfiniBand, none chosen at first.
pub fn link() -> Choices<Option<Link>> {
    Choices {
        list: or_choose(&[Link::NvLink, Link::InfiniBand], vocab::link_where),
        id: |l| l.map_or("", Link::as_str),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::choices::testing::assert_round_trips;
    use crate::pages::lesson::decisions::check::{decision_one_config, decision_two_config};
    use parallel_core::link::{decode_plan, encode_plan, GridId};
    use parallel_core::{Plan, PlanConfig};

    /// Whether decision ①'s recompute select offers `r`: fails to compile when a way of
    /// keeping activations is added without a thought for the select.
    fn offered(r: Recompute) -> bool {
        match r {
            Recompute::Full | Recompute::Selective | Recompute::None => {
                recompute().values().any(|v| v == r)
            }
        }
    }

    /// `config` through the link of `grid` and back: the same plan, nothing ignored.
    fn assert_travels(config: &PlanConfig, grid: GridId) {
        let (decoded, ignored) = decode_plan(&encode_plan(config, grid), grid);
        assert!(ignored.is_empty(), "{ignored:?}");
        assert_eq!(&decoded, config);
    }

    #[test]
    fn every_select_s_options_read_back() {
        for zero in [zero_explained(), zero_bare()] {
            assert_round_trips(&zero);
            assert_eq!(zero.values().collect::<Vec<_>>(), ZeroStage::ALL);
        }
        assert_round_trips(&degrees());
        assert_eq!(degrees().values().collect::<Vec<_>>(), Degree::ALL);
        assert_round_trips(&recompute());
        assert!([Recompute::Full, Recompute::Selective, Recompute::None]
            .into_iter()
            .all(offered));
        assert_round_trips(&heaviest());
        assert_round_trips(&link());
        // "Choose" is the empty DOM value; the others are the core's words.
        assert_eq!(heaviest().read(""), Ok(None));
        assert_eq!(heaviest().read("pp"), Ok(Some(Dim::Pp)));
        assert_eq!(link().read("ib"), Ok(Some(Link::InfiniBand)));
        assert!(heaviest().read("cp").is_err(), "CP is not offered");
        // Each value is the number the plan holds, and its spelling is that number.
        for z in ZeroStage::ALL {
            assert_eq!(z.as_str(), z.get().to_string());
        }
        for d in Degree::ALL {
            assert_eq!(d.as_str(), d.get().to_string());
        }
    }

    #[test]
    fn every_plan_the_selects_make_travels_through_the_link() {
        let mut accepted = 0;
        for zero in zero_explained().values() {
            for tp in degrees().values() {
                for r in recompute().values() {
                    let config = decision_one_config(zero.get(), tp.get(), r);
                    assert_travels(&config, GridId::Eight);
                    accepted += 1;
                }
                for pp in degrees().values() {
                    let config = decision_two_config(tp.get(), pp.get(), zero.get(), 8);
                    if Plan::new(&config).is_ok() {
                        assert_travels(&config, GridId::SixtyFour);
                        accepted += 1;
                    }
                }
            }
        }
        assert_eq!(
            accepted,
            4 * 4 * 3 + 4 * 4 * 4,
            "the core accepts every plan"
        );
    }
}
