//! Pipeline schedules drawn as stages × time: GPipe, 1F1B, interleaved 1F1B and zero-bubble
//! ZB-H1 (SPEC §6's schedule view).
//!
//! Each stage runs its operations in a fixed order; an operation starts when its stage is free
//! and its inputs exist (the forward of the previous stage, the backward of the next). Time is
//! counted in ticks: for GPipe, 1F1B and interleaved a forward of one model chunk takes 1 tick
//! and its backward 2 (input and weight gradients together, B = 2F as in Narayanan et al.
//! 2021); a stage holds v chunks, so a whole-stage forward takes v ticks. ZB-H1 (Qi et al.
//! 2023) splits the backward into B (input gradient) and W (weight gradient), F = B = W = 1
//! tick, and lets W wait to fill what would be idle time.
//!
//! The simulated idle share equals the closed forms of [`crate::Bubble`] for GPipe, 1F1B and
//! interleaved (tests check it), and ZB-H1's idle time is a third of 1F1B's.

use serde::Serialize;

use crate::checks::at_least_one;
use crate::config::{Field, Schedule};
use crate::error::PlanError;

/// What a tick range of a stage is spent on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OpKind {
    /// Forward pass.
    Forward,
    /// Backward pass (for ZB-H1: the input-gradient half, B).
    Backward,
    /// Weight-gradient half of the backward (ZB-H1 only).
    Weight,
}

/// One operation on the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Op {
    /// Pipeline stage, 0 = first.
    pub stage: u32,
    /// Micro-batch index.
    pub micro_batch: u32,
    /// Model chunk on this stage (0 unless interleaved).
    pub chunk: u32,
    /// Forward, backward or weight gradient.
    pub kind: OpKind,
    /// Start tick.
    pub start: u32,
    /// Length in ticks.
    pub ticks: u32,
}

/// Which schedule to draw: the three of the config plus zero-bubble ZB-H1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScheduleView {
    /// GPipe.
    Gpipe,
    /// 1F1B.
    OneFOneB,
    /// Interleaved 1F1B with v chunks per stage.
    Interleaved,
    /// Zero bubble ZB-H1.
    ZbH1,
}

impl From<Schedule> for ScheduleView {
    fn from(s: Schedule) -> ScheduleView {
        match s {
            Schedule::Gpipe => ScheduleView::Gpipe,
            Schedule::OneFOneB => ScheduleView::OneFOneB,
            Schedule::Interleaved => ScheduleView::Interleaved,
        }
    }
}

/// A simulated schedule.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Timeline {
    /// Stages p.
    pub stages: u32,
    /// Ticks from the first forward to the last operation.
    pub total_ticks: u32,
    /// Every operation, stage by stage in execution order.
    pub ops: Vec<Op>,
    /// Idle ticks over all stages ÷ (stages × total ticks).
    pub idle_share: f64,
}

/// The largest schedule drawn: p·m·v ≤ 4,096 (a view, not a simulator of real runs).
pub const MAX_TIMELINE_SLOTS: u64 = 4096;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    F(u32, u32),
    B(u32, u32),
}

/// The forward and backward order of one stage (micro-batch, chunk), 1F1B style with
/// `warmup` forwards first; GPipe is warmup = all.
fn one_f_one_b_order(
    forwards: &[(u32, u32)],
    backwards: &[(u32, u32)],
    warmup: usize,
) -> Vec<Step> {
    let n = forwards.len();
    let warmup = warmup.min(n);
    let mut order = Vec::with_capacity(2 * n);
    order.extend(forwards[..warmup].iter().map(|&(m, c)| Step::F(m, c)));
    for i in warmup..n {
        order.push(Step::F(forwards[i].0, forwards[i].1));
        let (m, c) = backwards[i - warmup];
        order.push(Step::B(m, c));
    }
    order.extend(backwards[n - warmup..].iter().map(|&(m, c)| Step::B(m, c)));
    order
}

