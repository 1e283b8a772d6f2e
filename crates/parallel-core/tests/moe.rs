//! MoE memory and EP / expert-DP traffic and groups against hand-computed cases (SPEC §5, §8):
//! DeepSeek-V3's published plan and Mixtral 8x7B with TP, PP and EP together.

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::lesson::deepseek_v3_plan;
use parallel_core::{Link, ModelChoice, Plan, PlanConfig, Preset};

/// The plan's traffic rows against `want`, (dimension, bytes to the byte, group size, link),
/// in order.
fn check_traffic(plan: &Plan, want: &[(&str, f64, u32, Link)]) {
    let t: Vec<_> = plan
        .traffic()
        .iter()
        .map(|t| (t.dim.as_str(), t.bytes.get(), t.group_size, t.link))
        .collect();
    assert_eq!(t.len(), want.len(), "{t:?}");
    for (&(dim, bytes, size, link), &(wdim, wbytes, wsize, wlink)) in t.iter().zip(want) {
        assert_eq!((dim, size, link), (wdim, wsize, wlink));
        assert!((bytes - wbytes).abs() < 1.0, "{dim}: {bytes} vs {wbytes}");
    }
}

/// Mixtral 8x7B on 64 cards at TP `tp` × PP `pp` × EP `ep`.
fn mixtral_64(tp: u32, pp: u32, ep: u32) -> PlanConfig {
    PlanConfig {
        model: ModelChoice::Preset(Preset::Mixtral8x7b),
        gpus: 64,
        tp,
        pp,
        ep,
        ..PlanConfig::default()
    }
}

/// DeepSeek-V3 on 2,048 GPUs, PP 16 × EP 64, ZeRO-1, m = 32 (the lab's assumption), s = 4096.
/// P_routed = 58·256·3·7168·2048 = 653,908,770,816; d = 128, D = 128, expert DP = 2048/(64·16) = 2.
#[test]
fn deepseek_v3_published_plan_by_hand() {
    let plan = Plan::new(&deepseek_v3_plan()).unwrap();
    // Ψ_d = (671e9 − P_routed)/16 = 1,068,201,824: ZeRO-1 4Ψ_d + 12Ψ_d/128 = 4,372,951,217 (to the
    // byte, floor of …217.25); Ψ_e = P_routed/(64·16) = 638,582,784: 4Ψ_e + 12Ψ_e/2 = 6,385,827,840.
    let states = plan.model_states().total().get();
    assert!((states - 10_758_779_057.25).abs() < 1.0, "{states}");
    let experts = plan.expert_states().unwrap().total().get();
    assert!((experts - 6_385_827_840.0).abs() < 1.0, "{experts}");
    // Activations: 2·4096·7168 = 58,720,256 per layer × 61/16 layers × min(32, 16) in flight.
    assert!((plan.memory().activations.get() - 3_581_935_616.0).abs() < 1.0);
    let want = [
        // ep: 32·(58/16)·4·(63/64)·4096·8·7168·2
        ("ep", 214_563_815_424.0, 64, Link::InfiniBand),
        // pp: 32·2·58,720,256
        ("pp", 3_758_096_384.0, 16, Link::InfiniBand),
        // dp: (127/128)·4·Ψ_d
        ("dp", 4_239_425_989.0, 128, Link::InfiniBand),
        // edp: (1/2)·4·Ψ_e
        ("edp", 1_277_165_568.0, 2, Link::InfiniBand),
    ];
    check_traffic(&plan, &want);
}

/// Mixtral 8x7B on 64 GPUs, TP 4 × PP 2 × EP 8, ZeRO-1: P = 46,702,792,704, P_routed =
/// 32·8·3·4096·14,336 = 45,097,156,608; d = 8, D = 8, expert DP = 64/(8·2) = 4.
#[test]
fn mixtral_tp4_pp2_ep8_by_hand() {
    let config = PlanConfig {
        zero: 1,
        ..mixtral_64(4, 2, 8)
    };
    let plan = Plan::new(&config).unwrap();
    // Ψ_d = 1,605,636,096/8 = 200,704,512: 4Ψ_d + 12Ψ_d/8 = 1,103,874,816.
    // Ψ_e = 45,097,156,608/16 = 2,818,572,288: 4Ψ_e + 12Ψ_e/4 = 19,730,006,016.
    assert!((plan.dense_states().total().get() - 1_103_874_816.0).abs() < 1.0);
    assert!((plan.expert_states().unwrap().total().get() - 19_730_006_016.0).abs() < 1.0);
    assert!((plan.model_states().total().get() - 20_833_880_832.0).abs() < 1.0);
    // x = 2·4096·4096 = 33,554,432.
    let want = [
        ("tp", 25_769_803_776.0, 4, Link::NvLink), // 8·16·4·(3/2)·x
        ("ep", 7_516_192_768.0, 8, Link::InfiniBand), // 8·16·4·(7/8)·(4096/4)·2·4096·2
        ("pp", 536_870_912.0, 2, Link::NvLink),    // 8·2·x (stages 4 cards apart, one node)
        ("dp", 702_465_792.0, 8, Link::InfiniBand), // (7/8)·4·Ψ_d
        ("edp", 8_455_716_864.0, 4, Link::InfiniBand), // (3/4)·4·Ψ_e
    ];
    check_traffic(&plan, &want);
    // Groups of card 9: EP = 8 consecutive cards of its stage; expert DP = the cards of its stage
    // with the same ep_idx.
    let g = plan.grid().groups(9).unwrap();
    let ep = g.ep.unwrap();
    let edp = g.edp.unwrap();
    assert_eq!(ep.len(), 8);
    assert_eq!(edp.len(), 4);
    assert!(ep.contains(&9) && edp.contains(&9));
    let stage = |card: u32| (card / 4) % 2;
    assert!(
        ep.iter().chain(&edp).all(|&c| stage(c) == stage(9)),
        "{ep:?} {edp:?}"
    );
}

#[test]
fn the_memory_figure_splits_states_into_experts_and_the_dense_rest() {
    let config = mixtral_64(8, 2, 4);
    // The even split: the plan's expert and dense ledgers.
    let plan = Plan::new(&config).unwrap();
    let report = plan.report();
    let (experts, dense) = report.states_split(&plan).unwrap();
    assert_eq!(experts, plan.expert_states().unwrap().total());
    assert_eq!(dense, plan.dense_states().total());
    // By stage: the busiest stage's, which add up to its states.
    let config = PlanConfig {
        accounting: parallel_core::Accounting::Stages,
        ..config
    };
    let plan = Plan::new(&config).unwrap();
    let report = plan.report();
    let stage = &report.by_stage[report.busiest_stage.unwrap() as usize];
    let (experts, dense) = report.states_split(&plan).unwrap();
    assert_eq!(
        (experts, dense),
        (stage.expert_states, stage.dense_states())
    );
    assert!((experts.get() + dense.get() - stage.model_states.get()).abs() < 1.0);
    // A dense model has no split.
    let anchor = Plan::new(&PlanConfig::default()).unwrap();
    assert_eq!(anchor.report().states_split(&anchor), None);
}
