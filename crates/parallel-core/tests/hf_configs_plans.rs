//! A `config.json` model in a plan (SPEC §13): `ModelChoice` reads it beside a preset id and an
//! inline model, and `evaluate` takes it as it takes the matching preset.

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::fixture;
use parallel_core::{evaluate, Field, ModelChoice, PlanConfig, PlanError, Preset};
use serde_json::json;

#[test]
fn model_choice_reads_all_three_forms() {
    // The existing forms still parse.
    let preset: ModelChoice = serde_json::from_value(json!("llama3-405b")).unwrap();
    assert_eq!(preset, ModelChoice::Preset(Preset::Llama3_405b));
    for id in Preset::ALL.map(Preset::id) {
        let choice: ModelChoice = serde_json::from_value(json!(id)).unwrap();
        assert_eq!(serde_json::to_value(&choice).unwrap(), json!(id));
    }
    let inline: ModelChoice = serde_json::from_value(json!({
        "params": 7_500_000_000u64, "hidden": 4096, "layers": 32, "heads": 32,
        "kv_heads": 32, "head_dim": 128, "ffn": 16384, "vocab": 32000
    }))
    .unwrap();
    match &inline {
        ModelChoice::Inline(m) => assert_eq!(m.hidden, Some(4096)),
        other => panic!("{other:?}"),
    }
    assert_eq!(inline.resolve().unwrap().params, 7.5e9);
    let typo = serde_json::from_value::<ModelChoice>(json!({"hidden": 64, "layerz": 2}));
    assert!(typo
        .unwrap_err()
        .to_string()
        .contains("unknown field `layerz`"));
    // The config.json form.
    let hf: ModelChoice =
        serde_json::from_value(json!({ "hf_config": fixture("mixtral-8x7b") })).unwrap();
    assert!(matches!(hf, ModelChoice::HfConfig(_)));
    assert_eq!(hf.resolve().unwrap(), Preset::Mixtral8x7b.model());
    assert_eq!(hf.label(), "Mixtral (config.json)");
    // It round-trips (the keys the counter reads are kept).
    let text = serde_json::to_string(&hf).unwrap();
    assert!(text.starts_with(r#"{"hf_config":{"architectures":["MixtralForCausalLM"]"#));
    assert_eq!(serde_json::from_str::<ModelChoice>(&text).unwrap(), hf);
    // hf_config goes alone.
    let mixed = serde_json::from_value::<ModelChoice>(
        json!({ "hf_config": fixture("llama3-8b"), "hidden": 1 }),
    );
    assert!(mixed
        .unwrap_err()
        .to_string()
        .contains("`hidden` next to `hf_config`"));
}

#[test]
fn evaluate_takes_a_config_json_model() {
    for (name, preset) in [
        ("llama3-8b", Preset::Llama3_8b),
        ("qwen3-30b-a3b", Preset::Qwen3_30bA3b),
    ] {
        let config: PlanConfig = serde_json::from_value(json!({
            "model": { "hf_config": fixture(name) }, "gpus": 16, "tp": 2, "ep": 1, "zero": 1
        }))
        .unwrap();
        let same = PlanConfig {
            model: ModelChoice::Preset(preset),
            ..config.clone()
        };
        assert_eq!(
            evaluate(&config).unwrap(),
            evaluate(&same).unwrap(),
            "{name}"
        );
    }
    // DeepSeek-V3 from its config, on its published layout (PP 16 × EP 64, ZeRO-1).
    let config: PlanConfig = serde_json::from_value(json!({
        "model": { "hf_config": fixture("deepseek-v3") },
        "gpus": 2048, "pp": 16, "ep": 64, "zero": 1
    }))
    .unwrap();
    assert!(evaluate(&config).is_ok());
    // A broken config is the plan's error, naming the key.
    let broken: PlanConfig = serde_json::from_value(json!({
        "model": { "hf_config": { "architectures": ["LlamaForCausalLM"], "hidden_size": 64 } }
    }))
    .unwrap();
    assert_eq!(
        evaluate(&broken).unwrap_err().field(),
        Field::HfConfig("num_hidden_layers")
    );
    // ep > 1 on a dense config.json model names its family.
    let dense: PlanConfig = serde_json::from_value(json!({
        "model": { "hf_config": fixture("qwen2-7b") }, "ep": 2
    }))
    .unwrap();
    assert_eq!(
        evaluate(&dense).unwrap_err(),
        PlanError::EpNeedsMoe {
            model: "Qwen2 (config.json)".into()
        }
    );
}
