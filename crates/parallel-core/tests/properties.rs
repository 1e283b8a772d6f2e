//! Properties that hold for every plan: groups partition the cards, the bubble is in [0, 1),
//! ZeRO never adds memory stage over stage, traffic rows follow `Dim::ALL`'s order, and no
//! config — valid or not — panics.

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::strategies;
use parallel_core::{
    evaluate, Dim, InlineModel, Mlp, ModelChoice, OptimizerOffload, Plan, PlanConfig, Rollout,
    Schedule,
};
use proptest::prelude::*;

fn power_of_two(max_log: u32) -> impl Strategy<Value = u32> {
    (0..=max_log).prop_map(|k| 1u32 << k)
}

/// Valid dense plans: N = t·p·c·d with small degrees and node sizes that need not divide N.
fn valid_plan() -> impl Strategy<Value = PlanConfig> {
    (
        (1u32..=8, 1u32..=6, 1u32..=4, 1u32..=6),
        prop::sample::select(vec![1u32, 2, 4, 6, 8, 16]),
        1u32..=64,
        0u8..=3,
        strategies::recompute(),
        prop::sample::select(vec![Schedule::Gpipe, Schedule::OneFOneB]),
        strategies::rank_order(),
        strategies::precision(),
        power_of_two(17),
    )
        .prop_map(
            |(
                (tp, pp, cp, dp),
                gpus_per_node,
                micro_batches,
                zero,
                recompute,
                schedule,
                order,
                precision,
                seq_len,
            )| {
                PlanConfig {
                    gpus: tp * pp * cp * dp,
                    gpus_per_node,
                    tp,
                    pp,
                    cp,
                    micro_batches,
                    seq_len,
                    zero,
                    recompute,
                    schedule,
                    order,
                    precision,
                    ..PlanConfig::default()
                }
            },
        )
}

