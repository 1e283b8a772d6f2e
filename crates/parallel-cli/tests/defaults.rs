//! `defaults`: the empty plan written out, the model presets and the card presets.
#![allow(clippy::unwrap_used)]

mod common;

use common::{json_of, run, stdout_of};
use parallel_core::Field;

/// `defaults`: the plan an empty input stands for, every field written out, and the presets
/// in the picker's order; each preset id is a model `eval` takes.
#[test]
fn defaults_prints_the_empty_plan_and_the_presets() {
    let defaults = json_of(&["defaults"], "");
    let config = &defaults["config"];
    assert_eq!(
        stdout_of(&["eval"], &config.to_string()),
        stdout_of(&["eval"], "{}"),
        "the defaults are the empty plan"
    );
    let mut fields: Vec<String> = config.as_object().unwrap().keys().cloned().collect();
    fields.sort_unstable();
    // Every plain field of the config but global_batch (the search's), capacity_factor
    // (dropless), routing_skew and sequence_skew (even) and runtime_memory (off), all five
    // absent by default.
    let mut every: Vec<String> = Field::PLAIN
        .into_iter()
        .filter(|field| {
            ![
                Field::GlobalBatch,
                Field::CapacityFactor,
                Field::RoutingSkew,
                Field::RuntimeMemory,
                Field::SequenceSkew,
            ]
            .contains(field)
        })
        .map(Field::key)
        .collect();
    every.sort_unstable();
    assert_eq!(fields, every);
    assert_eq!(config["model"], "qwen3.8-27b");
    assert_eq!(config["micro_batches"], 8);
    assert_eq!(config["recompute"], "full");
    let presets = defaults["presets"].as_array().unwrap();
    let ids: Vec<&str> = presets.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "qwen3.8-27b",
            "llama3-8b",
            "llama3-70b",
            "llama3-405b",
            "qwen3-30b-a3b",
            "mixtral-8x7b",
            "deepseek-v3"
        ]
    );
    assert_eq!(presets[0]["name"], "Qwen3.8-27B");
    for id in ids {
        let plan = serde_json::json!({"model": id, "gpus": 64, "tp": 8, "pp": 8});
        assert!(
            json_of(&["eval"], &plan.to_string())["memory"]["total"].as_f64() > Some(0.0),
            "{id}"
        );
    }
    assert!(stdout_of(&["--help"], "").contains("parallel-lab defaults"));
}

