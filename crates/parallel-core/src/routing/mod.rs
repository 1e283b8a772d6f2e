//! Uneven expert routing (SPEC §20): what the EP rank holding the hottest expert receives,
//! holds, sends and computes beyond an even split, what the others wait for, and the tokens a
//! capacity factor drops. Every other figure of the lab assumes even routing; at
//! `routing_skew` 1 without a capacity factor this module changes none of them.

mod loads;

pub use loads::ExpertLoads;

use serde::Serialize;

use crate::config::Recompute;
use crate::formula::{count_of, Quantity, Show};
use crate::plan::Plan;
use crate::units::{Bytes, Seconds};

/// Bytes a routed expert keeps for its backward per token-slot, over h + 3·f_e: its input
/// (h), its gate and up outputs (2·f_e) and the activation's output (f_e), each in BF16
/// (2 bytes): Korthikanti et al. 2022 §4.1's per-tensor accounting of an MLP (each linear
/// layer and the non-linearity keep their inputs) applied to a gated expert.
pub const EXPERT_BYTES_PER_SLOT: f64 = 2.0;

/// Dispatch buffers per token-slot, over h: the slots a rank receives and its experts'
/// outputs before they are combined back, each h wide in BF16: 2 × 2 bytes.
pub const DISPATCH_BYTES_PER_SLOT: f64 = 4.0;

/// A measured expert load: the hottest expert's tokens over an even split, the run it was
/// measured on, and where it is published.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasuredSkew {
    /// Its id (the page's option value).
    pub id: &'static str,
    /// max load / mean load = 1 + MaxVio.
    pub skew: f64,
    /// The run, in English.
    pub run_en: &'static str,
    /// The run, in Chinese.
    pub run_zh: &'static str,
    /// The table it is copied from.
    pub source: &'static str,
}

impl MeasuredSkew {
    /// The measured case of a skew, if the page offers it.
    ///
    /// ```
    /// use parallel_core::routing::MeasuredSkew;
    /// assert_eq!(MeasuredSkew::of(1.72).map(|m| m.id), Some("aux-loss-1b"));
    /// assert_eq!(MeasuredSkew::of(1.3), None);
    /// ```
    pub fn of(skew: f64) -> Option<MeasuredSkew> {
        MEASURED_SKEWS.into_iter().find(|m| m.skew == skew)
    }
}

impl CapacityChoice {
    /// The offered choice of a capacity factor, if the page offers it.
    ///
    /// ```
    /// use parallel_core::routing::CapacityChoice;
    /// assert_eq!(CapacityChoice::of(None).map(|c| c.id), Some("dropless"));
    /// assert_eq!(CapacityChoice::of(Some(1.25)).map(|c| c.id), Some("1.25"));
    /// assert_eq!(CapacityChoice::of(Some(1.5)), None);
    /// ```
    pub fn of(factor: Option<f64>) -> Option<CapacityChoice> {
        CAPACITY_FACTORS.into_iter().find(|c| c.factor == factor)
    }
}

/// The loads the page offers, even first: Wang et al. 2024, "Auxiliary-Loss-Free Load Balancing
/// Strategy for Mixture-of-Experts" (arXiv 2408.15664), MaxVio_global (§4.1, Eq. 4: (max −
/// mean)/mean over the validation set, averaged over layers) of 64-expert, top-6 models; max/mean
/// = 1 + MaxVio.
pub const MEASURED_SKEWS: [MeasuredSkew; 5] = [
    MeasuredSkew {
        id: "even",
        skew: 1.0,
        run_en: "even (every other figure of the lab)",
        run_zh: "均匀（实验室其余的数都这样算）",
        source: "SPEC §20",
    },
    MeasuredSkew {
        id: "loss-free-1b",
        skew: 1.027,
        run_en: "loss-free balancing, 1B, softmax gate",
        run_zh: "无辅助损失均衡，1B，softmax 门控",
        source: "Wang et al. 2024, Table 6: MaxVio_global 0.027",
    },
    MeasuredSkew {
        id: "aux-loss-3b",
        skew: 1.52,
        run_en: "auxiliary loss, 3B",
        run_zh: "辅助损失，3B",
        source: "Wang et al. 2024, Table 2: MaxVio_global 0.52",
    },
    MeasuredSkew {
        id: "aux-loss-1b",
        skew: 1.72,
        run_en: "auxiliary loss, 1B",
        run_zh: "辅助损失，1B",
        source: "Wang et al. 2024, Table 2: MaxVio_global 0.72",
    },
    MeasuredSkew {
        id: "aux-loss-1b-softmax",
        skew: 1.937,
        run_en: "auxiliary loss, 1B, softmax gate",
        run_zh: "辅助损失，1B，softmax 门控",
        source: "Wang et al. 2024, Table 6: MaxVio_global 0.937",
    },
];

