//! The presets of SPEC §8 and §13: the lesson's named models, each with the figures of its
//! published `config.json` (or its published total where the counter does not model it).

use super::shape::{Mla, Mlp, Model, Moe};

/// A named model of the lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Qwen3.8-27B, the lesson's anchor: dense, 64 layers of which 16 full attention.
    Qwen38_27b,
    /// Llama 3 405B (dense, GQA with 8 KV heads).
    Llama3_405b,
    /// DeepSeek-V3 (MoE: 3 dense + 58 MoE layers, 256 routed experts, top-8).
    DeepseekV3,
    /// Llama 3 8B (dense, GQA with 8 KV heads), from its `config.json` (SPEC §13).
    Llama3_8b,
    /// Llama 3 70B (dense, GQA with 8 KV heads), from its `config.json` (SPEC §13).
    Llama3_70b,
    /// Mixtral 8x7B (MoE: every layer 8 experts, top-2), from its `config.json` (SPEC §13).
    Mixtral8x7b,
    /// Qwen3-30B-A3B (MoE: every layer 128 experts, top-8), from its `config.json` (SPEC §13).
    Qwen3_30bA3b,
}

impl Preset {
    /// Every preset, in the order they are listed to users: the anchor, then dense models by
    /// size, then MoE models by size.
    pub const ALL: [Preset; 7] = [
        Preset::Qwen38_27b,
        Preset::Llama3_8b,
        Preset::Llama3_70b,
        Preset::Llama3_405b,
        Preset::Qwen3_30bA3b,
        Preset::Mixtral8x7b,
        Preset::DeepseekV3,
    ];

    /// The id used in configs and links, e.g. `"qwen3.8-27b"`.
    pub const fn id(self) -> &'static str {
        match self {
            Preset::Qwen38_27b => "qwen3.8-27b",
            Preset::Llama3_405b => "llama3-405b",
            Preset::DeepseekV3 => "deepseek-v3",
            Preset::Llama3_8b => "llama3-8b",
            Preset::Llama3_70b => "llama3-70b",
            Preset::Mixtral8x7b => "mixtral-8x7b",
            Preset::Qwen3_30bA3b => "qwen3-30b-a3b",
        }
    }

    /// The display name, e.g. `"Qwen3.8-27B"`.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Qwen38_27b => "Qwen3.8-27B",
            Preset::Llama3_405b => "Llama 3 405B",
            Preset::DeepseekV3 => "DeepSeek-V3",
            Preset::Llama3_8b => "Llama 3 8B",
            Preset::Llama3_70b => "Llama 3 70B",
            Preset::Mixtral8x7b => "Mixtral 8x7B",
            Preset::Qwen3_30bA3b => "Qwen3-30B-A3B",
        }
    }

    /// Looks a preset up by its id.
    ///
    /// ```
    /// use parallel_core::Preset;
    /// assert_eq!(Preset::from_id("llama3-405b"), Some(Preset::Llama3_405b));
    /// assert_eq!(Preset::from_id("gpt-5"), None);
    /// ```
    pub fn from_id(id: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.id() == id)
    }

    /// The ids of every preset, comma separated (for error messages).
    pub fn valid_ids() -> String {
        Preset::ALL.map(Preset::id).join(", ")
    }

    /// RoPE's base, `rope_theta` of the published config.json (the copies in
    /// `tests/fixtures/hf/`: Llama 3 8B and 70B 500,000, Mixtral 8x7B and Qwen3-30B-A3B
    /// 1,000,000, DeepSeek-V3 10,000; Llama 3 405B 500,000 by Llama 3's Table 3, one base for
    /// every size). `None` for the anchor, whose config the lab does not have.
    pub const fn rope_base(self) -> Option<u32> {
        match self {
            Preset::Llama3_8b | Preset::Llama3_70b | Preset::Llama3_405b => Some(500_000),
            Preset::Mixtral8x7b | Preset::Qwen3_30bA3b => Some(1_000_000),
            Preset::DeepseekV3 => Some(10_000),
            Preset::Qwen38_27b => None,
        }
    }

    /// Whether attention normalizes each head's queries and keys (Qwen3's `q_norm` and
    /// `k_norm`, `Qwen3MoeAttention` in Hugging Face `transformers`; SPEC §13 counts their
    /// 2·head_dim parameters a layer).
    pub const fn qk_norm(self) -> bool {
        matches!(self, Preset::Qwen3_30bA3b)
    }

    /// The model this preset stands for.
    pub const fn model(self) -> Model {
        match self {
            // SPEC §8: the official count, used as given: the dimensions of its 48 linear
            // attention layers are not published (`linear: None`).
            Preset::Qwen38_27b => Model {
                params: 27_781_427_952.0,
                hidden: 5120,
                layers: 64,
                full_attention_layers: 16,
                heads: 24,
                kv_heads: 4,
                head_dim: 256,
                ffn: 17_408,
                mlp: Mlp::Gated,
                vocab: 248_320,
                tied_embeddings: false,
                moe: None,
                mla: None,
                linear: None,
            },
            // Counted by `count_params`: 405,853,388,800 (checked in tests).
            Preset::Llama3_405b => llama3(405_853_388_800.0, 16_384, 126, 128, 53_248),
            // Published total; `count_params` gives 671,026,404,352 (DeepSeek's own count,
            // 671,026,419,200, adds the routers' 58·256 score biases). KV heads and head dim
            // stand in for MLA's compressed cache in the CP formula.
            Preset::DeepseekV3 => Model {
                params: 671e9,
                hidden: 7168,
                layers: 61,
                full_attention_layers: 61,
                heads: 128,
                kv_heads: 128,
                head_dim: 128,
                ffn: 18_432,
                mlp: Mlp::Gated,
                vocab: 129_280,
                tied_embeddings: false,
                moe: Some(Moe {
                    moe_layers: 58,
                    experts: 256,
                    top_k: 8,
                    expert_ffn: 2048,
                    shared_experts: 1,
                }),
                // config.json of deepseek-ai/DeepSeek-V3 on Hugging Face: q_lora_rank 1536,
                // kv_lora_rank 512, qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128.
                mla: Some(Mla {
                    q_lora_rank: Some(1536),
                    kv_lora_rank: 512,
                    qk_nope_head_dim: 128,
                    qk_rope_head_dim: 64,
                    v_head_dim: 128,
                }),
                linear: None,
            },
            // The presets below are what `hf::HfConfig::to_model` reads from the models'
            // published `config.json` files (tests/hf_configs.rs checks field by field).
            // Published total, counted exactly by `count_params` too.
            Preset::Llama3_8b => llama3(8_030_261_248.0, 4096, 32, 32, 14_336),
            // Published total, counted exactly by `count_params` too.
            Preset::Llama3_70b => llama3(70_553_706_496.0, 8192, 80, 64, 28_672),
            // Published total, counted exactly by `count_params` too (router h·8 per layer).
            // No dense MLP: `intermediate_size` 14,336 is the width of each expert.
            Preset::Mixtral8x7b => Model {
                params: 46_702_792_704.0,
                hidden: 4096,
                layers: 32,
                full_attention_layers: 32,
                heads: 32,
                kv_heads: 8,
                head_dim: 128,
                ffn: 0,
                mlp: Mlp::Gated,
                vocab: 32_000,
                tied_embeddings: false,
                moe: Some(Moe {
                    moe_layers: 32,
                    experts: 8,
                    top_k: 2,
                    expert_ffn: 14_336,
                    shared_experts: 0,
                }),
                mla: None,
                linear: None,
            },
            // Published 30.5B total, 3.3B active: the exact count of `hf`, which adds
            // Qwen3's q_norm and k_norm (2·128 per layer) to `count_params`. No dense layer.
            Preset::Qwen3_30bA3b => Model {
                params: 30_532_122_624.0,
                hidden: 2048,
                layers: 48,
                full_attention_layers: 48,
                heads: 32,
                kv_heads: 4,
                head_dim: 128,
                ffn: 0,
                mlp: Mlp::Gated,
                vocab: 151_936,
                tied_embeddings: false,
                moe: Some(Moe {
                    moe_layers: 48,
                    experts: 128,
                    top_k: 8,
                    expert_ffn: 768,
                    shared_experts: 0,
                }),
                mla: None,
                linear: None,
            },
        }
    }
}

