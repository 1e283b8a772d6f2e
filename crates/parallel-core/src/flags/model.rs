//! The model's flags, both ways: [`model_args`] writes a resolved model's shape as
//! Megatron-LM's `TransformerConfig` flags; [`read_model`] reads them back into the preset of
//! the same shape, or an inline model in its plainest form (only what differs from the
//! defaults), so that writing it again gives the same words.

use super::kinds::LaunchError;
use super::names as n;
use super::output::Note;
use super::values::{bad, Values};
use crate::error::PlanError;
use crate::model::{InlineModel, LinearAttention, Mla, Mlp, Model, ModelChoice, Preset};

/// Appends the model's flags: layers, hidden, FFN (when the model has a dense FFN), heads,
/// query groups (when fewer than heads), kv-channels, vocab, untied output; MoE's experts,
/// top-k, expert FFN, shared experts and which layers are MoE (the first L − M dense); linear
/// attention as Gated DeltaNet layers with their frequency, heads and dimensions; MLA's ranks
/// and head dimensions.
pub(super) fn model_args(
    choice: &ModelChoice,
    m: &Model,
    tp: u32,
    args: &mut Vec<String>,
    notes: &mut Vec<Note>,
) {
    push_value(args, n::NUM_LAYERS, m.layers);
    push_value(args, n::HIDDEN, m.hidden);
    let all_moe = m.moe.is_some_and(|moe| moe.moe_layers == m.layers);
    if m.ffn > 0 && !all_moe {
        push_value(args, n::FFN, m.ffn);
    }
    push_value(args, n::HEADS, m.heads);
    if m.kv_heads != m.heads {
        args.push(n::GQA.to_string());
        push_value(args, n::QUERY_GROUPS, m.kv_heads);
    }
    push_value(args, n::KV_CHANNELS, m.head_dim);
    push_value(args, n::VOCAB, m.vocab);
    if let Some(divisor) = vocab_divisor(m.vocab, tp) {
        push_value(args, n::VOCAB_DIVISOR, divisor);
    }
    if u64::from(m.vocab) % u64::from(tp.max(1)) != 0 {
        let padded = u64::from(m.vocab).div_ceil(u64::from(tp)) * u64::from(tp);
        notes.push(Note::new(
            format!("词表 {} 不能被 TP = {tp} 整除：Megatron 把它补到 {padded} 行，实验室按 {} 行计算。", m.vocab, m.vocab),
            format!("The vocabulary of {} does not divide by TP {tp}: Megatron pads it to {padded} rows, while the lab counts {}.", m.vocab, m.vocab),
        ));
    }
    if !m.tied_embeddings {
        args.push(n::UNTIE.to_string());
    }
    // What the lab's count assumes of every layer (SPEC §8): RMSNorm (one weight vector a
    // norm), no biases, rotary positions (no position table); a gated MLP is `--swiglu`.
    if m.mlp == Mlp::Gated {
        args.push(n::SWIGLU.to_string());
    } else if m.moe.is_some() {
        notes.push(Note::new(
            "Megatron-LM 的 --swiglu 同时决定稠密 MLP 和专家：这个模型的稠密 MLP 不带门控、专家带门控（实验室按 3 个矩阵计专家），命令里无法同时写出。",
            "Megatron-LM's --swiglu sets the dense MLP and the experts alike: this model's dense MLP is plain while its experts are gated (the lab counts three matrices an expert), which one command cannot say.",
        ));
    }
    args.extend(
        [
            n::NORMALIZATION,
            "RMSNorm",
            n::NO_BIAS,
            n::POSITION_EMBEDDING,
            "rope",
        ]
        .map(String::from),
    );
    let preset = match choice {
        ModelChoice::Preset(p) => Some(*p),
        _ => None,
    };
    match preset.and_then(Preset::rope_base) {
        Some(base) => push_value(args, n::ROTARY_BASE, base),
        None => notes.push(Note::new(
            "RoPE 的底数不影响计数，实验室的模型里也没有它：Megatron 默认 10000，请按你的模型加上 --rotary-base。",
            "RoPE's base changes no count and is not in the lab's model: Megatron's default is 10,000; add --rotary-base for your model's.",
        )),
    }
    if preset.is_some_and(Preset::qk_norm) {
        args.push(n::QK_NORM.to_string());
    }
    if let Some(moe) = m.moe {
        push_value(args, n::NUM_EXPERTS, moe.experts);
        push_value(args, n::TOPK, moe.top_k);
        push_value(args, n::MOE_FFN, moe.expert_ffn);
        if moe.shared_experts > 0 {
            let shared = u64::from(moe.shared_experts) * u64::from(moe.expert_ffn);
            push_value(args, n::SHARED_FFN, shared);
        }
        if moe.moe_layers < m.layers {
            push_value(
                args,
                n::MOE_LAYER_FREQ,
                format!("([0]*{}+[1]*{})", m.layers - moe.moe_layers, moe.moe_layers),
            );
        }
    }
    if m.moe.is_some_and(|moe| moe.top_k == 1) {
        args.push(n::PRE_SOFTMAX.to_string());
    }
    if m.full_attention_layers < m.layers {
        push_value(args, n::ATTENTION_VARIANT, "gated_delta_net");
        let full = m.full_attention_layers;
        let freq = if full > 0 && m.layers % full == 0 {
            (m.layers / full).to_string()
        } else {
            format!("([1]*{}+[0]*{})", m.layers - full, full)
        };
        push_value(args, n::LINEAR_FREQ, freq);
        match m.linear {
            Some(la) => {
                for (flag, v) in [
                    (n::LINEAR_KEY_HEADS, la.key_heads),
                    (n::LINEAR_VALUE_HEADS, la.value_heads),
                    (n::LINEAR_KEY_DIM, la.key_head_dim),
                    (n::LINEAR_VALUE_DIM, la.value_head_dim),
                    (n::LINEAR_CONV, la.conv_kernel),
                ] {
                    push_value(args, flag, v);
                }
            }
            None => notes.push(Note::new(
                "这个模型线性注意力（Gated DeltaNet）的头数和维度没有公开，实验室用它公布的参数总量：Megatron 用它的默认值（16 个 key 头、32 个 value 头，各 128 维，卷积核 4），请按你的模型加上 --linear-num-key-heads 等参数。",
                "This model's linear-attention (Gated DeltaNet) head counts and dimensions are not published, and the lab uses its published total: Megatron takes its defaults (16 key heads and 32 value heads of 128, convolution 4); add --linear-num-key-heads and the others for your model.",
            )),
        }
    }
    if let Some(mla) = m.mla {
        args.push(n::MLA.to_string());
        if let Some(rank) = mla.q_lora_rank {
            push_value(args, n::Q_LORA_RANK, rank);
        }
        for (flag, v) in [
            (n::KV_LORA_RANK, mla.kv_lora_rank),
            (n::QK_HEAD_DIM, mla.qk_nope_head_dim),
            (n::QK_POS_EMB_HEAD_DIM, mla.qk_rope_head_dim),
            (n::V_HEAD_DIM, mla.v_head_dim),
        ] {
            push_value(args, flag, v);
        }
    }
    let own_count = match choice {
        ModelChoice::Inline(inline) => inline.params.is_some(),
        ModelChoice::HfConfig(_) => true,
        ModelChoice::Preset(_) => false,
    };
    if own_count {
        notes.push(Note::new(
            "Megatron-LM 按形状建模型：配置里给定的参数量不进命令，读回时按形状重新计数。",
            "Megatron-LM builds the model from its shape: a parameter count given in the config is not a flag, and reading the command back counts the shape.",
        ));
    }
}

