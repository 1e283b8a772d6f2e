//! `check` (SPEC §19): the shipped workloads are the CLI's own, every measured fixture reads,
//! the GPU run reproduces the H200 measurements the lab's tables come from, and a bad file is
//! named.
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use std::path::Path;

use common::{error_line, json_of, measured_fixture_files, repo_root, run, stdout_of};
use serde_json::Value;

fn compare(file: &Path) -> Value {
    json_of(
        &[
            "check",
            "--measured",
            file.to_str().unwrap(),
            "--format",
            "json",
        ],
        "",
    )
}

/// Row `figure` of a comparison.
fn row<'a>(c: &'a Value, figure: &str) -> &'a Value {
    c["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["figure"] == figure)
        .unwrap()
}

#[test]
fn the_shipped_workloads_are_what_the_cli_emits() {
    let dir = repo_root().join("scripts/gpu-check/workloads");
    let plans: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("plans.json")).unwrap()).unwrap();
    for plan in plans.as_array().unwrap() {
        let name = plan["name"].as_str().unwrap();
        let card = plan["card"].to_string();
        let emitted = stdout_of(
            &["check", "--emit", "--card", &card],
            &plan["config"].to_string(),
        );
        let shipped = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        assert_eq!(
            emitted, shipped,
            "{name}: regenerate it with `parallel-lab check --emit --card {card}`"
        );
    }
}

#[test]
fn every_measured_fixture_compares() {
    let files = measured_fixture_files();
    assert!(files.len() >= 10, "{files:?}");
    for file in files {
        let c = compare(&file);
        assert_eq!(c["rows"].as_array().unwrap().len(), 6, "{file:?}");
        let text = stdout_of(&["check", "--measured", file.to_str().unwrap()], "");
        assert!(text.contains("| layer forward + backward |"), "{file:?}");
        let zh = stdout_of(
            &[
                "check",
                "--measured",
                file.to_str().unwrap(),
                "--lang",
                "zh",
            ],
            "",
        );
        assert!(zh.contains("单层前向+反向"), "{file:?}");
    }
}

/// The program's H200 run reproduces the measurements of ../shared/measured (converted into
/// the shared-h200-* fixtures): a layer's time and activation bytes, eager and compiled.
#[test]
fn the_gpu_run_reproduces_the_shared_measurements() {
    let dir = repo_root().join("tests/fixtures/check");
    let pairs = [
        ("llama3-8b-s8192", "layer_time", 0.05),
        ("llama3-8b-s4096", "activation_per_layer", 0.08),
        ("llama3-8b-s4096-full", "activation_per_layer", 0.01),
    ];
    for (name, figure, within) in pairs {
        let ours = compare(&dir.join(format!("h200-{name}.measured.json")));
        let theirs = compare(&dir.join(format!("shared-h200-{name}.measured.json")));
        for mode in ["eager", "compiled"] {
            let (a, b) = (&row(&ours, figure)[mode], &row(&theirs, figure)[mode]);
            if let (Some(a), Some(b)) = (a.as_f64(), b.as_f64()) {
                let off = (a / b - 1.0).abs();
                assert!(
                    off < within,
                    "{name} {figure} {mode}: {a} vs {b} ({off:.3})"
                );
            }
        }
    }
    // The lab's figures themselves: compiled layer time within 10% on the Llama 3 8B layer,
    // full recompute's 2·s·b·h exact to the byte.
    let c = compare(&dir.join("h200-llama3-8b-s8192.measured.json"));
    let r = row(&c, "layer_time")["ratio_compiled"].as_f64().unwrap();
    assert!((r - 1.0).abs() < 0.1, "{r}");
    let c = compare(&dir.join("h200-llama3-8b-s4096-full.measured.json"));
    let r = row(&c, "activation_per_layer")["ratio_eager"]
        .as_f64()
        .unwrap();
    assert!((r - 1.0).abs() < 0.01, "{r}");
}

