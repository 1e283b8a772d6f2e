//! The workload of one card (SPEC §19): what a single GPU has to build to run what that card
//! of the plan runs, and the lab's figures for it.

use serde::{Deserialize, Serialize};

use crate::config::{PlanConfig, Recompute};
use crate::error::PlanError;
use crate::grid::Coords;
use crate::memory::ledger_total;
use crate::model::Mlp;
use crate::plan::Plan;
use crate::stages::ShardBasis;

use super::unbuilt::Unbuilt;

/// The `format` field of a workload file.
pub const WORKLOAD_FORMAT: &str = "parallel-lab/workload";
/// The version of the workload and measured formats this lab reads and writes.
pub const CHECK_VERSION: u32 = 1;

/// One layer's shapes on the card: widths after tensor parallelism.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayerShape {
    /// Hidden size h (not split: each card of a TP group holds the whole width of x).
    pub hidden: u32,
    /// Query heads on the card, a/t.
    pub heads: u32,
    /// Key/value heads on the card, ⌈kv/t⌉ (Megatron-LM replicates a KV head when t > kv).
    pub kv_heads: u32,
    /// Width of one head.
    pub head_dim: u32,
    /// A dense layer's MLP width on the card, ffn/t.
    pub ffn: u32,
    /// The dense MLP's kind (absent: gated; `"plain"`: h → ffn, GeLU, ffn → h).
    #[serde(default, skip_serializing_if = "Mlp::is_gated")]
    pub mlp: Mlp,
    /// The routed experts of an MoE layer on the card (`None` for a dense model).
    pub experts: Option<ExpertShape>,
}

/// An MoE layer's experts on one card (expert TP = 1, balanced routing, as the lab counts).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExpertShape {
    /// All routed experts of the layer (the router's width).
    pub experts: u32,
    /// Routed experts on the card, experts/e.
    pub local: u32,
    /// Each expert's gated MLP width, ffn_e.
    pub ffn: u32,
    /// Tokens each local expert receives per micro-batch, T_l·top_k·e/experts.
    pub tokens: u32,
    /// Shared experts' width on the card, shared·ffn_e/t (0 without shared experts).
    pub shared_ffn: u32,
}

/// The tokens of one micro-batch on the card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tokens {
    /// Sequence length s.
    pub seq: u32,
    /// Context-parallel degree c: the card holds s/c of each sequence.
    pub cp: u32,
    /// Queries per sequence on the card, s/c.
    pub queries: u32,
    /// Sequences per micro-batch, b.
    pub micro_batch: u32,
}

/// The layers of the card's pipeline stage, by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StageLayers {
    /// All layers of the stage, L_i.
    pub total: u32,
    /// Of these, layers with an MoE block (the rest have a dense MLP).
    pub moe: u32,
    /// Of these, layers with full (softmax) attention (the rest have linear attention).
    pub full_attention: u32,
}

impl StageLayers {
    /// `n` layers in the stage's proportions (at least one of each kind the stage has, when
    /// n allows): what a card builds when it cannot hold the whole stage.
    pub fn first(self, n: u32) -> StageLayers {
        let n = n.min(self.total);
        let part = |k: u32| {
            if k == 0 || self.total == 0 {
                0
            } else {
                let share = (f64::from(k) * f64::from(n) / f64::from(self.total)).round();
                (share as u32).clamp(1, n)
            }
        };
        StageLayers {
            total: n,
            moe: part(self.moe),
            full_attention: part(self.full_attention),
        }
    }
}

/// The lab's figures for one layer on the card, from which every total is built.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayerFigures {
    /// Forward + backward of one average layer, one micro-batch, seconds
    /// ([`Plan::layer_kernels`]); `None` on a card without kernel tables.
    pub fwd_bwd_s: Option<f64>,
    /// Activation bytes one layer keeps for one micro-batch ([`Plan::activation_per_layer`]),
    /// the attention scores included when nothing is recomputed.
    pub activation_bytes: f64,
    /// Parameters of one average layer on the card: (P − V·h·(1 or 2) − P_routed)/(L·t) +
    /// P_routed/(L·e) (the stages' shard rule, SPEC §11).
    pub params: f64,
    /// Bytes of model states per parameter held by one card that shares them with nobody
    /// (ZeRO's ledger at D = 1): weights 2 + gradients g + optimizer 12.
    pub states_bytes_per_param: f64,
}

