//! How fitting plans are ranked (SPEC §17, the search's order): under the safe share of the
//! card ([`crate::margin::SAFE_SHARE`]) first; within each side, the plans whose step is within
//! [`EQUAL_TIME_SHARE`] of the side's quickest are a tie and go first, in a practitioner's
//! order ([`Practice`]); the rest follow by step time.

/// Two steps within this share of the quicker one count as equally quick.
///
/// The estimate cannot call a smaller gap: on the one card measured (an H200, SPEC §18),
/// its layer times sit 2–4% from the compiled layers' measured ones
/// (`tests/fixtures/check/h200-*`, read by `parallel-lab check --measured`). Inside this band
/// the plans are a tie, and the one a practitioner would run ranks first ([`Practice`]).
pub const EQUAL_TIME_SHARE: f64 = 0.02;

/// Whether `slower` takes at most [`EQUAL_TIME_SHARE`] of `quicker` longer.
///
/// ```
/// use parallel_core::search::equally_quick;
/// assert!(equally_quick(10.0, 10.2));
/// assert!(!equally_quick(10.0, 10.21));
/// ```
pub fn equally_quick(quicker: f64, slower: f64) -> bool {
    slower <= quicker * (1.0 + EQUAL_TIME_SHARE)
}

/// What decides between plans that are a tie (their steps within [`EQUAL_TIME_SHARE`] of the
/// quickest on their side of the safe share), in this order (the derived `Ord`, smaller first):
///
/// 1. **No CP** (`splits_sequence` false): a sequence that fits a card unsplit is not cut into
///    2·c chunks with a ring of K/V exchanges. Llama 3 ran CP 1 at 8K tokens and CP 16 only at
///    128K (arXiv 2407.21783, Table 4; `crate::runs`).
/// 2. **Fewer parallel dimensions**: how many of TP, CP, PP and EP are above 1. DP is not
///    counted: it is what every plan scales with once the model fits, with no change to the
///    model's code (Narayanan et al. 2021 §3.3, takeaway #2: a model-parallel size just large
///    enough for the model to fit, data parallelism for the rest).
/// 3. **Smaller PP**: the cards go to TP inside a node, or to DP, before PP across nodes
///    (Narayanan et al. 2021 §3.3, takeaway #1). TP is always inside a node already: the search
///    tries only t ≤ gpus_per_node.
///
/// Then the quicker step, less memory and enumeration order.
///
/// ```
/// use parallel_core::search::Practice;
/// let no_cp = Practice::of(8, 1, 16, 1); // TP 8 × PP 16 (× DP)
/// let cp = Practice::of(4, 4, 32, 1); // TP 4 × CP 4 × PP 32 (× DP)
/// assert_eq!(no_cp.dimensions, 2);
/// assert!(no_cp < cp);
/// assert!(Practice::of(8, 1, 8, 1) < Practice::of(8, 1, 16, 1));
/// assert!(Practice::of(1, 1, 8, 1) < Practice::of(2, 1, 4, 1)); // PP alone: one dimension
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Practice {
    /// CP > 1: the plan splits every sequence.
    pub splits_sequence: bool,
    /// How many of TP, CP, PP and EP are above 1.
    pub dimensions: u32,
    /// Pipeline stages.
    pub pp: u32,
}

impl Practice {
    /// A plan's practice from its degrees.
    pub fn of(tp: u32, cp: u32, pp: u32, ep: u32) -> Practice {
        Practice {
            splits_sequence: cp > 1,
            dimensions: [tp, cp, pp, ep].iter().filter(|d| **d > 1).count() as u32,
            pp,
        }
    }
}

/// A fitting candidate as ranked: above the safe share of the card or not, step, practice,
/// total memory, and its enumeration index.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ranked {
    pub(super) tight: bool,
    pub(super) step: f64,
    pub(super) practice: Practice,
    pub(super) total: f64,
    pub(super) index: u64,
}

/// Plans by time: under the safe share of the card ([`crate::margin::SAFE_SHARE`]) first
/// (Fujii et al. 2024, see [`crate::margin`]), then step; at the very same step fewer pipeline
/// stages, then total memory and enumeration order. The order outside the tie band, and the
/// order of the plans of one [`Practice`] (what the search keeps).
pub(super) fn faster(a: &Ranked, b: &Ranked) -> core::cmp::Ordering {
    a.tight
        .cmp(&b.tight)
        .then(a.step.total_cmp(&b.step))
        .then(a.practice.pp.cmp(&b.practice.pp))
        .then(a.total.total_cmp(&b.total))
        .then(a.index.cmp(&b.index))
}

