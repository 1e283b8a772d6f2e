//! Uneven expert routing (SPEC §20): a case by hand on Mixtral 8x7B, then properties over
//! random MoE plans (the seed is proptest's, printed on failure and kept in a regressions file).

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::{
    evaluate, Accounting, Dim, Field, ModelChoice, Plan, PlanConfig, PlanError, Preset, Recompute,
};
use proptest::prelude::*;

fn mixtral(ep: u32) -> PlanConfig {
    PlanConfig {
        model: ModelChoice::Preset(Preset::Mixtral8x7b),
        gpus: 64,
        tp: 2,
        pp: 4,
        ep,
        recompute: Recompute::Selective,
        ..PlanConfig::default()
    }
}

/// `mixtral(ep)` with its hot expert at `skew` times the even load, in `accounting`.
fn skewed(ep: u32, skew: f64, accounting: Accounting) -> PlanConfig {
    PlanConfig {
        routing_skew: skew,
        accounting,
        ..mixtral(ep)
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// Mixtral 8x7B (E = 8, top-2, h = 4096, f_e = 14,336, 32 MoE layers) on 64 cards, TP 2 × PP 4 ×
/// EP 8, selective recompute, s = 4096, b = 1, m = 8, ρ = 1.72 (Wang et al. 2024's Table 2
/// auxiliary-loss case), dropless. One expert a rank: the hot rank receives ρ × the even
/// T_l·k = 4096/2·2 = 4,096 slots; the others (8 − 1.72)/7 of it.
#[test]
fn mixtral_by_hand() {
    let config = PlanConfig {
        routing_skew: 1.72,
        ..mixtral(8)
    };
    let plan = Plan::new(&config).unwrap();
    let r = plan.routing().unwrap();
    assert_eq!(r.tokens_even, 4096.0);
    assert!(close(r.tokens_hot, 1.72 * 4096.0));
    assert!(close(r.tokens_cold, (8.0 - 1.72) / 7.0 * 4096.0));
    assert_eq!(r.dropped_share, 0.0);
    // Expert activations at even: 4096 slots · 2·(4096 + 3·14,336) B · 32/4 layers · min(8, 4).
    let even = 4096.0 * 2.0 * (4096.0 + 3.0 * 14_336.0) * 8.0 * 4.0;
    assert!(close(r.expert_activations_even.get(), even));
    assert!(close(r.expert_activations_hot.get(), 1.72 * even));
    // Dispatch buffers: 4096 slots · 4 B · h.
    let dispatch = 4096.0 * 4.0 * 4096.0;
    assert!(close(r.dispatch_even.get(), dispatch));
    assert!(close(r.excess.get(), 0.72 * (even + dispatch)));
    // The headline is the hot card's: its activations carry the excess over the even plan's.
    let even_plan = Plan::new(&mixtral(8)).unwrap();
    let (hot, flat) = (plan.memory(), even_plan.memory());
    assert!(close(
        hot.activations.get(),
        flat.activations.get() + r.excess.get()
    ));
    assert_eq!(hot.model_states, flat.model_states);
    // EP's all-to-all: the busiest rank's, 1.72 × the even row.
    let ep = |p: &Plan| p.traffic().into_iter().find(|t| t.dim == Dim::Ep).unwrap();
    assert!(close(
        ep(&plan).bytes.get(),
        1.72 * ep(&even_plan).bytes.get()
    ));
    assert!(close(r.all_to_all_busiest.get(), ep(&plan).bytes.get()));
    // Compute waits for the hot rank: + 0.72 × the routed experts' even seconds.
    let (slow, fast) = (plan.estimate(), even_plan.estimate());
    assert!(close(
        slow.compute_s.get(),
        fast.compute_s.get() + 0.72 * r.expert_s_even.get()
    ));
    assert!(close(r.added_s.get(), 0.72 * r.expert_s_even.get()));
}

/// Card by card: EP rank 0's cards carry the excess, the others the even figures, in both
/// accountings.
#[test]
fn only_ep_rank_zero_carries_the_excess() {
    for accounting in [Accounting::Even, Accounting::Stages] {
        let config = skewed(4, 1.5, accounting);
        let plan = Plan::new(&config).unwrap();
        let even = Plan::new(&PlanConfig {
            routing_skew: 1.0,
            ..config.clone()
        })
        .unwrap();
        let (cards, flat) = (
            plan.cards_memory(&plan.report()),
            even.cards_memory(&even.report()),
        );
        for card in 0..plan.gpus() {
            let i = card as usize;
            let rank = plan.grid().ep_rank(card).unwrap();
            assert_eq!(plan.holds_hot_expert(card), rank == 0);
            if rank == 0 {
                assert!(cards[i].total > flat[i].total, "{accounting:?} card {card}");
            } else {
                assert!(
                    close(cards[i].total.get(), flat[i].total.get()),
                    "{accounting:?} card {card}: {} vs {}",
                    cards[i].total,
                    flat[i].total
                );
            }
        }
    }
}

#[test]
fn a_capacity_drops_the_hot_expert_s_overflow() {
    let config = PlanConfig {
        routing_skew: 1.72,
        capacity_factor: Some(1.25),
        ..mixtral(8)
    };
    let r = Plan::new(&config).unwrap().routing().unwrap();
    assert!(close(r.tokens_hot, 1.25 * 4096.0));
    assert!(close(r.dropped_share, 0.47 / 8.0));
    // T = d·m·b·s = 8·8·1·4096 tokens a step (d = 64/(2·4)), top-2, 32 MoE layers.
    assert!(close(
        r.dropped_per_step,
        0.47 / 8.0 * 262_144.0 * 2.0 * 32.0
    ));
}

#[test]
fn bounds_name_the_field() {
    let refuse = |config: PlanConfig, field: Field| match Plan::new(&config) {
        Err(PlanError::OutOfRange { field: f, .. }) => assert_eq!(f, field),
        other => panic!("{other:?}"),
    };
    // E/top_k = 4 on Mixtral.
    refuse(
        PlanConfig {
            routing_skew: 4.5,
            ..mixtral(8)
        },
        Field::RoutingSkew,
    );
    refuse(
        PlanConfig {
            routing_skew: 0.9,
            ..mixtral(8)
        },
        Field::RoutingSkew,
    );
    refuse(
        PlanConfig {
            routing_skew: f64::NAN,
            ..mixtral(8)
        },
        Field::RoutingSkew,
    );
    refuse(
        PlanConfig {
            capacity_factor: Some(0.5),
            ..mixtral(8)
        },
        Field::CapacityFactor,
    );
    // A dense model takes only the defaults.
    refuse(
        PlanConfig {
            routing_skew: 1.2,
            ..PlanConfig::default()
        },
        Field::RoutingSkew,
    );
    refuse(
        PlanConfig {
            capacity_factor: Some(1.25),
            ..PlanConfig::default()
        },
        Field::CapacityFactor,
    );
    assert!(evaluate(&PlanConfig::default()).unwrap().routing.is_none());
}

fn moe_plan() -> impl Strategy<Value = PlanConfig> {
    (
        prop::sample::select(vec![Preset::Mixtral8x7b, Preset::Qwen3_30bA3b]),
        prop::sample::select(vec![1_u32, 2, 4, 8]),
        prop::sample::select(vec![1_u32, 2, 4]),
        prop::sample::select(vec![1_u32, 2, 4, 8]),
        prop::sample::select(vec![Recompute::Full, Recompute::Selective]),
        1.0..4.0_f64,
        prop::option::of(1.0..4.0_f64),
    )
        .prop_map(|(preset, tp, pp, ep, recompute, skew, cf)| PlanConfig {
            model: ModelChoice::Preset(preset),
            gpus: 64,
            tp,
            pp,
            ep,
            recompute,
            routing_skew: skew,
            capacity_factor: cf,
            ..PlanConfig::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Slots are kept or dropped, never lost; the hot card never holds less than an even one
    /// dropless; a capacity that cannot bind changes no figure at all.
    #[test]
    fn routing_keeps_its_books(config in moe_plan()) {
        let Ok(plan) = Plan::new(&config) else { return Ok(()) };
        let r = plan.routing().unwrap();
        let ep = f64::from(config.ep);
        let kept = (r.tokens_hot + (ep - 1.0) * r.tokens_cold) / ep;
        prop_assert!(close(kept + r.dropped_share * r.tokens_even, r.tokens_even),
            "{config:?}: {r:?}");
        if config.capacity_factor.is_none() {
            prop_assert!(r.tokens_hot >= r.tokens_even * (1.0 - 1e-12));
            prop_assert_eq!(r.dropped_share, 0.0);
        }
        let even = PlanConfig { routing_skew: 1.0, capacity_factor: None, ..config.clone() };
        let Ok(even) = Plan::new(&even) else { return Ok(()) };
        let unbinding = PlanConfig { capacity_factor: Some(1.0), ..even.config().clone() };
        let unbinding = Plan::new(&unbinding).unwrap();
        prop_assert_eq!(unbinding.memory(), even.memory());
        prop_assert_eq!(unbinding.traffic(), even.traffic());
        prop_assert_eq!(unbinding.estimate(), even.estimate());
    }
}

/// The two figures explain themselves: the worked formula gives the report's value, and they
/// are offered only where routing is uneven.
#[test]
fn routing_figures_explain_themselves() {
    use parallel_core::explain::Figure;
    for accounting in [Accounting::Even, Accounting::Stages] {
        let config = skewed(8, 1.6, accounting);
        let plan = Plan::new(&config).unwrap();
        let report = plan.report();
        let r = report.routing.unwrap();
        for (figure, want) in [
            (Figure::RoutingExcess, r.excess.get()),
            (Figure::RoutingWait, r.added_s.get()),
        ] {
            let e = plan.explain(figure, &report).unwrap();
            assert!(close(e.worked, want), "{figure:?}: {} vs {want}", e.worked);
            assert_eq!(e.result, want);
            assert!(e.source.contains("SPEC §20"));
        }
        let ids: Vec<String> = plan
            .explain_all(&report)
            .iter()
            .map(|e| e.figure.clone())
            .collect();
        assert!(ids.contains(&"routing-excess".to_string()));
        let even = Plan::new(&mixtral(8)).unwrap();
        assert!(!even
            .explain_all(&even.report())
            .iter()
            .any(|e| e.figure.starts_with("routing-")));
    }
}
