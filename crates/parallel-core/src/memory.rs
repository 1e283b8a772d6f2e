//! Memory per card: model states (ZeRO ledger) and activations (Korthikanti et al. 2022),
//! for the busiest card, the first pipeline stage (SPEC §4).

use serde::Serialize;

use crate::config::{Recompute, Schedule};
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
    /// FP32 master weights and Adam moments: 12Ψ, divided by D from ZeRO-1.
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
        let sharded = |stage: u8| if zero >= stage { group } else { 1.0 };
        ModelStates {
            weights: Bytes::new(WEIGHT_BYTES * psi / sharded(3)),
            gradients: Bytes::new(grad_bytes * psi / sharded(2)),
            optimizer: Bytes::new(OPTIMIZER_BYTES * psi / sharded(1)),
        }
    }

    /// Weights + gradients + optimizer states.
    pub fn total(&self) -> Bytes {
        self.weights + self.gradients + self.optimizer
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
    /// model_states + activations.
    pub total: Bytes,
    /// The card's capacity.
    pub capacity: Bytes,
    /// total ≤ capacity.
    pub fits: bool,
}

impl Plan {
    /// The model states of one card (SPEC §4).
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
        let d = self.degrees();
        let routed = self.model().routed_params();
        let dense_psi = (self.model().params - routed) / (f64::from(d.tp) * f64::from(d.pp));
        ModelStates::ledger(
            dense_psi,
            f64::from(d.weight_group()),
            self.zero(),
            self.precision().grad_bytes(),
        )
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
        let routed = self.model().routed_params();
        if routed == 0.0 {
            return None;
        }
        let d = self.degrees();
        let expert_psi = routed / (f64::from(d.ep) * f64::from(d.pp));
        let edp = f64::from(d.expert_dp.unwrap_or(1));
        Some(ModelStates::ledger(
            expert_psi,
            edp,
            self.zero(),
            self.precision().grad_bytes(),
        ))
    }

    /// Micro-batches whose activations the first stage holds at its peak (SPEC §4):
    /// GPipe m; 1F1B min(m, p); interleaved min(m, p)·(1 + (p−1)/(p·v)).
    pub fn micro_batches_in_flight(&self) -> f64 {
        let m = f64::from(self.micro_batches());
        let p = f64::from(self.degrees().pp);
        let v = f64::from(self.virtual_stages());
        match self.schedule() {
            Schedule::Gpipe => m,
            Schedule::OneFOneB => m.min(p),
            Schedule::Interleaved => m.min(p) * (1.0 + (p - 1.0) / (p * v)),
        }
    }

    /// Activation bytes of one layer for one micro-batch (Korthikanti et al. 2022, with
    /// sequence parallelism whenever t > 1; s' = s/c):
    /// full recompute 2·s'·b·h/t; selective and none 34·s'·b·h/t. Returns that figure and,
    /// for "none", the extra 5·a·s'·s·b/t of attention scores a full-attention layer keeps.
    pub fn activation_per_layer(&self) -> (Bytes, Bytes) {
        let d = self.degrees();
        let t = f64::from(d.tp);
        let s = f64::from(self.seq_len());
        let s_local = s / f64::from(d.cp);
        let b = f64::from(self.micro_batch_size());
        let h = f64::from(self.model().hidden);
        let a = f64::from(self.model().heads);
        let (kept, scores) = match self.recompute() {
            Recompute::Full => (2.0, 0.0),
            Recompute::Selective => (34.0, 0.0),
            Recompute::None => (34.0, 5.0 * a * s_local * s * b / t),
        };
        (Bytes::new(kept * s_local * b * h / t), Bytes::new(scores))
    }

    /// Activations of the first stage: (per-layer bytes summed over its L/p layers, plus the
    /// scores of its F/p full-attention layers) × micro-batches in flight (SPEC §4).
    pub fn activations(&self) -> Activations {
        let p = f64::from(self.degrees().pp);
        let (per_layer, scores) = self.activation_per_layer();
        let layers = f64::from(self.model().layers) / p;
        let full_attention = f64::from(self.model().full_attention_layers) / p;
        let per_micro_batch = per_layer * layers + scores * full_attention;
        let in_flight = self.micro_batches_in_flight();
        Activations {
            per_micro_batch,
            in_flight,
            total: per_micro_batch * in_flight,
        }
    }

    /// Model states + activations against the card's capacity. Embedding and logits
    /// activations, temporary buffers and fragmentation are not counted (SPEC §4).
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig};
    /// let m = Plan::new(&PlanConfig::lesson_8_gpus()).unwrap().memory();
    /// assert_eq!((m.model_states.to_string(), m.activations.to_string()), ("55.6 GB".into(), "2.7 GB".into()));
    /// assert!(m.fits);
    /// ```
    pub fn memory(&self) -> Memory {
        let model_states = self.model_states().total();
        let activations = self.activations().total;
        let total = model_states + activations;
        Memory {
            model_states,
            activations,
            total,
            capacity: self.capacity(),
            fits: total <= self.capacity(),
        }
    }
}
