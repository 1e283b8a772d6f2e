//! Memory stage by stage (SPEC §11): pipeline stages are not equal. The first stage holds the
//! embedding and the most micro-batches in flight; the last holds the output head and the FP32
//! logits of a micro-batch. Every card shows the entry of its own stage.

use serde::Serialize;

use crate::config::Schedule;
use crate::memory::ModelStates;
use crate::plan::Plan;
use crate::units::Bytes;

/// Bytes per logit kept for the loss: FP32.
const LOGIT_BYTES: f64 = 4.0;

/// The memory of one pipeline stage's cards.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StageMemory {
    /// Stage index i, 0 = first.
    pub stage: u32,
    /// Transformer layers L_i on the stage.
    pub layers: u32,
    /// Weights, gradients and optimizer states of the stage's shard.
    pub model_states: Bytes,
    /// The routed experts' part of `model_states` (zero for a dense model): the stage's
    /// share of P_routed over e, by ZeRO's ledger over the expert-data-parallel group. In the
    /// report's JSON only for MoE models, so a dense report's entry keeps SPEC §11's keys.
    #[serde(skip_serializing_if = "Bytes::is_zero")]
    pub expert_states: Bytes,
    /// Saved activations (and, on the last stage, the logits of one micro-batch).
    pub activations: Bytes,
    /// model_states + activations.
    pub total: Bytes,
    /// total ≤ capacity.
    pub fits: bool,
}

/// How layers and in-flight micro-batches fall on the stages (SPEC §11), worked out once per
/// plan: [`Plan::stage_layers`], [`Plan::stage_in_flight`] and the stage loop share it.
struct StageRule {
    base: u32,
    remainder: u32,
    m: f64,
    p: f64,
    v: f64,
    schedule: Schedule,
}

impl StageRule {
    fn of(plan: &Plan) -> StageRule {
        let p = plan.degrees().pp;
        let layers = plan.model().layers;
        StageRule {
            base: layers / p,
            remainder: layers % p,
            m: f64::from(plan.micro_batches()),
            p: f64::from(p),
            v: f64::from(plan.virtual_stages()),
            schedule: plan.schedule(),
        }
    }

    /// L_i for a stage 0 … p − 1: ⌊L/p⌋, plus one on stages 1 … r.
    fn layers(&self, stage: u32) -> u32 {
        self.base + u32::from(stage >= 1 && stage <= self.remainder)
    }

    /// Micro-batches in flight on a stage 0 … p − 1.
    fn in_flight(&self, stage: u32) -> f64 {
        let (m, p, v, i) = (self.m, self.p, self.v, f64::from(stage));
        match self.schedule {
            Schedule::Gpipe => m,
            Schedule::OneFOneB => m.min(p - i),
            Schedule::Interleaved => (m * v).min(2.0 * (p - i - 1.0) + (v - 1.0) * p + 1.0) / v,
        }
    }
}

/// What every stage's shard is computed from, worked out once per plan.
struct ShardBasis {
    /// V·h: the embedding, and the output head.
    vh: f64,
    /// The body B minus the routed experts, spread over the layers.
    dense_body: f64,
    /// P_routed (0 for a dense model).
    routed: f64,
    layers: f64,
    tp: f64,
    ep: f64,
    last: u32,
    /// The head has its own copy (not p = 1 with tied embeddings).
    own_head: bool,
}

impl ShardBasis {
    fn of(plan: &Plan) -> ShardBasis {
        let d = plan.degrees();
        let model = plan.model();
        let vh = f64::from(model.vocab) * f64::from(model.hidden);
        let tied = model.tied_embeddings;
        let body = (model.params - vh * if tied { 1.0 } else { 2.0 }).max(0.0);
        let routed = model.routed_params().min(body);
        ShardBasis {
            vh,
            dense_body: body - routed,
            routed,
            layers: f64::from(model.layers),
            tp: f64::from(d.tp),
            ep: f64::from(d.ep),
            last: d.pp - 1,
            own_head: !(tied && d.pp == 1),
        }
    }

