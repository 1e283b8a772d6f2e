//! Sequences of uneven length (SPEC §25): one micro-batch σ times as long lands on the first
//! data-parallel replica. Its excess is what a plan of σ·s tokens holds for one micro-batch
//! over what the plan holds for one of s; the other replicas keep the even figures.

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::explain::Figure;
use parallel_core::link::{decode_plan, encode_plan, GridId};
use parallel_core::{Accounting, Field, Plan, PlanConfig, PlanError, Recompute};

fn plan(config: &PlanConfig) -> Plan {
    Plan::new(config).unwrap_or_else(|e| panic!("{config:?}: {e}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn skewed(config: &PlanConfig, sequence_skew: f64) -> PlanConfig {
    PlanConfig {
        sequence_skew,
        ..config.clone()
    }
}

fn bases() -> Vec<PlanConfig> {
    let mut out = Vec::new();
    for recompute in [Recompute::Full, Recompute::Selective, Recompute::None] {
        for base in [
            PlanConfig::lesson_8_gpus(),
            PlanConfig::lesson_64_gpus(),
            PlanConfig {
                tp: 4,
                cp: 2,
                ..PlanConfig::lesson_64_gpus()
            },
        ] {
            out.push(PlanConfig { recompute, ..base });
        }
    }
    out
}

#[test]
fn even_sequences_change_nothing() {
    for config in bases() {
        assert_eq!(config.sequence_skew, 1.0);
        let p = plan(&config);
        assert!(!p.uneven_sequences());
        assert!((0..p.gpus()).all(|card| !p.holds_long_sequence(card)));
        assert!(!serde_json::to_string(&config)
            .unwrap()
            .contains("sequence_skew"));
    }
}

/// The excess of σ = 2 on the even split is one micro-batch of 2·s tokens less one of s: the
/// per-layer bytes double, the scores (recompute "none") quadruple.
#[test]
fn the_excess_is_one_micro_batch_of_sigma_s_tokens() {
    for config in bases() {
        let even = plan(&config).memory();
        let long = plan(&skewed(&config, 2.0)).memory();
        let at = |seq_len: u32| {
            plan(&PlanConfig {
                seq_len,
                ..config.clone()
            })
            .activations()
            .per_micro_batch
            .get()
        };
        let want = at(2 * config.seq_len) - at(config.seq_len);
        let got = long.activations.get() - even.activations.get();
        assert!(close(got, want), "{config:?}: {got} against {want}");
        assert_eq!(long.model_states, even.model_states);
        assert!(long.total > even.total);
    }
}

#[test]
fn only_the_first_replica_holds_it() {
    for accounting in [Accounting::Even, Accounting::Stages] {
        for base in bases() {
            let config = PlanConfig { accounting, ..base };
            let even = plan(&config);
            let even_cards = even.cards_memory(&even.report());
            let long = plan(&skewed(&config, 4.0));
            let cards = long.cards_memory(&long.report());
            for card in 0..long.gpus() {
                let (c, e) = (cards[card as usize], even_cards[card as usize]);
                let dp = long.grid().coords(card).unwrap().dp;
                assert_eq!(long.holds_long_sequence(card), dp == 0);
                if dp == 0 {
                    assert!(c.activations > e.activations, "card {card}: {c:?}");
                } else {
                    assert!(
                        close(c.total.get(), e.total.get()),
                        "card {card}: {c:?} {e:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_explanation_gives_the_report_s_activations() {
    for base in bases() {
        for accounting in [Accounting::Even, Accounting::Stages] {
            let p = plan(&PlanConfig {
                accounting,
                sequence_skew: 1.5,
                ..base.clone()
            });
            let report = p.report();
            let e = p.explain(Figure::Activations, &report).unwrap();
            assert!(close(e.worked, report.memory.activations.get()), "{e:?}");
            assert!(e.formula.contains('σ'), "{}", e.formula);
        }
    }
}

#[test]
fn the_bound_names_the_field() {
    for bad in [0.5, 0.0, -1.0, f64::NAN, f64::INFINITY, 20_000.0] {
        match Plan::new(&skewed(&PlanConfig::lesson_8_gpus(), bad)) {
            Err(PlanError::OutOfRange { field, .. }) => assert_eq!(field, Field::SequenceSkew),
            other => panic!("σ {bad}: {other:?}"),
        }
    }
    // σ·s at the lab's longest sequence is allowed; beyond it is not.
    let s = PlanConfig::lesson_8_gpus().seq_len;
    let most = f64::from(parallel_core::MAX_SEQ_LEN) / f64::from(s);
    assert!(Plan::new(&skewed(&PlanConfig::lesson_8_gpus(), most)).is_ok());
}

#[test]
fn the_skew_travels_in_the_link() {
    for sigma in [1.5, 2.0, 4.0] {
        let config = skewed(&PlanConfig::lesson_64_gpus(), sigma);
        let link = encode_plan(&config, GridId::SixtyFour);
        let (back, ignored) = decode_plan(&link, GridId::SixtyFour);
        assert!(ignored.is_empty(), "{link}: {ignored:?}");
        assert_eq!(back.sequence_skew, sigma, "{link}");
    }
    assert_eq!(
        encode_plan(
            &skewed(&PlanConfig::lesson_64_gpus(), 1.5),
            GridId::SixtyFour
        ),
        "tp8.pp8.sq1p5"
    );
}
