//! The count of a `config.json`, term by term as the module table lists it, exact in integers,
//! and [`HfModel`], what [`HfConfig::to_model`] returns: read ([`Reading`]), count, note.

use serde::Serialize;

use super::attention::Attention;
use super::config::{key, HfConfig};
use super::family::HfFamily;
use super::moe::MoeParts;
use super::notes::{notes, HfNote};
use super::reading::Reading;
use crate::config::{Field, ModelField};
use crate::error::PlanError;
use crate::model::{InlineModel, Mlp};

/// Parameter counts above this are not exact as the `f64` of [`crate::Model::params`]: 2^53.
const MAX_EXACT: u128 = 1 << 53;

/// A `config.json` read: the inline model (with its exact count as `params`), its counts and
/// notes. Serializes as `parallel-lab model` prints it: `{"model", "params", "active_params",
/// "notes"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HfModel {
    /// The inline model of SPEC §8 this config stands for; `params` is the exact count.
    pub model: InlineModel,
    /// Total parameters P (MTP excluded).
    pub params: u64,
    /// Active parameters P_act = P − P_routed·(1 − top_k/experts) (SPEC §12); P when dense.
    pub active_params: u64,
    /// Routed expert parameters P_routed = moe_layers·experts·3·h·expert_ffn.
    #[serde(skip)]
    pub routed_params: u64,
    /// The family the config was read as.
    #[serde(skip)]
    pub family: HfFamily,
    /// What was counted, left out or defaulted.
    pub notes: Vec<HfNote>,
}

impl HfConfig {
    /// Reads the config: the family's exact parameter count (see the module's table), the
    /// inline model of SPEC §8 carrying it as `params`, and notes.
    ///
    /// ```
    /// use parallel_core::hf::HfConfig;
    /// let llama3_8b = HfConfig {
    ///     architectures: Some(vec!["LlamaForCausalLM".into()]),
    ///     hidden_size: Some(4096),
    ///     num_hidden_layers: Some(32),
    ///     num_attention_heads: Some(32),
    ///     num_key_value_heads: Some(8),
    ///     intermediate_size: Some(14336),
    ///     vocab_size: Some(128_256),
    ///     ..HfConfig::default()
    /// };
    /// assert_eq!(llama3_8b.to_model()?.params, 8_030_261_248);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn to_model(&self) -> Result<HfModel, PlanError> {
        let reading = self.read()?;
        let count = Count::of(&reading)?;
        let model = reading.inline_model(count.total);
        // What an inline model's own checks refuse (more heads than hidden dimensions, more KV
        // heads than heads), named by the config's keys.
        if let Err(PlanError::AboveField {
            field,
            value,
            of_field,
            of,
        }) = model.resolve()
        {
            return Err(PlanError::AboveField {
                field: hf_key(field),
                value,
                of_field: hf_key(of_field),
                of,
            });
        }
        Ok(HfModel {
            model,
            params: count.total,
            active_params: count.total - count.inactive,
            routed_params: count.routed,
            family: reading.family,
            notes: notes(self, &reading),
        })
    }
}

/// The `config.json` key of an inline model's field that a reading fills from one key.
fn hf_key(field: Field) -> Field {
    match field {
        Field::InlineModel(ModelField::Hidden) => key!("hidden_size"),
        Field::InlineModel(ModelField::Heads) => key!("num_attention_heads"),
        Field::InlineModel(ModelField::KvHeads) => key!("num_key_value_heads"),
        other => other,
    }
}

/// The exact count of a reading.
struct Count {
    /// Total parameters P, at most 2^53.
    total: u64,
    /// Routed expert parameters P_routed.
    routed: u64,
    /// The routed parameters a token skips: moe_layers·(experts − top_k)·3·h·expert_ffn.
    inactive: u64,
}

impl Count {
    /// Counts term by term (module table), saturating: a saturated total is above
    /// [`MAX_EXACT`] and rejected, as is any total above it.
    fn of(r: &Reading) -> Result<Count, PlanError> {
        let w = u128::from;
        let h = w(r.hidden);
        let mut total = sum(&[
            mul(&[if r.tied { 1 } else { 2 }, w(r.vocab), h]),
            mul(&[w(r.layers), sum(&[attention_params(r), mul(&[2, h])])]),
            mul(&[w(r.dense_layers), dense_mlp_params(r)]),
            h,
        ]);
        let (mut routed, mut inactive) = (0, 0);
        if let Some(m) = &r.moe {
            let per_expert = mul(&[3, h, w(m.expert_ffn)]);
            let per_layer = sum(&[
                mul(&[w(m.experts), per_expert]),
                mul(&[h, w(m.experts)]),
                shared_params(m, r.hidden),
                if m.router_bias { w(m.experts) } else { 0 },
            ]);
            total = sum(&[total, mul(&[w(m.layers), per_layer])]);
            routed = mul(&[w(m.layers), w(m.experts), per_expert]);
            inactive = mul(&[w(m.layers), w(m.experts - m.top_k), per_expert]);
        }
        if total > MAX_EXACT {
            return Err(PlanError::AtMost {
                field: Field::InlineModel(ModelField::Params),
                max: MAX_EXACT as u64,
                got: u64::try_from(total).unwrap_or(u64::MAX),
            });
        }
        // total ≤ 2^53 and routed, inactive ≤ total.
        Ok(Count {
            total: total as u64,
            routed: routed as u64,
            inactive: inactive as u64,
        })
    }
}

