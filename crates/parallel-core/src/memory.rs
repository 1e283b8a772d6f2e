//! Memory per card: model states (ZeRO ledger) and activations (Korthikanti et al. 2022),
//! for the busiest card, the first pipeline stage (SPEC §4).

use serde::Serialize;

use crate::config::{OptimizerOffload, Recompute, Schedule};
use crate::formula::{count_of, Quantity, Show};
use crate::plan::Plan;
use crate::units::Bytes;

/// Bytes per parameter of the FP32 master weights plus two FP32 Adam moments.
const OPTIMIZER_BYTES: f64 = 12.0;
/// Bytes per parameter of the BF16 weights.
const WEIGHT_BYTES: f64 = 2.0;

/// Model states of one card, split by what they hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ModelStates {
    /// BF16 weights: 2Ψ, divided by D at ZeRO-3.
    pub weights: Bytes,
    /// Gradients: g·Ψ, divided by D from ZeRO-2.
    pub gradients: Bytes,
    /// FP32 master weights and Adam moments: 12Ψ, divided by D from ZeRO-1 (0 on the card
    /// with the optimizer on the host, [`ModelStates::on_card`]).
    pub optimizer: Bytes,
}

impl ModelStates {
    /// ZeRO's ledger for a shard of `psi` parameters shared by a group of `group` cards.
    ///
    /// | ZeRO | states |
    /// |---|---|
    /// | 0 | (2 + g + 12)·Ψ |
    /// | 1 | (2 + g)·Ψ + 12·Ψ/D |
    /// | 2 | 2·Ψ + (g + 12)·Ψ/D |
    /// | 3 | (2 + g + 12)·Ψ/D |
    ///
    /// Source: Rajbhandari et al. 2019 (ZeRO) §5, with g = 2 (the lesson, 16 bytes/param) or
    /// g = 4 (seed 000's 18 bytes/param).
    ///
    /// ```
    /// use parallel_core::ModelStates;
    /// // The anchor on 8 cards, g = 2: 444.5 → 152.8 → 104.2 → 55.6 GB.
    /// let gb: Vec<String> = (0..=3)
    ///     .map(|z| ModelStates::ledger(27_781_427_952.0, 8.0, z, 2.0).total().to_string())
    ///     .collect();
    /// assert_eq!(gb, ["444.5 GB", "152.8 GB", "104.2 GB", "55.6 GB"]);
    /// ```
    pub fn ledger(psi: f64, group: f64, zero: u8, grad_bytes: f64) -> ModelStates {
        let [weights, gradients, optimizer] = ledger(psi, group, zero, grad_bytes);
        ModelStates {
            weights: Bytes::new(weights),
            gradients: Bytes::new(gradients),
            optimizer: Bytes::new(optimizer),
        }
    }

    /// Weights + gradients + optimizer states.
    pub fn total(&self) -> Bytes {
        self.weights + self.gradients + self.optimizer
    }

    /// What stays on the card (SPEC §14): all of it, or, with the optimizer on the host,
    /// the weights and gradients only (the 12-byte part is in host memory).
    ///
    /// ```
    /// use parallel_core::{ModelStates, OptimizerOffload};
    /// // The anchor on 8 cards, ZeRO-1, g = 2: 4·Ψ stays, 12·Ψ/D goes to the host.
    /// let states = ModelStates::ledger(27_781_427_952.0, 8.0, 1, 2.0);
    /// let card = states.on_card(OptimizerOffload::Cpu);
    /// assert_eq!((card.total().to_string(), card.optimizer.get()), ("111.1 GB".into(), 0.0));
    /// assert_eq!(states.on_card(OptimizerOffload::None), states);
    /// ```
    pub fn on_card(self, offload: OptimizerOffload) -> ModelStates {
        match offload {
            OptimizerOffload::None => self,
            OptimizerOffload::Cpu => ModelStates {
                optimizer: Bytes::ZERO,
                ..self
            },
        }
    }

    pub(crate) fn plus(self, other: ModelStates) -> ModelStates {
        ModelStates {
            weights: self.weights + other.weights,
            gradients: self.gradients + other.gradients,
            optimizer: self.optimizer + other.optimizer,
        }
    }
}

