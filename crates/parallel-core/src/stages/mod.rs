//! Memory stage by stage (SPEC §11): pipeline stages are not equal. The first stage holds the
//! embedding and the most micro-batches in flight; the last holds the output head and the FP32
//! logits of a micro-batch. Every card shows the entry of its own stage.

use serde::Serialize;

use crate::config::Schedule;
use crate::formula::{count_of, sum, Quantity, Show};
use crate::memory::{ledger_total, Held};
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
    /// The runtime terms' bytes (SPEC §24); zero, and not in the JSON, while they are off.
    #[serde(skip_serializing_if = "Bytes::is_zero")]
    pub runtime: Bytes,
    /// model_states + activations (+ runtime).
    pub total: Bytes,
    /// total ≤ capacity.
    pub fits: bool,
    /// Fits, but above [`crate::margin::SAFE_SHARE`] of the card ([`crate::margin::tight`]).
    pub tight: bool,
    /// On the last stage with `log_probs_chunk` set (SPEC §15): the tokens whose FP32 logits
    /// the stage holds at once, min(chunk, s'·b). Written only then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_probs_chunk: Option<f64>,
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
    fn in_flight<Q: Quantity>(&self, stage: u32) -> Q {
        let m = Q::var("m", self.m, Show::Count);
        let p = || Q::var("p", self.p, Show::Count);
        let v = || Q::var("v", self.v, Show::Count);
        let i = || count_of::<Q>("i", stage);
        let one = || Q::lit(1.0);
        let in_flight = match self.schedule {
            Schedule::Gpipe => m,
            Schedule::OneFOneB => m.min(p() - i()),
            Schedule::Interleaved => {
                (m * v()).min(Q::lit(2.0) * (p() - i() - one()) + (v() - one()) * p() + one()) / v()
            }
        };
        in_flight.named("in flight", Show::Count)
    }
}

/// What every stage's shard is computed from, worked out once per plan.
pub(crate) struct ShardBasis {
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
    /// Parameters of one average layer on a card: the dense body (B − P_routed)/(L·t) and the
    /// routed experts P_routed/(L·e), the shard rule each stage applies to its L_i layers.
    pub(crate) fn layer_params(&self) -> f64 {
        let layers = self.layers.max(1.0);
        self.dense_body / (layers * self.tp) + self.routed / (layers * self.ep)
    }

