//! Models from a Hugging Face `config.json` (SPEC §13): [`HfConfig`] → [`HfModel`], an
//! [`InlineModel`](crate::InlineModel) whose `params` is the exact count of the checkpoint.
//!
//! The counter of SPEC §8 ([`crate::count_params`]) models standard attention and gated MLPs
//! without biases. The families read here differ from it in small, known ways (biases of
//! q/k/v, per-head q/k norms, a shared-expert gate, multi-head latent attention), so the total
//! is counted here, family by family, exactly as the Hugging Face `transformers` modules
//! (and DeepSeek's own `modeling_deepseek.py`) create their weights:
//!
//! | part | parameters |
//! |---|---|
//! | embeddings, output head | V·h, and V·h again unless `tie_word_embeddings` |
//! | attention (standard) | q h·a·hd, k and v 2·h·kv·hd, o a·hd·h |
//! | + Qwen2, Qwen2-MoE | biases of q, k, v: a·hd + 2·kv·hd |
//! | + Qwen3, Qwen3-MoE | q_norm and k_norm: 2·hd |
//! | + `attention_bias` (Llama, Qwen3) | biases of q, k, v, o: a·hd + 2·kv·hd + h |
//! | attention (MLA, DeepSeek-V3) | q_a h·r_q + norm r_q + q_b r_q·a·(n + r) (or q h·a·(n + r) without `q_lora_rank`), kv_a h·(r_kv + r) + norm r_kv, kv_b r_kv·a·(n + v), o a·v·h |
//! | norms | 2·h per layer, h at the end |
//! | dense MLP | 3·h·ffn (+ 2·ffn + h with Llama's `mlp_bias`) |
//! | MoE layer | routed experts E·3·h·f, router h·E; DeepSeek: shared n_s·3·h·f and `e_score_correction_bias` E (when `topk_method` is `noaux_tc`); Qwen2-MoE: shared 3·h·f_s and its gate h |
//!
//! (a heads, kv KV heads, hd head_dim, E routed experts of width f, r_q/r_kv the LoRA ranks,
//! n/r/v the nope/rope/value head dims.) DeepSeek-V3's multi-token-prediction module
//! (`num_nextn_predict_layers`) is not counted: it is not used in the training step this lab
//! models, and 671B is the published total without it.
//!
//! Checks: the Llama 3 8B and 70B and Mixtral 8x7B configs count to their published totals
//! exactly (8,030,261,248; 70,553,706,496; 46,702,792,704), DeepSeek-V3 to 671,026,419,200
//! (671B published) and Qwen3-30B-A3B to 30,532,122,624 total, 3,353,032,704 active (30.5B and
//! 3.3B published): `crates/parallel-core/tests/hf_configs.rs`.
//!
//! A missing field the count needs, a zero where one is needed, experts without
//! `num_experts_per_tok`, an unknown `architectures` entry or `model_type` is a
//! [`PlanError`](crate::PlanError) naming the key as `model.hf_config.<key>`, never a silently
//! wrong count.
//!
//! The reading, in named steps: [`HfConfig::family`] (`family`), then every figure with its
//! check (`reading`, with the `attention` and the `moe` parts of each family), the count term
//! by term and the inline model (`count`), and the notes (`notes`). `config` holds the keys as
//! serde reads them.

mod attention;
mod config;
mod count;
mod family;
mod moe;
mod notes;
mod reading;

pub use config::HfConfig;
pub use count::HfModel;
pub use family::HfFamily;
pub use notes::HfNote;
