//! Compute from measured kernel rates (SPEC §18): one card's share of a step, kernel by
//! kernel, for a card with tables ([`Kernels`]).
//!
//! Per micro-batch, a card runs its stage's L/p layers at its own shapes: T_l = s·b/c tokens,
//! widths after TP. Every layer has its QKV and output projections and its memory-bound
//! kernels; the F/p full-attention layers have the attention kernel; dense layers a gated
//! MLP, MoE layers a router, the routed experts at the tokens each receives and the shared
//! experts. The last stage also runs the output head and the loss, counted here as 1/p of a
//! stage each (the stages' average, as the FLOPs count did). Each GEMM runs forward, dgrad
//! and wgrad (and the forward again with full recompute) at its shape's rate.

use crate::config::{OptimizerOffload, Recompute};
use crate::formula::{count_of, sum, Quantity, Show};
use crate::kernels::{Kernels, Pass};
use crate::model::Mlp;
use crate::plan::Plan;

/// Bytes of one bf16 element.
const BF16: f64 = 2.0;

/// Elements read and written per token by the memory-bound kernels outside GEMMs and
/// attention, fused as Megatron-LM or `torch.compile` fuse them (one read of each input, one
/// write of each output). Forward, then backward:
/// - per h-wide activation: two RMSNorms (read x, write y: 2 + 2) and two residual adds
///   (read 2, write 1: 3 + 3), 10; backward the norms read x and dy and write dx (3 + 3) and
///   the residual junctions add two gradients (3 + 3), 12;
/// - per query or key width: rotary embedding reads and writes q and k, 2; backward 2;
/// - per FFN width of a gated MLP: SiLU·mul reads gate and up and writes their product, 3;
///   backward reads gate, up and the gradient and writes two gradients, 5; of a plain MLP:
///   the GeLU reads up's output and writes its own, 2; backward reads the input and the
///   gradient and writes one gradient, 3;
/// - per routed token and hidden element of an MoE layer: the permutation's dispatch and
///   combine each read and write h, 4; backward 4;
/// - per logit: the loss's log-softmax reads the logits and writes log-probabilities, 2;
///   backward reads them and writes the logits' gradient, 2.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MemoryBound {
    /// Per element of the hidden size.
    pub hidden: f64,
    /// Per element of the query and key widths.
    pub rotary: f64,
    /// Per element of a gated MLP's FFN width (and an expert's).
    pub ffn: f64,
    /// Per element of a plain MLP's FFN width.
    pub plain_ffn: f64,
    /// Per routed token and hidden element.
    pub permute: f64,
    /// Per logit.
    pub loss: f64,
}

/// Forward only: what full recompute runs again.
pub const MEMORY_BOUND_FORWARD: MemoryBound = MemoryBound {
    hidden: 10.0,
    rotary: 2.0,
    ffn: 3.0,
    plain_ffn: 2.0,
    permute: 4.0,
    loss: 2.0,
};

/// Forward and backward.
pub const MEMORY_BOUND_STEP: MemoryBound = MemoryBound {
    hidden: 22.0,
    rotary: 4.0,
    ffn: 8.0,
    plain_ffn: 5.0,
    permute: 8.0,
    loss: 4.0,
};

/// Bytes read and written per parameter by the optimizer step: Adam with FP32 master weights
/// reads the weight, its FP32 gradient and both moments (4 × 4) and writes the weight, the
/// moments (3 × 4) and the BF16 copy (2): 30 (Megatron-LM's distributed optimizer).
pub const OPTIMIZER_BYTES_PER_PARAM: f64 = 30.0;

/// Causal attention's backward runs 2.5× the forward's FLOPs (Dao 2023): forward + backward
/// is 3.5 forwards.
pub const ATTENTION_FWD_BWD: f64 = 3.5;

