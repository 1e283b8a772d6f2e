//! `parallel-lab balance` (SPEC §23): each lever's path is the plans `eval` reports, the
//! lever moved alone.

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::{error_line, json_of};
use serde_json::{json, Value};

/// The sum of a report's `comm` bytes over the network (the host link apart).
fn sent(report: &Value) -> f64 {
    report["comm"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["dim"] != "offload")
        .map(|row| row["bytes"].as_f64().unwrap())
        .sum()
}

#[test]
fn every_point_is_the_plan_eval_reports() {
    let plans = [
        json!({"gpus": 64, "tp": 8, "pp": 8}),
        json!({"gpus": 8, "zero": 3}),
        json!({"gpus": 64, "tp": 2, "pp": 4, "zero": 1, "micro_batches": 16, "hardware": "h200"}),
        json!({"model": "mixtral-8x7b", "gpus": 64, "ep": 8, "tp": 2, "optimizer_offload": "cpu"}),
    ];
    for plan in plans {
        let paths = json_of(&["balance"], &plan.to_string());
        let paths = paths.as_array().unwrap();
        let levers: Vec<&str> = paths.iter().map(|p| p["lever"].as_str().unwrap()).collect();
        assert_eq!(levers, ["tp", "pp", "zero"], "{plan}");
        for path in paths {
            let lever = path["lever"].as_str().unwrap();
            let field = if lever == "zero" { "zero" } else { lever };
            let current = path["current"].as_u64().unwrap();
            assert_eq!(
                current,
                plan.get(field)
                    .and_then(Value::as_u64)
                    .unwrap_or(if lever == "zero" { 0 } else { 1 })
            );
            let points = path["points"].as_array().unwrap();
            assert!(
                points.iter().any(|p| p["value"] == current),
                "{plan} {lever}: its own value"
            );
            let values: Vec<u64> = points
                .iter()
                .map(|p| p["value"].as_u64().unwrap())
                .collect();
            assert!(
                values.windows(2).all(|w| w[0] < w[1]),
                "{plan} {lever}: {values:?}"
            );
            for point in points {
                let mut moved = plan.clone();
                moved[field] = point["value"].clone();
                let report = json_of(&["eval"], &moved.to_string());
                let what = format!("{plan} {lever} = {}", point["value"]);
                assert_eq!(point["memory"], report["memory"]["total"], "{what}");
                assert_eq!(point["fits"], report["memory"]["fits"], "{what}");
                assert_eq!(point["bubble_share"], report["bubble"]["share"], "{what}");
                let want = sent(&report);
                let got = point["sent"].as_f64().unwrap();
                assert!(
                    (got - want).abs() <= 1e-9 * want.max(1.0),
                    "{what}: {got} against {want}"
                );
            }
        }
    }
}

#[test]
fn a_refused_plan_is_named() {
    let line = error_line(&["balance"], r#"{"gpus": 8, "tp": 3}"#);
    assert!(line.starts_with("gpus:"), "{line}");
}
