//! `groups --phase`: a card's rollout engine (SPEC §15) beside the grid's training groups.
#![allow(clippy::unwrap_used)]

mod common;

use common::{json_of, run};
use serde_json::json;

#[test]
fn groups_in_the_rollout_phase_are_the_card_s_engine() {
    let config = r#"{"gpus": 32, "rollout": {"gpus_per_engine": 2}}"#;
    assert_eq!(
        json_of(&["groups", "--card", "9", "--phase", "rollout"], config),
        json!({"engine": [8, 9]})
    );
    // Training, named or by default, is the grid's groups, with no engine.
    let training = json_of(&["groups", "--card", "9", "--phase", "training"], config);
    assert_eq!(training, json_of(&["groups", "--card", "9"], config));
    assert!(training.get("engine").is_none() && training.get("tp").is_some());
    // A separate pool numbers its own cards: 16 rollout cards beside 8 training cards.
    let split = r#"{"gpus": 8, "rollout": {"gpus_per_engine": 8, "rollout_gpus": 16}}"#;
    assert_eq!(
        json_of(&["groups", "--card=12", "--phase=rollout"], split),
        json!({"engine": [8, 9, 10, 11, 12, 13, 14, 15]})
    );
}

#[test]
fn a_bad_phase_or_card_is_named() {
    let cases = [
        (
            vec!["groups", "--card", "1", "--phase", "inference"],
            r#"{"gpus": 8}"#,
            "--phase: unknown phase `inference`; expected training or rollout",
        ),
        (
            vec!["groups", "--card", "1", "--phase", "rollout"],
            r#"{"gpus": 8}"#,
            "--phase: rollout needs a `rollout` object in the config",
        ),
        (
            vec!["groups", "--card", "16", "--phase", "rollout"],
            r#"{"gpus": 8, "rollout": {"gpus_per_engine": 8, "rollout_gpus": 16}}"#,
            "card: card 16 does not exist: the grid has cards 0–15",
        ),
    ];
    for (args, stdin, message) in cases {
        let out = run(&args, stdin);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.starts_with(&format!("parallel-lab: error: {message}")),
            "{args:?}: {stderr}"
        );
    }
}
