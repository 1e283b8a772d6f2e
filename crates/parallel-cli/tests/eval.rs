//! `eval`: the report's shape (SPEC §10–§12), its defaults and warnings, an MoE report's
//! per-stage split and `--explain`.
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::{gb, items, json_of, keys, stdout_of, text, COMM_ROW_KEYS, LESSON_64_ZERO1};
use serde_json::Value;

#[test]
fn eval_prints_the_spec_report() {
    let r = json_of(&["eval"], LESSON_64_ZERO1);
    // The shape of SPEC §10, exactly.
    assert_eq!(
        keys(&r),
        ["bubble", "comm", "dp", "estimate", "memory", "warnings"]
    );
    // SPEC §12: the estimate's fields.
    assert_eq!(
        keys(&r["estimate"]),
        [
            "bubble_s",
            "compute_s",
            "exposed_comm_s",
            "flops_per_step",
            "latency_s",
            "mfu",
            "roofline_factor",
            "step_s",
            "tokens_per_s_per_gpu",
            "tokens_per_step"
        ]
    );
    // SPEC §11: `by_stage` always; `busiest_stage` only with "accounting": "stages".
    assert_eq!(
        keys(&r["memory"]),
        [
            "activations",
            "by_stage",
            "capacity",
            "fits",
            "model_states",
            "tight",
            "total"
        ]
    );
    let stages = r["memory"]["by_stage"].as_array().unwrap();
    assert_eq!(stages.len(), 2, "one entry per pipeline stage");
    assert_eq!(
        keys(&stages[0]),
        [
            "activations",
            "fits",
            "layers",
            "model_states",
            "stage",
            "tight",
            "total"
        ]
    );
    let busiest = json_of(
        &["eval"],
        r#"{"gpus":64,"tp":8,"pp":2,"zero":1,"accounting":"stages"}"#,
    );
    assert_eq!(busiest["memory"]["busiest_stage"], 1);
    assert_eq!(
        busiest["memory"]["total"],
        busiest["memory"]["by_stage"][1]["total"]
    );
    assert_eq!(keys(&r["bubble"]), ["ratio", "share"]);
    for entry in r["comm"].as_array().unwrap() {
        assert_eq!(keys(entry), COMM_ROW_KEYS);
    }

    assert_eq!(r["dp"], 4);
    assert_eq!(gb(&r["memory"]["model_states"]), "12.2");
    assert_eq!(r["memory"]["capacity"].as_f64(), Some(80e9));
    assert_eq!(r["memory"]["fits"], true);
    assert_eq!(r["bubble"]["ratio"].as_f64(), Some(0.125));
    let comm: Vec<(String, String, String, u64, String)> = items(&r["comm"])
        .iter()
        .map(|t| {
            (
                text(&t["dim"]),
                text(&t["collective"]),
                text(&t["link"]),
                t["group_size"].as_u64().unwrap(),
                gb(&t["bytes"]),
            )
        })
        .collect();
    let expected = [
        ("tp", "all-reduce", "nvlink", 8, "75.2"),
        ("pp", "p2p", "ib", 2, "0.7"),
        ("dp", "reduce-scatter+all-gather", "ib", 4, "5.2"),
    ]
    .map(|(d, c, l, g, b)| (d.into(), c.into(), l.into(), g, b.into()));
    assert_eq!(comm, expected);
}

#[test]
fn eval_of_empty_input_is_the_default_plan() {
    let default = stdout_of(&["eval"], "{}");
    for input in ["", "\n", "  {  }  "] {
        assert_eq!(stdout_of(&["eval"], input), default);
    }
    let r: Value = serde_json::from_str(&default).unwrap();
    assert_eq!(r["dp"], 8);
}

#[test]
fn eval_reports_warnings_as_text() {
    let r = json_of(&["eval"], r#"{"gpus":16,"tp":16}"#);
    let warnings = r["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].as_str().unwrap().starts_with("tp: "));
}

#[test]
fn an_moe_report_splits_each_stage_s_states() {
    let r = json_of(
        &["eval"],
        r#"{"model":"mixtral-8x7b","gpus":64,"tp":4,"pp":2,"ep":8,"accounting":"stages"}"#,
    );
    for stage in r["memory"]["by_stage"].as_array().unwrap() {
        let experts = stage["expert_states"].as_f64().unwrap();
        assert!(experts > 0.0 && experts < stage["model_states"].as_f64().unwrap());
    }
    let dense = json_of(&["eval"], LESSON_64_ZERO1);
    assert!(dense["memory"]["by_stage"][0]
        .get("expert_states")
        .is_none());
}

#[test]
fn eval_explain_gives_each_figure_its_formula_and_the_report_s_value() {
    let r = json_of(&["eval", "--explain", "--card", "9"], LESSON_64_ZERO1);
    let explain = r["explain"].as_array().unwrap();
    let find = |id: &str| {
        explain
            .iter()
            .find(|e| e["figure"] == id)
            .unwrap_or_else(|| panic!("{id} not explained"))
    };
    assert_eq!(find("mem-states")["result"], r["memory"]["model_states"]);
    assert_eq!(find("mem-states")["shown"], "12.2 GB");
    assert_eq!(find("bubble")["result"], r["bubble"]["ratio"]);
    assert_eq!(find("estimate-step")["result"], r["estimate"]["step_s"]);
    for row in r["comm"].as_array().unwrap() {
        let dim = row["dim"].as_str().unwrap();
        let bytes = find(&format!("traffic-{dim}"));
        assert_eq!(bytes["result"], row["bytes"]);
        assert!(!bytes["formula"].as_str().unwrap().is_empty());
        assert!(!bytes["source"].as_str().unwrap().is_empty());
        assert_eq!(
            find(&format!("traffic-{dim}-time"))["result"],
            row["seconds"]
        );
    }
    // Without the flag the report keeps SPEC §10's keys.
    assert!(json_of(&["eval"], LESSON_64_ZERO1).get("explain").is_none());
}