/// Appends a flag and its value.
fn push_value(args: &mut Vec<String>, flag: &str, value: impl std::fmt::Display) {
    args.push(flag.to_string());
    args.push(value.to_string());
}

/// The vocabulary of the tokenizers Megatron-LM's own example scripts name instead of giving
/// `--vocab-size`: GPT-2's BPE (`gpt2-vocab.json` + `gpt2-merges.txt`, 50,257 tokens; the one
/// tokenizer that reads a merge file) and Llama 2's SentencePiece model (32,000 tokens).
/// The `--make-vocab-size-divisible-by` that keeps Megatron from padding a vocabulary of
/// `vocab` rows at TP `tp`: none when its default 128 already divides V/t; else the largest
/// power of two up to 128 that divides V/t (1 when t does not divide V, and Megatron pads to
/// a multiple of t, which the writer notes). Llama 3's 128,256 at TP 1 needs none
/// (1,002·128); at TP 8 it gets 32 (16,032 = 501·32); 32,000 at TP 8 gets 32 (4,000 = 125·32).
fn vocab_divisor(vocab: u32, tp: u32) -> Option<u32> {
    let (vocab, tp) = (u64::from(vocab), u64::from(tp.max(1)));
    if vocab % (128 * tp) == 0 {
        return None;
    }
    if vocab % tp != 0 {
        return Some(1);
    }
    let per_rank = vocab / tp;
    (0..=7)
        .rev()
        .map(|k| 1u32 << k)
        .find(|d| per_rank % u64::from(*d) == 0)
}

