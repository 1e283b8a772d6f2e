//! `table`: every table in every format and language, a plan table from stdin, the runs
//! table against `eval`, and a reader that goes away.
#![allow(clippy::unwrap_used)]

mod common;

use std::process::{Command, Stdio};

use common::{assert_holds, gb, json_of, markdown_rows, parse_csv, stdout_of};

#[test]
fn all_tables_render_in_every_format_and_language() {
    let all = stdout_of(&["table"], "");
    assert_holds(
        "markdown",
        &all,
        &[
            "8 GPUs",
            "64 GPUs",
            "Llama 3 405B",
            "DeepSeek-V3",
            "recipes",
            "Published training runs",
        ],
    );
    let zh = stdout_of(&["table", "--lang", "zh", "--table", "8gpu"], "");
    assert!(zh.contains("DP 8 · ZeRO-3 · 全量重计算") && zh.contains("每卡模型状态"));

    for lang in ["en", "zh"] {
        let json = json_of(&["table", "--format", "json", "--lang", lang], "");
        let tables = json["tables"].as_array().unwrap();
        let ids: Vec<&str> = tables.iter().map(|t| t["id"].as_str().unwrap()).collect();
        assert_eq!(
            ids,
            ["8gpu", "64gpu", "llama3", "deepseek", "recipes", "runs", "measured"]
        );
        for t in tables {
            let mut keys: Vec<&str> = t["columns"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["key"].as_str().unwrap())
                .collect();
            keys.sort_unstable();
            for row in t["rows"].as_array().unwrap() {
                let cells = row["cells"].as_object().unwrap();
                // serde_json's map (without preserve_order) sorts keys.
                assert_eq!(cells.keys().map(String::as_str).collect::<Vec<_>>(), keys);
            }
        }
        // Raw figures beside the formatted ones.
        let first = &tables[0]["rows"][0];
        assert_eq!(first["data"]["id"], "dp8-zero3-full");
        assert_eq!(gb(&first["data"]["report"]["memory"]["total"]), "58.2");
        assert_eq!(first["cells"]["total"], "58.2 GB ✓");
        assert_eq!(
            tables[2]["rows"][0]["data"]["tokens_per_step"].as_f64(),
            Some(16_777_216.0)
        );
    }

    for table in ["8gpu", "64gpu", "llama3", "deepseek", "recipes"] {
        let records = parse_csv(&stdout_of(
            &["table", "--table", table, "--format", "csv"],
            "",
        ));
        assert!(records.len() >= 2, "{table}");
        assert!(
            records.iter().all(|r| r.len() == records[0].len()),
            "{table}"
        );
    }
}

#[test]
fn plan_table_from_stdin() {
    let input = r#"[
        {"label": "DP 8, ZeRO-3", "config": {"zero": 3}},
        {"label": "TP 8 × PP 2 × DP 4, ZeRO-1", "config": {"gpus": 64, "tp": 8, "pp": 2, "zero": 1}},
        {"label": "defaults"}
    ]"#;
    let md = stdout_of(&["table", "--stdin"], input);
    let body = markdown_rows(&md);
    assert_eq!(body.len(), 3);
    assert_eq!(
        body[0][..4],
        ["DP 8, ZeRO-3", "55.6 GB", "2.7 GB", "58.2 GB ✓"]
    );
    assert_eq!(body[1][1], "12.2 GB");
    assert_eq!(body[2][3], "447.2 GB ✗");

    let csv = parse_csv(&stdout_of(&["table", "--stdin", "--format", "csv"], input));
    assert_eq!(csv[2][0], "TP 8 × PP 2 × DP 4, ZeRO-1");
    assert_eq!(
        csv[2][4],
        "tp 75.2 GB (NVLink) · pp 0.7 GB (IB) · dp 5.2 GB (IB)"
    );

    let json = json_of(&["table", "--stdin", "--format", "json"], input);
    let row = &json["tables"][0]["rows"][1]["data"];
    assert_eq!(row["config"]["gpus"], 64);
    assert_eq!(row["report"]["dp"], 4);

    // Warnings of the user's plans are listed under the table.
    let warned = stdout_of(
        &["table", "--stdin"],
        r#"[{"label": "wide TP", "config": {"gpus": 16, "tp": 16}}]"#,
    );
    assert!(warned.contains("- wide TP: tp: TP 16 is larger than a node"));
}

#[test]
fn closed_stdout_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parallel-lab"))
        .args(["table", "--format", "json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `table --table runs`: every row's plan evaluates with `eval` to the report the row carries,
/// and its lab figure is that report's (tokens/s, or the step time under the source's count).
#[test]
fn runs_table_rows_equal_eval_on_their_plans() {
    let json = json_of(&["table", "--table", "runs", "--format", "json"], "");
    let rows = json["tables"][0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 26);
    for row in rows {
        let data = &row["data"];
        let config = data["config"].to_string();
        let report = json_of(&["eval"], &config);
        assert_eq!(report, data["report"], "{}", data["id"]);
        let e = &report["estimate"];
        assert_eq!(data["lab_mfu"], e["mfu"]);
        if data["published"]["figure"] == "tokens_per_second" {
            assert_eq!(data["lab"], e["tokens_per_s_per_gpu"], "{}", data["id"]);
        }
        let ratio = data["lab"].as_f64().unwrap() / data["published"]["value"].as_f64().unwrap();
        assert_eq!(data["ratio"].as_f64(), Some(ratio));
    }
    let first = &rows[0]["data"];
    assert_eq!(first["id"], "llama3-405b-8k-8192");
    assert_eq!(first["published"]["value"], 0.43);
    assert_eq!(first["config"]["hardware"], "h100-sxm");
}

/// `table --table runs` ends with the figures measured on one H200: each step row's lab figure
/// is `eval`'s step time on the row's plan, each ratio is lab ÷ measured, and every layer's lab
/// time lies between its measured floor and its eager time.
#[test]
fn measured_rows_equal_eval_on_their_plans() {
    let json = json_of(&["table", "--table", "runs", "--format", "json"], "");
    let tables = json["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 2);
    let measured = &tables[1];
    assert_eq!(measured["id"], "measured");
    let rows = measured["rows"].as_array().unwrap();
    let count = |m: &str| rows.iter().filter(|r| r["data"]["measure"] == m).count();
    assert_eq!((count("layer_eager"), count("layer_compiled")), (6, 2));
    assert_eq!(
        (
            count("step_eager"),
            count("step_compiled"),
            count("step_recompute")
        ),
        (3, 3, 2)
    );
    assert_eq!(
        (
            count("activation_eager"),
            count("activation_compiled"),
            count("activation_recompute")
        ),
        (3, 1, 3)
    );
    for row in rows {
        let data = &row["data"];
        let (lab, measured) = (
            data["lab"].as_f64().unwrap(),
            data["measured"].as_f64().unwrap(),
        );
        assert_eq!(
            data["ratio"].as_f64(),
            Some(lab / measured),
            "{}",
            data["id"]
        );
        assert_eq!(data["config"]["hardware"], "h200");
        let measure = data["measure"].as_str().unwrap();
        if measure.starts_with("step") {
            let report = json_of(&["eval"], &data["config"].to_string());
            assert_eq!(
                report["estimate"]["step_s"].as_f64(),
                Some(lab),
                "{}",
                data["id"]
            );
        }
        if measure == "layer_eager" {
            let floor = data["floor"].as_f64().unwrap();
            assert!(floor <= lab && lab <= measured, "{}", data["id"]);
        }
    }
}
