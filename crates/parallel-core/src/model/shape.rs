//! A model's shape ([`Model`], [`Moe`], [`Mla`], [`LinearAttention`]) and what is counted from it: total parameters
//! ([`count_params`], SPEC §8), routed and active parameters (SPEC §12).

/// The mixture-of-experts part of a model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moe {
    /// Layers whose MLP is a set of experts (the others are dense).
    pub moe_layers: u32,
    /// Routed experts per MoE layer.
    pub experts: u32,
    /// Experts each token is routed to.
    pub top_k: u32,
    /// FFN width of one expert.
    pub expert_ffn: u32,
    /// Shared (always active) experts per MoE layer.
    pub shared_experts: u32,
}

/// Multi-head latent attention (DeepSeek-V2/V3): what a layer caches per token is one
/// compressed latent of `kv_lora_rank` values plus a shared RoPE key of `qk_rope_head_dim`,
/// not K and V per head (SPEC §15's KV cache). The names are those of DeepSeek-V3's
/// `config.json`; Megatron-LM's flags are `--q-lora-rank`, `--kv-lora-rank`, `--qk-head-dim`
/// (the part without RoPE), `--qk-pos-emb-head-dim` and `--v-head-dim`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mla {
    /// Rank of the compressed query (`q_lora_rank`; DeepSeek-V3: 1536); `None`: queries are
    /// projected from h directly (DeepSeek-V2-Lite).
    pub q_lora_rank: Option<u32>,
    /// Rank of the compressed KV latent (`kv_lora_rank`; DeepSeek-V3: 512).
    pub kv_lora_rank: u32,
    /// A query's and a key's dimension without RoPE, per head (`qk_nope_head_dim`;
    /// DeepSeek-V3: 128).
    pub qk_nope_head_dim: u32,
    /// Dimension of the decoupled RoPE key, shared by the heads (`qk_rope_head_dim`;
    /// DeepSeek-V3: 64).
    pub qk_rope_head_dim: u32,
    /// A value's dimension per head (`v_head_dim`; DeepSeek-V3: 128).
    pub v_head_dim: u32,
}

impl Mla {
    /// One layer's attention parameters (SPEC §8), as DeepSeek-V3's `modeling_deepseek.py`
    /// creates them and Megatron-LM's `theoretical_memory_usage.py` counts them: queries
    /// r_q·(h + a·(n + r) + 1) with a compressed query (q_a, its norm, q_b), else h·a·(n + r);
    /// the KV latent r_kv·(h + a·(n + v) + 1) (kv_a, its norm, kv_b) and the shared RoPE key
    /// h·r; the output a·v·h. (a heads, n/r/v the nope/rope/value head dims.)
    pub fn params(&self, hidden: u32, heads: u32) -> f64 {
        let (h, a) = (f64::from(hidden), f64::from(heads));
        let (n, r, v) = (
            f64::from(self.qk_nope_head_dim),
            f64::from(self.qk_rope_head_dim),
            f64::from(self.v_head_dim),
        );
        let kv = f64::from(self.kv_lora_rank);
        let q = match self.q_lora_rank {
            Some(rank) => f64::from(rank) * (h + a * (n + r) + 1.0),
            None => h * a * (n + r),
        };
        q + kv * (h + a * (n + v) + 1.0) + h * r + a * v * h
    }

    /// The mean of a head's score and value dimensions, ((n + r) + v)/2: the head_dim of
    /// attention's FLOPs (scores over n + r, values over v; Megatron-LM's
    /// `num_floating_point_operations`).
    pub fn attention_head_dim(&self) -> f64 {
        (f64::from(self.qk_nope_head_dim)
            + f64::from(self.qk_rope_head_dim)
            + f64::from(self.v_head_dim))
            / 2.0
    }
}

