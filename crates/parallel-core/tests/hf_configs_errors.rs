//! Broken `config.json` files (SPEC §13) are errors naming the key, never a silently wrong
//! count; unsupported values list what is supported; and no config, however odd, panics.

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::{config_of, fixture};
use parallel_core::hf::{HfConfig, HfFamily};
use parallel_core::{Field, PlanError};
use proptest::prelude::*;
use serde_json::{json, Value};

/// Expects `to_model` on the fixture, changed by `edit`, to fail on `field`.
fn fails_on(name: &str, edit: impl FnOnce(&mut serde_json::Map<String, Value>), field: &str) {
    let mut value = fixture(name);
    edit(value.as_object_mut().unwrap());
    let err = config_of(value).to_model().unwrap_err();
    assert_eq!(err.field().to_string(), field, "{name}: {err}");
    assert!(err.to_string().starts_with(&format!("{field}: ")), "{err}");
}

#[test]
fn broken_configs_name_the_field() {
    fails_on(
        "llama3-8b",
        |c| {
            c.remove("hidden_size");
        },
        "model.hf_config.hidden_size",
    );
    fails_on(
        "qwen3-8b",
        |c| {
            c.insert("num_attention_heads".into(), json!(0));
        },
        "model.hf_config.num_attention_heads",
    );
    // Experts without top-k, in each MoE family.
    for name in [
        "mixtral-8x7b",
        "qwen3-30b-a3b",
        "qwen1.5-moe-a2.7b",
        "deepseek-v3",
    ] {
        fails_on(
            name,
            |c| {
                c.remove("num_experts_per_tok");
            },
            "model.hf_config.num_experts_per_tok",
        );
    }
    fails_on(
        "llama3-8b",
        |c| {
            c.insert("architectures".into(), json!(["MambaForCausalLM"]));
        },
        "model.hf_config.architectures",
    );
    fails_on(
        "llama3-8b",
        |c| {
            c.remove("architectures");
        },
        "model.hf_config.architectures",
    );
    fails_on(
        "llama3-8b",
        |c| {
            c.insert("architectures".into(), json!([]));
        },
        "model.hf_config.architectures",
    );
    fails_on(
        "llama3-8b",
        |c| {
            c.insert(
                "architectures".into(),
                json!(["LlamaForCausalLM", "JambaForCausalLM"]),
            );
        },
        "model.hf_config.architectures",
    );
    fails_on(
        "llama3-8b",
        |c| {
            c.insert("model_type".into(), json!("mamba"));
        },
        "model.hf_config.model_type",
    );
    fails_on(
        "qwen3-8b",
        |c| {
            c.insert(
                "layer_types".into(),
                json!(["linear_attention", "full_attention"]),
            );
        },
        "model.hf_config.layer_types",
    );
    fails_on(
        "mixtral-8x7b",
        |c| {
            c.insert("num_experts_per_tok".into(), json!(9));
        },
        "model.hf_config.num_experts_per_tok",
    );
    fails_on(
        "llama3-8b",
        |c| {
            c.insert("num_key_value_heads".into(), json!(64));
        },
        "model.hf_config.num_key_value_heads",
    );
    fails_on(
        "mistral-7b",
        |c| {
            c.remove("num_key_value_heads");
        },
        "model.hf_config.num_key_value_heads",
    );
    // Qwen3's default head_dim (128) is not hidden/heads: it must be given.
    fails_on(
        "qwen3-30b-a3b",
        |c| {
            c.remove("head_dim");
        },
        "model.hf_config.head_dim",
    );
    fails_on(
        "qwen3-30b-a3b",
        |c| {
            c.insert("mlp_only_layers".into(), json!([48]));
        },
        "model.hf_config.mlp_only_layers",
    );
    for key in [
        "kv_lora_rank",
        "q_lora_rank",
        "qk_rope_head_dim",
        "first_k_dense_replace",
        "n_shared_experts",
        "moe_intermediate_size",
    ] {
        fails_on(
            "deepseek-v3",
            |c| {
                c.remove(key);
            },
            &format!("model.hf_config.{key}"),
        );
    }
    fails_on(
        "mistral-7b",
        |c| {
            c.insert("attention_bias".into(), json!(true));
        },
        "model.hf_config.attention_bias",
    );
    // Sizes whose count leaves exact f64 range are refused, not rounded.
    fails_on(
        "mixtral-8x7b",
        |c| {
            for key in [
                "hidden_size",
                "intermediate_size",
                "num_hidden_layers",
                "num_local_experts",
            ] {
                c.insert(key.into(), json!(u32::MAX));
            }
            c.insert("num_experts_per_tok".into(), json!(1));
        },
        "model.params",
    );
}

