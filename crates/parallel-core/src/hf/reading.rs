//! The first step of reading a `config.json`: [`Reading`], every figure the count and the
//! inline model need, each checked as it is read (errors in this order: the family, the
//! shape, the KV heads, `layer_types`, the attention, the experts, the dense FFN).

use super::attention::Attention;
use super::config::{key, HfConfig};
use super::family::HfFamily;
use super::moe::MoeParts;
use crate::checks::{at_least_one_or, at_most, required};
use crate::error::PlanError;
use crate::numbers::quoted_text;

/// A config read and checked, before it is counted.
pub(super) struct Reading {
    /// The family of `architectures`.
    pub(super) family: HfFamily,
    /// Hidden size h.
    pub(super) hidden: u32,
    /// Layers L.
    pub(super) layers: u32,
    /// Attention heads a.
    pub(super) heads: u32,
    /// KV heads (MLA: the stand-in for the CP formula).
    pub(super) kv_heads: u32,
    /// Vocabulary V.
    pub(super) vocab: u32,
    /// The attention of every layer.
    pub(super) attention: Attention,
    /// The MoE layers (`None`: every layer dense).
    pub(super) moe: Option<MoeParts>,
    /// Layers with a dense MLP: L minus the MoE layers.
    pub(super) dense_layers: u32,
    /// The dense MLP's width (0 when no layer is dense).
    pub(super) ffn: u32,
    /// The output head is the embedding matrix.
    pub(super) tied: bool,
    /// Llama's biases of gate, up and down.
    pub(super) mlp_bias: bool,
}

impl HfConfig {
    /// Reads every figure the count needs, checking each (see the module's order).
    pub(super) fn read(&self) -> Result<Reading, PlanError> {
        let family = self.family()?;
        let hidden = required(self.hidden_size, key!("hidden_size"))?;
        let layers = required(self.num_hidden_layers, key!("num_hidden_layers"))?;
        let heads = required(self.num_attention_heads, key!("num_attention_heads"))?;
        let vocab = required(self.vocab_size, key!("vocab_size"))?;
        let kv_heads = self.kv_heads(family, heads)?;
        self.check_layer_types()?;
        let attention = self.attention(family, hidden, heads)?;
        let moe = self.moe(family, layers)?;
        let dense_layers = layers - moe.as_ref().map_or(0, |m| m.layers);
        let ffn = if dense_layers > 0 {
            required(self.intermediate_size, key!("intermediate_size"))?
        } else {
            0
        };
        Ok(Reading {
            family,
            hidden,
            layers,
            heads,
            kv_heads,
            vocab,
            attention,
            moe,
            dense_layers,
            ffn,
            tied: self.tie_word_embeddings.unwrap_or(false),
            mlp_bias: family == HfFamily::Llama && self.mlp_bias == Some(true),
        })
    }

    /// `num_key_value_heads`, at most the heads: Llama and DeepSeek (where MLA has no KV heads
    /// of its own: the stand-in for the CP formula) default it to the heads, the others need it.
    fn kv_heads(&self, family: HfFamily, heads: u32) -> Result<u32, PlanError> {
        let field = key!("num_key_value_heads");
        let kv_heads = match family {
            HfFamily::Llama | HfFamily::DeepseekV3 => {
                at_least_one_or(self.num_key_value_heads, field, heads)?
            }
            _ => required(self.num_key_value_heads, field)?,
        };
        at_most(kv_heads, heads, field)
    }

    /// `layer_types`, when given: only full and sliding attention are modelled.
    fn check_layer_types(&self) -> Result<(), PlanError> {
        if let Some(kind) = self
            .layer_types
            .iter()
            .flatten()
            .find(|k| !matches!(k.as_str(), "full_attention" | "sliding_attention"))
        {
            return Err(PlanError::Unsupported {
                field: key!("layer_types"),
                value: quoted_text(kind),
                supported: "full_attention, sliding_attention",
            });
        }
        Ok(())
    }
}