/// Linear attention as Gated DeltaNet (Yang et al. 2025; Qwen3-Next): per head a fixed-size
/// state instead of a KV cache. The names are those of Qwen3-Next's `config.json` and of
/// Megatron-LM's `TransformerConfig` (`--linear-num-key-heads`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinearAttention {
    /// Query and key heads (`linear_num_key_heads`).
    pub key_heads: u32,
    /// Value and gate heads (`linear_num_value_heads`), a multiple of the key heads.
    pub value_heads: u32,
    /// A query's and a key's dimension (`linear_key_head_dim`).
    pub key_head_dim: u32,
    /// A value's dimension (`linear_value_head_dim`).
    pub value_head_dim: u32,
    /// The causal convolution's kernel (`linear_conv_kernel_dim`).
    pub conv_kernel: u32,
}

impl LinearAttention {
    /// Qwen3-Next-80B-A3B's `config.json` on Hugging Face (16 key heads and 32 value heads of
    /// 128, a kernel of 4), which are also Megatron-LM 0.19's `TransformerConfig` defaults:
    /// an inline model's linear layers when it gives none of these.
    pub const QWEN3_NEXT: LinearAttention = LinearAttention {
        key_heads: 16,
        value_heads: 32,
        key_head_dim: 128,
        value_head_dim: 128,
        conv_kernel: 4,
    };

    /// (q and k width, v width): key heads · key dim, value heads · value dim.
    fn widths(&self) -> (f64, f64) {
        (
            f64::from(self.key_heads) * f64::from(self.key_head_dim),
            f64::from(self.value_heads) * f64::from(self.value_head_dim),
        )
    }

    /// One layer's parameters in matrix products, as Megatron-LM's `GatedDeltaNet`
    /// (megatron/core/ssm/gated_delta_net/common.py, 0.19.2) creates them: in_proj
    /// h·(2·qk + 2·v + 2·nv) (q, k, v, the gate z, beta and alpha), the depthwise convolution
    /// kernel·(2·qk + v) (no bias), out_proj v·h. (qk, v the widths above, nv value heads.)
    pub fn matmul_params(&self, hidden: u32) -> f64 {
        let h = f64::from(hidden);
        let (qk, v) = self.widths();
        let nv = f64::from(self.value_heads);
        h * (2.0 * qk + 2.0 * v + 2.0 * nv) + f64::from(self.conv_kernel) * (2.0 * qk + v) + v * h
    }

    /// Its other parameters: dt_bias and A_log (nv each) and the gated output norm (one value
    /// head's width).
    pub fn other_params(&self) -> f64 {
        2.0 * f64::from(self.value_heads) + f64::from(self.value_head_dim)
    }

    /// FLOPs per token of the gated delta rule itself, beyond its parameters, forward and
    /// backward: 3 · 2 · 4·nv·dv² (KKᵀ, VKᵀ, the state update and the query read-out, as
    /// Megatron-LM's `num_floating_point_operations` counts them).
    pub fn state_flops_per_token(&self) -> f64 {
        6.0 * 4.0 * f64::from(self.value_heads) * f64::from(self.value_head_dim).powi(2)
    }
}

/// The kind of a dense layer's MLP, which sets how many h × ffn matrices it holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mlp {
    /// Gated (SwiGLU, Shazeer 2020, as Llama, Qwen and Mixtral use): gate and up, h → ffn
    /// each, then down, ffn → h: three matrices, 3·h·ffn parameters.
    #[default]
    Gated,
    /// Plain (GPT-2/GPT-3 and Megatron-LM's GPT without `--swiglu`): up, h → ffn, a GeLU, then
    /// down, ffn → h: two matrices, 2·h·ffn parameters (ffn = 4h in Narayanan et al. 2021 and
    /// Korthikanti et al. 2022).
    Plain,
}

impl Mlp {
    /// The h × ffn matrices the MLP feeds each token through before `down`: 2 gated (gate
    /// and up, run as one GEMM of width 2·ffn), 1 plain.
    pub const fn up_matrices(self) -> u32 {
        match self {
            Mlp::Gated => 2,
            Mlp::Plain => 1,
        }
    }

    /// Its matrices in all: the up matrices and down.
    pub const fn matrices(self) -> u32 {
        self.up_matrices() + 1
    }

    /// Whether it is the default, gated kind (for skipping it in JSON).
    pub fn is_gated(&self) -> bool {
        *self == Mlp::Gated
    }
}