/// Plans in a tie: practice, then step, total memory and enumeration order.
fn in_a_tie(a: &Ranked, b: &Ranked) -> core::cmp::Ordering {
    a.practice
        .cmp(&b.practice)
        .then(a.step.total_cmp(&b.step))
        .then(a.total.total_cmp(&b.total))
        .then(a.index.cmp(&b.index))
}

/// The search's order of `plans` (SPEC §17), its first `top`, and the quickest plan of the
/// first plan's side of the safe share (the tie band's reference). On each side, the plans
/// within [`EQUAL_TIME_SHARE`] of that side's quickest come first, by [`Practice`]; the others
/// follow by [`faster`]. A plan outside the band never goes before a quicker one.
pub(super) fn ranking(mut plans: Vec<Ranked>, top: usize) -> (Vec<Ranked>, Option<Ranked>) {
    plans.sort_by(faster);
    let quickest = plans.first().copied();
    let mut start = 0;
    while let Some(head) = plans.get(start).copied() {
        let side = start + plans[start..].partition_point(|r| r.tight == head.tight);
        let band = start + plans[start..side].partition_point(|r| equally_quick(head.step, r.step));
        plans[start..band].sort_by(in_a_tie);
        start = side;
        if start >= top {
            break;
        }
    }
    plans.truncate(top);
    (plans, quickest)
}

/// Ranking of near misses: total memory, then enumeration order.
pub(super) fn lighter(a: &Ranked, b: &Ranked) -> core::cmp::Ordering {
    a.total.total_cmp(&b.total).then(a.index.cmp(&b.index))
}