#[test]
fn unsupported_values_list_what_is_supported() {
    let mut value = fixture("llama3-8b");
    value["architectures"] = json!(["MambaForCausalLM"]);
    let err = config_of(value).to_model().unwrap_err();
    assert_eq!(
        err,
        PlanError::Unsupported {
            field: Field::HfConfig("architectures"),
            value: "MambaForCausalLM".into(),
            supported: "LlamaForCausalLM, MistralForCausalLM, MixtralForCausalLM, \
Qwen2ForCausalLM, Qwen3ForCausalLM, Qwen2MoeForCausalLM, Qwen3MoeForCausalLM, \
DeepseekV3ForCausalLM",
        }
    );
    assert!(err
        .to_string()
        .contains("`MambaForCausalLM` is not modelled"));
    let missing = config_of(json!({"architectures": ["LlamaForCausalLM"]}))
        .to_model()
        .unwrap_err();
    assert_eq!(
        missing.to_string(),
        "model.hf_config.hidden_size: missing: the parameter counter needs it"
    );
}

proptest! {
    /// Any numbers in any family's config: an answer whose inline model resolves, or an error.
    #[test]
    fn no_config_json_panics(
        family in prop::sample::select(HfFamily::ALL.to_vec()),
        fields in prop::collection::vec(
            prop_oneof![Just(None), Just(Some(0u32)), (1u32..=64).prop_map(Some), any::<u32>().prop_map(Some)],
            18,
        ),
        flags in prop::array::uniform4(any::<bool>()),
        dense in prop::collection::vec(0u32..80, 0..4),
    ) {
        let config = HfConfig {
            architectures: Some(vec![family.architecture().to_string()]),
            hidden_size: fields[0],
            num_hidden_layers: fields[1],
            num_attention_heads: fields[2],
            num_key_value_heads: fields[3],
            head_dim: fields[4],
            intermediate_size: fields[5],
            vocab_size: fields[6],
            num_local_experts: fields[7],
            num_experts: fields[7],
            n_routed_experts: Some(fields[7]),
            num_experts_per_tok: fields[8],
            moe_intermediate_size: fields[9],
            shared_expert_intermediate_size: fields[10],
            n_shared_experts: Some(fields[11]),
            decoder_sparse_step: fields[12],
            first_k_dense_replace: fields[13],
            moe_layer_freq: fields[14],
            q_lora_rank: Some(fields[15]),
            kv_lora_rank: fields[16],
            qk_nope_head_dim: fields[17],
            qk_rope_head_dim: fields[16],
            v_head_dim: fields[15],
            tie_word_embeddings: Some(flags[0]),
            attention_bias: Some(flags[1]),
            mlp_bias: Some(flags[2]),
            topk_method: flags[3].then(|| "noaux_tc".to_string()),
            mlp_only_layers: Some(dense),
            ..HfConfig::default()
        };
        if let Ok(m) = config.to_model() {
            let resolved = m.model.resolve();
            prop_assert!(resolved.is_ok(), "{:?}: {:?}", m.model, resolved);
            let resolved = resolved.unwrap();
            prop_assert!(m.routed_params <= m.params && m.active_params <= m.params);
            prop_assert_eq!(resolved.routed_params(), m.routed_params as f64);
            prop_assert_eq!(resolved.params, m.params as f64);
        }
    }
}
