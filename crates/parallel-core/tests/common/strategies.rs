//! Proptest strategies the core's test files share: each of a plan's choices over all its
//! values.

use parallel_core::{ModelChoice, PlanConfig, Precision, Preset, RankOrder, Recompute, Schedule};
use proptest::prelude::*;

/// Any preset model.
pub fn preset() -> impl Strategy<Value = Preset> {
    prop::sample::select(Preset::ALL.to_vec())
}

/// None, selective or full recompute.
pub fn recompute() -> impl Strategy<Value = Recompute> {
    prop::sample::select(vec![Recompute::None, Recompute::Selective, Recompute::Full])
}

/// GPipe, 1F1B or interleaved.
pub fn schedule() -> impl Strategy<Value = Schedule> {
    prop::sample::select(vec![
        Schedule::Gpipe,
        Schedule::OneFOneB,
        Schedule::Interleaved,
    ])
}

/// Either rank order.
pub fn rank_order() -> impl Strategy<Value = RankOrder> {
    prop::sample::select(vec![RankOrder::TpCpPpDp, RankOrder::TpCpDpPp])
}

/// BF16 or FP32 gradients.
pub fn precision() -> impl Strategy<Value = Precision> {
    prop::sample::select(vec![Precision::Bf16Grads, Precision::Fp32Grads])
}

/// A preset on 1 to 256 cards, with TP, PP and EP of 1 to 8 and CP of 1 to 4, each a power of
/// two; every other field the default. Not every such plan is valid.
pub fn power_of_two_grid() -> impl Strategy<Value = PlanConfig> {
    (preset(), 0u32..9, (0u32..4, 0u32..4, 0u32..3, 0u32..4)).prop_map(
        |(preset, n_exp, (t, p, c, e))| PlanConfig {
            model: ModelChoice::Preset(preset),
            gpus: 1 << n_exp,
            tp: 1 << t,
            pp: 1 << p,
            cp: 1 << c,
            ep: 1 << e,
            ..PlanConfig::default()
        },
    )
}