fn assert_partition(plan: &Plan, dim: Dim, size: u32) {
    let grid = plan.grid();
    let n = plan.gpus();
    let mut seen = vec![0u32; n as usize];
    for card in 0..n {
        let group = grid.group(card, dim).expect("card");
        assert_eq!(group.len() as u32, size, "{dim} group of card {card}");
        assert!(group.contains(&card), "{dim} group of {card} lacks it");
        // Every member has the same group: groups are equivalence classes.
        for &other in &group {
            assert_eq!(grid.group(other, dim).expect("card"), group);
        }
        seen[group[0] as usize] += 1;
    }
    // Each group is counted once per member, from its first card.
    let groups: u32 = seen.iter().filter(|&&k| k > 0).count() as u32;
    assert_eq!(groups * size, n, "{dim}: {groups} groups of {size}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn groups_partition_the_cards(config in valid_plan()) {
        let plan = Plan::new(&config).expect("valid by construction");
        let d = plan.degrees();
        assert_partition(&plan, Dim::Tp, d.tp);
        assert_partition(&plan, Dim::Cp, d.cp);
        assert_partition(&plan, Dim::Pp, d.pp);
        assert_partition(&plan, Dim::Dp, d.dp);
        // Coordinates address every card exactly once.
        let grid = plan.grid();
        let mut coords: Vec<_> = (0..plan.gpus())
            .map(|c| { let k = grid.coords(c).expect("card"); (k.tp, k.cp, k.pp, k.dp) })
            .collect();
        coords.sort_unstable();
        coords.dedup();
        prop_assert_eq!(coords.len() as u32, plan.gpus());
    }

    #[test]
    fn plan_wide_link_is_ib_iff_some_group_spans_nodes(config in valid_plan()) {
        let plan = Plan::new(&config).expect("valid");
        let grid = plan.grid();
        for traffic in plan.traffic() {
            let any_spans = (0..plan.gpus()).any(|card| {
                let cards = if traffic.dim == Dim::Dp {
                    grid.weight_group(card).expect("card")
                } else {
                    grid.group(card, traffic.dim).expect("card")
                };
                parallel_core::Link::of_cards(&cards, plan.gpus_per_node()) == parallel_core::Link::InfiniBand
            });
            prop_assert_eq!(traffic.link == parallel_core::Link::InfiniBand, any_spans, "{}", traffic.dim);
        }
    }

    #[test]
    fn bubble_is_in_unit_interval(pp in 1u32..=1024, m in 1u32..=4096, v in 1u32..=16) {
        let b = parallel_core::Bubble::of(pp, m, v);
        prop_assert!(b.ratio >= 0.0);
        prop_assert!((0.0..1.0).contains(&b.share));
        prop_assert_eq!(b.ratio == 0.0, pp == 1);
    }

    #[test]
    fn zero_never_adds_memory(config in valid_plan()) {
        let states: Vec<f64> = (0..=3u8)
            .map(|zero| Plan::new(&PlanConfig { zero, ..config.clone() }).expect("valid").memory().model_states.get())
            .collect();
        for pair in states.windows(2) {
            prop_assert!(pair[1] <= pair[0] * (1.0 + 1e-12), "{states:?}");
        }
    }

    #[test]
    fn figures_are_finite_and_non_negative(config in valid_plan()) {
        let report = evaluate(&config).expect("valid");
        let m = report.memory;
        for v in [m.model_states, m.activations, m.total] {
            prop_assert!(v.get().is_finite() && v.get() > 0.0);
        }
        prop_assert_eq!(m.fits, m.total <= m.capacity);
        for t in &report.comm {
            prop_assert!(t.bytes.get().is_finite() && t.bytes.get() > 0.0, "{:?}", t);
            prop_assert!(t.group_size > 1);
        }
    }

    /// Any field values at all, including 0, huge and non-finite: an answer or an error.
    #[test]
    fn no_config_panics(
        ints in prop::array::uniform11(prop_oneof![Just(0u32), 1u32..=16, any::<u32>()]),
        zero in any::<u8>(),
        floats in prop::array::uniform3(prop_oneof![Just(f64::NAN), Just(f64::INFINITY), Just(-1.0), 0.0..1e6, any::<f64>()]),
        schedule in strategies::schedule(),
        preset in strategies::preset(),
        card in any::<u32>(),
    ) {
        let config = PlanConfig {
            model: ModelChoice::Preset(preset),
            gpus: ints[0], gpus_per_node: ints[1], tp: ints[2], pp: ints[3], cp: ints[4],
            ep: ints[5], micro_batches: ints[6], micro_batch_size: ints[7], seq_len: ints[8],
            virtual_stages: ints[9],
            zero,
            schedule,
            gpu_memory_gb: floats[0], nvlink_gbps: floats[1], ib_gbps: floats[2],
            ..PlanConfig::default()
        };
        if let Ok(plan) = Plan::new(&config) {
            let _ = plan.report();
            let _ = plan.grid().groups(card % (plan.gpus() + 1));
            let _ = plan.traffic_for_card(card % plan.gpus());
        }
    }

    #[test]
    fn no_inline_model_panics(
        fields in prop::collection::vec(prop_oneof![Just(None), Just(Some(0u32)), (1u32..=64).prop_map(Some), any::<u32>().prop_map(Some)], 23),
        params in prop_oneof![Just(None), any::<u64>().prop_map(Some)],
        gpus in 1u32..=64, tp in 1u32..=8, pp in 1u32..=8, ep in 1u32..=8,
    ) {
        let inline = InlineModel {
            params,
            hidden: fields[0], layers: fields[1], heads: fields[2], kv_heads: fields[3],
            head_dim: fields[4], full_attention_layers: fields[5], ffn: fields[6], vocab: fields[7],
            tied_embeddings: fields[8].is_some(),
            moe_layers: fields[9], experts: fields[10], top_k: fields[11], expert_ffn: fields[12],
            shared_experts: fields[0],
            kv_lora_rank: fields[13], qk_rope_head_dim: fields[14],
            q_lora_rank: fields[15], qk_nope_head_dim: fields[16], v_head_dim: fields[17],
            linear_num_key_heads: fields[18], linear_num_value_heads: fields[19],
            linear_key_head_dim: fields[20], linear_value_head_dim: fields[21],
            linear_conv_kernel_dim: fields[22],
            mlp: if fields[6].is_some_and(|f| f % 2 == 1) { Mlp::Plain } else { Mlp::Gated },
        };
        // Rollout engines of one card each (SPEC §15) on half the models.
        let rollout = fields[5].is_some().then(|| Rollout { gpus_per_engine: 1, ..Rollout::default() });
        let config = PlanConfig { model: ModelChoice::Inline(inline), gpus, tp, pp, ep, rollout, ..PlanConfig::default() };
        if let Ok(report) = evaluate(&config) {
            // The headline is its two parts, and its verdicts follow from it and the card.
            let m = &report.memory;
            let sum = m.model_states + m.activations;
            prop_assert!(
                m.total == sum || (m.total.get().is_nan() && sum.get().is_nan()),
                "total {} vs states + activations {}", m.total.get(), sum.get()
            );
            prop_assert_eq!(m.fits, m.total <= m.capacity);
            prop_assert_eq!(m.tight, parallel_core::margin::tight(m.total, m.capacity));
            prop_assert!(!m.tight || m.fits, "tight implies fits");
            // Each stage's total is its parts, and the even split's first stage is a stage.
            for stage in &report.by_stage {
                let parts = stage.model_states + stage.activations;
                prop_assert!(
                    stage.total == parts || (stage.total.get().is_nan() && parts.get().is_nan()),
                    "stage {}: {} vs {}", stage.stage, stage.total.get(), parts.get()
                );
            }
        }
    }

    #[test]
    fn card_view_agrees_with_plan_view_on_bytes(config in valid_plan(), card_seed in any::<u32>()) {
        let plan = Plan::new(&config).expect("valid");
        let card = card_seed % plan.gpus();
        let mine = plan.traffic_for_card(card).expect("card in grid");
        let all = plan.traffic();
        prop_assert_eq!(mine.len(), all.len());
        for (a, b) in mine.iter().zip(&all) {
            prop_assert_eq!(a.bytes, b.bytes);
            // A card's own group never crosses nodes when no group of that dimension does.
            if b.link == parallel_core::Link::NvLink {
                prop_assert_eq!(a.link, parallel_core::Link::NvLink);
            }
        }
    }

    /// The traffic rows (plan-wide and a card's own) and the estimate's times list their
    /// dimensions in `Dim::ALL`'s order, each once: the page keeps one row slot per dimension
    /// in that order (web/src/kit/dim_rows.rs). Any preset (MoE: EP and expert DP rows),
    /// the optimizer on the host or not (the offload row).
    #[test]
    fn rows_follow_the_order_of_dim_all(
        grid in strategies::power_of_two_grid(),
        offload in any::<bool>(),
        card_seed in any::<u32>(),
    ) {
        let config = PlanConfig {
            optimizer_offload: if offload { OptimizerOffload::Cpu } else { OptimizerOffload::None },
            ..grid
        };
        let Ok(plan) = Plan::new(&config) else { return Ok(()) };
        let place = |d: Dim| Dim::ALL.iter().position(|&a| a == d).expect("a dimension of Dim::ALL");
        let card = card_seed % plan.gpus();
        for rows in [plan.traffic(), plan.traffic_for_card(card).unwrap()] {
            let dims: Vec<Dim> = rows.iter().map(|t| t.dim).collect();
            prop_assert!(dims.windows(2).all(|w| place(w[0]) < place(w[1])), "{:?}", dims);
            let times: Vec<Dim> = plan.comm_times(&rows).iter().map(|t| t.dim).collect();
            prop_assert_eq!(times, dims);
        }
    }
}