/// One GEMM of a layer as the estimate writes it.
pub(super) struct Gemm {
    /// Its time's symbol, "t_qkv".
    pub(super) time: &'static str,
    /// Its rate's symbol, "r_qkv".
    pub(super) rate: &'static str,
    /// Output width N after TP, with its symbol.
    pub(super) n: (&'static str, f64),
    /// Input width K after TP, with its symbol.
    pub(super) k: (&'static str, f64),
}

/// The symbols of a gated MLP's two GEMMs: gate and up as one (`up`), then `down`.
struct MlpSymbols {
    /// Time, rate and N of the gate-and-up GEMM.
    up: (&'static str, &'static str, &'static str),
    /// Time, rate and K of the down GEMM.
    down: (&'static str, &'static str, &'static str),
}

/// A dense layer's MLP.
const DENSE_MLP: MlpSymbols = MlpSymbols {
    up: ("t_up", "r_up", "N_up"),
    down: ("t_down", "r_down", "K_down"),
};
/// One routed expert.
const EXPERT_MLP: MlpSymbols = MlpSymbols {
    up: ("t_up,e", "r_up,e", "N_up,e"),
    down: ("t_down,e", "r_down,e", "ffn_e"),
};
/// The shared experts.
const SHARED_MLP: MlpSymbols = MlpSymbols {
    up: ("t_up,s", "r_up,s", "N_up,s"),
    down: ("t_down,s", "r_down,s", "K_down,s"),
};

/// A card's seconds of one micro-batch, by kind of kernel.
pub(crate) struct KernelTimes<Q> {
    /// The GEMMs' seconds.
    pub gemm: Q,
    /// The attention kernel's seconds.
    pub attention: Q,
    /// The memory-bound kernels' seconds.
    pub memory: Q,
}

impl Plan {
    /// The passes a training step runs of each GEMM: forward, dgrad, wgrad, and the forward
    /// again with full recompute.
    fn layer_passes(&self) -> &'static [Pass] {
        match self.recompute() {
            Recompute::Full => &[Pass::Forward, Pass::Dgrad, Pass::Wgrad, Pass::Forward],
            Recompute::Selective | Recompute::None => &Pass::ALL,
        }
    }

    /// One GEMM of `tokens` rows per micro-batch over its passes: 2·M·N·K·passes ÷ (r·10¹²),
    /// with r the table's rate for the shape averaged over the passes (harmonic mean: the
    /// rate of the passes run back to back).
    pub(super) fn gemm_time<Q: Quantity>(
        &self,
        k: &Kernels,
        tokens: (&'static str, f64),
        g: Gemm,
    ) -> Q {
        self.gemm_passes_time(k, tokens, g, self.layer_passes())
    }

    /// [`Plan::gemm_time`] over the given passes.
    fn gemm_passes_time<Q: Quantity>(
        &self,
        k: &Kernels,
        tokens: (&'static str, f64),
        g: Gemm,
        passes: &[Pass],
    ) -> Q {
        let seconds_per_flop: f64 = passes
            .iter()
            .map(|&pass| 1.0 / k.gemm_flops_per_s(pass, tokens.1, g.n.1, g.k.1))
            .sum();
        let count = passes.len() as f64;
        let rate = count / seconds_per_flop / 1e12;
        (Q::lit(2.0)
            * count_of(tokens.0, tokens.1)
            * count_of(g.n.0, g.n.1)
            * count_of(g.k.0, g.k.1)
            * count_of("passes", count)
            / (Q::var(g.rate, rate, Show::Count) * Q::constant("10¹²", 1e12)))
        .named(g.time, Show::Seconds)
    }

    /// T_l = s·b/c, the tokens of one micro-batch on one card.
    pub(super) fn card_tokens(&self) -> f64 {
        f64::from(self.seq_len()) * f64::from(self.micro_batch_size())
            / f64::from(self.degrees().cp)
    }

    /// An MLP of width w on a card at `tokens` rows: its up matrices as one GEMM (N = 2·w
    /// gated, gate and up; N = w plain), then down (N = h, K = w).
    fn mlp_time<Q: Quantity>(
        &self,
        k: &Kernels,
        tokens: (&'static str, f64),
        (width, mlp): (f64, Mlp),
        symbols: &MlpSymbols,
    ) -> Q {
        let h = f64::from(self.model().hidden);
        let (up_time, up_rate, up_n) = symbols.up;
        let (down_time, down_rate, down_k) = symbols.down;
        let up = Gemm {
            time: up_time,
            rate: up_rate,
            n: (up_n, f64::from(mlp.up_matrices()) * width),
            k: ("h", h),
        };
        let down = Gemm {
            time: down_time,
            rate: down_rate,
            n: ("h", h),
            k: (down_k, width),
        };
        self.gemm_time::<Q>(k, tokens, up) + self.gemm_time(k, tokens, down)
    }

    /// A dense MLP on a card, of the model's kind: w = ffn/t.
    fn dense_mlp_times<Q: Quantity>(&self, k: &Kernels) -> Q {
        let m = self.model();
        let width = f64::from(m.ffn) / f64::from(self.degrees().tp);
        self.mlp_time(k, ("T_l", self.card_tokens()), (width, m.mlp), &DENSE_MLP)
    }

    /// An MoE layer's GEMMs on a card: the router (N = experts, K = h), its experts/e routed
    /// experts at T_e = T_l·top_k·e/experts tokens each (expert TP = 1), and the shared
    /// experts (N = 2·shared·ffn_e/t). `None` for a dense model.
    fn moe_times<Q: Quantity>(&self, k: &Kernels) -> Option<Q> {
        let moe = self.model().moe?;
        let (d, h) = (self.degrees(), f64::from(self.model().hidden));
        let t = f64::from(d.tp);
        let experts = f64::from(moe.experts);
        let ffn = f64::from(moe.expert_ffn);
        let tokens = ("T_l", self.card_tokens());
        let router = Gemm {
            time: "t_router",
            rate: "r_router",
            n: ("experts", experts),
            k: ("h", h),
        };
        let mut total = self.gemm_time::<Q>(k, tokens, router) + self.routed_experts_time(k)?;
        if moe.shared_experts > 0 {
            let width = f64::from(moe.shared_experts) * ffn / t;
            total = total + self.mlp_time(k, tokens, (width, Mlp::Gated), &SHARED_MLP);
        }
        Some(total)
    }

    /// The routed experts of one MoE layer on a card: its experts/e experts at
    /// T_e = T_l·top_k·e/experts tokens each (expert TP = 1). `None` for a dense model.
    fn routed_experts_time<Q: Quantity>(&self, k: &Kernels) -> Option<Q> {
        let moe = self.model().moe?;
        let (e, experts) = (f64::from(self.degrees().ep), f64::from(moe.experts));
        let routed = (
            "T_e",
            self.card_tokens() * f64::from(moe.top_k) * e / experts,
        );
        let one_expert = self.mlp_time::<Q>(
            k,
            routed,
            (f64::from(moe.expert_ffn), Mlp::Gated),
            &EXPERT_MLP,
        );
        Some(count_of::<Q>("experts", experts) / count_of("e", e) * one_expert)
    }

    /// The routed experts' seconds of a step on an even EP rank, from the kernel tables:
    /// m·(L_moe/p)·(experts/e)·t_expert (SPEC §20). `None` for a dense model.
    pub(super) fn routed_kernel_seconds<Q: Quantity>(&self, k: &Kernels) -> Option<Q> {
        let moe = self.model().moe?;
        Some(
            count_of::<Q>("m", self.micro_batches())
                * (count_of::<Q>("L_moe", moe.moe_layers) / count_of("p", self.degrees().pp))
                * self.routed_experts_time(k)?,
        )
    }

    /// The output head on a card: N = V/t, K = h; outside the layers, so full recompute does
    /// not run it again.
    fn head_time<Q: Quantity>(&self, k: &Kernels) -> Q {
        let m = self.model();
        let vocab = f64::from(m.vocab) / f64::from(self.degrees().tp);
        let head = Gemm {
            time: "t_head",
            rate: "r_head",
            n: ("V/t", vocab),
            k: ("h", f64::from(m.hidden)),
        };
        self.gemm_passes_time(k, ("T_l", self.card_tokens()), head, &Pass::ALL)
    }

    /// Causal attention on a card, one layer and micro-batch: 4·(a/t)·head_dim·(s/c)·s/2·b
    /// forward FLOPs (its queries against every key, half masked), × 3.5 with the backward
    /// (+ 1 forward with full recompute), at the table's rate for chunks of s/c queries with
    /// (a/t)·b heads × batch (ring attention runs c such chunks).
    fn attention_time<Q: Quantity>(&self, k: &Kernels) -> Q {
        let (m, d) = (self.model(), self.degrees());
        let heads = f64::from(m.heads) / f64::from(d.tp);
        let chunk = f64::from(self.seq_len()) / f64::from(d.cp);
        let width = heads * f64::from(self.micro_batch_size());
        let rate = k.attention_flops_per_s(chunk, width) / 1e12;
        let forwards = match self.recompute() {
            Recompute::Full => ATTENTION_FWD_BWD + 1.0,
            Recompute::Selective | Recompute::None => ATTENTION_FWD_BWD,
        };
        (Q::lit(4.0)
            * (count_of::<Q>("a", m.heads) / count_of("t", d.tp))
            * self.attention_head_dim::<Q>()
            * (count_of::<Q>("s", self.seq_len()) / count_of("c", d.cp))
            * count_of("s", self.seq_len())
            / Q::lit(2.0)
            * count_of("b", self.micro_batch_size())
            * Q::constant(
                if forwards > ATTENTION_FWD_BWD {
                    "4.5"
                } else {
                    "3.5"
                },
                forwards,
            )
            / (Q::var("r_attn", rate, Show::Count) * Q::constant("10¹²", 1e12)))
        .named("t_attn", Show::Seconds)
    }

    /// A card's memory-bound bytes of one micro-batch over its stage's layers, at `pass`'s
    /// counts: (L/p)·2·T_l·(k_h·h + k_r·(a + kv)·head_dim + k_f·ffn)/t, the dense MLPs over
    /// the dense layers, an MoE layer's SiLU·mul and permutation over its T_l·top_k routed
    /// tokens (expert TP = 1, hence × t) and its shared experts.
    fn layer_bytes<Q: Quantity>(&self, pass: MemoryBound) -> Q {
        let (m, d) = (self.model(), self.degrees());
        let t = || count_of::<Q>("t", d.tp);
        let width = count_of::<Q>("h", m.hidden) * Q::lit(pass.hidden)
            + (count_of::<Q>("a", m.heads) + count_of("kv", m.kv_heads))
                * count_of("head_dim", m.head_dim)
                * Q::lit(pass.rotary);
        let mut per_stage = count_of::<Q>("L", m.layers) * width;
        if m.dense_layers() > 0 {
            per_stage = per_stage
                + count_of::<Q>("L_dense", m.dense_layers())
                    * count_of("ffn", m.ffn)
                    * Q::lit(match m.mlp {
                        Mlp::Gated => pass.ffn,
                        Mlp::Plain => pass.plain_ffn,
                    });
        }
        if let Some(moe) = m.moe {
            let routed = count_of::<Q>("top_k", moe.top_k)
                * t()
                * (count_of::<Q>("ffn_e", moe.expert_ffn) * Q::lit(pass.ffn)
                    + count_of::<Q>("h", m.hidden) * Q::lit(pass.permute));
            let shared = count_of::<Q>("shared", moe.shared_experts)
                * count_of("ffn_e", moe.expert_ffn)
                * Q::lit(pass.ffn);
            per_stage = per_stage + count_of::<Q>("L_moe", moe.moe_layers) * (routed + shared);
        }
        Q::constant("2 B", BF16) * count_of("T_l", self.card_tokens()) * per_stage
            / (t() * count_of("p", d.pp))
    }

    /// The loss's bytes on a card, 1/p of a stage: 2·T_l·k_loss·V/(t·p).
    fn loss_bytes<Q: Quantity>(&self, pass: MemoryBound) -> Q {
        let d = self.degrees();
        Q::constant("2 B", BF16)
            * count_of("T_l", self.card_tokens())
            * Q::lit(pass.loss)
            * count_of("V", self.model().vocab)
            / (count_of::<Q>("t", d.tp) * count_of("p", d.pp))
    }

    /// Seconds of `bytes` at the card's copy bandwidth.
    fn at_copy_rate<Q: Quantity>(k: &Kernels, name: &'static str, bytes: Q) -> Q {
        bytes.named(name, Show::Bytes)
            / (Q::var("copy TB/s", k.copy_tbps, Show::Count) * Q::constant("10¹²", 1e12))
    }

    /// A card's seconds of one micro-batch over its stage's L/p layers, by kernel kind, the
    /// output head and loss left out.
    pub(crate) fn stage_layer_times<Q: Quantity>(&self, k: &Kernels) -> KernelTimes<Q> {
        let (m, d) = (self.model(), self.degrees());
        let p = || count_of::<Q>("p", d.pp);
        let mut gemm =
            count_of::<Q>("F", m.full_attention_layers) / p() * self.full_projection_times(k);
        if m.linear_attention_layers() > 0 {
            gemm = gemm
                + count_of::<Q>("L − F", m.linear_attention_layers()) / p()
                    * self.linear_projection_times(k);
        }
        if m.dense_layers() > 0 {
            gemm =
                gemm + count_of::<Q>("L_dense", m.dense_layers()) / p() * self.dense_mlp_times(k);
        }
        if let (Some(moe), Some(experts)) = (m.moe, self.moe_times::<Q>(k)) {
            gemm = gemm + count_of::<Q>("L_moe", moe.moe_layers) / p() * experts;
        }

        let attention = if m.full_attention_layers > 0 {
            count_of::<Q>("F", m.full_attention_layers) / p() * self.attention_time(k)
        } else {
            Q::lit(0.0)
        };
        let mut bytes = self.layer_bytes::<Q>(MEMORY_BOUND_STEP);
        if self.recompute() == Recompute::Full {
            bytes = bytes + self.layer_bytes::<Q>(MEMORY_BOUND_FORWARD);
        }
        let memory = Self::at_copy_rate(k, "bytes_layers", bytes);
        KernelTimes {
            gemm,
            attention,
            memory,
        }
    }

    /// A card's seconds of one micro-batch (SPEC §18): its stage's layers, plus the output
    /// head's GEMM and the loss's bytes, each 1/p of a stage.
    pub(crate) fn kernel_times<Q: Quantity>(&self, k: &Kernels) -> KernelTimes<Q> {
        let layers = self.stage_layer_times::<Q>(k);
        let p = || count_of::<Q>("p", self.degrees().pp);
        let loss = self.loss_bytes::<Q>(MEMORY_BOUND_STEP);
        KernelTimes {
            gemm: layers.gemm + self.head_time::<Q>(k) / p(),
            attention: layers.attention,
            memory: layers.memory + Self::at_copy_rate(k, "bytes_loss", loss),
        }
    }

    /// The optimizer step on a card (SPEC §18): 30 bytes read and written per parameter it
    /// updates, Ψ/D + Ψ_e/E under ZeRO ≥ 1 (Ψ + Ψ_e under ZeRO-0), at the copy bandwidth;
    /// 0 when the optimizer runs on the host (SPEC §14).
    pub(crate) fn optimizer_time<Q: Quantity>(&self, k: &Kernels) -> Q {
        if self.optimizer_offload() != OptimizerOffload::None {
            return Q::lit(0.0);
        }
        let zero = self.zero() >= 1;
        let share = |(psi, group): (Q, Q)| if zero { psi / group } else { psi };
        let params = sum(core::iter::once(share(self.dense_shard::<Q>()))
            .chain(self.expert_shard::<Q>().map(share)));
        Q::constant("30 B", OPTIMIZER_BYTES_PER_PARAM) * params
            / (Q::var("copy TB/s", k.copy_tbps, Show::Count) * Q::constant("10¹²", 1e12))
    }
}
