//! `parallel-lab` with rollout engines (SPEC §15): the `rollout` block, the chunked logits,
//! the errors naming `rollout.<field>`, links, `--explain` and the help.
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::{assert_help_holds, error_line, f, json_of, run};
use parallel_core::{evaluate, PlanConfig};
use serde_json::Value;

/// The anchor's recipe row: 32 cards, engines of 2, log-prob chunks of 1,024, CPU Adam.
const RECIPE: &str = r#"{"gpus":32,"optimizer_offload":"cpu","log_probs_chunk":1024,"rollout":{"gpus_per_engine":2}}"#;

#[test]
fn eval_carries_the_rollout_block() {
    let r = json_of(&["eval"], RECIPE);
    let rollout = &r["rollout"];
    // The core's rollout block, key for key (its keys: parallel-core's tests/rollout_memory.rs).
    let config: PlanConfig = serde_json::from_str(RECIPE).unwrap();
    let core = serde_json::to_value(evaluate(&config).unwrap()).unwrap();
    assert_eq!(rollout, &core["rollout"]);
    assert_eq!(
        (
            &rollout["engines"],
            &rollout["sequences"],
            &rollout["sequences_per_engine"],
            &rollout["tokens_per_sequence"],
            &rollout["cards"]
        ),
        (
            &Value::from(16),
            &Value::from(64),
            &Value::from(4),
            &Value::from(133_120),
            &Value::from(32)
        )
    );
    assert_eq!(f(&rollout["weights"]), 27_781_427_952.0);
    assert_eq!(f(&rollout["kv_cache"]), 17_448_304_640.0);
    assert_eq!(f(&rollout["total"]), 27_781_427_952.0 + 17_448_304_640.0);
    assert_eq!(rollout["colocated"], true);
    assert_eq!(
        f(&rollout["peak"]),
        f(&r["memory"]["total"]).max(f(&rollout["total"]))
    );
    assert!(json_of(&["eval"], "{}").get("rollout").is_none());
    // With "stages", the last stage names its chunk.
    let stages = json_of(
        &["eval"],
        r#"{"gpus":64,"tp":8,"pp":8,"accounting":"stages","log_probs_chunk":1024}"#,
    );
    let by_stage = stages["memory"]["by_stage"].as_array().unwrap();
    assert_eq!(by_stage[7]["log_probs_chunk"], 1024.0);
    assert!(by_stage[0].get("log_probs_chunk").is_none());
}

#[test]
fn bad_rollout_fields_exit_2_naming_the_field() {
    let cases = [
        (
            r#"{"rollout":{"gpus_per_engine":0}}"#,
            "rollout.gpus_per_engine: must be at least 1 (got 0)",
        ),
        (
            r#"{"rollout":{"gpus_per_engine":3}}"#,
            "rollout.gpus_per_engine: the colocated pool (the training cards) of 8 cards does not split into engines of 3 cards",
        ),
        (
            r#"{"rollout":{"prompts":0,"kv_bytes":3}}"#,
            "rollout.prompts: must be at least 1 (got 0)",
        ),
        (
            r#"{"rollout":{"response_len":67108864}}"#,
            "rollout.response_len: prompt_len + response_len = 2048 + 67108864 = 67110912 tokens, more than 67108864",
        ),
        (
            r#"{"rollout":{"kv_bytes":3}}"#,
            "rollout.kv_bytes: bytes per cached value must be 1 (FP8), 2 (BF16) or 4 (FP32) (got 3)",
        ),
        (
            r#"{"tp":3,"rollout":{"kv_bytes":3}}"#,
            "gpus: 8 GPUs do not divide by tp·pp·cp = 3·1·1 = 3",
        ),
    ];
    for (stdin, expected) in cases {
        assert_eq!(error_line(&["eval"], stdin), expected, "{stdin}");
    }
    let out = run(&["eval"], r#"{"rollout":{"engines":2}}"#);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("rollout") && stderr.contains("gpus_per_engine"),
        "{stderr}"
    );
}

#[test]
fn a_link_carries_the_engines_and_explain_names_their_figures() {
    let from_link = json_of(&["eval", "--url", "#g8=eng2.rpool32.lpc1024"], "");
    let config = r#"{"log_probs_chunk":1024,"rollout":{"gpus_per_engine":2,"rollout_gpus":32}}"#;
    assert_eq!(from_link, json_of(&["eval"], config));
    assert_eq!(from_link["rollout"]["cards"], 40);
    let explained = json_of(&["eval", "--explain"], RECIPE);
    let all = explained["explain"].as_array().unwrap();
    for id in [
        "rollout-weights",
        "rollout-kv",
        "rollout-total",
        "rollout-peak",
    ] {
        let e = all
            .iter()
            .find(|e| e["figure"] == id)
            .unwrap_or_else(|| panic!("{id}"));
        assert!(!e["formula"].as_str().unwrap().is_empty(), "{id}");
    }
    let kv = all.iter().find(|e| e["figure"] == "rollout-kv").unwrap();
    assert_eq!(kv["result"], explained["rollout"]["kv_cache"]);
    assert_eq!(kv["shown"], "17.4 GB");
}

#[test]
fn help_documents_the_new_fields() {
    assert_help_holds(&[
        "rollout null",
        "\"gpus_per_engine\" 8",
        "\"rollout_gpus\" 0",
        "\"samples_per_prompt\" 8",
        "\"response_len\" 131072",
        "\"kv_bytes\" 2 (1|2|4)",
        "log_probs_chunk 0",
        "\"sequences_per_engine\"",
        "\"peak_phase\"",
        "kv_lora_rank",
    ]);
}
