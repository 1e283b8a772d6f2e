//! The figures measured on one H200 (SPEC §18), copied from `data/h200-2026-12-04/`
//! (`layer.json`, `step.json`, `step2.json`, `acts.json`, `memory.json`); `tests/measured.rs`
//! checks each against its file. Times in milliseconds as measured (CUDA-event medians after
//! warm-up), bytes per layer and micro-batch.

/// A Llama-shaped decoder layer (RMSNorm, GQA, RoPE, SwiGLU): hidden, heads, KV heads, FFN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The measurement's name of the shape.
    pub name: &'static str,
    /// Hidden size h.
    pub hidden: u32,
    /// Attention heads.
    pub heads: u32,
    /// KV heads.
    pub kv_heads: u32,
    /// FFN width.
    pub ffn: u32,
}

/// The shapes measured: a small one, Llama 3 8B's and Llama 3 70B's.
pub const H2048: Shape = Shape {
    name: "h2048",
    hidden: 2048,
    heads: 16,
    kv_heads: 8,
    ffn: 8192,
};
/// Llama 3 8B's layer.
pub const LLAMA3_8B: Shape = Shape {
    name: "llama3-8b",
    hidden: 4096,
    heads: 32,
    kv_heads: 8,
    ffn: 14336,
};
/// Llama 3 70B's layer.
pub const LLAMA3_70B: Shape = Shape {
    name: "llama3-70b",
    hidden: 8192,
    heads: 64,
    kv_heads: 8,
    ffn: 28672,
};

/// One layer's forward + backward at batch 1 (`layer.json`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayerTime {
    /// The layer.
    pub shape: Shape,
    /// Sequence length.
    pub seq: u32,
    /// Eager PyTorch, ms.
    pub eager_ms: f64,
    /// Its GEMMs alone (forward, dgrad, wgrad of each linear), ms.
    pub gemm_ms: f64,
    /// Its attention alone (flash, forward + backward), ms.
    pub attn_ms: f64,
    /// `torch.compile` of the layer, ms, where measured.
    pub compiled_ms: Option<f64>,
}

/// The six layers.
pub const LAYERS: [LayerTime; 6] = [
    LayerTime {
        shape: H2048,
        seq: 2048,
        eager_ms: 3.4395,
        gemm_ms: 1.0831,
        attn_ms: 0.6287,
        compiled_ms: None,
    },
    LayerTime {
        shape: H2048,
        seq: 8192,
        eager_ms: 11.1318,
        gemm_ms: 4.5534,
        attn_ms: 4.1579,
        compiled_ms: None,
    },
    LayerTime {
        shape: LLAMA3_8B,
        seq: 2048,
        eager_ms: 6.2298,
        gemm_ms: 3.4495,
        attn_ms: 0.9748,
        compiled_ms: Some(4.9312),
    },
    LayerTime {
        shape: LLAMA3_8B,
        seq: 8192,
        eager_ms: 27.3394,
        gemm_ms: 15.465,
        attn_ms: 7.3696,
        compiled_ms: Some(23.5835),
    },
    LayerTime {
        shape: LLAMA3_70B,
        seq: 2048,
        eager_ms: 20.0351,
        gemm_ms: 15.2148,
        attn_ms: 1.588,
        compiled_ms: None,
    },
    LayerTime {
        shape: LLAMA3_70B,
        seq: 8192,
        eager_ms: 85.646,
        gemm_ms: 62.9522,
        attn_ms: 13.1975,
        compiled_ms: None,
    },
];

/// A whole training step on one card (`step.json`, `step2.json`): embedding, the layers, a
/// final norm, an untied output head over a 128,256-token vocabulary, cross-entropy and a fused
/// AdamW step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepTime {
    /// The layers' shape.
    pub shape: Shape,
    /// Layers.
    pub layers: u32,
    /// Sequence length.
    pub seq: u32,
    /// Sequences per step.
    pub batch: u32,
    /// Eager, ms.
    pub eager_ms: f64,
    /// `torch.compile` of the model, ms.
    pub compiled_ms: f64,
    /// Eager with every layer checkpointed (full recompute), ms, where measured.
    pub recompute_ms: Option<f64>,
}

/// The vocabulary of the measured steps.
pub const STEP_VOCAB: u32 = 128_256;

/// The three steps.
pub const STEPS: [StepTime; 3] = [
    StepTime {
        shape: LLAMA3_8B,
        layers: 8,
        seq: 8192,
        batch: 2,
        eager_ms: 543.4114,
        compiled_ms: 468.5662,
        recompute_ms: Some(657.777),
    },
    StepTime {
        shape: H2048,
        layers: 16,
        seq: 4096,
        batch: 4,
        eager_ms: 354.8536,
        compiled_ms: 279.8588,
        recompute_ms: Some(437.6373),
    },
    StepTime {
        shape: LLAMA3_70B,
        layers: 2,
        seq: 4096,
        batch: 2,
        eager_ms: 265.903,
        compiled_ms: 244.8615,
        recompute_ms: None,
    },
];

/// How a layer's activations were measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// Eager PyTorch, nothing recomputed.
    Eager,
    /// `torch.compile`, nothing recomputed.
    Compiled,
    /// Eager, every layer checkpointed (full recompute).
    FullRecompute,
}

/// Activation bytes one layer keeps for the backward (forward of 4 layers − 2 layers, or of
/// one layer in `acts.json`), batch 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Activation {
    /// The layer.
    pub shape: Shape,
    /// Sequence length.
    pub seq: u32,
    /// How it ran.
    pub held: Held,
    /// Bytes per layer.
    pub bytes: f64,
}

/// The activations: `acts.json`'s three eager layers and its compiled one, and `memory.json`'s
/// fully recomputed Llama 3 8B layer at three lengths.
pub const ACTIVATIONS: [Activation; 7] = [
    Activation {
        shape: H2048,
        seq: 4096,
        held: Held::Eager,
        bytes: 444892160.0,
    },
    Activation {
        shape: LLAMA3_8B,
        seq: 4096,
        held: Held::Eager,
        bytes: 864584704.0,
    },
    Activation {
        shape: LLAMA3_8B,
        seq: 4096,
        held: Held::Compiled,
        bytes: 612926464.0,
    },
    Activation {
        shape: LLAMA3_70B,
        seq: 4096,
        held: Held::Eager,
        bytes: 1703969792.0,
    },
    Activation {
        shape: LLAMA3_8B,
        seq: 2048,
        held: Held::FullRecompute,
        bytes: 16777216.0,
    },
    Activation {
        shape: LLAMA3_8B,
        seq: 4096,
        held: Held::FullRecompute,
        bytes: 33554432.0,
    },
    Activation {
        shape: LLAMA3_8B,
        seq: 8192,
        held: Held::FullRecompute,
        bytes: 67108864.0,
    },
];