/// Simulates a schedule of `stages` stages and `micro_batches` micro-batches (`chunks` model
/// chunks per stage for the interleaved view).
///
/// Errors name the field: `pp` or `micro_batches` below 1, `virtual_stages` ≠ 1 outside the
/// interleaved view, interleaved with m not divisible by p, or more than
/// [`MAX_TIMELINE_SLOTS`] stage-slots.
///
/// ```
/// use parallel_core::{simulate_schedule, Bubble, ScheduleView};
/// let t = simulate_schedule(ScheduleView::OneFOneB, 4, 8, 1)?;
/// assert_eq!(t.idle_share, Bubble::of(4, 8, 1).share); // 3/11
/// let zb = simulate_schedule(ScheduleView::ZbH1, 4, 8, 1)?;
/// assert_eq!(zb.total_ticks, 3 * 8 + 3); // idle (p−1)·F instead of (p−1)·(F+B+W)
/// # Ok::<(), parallel_core::PlanError>(())
/// ```
pub fn simulate_schedule(
    view: ScheduleView,
    stages: u32,
    micro_batches: u32,
    chunks: u32,
) -> Result<Timeline, PlanError> {
    at_least_one(stages, Field::Pp)?;
    at_least_one(micro_batches, Field::MicroBatches)?;
    at_least_one(chunks, Field::VirtualStages)?;
    if chunks > 1 && view != ScheduleView::Interleaved {
        return Err(PlanError::ChunksNeedInterleaved {
            virtual_stages: chunks,
            schedule: match view {
                ScheduleView::Gpipe => "gpipe",
                ScheduleView::OneFOneB => "1f1b",
                ScheduleView::Interleaved => "interleaved",
                ScheduleView::ZbH1 => "zb-h1",
            },
        });
    }
    let slots = u64::from(stages) * u64::from(micro_batches) * u64::from(chunks);
    if slots > MAX_TIMELINE_SLOTS {
        return Err(PlanError::TimelineTooLarge {
            slots,
            max: MAX_TIMELINE_SLOTS,
        });
    }
    if view == ScheduleView::Interleaved && micro_batches % stages != 0 {
        return Err(PlanError::InterleavedMicroBatches {
            micro_batches,
            pp: stages,
        });
    }
    Ok(Simulator::new(view, stages, micro_batches, chunks).run())
}

struct Simulator {
    view: ScheduleView,
    p: u32,
    m: u32,
    v: u32,
    /// End tick of F / B per (stage, chunk, micro-batch), u32::MAX when not yet run.
    f_end: Vec<u32>,
    b_end: Vec<u32>,
}

impl Simulator {
    fn new(view: ScheduleView, p: u32, m: u32, v: u32) -> Simulator {
        let n = (p * m * v) as usize;
        Simulator {
            view,
            p,
            m,
            v,
            f_end: vec![u32::MAX; n],
            b_end: vec![u32::MAX; n],
        }
    }

    fn slot(&self, stage: u32, chunk: u32, mb: u32) -> usize {
        ((stage * self.v + chunk) * self.m + mb) as usize
    }

    /// Per-stage order of (micro-batch, chunk) forwards and backwards, and the warmup count.
    fn stage_order(&self, stage: u32) -> Vec<Step> {
        let (p, m, v) = (self.p, self.m, self.v);
        let forwards: Vec<(u32, u32)> = (0..m * v)
            .map(|k| {
                // Megatron's interleaving: p micro-batches through chunk 0, then chunk 1, ...
                let chunk = (k / p) % v;
                let mb = (k / (p * v)) * p + k % p;
                (mb, chunk)
            })
            .collect();
        let backwards: Vec<(u32, u32)> = forwards.iter().map(|&(mb, c)| (mb, v - 1 - c)).collect();
        let warmup = match self.view {
            ScheduleView::Gpipe => forwards.len(),
            ScheduleView::OneFOneB | ScheduleView::ZbH1 => (p - stage - 1) as usize,
            ScheduleView::Interleaved => ((p - stage - 1) * 2 + (v - 1) * p) as usize,
        };
        one_f_one_b_order(&forwards, &backwards, warmup)
    }

    fn ticks(&self, step: Step) -> u32 {
        match (self.view, step) {
            (_, Step::F(..)) | (ScheduleView::ZbH1, Step::B(..)) => 1,
            (_, Step::B(..)) => 2,
        }
    }

    /// When the inputs of a step exist, or None if an input has not been produced yet.
    fn ready_at(&self, stage: u32, step: Step) -> Option<u32> {
        let known = |t: u32| (t != u32::MAX).then_some(t);
        let last = self.p - 1;
        match step {
            Step::F(mb, c) => match (stage, c) {
                (0, 0) => Some(0),
                (0, c) => known(self.f_end[self.slot(last, c - 1, mb)]),
                (s, c) => known(self.f_end[self.slot(s - 1, c, mb)]),
            },
            Step::B(mb, c) => {
                let own_forward = known(self.f_end[self.slot(stage, c, mb)])?;
                let upstream = if stage < last {
                    known(self.b_end[self.slot(stage + 1, c, mb)])?
                } else if c + 1 < self.v {
                    known(self.b_end[self.slot(0, c + 1, mb)])?
                } else {
                    0
                };
                Some(own_forward.max(upstream))
            }
        }
    }

