//! The attention block's GEMMs on a card, by kind of attention (SPEC §18): standard QKV and
//! output projections, multi-head latent attention's down and up projections, and Gated
//! DeltaNet's input and output projections, convolution and delta rule. Each at its shape's
//! measured rate ([`Plan::gemm_time`]), so that a step's time covers every FLOP that MFU counts.

use super::kernels::Gemm;
use crate::formula::Quantity;
use crate::kernels::Kernels;
use crate::model::{LinearAttention, Mla};
use crate::plan::Plan;

impl Plan {
    /// The projections of one full-attention layer: standard, or MLA's.
    pub(super) fn full_projection_times<Q: Quantity>(&self, k: &Kernels) -> Q {
        match self.model().mla {
            Some(mla) => self.mla_times(k, mla),
            None => self.standard_times(k),
        }
    }

    /// The projections of one linear-attention layer: Gated DeltaNet's, or standard attention's
    /// where its dimensions are not published (as its parameters are then counted).
    pub(super) fn linear_projection_times<Q: Quantity>(&self, k: &Kernels) -> Q {
        match self.model().linear {
            Some(la) => self.deltanet_times(k, la),
            None => self.standard_times(k),
        }
    }

    /// Standard attention: QKV (N = (a + 2·kv)·head_dim/t, K = h) and output (N = h,
    /// K = a·head_dim/t).
    fn standard_times<Q: Quantity>(&self, k: &Kernels) -> Q {
        let (m, t) = (self.model(), f64::from(self.degrees().tp));
        let (h, hd) = (f64::from(m.hidden), f64::from(m.head_dim));
        let q_width = f64::from(m.heads) * hd / t;
        let qkv_width = (f64::from(m.heads) + 2.0 * f64::from(m.kv_heads)) * hd / t;
        self.gemms(
            k,
            [
                gemm("t_qkv", "r_qkv", ("N_qkv", qkv_width), ("h", h)),
                gemm("t_o", "r_o", ("h", h), ("K_o", q_width)),
            ],
        )
    }

    /// MLA, as Megatron-LM splits it over TP: the down projections whole on every card (q_a,
    /// N = r_q, K = h; kv_a, N = r_kv + r, K = h), the up projections split (q_b, N =
    /// a·(n + r)/t, K = r_q, or q from h without a query rank; kv_b, N = a·(n + v)/t, K = r_kv)
    /// and the output (N = h, K = a·v/t).
    fn mla_times<Q: Quantity>(&self, k: &Kernels, mla: Mla) -> Q {
        let (m, t) = (self.model(), f64::from(self.degrees().tp));
        let (h, a) = (f64::from(m.hidden), f64::from(m.heads));
        let (n, r, v) = (
            f64::from(mla.qk_nope_head_dim),
            f64::from(mla.qk_rope_head_dim),
            f64::from(mla.v_head_dim),
        );
        let r_kv = f64::from(mla.kv_lora_rank);
        let q_width = a * (n + r) / t;
        let query = match mla.q_lora_rank.map(f64::from) {
            Some(r_q) => {
                self.gemm_time::<Q>(
                    k,
                    self.tokens_per_card(),
                    gemm("t_qa", "r_qa", ("r_q", r_q), ("h", h)),
                ) + self.gemm_time(
                    k,
                    self.tokens_per_card(),
                    gemm("t_qb", "r_qb", ("N_q", q_width), ("r_q", r_q)),
                )
            }
            None => self.gemm_time(
                k,
                self.tokens_per_card(),
                gemm("t_q", "r_q", ("N_q", q_width), ("h", h)),
            ),
        };
        query
            + self.gemms(
                k,
                [
                    gemm("t_kva", "r_kva", ("r_kv + r", r_kv + r), ("h", h)),
                    gemm("t_kvb", "r_kvb", ("N_kv", a * (n + v) / t), ("r_kv", r_kv)),
                    gemm("t_o", "r_o", ("h", h), ("K_o", a * v / t)),
                ],
            )
    }

    /// Gated DeltaNet, split over TP by heads: in_proj (N = (2·qk + 2·v + 2·nv)/t, K = h), the
    /// depthwise convolution as a GEMM of its kernel (N = (2·qk + v)/t, K = kernel), the delta
    /// rule's four products per value head (N = 4·nv·dv/t, K = dv) and out_proj (N = h,
    /// K = v/t): the FLOPs Megatron-LM counts for the layer.
    fn deltanet_times<Q: Quantity>(&self, k: &Kernels, la: LinearAttention) -> Q {
        let (m, t) = (self.model(), f64::from(self.degrees().tp));
        let h = f64::from(m.hidden);
        let qk = f64::from(la.key_heads) * f64::from(la.key_head_dim);
        let nv = f64::from(la.value_heads);
        let dv = f64::from(la.value_head_dim);
        let v = nv * dv;
        self.gemms(
            k,
            [
                gemm(
                    "t_in",
                    "r_in",
                    ("N_in", (2.0 * qk + 2.0 * v + 2.0 * nv) / t),
                    ("h", h),
                ),
                gemm(
                    "t_conv",
                    "r_conv",
                    ("N_conv", (2.0 * qk + v) / t),
                    ("kernel", f64::from(la.conv_kernel)),
                ),
                gemm("t_delta", "r_delta", ("N_delta", 4.0 * v / t), ("dv", dv)),
                gemm("t_out", "r_out", ("h", h), ("K_out", v / t)),
            ],
        )
    }

    /// T_l, the rows of a card's GEMMs, with its symbol.
    fn tokens_per_card(&self) -> (&'static str, f64) {
        ("T_l", self.card_tokens())
    }

    /// The sum of `list`'s times at T_l rows.
    fn gemms<Q: Quantity, const N: usize>(&self, k: &Kernels, list: [Gemm; N]) -> Q {
        list.into_iter()
            .map(|g| self.gemm_time::<Q>(k, self.tokens_per_card(), g))
            .reduce(|a, b| a + b)
            .unwrap_or_else(|| Q::lit(0.0))
    }
}

/// A GEMM by its symbols and widths.
fn gemm(
    time: &'static str,
    rate: &'static str,
    n: (&'static str, f64),
    k: (&'static str, f64),
) -> Gemm {
    Gemm { time, rate, n, k }
}
