//! Compute time at the card's roofline (SPEC §17): the FLOPs of a step, and how much longer
//! a layer's weight-bound GEMMs take when a micro-batch holds too few tokens per card to
//! hide the streaming of its weights from HBM.

use crate::config::Recompute;
use crate::formula::{count_of, Quantity, Show};
use crate::kernels::Kernels;
use crate::plan::Plan;

/// The extra forward of full recomputation: 8 FLOPs per parameter and token instead of 6.
pub const FULL_RECOMPUTE_FACTOR: f64 = 4.0 / 3.0;

impl Plan {
    /// 6·F·a·head_dim·s: causal attention's FLOPs per token (scores and values over the F
    /// full-attention layers; Narayanan et al. 2021 §5.1), with MLA's head_dim the mean of
    /// its score and value dimensions ([`crate::Mla::attention_head_dim`]); plus, where the
    /// linear-attention layers' dimensions are known, their delta rule's (L − F)·24·nv·dv²
    /// ([`crate::LinearAttention::state_flops_per_token`]), as Megatron-LM counts both.
    fn attention_per_token<Q: Quantity>(&self) -> Q {
        let model = self.model();
        let softmax = Q::lit(6.0)
            * count_of("F", model.full_attention_layers)
            * count_of("a", model.heads)
            * self.attention_head_dim::<Q>()
            * count_of("s", self.seq_len());
        match model.linear {
            Some(la) if model.linear_attention_layers() > 0 => {
                softmax
                    + count_of::<Q>("L − F", model.linear_attention_layers())
                        * count_of("24·nv·dv²", la.state_flops_per_token())
            }
            _ => softmax,
        }
    }

    /// The head dimension attention's products run over: head_dim, or MLA's mean of its
    /// score and value dimensions ([`crate::Mla::attention_head_dim`]). The FLOPs that MFU
    /// counts and the attention kernels' time use the same.
    pub(crate) fn attention_head_dim<Q: Quantity>(&self) -> Q {
        let model = self.model();
        if model.mla.is_some() {
            count_of("(d_qk + d_v)/2", model.attention_head_dim())
        } else {
            count_of("head_dim", model.head_dim)
        }
    }

    /// × 4/3 with full recompute (its second forward), × 1 otherwise.
    fn with_recompute<Q: Quantity>(&self, flops: Q) -> Q {
        match self.recompute() {
            Recompute::Full => flops * Q::factor(FULL_RECOMPUTE_FACTOR),
            Recompute::Selective | Recompute::None => flops,
        }
    }

    /// The model's FLOPs of one step, recomputation left out: (6·P_mm + 6·F·a·head_dim·s)·T,
    /// with P_mm the parameters a token meets in a matrix product ([`crate::Model::
    /// matmul_params`]: the output layer once, no input-embedding product), as Megatron-LM's
    /// `num_floating_point_operations` counts them (Kaplan et al. 2020 for 6 per parameter and
    /// token). MFU divides these.
    pub(crate) fn model_flops<Q: Quantity>(&self) -> Q {
        (Q::lit(6.0) * count_of("P_mm", self.model().matmul_params()) + self.attention_per_token())
            * self.tokens::<Q>().named("T", Show::Count)
    }

    /// FLOPs of one step as run: [`Plan::model_flops`] × 4/3 with full recompute (SPEC §12).
    pub(crate) fn flops<Q: Quantity>(&self) -> Q {
        self.with_recompute(self.model_flops::<Q>())
            .named("FLOPs", Show::Count)
    }

    /// T_l = s·b/c: the tokens of one micro-batch on one card, the rows of its GEMMs.
    fn local_tokens<Q: Quantity>(&self) -> Q {
        (count_of::<Q>("s", self.seq_len()) * count_of("b", self.micro_batch_size())
            / count_of("c", self.degrees().cp))
        .named("T_l", Show::Count)
    }

    /// R = TFLOP/s ÷ HBM TB/s: the card's ridge point, FLOPs per byte of weights read.
    fn ridge<Q: Quantity>(&self) -> Q {
        let c = self.config();
        (count_of::<Q>("TFLOP/s", c.gpu_tflops) / count_of("HBM TB/s", c.hbm_tbps))
            .named("R", Show::Count)
    }

    /// max(1, R/T_l): how much longer the dense layers' GEMMs take than at full rate. A GEMM
    /// of T_l rows does T_l FLOPs per byte of BF16 weight it streams (2·T_l FLOPs per
    /// 2-byte weight), so below the ridge the card waits on HBM (Williams et al. 2009,
    /// the roofline model; SPEC §17).
    pub(crate) fn roofline<Q: Quantity>(&self) -> Q {
        match Kernels::of(self.config()) {
            Some(kernels) => self.kernel_slowdown(&kernels),
            None => (self.ridge::<Q>() / self.local_tokens()).max(Q::lit(1.0)),
        }
    }

    /// With kernel tables (SPEC §18), how much longer compute takes than every FLOP at the
    /// card's large-GEMM rate: compute ÷ (FLOPs ÷ (N·TFLOP/s·10¹²)).
    fn kernel_slowdown<Q: Quantity>(&self, kernels: &Kernels) -> Q {
        let flat = self.flops::<Q>()
            / (count_of::<Q>("N", self.gpus())
                * count_of("TFLOP/s", self.config().gpu_tflops)
                * Q::constant("10¹²", 1e12));
        self.kernel_compute::<Q>(kernels)
            .named("compute", Show::Seconds)
            / flat.named("at full rate", Show::Seconds)
    }