    fn run(mut self) -> Timeline {
        let p = self.p as usize;
        let orders: Vec<Vec<Step>> = (0..self.p).map(|s| self.stage_order(s)).collect();
        let mut next = vec![0usize; p];
        let mut free = vec![0u32; p];
        // ZB-H1: weight gradients waiting to fill idle ticks.
        let mut pending_w: Vec<Vec<(u32, u32)>> = vec![Vec::new(); p];
        let mut ops: Vec<Op> = Vec::new();
        let zb = self.view == ScheduleView::ZbH1;

        loop {
            // The stage that can act earliest goes first (event-driven, so W fills real gaps).
            let mut best: Option<(u32, usize, bool)> = None; // (start, stage, is_w)
            for s in 0..p {
                let has_w = !pending_w[s].is_empty();
                let candidate = match orders[s].get(next[s]) {
                    Some(&step) => match self.ready_at(s as u32, step) {
                        Some(r) if r <= free[s] || !has_w => Some((r.max(free[s]), false)),
                        // inputs come later (or are unknown): fill the gap with a W.
                        _ if has_w => Some((free[s], true)),
                        _ => None,
                    },
                    None if has_w => Some((free[s], true)),
                    None => None,
                };
                if let Some((start, is_w)) = candidate {
                    if best.is_none_or(|(b, _, _)| start < b) {
                        best = Some((start, s, is_w));
                    }
                }
            }
            let Some((start, s, is_w)) = best else { break };
            let stage = s as u32;
            if is_w {
                let (mb, chunk) = pending_w[s].remove(0);
                ops.push(Op {
                    stage,
                    micro_batch: mb,
                    chunk,
                    kind: OpKind::Weight,
                    start,
                    ticks: 1,
                });
                free[s] = start + 1;
                continue;
            }
            let step = orders[s][next[s]];
            next[s] += 1;
            let ticks = self.ticks(step);
            let end = start + ticks;
            let (mb, chunk, kind) = match step {
                Step::F(mb, c) => {
                    let i = self.slot(stage, c, mb);
                    self.f_end[i] = end;
                    (mb, c, OpKind::Forward)
                }
                Step::B(mb, c) => {
                    let i = self.slot(stage, c, mb);
                    self.b_end[i] = end;
                    if zb {
                        pending_w[s].push((mb, c));
                    }
                    (mb, c, OpKind::Backward)
                }
            };
            ops.push(Op {
                stage,
                micro_batch: mb,
                chunk,
                kind,
                start,
                ticks,
            });
            free[s] = end;
        }

        let total_ticks = free.iter().copied().max().unwrap_or(0);
        let busy: u64 = ops.iter().map(|o| u64::from(o.ticks)).sum();
        let capacity = u64::from(self.p) * u64::from(total_ticks);
        ops.sort_by_key(|o| (o.stage, o.start));
        Timeline {
            stages: self.p,
            total_ticks,
            ops,
            idle_share: if capacity == 0 {
                0.0
            } else {
                (capacity - busy) as f64 / capacity as f64
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bubble;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn gpipe_and_1f1b_match_the_closed_form() {
        for p in 1..=8 {
            for m in 1..=24 {
                for view in [ScheduleView::Gpipe, ScheduleView::OneFOneB] {
                    let t = simulate_schedule(view, p, m, 1).unwrap();
                    assert_eq!(t.total_ticks, 3 * (m + p - 1), "{view:?} p{p} m{m}");
                    assert!(close(t.idle_share, Bubble::of(p, m, 1).share));
                }
            }
        }
    }

    #[test]
    fn interleaved_divides_the_bubble_by_v() {
        for p in 2..=8 {
            for v in 1..=4 {
                for k in 1..=4 {
                    let m = p * k;
                    let t = simulate_schedule(ScheduleView::Interleaved, p, m, v).unwrap();
                    let want = Bubble::of(p, m, v).share;
                    assert!(
                        close(t.idle_share, want),
                        "p{p} v{v} m{m}: {} vs {want}",
                        t.idle_share
                    );
                }
            }
        }
    }

    #[test]
    fn zb_h1_idles_a_third_of_1f1b() {
        for p in 2..=8 {
            for m in p..=3 * p {
                let zb = simulate_schedule(ScheduleView::ZbH1, p, m, 1).unwrap();
                let one = simulate_schedule(ScheduleView::OneFOneB, p, m, 1).unwrap();
                let idle = |t: &Timeline| t.total_ticks - 3 * m;
                assert_eq!(3 * idle(&zb), idle(&one), "p{p} m{m}");
            }
        }
    }

    #[test]
    fn every_operation_runs_once_and_stages_never_overlap() {
        for view in [
            ScheduleView::Gpipe,
            ScheduleView::OneFOneB,
            ScheduleView::ZbH1,
        ] {
            let t = simulate_schedule(view, 4, 6, 1).unwrap();
            let per_mb = if view == ScheduleView::ZbH1 { 3 } else { 2 };
            assert_eq!(t.ops.len(), 4 * 6 * per_mb);
            for pair in t.ops.windows(2) {
                if pair[0].stage == pair[1].stage {
                    assert!(
                        pair[0].start + pair[0].ticks <= pair[1].start,
                        "{view:?}: {pair:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn bad_input_names_the_field() {
        for (view, pp, micro_batches, virtual_stages, field) in [
            (ScheduleView::OneFOneB, 0, 8, 1, Field::Pp),
            (ScheduleView::Interleaved, 4, 6, 2, Field::MicroBatches),
            (ScheduleView::Gpipe, 4, 8, 2, Field::VirtualStages),
            (ScheduleView::Gpipe, 64, 4096, 1, Field::MicroBatches),
        ] {
            let err = simulate_schedule(view, pp, micro_batches, virtual_stages).unwrap_err();
            assert_eq!(
                err.field(),
                field,
                "{view:?} pp {pp} m {micro_batches} v {virtual_stages}"
            );
        }
    }
}
