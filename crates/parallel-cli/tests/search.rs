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
            "why_first",
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

/// The degrees and step of a plan of the JSON.
fn layout(plan: &serde_json::Value) -> (u64, u64, u64, f64) {
    let c = &plan["config"];
    let degree = |k: &str| c[k].as_u64().unwrap();
    (
        degree("tp"),
        degree("cp"),
        degree("pp"),
        plan["report"]["estimate"]["step_s"].as_f64().unwrap(),
    )
}

#[test]
fn a_tie_goes_to_the_practitioner_s_plan_and_says_why() {
    // Llama 3 405B on 8,192 H100s at 8K tokens, 2,048 sequences a step (Llama 3's 16M tokens):
    // TP 4 × CP 4 × PP 32 is the quickest, TP 8 × CP 2 × PP 16 0.2% slower; both split the
    // sequence and have as many dimensions, so the tie goes to fewer pipeline stages.
    let r = json_of(
        &["search", "--top", "5"],
        r#"{"model":"llama3-405b","hardware":"h100-sxm","gpus":8192,"seq_len":8192,"global_batch":2048}"#,
    );
    let (first, second) = (layout(&r["plans"][0]), layout(&r["plans"][1]));
    assert_eq!((first.0, first.1, first.2), (8, 2, 16));
    assert_eq!((second.0, second.1, second.2), (4, 4, 32));
    assert!(second.3 < first.3 && first.3 <= 1.02 * second.3);
    assert_eq!(layout(&r["quickest"]), second);
    assert_eq!(
        r["why_first"],
        serde_json::json!([{
            "against": "second",
            "rank": 2,
            "reason": {
                "id": "tie_smaller_pp",
                "gap_s": first.3 - second.3,
                "share": (first.3 - second.3) / second.3,
                "pp": 16,
                "rival_pp": 32
            }
        }])
    );
    // The best plan without CP is far slower (not a tie): it comes beside the first.
    let without = layout(&r["without_cp"]);
    assert!(without.1 == 1 && without.3 > 1.02 * second.3);

    // The planner's 64 H100s at 4,096 tokens, 256 sequences a step: TP 2 × PP 2 first; the
    // quickest plan (#4) splits the sequence over CP 2 and is 0.2% quicker: a tie, to the plan
    // without CP. The second is alike (CP 1, two dimensions, PP 2) and slower.
    let r = json_of(
        &["search", "--top", "5"],
        r#"{"hardware":"h100-sxm","gpus":64,"global_batch":256}"#,
    );
    let first = layout(&r["plans"][0]);
    let quickest = layout(&r["quickest"]);
    assert_eq!((first.0, first.1, first.2), (2, 1, 2));
    assert_eq!((quickest.0, quickest.1, quickest.2), (1, 2, 4));
    assert_eq!(layout(&r["plans"][3]), quickest);
    let why = r["why_first"].as_array().unwrap();
    let ids: Vec<(&str, &str, u64)> = why
        .iter()
        .map(|w| {
            (
                w["against"].as_str().unwrap(),
                w["reason"]["id"].as_str().unwrap(),
                w["rank"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        ids,
        [("second", "tie_quicker", 2), ("quickest", "tie_no_cp", 4)]
    );
    let tie = &why[1]["reason"];
    assert_eq!(tie["gap_s"].as_f64().unwrap(), first.3 - quickest.3);
    assert_eq!(tie["rival_cp"], 2);
    assert!(tie["share"].as_f64().unwrap() <= 0.02);
    assert!(r.get("without_cp").is_none());
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