/// Activations of the first pipeline stage.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Activations {
    /// Bytes one micro-batch leaves on the stage (all its layers).
    pub per_micro_batch: Bytes,
    /// Micro-batches in flight on the first stage.
    pub in_flight: f64,
    /// per_micro_batch × in_flight.
    pub total: Bytes,
}

/// Memory of the busiest card, as in the `eval` report.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Memory {
    /// Weights, gradients and optimizer states.
    pub model_states: Bytes,
    /// Saved activations.
    pub activations: Bytes,
    /// What the running process holds beside them (SPEC §24); `None` (and not in the
    /// report's JSON) while `runtime_memory` is off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtime: Option<crate::runtime_memory::RuntimeMemory>,
    /// model_states + activations (+ runtime).
    pub total: Bytes,
    /// The card's capacity.
    pub capacity: Bytes,
    /// total ≤ capacity.
    pub fits: bool,
    /// Fits, but above [`crate::margin::SAFE_SHARE`] of the card ([`crate::margin::tight`]).
    pub tight: bool,
    /// With the optimizer on the host (SPEC §14): its bytes per card and per node; `None`
    /// (and not in the report's JSON) when the optimizer stays on the card.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<crate::offload::HostMemory>,
}

impl Memory {
    /// What the card lacks: total − capacity when the plan does not fit, else 0.
    ///
    /// ```
    /// use parallel_core::{evaluate, PlanConfig};
    /// let m = evaluate(&PlanConfig { gpu_memory_gb: 10.0, ..PlanConfig::default() })?.memory;
    /// assert_eq!(m.over_capacity().get(), m.total.get() - 10e9);
    /// assert_eq!(evaluate(&PlanConfig::lesson_64_gpus())?.memory.over_capacity().get(), 0.0);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn over_capacity(&self) -> Bytes {
        Bytes::new((self.total.get() - self.capacity.get()).max(0.0))
    }

    /// `part`'s share of the larger of total and capacity, in [0, 1]: the length of its bar
    /// when the card and what it holds are drawn to one scale.
    ///
    /// ```
    /// use parallel_core::{evaluate, PlanConfig};
    /// let m = evaluate(&PlanConfig::lesson_64_gpus())?.memory;
    /// assert_eq!(m.bar_share(m.capacity), 1.0); // it fits: the card is the scale
    /// assert!(m.bar_share(m.model_states) + m.bar_share(m.activations) <= 1.0);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn bar_share(&self, part: Bytes) -> f64 {
        let scale = self.total.get().max(self.capacity.get());
        if scale > 0.0 {
            (part.get() / scale).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }
}

/// ZeRO's ledger ([`ModelStates::ledger`]) as formulas of the shard `psi` and the group
/// `group`: [weights, gradients, optimizer states], each divided by the group from the ZeRO
/// stage that shards it (3, 2 and 1).
pub fn ledger<Q: Quantity>(psi: Q, group: Q, zero: u8, grad_bytes: f64) -> [Q; 3] {
    let part = |bytes: Q, from_stage: u8| {
        let held = bytes * psi.clone();
        if zero >= from_stage {
            held / group.clone()
        } else {
            held
        }
    };
    [
        part(Q::lit(WEIGHT_BYTES), 3),
        part(count_of("g", grad_bytes), 2),
        part(Q::lit(OPTIMIZER_BYTES), 1),
    ]
}

/// What a card holds of a ledger: its three parts, or, with the optimizer on the host, the
/// weights and gradients only (SPEC §14: ZeRO 0 and 1 (2 + g)·Ψ; ZeRO 2 2·Ψ + g·Ψ/D; ZeRO 3
/// (2 + g)·Ψ/D).
pub(crate) fn ledger_total<Q: Quantity>(
    psi: Q,
    group: Q,
    zero: u8,
    grad_bytes: f64,
    offload: OptimizerOffload,
) -> Q {
    let [weights, gradients, optimizer] = ledger(psi, group, zero, grad_bytes);
    match offload {
        OptimizerOffload::None => weights + gradients + optimizer,
        OptimizerOffload::Cpu => weights + gradients,
    }
}

