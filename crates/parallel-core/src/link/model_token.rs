//! A custom model in a link as one token, `mdl-p8030261248-h4096-l32-…`: its fields, not its
//! JSON ([`encode_inline`], [`decode_inline`]), for [`super::plan_codec`].

use crate::model::{InlineModel, Mlp};

use super::notice::IgnoredReason;

/// The prefix of a custom model's token: `mdl-p8030261248-h4096-l32-a32-k8-d128-f14336-v128256`.
pub(super) const INLINE_PREFIX: &str = "mdl-";

/// The keys of a custom model's fields in its token, in the order they are written.
const INLINE_KEYS: [&str; 16] = [
    "p", "h", "l", "a", "k", "d", "fa", "f", "v", "ml", "e", "x", "ef", "s", "kl", "qr",
];

/// The part that marks a plain (h → ffn → h) MLP; a gated one, the default, has none.
const PLAIN_MLP: &str = "-pm";

/// A custom model (an inline model, or a pasted config.json once counted) as one token: its
/// fields, not its JSON, each a key and digits joined by `-`, `t` for tied embeddings, `pm` for
/// a plain MLP.
pub(super) fn encode_inline(m: &InlineModel) -> String {
    let values: [Option<u64>; 16] = [
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
            _ => return Err(IgnoredReason::Malformed),
        }
    }
    Ok(m)
}