/// The capacity factors the page offers: dropless (`None`, Megatron-LM's default,
/// `moe_expert_capacity_factor = None`), then Switch Transformer's (Fedus et al. 2022, Table 1:
/// 1.0, 1.25, 2.0; 2.0 is also GShard's 2N/E, Lepikhin et al. 2020 §2.2).
pub const CAPACITY_FACTORS: [CapacityChoice; 4] = [
    CapacityChoice {
        id: "dropless",
        factor: None,
        en: "dropless (Megatron-LM's default)",
        zh: "不丢 token（Megatron-LM 默认）",
    },
    CapacityChoice {
        id: "1.0",
        factor: Some(1.0),
        en: "1.0 (Switch Transformer)",
        zh: "1.0（Switch Transformer）",
    },
    CapacityChoice {
        id: "1.25",
        factor: Some(1.25),
        en: "1.25 (Switch Transformer)",
        zh: "1.25（Switch Transformer）",
    },
    CapacityChoice {
        id: "2.0",
        factor: Some(2.0),
        en: "2.0 (Switch Transformer, GShard)",
        zh: "2.0（Switch Transformer、GShard）",
    },
];

/// A capacity factor the page offers, with its words.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CapacityChoice {
    /// Its id (the page's option value).
    pub id: &'static str,
    /// c_f; `None`: dropless.
    pub factor: Option<f64>,
    /// Its words, in English.
    pub en: &'static str,
    /// Its words, in Chinese.
    pub zh: &'static str,
}

/// Uneven routing on one plan (`eval`'s `routing`; MoE models only).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RoutingReport {
    /// ρ, the hottest expert's load over an even split.
    pub skew: f64,
    /// c_f; `None`: dropless.
    pub capacity_factor: Option<f64>,
    /// Token-slots an EP rank receives per MoE layer and micro-batch at even routing,
    /// T_l·k with T_l = s·b/(c·t).
    pub tokens_even: f64,
    /// The same for EP rank 0, which holds the hottest expert.
    pub tokens_hot: f64,
    /// The same for every other EP rank.
    pub tokens_cold: f64,
    /// The share of the token-slots dropped (0 dropless).
    pub dropped_share: f64,
    /// Token-slots dropped per step, over every MoE layer of the run.
    pub dropped_per_step: f64,
    /// Expert activations a card of EP rank 0 keeps for the backward over its stage's MoE
    /// layers and micro-batches in flight (0 with full recompute).
    pub expert_activations_hot: Bytes,
    /// The same at even routing.
    pub expert_activations_even: Bytes,
    /// Dispatch buffers of one MoE layer on a card of EP rank 0.
    pub dispatch_hot: Bytes,
    /// The same at even routing.
    pub dispatch_even: Bytes,
    /// What a card of EP rank 0 of the first stage holds beyond the even split the memory
    /// figures count (added to its activations; each stage adds its own, SPEC §20).
    pub excess: Bytes,
    /// The busiest EP rank's all-to-all bytes per step (the EP traffic row's).
    pub all_to_all_busiest: Bytes,
    /// The same at even routing.
    pub all_to_all_even: Bytes,
    /// Routed experts' compute per step on an even rank.
    pub expert_s_even: Seconds,
    /// The same on the busiest rank, which every other rank waits for.
    pub expert_s_busiest: Seconds,
    /// What the busiest rank adds to the step's compute (negative where drops leave every
    /// rank below an even load).
    pub added_s: Seconds,
}

impl Plan {
    /// The loads of this plan's MoE layers; `None` for a dense model.
    pub fn expert_loads(&self) -> Option<ExpertLoads> {
        let moe = self.model().moe?;
        Some(ExpertLoads {
            experts: moe.experts,
            ep: self.degrees().ep,
            skew: self.config().routing_skew,
            capacity_factor: self.config().capacity_factor,
        })
    }

