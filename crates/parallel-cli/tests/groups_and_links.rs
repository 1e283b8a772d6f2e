//! One card's view (`eval --card`, `groups --card`) and a page link (`--url`) read as a config.
#![allow(clippy::unwrap_used)]

mod common;

use common::{items, json_of, run, stdout_of, text, LESSON_64_ZERO1};
use serde_json::Value;

#[test]
fn eval_of_a_card_takes_its_own_links() {
    // The lesson's TP 8 × PP 2 × DP 4: card 0's groups cross nodes exactly where some group of
    // the plan does, so its report is the plan-wide one.
    let config = r#"{"gpus":64,"tp":8,"pp":2,"zero":1}"#;
    let plan_wide = json_of(&["eval"], config);
    let card = json_of(&["eval", "--card", "0"], config);
    assert_eq!(plan_wide["memory"], card["memory"]);
    assert_eq!(
        plan_wide["comm"], card["comm"],
        "card 0's links equal the plan-wide ones here"
    );
    let config = r#"{"gpus":16,"gpus_per_node":4,"tp":2,"pp":2,"order":"tp-cp-dp-pp"}"#;
    let links = |report: &Value| -> Vec<(String, String)> {
        items(&report["comm"])
            .iter()
            .map(|t| (text(&t["dim"]), text(&t["link"])))
            .collect()
    };
    // tp-cp-dp-pp: PP partners are 8 apart, so every PP group spans nodes; DP (0, 2, 4, 6)
    // spans nodes too. TP stays inside a node.
    let card = json_of(&["eval", "--card", "0"], config);
    assert_eq!(
        links(&card),
        [
            ("tp".into(), "nvlink".into()),
            ("pp".into(), "ib".into()),
            ("dp".into(), "ib".into())
        ]
    );
    let bad = run(&["eval", "--card", "16"], config);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("card: card 16 does not exist"));
}

#[test]
fn groups_of_a_card() {
    let cases: [(&str, &str, Value); 3] = [
        (
            LESSON_64_ZERO1,
            "0",
            serde_json::json!({"tp": [0, 1, 2, 3, 4, 5, 6, 7], "cp": [0], "pp": [0, 8], "dp": [0, 16, 32, 48]}),
        ),
        (
            r#"{"gpus":64,"tp":8,"pp":2,"order":"tp-cp-dp-pp"}"#,
            "0",
            serde_json::json!({"tp": [0, 1, 2, 3, 4, 5, 6, 7], "cp": [0], "pp": [0, 32], "dp": [0, 8, 16, 24]}),
        ),
        (
            r#"{"model":"deepseek-v3","gpus":16,"pp":2,"ep":4}"#,
            "2",
            serde_json::json!({"tp": [2], "cp": [2], "pp": [2, 3], "dp": [0, 2, 4, 6, 8, 10, 12, 14], "ep": [0, 2, 4, 6], "edp": [2, 10]}),
        ),
    ];
    for (config, card, expected) in cases {
        assert_eq!(
            json_of(&["groups", "--card", card], config),
            expected,
            "{config} card {card}"
        );
    }
}

#[test]
fn a_link_and_a_config_are_interchangeable() {
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "eval",
                "--url",
                "https://example.org/course/lab/#g64=tp8.pp2.z1&c64=0",
            ],
            LESSON_64_ZERO1,
        ),
        (
            &["eval", "--url", "#g8=z3.selective&g64=pp2", "--grid", "8"],
            r#"{"zero":3,"recompute":"selective"}"#,
        ),
        (&["eval", "--url", "g8="], "{}"),
    ];
    for &(args, config) in cases {
        assert_eq!(
            stdout_of(args, ""),
            stdout_of(&["eval"], config),
            "{args:?}"
        );
    }
    let groups = json_of(&["groups", "--url", "#g64=tp8.pp2.z1&c64=0"], "");
    assert_eq!(groups["pp"], serde_json::json!([0, 8]));
    assert_eq!(groups["dp"], serde_json::json!([0, 16, 32, 48]));
}
