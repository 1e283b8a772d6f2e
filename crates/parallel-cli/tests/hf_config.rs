//! A published `config.json` as the model: the `model` command, `eval` with `hf_config`, and
//! the errors of a broken one.
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::{assert_help_holds, error_line, json_of, stdout_of, strings};
use serde_json::Value;

/// A published `config.json` of the core's fixtures.
fn hf_fixture(name: &str) -> &'static str {
    match name {
        "llama3-8b" => include_str!("../../parallel-core/tests/fixtures/hf/llama3-8b.json"),
        "llama3-70b" => include_str!("../../parallel-core/tests/fixtures/hf/llama3-70b.json"),
        "mixtral-8x7b" => include_str!("../../parallel-core/tests/fixtures/hf/mixtral-8x7b.json"),
        "qwen2-7b" => include_str!("../../parallel-core/tests/fixtures/hf/qwen2-7b.json"),
        "qwen3-30b-a3b" => {
            include_str!("../../parallel-core/tests/fixtures/hf/qwen3-30b-a3b.json")
        }
        "deepseek-v3" => include_str!("../../parallel-core/tests/fixtures/hf/deepseek-v3.json"),
        other => panic!("no fixture {other}"),
    }
}

#[test]
fn model_reads_a_config_json() {
    // (fixture, params, active_params, a note)
    let cases: &[(&str, u64, u64, Option<&str>)] = &[
        ("llama3-8b", 8_030_261_248, 8_030_261_248, None),
        ("llama3-70b", 70_553_706_496, 70_553_706_496, None),
        ("mixtral-8x7b", 46_702_792_704, 12_879_925_248, None),
        (
            "qwen2-7b",
            7_615_616_512,
            7_615_616_512,
            Some("biases of q/k/v counted"),
        ),
        (
            "qwen3-30b-a3b",
            30_532_122_624,
            3_353_032_704,
            Some("q_norm and k_norm (head_dim each) counted in every layer"),
        ),
        (
            "deepseek-v3",
            671_026_419_200,
            37_552_297_472,
            Some("MTP module not counted (num_nextn_predict_layers = 1)"),
        ),
    ];
    for &(name, params, active, note) in cases {
        let out = json_of(&["model"], hf_fixture(name));
        let mut keys: Vec<&String> = out.as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(
            keys,
            ["active_params", "model", "notes", "params"],
            "{name}"
        );
        assert_eq!(out["params"].as_u64(), Some(params), "{name}");
        assert_eq!(out["active_params"].as_u64(), Some(active), "{name}");
        assert_eq!(out["model"]["params"].as_u64(), Some(params), "{name}");
        let notes = strings(&out["notes"]);
        match note {
            Some(note) => assert!(notes.contains(&note), "{name}: {notes:?}"),
            None => assert!(notes.is_empty(), "{name}: {notes:?}"),
        }
        // The printed model is an inline model `eval` takes as it is.
        let plan = serde_json::json!({ "model": out["model"] }).to_string();
        stdout_of(&["eval"], &plan);
    }
    let mixtral = json_of(&["model"], hf_fixture("mixtral-8x7b"));
    assert_eq!(
        mixtral["model"],
        serde_json::json!({"params": 46_702_792_704u64, "hidden": 4096, "layers": 32,
            "heads": 32, "kv_heads": 8, "head_dim": 128, "full_attention_layers": 32,
            "vocab": 32000, "moe_layers": 32, "experts": 8, "top_k": 2, "expert_ffn": 14336})
    );
}