/// A resolved model: every figure the formulas need.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// Total parameters P.
    pub params: f64,
    /// Hidden size h.
    pub hidden: u32,
    /// Transformer layers L.
    pub layers: u32,
    /// Layers with full (softmax) attention F; the rest are linear attention.
    pub full_attention_layers: u32,
    /// Attention heads a.
    pub heads: u32,
    /// Key/value heads.
    pub kv_heads: u32,
    /// Dimension of one head.
    pub head_dim: u32,
    /// FFN width of the dense MLP.
    pub ffn: u32,
    /// The dense MLP's kind (experts are gated).
    pub mlp: Mlp,
    /// Vocabulary size V.
    pub vocab: u32,
    /// Whether the output head shares the embedding matrix.
    pub tied_embeddings: bool,
    /// The MoE part, `None` for a dense model.
    pub moe: Option<Moe>,
    /// Multi-head latent attention's dimensions, `None` for standard (GQA/MHA) attention.
    pub mla: Option<Mla>,
    /// The linear-attention layers' dimensions: `None` when every layer is full attention,
    /// or when they are not published (the anchor, whose total is given).
    pub linear: Option<LinearAttention>,
}

impl Model {
    /// Whether the model has experts (SPEC §8: `experts` and `moe_layers` both above 0).
    pub fn is_moe(&self) -> bool {
        self.moe.is_some()
    }

    /// Routed expert parameters, P_routed = moe_layers · experts · 3 · h · expert_ffn
    /// (SPEC §8; 0 for a dense model). DeepSeek-V3: 58·256·3·7168·2048 ≈ 653.9e9.
    ///
    /// ```
    /// use parallel_core::Preset;
    /// let routed = Preset::DeepseekV3.model().routed_params();
    /// assert_eq!((routed / 1e8).round() / 10.0, 653.9);
    /// ```
    pub fn routed_params(&self) -> f64 {
        match self.moe {
            Some(m) => {
                f64::from(m.moe_layers)
                    * f64::from(m.experts)
                    * 3.0
                    * f64::from(self.hidden)
                    * f64::from(m.expert_ffn)
            }
            None => 0.0,
        }
    }

    /// Active parameters per token, P_act = P − P_routed·(1 − top_k/experts) (SPEC §12; P for
    /// a dense model): the routed experts a token skips are taken out.
    ///
    /// ```
    /// use parallel_core::Preset;
    /// let qwen = Preset::Qwen3_30bA3b.model();
    /// assert_eq!(qwen.active_params(), 3_353_032_704.0); // published: 3.3B active
    /// ```
    pub fn active_params(&self) -> f64 {
        match self.moe {
            Some(m) => {
                self.params
                    - self.routed_params() * (1.0 - f64::from(m.top_k) / f64::from(m.experts))
            }
            None => self.params,
        }
    }

    /// Parameters a token meets in a matrix product, P_mm, as Megatron-LM counts a step's
    /// FLOPs (`num_floating_point_operations`, megatron/training/training.py, megatron-core
    /// 0.19.2): P_act less what that formula leaves out, namely the input embedding when untied
    /// (a lookup, not a product; Kaplan et al. 2020 §2.1 leave embeddings out of 6N), the
    /// norms (2h a layer and a final h), the routers (h·experts a MoE layer) and a linear
    /// layer's gates and output norm ([`LinearAttention::other_params`]). A tied embedding is
    /// the output layer's matrix and stays, counted once; MLA's two latent norms stay, as
    /// Megatron's formula counts them.
    ///
    /// ```
    /// use parallel_core::Preset;
    /// let m = Preset::Llama3_8b.model(); // untied, 32 layers, h 4096, V 128,256
    /// let input_embedding = 128_256.0 * 4096.0;
    /// let norms = (2.0 * 32.0 + 1.0) * 4096.0;
    /// assert_eq!(m.matmul_params(), m.active_params() - input_embedding - norms);
    /// ```
    pub fn matmul_params(&self) -> f64 {
        let h = f64::from(self.hidden);
        let input_embedding = if self.tied_embeddings {
            0.0
        } else {
            f64::from(self.vocab) * h
        };
        let norms = (2.0 * f64::from(self.layers) + 1.0) * h;
        let routers = self
            .moe
            .map_or(0.0, |m| f64::from(m.moe_layers) * h * f64::from(m.experts));
        let linear = self.linear.map_or(0.0, |la| {
            f64::from(self.linear_attention_layers()) * la.other_params()
        });
        self.active_params() - input_embedding - norms - routers - linear
    }