/// The lab's figures for `layers` layers with `held` micro-batches in flight.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Predicted {
    /// Forward + backward of one layer, seconds.
    pub layer_fwd_bwd_s: Option<f64>,
    /// Activation bytes of one layer, one micro-batch.
    pub activation_per_layer_bytes: f64,
    /// Activation bytes the built layers hold with `held` micro-batches in flight.
    pub activation_in_flight_bytes: f64,
    /// The built layers' model states, bytes.
    pub states_bytes: f64,
    /// States + activations in flight: what the lab says the card holds at its peak.
    pub peak_bytes: f64,
}

/// One card's workload (SPEC §19): the plan, the card, the shapes it runs and the lab's
/// figures. `parallel-lab check --emit` prints it; the measuring program reads it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    /// Always [`WORKLOAD_FORMAT`].
    pub format: String,
    /// Always [`CHECK_VERSION`].
    pub version: u32,
    /// The plan.
    pub config: PlanConfig,
    /// The card (global rank).
    pub card: u32,
    /// Its position in the grid.
    pub coords: Coords,
    /// The model's name as the plan has it.
    pub model: String,
    /// One layer's shapes on the card.
    pub layer: LayerShape,
    /// One micro-batch's tokens on the card.
    pub tokens: Tokens,
    /// The stage's layers.
    pub layers: StageLayers,
    /// Micro-batches per step, m.
    pub micro_batches: u32,
    /// Micro-batches whose activations the stage holds at its peak ([`Plan::stage_in_flight`]).
    pub in_flight: f64,
    /// What is recomputed in the backward pass.
    pub recompute: Recompute,
    /// Bytes of gradient per parameter, g.
    pub grad_bytes: f64,
    /// The lab's figures for one layer.
    pub per_layer: LayerFigures,
    /// The lab's figures for the whole stage with [`Workload::in_flight`] micro-batches.
    pub predicted: Predicted,
    /// The card's whole memory as the plan counts it (stage states under ZeRO, embedding or
    /// head included, activations in flight), bytes: more than one GPU can check.
    pub card_bytes: f64,
    /// What the measuring program does not build of this card's work.
    pub not_built: Vec<Unbuilt>,
}

impl Workload {
    /// The lab's figures for `layers` built layers with `held` micro-batches in flight.
    pub fn predicted_for(&self, layers: u32, held: u32) -> Predicted {
        let f = &self.per_layer;
        let n = f64::from(layers);
        let activation = f.activation_bytes * n * f64::from(held);
        let states = f.params * n * f.states_bytes_per_param;
        Predicted {
            layer_fwd_bwd_s: f.fwd_bwd_s,
            activation_per_layer_bytes: f.activation_bytes,
            activation_in_flight_bytes: activation,
            states_bytes: states,
            peak_bytes: states + activation,
        }
    }

    /// Micro-batches the measuring program holds at once: the stage's in-flight count,
    /// rounded up (the interleaved schedule's fraction is a whole micro-batch on the card).
    pub fn held(&self) -> u32 {
        self.in_flight.ceil().max(1.0) as u32
    }
}