/// A Llama 3 model of `params` parameters (Llama 3, Table 3): `layers` layers of width
/// `hidden`, each full attention with `heads` query heads and 8 KV heads of 128, and a gated
/// MLP of width `ffn`; the 128,256-token vocabulary and an untied output head.
const fn llama3(params: f64, hidden: u32, layers: u32, heads: u32, ffn: u32) -> Model {
    Model {
        params,
        hidden,
        layers,
        full_attention_layers: layers,
        heads,
        kv_heads: 8,
        head_dim: 128,
        ffn,
        mlp: Mlp::Gated,
        vocab: 128_256,
        tied_embeddings: false,
        moe: None,
        mla: None,
        linear: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::count_params;

    #[test]
    fn llama3_405b_counts_to_the_published_figure() {
        assert_eq!(
            count_params(&Preset::Llama3_405b.model()),
            405_853_388_800.0
        );
    }

    #[test]
    fn config_json_presets_count_as_published() {
        // SPEC §13: exact published totals, which the §8 counter reproduces.
        for (preset, total) in [
            (Preset::Llama3_8b, 8_030_261_248.0),
            (Preset::Llama3_70b, 70_553_706_496.0),
            (Preset::Mixtral8x7b, 46_702_792_704.0),
        ] {
            assert_eq!(preset.model().params, total, "{preset:?}");
            assert_eq!(count_params(&preset.model()), total, "{preset:?}");
        }
        // Qwen3's q_norm and k_norm (2·128 per layer, 48 layers) are beyond the §8 counter.
        let qwen = Preset::Qwen3_30bA3b.model();
        assert_eq!(count_params(&qwen) + 48.0 * 256.0, qwen.params);
        // Ids are distinct and found again.
        for preset in Preset::ALL {
            assert_eq!(Preset::from_id(preset.id()), Some(preset));
        }
        assert_eq!(Preset::ALL[0], Preset::Qwen38_27b);
    }

    #[test]
    fn active_params_take_out_the_skipped_experts() {
        assert_eq!(Preset::Llama3_8b.model().active_params(), 8_030_261_248.0);
        let mixtral = Preset::Mixtral8x7b.model();
        assert_eq!(
            mixtral.active_params(),
            mixtral.params - 32.0 * 6.0 * 3.0 * 4096.0 * 14_336.0
        );
    }
}