fn tokenizer_vocab(v: &Values) -> Option<(u32, &'static str)> {
    match v.text(n::TOKENIZER_TYPE) {
        Some("GPT2BPETokenizer") => Some((50_257, "GPT-2")),
        Some("Llama2Tokenizer") => Some((32_000, "Llama 2")),
        Some(_) => None,
        None if v.has(n::MERGE_FILE)
            || v.text(n::VOCAB_FILE).is_some_and(|f| f.contains("gpt2")) =>
        {
            Some((50_257, "GPT-2"))
        }
        None => None,
    }
}

/// The model of a pasted command: the preset of the same shape, or an inline model.
pub(super) fn read_model(v: &Values, notes: &mut Vec<Note>) -> Result<ModelChoice, PlanError> {
    let need = |flag: &'static str| -> Result<u32, PlanError> {
        v.count(flag)?
            .ok_or(PlanError::Launch(LaunchError::Missing { flag }))
    };
    let layers = need(n::NUM_LAYERS)?;
    let hidden = need(n::HIDDEN)?;
    let heads = need(n::HEADS)?;
    let vocab = match v.count(n::VOCAB)? {
        Some(vocab) => vocab,
        None => match tokenizer_vocab(v) {
            Some((vocab, name)) => {
                notes.push(Note::new(
                    format!("没有 --vocab-size：按 {name} 分词器的词表计为 {vocab}（Megatron 会再补齐到 128·t 的倍数，实验室不计补齐）。"),
                    format!("No --vocab-size: the {name} tokenizer's {vocab} tokens are counted (Megatron pads the vocabulary to a multiple of 128·t; the lab does not count the padding)."),
                ));
                vocab
            }
            None => return Err(PlanError::Launch(LaunchError::Missing { flag: n::VOCAB })),
        },
    };
    // TransformerConfig: num_query_groups is heads unless --group-query-attention (argparse
    // default 1); kv_channels hidden/heads; ffn_hidden_size 4·hidden.
    let kv_heads = if v.has(n::GQA) {
        v.count(n::QUERY_GROUPS)?.unwrap_or(1)
    } else {
        heads
    };
    let head_dim = v.count(n::KV_CHANNELS)?.unwrap_or((hidden / heads).max(1));
    let experts = v.count(n::NUM_EXPERTS)?;
    let moe_layers = match (experts, v.text(n::MOE_LAYER_FREQ)) {
        (None, _) => None,
        (Some(_), None) => Some(layers),
        (Some(_), Some(text)) => Some(layer_pattern(n::MOE_LAYER_FREQ, text, layers, true)?),
    };
    let all_moe = moe_layers == Some(layers);
    // An MoE layer in every layer leaves no dense FFN to count (the given width is still
    // Megatron's default for the experts' FFN).
    let given_ffn = v.count(n::FFN)?;
    let ffn = match given_ffn {
        _ if all_moe => None,
        Some(ffn) => Some(ffn),
        None => Some(hidden.saturating_mul(4)),
    };
    let expert_ffn = match experts {
        Some(_) => Some(
            v.count(n::MOE_FFN)?
                .or(given_ffn)
                .unwrap_or(hidden.saturating_mul(4)),
        ),
        None => None,
    };
    let shared_experts = match (v.number(n::SHARED_FFN, 0)?, expert_ffn) {
        (Some(shared), Some(e)) if shared % e == 0 => Some(shared / e).filter(|s| *s > 0),
        (Some(shared), Some(_)) => {
            return Err(bad(
                n::SHARED_FFN,
                &shared.to_string(),
                "a whole number of expert FFN widths",
            ))
        }
        _ => None,
    };
    let full_attention_layers = match v.text(n::LINEAR_FREQ) {
        Some(text) if v.has(n::ATTENTION_VARIANT) => {
            Some(layers - layer_pattern(n::LINEAR_FREQ, text, layers, false)?)
        }
        _ => None,
    };
    let mla = if v.has(n::MLA) {
        // arguments.py `_add_mla_args` defaults: --q-lora-rank None, --kv-lora-rank 32,
        // --qk-head-dim 128, --qk-pos-emb-head-dim 64, --v-head-dim 128.
        Some(Mla {
            q_lora_rank: v.count(n::Q_LORA_RANK)?,
            kv_lora_rank: v.count(n::KV_LORA_RANK)?.unwrap_or(32),
            qk_nope_head_dim: v.count(n::QK_HEAD_DIM)?.unwrap_or(128),
            qk_rope_head_dim: v.count(n::QK_POS_EMB_HEAD_DIM)?.unwrap_or(64),
            v_head_dim: v.count(n::V_HEAD_DIM)?.unwrap_or(128),
        })
    } else {
        None
    };
    // TransformerConfig's defaults, which are Qwen3-Next's: an inline model's too.
    let la = LinearAttention::QWEN3_NEXT;
    let linear = |flag: &'static str, default: u32| -> Result<Option<u32>, PlanError> {
        Ok(v.count(flag)?.filter(|given| *given != default))
    };
    let top_k = match experts {
        Some(_) => Some(v.count(n::TOPK)?.unwrap_or(2)),
        None => None,
    };
    let inline = InlineModel {
        params: None,
        hidden: Some(hidden),
        layers: Some(layers),
        heads: Some(heads),
        kv_heads: Some(kv_heads).filter(|k| *k != heads),
        head_dim: Some(head_dim).filter(|d| *d != (hidden / heads).max(1)),
        full_attention_layers: full_attention_layers.filter(|f| *f != layers),
        ffn,
        // Megatron-LM's MLP is GeLU with two matrices unless `--swiglu`.
        mlp: if v.has(n::SWIGLU) {
            Mlp::Gated
        } else {
            Mlp::Plain
        },
        vocab: Some(vocab),
        tied_embeddings: !v.has(n::UNTIE),
        moe_layers,
        experts,
        top_k,
        expert_ffn,
        shared_experts,
        kv_lora_rank: mla.map(|m| m.kv_lora_rank),
        qk_rope_head_dim: mla.map(|m| m.qk_rope_head_dim),
        q_lora_rank: mla.and_then(|m| m.q_lora_rank),
        qk_nope_head_dim: mla.map(|m| m.qk_nope_head_dim).filter(|d| *d != head_dim),
        v_head_dim: mla.map(|m| m.v_head_dim).filter(|d| *d != head_dim),
        linear_num_key_heads: linear(n::LINEAR_KEY_HEADS, la.key_heads)?,
        linear_num_value_heads: linear(n::LINEAR_VALUE_HEADS, la.value_heads)?,
        linear_key_head_dim: linear(n::LINEAR_KEY_DIM, la.key_head_dim)?,
        linear_value_head_dim: linear(n::LINEAR_VALUE_DIM, la.value_head_dim)?,
        linear_conv_kernel_dim: linear(n::LINEAR_CONV, la.conv_kernel)?,
    };
    let model = inline.resolve()?;
    // A preset whose linear-attention dimensions are not published (the anchor) prints none,
    // and reading its line gives Megatron's defaults: the same model as far as it is known.
    let no_linear_flags = [
        inline.linear_num_key_heads,
        inline.linear_num_value_heads,
        inline.linear_key_head_dim,
        inline.linear_value_head_dim,
        inline.linear_conv_kernel_dim,
    ]
    .iter()
    .all(Option::is_none);
    let as_read = |preset: &Model| Model {
        linear: if preset.linear.is_none() && no_linear_flags {
            None
        } else {
            model.linear
        },
        ..model
    };
    Ok(
        match Preset::ALL
            .into_iter()
            .find(|p| same_shape(&p.model(), &as_read(&p.model())))
        {
            Some(preset) => ModelChoice::Preset(preset),
            None => ModelChoice::Inline(inline),
        },
    )
}