/// Each card preset against its datasheet's values (dense BF16 peak, HBM, scale-up per
/// direction, one NIC a card), as `defaults` lists it and as `eval` applies it; an explicit
/// field wins over the preset's.
#[test]
fn card_presets_carry_their_datasheet_values_and_explicit_fields_win() {
    let defaults = json_of(&["defaults"], "");
    // (id, memory GB, HBM TB/s, peak TFLOP/s, scale-up GB/s, scale-out GB/s)
    let datasheets = [
        ("lesson", 80.0, 3.35, 989.0, 160.0, 50.0),
        ("a100-80gb", 80.0, 2.039, 312.0, 300.0, 25.0),
        ("h100-sxm", 80.0, 3.35, 989.0, 450.0, 50.0),
        ("h200", 141.0, 4.8, 989.0, 450.0, 50.0),
        ("b200", 180.0, 8.0, 2250.0, 900.0, 50.0),
        ("mi300x", 192.0, 5.3, 1307.4, 448.0, 50.0),
    ];
    let listed = defaults["hardware"].as_array().unwrap();
    assert_eq!(listed.len(), datasheets.len());
    for ((id, memory, hbm, peak, up, out), entry) in datasheets.into_iter().zip(listed) {
        assert_eq!(entry["id"], id);
        let c = &entry["config"];
        let got = (
            c["gpu_memory_gb"].as_f64(),
            c["hbm_tbps"].as_f64(),
            c["peak_tflops"].as_f64(),
            c["nvlink_gbps"].as_f64(),
            c["ib_gbps"].as_f64(),
        );
        assert_eq!(
            got,
            (Some(memory), Some(hbm), Some(peak), Some(up), Some(out)),
            "{id}"
        );
        // The lesson states 400; the H200 and the H100 (one chip) their measured 8,192³ GEMM
        // (SPEC §18); the rest peak × matmul_efficiency.
        let tflops = match id {
            "lesson" => 400.0,
            "h100-sxm" | "h200" => 761.84,
            _ => peak * 0.75,
        };
        assert_eq!(c["gpu_tflops"].as_f64(), Some(tflops), "{id}");
        // eval on the preset alone gives the same plan as eval on every field written out.
        let by_id = json_of(
            &["eval"],
            &format!(r#"{{"hardware":"{id}","gpus":64,"tp":8,"pp":8}}"#),
        );
        let mut full = c.clone();
        for (k, v) in [("gpus", 64), ("tp", 8), ("pp", 8)] {
            full[k] = v.into();
        }
        assert_eq!(by_id, json_of(&["eval"], &full.to_string()), "{id}");
    }
    // An explicit field wins; the rest still comes from the preset.
    let c = json_of(
        &["eval", "--explain"],
        r#"{"hardware":"h200","gpu_memory_gb":100}"#,
    );
    let explained = |c: &serde_json::Value, figure: &str| {
        c["explain"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["figure"] == figure)
            .unwrap()
            .clone()
    };
    assert_eq!(c["memory"]["capacity"].as_f64(), Some(100e9), "{c}");
    let slowdown = explained(&c, "estimate-roofline");
    assert!(
        slowdown["substituted"].as_str().unwrap().contains("761.8"),
        "{slowdown}"
    );
    let compute = explained(&c, "estimate-compute");
    assert!(compute["source"]
        .as_str()
        .unwrap()
        .starts_with("measured on one H200"));
    // A card without its own tables says it borrows them.
    let b200 = json_of(&["eval", "--explain"], r#"{"hardware":"b200"}"#);
    for figure in [
        "estimate-compute",
        "estimate-gemm",
        "estimate-attention",
        "estimate-memory-bound",
    ] {
        let e = explained(&b200, figure);
        assert!(
            e["source"]
                .as_str()
                .unwrap()
                .starts_with("borrowed from the H200 measurement"),
            "{e}"
        );
    }
    let refused = run(&["eval"], r#"{"hardware":"h300"}"#);
    let error = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        error.starts_with("parallel-lab: error: hardware: ") && error.contains("`h100-sxm`"),
        "{error}"
    );
}

/// `defaults`' sliders: every slider of each grid, its ends taken by `eval` on that grid (the
/// page's sliders and the browser tests read these ranges; nothing copies them).
#[test]
fn defaults_prints_each_grid_s_sliders_and_eval_takes_their_ends() {
    let defaults = json_of(&["defaults"], "");
    for gpus in [8u64, 64] {
        let sliders = defaults["sliders"][gpus.to_string()].as_array().unwrap();
        let fields: Vec<&str> = sliders
            .iter()
            .map(|s| s["field"].as_str().unwrap())
            .collect();
        // The core's sliders, in its order (their keys are checked in `link::sliders`).
        let want: Vec<String> = parallel_core::link::Slider::ALL
            .map(|s| s.field().key())
            .into();
        assert_eq!(fields, want);
        for slider in sliders {
            let field = slider["field"].as_str().unwrap();
            let (min, max) = (
                slider["min"].as_u64().unwrap(),
                slider["max"].as_u64().unwrap(),
            );
            assert!(min >= 1 && min <= max, "{slider}");
            if slider["powers_of_two"].as_bool().unwrap() {
                assert!(min.is_power_of_two() && max.is_power_of_two(), "{slider}");
            }
            // Each end, on a plan that can take it (DeepSeek-V3, 256 experts, for EP; rollout for E).
            for end in [min, max] {
                let plan = match field {
                    "ep" => format!(r#"{{"gpus":{gpus},"model":"deepseek-v3","ep":{end}}}"#),
                    "rollout.gpus_per_engine" => {
                        format!(r#"{{"gpus":{gpus},"rollout":{{"gpus_per_engine":{end}}}}}"#)
                    }
                    "tp" | "pp" | "cp" => format!(r#"{{"gpus":{gpus},"{field}":{end}}}"#),
                    _ => format!(r#"{{"gpus":{gpus},"{field}":{end},"pp":1}}"#),
                };
                let output = run(&["eval"], &plan);
                assert!(
                    output.status.success(),
                    "{plan}: {}",
                    String::from_utf8_lossy(&output.stderr)
                );
            }
        }
    }
}