    /// (Ψ_i, Ψ_e,i) of stage `stage` holding `layers_i` layers.
    fn shards(&self, stage: u32, layers_i: u32) -> (f64, f64) {
        let share = f64::from(layers_i) / self.layers;
        let embedding = if stage == 0 { self.vh } else { 0.0 };
        let head = if stage == self.last && self.own_head {
            self.vh
        } else {
            0.0
        };
        let psi = (embedding + head + share * self.dense_body) / self.tp;
        let expert_psi = if self.routed > 0.0 {
            share * self.routed / self.ep
        } else {
            0.0
        };
        (psi, expert_psi)
    }
}

impl StageMemory {
    /// The dense part of the stage's model states: everything but the routed experts.
    pub fn dense_states(&self) -> Bytes {
        Bytes::new(self.model_states.get() - self.expert_states.get())
    }
}

impl Plan {
    /// Layers on stage i (SPEC §11): L_i = ⌊L/p⌋, and the remainder r = L mod p adds one layer
    /// to each of stages 1 … r (stage 0 already holds the embedding). Stages outside 0 … p−1
    /// hold none.
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig, Preset, ModelChoice};
    /// // Llama 3 405B's 126 layers on 16 stages: 7 on stage 0, 8 on stages 1–14, 7 on stage 15.
    /// let plan = Plan::new(&PlanConfig {
    ///     model: ModelChoice::Preset(Preset::Llama3_405b), gpus: 16, pp: 16, ..PlanConfig::default()
    /// })?;
    /// let layers: Vec<u32> = (0..16).map(|i| plan.stage_layers(i)).collect();
    /// assert_eq!((layers[0], layers[1], layers[14], layers[15]), (7, 8, 8, 7));
    /// assert_eq!(layers.iter().sum::<u32>(), 126);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn stage_layers(&self, stage: u32) -> u32 {
        if stage >= self.degrees().pp {
            return 0;
        }
        StageRule::of(self).layers(stage)
    }

    /// Micro-batches whose activations stage i holds at its peak, in whole-stage equivalents
    /// (SPEC §11): GPipe m; 1F1B min(m, p − i); interleaved
    /// min(m·v, 2·(p − i − 1) + (v − 1)·p + 1)/v, Megatron-LM's warm-up count plus one
    /// (Narayanan et al. 2021, §2.2). On stage 0 with m ≥ p these are §4's m, p and
    /// p + (p − 1)/v. They agree with the peak the schedule simulator holds per stage (a test
    /// checks p ≤ 16, m ≤ 64, v ≤ 4).
    pub fn stage_in_flight(&self, stage: u32) -> f64 {
        StageRule::of(self).in_flight(stage.min(self.degrees().pp.saturating_sub(1)))
    }

    /// Memory of every pipeline stage, 0 … p − 1 (SPEC §11).
    ///
    /// Parameters: the embedding V·h sits on stage 0 and the output head V·h on stage p − 1
    /// (with p = 1 and tied embeddings there is only the one V·h). The body
    /// B = P − V·h·(1 if tied else 2) spreads evenly over the layers; for MoE models the routed
    /// experts P_routed are taken out of B and spread over the MoE layers. Stage i holds
    /// Ψ_i = (embedding_i + head_i + L_i·(B − P_routed)/L)/t over the group D = d·c, and
    /// Ψ_e,i = (L_i/L)·P_routed/e over the expert-data-parallel group; ZeRO's ledger applies to
    /// each. Activations: §4's per-layer bytes over the stage's L_i layers (attention scores
    /// over its F·L_i/L full-attention layers) × [`Plan::stage_in_flight`]; the last stage adds
    /// the FP32 logits of one micro-batch, 4·s'·b·V/t.
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig};
    /// // The 64-card lesson plan, TP 8 × PP 8: stage 0 holds the embedding and 8 micro-batches
    /// // in flight; stage 7 holds the output head, one micro-batch and the FP32 logits of a
    /// // 248,320-token vocabulary, which outweigh the other seven.
    /// let plan = Plan::new(&PlanConfig::lesson_64_gpus())?;
    /// let stages = plan.memory_by_stage();
    /// assert_eq!(stages.len(), 8);
    /// assert!(stages[0].total > stages[3].total && stages[7].total > stages[3].total);
    /// assert!(stages[7].activations > stages[0].activations);
    /// assert_eq!(plan.busiest_stage(), 7);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn memory_by_stage(&self) -> Vec<StageMemory> {
        // (A test checks this loop against the per-stage functions for every stage.)
        let d = self.degrees();
        let g = self.precision().grad_bytes();
        let (per_layer, scores) = self.activation_per_layer();
        let logits = self.stage_logits();
        let basis = ShardBasis::of(self);
        let (dense_group, expert_group) = (
            f64::from(d.weight_group()),
            f64::from(d.expert_dp.unwrap_or(1)),
        );
        let layers = f64::from(self.model().layers);
        let full_attention = f64::from(self.model().full_attention_layers);
        let capacity = self.capacity();
        let last = d.pp - 1;
        // Middle stages with the same layers hold the same model states and the same bytes per
        // micro-batch (runs of them are long with many stages): those of the previous middle
        // stage are reused, and only the micro-batches in flight are applied again.
        let mut previous: Option<(u32, Bytes, Bytes, Bytes)> = None;
        // stage_layers and stage_in_flight, with their per-plan parts worked out once.
        let rule = StageRule::of(self);
        (0..d.pp)
            .map(|stage| {
                let layers_i = rule.layers(stage);
                let in_flight = rule.in_flight(stage);
                let middle = stage != 0 && stage != last;
                let reused = previous.filter(|&(layers, ..)| middle && layers == layers_i);
                let (model_states, expert_states, per_micro_batch) = match reused {
                    Some((_, states, experts, per_micro_batch)) => {
                        (states, experts, per_micro_batch)
                    }
                    None => {
                        let (psi, expert_psi) = basis.shards(stage, layers_i);
                        let mut states = ModelStates::ledger(psi, dense_group, self.zero(), g);
                        let mut expert_states = Bytes::ZERO;
                        if expert_psi > 0.0 {
                            let experts =
                                ModelStates::ledger(expert_psi, expert_group, self.zero(), g);
                            expert_states = experts.total();
                            states = states.plus(experts);
                        }
                        let share = f64::from(layers_i) / layers;
                        let per_micro_batch =
                            per_layer * f64::from(layers_i) + scores * (full_attention * share);
                        (states.total(), expert_states, per_micro_batch)
                    }
                };
                if middle {
                    previous = Some((layers_i, model_states, expert_states, per_micro_batch));
                }
                let mut activations = per_micro_batch * in_flight;
                if stage == last {
                    activations += logits;
                }
                let total = model_states + activations;
                StageMemory {
                    stage,
                    layers: layers_i,
                    model_states,
                    expert_states,
                    activations,
                    total,
                    fits: total <= capacity,
                }
            })
            .collect()
    }

    /// The parameters stage i holds per card (SPEC §11): the dense shard
    /// Ψ_i = (embedding_i + head_i + L_i·(B − P_routed)/L)/t and the experts'
    /// Ψ_e,i = (L_i/L)·P_routed/e (0 for a dense model).
    pub fn stage_shards(&self, stage: u32) -> (f64, f64) {
        ShardBasis::of(self).shards(stage, self.stage_layers(stage))
    }

    /// The FP32 logits of one micro-batch the last stage keeps for the loss: 4·s'·b·V/t.
    pub fn stage_logits(&self) -> Bytes {
        let d = self.degrees();
        let s_local = f64::from(self.seq_len()) / f64::from(d.cp);
        let b = f64::from(self.micro_batch_size());
        Bytes::new(LOGIT_BYTES * s_local * b * f64::from(self.model().vocab) / f64::from(d.tp))
    }

    /// The stage with the largest total (the first such stage on a tie).
    pub fn busiest_stage(&self) -> u32 {
        busiest(&self.memory_by_stage())
    }
}