/// Activations a stage holds (SPEC §4, §11): (per layer × its layers + the attention scores ×
/// its full-attention layers) × micro-batches in flight, + the FP32 logits on the last stage.
/// `scores` is `None` unless nothing is recomputed; `logits` is `None` but on the last stage
/// accounted stage by stage.
pub(crate) struct Held<Q> {
    pub per_layer: Q,
    pub layers: Q,
    pub scores: Option<(Q, Q)>,
    pub in_flight: Q,
    pub logits: Option<Q>,
}

impl<Q: Quantity> Held<Q> {
    /// Bytes one micro-batch leaves on the stage.
    pub fn per_micro_batch(&self) -> Q {
        let layers = self.per_layer.clone() * self.layers.clone();
        match self.scores.clone() {
            Some((scores, full_attention)) => layers + scores * full_attention,
            None => layers,
        }
    }

    /// [`Held::per_micro_batch`] × in flight (+ logits).
    pub fn total(self, per_micro_batch: Q) -> Q {
        let held = per_micro_batch * self.in_flight;
        match self.logits {
            Some(logits) => held + logits,
            None => held,
        }
    }
}

impl Plan {
    /// The model states of one card (SPEC §4; with the optimizer on the host, §14: what stays
    /// on the card, [`ModelStates::on_card`]).
    ///
    /// Dense: Ψ = P/(t·p) over the group D = d·c ([`ModelStates::ledger`]). MoE: the dense part
    /// Ψ_d = (P − P_routed)/(t·p) over D, plus the experts Ψ_e = P_routed/(e·p) over the
    /// expert-data-parallel group of N/(e·p) cards (expert TP = 1).
    pub fn model_states(&self) -> ModelStates {
        let dense = self.dense_states();
        match self.expert_states() {
            Some(experts) => dense.plus(experts),
            None => dense,
        }
    }

    /// The dense part of [`Plan::model_states`]: Ψ_d = (P − P_routed)/(t·p) over the group
    /// D = d·c, by ZeRO's ledger (all of it for a dense model).
    pub fn dense_states(&self) -> ModelStates {
        let (psi, group) = self.dense_shard::<f64>();
        ModelStates::ledger(psi, group, self.zero(), self.precision().grad_bytes())
            .on_card(self.optimizer_offload())
    }

    /// (Ψ, D): the dense shard one card holds, Ψ = (P − P_routed)/(t·p) (P/(t·p) for a dense
    /// model), and the group that shares it, D = d·c.
    pub(crate) fn dense_shard<Q: Quantity>(&self) -> (Q, Q) {
        let d = self.degrees();
        let model = self.model();
        let params = count_of::<Q>("P", model.params);
        let body = if model.is_moe() {
            params - count_of("P_routed", model.routed_params())
        } else {
            params
        };
        let psi = body / (count_of::<Q>("t", d.tp) * count_of("p", d.pp));
        let group = count_of::<Q>("d", d.dp) * count_of("c", d.cp);
        (psi.named("Ψ", Show::Count), group.named("D", Show::Count))
    }

    /// (Ψ_e, E): the routed experts one card holds, Ψ_e = P_routed/(e·p), and the
    /// expert-data-parallel group that shares them, E = N/(e·p); `None` for a dense model.
    pub(crate) fn expert_shard<Q: Quantity>(&self) -> Option<(Q, Q)> {
        let d = self.degrees();
        let model = self.model();
        if !model.is_moe() {
            return None;
        }
        let e_p = || count_of::<Q>("e", d.ep) * count_of("p", d.pp);
        let psi = count_of::<Q>("P_routed", model.routed_params()) / e_p();
        let group = count_of::<Q>("N", self.gpus()) / e_p();
        Some((psi.named("Ψ_e", Show::Count), group.named("E", Show::Count)))
    }