    /// Whether routing changes any figure: a skew above 1 or a capacity factor, on a MoE model
    /// (then `explain_all` offers the routing figures).
    pub fn uneven(&self) -> bool {
        self.model().is_moe()
            && (self.config().routing_skew != 1.0 || self.config().capacity_factor.is_some())
    }

    /// The busiest EP rank's load over an even rank's: max(hot rank, cold rank); 1 for a
    /// dense model or even, dropless routing.
    pub(crate) fn busiest_rank<Q: Quantity>(&self) -> Q {
        match self.expert_loads().filter(|_| self.uneven()) {
            Some(l) => l
                .hot_rank::<Q>()
                .max(l.cold_rank())
                .named("busiest rank", Show::Count),
            None => Q::lit(1.0),
        }
    }

    /// T_l·k: token-slots an EP rank receives per MoE layer and micro-batch at even routing,
    /// T_l = s·b/(c·t) (the EP traffic's tokens, SPEC §5).
    pub(crate) fn slots_even<Q: Quantity>(&self) -> Option<Q> {
        let moe = self.model().moe?;
        let d = self.degrees();
        Some(
            (count_of::<Q>("s", self.seq_len()) * count_of("b", self.micro_batch_size())
                / (count_of::<Q>("c", d.cp) * count_of("t", d.tp))
                * count_of("top_k", moe.top_k))
            .named("slots", Show::Count),
        )
    }

    /// Expert activations a card keeps at `load` × the even slots: slots·2·(h + 3·f_e) bytes
    /// a MoE layer, over L_moe/p layers and the micro-batches in flight; 0 with full
    /// recompute (a layer keeps only its input, which SPEC §4 already counts).
    fn expert_activations<Q: Quantity>(&self, load: Q) -> Option<Q> {
        let moe = self.model().moe?;
        self.expert_activations_with(
            load,
            count_of::<Q>("L_moe", moe.moe_layers) / count_of("p", self.degrees().pp),
            self.in_flight(),
        )
    }

    /// [`Plan::expert_activations`] over `moe_layers` layers and `in_flight` micro-batches.
    fn expert_activations_with<Q: Quantity>(
        &self,
        load: Q,
        moe_layers: Q,
        in_flight: Q,
    ) -> Option<Q> {
        let moe = self.model().moe?;
        if self.recompute() == Recompute::Full {
            return Some(Q::lit(0.0));
        }
        let width =
            count_of::<Q>("h", self.model().hidden) + Q::lit(3.0) * count_of("f_e", moe.expert_ffn);
        Some(
            (load
                * self.slots_even::<Q>()?
                * Q::lit(EXPERT_BYTES_PER_SLOT)
                * width
                * moe_layers
                * in_flight)
                .named("expert activations", Show::Bytes),
        )
    }

    /// One MoE layer's dispatch buffers at `load` × the even slots: slots·4·h bytes.
    fn dispatch_buffers<Q: Quantity>(&self, load: Q) -> Option<Q> {
        Some(
            (load
                * self.slots_even::<Q>()?
                * Q::lit(DISPATCH_BYTES_PER_SLOT)
                * count_of("h", self.model().hidden))
            .named("dispatch buffers", Show::Bytes),
        )
    }

    /// What a card of EP rank 0 holds beyond the even split on the first stage: max(0, hot
    /// rank − 1) × (its even expert activations + its even dispatch buffers); 0 for a dense
    /// model or even routing.
    pub(crate) fn routing_excess<Q: Quantity>(&self) -> Q {
        let Some(moe) = self.model().moe else {
            return Q::lit(0.0);
        };
        self.routing_excess_with(
            count_of::<Q>("L_moe", moe.moe_layers) / count_of("p", self.degrees().pp),
            self.in_flight(),
        )
    }

    /// [`Plan::routing_excess`] on a stage of `moe_layers` MoE layers holding `in_flight`
    /// micro-batches (SPEC §11's accounting stage by stage).
    pub(crate) fn routing_excess_with<Q: Quantity>(&self, moe_layers: Q, in_flight: Q) -> Q {
        let Some(loads) = self.expert_loads().filter(|_| self.uneven()) else {
            return Q::lit(0.0);
        };
        let over = (loads.hot_rank::<Q>() - Q::lit(1.0)).max(Q::lit(0.0));
        match (
            self.expert_activations_with::<Q>(Q::lit(1.0), moe_layers, in_flight),
            self.dispatch_buffers::<Q>(Q::lit(1.0)),
        ) {
            (Some(activations), Some(dispatch)) => {
                (over * (activations + dispatch)).named("routing excess", Show::Bytes)
            }
            _ => Q::lit(0.0),
        }
    }