    pub(crate) fn of(plan: &Plan) -> ShardBasis {
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

    /// L_i/L: the stage's share of the layers.
    fn share<Q: Quantity>(&self, layers_i: u32) -> Q {
        count_of::<Q>("L_i", layers_i) / Q::var("L", self.layers, Show::Count)
    }

    /// (Ψ_i, Ψ_e,i) of stage `stage` holding `layers_i` layers; Ψ_e,i is `None` for a dense
    /// model.
    fn shards<Q: Quantity>(&self, stage: u32, layers_i: u32) -> (Q, Option<Q>) {
        let vh = || Q::var("V·h", self.vh, Show::Count);
        let mut parts = Vec::with_capacity(3);
        if stage == 0 {
            parts.push(vh());
        }
        if stage == self.last && self.own_head {
            parts.push(vh());
        }
        parts.push(self.share::<Q>(layers_i) * Q::var("B_dense", self.dense_body, Show::Count));
        let psi = sum(parts) / Q::var("t", self.tp, Show::Count);
        let expert_psi = (self.routed > 0.0).then(|| {
            (self.share::<Q>(layers_i) * Q::var("P_routed", self.routed, Show::Count)
                / Q::var("e", self.ep, Show::Count))
            .named("Ψ_e,i", Show::Count)
        });
        (psi.named("Ψ_i", Show::Count), expert_psi)
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
        let last = self.degrees().pp - 1;
        let basis = ShardBasis::of(self);
        let rule = StageRule::of(self);
        let capacity = self.capacity();
        let layer = self.layer_activations::<f64>();
        // Middle stages with the same layers hold the same model states and the same bytes per
        // micro-batch (runs of them are long with many stages): those of the previous middle
        // stage are reused, and only the micro-batches in flight are applied again.
        let mut previous: Option<(u32, f64, f64, f64)> = None;
        (0..=last)
            .map(|stage| {
                let layers_i = rule.layers(stage);
                let middle = stage != 0 && stage != last;
                let reused = previous.filter(|&(layers, ..)| middle && layers == layers_i);
                let held = self.held_on(&basis, &rule, stage, layer);
                let (model_states, expert_states, per_micro_batch) = match reused {
                    Some((_, states, experts, per_micro_batch)) => {
                        (states, experts, per_micro_batch)
                    }
                    None => {
                        let (dense, experts) =
                            self.stage_states_parts::<f64>(&basis, layers_i, stage);
                        let experts = experts.unwrap_or(0.0);
                        (dense + experts, experts, held.per_micro_batch())
                    }
                };
                if middle {
                    previous = Some((layers_i, model_states, expert_states, per_micro_batch));
                }
                let long = self.sequence_excess_of(&held);
                let activations = Bytes::new(
                    held.total(per_micro_batch) + self.stage_routing_excess::<f64>(stage) + long,
                );
                let model_states = Bytes::new(model_states);
                let (runtime, total) = self.card_total(model_states, activations);
                StageMemory {
                    stage,
                    layers: layers_i,
                    model_states,
                    expert_states: Bytes::new(expert_states),
                    activations,
                    runtime: runtime.map_or(Bytes::ZERO, |r| r.total),
                    total,
                    fits: total <= capacity,
                    tight: crate::margin::tight(total, capacity),
                    log_probs_chunk: if stage == last {
                        self.log_probs_tokens()
                    } else {
                        None
                    },
                }
            })
            .collect()
    }

    /// The model states of stage `stage` as formulas: the dense ledger of Ψ_i over D, and the
    /// experts' ledger of Ψ_e,i over E (MoE models).
    fn stage_states_parts<Q: Quantity>(
        &self,
        basis: &ShardBasis,
        layers_i: u32,
        stage: u32,
    ) -> (Q, Option<Q>) {
        let (zero, g, offload) = (
            self.zero(),
            self.precision().grad_bytes(),
            self.optimizer_offload(),
        );
        let (psi, expert_psi) = basis.shards::<Q>(stage, layers_i);
        let (_, group) = self.dense_shard::<Q>();
        let dense = ledger_total(psi, group, zero, g, offload);
        let experts = expert_psi
            .zip(self.expert_shard::<Q>())
            .map(|(psi, (_, group))| ledger_total(psi, group, zero, g, offload));
        (dense, experts)
    }

    /// Stage `stage`'s optimizer shard per card as a formula (SPEC §14, "stages"):
    /// Ψ_o,i = Ψ_i (ZeRO 0) or Ψ_i/D (ZeRO 1–3), + the experts' Ψ_e,i by the same rule over E.
    pub(crate) fn stage_optimizer_shard<Q: Quantity>(&self, stage: u32) -> Q {
        let (psi, expert_psi) = ShardBasis::of(self).shards::<Q>(stage, self.stage_layers(stage));
        let (_, group) = self.dense_shard::<Q>();
        let dense = crate::offload::optimizer_part(psi, group, self.zero());
        let shard = match expert_psi.zip(self.expert_shard::<Q>()) {
            Some((psi, (_, group))) => {
                dense + crate::offload::optimizer_part(psi, group, self.zero())
            }
            None => dense,
        };
        shard.named("Ψ_o,i", Show::Count)
    }

    /// Stage `stage`'s model states as one formula (SPEC §11).
    pub(crate) fn stage_states<Q: Quantity>(&self, stage: u32) -> Q {
        let layers_i = self.stage_layers(stage);
        match self.stage_states_parts(&ShardBasis::of(self), layers_i, stage) {
            (dense, Some(experts)) => dense + experts,
            (dense, None) => dense,
        }
    }

    /// What stage `stage` holds: L_i layers, F·L_i/L full-attention layers, its micro-batches
    /// in flight and, on the last stage, the logits; `layer` is
    /// [`Plan::activation_per_layer`]'s formulas.
    fn held_on<Q: Quantity>(
        &self,
        basis: &ShardBasis,
        rule: &StageRule,
        stage: u32,
        (per_layer, scores): (Q, Option<Q>),
    ) -> Held<Q> {
        let layers_i = rule.layers(stage);
        let full = count_of::<Q>("F", self.model().full_attention_layers);
        Held {
            per_layer,
            layers: count_of("L_i", layers_i),
            scores: scores.map(|s| (s, full * basis.share(layers_i))),
            in_flight: rule.in_flight(stage),
            logits: (stage == self.degrees().pp - 1).then(|| self.logits()),
        }
    }

    /// What stage `stage` holds (SPEC §11), as formulas.
    pub(crate) fn stage_held<Q: Quantity>(&self, stage: u32) -> Held<Q> {
        let layer = self.layer_activations();
        self.held_on(&ShardBasis::of(self), &StageRule::of(self), stage, layer)
    }

    /// Stage `stage`'s activations as one formula (SPEC §11): with uneven routing (§20) and
    /// uneven sequences (§25), what the busiest card of the stage holds beyond.
    pub(crate) fn stage_activations<Q: Quantity>(&self, stage: u32) -> Q {
        self.busiest_activations(self.stage_held(stage), self.stage_routing_excess(stage))
    }

    /// What stage `stage`'s card of EP rank 0 holds beyond an even split (SPEC §20): its
    /// (L_i/L)·L_moe MoE layers and micro-batches in flight; 0 unless routing is uneven.
    pub(crate) fn stage_routing_excess<Q: Quantity>(&self, stage: u32) -> Q {
        match self.model().moe.filter(|_| self.uneven()) {
            Some(moe) => {
                let rule = StageRule::of(self);
                let layers = count_of::<Q>("L_i", rule.layers(stage))
                    / count_of("L", self.model().layers)
                    * count_of("L_moe", moe.moe_layers);
                self.routing_excess_with(layers, rule.in_flight(stage))
            }
            None => Q::lit(0.0),
        }
    }

    /// The parameters stage i holds per card (SPEC §11): the dense shard
    /// Ψ_i = (embedding_i + head_i + L_i·(B − P_routed)/L)/t and the experts'
    /// Ψ_e,i = (L_i/L)·P_routed/e (0 for a dense model).
    pub fn stage_shards(&self, stage: u32) -> (f64, f64) {
        let (psi, expert_psi) = ShardBasis::of(self).shards(stage, self.stage_layers(stage));
        (psi, expert_psi.unwrap_or(0.0))
    }

    /// The FP32 logits of one micro-batch the last stage keeps for the loss: 4·s'·b·V/t.
    pub fn stage_logits(&self) -> Bytes {
        Bytes::new(self.logits())
    }

    /// [`Plan::stage_logits`] as a formula: 4·s'·b·V/t, or with `log_probs_chunk` set
    /// 4·min(chunk, s'·b)·V/t (SPEC §15: the log-probabilities of an RL step take the logits
    /// a chunk of tokens at a time).
    fn logits<Q: Quantity>(&self) -> Q {
        let vocab_share = count_of::<Q>("V", self.model().vocab) / count_of("t", self.degrees().tp);
        let logits = match self.log_probs_tokens::<Q>() {
            Some(tokens) => Q::lit(LOGIT_BYTES) * tokens * vocab_share,
            None => {
                Q::lit(LOGIT_BYTES)
                    * self.local_seq()
                    * count_of("b", self.micro_batch_size())
                    * count_of("V", self.model().vocab)
                    / count_of("t", self.degrees().tp)
            }
        };
        logits.named("logits", Show::Bytes)
    }

    /// With `log_probs_chunk` set (SPEC §15), the tokens whose logits the last stage holds at
    /// once: min(chunk, s'·b); `None` for the whole micro-batch (chunk 0).
    fn log_probs_tokens<Q: Quantity>(&self) -> Option<Q> {
        match self.config().log_probs_chunk {
            0 => None,
            chunk => Some(
                count_of::<Q>("chunk", chunk)
                    .min(self.local_seq::<Q>() * count_of("b", self.micro_batch_size())),
            ),
        }
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
mod tests;
