//! `search`: ranked plans that `eval` agrees with, and its bad input named.
#![allow(clippy::unwrap_used)]

mod common;

use common::{error_line, json_of};

#[test]
fn search_prints_ranked_plans_that_eval_agrees_with() {
    let r = json_of(
        &["search", "--top", "3"],
        r#"{"gpus":64,"global_batch":128}"#,
    );
    let mut keys: Vec<&String> = r.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "comfortable",
            "considered",
            "fitting",
            "plans",
            "valid",
            "without_cp"
        ]
    );
    // The first plan splits the sequence (the lesson's card counts CP's chunks at its one
    // rate), so the best plan without CP comes beside it, slower, and eval agrees with it.
    assert!(r["plans"][0]["config"]["cp"].as_u64().unwrap() > 1);
    let without = &r["without_cp"];
    assert_eq!(without["config"]["cp"], 1);
    let step = |p: &serde_json::Value| p["report"]["estimate"]["step_s"].as_f64().unwrap();
    assert!(step(without) >= step(&r["plans"][0]));
    assert_eq!(
        json_of(&["eval"], &without["config"].to_string()),
        without["report"]
    );
    // On a real card the first plan splits no sequence here, and nothing is added.
    let h100 = json_of(
        &["search", "--top", "3"],
        r#"{"gpus":64,"global_batch":128,"hardware":"h100-sxm","seq_len":2048}"#,
    );
    if h100["plans"][0]["config"]["cp"] == 1 {
        assert!(h100.get("without_cp").is_none());
    }
    let plans = r["plans"].as_array().unwrap();
    assert_eq!(plans.len(), 3);
    assert!(r["fitting"].as_u64().unwrap() >= 3);
    let mut last = 0.0;
    for plan in plans {
        let step = plan["report"]["estimate"]["step_s"].as_f64().unwrap();
        assert!(step >= last);
        last = step;
        // Its config, given to eval, reports the same memory and step time.
        let again = json_of(&["eval"], &plan["config"].to_string());
        assert_eq!(again, plan["report"]);
    }
    let all = json_of(
        &["search", "--top=100000"],
        r#"{"gpus":8,"global_batch":64}"#,
    );
    assert_eq!(
        all["plans"].as_array().unwrap().len() as u64,
        all["fitting"].as_u64().unwrap()
    );
    // Plans under 80% of the card come first (Fujii et al. 2024); `comfortable` counts them.
    let plans = all["plans"].as_array().unwrap();
    let tight: Vec<bool> = plans
        .iter()
        .map(|p| p["report"]["memory"]["tight"].as_bool().unwrap())
        .collect();
    let comfortable = tight.iter().filter(|t| !**t).count();
    assert_eq!(all["comfortable"].as_u64(), Some(comfortable as u64));
    assert!(
        comfortable > 0 && comfortable < plans.len(),
        "both kinds in this search"
    );
    assert!(
        tight.iter().skip(comfortable).all(|t| *t),
        "every tight plan after the others"
    );
    for part in [&plans[..comfortable], &plans[comfortable..]] {
        let steps: Vec<f64> = part
            .iter()
            .map(|p| p["report"]["estimate"]["step_s"].as_f64().unwrap())
            .collect();
        assert!(steps.windows(2).all(|w| w[0] <= w[1]), "each kind by step");
    }
    for plan in plans {
        let m = &plan["report"]["memory"];
        let share = m["total"].as_f64().unwrap() / m["capacity"].as_f64().unwrap();
        assert_eq!(m["tight"].as_bool(), Some(share > 0.8), "{share}");
    }
}

#[test]
fn search_rejects_bad_input_by_name() {
    for (args, stdin, expected) in [
        (
            &["search"][..],
            r#"{"global_batch":0}"#,
            "global_batch: must be at least 1 (got 0)",
        ),
        (
            &["search"][..],
            r#"{"global_batch":8,"gpu_tflops":0}"#,
            "gpu_tflops: must be a positive number (got 0)",
        ),
        (
            &["search", "--top", "0"][..],
            "{}",
            "--top: expected a count 1, 2, 3, …, got `0`",
        ),
        (
            &["search", "--top", "x"][..],
            "{}",
            "--top: expected a count 1, 2, 3, …, got `x`",
        ),
    ] {
        assert_eq!(error_line(args, stdin), expected, "{args:?} <<< {stdin}");
    }
    assert_eq!(
        error_line(&["search"], "{}"),
        "global_batch: missing: the plan search needs it"
    );
}
