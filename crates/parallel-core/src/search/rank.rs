//! How fitting plans are ranked (SPEC §17, the search's order): under the safe share of the
//! card ([`crate::margin::SAFE_SHARE`]) first, then by step time;
//! at equal time (within [`EQUAL_TIME_SHARE`]) a plan that does not split the sequence
//! comes before one that does, and at the very same time fewer pipeline stages first.

use super::Found;

/// Two steps within this share of the quicker one count as equally quick.
///
/// The estimate cannot call a smaller gap: on the one card measured (an H200, SPEC §18),
/// its layer times sit 2–4% from the compiled layers' measured ones
/// (`tests/fixtures/check/h200-*`, read by `parallel-lab check --measured`). A plan that
/// splits the sequence over CP adds a ring of K/V exchanges and a load-balanced split of
/// every sequence into 2·c chunks; inside this band the plan without them ranks first.
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

/// At equal time, no CP first: when the head of `plans` splits the sequence and `without`,
/// the best fitting plan with CP 1, lies on the same side of the safe-share line and is equally
/// quick, `without` moves to the head (leaving its old place; at most `top` plans kept).
/// Returns the plan without CP to report beside a head that still splits the sequence.
pub(super) fn without_cp_first(
    plans: &mut Vec<Found>,
    without: Option<Found>,
    top: usize,
) -> Option<Found> {
    let head = plans.first()?;
    if head.config.cp == 1 {
        return None;
    }
    let without = without?;
    let (h, w) = (&head.report, &without.report);
    let promote = h.memory.tight == w.memory.tight
        && equally_quick(h.estimate.step_s.get(), w.estimate.step_s.get());
    if !promote {
        return Some(without);
    }
    plans.retain(|f| f.config != without.config);
    plans.insert(0, without);
    plans.truncate(top);
    None
}

/// A fitting candidate as ranked: above the safe share of the card or not, step, pipeline stages, total
/// memory, and its enumeration index.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ranked {
    pub(super) tight: bool,
    pub(super) step: f64,
    pub(super) pp: u32,
    pub(super) total: f64,
    pub(super) index: u64,
}

/// Ranking of fitting plans: under the safe share of the card ([`crate::margin::SAFE_SHARE`]) first (Fujii et al. 2024, see
/// [`crate::margin`]), then step (the rule at equal time, [`without_cp_first`], applies to the outcome); at
/// the very same step fewer pipeline stages (the cards go to TP inside
/// a node, or to DP, before PP across nodes: Narayanan et al. 2021 §3.3's takeaway #1), then
/// total memory and enumeration order.
pub(super) fn faster(a: &Ranked, b: &Ranked) -> core::cmp::Ordering {
    a.tight
        .cmp(&b.tight)
        .then(a.step.total_cmp(&b.step))
        .then(a.pp.cmp(&b.pp))
        .then(a.total.total_cmp(&b.total))
        .then(a.index.cmp(&b.index))
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