/// Two models with the same shape, whatever their parameter count (and, when every layer is
/// MoE, whatever dense FFN width they carry unused).
fn same_shape(a: &Model, b: &Model) -> bool {
    let plain = |m: &Model| {
        let all_moe = m.moe.is_some_and(|moe| moe.moe_layers == m.layers);
        Model {
            params: 0.0,
            ffn: if all_moe { 0 } else { m.ffn },
            ..*m
        }
    };
    plain(a) == plain(b)
}

/// Layers marked by a Megatron layer pattern (`--moe-layer-freq`: 1 = MoE; or
/// `--linear-attention-freq`: 1 = linear attention): an integer N, or a list expression such
/// as `([0]*3+[1]*58)` or `([1]*3+[0]*1)*16`, whose length must be the model's layers.
/// `every_nth_marked`: an integer N marks layers i with i mod N = 0 (MoE), else the layers
/// other than every N-th (linear attention: (N−1) of every N).
fn layer_pattern(
    flag: &'static str,
    text: &str,
    layers: u32,
    every_nth_marked: bool,
) -> Result<u32, PlanError> {
    let t = text.trim();
    if let Ok(nth) = t.parse::<u32>() {
        if nth == 0 {
            return Err(bad(flag, text, "a layer frequency of at least 1"));
        }
        let nth_layers = layers.div_ceil(nth);
        return Ok(if every_nth_marked {
            nth_layers
        } else {
            layers - layers / nth
        });
    }
    let pattern = list_expression(t)
        .ok_or_else(|| bad(flag, text, "a layer pattern such as ([0]*3+[1]*58)"))?;
    if pattern.len() != layers as usize || pattern.iter().any(|&x| x > 1) {
        return Err(bad(flag, text, "a pattern of 0s and 1s, one per layer"));
    }
    Ok(pattern.iter().filter(|&&x| x == 1).count() as u32)
}