#[test]
fn eval_takes_a_config_json_model() {
    for (name, preset) in [
        ("llama3-8b", "llama3-8b"),
        ("llama3-70b", "llama3-70b"),
        ("mixtral-8x7b", "mixtral-8x7b"),
        ("qwen3-30b-a3b", "qwen3-30b-a3b"),
    ] {
        let hf: Value = serde_json::from_str(hf_fixture(name)).unwrap();
        let with_config =
            serde_json::json!({"model": {"hf_config": hf}, "gpus": 64, "tp": 8, "pp": 2});
        let with_preset = serde_json::json!({"model": preset, "gpus": 64, "tp": 8, "pp": 2});
        assert_eq!(
            stdout_of(&["eval"], &with_config.to_string()),
            stdout_of(&["eval"], &with_preset.to_string()),
            "{name}"
        );
    }
    let hf: Value = serde_json::from_str(hf_fixture("deepseek-v3")).unwrap();
    let deepseek = serde_json::json!({
        "model": {"hf_config": hf}, "gpus": 2048, "pp": 16, "ep": 64, "zero": 1
    });
    let report = json_of(&["eval"], &deepseek.to_string());
    assert!(report["comm"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["dim"] == "ep"));
}

#[test]
fn broken_config_json_exits_2_naming_the_key() {
    let llama: Value = serde_json::from_str(hf_fixture("llama3-8b")).unwrap();
    let edited = |edit: &dyn Fn(&mut serde_json::Map<String, Value>)| {
        let mut value = llama.clone();
        edit(value.as_object_mut().unwrap());
        value
    };
    let no_hidden = edited(&|c| {
        c.remove("hidden_size");
    });
    let no_heads = edited(&|c| {
        c.insert("num_attention_heads".into(), 0.into());
    });
    let mamba = edited(&|c| {
        c.insert(
            "architectures".into(),
            serde_json::json!(["MambaForCausalLM"]),
        );
    });
    let mamba_type = edited(&|c| {
        c.insert("model_type".into(), "mamba".into());
    });
    let mut mixtral: Value = serde_json::from_str(hf_fixture("mixtral-8x7b")).unwrap();
    mixtral
        .as_object_mut()
        .unwrap()
        .remove("num_experts_per_tok");
    let cases: Vec<(&[&str], String, &str)> = vec![
        (
            &["model"],
            no_hidden.to_string(),
            "model.hf_config.hidden_size: missing: the parameter counter needs it",
        ),
        (
            &["model"],
            no_heads.to_string(),
            "model.hf_config.num_attention_heads: must be at least 1 (got 0)",
        ),
        (
            &["model"],
            mixtral.to_string(),
            "model.hf_config.num_experts_per_tok: missing: the parameter counter needs it",
        ),
        (
            &["model"],
            mamba.to_string(),
            "model.hf_config.architectures: `MambaForCausalLM` is not modelled by the parameter \
             counter (supported: LlamaForCausalLM, MistralForCausalLM, MixtralForCausalLM, \
             Qwen2ForCausalLM, Qwen3ForCausalLM, Qwen2MoeForCausalLM, Qwen3MoeForCausalLM, \
             DeepseekV3ForCausalLM)",
        ),
        (
            &["model"],
            mamba_type.to_string(),
            "model.hf_config.model_type: `mamba` is not modelled by the parameter counter \
             (supported: llama)",
        ),
        (
            &["model"],
            String::new(),
            "input: empty: expected a config.json object on stdin",
        ),
        (
            &["model", "--card", "1"],
            "{}".to_string(),
            "--card: unknown flag for `model` (try --help)",
        ),
        (
            &["eval"],
            serde_json::json!({"model": {"hf_config": no_hidden}}).to_string(),
            "model.hf_config.hidden_size: missing: the parameter counter needs it",
        ),
        (
            &["eval"],
            serde_json::json!({"model": {"hf_config": llama, "layers": 2}}).to_string(),
            "model: `layers` next to `hf_config`: a config.json model takes no other field at line 1 \
             column 585",
        ),
    ];
    for (args, stdin, expected) in &cases {
        assert_eq!(&error_line(args, stdin), expected, "{args:?} <<< {stdin}");
    }
}

#[test]
fn help_shows_the_model_command() {
    assert_help_holds(&[
        "parallel-lab model",
        "hf_config",
        "llama3-8b",
        "qwen3-30b-a3b",
        "MTP",
    ]);
}