/// The lightest and the heaviest stage's totals, `None` when there are no stages.
pub fn stages_range(stages: &[StageMemory]) -> Option<(Bytes, Bytes)> {
    let totals = stages.iter().map(|s| s.total);
    let least = totals.clone().reduce(|a, b| if b < a { b } else { a })?;
    let most = totals.reduce(|a, b| if b > a { b } else { a })?;
    Some((least, most))
}

/// How uneven the stages are: the largest total over the smallest (1 when all are equal, or
/// when there are none).
///
/// ```
/// use parallel_core::{stages_imbalance, Plan, PlanConfig};
/// let plan = Plan::new(&PlanConfig::lesson_64_gpus())?;
/// let ratio = stages_imbalance(&plan.memory_by_stage());
/// assert!(ratio > 1.4 && ratio < 1.5, "{ratio}"); // 9.4 GB on stage 7 against 6.4 GB on stage 6
/// # Ok::<(), parallel_core::PlanError>(())
/// ```
pub fn stages_imbalance(stages: &[StageMemory]) -> f64 {
    match stages_range(stages) {
        Some((least, most)) if least.get() > 0.0 => most.get() / least.get(),
        _ => 1.0,
    }
}

/// The index of the first stage with the largest total.
pub(crate) fn busiest(stages: &[StageMemory]) -> u32 {
    stages
        .iter()
        .fold(None, |best: Option<&StageMemory>, s| match best {
            Some(b) if b.total >= s.total => Some(b),
            _ => Some(s),
        })
        .map_or(0, |s| s.stage)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::PlanConfig;
    use crate::model::{ModelChoice, Preset};
    use crate::schedule::{simulate_schedule, OpKind, ScheduleView};

    /// The peak number of model-chunk forwards a stage holds before their backward, from the
    /// simulated timeline, in whole-stage equivalents (÷ v).
    fn simulated_peak(view: ScheduleView, p: u32, m: u32, v: u32) -> Vec<f64> {
        let timeline = simulate_schedule(view, p, m, v).unwrap();
        (0..p)
            .map(|stage| {
                // (tick, +1 when a forward starts, −1 when a backward ends); releases first.
                let mut events: Vec<(u32, i32)> = Vec::new();
                for op in timeline.ops.iter().filter(|op| op.stage == stage) {
                    match op.kind {
                        OpKind::Forward => events.push((op.start, 1)),
                        OpKind::Backward => events.push((op.start + op.ticks, -1)),
                        OpKind::Weight => {}
                    }
                }
                events.sort();
                let (mut held, mut peak) = (0i32, 0i32);
                for (_, change) in events {
                    held += change;
                    peak = peak.max(held);
                }
                f64::from(peak) / f64::from(v)
            })
            .collect()
    }

    fn plan(pp: u32, m: u32, schedule: crate::config::Schedule, v: u32) -> Plan {
        Plan::new(&PlanConfig {
            gpus: pp,
            pp,
            micro_batches: m,
            schedule,
            virtual_stages: v,
            model: ModelChoice::Preset(Preset::Llama3_405b),
            ..PlanConfig::default()
        })
        .unwrap()
    }

    /// The stage loop's shortcuts (layers and in-flight worked out inline, runs of equal
    /// middle stages reused) give what the per-stage functions give, stage by stage.
    #[test]
    fn the_stage_loop_agrees_with_the_per_stage_functions() {
        use crate::config::Recompute;
        for preset in [Preset::Qwen38_27b, Preset::Llama3_405b, Preset::Mixtral8x7b] {
            for (pp, m, schedule, v) in [
                (1, 8, Schedule::OneFOneB, 1),
                (8, 3, Schedule::OneFOneB, 1),
                (16, 64, Schedule::Gpipe, 1),
                (4, 8, Schedule::Interleaved, 2),
                (32, 5, Schedule::OneFOneB, 1),
            ] {
                let Ok(plan) = Plan::new(&PlanConfig {
                    model: ModelChoice::Preset(preset),
                    gpus: 64,
                    pp,
                    micro_batches: m,
                    schedule,
                    virtual_stages: v,
                    recompute: Recompute::None,
                    ..PlanConfig::default()
                }) else {
                    continue;
                };
                let g = plan.precision().grad_bytes();
                let d = plan.degrees();
                let (per_layer, scores) = plan.activation_per_layer();
                for s in plan.memory_by_stage() {
                    let i = s.stage;
                    assert_eq!(s.layers, plan.stage_layers(i));
                    let (psi, expert_psi) = plan.stage_shards(i);
                    let mut states =
                        ModelStates::ledger(psi, f64::from(d.weight_group()), plan.zero(), g)
                            .total()
                            .get();
                    if expert_psi > 0.0 {
                        states += ModelStates::ledger(
                            expert_psi,
                            f64::from(d.expert_dp.unwrap_or(1)),
                            plan.zero(),
                            g,
                        )
                        .total()
                        .get();
                    }
                    let share = f64::from(s.layers) / f64::from(plan.model().layers);
                    let mut activations = (per_layer.get() * f64::from(s.layers)
                        + scores.get() * f64::from(plan.model().full_attention_layers) * share)
                        * plan.stage_in_flight(i);
                    if i == pp - 1 {
                        activations += plan.stage_logits().get();
                    }
                    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
                    assert!(
                        close(s.model_states.get(), states),
                        "{preset:?} pp {pp} stage {i}"
                    );
                    assert!(
                        close(s.activations.get(), activations),
                        "{preset:?} pp {pp} stage {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn in_flight_per_stage_agrees_with_the_simulator() {
        use crate::config::Schedule;
        let mut checked = 0;
        for p in 1..=16u32 {
            for m in 1..=64u32 {
                for (view, schedule) in [
                    (ScheduleView::Gpipe, Schedule::Gpipe),
                    (ScheduleView::OneFOneB, Schedule::OneFOneB),
                ] {
                    if u64::from(p) * u64::from(m) > crate::schedule::MAX_TIMELINE_SLOTS {
                        continue;
                    }
                    let plan = plan(p, m, schedule, 1);
                    let want = simulated_peak(view, p, m, 1);
                    let got: Vec<f64> = (0..p).map(|i| plan.stage_in_flight(i)).collect();
                    assert_eq!(got, want, "{schedule} p {p} m {m}");
                    checked += 1;
                }
                for v in 2..=4u32 {
                    // Interleaved: p > 1, m a multiple of p, 126 layers divisible by p·v.
                    if p == 1 || m % p != 0 || 126 % (p * v) != 0 {
                        continue;
                    }
                    if u64::from(p) * u64::from(m) * u64::from(v)
                        > crate::schedule::MAX_TIMELINE_SLOTS
                    {
                        continue;
                    }
                    let plan = plan(p, m, Schedule::Interleaved, v);
                    let want = simulated_peak(ScheduleView::Interleaved, p, m, v);
                    let got: Vec<f64> = (0..p).map(|i| plan.stage_in_flight(i)).collect();
                    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                        assert!(
                            (g - w).abs() < 1e-9,
                            "interleaved p {p} m {m} v {v} stage {i}: {g} vs {w}"
                        );
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 2000, "{checked}");
    }

    #[test]
    fn layers_sum_to_the_model_and_the_remainder_skips_stage_zero() {
        for pp in 1..=16 {
            let plan = plan(pp, pp, crate::config::Schedule::OneFOneB, 1);
            let layers: Vec<u32> = (0..pp).map(|i| plan.stage_layers(i)).collect();
            assert_eq!(layers.iter().sum::<u32>(), 126, "pp {pp}");
            let low = *layers.iter().min().unwrap();
            assert_eq!(layers[0], low, "stage 0 takes no extra layer (pp {pp})");
            assert!(layers.iter().all(|&l| l == low || l == low + 1));
        }
    }
}