/// Inserts `item` into the sorted `list` of at most `limit` entries.
pub(super) fn keep(
    list: &mut Vec<Ranked>,
    limit: usize,
    item: Ranked,
    order: fn(&Ranked, &Ranked) -> core::cmp::Ordering,
) {
    if limit == 0 {
        return;
    }
    if list.len() == limit {
        match list.last() {
            Some(last) if order(&item, last).is_lt() => {
                list.pop();
            }
            _ => return,
        }
    }
    let at = list.partition_point(|x| order(x, &item).is_lt());
    list.insert(at, item);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(index: u64, tight: bool, step: f64, tp: u32, cp: u32, pp: u32) -> Ranked {
        Ranked {
            tight,
            step,
            practice: Practice::of(tp, cp, pp, 1),
            total: 1.0,
            index,
        }
    }

    fn order(plans: &[Ranked]) -> Vec<u64> {
        ranking(plans.to_vec(), usize::MAX)
            .0
            .iter()
            .map(|r| r.index)
            .collect()
    }

    #[test]
    fn a_tie_goes_to_the_practitioner_s_plan_and_a_gap_to_the_quicker() {
        let cp = plan(0, false, 10.0, 4, 4, 32);
        for (why, plans, want) in [
            (
                "within 2% of the quickest: no CP first",
                vec![cp, plan(1, false, 10.19, 8, 1, 16)],
                vec![1, 0],
            ),
            (
                "2.1% slower: not a tie, the quicker plan with CP stays first",
                vec![cp, plan(1, false, 10.21, 8, 1, 16)],
                vec![0, 1],
            ),
            (
                "same CP: fewer dimensions (PP alone against TP × PP)",
                vec![plan(0, false, 10.0, 2, 1, 4), plan(1, false, 10.1, 1, 1, 8)],
                vec![1, 0],
            ),
            (
                "same CP and dimensions: fewer stages",
                vec![
                    plan(0, false, 10.0, 8, 2, 32),
                    plan(1, false, 10.1, 4, 4, 16),
                ],
                vec![1, 0],
            ),
            (
                "same practice: the quicker",
                vec![
                    plan(0, false, 10.1, 8, 1, 16),
                    plan(1, false, 10.0, 8, 1, 16),
                ],
                vec![1, 0],
            ),
            (
                "a tie on the tight side does not cross the safe-share line",
                vec![plan(0, false, 10.2, 4, 4, 32), plan(1, true, 10.0, 8, 1, 1)],
                vec![0, 1],
            ),
            (
                "each side has its own band: the tight side's tie is decided there",
                vec![
                    plan(0, false, 20.0, 4, 4, 32),
                    plan(1, true, 10.0, 4, 4, 32),
                    plan(2, true, 10.1, 8, 1, 16),
                ],
                vec![0, 2, 1],
            ),
        ] {
            assert_eq!(order(&plans), want, "{why}");
        }
    }

    #[test]
    fn a_plan_outside_the_band_never_passes_a_quicker_one() {
        // Steps spread over 0–5% with every practice: each plan after the band is slower than
        // every plan before it, and the band holds exactly the plans within 2% of the quickest.
        let mut plans = Vec::new();
        let mut index = 0;
        for (i, step) in [1.0, 1.004, 1.011, 1.019, 1.02, 1.0201, 1.03, 1.05]
            .into_iter()
            .enumerate()
        {
            for (tp, cp, pp) in [(8, 4, 16), (8, 1, 32), (1, 1, 8), (2, 2, 1)] {
                plans.push(plan(index, i % 3 == 2, step, tp, cp, pp));
                index += 1;
            }
        }
        let (ranked, quickest) = ranking(plans.clone(), usize::MAX);
        assert_eq!(ranked.len(), plans.len());
        for side in [false, true] {
            let side: Vec<&Ranked> = ranked.iter().filter(|r| r.tight == side).collect();
            let q = side.iter().map(|r| r.step).fold(f64::INFINITY, f64::min);
            let band = side.iter().take_while(|r| equally_quick(q, r.step)).count();
            assert_eq!(
                band,
                side.iter().filter(|r| equally_quick(q, r.step)).count()
            );
            assert!(side[..band]
                .windows(2)
                .all(|w| in_a_tie(w[0], w[1]).is_lt()));
            assert!(side[band..].windows(2).all(|w| w[0].step <= w[1].step));
        }
        assert_eq!(
            ranked.iter().take_while(|r| !r.tight).count(),
            plans.iter().filter(|r| !r.tight).count()
        );
        assert_eq!(quickest.map(|q| q.step), Some(1.0));
        // The first `top` of the order are the order's own first `top`.
        for top in [1, 3, 20, 25] {
            let (first, _) = ranking(plans.clone(), top);
            assert_eq!(
                first.iter().map(|r| r.index).collect::<Vec<_>>(),
                ranked[..top].iter().map(|r| r.index).collect::<Vec<_>>()
            );
        }
    }

    proptest::proptest! {
        /// What the search keeps (the best `top` of each practice, by [`faster`]) ranks as all
        /// the plans do: the first `top` of the whole order are among them.
        #[test]
        fn the_best_of_each_practice_rank_as_all_plans_do(
            plans in proptest::collection::vec(
                (proptest::bool::weighted(0.2), 100u32..106, 0usize..3, 0usize..2, 0usize..4, 0u8..3),
                1..80,
            ),
            top in 1usize..12,
        ) {
            let plans: Vec<Ranked> = plans
                .into_iter()
                .enumerate()
                .map(|(i, (tight, step, tp, cp, pp, total))| Ranked {
                    tight,
                    step: f64::from(step) / 100.0,
                    practice: Practice::of([1, 2, 8][tp], [1, 4][cp], [1, 2, 4, 16][pp], 1),
                    total: f64::from(total),
                    index: i as u64,
                })
                .collect();
            let mut kept: std::collections::BTreeMap<Practice, Vec<Ranked>> = Default::default();
            for plan in &plans {
                keep(kept.entry(plan.practice).or_default(), top, *plan, faster);
            }
            let (all, quickest) = ranking(plans.clone(), top);
            let (best, kept_quickest) = ranking(kept.into_values().flatten().collect(), top);
            let indices = |r: &[Ranked]| r.iter().map(|r| r.index).collect::<Vec<_>>();
            proptest::prop_assert_eq!(indices(&all), indices(&best));
            proptest::prop_assert_eq!(quickest.map(|q| q.index), kept_quickest.map(|q| q.index));
            // A plan outside its side's band never goes before a quicker plan.
            let (full, _) = ranking(plans, usize::MAX);
            for (i, a) in full.iter().enumerate() {
                for b in &full[i + 1..] {
                    if a.tight == b.tight && b.step < a.step {
                        let q = full.iter().filter(|r| r.tight == a.tight).map(|r| r.step).fold(f64::INFINITY, f64::min);
                        proptest::prop_assert!(equally_quick(q, a.step) && equally_quick(q, b.step));
                    }
                }
            }
        }
    }
}
