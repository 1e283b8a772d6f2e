//! `parallel-lab` with uneven expert routing (SPEC §20): the `routing` block, the hot card's
//! memory, the EP row and the estimate, the errors naming the field, and the link's tokens.
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::{error_line, f, json_of, keys, run};

const MIXTRAL: &str =
    r#""model":"mixtral-8x7b","gpus":64,"tp":2,"pp":4,"ep":8,"recompute":"selective""#;

fn eval(extra: &str) -> serde_json::Value {
    json_of(&["eval"], &format!("{{{MIXTRAL}{extra}}}"))
}

#[test]
fn eval_writes_routing_for_moe_plans_only() {
    let even = eval("");
    assert_eq!(
        keys(&even["routing"]),
        [
            "added_s",
            "all_to_all_busiest",
            "all_to_all_even",
            "capacity_factor",
            "dispatch_even",
            "dispatch_hot",
            "dropped_per_step",
            "dropped_share",
            "excess",
            "expert_activations_even",
            "expert_activations_hot",
            "expert_s_busiest",
            "expert_s_even",
            "skew",
            "tokens_cold",
            "tokens_even",
            "tokens_hot",
        ]
    );
    assert_eq!(f(&even["routing"]["excess"]), 0.0);
    assert!(even["routing"]["capacity_factor"].is_null());
    let dense = json_of(&["eval"], "{}");
    assert!(dense.get("routing").is_none());
}

#[test]
fn a_skew_moves_the_hot_card_the_ep_row_and_the_step() {
    let (even, hot) = (eval(""), eval(r#","routing_skew":1.72"#));
    let r = &hot["routing"];
    assert_eq!(f(&r["tokens_hot"]), 1.72 * f(&r["tokens_even"]));
    let activations = |v: &serde_json::Value| f(&v["memory"]["activations"]);
    let excess = f(&r["excess"]);
    assert!(excess > 0.0);
    assert!((activations(&hot) - activations(&even) - excess).abs() <= 1.0);
    let ep_bytes = |v: &serde_json::Value| {
        v["comm"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["dim"] == "ep")
            .map(|row| f(&row["bytes"]))
            .unwrap()
    };
    assert!((ep_bytes(&hot) / ep_bytes(&even) - 1.72).abs() < 1e-9);
    let compute = |v: &serde_json::Value| f(&v["estimate"]["compute_s"]);
    assert!((compute(&hot) - compute(&even) - f(&r["added_s"])).abs() < 1e-9);
    assert!(f(&hot["estimate"]["step_s"]) > f(&even["estimate"]["step_s"]));
}

#[test]
fn a_capacity_factor_drops_tokens() {
    let r = &eval(r#","routing_skew":1.72,"capacity_factor":1.25"#)["routing"];
    assert_eq!(f(&r["capacity_factor"]), 1.25);
    assert!((f(&r["dropped_share"]) - 0.47 / 8.0).abs() < 1e-12);
    assert!(f(&r["dropped_per_step"]) > 0.0);
}

#[test]
fn out_of_range_values_name_their_field() {
    for (input, field) in [
        (format!("{{{MIXTRAL},\"routing_skew\":5}}"), "routing_skew"),
        (
            format!("{{{MIXTRAL},\"routing_skew\":0.5}}"),
            "routing_skew",
        ),
        (
            format!("{{{MIXTRAL},\"capacity_factor\":0.9}}"),
            "capacity_factor",
        ),
        (r#"{"routing_skew":1.5}"#.to_string(), "routing_skew"),
        (r#"{"capacity_factor":2}"#.to_string(), "capacity_factor"),
    ] {
        let out = run(&["eval"], &input);
        assert_eq!(out.status.code(), Some(2), "{input}");
        let line = error_line(&["eval"], &input);
        assert!(line.starts_with(&format!("{field}: ")), "{input}: {line}");
    }
}

#[test]
fn the_link_carries_skew_and_capacity() {
    let linked = json_of(
        &[
            "eval",
            "--url",
            "#g64=mixtral.tp2.pp4.ep8.selective.rho1p72.cf1p25",
        ],
        "",
    );
    let given = eval(r#","routing_skew":1.72,"capacity_factor":1.25"#);
    assert_eq!(linked["routing"], given["routing"]);
    assert_eq!(linked["memory"], given["memory"]);
}

#[test]
fn with_a_card_named_every_card_s_memory_is_listed_under_uneven_routing() {
    let args = ["eval", "--card", "1"];
    let input = format!("{{{MIXTRAL},\"routing_skew\":1.72}}");
    let hot = json_of(&args, &input);
    let cards = hot["cards_memory"].as_array().unwrap();
    assert_eq!(cards.len(), 64);
    // EP 8 over 16 cards a stage (TP 2): the first card of each EP group holds the hot expert.
    let total = |card: usize| f(&cards[card]["total"]);
    assert!(total(0) > total(1), "card 0 holds the hottest expert");
    assert_eq!(total(0), f(&hot["memory"]["total"]));
    assert!((total(0) - total(1) - f(&hot["routing"]["excess"])).abs() <= 1.0);
    // Even routing, or no card named: no list.
    assert!(json_of(&args, &format!("{{{MIXTRAL}}}"))
        .get("cards_memory")
        .is_none());
    assert!(json_of(&["eval"], &input).get("cards_memory").is_none());
}
