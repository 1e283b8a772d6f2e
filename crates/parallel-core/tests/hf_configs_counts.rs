//! Models from Hugging Face `config.json` files (SPEC §13), counted: the published configs in
//! `tests/fixtures/hf/` count to the published totals (all, active and routed), the new presets
//! are exactly what their configs say, the notes say what was counted, and each family's
//! variants count their parts.

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::{config_of, fixture, read};
use parallel_core::hf::HfFamily;
use parallel_core::{PlanConfig, Preset};
use serde_json::{json, Value};

/// Relative distance of `count` from `published`.
fn off(count: u64, published: f64) -> f64 {
    (count as f64 - published).abs() / published
}

#[test]
fn fixtures_count_to_the_published_totals() {
    // (fixture, family, our exact count, published total, its source)
    let cases: &[(&str, HfFamily, u64, f64)] = &[
        // SPEC §13, exact.
        ("llama3-8b", HfFamily::Llama, 8_030_261_248, 8_030_261_248.0),
        (
            "llama3-70b",
            HfFamily::Llama,
            70_553_706_496,
            70_553_706_496.0,
        ),
        (
            "mixtral-8x7b",
            HfFamily::Mixtral,
            46_702_792_704,
            46_702_792_704.0,
        ),
        // SPEC §13: 671B without the MTP module (685B with it).
        ("deepseek-v3", HfFamily::DeepseekV3, 671_026_419_200, 671e9),
        // Model cards: 30.5B, 8.2B, 7.6B, 7.24B, 14.3B, 1.23B.
        ("qwen3-30b-a3b", HfFamily::Qwen3Moe, 30_532_122_624, 30.5e9),
        ("qwen3-8b", HfFamily::Qwen3, 8_190_735_360, 8.2e9),
        ("qwen2-7b", HfFamily::Qwen2, 7_615_616_512, 7.6e9),
        ("mistral-7b", HfFamily::Mistral, 7_241_732_096, 7.24e9),
        (
            "qwen1.5-moe-a2.7b",
            HfFamily::Qwen2Moe,
            14_315_784_192,
            14.3e9,
        ),
        ("llama3.2-1b", HfFamily::Llama, 1_235_814_400, 1.23e9),
    ];
    for &(name, family, exact, published) in cases {
        let m = read(name);
        assert_eq!(m.family, family, "{name}");
        assert_eq!(m.params, exact, "{name}");
        assert!(
            off(m.params, published) <= 0.005,
            "{name}: {} vs {published}",
            m.params
        );
        // The inline model carries the count, and resolves to a model whose P, P_routed and
        // P_act are the ones counted here.
        assert_eq!(m.model.params, Some(exact), "{name}");
        let resolved = m.model.resolve().unwrap();
        assert_eq!(resolved.params, exact as f64, "{name}");
        assert_eq!(resolved.routed_params(), m.routed_params as f64, "{name}");
        assert_eq!(resolved.active_params(), m.active_params as f64, "{name}");
    }
}

#[test]
fn active_parameters_of_the_moe_fixtures() {
    // (fixture, P_act, published active)
    for (name, active, published, tolerance) in [
        // Mixtral: 12.9B active.
        ("mixtral-8x7b", 12_879_925_248u64, 12.9e9, 0.005),
        // Qwen1.5-MoE-A2.7B: 2.7B activated.
        ("qwen1.5-moe-a2.7b", 2_689_173_504, 2.7e9, 0.005),
        // Qwen3-30B-A3B: 3.3B activated, rounded down (3.35B here, embeddings included).
        ("qwen3-30b-a3b", 3_353_032_704, 3.3e9, 0.02),
        // DeepSeek-V3: 37B activated (37.5B here, embeddings and output head included).
        ("deepseek-v3", 37_552_297_472, 37e9, 0.02),
    ] {
        let m = read(name);
        assert_eq!(m.active_params, active, "{name}");
        assert!(off(active, published) <= tolerance, "{name}: {active}");
    }
    let dense = read("llama3-8b");
    assert_eq!(dense.active_params, dense.params);
    assert_eq!(dense.routed_params, 0);
}

#[test]
fn routed_parameters_match_the_moe_memory_formula() {
    // P_routed = moe_layers·experts·3·h·expert_ffn, as Model::routed_params counts it.
    let deepseek = read("deepseek-v3");
    assert_eq!(deepseek.routed_params, 58 * 256 * 3 * 7168 * 2048);
    assert_eq!(
        deepseek.routed_params as f64,
        Preset::DeepseekV3.model().routed_params()
    );
    assert_eq!(
        read("mixtral-8x7b").routed_params,
        32 * 8 * 3 * 4096 * 14336
    );
    assert_eq!(
        read("qwen3-30b-a3b").routed_params,
        48 * 128 * 3 * 2048 * 768
    );
    assert_eq!(
        read("qwen1.5-moe-a2.7b").routed_params,
        24 * 60 * 3 * 2048 * 1408
    );
}

#[test]
fn the_new_presets_are_what_their_configs_say() {
    for (name, preset) in [
        ("llama3-8b", Preset::Llama3_8b),
        ("llama3-70b", Preset::Llama3_70b),
        ("mixtral-8x7b", Preset::Mixtral8x7b),
        ("qwen3-30b-a3b", Preset::Qwen3_30bA3b),
    ] {
        assert_eq!(preset.id(), name);
        assert_eq!(Preset::from_id(name), Some(preset));
        let from_config = read(name).model.resolve().unwrap();
        assert_eq!(from_config, preset.model(), "{name}");
    }
    // DeepSeek-V3's preset carries the published 671e9 (SPEC §8); its config counts
    // 671,026,419,200, and every other figure agrees.
    let config = read("deepseek-v3").model.resolve().unwrap();
    let preset = Preset::DeepseekV3.model();
    assert_eq!(
        parallel_core::Model {
            params: preset.params,
            ..config
        },
        preset
    );
    assert!((config.params - preset.params).abs() / preset.params < 1e-4);
}

