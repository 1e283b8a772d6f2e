//! The rollout phase's groups (SPEC §15): each card of the pool serves one engine of E
//! consecutive cards; the grid's training groups stay as they were.
#![allow(clippy::unwrap_used)]

use parallel_core::{Dim, Link, Plan, PlanConfig, PlanError, Rollout, RolloutPhase};
use proptest::prelude::*;

fn with_rollout(gpus: u32, gpus_per_engine: u32, rollout_gpus: u32) -> Plan {
    Plan::new(&PlanConfig {
        gpus,
        rollout: Some(Rollout {
            gpus_per_engine,
            rollout_gpus,
            ..Rollout::default()
        }),
        ..PlanConfig::default()
    })
    .unwrap()
}

#[test]
fn the_anchor_recipe_row_s_engines_by_hand() {
    // 32 cards, engines of 2 (seed 000's Qwen3.8-27B row): card 5 serves engine 2, cards 4–5.
    let plan = with_rollout(32, 2, 0);
    assert_eq!(plan.engine_of(5).unwrap(), Some(2));
    assert_eq!(plan.engine_of(31).unwrap(), Some(15));
    let groups = plan.groups_in(RolloutPhase::Rollout, 5).unwrap().unwrap();
    assert_eq!(groups.of(Dim::Engine), Some(&[4, 5][..]));
    for dim in [Dim::Tp, Dim::Cp, Dim::Pp, Dim::Dp, Dim::Ep, Dim::Edp] {
        assert_eq!(groups.of(dim), None, "{dim} in the rollout phase");
    }
    assert_eq!(
        serde_json::to_string(&groups).unwrap(),
        r#"{"engine":[4,5]}"#
    );
    // Training keeps the grid's groups, with no engine.
    let training = plan.groups_in(RolloutPhase::Training, 5).unwrap().unwrap();
    assert_eq!(training, plan.grid().groups(5).unwrap());
    assert_eq!(training.of(Dim::Engine), None);
    assert!(!serde_json::to_string(&training).unwrap().contains("engine"));
}

#[test]
fn a_separate_pool_numbers_its_own_cards() {
    // 8 training cards, a pool of 16 rollout cards in engines of 8: card 9 is the second
    // engine's; card 16 is not in the pool.
    let plan = with_rollout(8, 8, 16);
    assert_eq!(plan.engine_group(9).unwrap(), Some((8..16).collect()));
    assert_eq!(
        plan.engine_of(16),
        Err(PlanError::NoSuchCard { card: 16, gpus: 16 })
    );
}

#[test]
fn a_training_only_plan_has_no_rollout_phase() {
    let plan = Plan::new(&PlanConfig::default()).unwrap();
    assert_eq!(plan.engine_of(0).unwrap(), None);
    assert_eq!(plan.groups_in(RolloutPhase::Rollout, 0).unwrap(), None);
    assert!(plan.groups_in(RolloutPhase::Training, 0).unwrap().is_some());
}

#[test]
fn phases_by_name() {
    for phase in RolloutPhase::ALL {
        assert_eq!(RolloutPhase::parse(phase.as_str()), Some(phase));
    }
    assert_eq!(RolloutPhase::parse("inference"), None);
    assert_eq!(RolloutPhase::default(), RolloutPhase::Training);
}

proptest! {
    /// Every pool splits into engines of E consecutive cards: each card in exactly one,
    /// engine k holding cards k·E … k·E + E − 1; an engine that fits in a node and divides it
    /// stays on NVLink.
    #[test]
    fn engines_partition_the_pool(
        e_log in 0u32..7,
        engines in 1u32..9,
        colocated in any::<bool>(),
    ) {
        let e = 1u32 << e_log;
        let pool = e * engines;
        let plan = if colocated {
            prop_assume!(pool <= 1024);
            with_rollout(pool, e, 0)
        } else {
            with_rollout(8, e, pool)
        };
        let mut seen = vec![0u32; pool as usize];
        for card in 0..pool {
            let k = plan.engine_of(card).unwrap().unwrap();
            let group = plan.engine_group(card).unwrap().unwrap();
            prop_assert_eq!(group.len() as u32, e);
            prop_assert_eq!(group[0], k * e);
            prop_assert!(group.contains(&card));
            prop_assert!(group.windows(2).all(|w| w[1] == w[0] + 1));
            seen[card as usize] += 1;
            if e <= 8 {
                prop_assert_eq!(Link::of_cards(&group, 8), Link::NvLink);
            } else {
                prop_assert_eq!(Link::of_cards(&group, 8), Link::InfiniBand);
            }
        }
        prop_assert!(seen.iter().all(|&n| n == 1));
        prop_assert!(plan.engine_of(pool).is_err());
    }
}