    /// max(1, R/T_e), T_e = T_l·top_k·e/experts: a routed expert sees only the tokens sent
    /// to it; `None` for a dense model.
    fn expert_roofline<Q: Quantity>(&self) -> Option<Q> {
        let moe = self.model().moe?;
        let tokens = (self.local_tokens::<Q>()
            * count_of("top_k", moe.top_k)
            * count_of("e", self.degrees().ep)
            / count_of("experts", moe.experts))
        .named("T_e", Show::Count);
        Some((self.ridge::<Q>() / tokens).max(Q::lit(1.0)))
    }

    /// Compute time at the roofline (SPEC §17):
    /// (6·P_dense·T·max(1, R/T_l) + 6·P_e·T·max(1, R/T_e) + 6·F·a·head_dim·s·T)
    /// (× 4/3 with full recompute) ÷ (N·TFLOP/s·10¹²), with P_dense the matrix parameters
    /// every token meets (P_mm less the routed experts' share) and P_e = P_routed·top_k/experts
    /// that share (a dense model has only the first term, with P_mm). Attention's products
    /// are not weight-bound.
    ///
    /// Under uneven routing (SPEC §20) every rank waits for the busiest EP rank: its routed
    /// experts run (busiest − 1) × their even seconds longer.
    pub(crate) fn compute<Q: Quantity>(&self) -> Q {
        let even: Q = match Kernels::of(self.config()) {
            Some(kernels) => self.kernel_compute(&kernels),
            None => self.roofline_compute(),
        };
        match self.routed_expert_seconds::<Q>().filter(|_| self.uneven()) {
            Some(routed) => {
                even.named("even compute", Show::Seconds)
                    + (self.busiest_rank::<Q>() - Q::lit(1.0)) * routed
            }
            None => even,
        }
    }

    /// The routed experts' compute per step on an even EP rank (SPEC §20): from the kernel
    /// tables, or at the roofline (6·P_e·T·max(1, R/T_e), × 4/3 with full recompute, ÷
    /// (N·TFLOP/s·10¹²)). `None` for a dense model.
    pub(crate) fn routed_expert_seconds<Q: Quantity>(&self) -> Option<Q> {
        let routed = match Kernels::of(self.config()) {
            Some(kernels) => self.routed_kernel_seconds(&kernels)?,
            None => {
                let model = self.model();
                let moe = model.moe?;
                let active = count_of::<Q>("P_routed", model.routed_params())
                    * count_of("top_k", moe.top_k)
                    / count_of("experts", moe.experts);
                self.with_recompute(
                    Q::lit(6.0)
                        * active.named("P_e", Show::Count)
                        * self.tokens::<Q>().named("T", Show::Count)
                        * self.expert_roofline::<Q>()?,
                ) / (count_of::<Q>("N", self.gpus())
                    * count_of("TFLOP/s", self.config().gpu_tflops)
                    * Q::constant("10¹²", 1e12))
            }
        };
        Some(routed.named("t_experts", Show::Seconds))
    }

    /// Compute from measured kernel rates (SPEC §18): m·(t_gemm + t_attn + t_mem), a card's
    /// GEMMs, attention and memory-bound kernels over one micro-batch of its stage.
    pub(crate) fn kernel_compute<Q: Quantity>(&self, kernels: &Kernels) -> Q {
        let times = self.kernel_times::<Q>(kernels);
        count_of::<Q>("m", self.micro_batches())
            * (times.gemm.named("t_gemm", Show::Seconds)
                + times.attention.named("t_attention", Show::Seconds)
                + times.memory.named("t_mem", Show::Seconds))
    }

    /// SPEC §17's compute at the roofline, the lesson's card's.
    fn roofline_compute<Q: Quantity>(&self) -> Q {
        let model = self.model();
        let tokens = || self.tokens::<Q>().named("T", Show::Count);
        let weights = match (model.moe, self.expert_roofline::<Q>()) {
            (Some(moe), Some(expert_factor)) => {
                let routed = || count_of::<Q>("P_routed", model.routed_params());
                let active = || {
                    (routed() * count_of("top_k", moe.top_k) / count_of("experts", moe.experts))
                        .named("P_e", Show::Count)
                };
                let dense = (count_of::<Q>("P_mm", model.matmul_params()) - active())
                    .named("P_dense", Show::Count);
                let active = active();
                Q::lit(6.0) * dense * tokens() * self.roofline()
                    + Q::lit(6.0) * active * tokens() * expert_factor
            }
            _ => Q::lit(6.0) * count_of("P_mm", model.matmul_params()) * tokens() * self.roofline(),
        };
        self.with_recompute(weights + self.attention_per_token::<Q>() * tokens())
            / (count_of::<Q>("N", self.gpus())
                * count_of("TFLOP/s", self.config().gpu_tflops)
                * Q::constant("10¹²", 1e12))
    }

    /// Model FLOPs utilisation: model FLOPs ÷ (N·peak·10¹²·step) (SPEC §17; Chowdhery et al.
    /// 2022, PaLM, appendix B), as a formula of the step time `step`.
    pub(crate) fn mfu<Q: Quantity>(&self, step: f64) -> Q {
        self.model_flops::<Q>().named("model FLOPs", Show::Count)
            / (count_of::<Q>("N", self.gpus())
                * count_of("peak TFLOP/s", self.config().peak_tflops)
                * Q::constant("10¹²", 1e12)
                * Q::var("step", step, Show::Seconds))
    }
}