    /// Whether `card` is of EP rank 0 (holds the hottest expert) on a MoE plan with uneven
    /// routing.
    pub fn holds_hot_expert(&self, card: u32) -> bool {
        self.uneven() && self.grid().ep_rank(card).is_ok_and(|rank| rank == 0)
    }

    /// The load of `card`'s EP rank over an even rank's, on a card holding the hottest expert
    /// where that rank receives more than an even one (the grid marks it); `None` on every
    /// other card.
    ///
    /// ```
    /// use parallel_core::{ModelChoice, Plan, PlanConfig, Preset};
    /// let c = PlanConfig { model: ModelChoice::Preset(Preset::Mixtral8x7b), gpus: 16, ep: 8,
    ///     routing_skew: 1.72, ..PlanConfig::default() };
    /// let plan = Plan::new(&c)?;
    /// assert_eq!((plan.hot_card_load(0), plan.hot_card_load(1)), (Some(1.72), None));
    /// assert_eq!(Plan::new(&PlanConfig { routing_skew: 1.0, ..c })?.hot_card_load(0), None);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn hot_card_load(&self, card: u32) -> Option<f64> {
        if !self.holds_hot_expert(card) {
            return None;
        }
        self.expert_loads()
            .map(|l| l.hot_rank::<f64>())
            .filter(|&load| load > 1.0)
    }

    /// Uneven routing's figures (SPEC §20); `None` for a dense model.
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig, ModelChoice, Preset};
    /// let mixtral = PlanConfig {
    ///     model: ModelChoice::Preset(Preset::Mixtral8x7b), gpus: 64, tp: 2, pp: 4, ep: 8,
    ///     recompute: parallel_core::Recompute::Selective, ..PlanConfig::default()
    /// };
    /// let even = Plan::new(&mixtral)?.routing().unwrap();
    /// assert_eq!((even.tokens_hot, even.excess.get()), (even.tokens_even, 0.0));
    /// let hot = Plan::new(&PlanConfig { routing_skew: 2.0, ..mixtral })?.routing().unwrap();
    /// assert_eq!(hot.tokens_hot, 2.0 * hot.tokens_even);   // one expert a rank
    /// assert!(hot.excess.get() > 0.0 && hot.added_s.get() > 0.0);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn routing(&self) -> Option<RoutingReport> {
        let moe = self.model().moe?;
        let loads = self.expert_loads()?;
        let (hot, cold) = (loads.hot_rank::<f64>(), loads.cold_rank::<f64>());
        let slots = self.slots_even::<f64>()?;
        let busiest = self.busiest_rank::<f64>();
        let dropped = loads.dropped::<f64>();
        let even_a2a = self.ep_bytes_even::<f64>().unwrap_or(0.0);
        let expert_s_even = self.routed_expert_seconds::<f64>().unwrap_or(0.0);
        Some(RoutingReport {
            skew: loads.skew,
            capacity_factor: loads.capacity_factor,
            tokens_even: slots,
            tokens_hot: hot * slots,
            tokens_cold: cold * slots,
            dropped_share: dropped,
            dropped_per_step: dropped
                * self.tokens::<f64>()
                * f64::from(moe.top_k)
                * f64::from(moe.moe_layers),
            expert_activations_hot: Bytes::new(self.expert_activations::<f64>(hot)?),
            expert_activations_even: Bytes::new(self.expert_activations::<f64>(1.0)?),
            dispatch_hot: Bytes::new(self.dispatch_buffers::<f64>(hot)?),
            dispatch_even: Bytes::new(self.dispatch_buffers::<f64>(1.0)?),
            excess: Bytes::new(self.routing_excess::<f64>()),
            all_to_all_busiest: Bytes::new(busiest * even_a2a),
            all_to_all_even: Bytes::new(even_a2a),
            expert_s_even: Seconds::new(expert_s_even),
            expert_s_busiest: Seconds::new(busiest * expert_s_even),
            added_s: Seconds::new((busiest - 1.0) * expert_s_even),
        })
    }
}