/// One layer's attention: q, k, v, o with the family's biases and norms, or MLA's projections.
fn attention_params(r: &Reading) -> u128 {
    let w = u128::from;
    let (h, a, kv) = (w(r.hidden), w(r.heads), w(r.kv_heads));
    match r.attention {
        Attention::Standard {
            head_dim,
            qkv_bias,
            o_bias,
            qk_norm,
        } => {
            let hd = w(head_dim);
            sum(&[
                mul(&[2, h, a, hd]),
                mul(&[2, h, kv, hd]),
                if qkv_bias {
                    sum(&[mul(&[a, hd]), mul(&[2, kv, hd])])
                } else {
                    0
                },
                if o_bias { h } else { 0 },
                if qk_norm { mul(&[2, hd]) } else { 0 },
            ])
        }
        Attention::Mla {
            q_lora_rank,
            kv_lora_rank,
            nope,
            rope,
            v,
            bias,
        } => {
            let (r_kv, nope, rope, v) = (w(kv_lora_rank), w(nope), w(rope), w(v));
            let q = match q_lora_rank.map(w) {
                // q_a_proj (+ bias), q_a_layernorm, q_b_proj.
                Some(r_q) => sum(&[
                    mul(&[h, r_q]),
                    if bias { r_q } else { 0 },
                    r_q,
                    mul(&[r_q, a, nope + rope]),
                ]),
                None => mul(&[h, a, nope + rope]),
            };
            sum(&[
                q,
                // kv_a_proj_with_mqa (+ bias), kv_a_layernorm, kv_b_proj, o_proj (+ bias).
                mul(&[h, r_kv + rope]),
                if bias { r_kv + rope } else { 0 },
                r_kv,
                mul(&[r_kv, a, nope + v]),
                mul(&[a, v, h]),
                if bias { h } else { 0 },
            ])
        }
    }
}

/// One dense MLP: gate, up and down, 3·h·ffn, and with Llama's `mlp_bias` 2·ffn + h.
fn dense_mlp_params(r: &Reading) -> u128 {
    let (h, ffn) = (u128::from(r.hidden), u128::from(r.ffn));
    sum(&[
        mul(&[3, h, ffn]),
        if r.mlp_bias {
            sum(&[mul(&[2, ffn]), h])
        } else {
            0
        },
    ])
}

/// Parameters of the shared part of one MoE layer: Qwen2-MoE 3·h·width + h (its gate),
/// DeepSeek n_s·3·h·f.
fn shared_params(m: &MoeParts, h: u32) -> u128 {
    let h = u128::from(h);
    if m.shared_gate {
        sum(&[mul(&[3, h, u128::from(m.shared_ffn)]), h])
    } else {
        mul(&[u128::from(m.shared_experts), 3, h, u128::from(m.expert_ffn)])
    }
}

/// A product, saturating (a saturated total is rejected as above 2^53).
fn mul(factors: &[u128]) -> u128 {
    factors.iter().fold(1, |acc, &f| acc.saturating_mul(f))
}

/// A sum, saturating.
fn sum(terms: &[u128]) -> u128 {
    terms.iter().fold(0, |acc, &t| acc.saturating_add(t))
}

impl Reading {
    /// The inline model of SPEC §8 this reading stands for, with the exact count as `params`.
    fn inline_model(&self, params: u64) -> InlineModel {
        let moe = self.moe.as_ref();
        let mla = self.attention.mla();
        InlineModel {
            params: Some(params),
            hidden: Some(self.hidden),
            layers: Some(self.layers),
            heads: Some(self.heads),
            kv_heads: Some(self.kv_heads),
            head_dim: Some(self.attention.head_dim()),
            full_attention_layers: Some(self.layers),
            ffn: (self.ffn > 0).then_some(self.ffn),
            // The architectures read (SPEC §13) all gate their MLP.
            mlp: Mlp::Gated,
            vocab: Some(self.vocab),
            tied_embeddings: self.tied,
            moe_layers: moe.map(|m| m.layers),
            experts: moe.map(|m| m.experts),
            top_k: moe.map(|m| m.top_k),
            expert_ffn: moe.map(|m| m.expert_ffn),
            shared_experts: moe.map(|m| m.shared_experts).filter(|&s| s > 0),
            kv_lora_rank: mla.map(|m| m.kv_lora_rank),
            qk_rope_head_dim: mla.map(|m| m.qk_rope_head_dim),
            q_lora_rank: mla.and_then(|m| m.q_lora_rank),
            qk_nope_head_dim: mla.map(|m| m.qk_nope_head_dim),
            v_head_dim: mla.map(|m| m.v_head_dim),
            // The families read have no linear attention (`layer_types` is checked).
            ..InlineModel::default()
        }
    }
}