#[test]
fn emit_takes_a_link_and_a_card() {
    let w = json_of(
        &["check", "--emit", "--card", "7"],
        r#"{"gpus":8,"tp":2,"pp":4}"#,
    );
    assert_eq!(w["format"], "parallel-lab/workload");
    assert_eq!(w["coords"]["pp"], 3);
    assert!(error_line(&["check", "--emit", "--card", "8"], "{}").contains("card 8"));
    assert!(error_line(&["check"], "").starts_with("--emit: missing"));
    assert!(error_line(&["check", "--emit", "--measured", "x"], "").starts_with("--measured"));
}

#[test]
fn bad_files_are_named_by_their_field() {
    let tmp = std::env::temp_dir().join(format!("parallel-lab-check-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let good: Value = serde_json::from_str(
        &std::fs::read_to_string(
            repo_root().join("tests/fixtures/check/h200-lesson-64-card0.measured.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let workload = repo_root().join("scripts/gpu-check/workloads/lesson-64-card0.json");
    let mut peak = good.clone();
    peak["eager"]["peak_bytes"] = "big".into();
    let mut name = good.clone();
    name["card"].as_object_mut().unwrap().remove("name");
    let cases: [(&str, String, &str); 5] = [
        ("not-json", "{ nope".into(), "not JSON"),
        ("foreign", r#"{"rows": []}"#.into(), "`format`"),
        (
            "workload",
            std::fs::read_to_string(workload).unwrap(),
            "this is the workload",
        ),
        (
            "peak",
            peak.to_string(),
            "`eager.peak_bytes`: expected a number",
        ),
        ("name", name.to_string(), "`card.name`: missing"),
    ];
    for (label, text, words) in cases {
        let path = tmp.join(format!("{label}.json"));
        std::fs::write(&path, text).unwrap();
        let line = error_line(&["check", "--measured", path.to_str().unwrap()], "");
        assert!(
            line.starts_with("--measured: measured file"),
            "{label}: {line}"
        );
        assert!(line.contains(words), "{label}: {line}");
    }
    let out = run(&["check", "--measured", "/no/such/file.json"], "");
    assert_eq!(out.status.code(), Some(2));
    // From stdin too.
    let text = std::fs::read_to_string(measured_fixture_files()[0].clone()).unwrap();
    assert!(stdout_of(&["check", "--measured", "-"], &text).contains("| model states |"));
}

/// Issue 50's impossible measurements: each refused (exit 2) by its field, its value quoted in
/// a few characters.
#[test]
fn impossible_measurements_are_refused_by_their_field() {
    let good: Value = serde_json::from_str(
        &std::fs::read_to_string(
            measured_fixture_files()
                .iter()
                .find(|f| f.ends_with("h200-lesson-64-card0.measured.json"))
                .unwrap(),
        )
        .unwrap(),
    )
    .unwrap();
    let cases: [(&[&str], Value, &str); 6] = [
        (&["eager", "layer_fwd_bwd_s"], 0.0.into(), "(got 0)"),
        (&["eager", "layer_fwd_bwd_s"], 5e-324.into(), "(got 5e-324)"),
        (&["compiled", "peak_bytes"], 1e308.into(), "(got 1e308)"),
        (
            &["compiled", "layer_fwd_bwd_s"],
            1e308.into(),
            "(got 1e308)",
        ),
        (&["eager", "peak_bytes"], 1.0.into(), "(got 1)"),
        (&["card", "memory_bytes"], 1.0.into(), "(got 1e-9)"),
    ];
    for (path, value, got) in cases {
        let mut file = good.clone();
        let mut at = &mut file;
        for key in path {
            at = &mut at[*key];
        }
        *at = value;
        let line = error_line(&["check", "--measured", "-"], &file.to_string());
        let field = format!("--measured: measured file, `{}`: ", path.join("."));
        assert!(line.starts_with(&field) && line.ends_with(got), "{line}");
        assert!(line.len() < 400, "{line}");
    }
}