    /// The model states of the card the even split shows, as a formula: the dense ledger
    /// (+ the experts' ledger), less the optimizer part when it is on the host.
    pub(crate) fn states_total<Q: Quantity>(&self) -> Q {
        let (zero, g, offload) = (
            self.zero(),
            self.precision().grad_bytes(),
            self.optimizer_offload(),
        );
        let (psi, group) = self.dense_shard();
        let dense = ledger_total(psi, group, zero, g, offload);
        match self.expert_shard() {
            Some((psi, group)) => dense + ledger_total(psi, group, zero, g, offload),
            None => dense,
        }
    }

    /// The routed experts' share of [`Plan::model_states`] (MoE models; `None` when dense):
    /// Ψ_e = P_routed/(e·p) over the expert-data-parallel group of N/(e·p) cards, by ZeRO's
    /// ledger. The rest of the model states is the dense part.
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig, Preset, ModelChoice};
    /// let moe = Plan::new(&PlanConfig {
    ///     model: ModelChoice::Preset(Preset::Mixtral8x7b), gpus: 64, tp: 8, ep: 8, ..PlanConfig::default()
    /// })?;
    /// let experts = moe.expert_states().unwrap().total();
    /// assert!(experts < moe.model_states().total());
    /// assert!(Plan::new(&PlanConfig::default())?.expert_states().is_none());
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn expert_states(&self) -> Option<ModelStates> {
        let (psi, group) = self.expert_shard::<f64>()?;
        Some(
            ModelStates::ledger(psi, group, self.zero(), self.precision().grad_bytes())
                .on_card(self.optimizer_offload()),
        )
    }

    /// Micro-batches whose activations the first stage holds at its peak (SPEC §4):
    /// GPipe m; 1F1B min(m, p); interleaved min(m, p)·(1 + (p−1)/(p·v)).
    pub fn micro_batches_in_flight(&self) -> f64 {
        self.in_flight()
    }

    /// [`Plan::micro_batches_in_flight`] as a formula.
    pub(crate) fn in_flight<Q: Quantity>(&self) -> Q {
        let m = count_of::<Q>("m", self.micro_batches());
        let p = || count_of::<Q>("p", self.degrees().pp);
        let in_flight = match self.schedule() {
            Schedule::Gpipe => m,
            Schedule::OneFOneB => m.min(p()),
            Schedule::Interleaved => {
                let v = count_of::<Q>("v", self.virtual_stages());
                m.min(p()) * (Q::lit(1.0) + (p() - Q::lit(1.0)) / (p() * v))
            }
        };
        in_flight.named("in flight", Show::Count)
    }

    /// Activation bytes of one layer for one micro-batch (Korthikanti et al. 2022, Table 2;
    /// s' = s/c). With sequence parallelism (the default whenever t > 1): full recompute
    /// 2·s'·b·h/t, selective and none 34·s'·b·h/t. Without it, TP still splits the attention
    /// and MLP blocks' 24·s'·b·h but every card keeps the norms' and dropouts' 10·s'·b·h
    /// whole: (10 + 24/t)·s'·b·h, and full recompute keeps each layer's whole input, 2·s'·b·h.
    /// Returns that figure and, for "none", the extra 5·a·s'·s·b/t of attention scores a
    /// full-attention layer keeps (split over heads either way).
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig, Recompute};
    /// let at = |sequence_parallel| {
    ///     let c = PlanConfig { tp: 8, recompute: Recompute::Selective, sequence_parallel, ..PlanConfig::default() };
    ///     Plan::new(&c).unwrap().activation_per_layer().0.get()
    /// };
    /// // The default model (h 5,120) at s 4,096, b 1: 34/8 against 10 + 24/8 of s·b·h.
    /// let sbh = 4096.0 * 5120.0;
    /// assert_eq!((at(true), at(false)), (34.0 / 8.0 * sbh, 13.0 * sbh));
    /// ```
    pub fn activation_per_layer(&self) -> (Bytes, Bytes) {
        let (per_layer, scores) = self.layer_activations::<f64>();
        (Bytes::new(per_layer), Bytes::new(scores.unwrap_or(0.0)))
    }

    /// [`Plan::activation_per_layer`] as formulas: the per-layer bytes, and the scores of a
    /// full-attention layer when nothing is recomputed.
    pub(crate) fn layer_activations<Q: Quantity>(&self) -> (Q, Option<Q>) {
        let t = || count_of::<Q>("t", self.degrees().tp);
        let b = || count_of::<Q>("b", self.micro_batch_size());
        let sbh = || self.local_seq::<Q>() * b() * count_of("h", self.model().hidden);
        let per_layer = match (self.recompute(), self.sequence_whole()) {
            (Recompute::Full, false) => Q::lit(2.0) * sbh() / t(),
            (Recompute::Full, true) => Q::lit(2.0) * sbh(),
            (Recompute::Selective | Recompute::None, false) => Q::lit(34.0) * sbh() / t(),
            (Recompute::Selective | Recompute::None, true) => {
                (Q::lit(10.0) + Q::lit(24.0) / t()) * sbh()
            }
        };
        let scores = (self.recompute() == Recompute::None).then(|| {
            (Q::lit(5.0)
                * count_of("a", self.model().heads)
                * self.local_seq()
                * count_of("s", self.seq_len())
                * b()
                / t())
            .named("scores", Show::Bytes)
        });
        (per_layer.named("per layer", Show::Bytes), scores)
    }

    /// What the even split's first stage holds: L/p layers, F/p full-attention layers,
    /// [`Plan::micro_batches_in_flight`].
    pub(crate) fn held_even<Q: Quantity>(&self) -> Held<Q> {
        let model = self.model();
        let p = || count_of::<Q>("p", self.degrees().pp);
        let (per_layer, scores) = self.layer_activations();
        Held {
            per_layer,
            layers: count_of::<Q>("L", model.layers) / p(),
            scores: scores.map(|s| (s, count_of::<Q>("F", model.full_attention_layers) / p())),
            in_flight: self.in_flight(),
            logits: None,
        }
    }

    /// The activations of the busiest card of a stage that holds `held`: what `held` totals,
    /// plus, with uneven routing (SPEC §20), `routing_excess`, the hottest expert's, and, with
    /// uneven sequences (§25), the longest micro-batch's excess. The headline (the even split's
    /// first stage) and each stage's explanation are this one formula.
    pub(crate) fn busiest_activations<Q: Quantity>(&self, held: Held<Q>, routing_excess: Q) -> Q {
        let long = self.sequence_excess_of(&held);
        let per_micro_batch = held.per_micro_batch();
        let mut total = held.total(per_micro_batch);
        if self.uneven() {
            total = total + routing_excess;
        }
        if self.uneven_sequences() {
            total = total + long;
        }
        total
    }

    /// Activations of the first stage: (per-layer bytes summed over its L/p layers, plus the
    /// scores of its F/p full-attention layers) × micro-batches in flight (SPEC §4).
    pub fn activations(&self) -> Activations {
        let held = self.held_even::<f64>();
        let per_micro_batch = held.per_micro_batch();
        let in_flight = held.in_flight;
        Activations {
            per_micro_batch: Bytes::new(per_micro_batch),
            in_flight,
            total: Bytes::new(held.total(per_micro_batch)),
        }
    }

    /// Model states + activations against the card's capacity (+ the runtime terms when
    /// `runtime_memory` is on, SPEC §24). Embedding and logits activations are not counted
    /// (SPEC §4).
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig};
    /// let m = Plan::new(&PlanConfig::lesson_8_gpus()).unwrap().memory();
    /// assert_eq!((m.model_states.to_string(), m.activations.to_string()), ("55.6 GB".into(), "2.7 GB".into()));
    /// assert!(m.fits);
    /// ```
    pub fn memory(&self) -> Memory {
        let model_states = Bytes::new(self.states_total());
        let activations =
            Bytes::new(self.busiest_activations(self.held_even(), self.routing_excess()));
        let (runtime, total) = self.card_total(model_states, activations);
        Memory {
            model_states,
            activations,
            runtime,
            total,
            capacity: self.capacity(),
            fits: total <= self.capacity(),
            tight: crate::margin::tight(total, self.capacity()),
            host: self.host_memory(),
        }
    }
}