#[test]
fn notes_say_what_was_counted_and_left_out() {
    let notes =
        |name: &str| -> Vec<String> { read(name).notes.iter().map(ToString::to_string).collect() };
    let has = |name: &str, part: &str| {
        assert!(
            notes(name).iter().any(|n| n.contains(part)),
            "{name}: {:?} lacks {part}",
            notes(name)
        );
    };
    has("deepseek-v3", "MTP module not counted");
    has("deepseek-v3", "e_score_correction_bias");
    has("deepseek-v3", "latent attention");
    has("deepseek-v3", "3 dense layers with FFN 18432");
    has("qwen2-7b", "biases of q/k/v counted");
    has("qwen1.5-moe-a2.7b", "biases of q/k/v counted");
    has("qwen1.5-moe-a2.7b", "shared expert of width 5632");
    has("qwen3-8b", "q_norm and k_norm");
    has("qwen3-30b-a3b", "q_norm and k_norm");
    has("llama3.2-1b", "tied embeddings");
    has("mistral-7b", "sliding window ignored");
    assert!(notes("llama3-8b").is_empty(), "{:?}", notes("llama3-8b"));
    assert!(notes("mixtral-8x7b").is_empty());
}

#[test]
fn the_output_has_the_spec_shape() {
    let out = serde_json::to_value(read("qwen2-7b")).unwrap();
    let mut keys: Vec<&String> = out.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(keys, ["active_params", "model", "notes", "params"]);
    assert_eq!(
        out["model"],
        json!({"params": 7_615_616_512u64, "hidden": 3584, "layers": 28, "heads": 28,
               "kv_heads": 4, "head_dim": 128, "full_attention_layers": 28, "ffn": 18944,
               "vocab": 152064})
    );
    assert_eq!(out["notes"], json!(["biases of q/k/v counted"]));
    // The printed model is itself a valid inline model of a config.
    let config: PlanConfig = serde_json::from_value(json!({ "model": out["model"] })).unwrap();
    assert_eq!(config.model.resolve().unwrap().params, 7_615_616_512.0);
}

#[test]
fn variants_of_the_families_count_their_parts() {
    let count = |name: &str, edit: &dyn Fn(&mut Value)| {
        let mut value = fixture(name);
        edit(&mut value);
        config_of(value).to_model().unwrap()
    };
    let base = read("llama3-8b").params;
    // Llama 1/2 style: no num_key_value_heads means one KV head per head.
    let mha = count("llama3-8b", &|c| {
        c.as_object_mut().unwrap().remove("num_key_value_heads");
    });
    assert_eq!(mha.params, base + 32 * 2 * 4096 * (4096 - 1024));
    assert_eq!(mha.model.kv_heads, Some(32));
    // attention_bias: q, k, v and o biases; mlp_bias: gate, up and down biases.
    let biased = count("llama3-8b", &|c| {
        c["attention_bias"] = json!(true);
        c["mlp_bias"] = json!(true);
    });
    assert_eq!(
        biased.params,
        base + 32 * ((4096 + 2 * 1024 + 4096) + (2 * 14336 + 4096))
    );
    // Tied: one V·h fewer.
    let tied = count("llama3-8b", &|c| c["tie_word_embeddings"] = json!(true));
    assert_eq!(tied.params, base - 128_256 * 4096);
    assert!(tied.model.tied_embeddings);
    // Qwen3-MoE with every other layer dense (decoder_sparse_step 2) and layer 1 kept dense.
    let qwen = read("qwen3-30b-a3b");
    let sparse = count("qwen3-30b-a3b", &|c| {
        c["decoder_sparse_step"] = json!(2);
        c["mlp_only_layers"] = json!([1, 2]);
    });
    assert_eq!(sparse.model.moe_layers, Some(23));
    assert_eq!(sparse.model.ffn, Some(6144));
    let moe_layer = 128 * 3 * 2048 * 768 + 2048 * 128;
    assert_eq!(
        sparse.params,
        qwen.params - 25 * moe_layer + 25 * 3 * 2048 * 6144
    );
    // DeepSeek without query compression: q_proj h·a·(nope + rope).
    let deepseek = read("deepseek-v3");
    let plain_q = count("deepseek-v3", &|c| c["q_lora_rank"] = json!(null));
    let q_lora = 7168 * 1536 + 1536 + 1536 * 128 * 192;
    assert_eq!(
        plain_q.params,
        deepseek.params - 61 * q_lora + 61 * 7168 * 128 * 192
    );
    // DeepSeek with MoE every other layer after the first 3: layers 4, 6, …, 60.
    let every_other = count("deepseek-v3", &|c| c["moe_layer_freq"] = json!(2));
    assert_eq!(every_other.model.moe_layers, Some(29));
    // No routed experts at all: a dense DeepSeek.
    let dense = count("deepseek-v3", &|c| c["n_routed_experts"] = json!(null));
    assert_eq!(dense.model.moe_layers, None);
    assert_eq!(dense.routed_params, 0);
    // The MTP layer count changes nothing.
    let no_mtp = count("deepseek-v3", &|c| c["num_nextn_predict_layers"] = json!(0));
    assert_eq!(no_mtp.params, deepseek.params);
}