    /// P_mm of the model ÷ P_mm of its shape counted ([`count_params`]): 1 for a counted
    /// model; for the anchor, whose published total is given, 1.14 (its linear-attention
    /// layers' shape is counted as standard attention). Kernel tables time the shape while MFU
    /// counts the total, so `Plan::new` keeps the card's fastest rate × this at most its peak.
    pub fn given_over_shape(&self) -> f64 {
        let shape = Model {
            params: count_params(self),
            ..*self
        };
        let ratio = self.matmul_params() / shape.matmul_params();
        if ratio.is_finite() && ratio > 0.0 {
            ratio
        } else {
            1.0
        }
    }

    /// Layers with linear attention, L − F.
    pub fn linear_attention_layers(&self) -> u32 {
        self.layers - self.full_attention_layers
    }

    /// The head_dim of attention's FLOPs: head_dim, or MLA's mean of its score and value
    /// dimensions ([`Mla::attention_head_dim`]).
    pub fn attention_head_dim(&self) -> f64 {
        self.mla
            .map_or(f64::from(self.head_dim), |mla| mla.attention_head_dim())
    }

    /// Layers with a dense MLP, L − moe_layers.
    pub fn dense_layers(&self) -> u32 {
        self.layers - self.moe.map_or(0, |m| m.moe_layers)
    }
}

/// Counts the parameters of a model from its shape (SPEC §8).
///
/// Embeddings V·h, an untied output head V·h (none when tied); per full-attention layer:
/// attention h·a·hd (q) + 2·h·kv·hd (k, v) + a·hd·h (o), or MLA's ([`Mla::params`]); per
/// linear-attention layer Gated DeltaNet's ([`LinearAttention`]; standard attention's when
/// its dimensions are not known); a dense MLP 3·h·ffn gated or 2·h·ffn plain (MoE layers:
/// (experts + shared)·3·h·expert_ffn plus a router h·experts), two norms of h; a final norm
/// of h; no biases.
///
/// ```
/// use parallel_core::{count_params, Preset};
/// assert_eq!(count_params(&Preset::Llama3_405b.model()), 405_853_388_800.0);
/// ```
pub fn count_params(m: &Model) -> f64 {
    let h = f64::from(m.hidden);
    let hd = f64::from(m.head_dim);
    let a = f64::from(m.heads);
    let kv = f64::from(m.kv_heads);
    let vocab = f64::from(m.vocab);
    let embeddings = vocab * h * if m.tied_embeddings { 1.0 } else { 2.0 };
    let standard = h * a * hd + 2.0 * h * kv * hd + a * hd * h;
    let full = m.mla.map_or(standard, |mla| mla.params(m.hidden, m.heads));
    let linear = m.linear.map_or(standard, |la| {
        la.matmul_params(m.hidden) + la.other_params()
    });
    let attention =
        f64::from(m.full_attention_layers) * full + f64::from(m.linear_attention_layers()) * linear;
    let norms = 2.0 * h;
    let dense_mlp = f64::from(m.mlp.matrices()) * h * f64::from(m.ffn);
    let dense_layers = f64::from(m.dense_layers());
    let mut total =
        embeddings + attention + f64::from(m.layers) * norms + dense_layers * dense_mlp + h;
    if let Some(moe) = m.moe {
        let experts = f64::from(moe.experts);
        let per_layer =
            (experts + f64::from(moe.shared_experts)) * 3.0 * h * f64::from(moe.expert_ffn)
                + h * experts;
        total += f64::from(moe.moe_layers) * per_layer;
    }
    total
}