impl Plan {
    /// Card `card`'s workload (SPEC §19): its stage's layers at its own shapes (widths ÷ t,
    /// queries ÷ c, its experts ÷ e), its micro-batches in flight, and the lab's figures.
    ///
    /// ```
    /// use parallel_core::{hardware::Hardware, Plan, PlanConfig};
    /// let plan = Plan::new(&PlanConfig { gpus: 8, tp: 2, pp: 2, cp: 2, ..PlanConfig::on(Hardware::H200) })?;
    /// let w = plan.workload(0)?;
    /// assert_eq!(w.layer.heads * 2, plan.model().heads);
    /// assert_eq!(w.tokens.queries * 2, plan.seq_len());
    /// assert_eq!(w.layers.total, plan.stage_layers(0));
    /// assert!(w.per_layer.fwd_bwd_s.is_some());
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn workload(&self, card: u32) -> Result<Workload, PlanError> {
        let coords = self.grid().coords(card)?;
        let (m, d) = (self.model(), self.degrees());
        let stage = coords.pp;
        let total = self.stage_layers(stage);
        let share =
            |k: u32| (f64::from(k) * f64::from(total) / f64::from(m.layers.max(1))).round() as u32;
        let layers = StageLayers {
            total,
            moe: m.moe.map_or(0, |moe| share(moe.moe_layers)).min(total),
            full_attention: share(m.full_attention_layers).min(total),
        };
        let tokens = Tokens {
            seq: self.seq_len(),
            cp: d.cp,
            queries: self.seq_len() / d.cp,
            micro_batch: self.micro_batch_size(),
        };
        let card_tokens = f64::from(tokens.queries) * f64::from(tokens.micro_batch);
        let experts = m.moe.map(|moe| ExpertShape {
            experts: moe.experts,
            local: moe.experts / d.ep,
            ffn: moe.expert_ffn,
            tokens: (card_tokens * f64::from(moe.top_k) * f64::from(d.ep) / f64::from(moe.experts))
                .round() as u32,
            shared_ffn: moe.shared_experts * moe.expert_ffn / d.tp,
        });
        let layer = LayerShape {
            hidden: m.hidden,
            heads: m.heads / d.tp,
            kv_heads: m.kv_heads.div_ceil(d.tp),
            head_dim: m.head_dim,
            ffn: m.ffn / d.tp,
            mlp: m.mlp,
            experts,
        };
        let (per_layer, scores) = self.activation_per_layer();
        let full_share = f64::from(m.full_attention_layers) / f64::from(m.layers.max(1));
        let grad_bytes = self.precision().grad_bytes();
        let per_layer = LayerFigures {
            fwd_bwd_s: self.layer_kernels().map(|k| k.total_s.get()),
            activation_bytes: per_layer.get() + scores.get() * full_share,
            params: ShardBasis::of(self).layer_params(),
            states_bytes_per_param: ledger_total(
                1.0,
                1.0,
                0,
                grad_bytes,
                crate::config::OptimizerOffload::None,
            ),
        };
        let stage_memory = self.memory_by_stage();
        let card_bytes = stage_memory
            .get(stage as usize)
            .map_or(0.0, |s| s.total.get());
        let mut workload = Workload {
            format: WORKLOAD_FORMAT.to_owned(),
            version: CHECK_VERSION,
            config: self.config().clone(),
            card,
            coords,
            model: self.model_name(),
            layer,
            tokens,
            layers,
            micro_batches: self.micro_batches(),
            in_flight: self.stage_in_flight(stage),
            recompute: self.recompute(),
            grad_bytes,
            per_layer,
            predicted: Predicted {
                layer_fwd_bwd_s: None,
                activation_per_layer_bytes: 0.0,
                activation_in_flight_bytes: 0.0,
                states_bytes: 0.0,
                peak_bytes: 0.0,
            },
            card_bytes,
            not_built: Unbuilt::of(self),
        };
        workload.predicted = workload.predicted_for(total, workload.held());
        Ok(workload)
    }

    /// The model's name: the preset's id, "inline" for a model given by its shape, or
    /// "config.json" for one read from Hugging Face's file.
    fn model_name(&self) -> String {
        match &self.config().model {
            crate::model::ModelChoice::Preset(p) => p.id().to_owned(),
            crate::model::ModelChoice::Inline(_) => "inline".to_owned(),
            crate::model::ModelChoice::HfConfig(_) => "config.json".to_owned(),
        }
    }
}