/// A Python list expression of the kind Megatron's patterns use: sums of `[a,b,…]`, each
/// optionally repeated `*k`, in optional parentheses, themselves optionally repeated. At most
/// 2^20 entries; anything else is `None`.
fn list_expression(text: &str) -> Option<Vec<u8>> {
    let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let s = s.trim_matches(|c| c == '"' || c == '\'');
    let mut p = Parser {
        s: s.as_bytes(),
        i: 0,
    };
    let list = p.sum()?;
    (p.i == p.s.len()).then_some(list)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

const MAX_PATTERN: usize = 1 << 20;

impl Parser<'_> {
    fn eat(&mut self, c: u8) -> bool {
        let hit = self.s.get(self.i) == Some(&c);
        self.i += usize::from(hit);
        hit
    }
    fn number(&mut self) -> Option<usize> {
        let start = self.i;
        while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i])
            .ok()?
            .parse()
            .ok()
    }
    fn sum(&mut self) -> Option<Vec<u8>> {
        let mut out = self.product()?;
        while self.eat(b'+') {
            out.extend(self.product()?);
            if out.len() > MAX_PATTERN {
                return None;
            }
        }
        Some(out)
    }
    fn product(&mut self) -> Option<Vec<u8>> {
        let mut base = self.atom()?;
        while self.eat(b'*') {
            let k = self.number()?;
            if base.len().checked_mul(k)? > MAX_PATTERN {
                return None;
            }
            base = base.repeat(k);
        }
        Some(base)
    }
    fn atom(&mut self) -> Option<Vec<u8>> {
        if self.eat(b'(') {
            let inner = self.sum()?;
            return self.eat(b')').then_some(inner);
        }
        if !self.eat(b'[') {
            return None;
        }
        let mut out = Vec::new();
        if self.eat(b']') {
            return Some(out);
        }
        loop {
            out.push(u8::try_from(self.number()?).ok()?);
            if self.eat(b']') {
                return Some(out);
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vocabulary_divisor_keeps_megatron_from_padding() {
        assert_eq!(vocab_divisor(128_256, 1), None); // 128,256 = 1,002 · 128
        assert_eq!(vocab_divisor(128_256, 8), Some(32)); // 16,032 = 501 · 32
        assert_eq!(vocab_divisor(32_000, 8), Some(32)); // 32,000/8 = 4,000 = 125 · 32
        assert_eq!(vocab_divisor(50_257, 1), Some(1));
        assert_eq!(vocab_divisor(50_258, 4), Some(1)); // t ∤ V: Megatron pads to 50,260
        for (vocab, tp) in [(32_000, 8), (151_936, 16), (49_152, 3), (100_000, 4)] {
            let divisor = u64::from(vocab_divisor(vocab, tp).unwrap_or(128));
            let multiple = divisor * u64::from(tp);
            assert_eq!(
                u64::from(vocab).div_ceil(multiple) * multiple,
                u64::from(vocab)
            );
        }
    }

    #[test]
    fn patterns() {
        assert_eq!(list_expression("([0]*3+[1]*58)").map(|l| l.len()), Some(61));
        assert_eq!(
            list_expression("([1]*3+[0]*1)*3"),
            Some(vec![1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0])
        );
        assert_eq!(list_expression("[1,0, 1]"), Some(vec![1, 0, 1]));
        for bad in [
            "",
            "(",
            "[1",
            "[1]*",
            "[x]",
            "[1]*99999999999",
            "([0]*3+[1]*58",
        ] {
            assert_eq!(list_expression(bad), None, "{bad}");
        }
        assert_eq!(
            layer_pattern("--moe-layer-freq", "([0]*3+[1]*58)", 61, true),
            Ok(58)
        );
        assert_eq!(
            layer_pattern("--linear-attention-freq", "4", 64, false),
            Ok(48)
        );
        assert!(layer_pattern("--moe-layer-freq", "[1]*3", 4, true).is_err());
        assert!(layer_pattern("--moe-layer-freq", "0", 4, true).is_err());
    }
}
