//! A custom model in a link as one token, `mdl-p8030261248-h4096-l32-…`: its fields, not its
//! JSON ([`encode_inline`], [`decode_inline`]), for [`super::plan_codec`].

use crate::model::{InlineModel, Mlp};

use super::notice::IgnoredReason;

/// The prefix of a custom model's token: `mdl-p8030261248-h4096-l32-a32-k8-d128-f14336-v128256`.
pub(super) const INLINE_PREFIX: &str = "mdl-";

/// The keys of a custom model's fields in its token, in the order they are written.
const INLINE_KEYS: [&str; 24] = [
    "p", "h", "l", "a", "k", "d", "fa", "f", "v", "ml", "e", "x", "ef", "s", "kl", "qr", "ql",
    "qn", "vd", "lk", "lv", "lkd", "lvd", "lc",
];

/// The part that marks a plain (h → ffn → h) MLP; a gated one, the default, has none.
const PLAIN_MLP: &str = "-pm";

/// A custom model (an inline model, or a pasted config.json once counted) as one token: its
/// fields, not its JSON, each a key and digits joined by `-`, `t` for tied embeddings, `pm` for
/// a plain MLP.
pub(super) fn encode_inline(m: &InlineModel) -> String {
    let values: [Option<u64>; 24] = [
        m.params,
        m.hidden.map(u64::from),
        m.layers.map(u64::from),
        m.heads.map(u64::from),
        m.kv_heads.map(u64::from),
        m.head_dim.map(u64::from),
        m.full_attention_layers.map(u64::from),
        m.ffn.map(u64::from),
        m.vocab.map(u64::from),
        m.moe_layers.map(u64::from),
        m.experts.map(u64::from),
        m.top_k.map(u64::from),
        m.expert_ffn.map(u64::from),
        m.shared_experts.map(u64::from),
        m.kv_lora_rank.map(u64::from),
        m.qk_rope_head_dim.map(u64::from),
        m.q_lora_rank.map(u64::from),
        m.qk_nope_head_dim.map(u64::from),
        m.v_head_dim.map(u64::from),
        m.linear_num_key_heads.map(u64::from),
        m.linear_num_value_heads.map(u64::from),
        m.linear_key_head_dim.map(u64::from),
        m.linear_value_head_dim.map(u64::from),
        m.linear_conv_kernel_dim.map(u64::from),
    ];
    let mut out = String::from("mdl");
    for (key, value) in INLINE_KEYS.iter().zip(values) {
        if let Some(value) = value {
            out.push('-');
            out.push_str(key);
            out.push_str(&value.to_string());
        }
    }
    if m.tied_embeddings {
        out.push_str("-t");
    }
    if m.mlp == Mlp::Plain {
        out.push_str(PLAIN_MLP);
    }
    out
}

/// Reads a custom model's token back; `Malformed` on any part it does not know.
pub(super) fn decode_inline(token: &str) -> Result<InlineModel, IgnoredReason> {
    let body = token
        .strip_prefix(INLINE_PREFIX)
        .ok_or(IgnoredReason::Malformed)?;
    let mut m = InlineModel::default();
    for part in body.split('-') {
        if part == "t" {
            m.tied_embeddings = true;
            continue;
        }
        if Some(part) == PLAIN_MLP.strip_prefix('-') {
            m.mlp = Mlp::Plain;
            continue;
        }
        let split = part
            .find(|c: char| c.is_ascii_digit())
            .ok_or(IgnoredReason::Malformed)?;
        let (key, digits) = part.split_at(split);
        if !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(IgnoredReason::Malformed);
        }
        let value: u64 = digits.parse().map_err(|_| IgnoredReason::OutOfRange)?;
        let small = || {
            u32::try_from(value)
                .map(Some)
                .map_err(|_| IgnoredReason::OutOfRange)
        };
        match key {
            "p" => m.params = Some(value),
            "h" => m.hidden = small()?,
            "l" => m.layers = small()?,
            "a" => m.heads = small()?,
            "k" => m.kv_heads = small()?,
            "d" => m.head_dim = small()?,
            "fa" => m.full_attention_layers = small()?,
            "f" => m.ffn = small()?,
            "v" => m.vocab = small()?,
            "ml" => m.moe_layers = small()?,
            "e" => m.experts = small()?,
            "x" => m.top_k = small()?,
            "ef" => m.expert_ffn = small()?,
            "s" => m.shared_experts = small()?,
            "kl" => m.kv_lora_rank = small()?,
            "qr" => m.qk_rope_head_dim = small()?,
            "ql" => m.q_lora_rank = small()?,
            "qn" => m.qk_nope_head_dim = small()?,
            "vd" => m.v_head_dim = small()?,
            "lk" => m.linear_num_key_heads = small()?,
            "lv" => m.linear_num_value_heads = small()?,
            "lkd" => m.linear_key_head_dim = small()?,
            "lvd" => m.linear_value_head_dim = small()?,
            "lc" => m.linear_conv_kernel_dim = small()?,
            _ => return Err(IgnoredReason::Malformed),
        }
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_travels_in_the_token() {
        let m = InlineModel {
            params: Some(1_000_000_007),
            hidden: Some(2048),
            layers: Some(8),
            heads: Some(16),
            kv_heads: Some(16),
            head_dim: Some(128),
            full_attention_layers: Some(2),
            ffn: Some(6144),
            mlp: Mlp::Plain,
            vocab: Some(32_000),
            tied_embeddings: true,
            moe_layers: Some(6),
            experts: Some(8),
            top_k: Some(2),
            expert_ffn: Some(1024),
            shared_experts: Some(1),
            kv_lora_rank: Some(512),
            qk_rope_head_dim: Some(64),
            q_lora_rank: Some(1536),
            qk_nope_head_dim: Some(96),
            v_head_dim: Some(112),
            linear_num_key_heads: Some(8),
            linear_num_value_heads: Some(24),
            linear_key_head_dim: Some(64),
            linear_value_head_dim: Some(80),
            linear_conv_kernel_dim: Some(3),
        };
        let token = encode_inline(&m);
        assert_eq!(decode_inline(&token), Ok(m), "{token}");
    }
}
