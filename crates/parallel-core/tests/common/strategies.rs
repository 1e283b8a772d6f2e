//! Proptest strategies the core's test files share: each of a plan's choices over all its
//! values.

use parallel_core::{Precision, Preset, RankOrder, Recompute, Schedule};
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
