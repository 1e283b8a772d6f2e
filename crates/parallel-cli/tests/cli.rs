//! End-to-end tests of the `parallel-lab` binary: stdin in, stdout, stderr and exit status out.
//!
//! Each test is a table of cases run through one `check`-style helper.
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use std::process::{Command, Stdio};

use common::run;
use serde_json::Value;

/// Runs a command that must succeed and returns its stdout.
fn stdout_of(args: &[&str], stdin: &str) -> String {
    let out = run(args, stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} <<< {stdin}: {stderr}");
    assert!(stderr.is_empty(), "{args:?}: unexpected stderr {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

fn json_of(args: &[&str], stdin: &str) -> Value {
    serde_json::from_str(&stdout_of(args, stdin)).unwrap()
}

/// Bytes as the tables show them: GB with one decimal.
fn gb(bytes: &Value) -> String {
    format!("{:.1}", bytes.as_f64().unwrap() / 1e9)
}

const LESSON_64_ZERO1: &str = r#"{"gpus":64,"tp":8,"pp":2,"zero":1}"#;

#[test]
fn eval_prints_the_spec_report() {
    let r = json_of(&["eval"], LESSON_64_ZERO1);
    // The shape of SPEC §10, exactly.
    let keys = |v: &Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
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
        assert_eq!(
            keys(entry),
            [
                "bytes",
                "collective",
                "dim",
                "group_size",
                "link",
                "seconds"
            ]
        );
    }

    assert_eq!(r["dp"], 4);
    assert_eq!(gb(&r["memory"]["model_states"]), "12.2");
    assert_eq!(r["memory"]["capacity"].as_f64(), Some(80e9));
    assert_eq!(r["memory"]["fits"], true);
    assert_eq!(r["bubble"]["ratio"].as_f64(), Some(0.125));
    let comm: Vec<(String, String, String, u64, String)> = r["comm"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["dim"].as_str().unwrap().to_string(),
                t["collective"].as_str().unwrap().to_string(),
                t["link"].as_str().unwrap().to_string(),
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
        report["comm"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                (
                    t["dim"].as_str().unwrap().to_string(),
                    t["link"].as_str().unwrap().to_string(),
                )
            })
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

/// Runs a command that must fail on its input: exit 2, nothing on stdout, one line on stderr.
/// Returns that line without the `parallel-lab: error: ` prefix.
fn error_line(args: &[&str], stdin: &str) -> String {
    let out = run(args, stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let context = format!("{args:?} <<< {stdin}: {stderr}");
    assert_eq!(out.status.code(), Some(2), "{context}");
    assert!(out.stdout.is_empty(), "{context}");
    assert_eq!(stderr.lines().count(), 1, "{context}");
    assert!(!stderr.contains("panicked"), "{context}");
    stderr
        .strip_prefix("parallel-lab: error: ")
        .and_then(|line| line.strip_suffix('\n'))
        .unwrap_or_else(|| panic!("{context}: not one `parallel-lab: error: ` line"))
        .to_string()
}

/// Inputs whose message still reads badly, checked only for the field they name until they
/// are reworded: serde's words for a user (`u32`, `sequence`, `map`, `column 0`).
const BADLY_WORDED: &[(&[&str], &str, &str)] = &[
    // "input: invalid type: sequence, expected a JSON object at line 1 column 0"
    (&["eval"], "[1]", "input: "),
    (&["model"], "[1]", "input: "),
    // "tp: invalid value: integer `-2`, expected u32 at line 1 column 8"
    (&["eval"], r#"{"tp":-2}"#, "tp: "),
    // "gpus: invalid type: string \"8\", expected u32 at line 1 column 11"
    (&["eval"], r#"{"gpus":"8"}"#, "gpus: "),
    // "input: invalid type: map, expected a sequence at line 1 column 0"
    (&["table", "--stdin"], "{}", "input: "),
    // "model.hf_config.hidden_size: invalid type: string \"4096\", expected u32 at line 1 column 22"
    (
        &["model"],
        r#"{"hidden_size": "4096"}"#,
        "model.hf_config.hidden_size: ",
    ),
    // "model.hf_config.hidden_size: invalid type: sequence, expected u32 at line 1 column 37"
    (
        &["eval"],
        r#"{"model": {"hf_config": {"hidden_size": []}}}"#,
        "model.hf_config.hidden_size: ",
    ),
];

#[test]
fn badly_worded_input_errors_still_name_the_field() {
    for &(args, stdin, field) in BADLY_WORDED {
        let line = error_line(args, stdin);
        assert!(line.starts_with(field), "{args:?} <<< {stdin}: {line}");
    }
}

#[test]
fn invalid_input_exits_2_with_one_line_naming_the_field() {
    // (arguments, stdin, the whole stderr line after `parallel-lab: error: `)
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["eval"],
            "{",
            "input: not JSON: it ends early (line 1, column 1: EOF while parsing an object)",
        ),
        (
            &["eval"],
            r#"{"gpus":8,}"#,
            "input: not JSON (line 1, column 11: trailing comma)",
        ),
        (
            &["eval"],
            "not json",
            "input: not JSON (line 1, column 2: expected ident)",
        ),
        (
            &["eval"],
            r#"{"tp_size":3}"#,
            "tp_size: unknown field `tp_size`, expected one of `model`, `gpus`, \
             `gpus_per_node`, `tp`, `pp`, `cp`, `ep`, `micro_batches`, `micro_batch_size`, \
             `seq_len`, `zero`, `recompute`, `schedule`, `virtual_stages`, `precision`, \
             `gpu_memory_gb`, `nvlink_gbps`, `ib_gbps`, `order`, `accounting`, `gpu_tflops`, \
             `global_batch`, `hardware`, `hbm_tbps`, `peak_tflops`, `matmul_efficiency`, \
             `nvlink_latency_us`, `ib_latency_us`, `optimizer_offload`, `pcie_gbps`, \
             `host_memory_gb`, `rollout`, `log_probs_chunk` at line 1 column 10",
        ),
        (
            &["eval"],
            r#"{"recompute":"most"}"#,
            "recompute: unknown variant `most`, expected one of `none`, `selective`, `full` \
             at line 1 column 19",
        ),
        (
            &["eval"],
            r#"{"model":"gpt"}"#,
            "model: unknown preset \"gpt\"; valid: qwen3.8-27b, llama3-8b, llama3-70b, \
             llama3-405b, qwen3-30b-a3b, mixtral-8x7b, deepseek-v3 at line 1 column 14",
        ),
        (
            &["eval"],
            r#"{"model":{"hidden":4096}}"#,
            "model.layers: missing: an inline model needs it",
        ),
        (
            &["eval"],
            r#"{"schedule":"zigzag"}"#,
            "schedule: unknown variant `zigzag`, expected one of `gpipe`, `1f1b`, `interleaved` \
             at line 1 column 20",
        ),
        (&["eval"], r#"{"tp":0}"#, "tp: must be at least 1 (got 0)"),
        (
            &["eval"],
            r#"{"zero":4}"#,
            "zero: ZeRO stage must be 0, 1, 2 or 3 (got 4)",
        ),
        (
            &["eval"],
            r#"{"gpu_memory_gb":0}"#,
            "gpu_memory_gb: must be a positive number (got 0)",
        ),
        (
            &["eval"],
            r#"{"gpus":8,"tp":3}"#,
            "gpus: 8 GPUs do not divide by tp·pp·cp = 3·1·1 = 3",
        ),
        (
            &["eval"],
            r#"{"ep":2}"#,
            "ep: expert parallelism needs an MoE model; Qwen3.8-27B is dense",
        ),
        (
            &["eval"],
            r#"{"virtual_stages":2}"#,
            "virtual_stages: 2 model chunks per stage need the interleaved schedule \
             (schedule is 1f1b)",
        ),
        (
            &["groups", "--card", "64"],
            LESSON_64_ZERO1,
            "card: card 64 does not exist: the grid has cards 0–63",
        ),
        (
            &["groups", "--card", "x"],
            "{}",
            "--card: expected a card number 0, 1, 2, …, got `x`",
        ),
        (
            &["groups", "--card", "-1"],
            "{}",
            "--card: expected a card number 0, 1, 2, …, got `-1`",
        ),
        (
            &["groups"],
            "{}",
            "--card: missing; groups needs --card N (a card number)",
        ),
        (
            &["groups", "--card", "0"],
            r#"{"pp":3}"#,
            "gpus: 8 GPUs do not divide by tp·pp·cp = 1·3·1 = 3",
        ),
        (
            &["evaluate"],
            "",
            "command: unknown command `evaluate`; expected eval, groups, model, search, \
             defaults, table, bench or help",
        ),
        (
            &[],
            "",
            "command: missing; expected eval, groups, model, search, defaults, table, bench or \
             help (try --help)",
        ),
        (
            &["eval", "--pretty"],
            "",
            "--pretty: unknown flag for `eval` (try --help)",
        ),
        (
            &["defaults", "--card", "1"],
            "",
            "--card: unknown flag for `defaults` (try --help)",
        ),
        (
            &["table", "--format", "xml"],
            "",
            "--format: unknown format `xml`; expected md, csv or json",
        ),
        (
            &["table", "--table", "9gpu"],
            "",
            "--table: unknown table `9gpu`; expected 8gpu, 64gpu, llama3, deepseek, recipes, runs or all",
        ),
        (
            &["table", "--lang", "fr"],
            "",
            "--lang: unknown language `fr`; expected en or zh",
        ),
        (
            &["table", "--format", "csv"],
            "",
            "--table: CSV holds one table: choose it with --table 8gpu|64gpu|llama3|deepseek|recipes|runs",
        ),
        (
            &["table", "--stdin"],
            r#"[{"label":"a","config":{"tp":3}}]"#,
            "[0].config.gpus: 8 GPUs do not divide by tp·pp·cp = 3·1·1 = 3",
        ),
        (
            &["table", "--stdin"],
            r#"[{"label":"a"},{"label":"b","config":{"recompute":"most"}}]"#,
            "[1].config.recompute: unknown variant `most`, expected one of `none`, `selective`, \
             `full` at line 1 column 56",
        ),
        (
            &["table", "--stdin"],
            r#"[{"name":"a"}]"#,
            "[0].name: unknown field `name`, expected `label` or `config` at line 1 column 8",
        ),
        (
            &["eval", "--url", "#g8=tp3"],
            "",
            "--url: \"g8: tp3\": gpus: 8 GPUs do not divide by tp·pp·cp = 3·1·1 = 3",
        ),
        (
            &["eval", "--url", "#g64=tp8&x=1"],
            "",
            "--url: \"x=1\": unknown key",
        ),
        (
            &["eval", "--url", "#lang=en"],
            "",
            "--grid: the link names both grids or neither: choose --grid 8 or --grid 64",
        ),
        (
            &["eval", "--url", "#g8=z1", "--grid", "16"],
            "",
            "--grid: unknown grid `16`; expected 8 or 64",
        ),
        (&["eval", "--grid", "8"], "", "--grid: goes with --url LINK"),
        (
            &["groups", "--url", "#g64=pp2"],
            "",
            "--card: missing, and the link selects no card of that grid",
        ),
    ];
    for &(args, stdin, expected) in cases {
        assert_eq!(error_line(args, stdin), expected, "{args:?} <<< {stdin}");
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

#[test]
fn help_prints_usage_with_examples() {
    for args in [&["--help"][..], &["help"], &["-h"], &["table", "--help"]] {
        let text = stdout_of(args, "");
        for part in [
            "USAGE",
            "parallel-lab eval",
            "groups --card",
            "--format",
            "EXAMPLES",
        ] {
            assert!(text.contains(part), "{args:?} lacks {part}");
        }
    }
}

/// The cells of a Markdown pipe table's body rows.
fn markdown_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|-"))
        .skip(1)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// Parses RFC 4180 CSV (quoted fields, doubled quotes, line breaks inside quotes).
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let (mut record, mut field) = (Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(
        !quoted && field.is_empty() && record.is_empty(),
        "CSV ends mid-record"
    );
    records
}

fn rows(expected: &[&[&str]]) -> Vec<Vec<String>> {
    expected
        .iter()
        .map(|r| r.iter().map(|c| c.to_string()).collect())
        .collect()
}

#[test]
fn lesson_tables_show_the_lesson_figures() {
    // (table, format, expected body rows) — SPEC §9 and the lesson's 64-GPU and Llama 3 tables.
    let cases: &[(&str, &str, &[&[&str]])] = &[
        (
            "8gpu",
            "md",
            &[
                &[
                    "DP 8 · ZeRO-3 · full recompute",
                    "55.6 GB",
                    "2.7 GB",
                    "58.2 GB ✓",
                    "dp 145.9 GB (NVLink)",
                    "—",
                    "—",
                ],
                &[
                    "DP 8 · ZeRO-3 · selective recompute",
                    "55.6 GB",
                    "45.6 GB",
                    "101.2 GB ✗",
                    "dp 145.9 GB (NVLink)",
                    "—",
                    "—",
                ],
                &[
                    "TP 8 · selective recompute",
                    "55.6 GB",
                    "5.7 GB",
                    "61.3 GB ✓",
                    "tp 150.3 GB (NVLink)",
                    "—",
                    "—",
                ],
                &[
                    "TP 2 × PP 4 · full recompute",
                    "55.6 GB",
                    "1.3 GB",
                    "56.9 GB ✓",
                    "tp 21.5 GB (NVLink) · pp 0.7 GB (NVLink)",
                    "37.5%",
                    "27.3%",
                ],
            ],
        ),
        (
            "64gpu",
            "md",
            &[
                &[
                    "TP 8 × PP 8 · full recompute",
                    "6.9 GB",
                    "0.3 GB",
                    "7.3 GB ✓",
                    "tp 18.8 GB (NVLink) · pp 0.7 GB (IB)",
                    "87.5%",
                    "46.7%",
                ],
                &[
                    "TP 8 × PP 8 · full recompute · m = 32",
                    "6.9 GB",
                    "0.3 GB",
                    "7.3 GB ✓",
                    "tp 75.2 GB (NVLink) · pp 2.7 GB (IB)",
                    "21.9%",
                    "17.9%",
                ],
                &[
                    "TP 8 × PP 2 × DP 4 · ZeRO-1",
                    "12.2 GB",
                    "0.3 GB",
                    "12.5 GB ✓",
                    "tp 75.2 GB (NVLink) · pp 0.7 GB (IB) · dp 5.2 GB (IB)",
                    "12.5%",
                    "11.1%",
                ],
            ],
        ),
        (
            "llama3",
            "csv",
            &[
                &[
                    "GPUs",
                    "TP",
                    "CP",
                    "PP",
                    "DP",
                    "Sequence length",
                    "Batch per DP",
                    "Tokens per step (computed)",
                    "TFLOPs/GPU",
                    "BF16 MFU",
                ],
                &[
                    "8,192",
                    "8",
                    "1",
                    "16",
                    "64",
                    "8,192",
                    "32",
                    "16,777,216",
                    "430",
                    "43%",
                ],
                &[
                    "16,384",
                    "8",
                    "1",
                    "16",
                    "128",
                    "8,192",
                    "16",
                    "16,777,216",
                    "400",
                    "41%",
                ],
                &[
                    "16,384",
                    "8",
                    "16",
                    "16",
                    "8",
                    "131,072",
                    "16",
                    "16,777,216",
                    "380",
                    "38%",
                ],
            ],
        ),
        (
            "recipes",
            "csv",
            &[
                &[
                    "Model",
                    "GPUs",
                    "TP",
                    "PP",
                    "CP",
                    "EP",
                    "DP",
                    "Expert DP",
                    "Model states",
                    "Activations",
                    "Total",
                ],
                &[
                    "GLM-4.7-Flash",
                    "8",
                    "2",
                    "1",
                    "4",
                    "8",
                    "1",
                    "1",
                    "—",
                    "—",
                    "—",
                ],
                &[
                    "GLM-4.7", "64", "8", "4", "2", "16", "1", "1", "—", "—", "—",
                ],
                &[
                    "GLM-5.3", "256", "4", "8", "8", "32", "1", "1", "—", "—", "—",
                ],
                &[
                    "Qwen3.8-27B",
                    "32",
                    "4",
                    "2",
                    "4",
                    "1",
                    "1",
                    "—",
                    "24.3 GB",
                    "5.4 GB",
                    "29.7 GB ✓",
                ],
            ],
        ),
    ];
    for &(table, format, expected) in cases {
        let text = stdout_of(&["table", "--table", table, "--format", format], "");
        let actual = if format == "md" {
            markdown_rows(&text)
        } else {
            parse_csv(&text)
        };
        assert_eq!(actual, rows(expected), "{table} as {format}:\n{text}");
    }
}

#[test]
fn deepseek_row_has_its_published_layout() {
    let records = parse_csv(&stdout_of(
        &["table", "--table", "deepseek", "--format", "csv"],
        "",
    ));
    let header = &records[0];
    let row = &records[1];
    let cell = |name: &str| &row[header.iter().position(|h| h == name).unwrap()];
    for (column, value) in [
        ("GPUs", "2,048"),
        ("TP", "1"),
        ("PP", "16"),
        ("EP", "64"),
        ("DP", "128"),
        ("Expert DP", "2"),
    ] {
        assert_eq!(cell(column), value, "{column}");
    }
    assert!(cell("Comm per card per step").contains("ep "));
}

#[test]
fn all_tables_render_in_every_format_and_language() {
    let all = stdout_of(&["table"], "");
    for title in [
        "8 GPUs",
        "64 GPUs",
        "Llama 3 405B",
        "DeepSeek-V3",
        "recipes",
        "Published training runs",
    ] {
        assert!(all.contains(title), "markdown lacks {title}");
    }
    let zh = stdout_of(&["table", "--lang", "zh", "--table", "8gpu"], "");
    assert!(zh.contains("DP 8 · ZeRO-3 · 全量重计算") && zh.contains("每卡模型状态"));

    for lang in ["en", "zh"] {
        let json = json_of(&["table", "--format", "json", "--lang", lang], "");
        let tables = json["tables"].as_array().unwrap();
        let ids: Vec<&str> = tables.iter().map(|t| t["id"].as_str().unwrap()).collect();
        assert_eq!(
            ids,
            ["8gpu", "64gpu", "llama3", "deepseek", "recipes", "runs"]
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

#[test]
fn bench_smoke_run() {
    let text = stdout_of(&["bench", "--quick"], "");
    for part in [
        "ns per evaluation",
        "219,648 plans tried, 219,648 valid",
        "ns per plan",
    ] {
        assert!(text.contains(part), "bench output lacks {part}:\n{text}");
    }
}

/// A published `config.json` of the core's fixtures.
fn hf_fixture(name: &str) -> &'static str {
    match name {
        "llama3-8b" => include_str!("../../parallel-core/tests/fixtures/hf/llama3-8b.json"),
        "llama3-70b" => include_str!("../../parallel-core/tests/fixtures/hf/llama3-70b.json"),
        "mixtral-8x7b" => include_str!("../../parallel-core/tests/fixtures/hf/mixtral-8x7b.json"),
        "qwen2-7b" => include_str!("../../parallel-core/tests/fixtures/hf/qwen2-7b.json"),
        "qwen3-30b-a3b" => {
            include_str!("../../parallel-core/tests/fixtures/hf/qwen3-30b-a3b.json")
        }
        "deepseek-v3" => include_str!("../../parallel-core/tests/fixtures/hf/deepseek-v3.json"),
        other => panic!("no fixture {other}"),
    }
}

#[test]
fn model_reads_a_config_json() {
    // (fixture, params, active_params, a note)
    let cases: &[(&str, u64, u64, Option<&str>)] = &[
        ("llama3-8b", 8_030_261_248, 8_030_261_248, None),
        ("llama3-70b", 70_553_706_496, 70_553_706_496, None),
        ("mixtral-8x7b", 46_702_792_704, 12_879_925_248, None),
        (
            "qwen2-7b",
            7_615_616_512,
            7_615_616_512,
            Some("biases of q/k/v counted"),
        ),
        (
            "qwen3-30b-a3b",
            30_532_122_624,
            3_353_032_704,
            Some("q_norm and k_norm (head_dim each) counted in every layer"),
        ),
        (
            "deepseek-v3",
            671_026_419_200,
            37_552_297_472,
            Some("MTP module not counted (num_nextn_predict_layers = 1)"),
        ),
    ];
    for &(name, params, active, note) in cases {
        let out = json_of(&["model"], hf_fixture(name));
        let mut keys: Vec<&String> = out.as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(
            keys,
            ["active_params", "model", "notes", "params"],
            "{name}"
        );
        assert_eq!(out["params"].as_u64(), Some(params), "{name}");
        assert_eq!(out["active_params"].as_u64(), Some(active), "{name}");
        assert_eq!(out["model"]["params"].as_u64(), Some(params), "{name}");
        let notes: Vec<&str> = out["notes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        match note {
            Some(note) => assert!(notes.contains(&note), "{name}: {notes:?}"),
            None => assert!(notes.is_empty(), "{name}: {notes:?}"),
        }
        // The printed model is an inline model `eval` takes as it is.
        let plan = serde_json::json!({ "model": out["model"] }).to_string();
        stdout_of(&["eval"], &plan);
    }
    let mixtral = json_of(&["model"], hf_fixture("mixtral-8x7b"));
    assert_eq!(
        mixtral["model"],
        serde_json::json!({"params": 46_702_792_704u64, "hidden": 4096, "layers": 32,
            "heads": 32, "kv_heads": 8, "head_dim": 128, "full_attention_layers": 32,
            "vocab": 32000, "moe_layers": 32, "experts": 8, "top_k": 2, "expert_ffn": 14336})
    );
}

#[test]
fn eval_takes_a_config_json_model() {
    for (name, preset) in [
        ("llama3-8b", "llama3-8b"),
        ("llama3-70b", "llama3-70b"),
        ("mixtral-8x7b", "mixtral-8x7b"),
        ("qwen3-30b-a3b", "qwen3-30b-a3b"),
    ] {
        let hf: Value = serde_json::from_str(hf_fixture(name)).unwrap();
        let with_config =
            serde_json::json!({"model": {"hf_config": hf}, "gpus": 64, "tp": 8, "pp": 2});
        let with_preset = serde_json::json!({"model": preset, "gpus": 64, "tp": 8, "pp": 2});
        assert_eq!(
            stdout_of(&["eval"], &with_config.to_string()),
            stdout_of(&["eval"], &with_preset.to_string()),
            "{name}"
        );
    }
    let hf: Value = serde_json::from_str(hf_fixture("deepseek-v3")).unwrap();
    let deepseek = serde_json::json!({
        "model": {"hf_config": hf}, "gpus": 2048, "pp": 16, "ep": 64, "zero": 1
    });
    let report = json_of(&["eval"], &deepseek.to_string());
    assert!(report["comm"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["dim"] == "ep"));
}

#[test]
fn broken_config_json_exits_2_naming_the_key() {
    let llama: Value = serde_json::from_str(hf_fixture("llama3-8b")).unwrap();
    let edited = |edit: &dyn Fn(&mut serde_json::Map<String, Value>)| {
        let mut value = llama.clone();
        edit(value.as_object_mut().unwrap());
        value
    };
    let no_hidden = edited(&|c| {
        c.remove("hidden_size");
    });
    let no_heads = edited(&|c| {
        c.insert("num_attention_heads".into(), 0.into());
    });
    let mamba = edited(&|c| {
        c.insert(
            "architectures".into(),
            serde_json::json!(["MambaForCausalLM"]),
        );
    });
    let mamba_type = edited(&|c| {
        c.insert("model_type".into(), "mamba".into());
    });
    let mut mixtral: Value = serde_json::from_str(hf_fixture("mixtral-8x7b")).unwrap();
    mixtral
        .as_object_mut()
        .unwrap()
        .remove("num_experts_per_tok");
    let cases: Vec<(&[&str], String, &str)> = vec![
        (
            &["model"],
            no_hidden.to_string(),
            "model.hf_config.hidden_size: missing: the parameter counter needs it",
        ),
        (
            &["model"],
            no_heads.to_string(),
            "model.hf_config.num_attention_heads: must be at least 1 (got 0)",
        ),
        (
            &["model"],
            mixtral.to_string(),
            "model.hf_config.num_experts_per_tok: missing: the parameter counter needs it",
        ),
        (
            &["model"],
            mamba.to_string(),
            "model.hf_config.architectures: `MambaForCausalLM` is not modelled by the parameter \
             counter (supported: LlamaForCausalLM, MistralForCausalLM, MixtralForCausalLM, \
             Qwen2ForCausalLM, Qwen3ForCausalLM, Qwen2MoeForCausalLM, Qwen3MoeForCausalLM, \
             DeepseekV3ForCausalLM)",
        ),
        (
            &["model"],
            mamba_type.to_string(),
            "model.hf_config.model_type: `mamba` is not modelled by the parameter counter \
             (supported: llama)",
        ),
        (
            &["model"],
            String::new(),
            "input: empty: expected a config.json object on stdin",
        ),
        (
            &["model", "--card", "1"],
            "{}".to_string(),
            "--card: unknown flag for `model` (try --help)",
        ),
        (
            &["eval"],
            serde_json::json!({"model": {"hf_config": no_hidden}}).to_string(),
            "model.hf_config.hidden_size: missing: the parameter counter needs it",
        ),
        (
            &["eval"],
            serde_json::json!({"model": {"hf_config": llama, "layers": 2}}).to_string(),
            "model: `layers` next to `hf_config`: a config.json model takes no other field at line 1 \
             column 585",
        ),
    ];
    for (args, stdin, expected) in &cases {
        assert_eq!(&error_line(args, stdin), expected, "{args:?} <<< {stdin}");
    }
}

#[test]
fn help_shows_the_model_command() {
    let text = stdout_of(&["--help"], "");
    for part in [
        "parallel-lab model",
        "hf_config",
        "llama3-8b",
        "qwen3-30b-a3b",
        "MTP",
    ] {
        assert!(text.contains(part), "help lacks {part}");
    }
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
fn search_prints_ranked_plans_that_eval_agrees_with() {
    let r = json_of(
        &["search", "--top", "3"],
        r#"{"gpus":64,"global_batch":128}"#,
    );
    let mut keys: Vec<&String> = r.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        ["comfortable", "considered", "fitting", "plans", "valid"]
    );
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

/// `defaults`: the plan an empty input stands for, every field written out, and the presets
/// in the picker's order; each preset id is a model `eval` takes.
#[test]
fn defaults_prints_the_empty_plan_and_the_presets() {
    let defaults = json_of(&["defaults"], "");
    let config = &defaults["config"];
    assert_eq!(
        stdout_of(&["eval"], &config.to_string()),
        stdout_of(&["eval"], "{}"),
        "the defaults are the empty plan"
    );
    let fields: Vec<&str> = config
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    // Every field of PLAN but global_batch (the search's, absent by default).
    let mut every = vec![
        "model",
        "gpus",
        "gpus_per_node",
        "tp",
        "pp",
        "cp",
        "ep",
        "micro_batches",
        "micro_batch_size",
        "seq_len",
        "zero",
        "recompute",
        "schedule",
        "virtual_stages",
        "precision",
        "gpu_memory_gb",
        "nvlink_gbps",
        "ib_gbps",
        "order",
        "accounting",
        "gpu_tflops",
        "hardware",
        "hbm_tbps",
        "peak_tflops",
        "matmul_efficiency",
        "nvlink_latency_us",
        "ib_latency_us",
        "optimizer_offload",
        "pcie_gbps",
        "host_memory_gb",
        "rollout",
        "log_probs_chunk",
    ];
    every.sort_unstable();
    assert_eq!(fields, every);
    assert_eq!(config["model"], "qwen3.8-27b");
    assert_eq!(config["micro_batches"], 8);
    assert_eq!(config["recompute"], "full");
    let presets = defaults["presets"].as_array().unwrap();
    let ids: Vec<&str> = presets.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "qwen3.8-27b",
            "llama3-8b",
            "llama3-70b",
            "llama3-405b",
            "qwen3-30b-a3b",
            "mixtral-8x7b",
            "deepseek-v3"
        ]
    );
    assert_eq!(presets[0]["name"], "Qwen3.8-27B");
    for id in ids {
        let plan = serde_json::json!({"model": id, "gpus": 64, "tp": 8, "pp": 8});
        assert!(
            json_of(&["eval"], &plan.to_string())["memory"]["total"].as_f64() > Some(0.0),
            "{id}"
        );
    }
    assert!(stdout_of(&["--help"], "").contains("parallel-lab defaults"));
}

/// Each card preset against its datasheet's values (dense BF16 peak, HBM, scale-up per
/// direction, one NIC a card), as `defaults` lists it and as `eval` applies it; an explicit
/// field wins over the preset's.
#[test]
fn card_presets_carry_their_datasheet_values_and_explicit_fields_win() {
    let defaults = json_of(&["defaults"], "");
    // (id, memory GB, HBM TB/s, peak TFLOP/s, scale-up GB/s, scale-out GB/s)
    let datasheets = [
        ("lesson", 80.0, 3.35, 989.0, 160.0, 50.0),
        ("a100-80gb", 80.0, 2.039, 312.0, 300.0, 25.0),
        ("h100-sxm", 80.0, 3.35, 989.0, 450.0, 50.0),
        ("h200", 141.0, 4.8, 989.0, 450.0, 50.0),
        ("b200", 180.0, 8.0, 2250.0, 900.0, 50.0),
        ("mi300x", 192.0, 5.3, 1307.4, 448.0, 50.0),
    ];
    let listed = defaults["hardware"].as_array().unwrap();
    assert_eq!(listed.len(), datasheets.len());
    for ((id, memory, hbm, peak, up, out), entry) in datasheets.into_iter().zip(listed) {
        assert_eq!(entry["id"], id);
        let c = &entry["config"];
        let got = (
            c["gpu_memory_gb"].as_f64(),
            c["hbm_tbps"].as_f64(),
            c["peak_tflops"].as_f64(),
            c["nvlink_gbps"].as_f64(),
            c["ib_gbps"].as_f64(),
        );
        assert_eq!(
            got,
            (Some(memory), Some(hbm), Some(peak), Some(up), Some(out)),
            "{id}"
        );
        let tflops = if id == "lesson" { 400.0 } else { peak * 0.75 };
        assert_eq!(c["gpu_tflops"].as_f64(), Some(tflops), "{id}");
        // eval on the preset alone gives the same plan as eval on every field written out.
        let by_id = json_of(
            &["eval"],
            &format!(r#"{{"hardware":"{id}","gpus":64,"tp":8,"pp":8}}"#),
        );
        let mut full = c.clone();
        for (k, v) in [("gpus", 64), ("tp", 8), ("pp", 8)] {
            full[k] = v.into();
        }
        assert_eq!(by_id, json_of(&["eval"], &full.to_string()), "{id}");
    }
    // An explicit field wins; the rest still comes from the preset.
    let c = json_of(
        &["eval", "--explain"],
        r#"{"hardware":"h200","gpu_memory_gb":100}"#,
    );
    let states = c["explain"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["figure"] == "estimate-compute")
        .unwrap();
    assert!(
        states["substituted"].as_str().unwrap().contains("741.8"),
        "{states}"
    );
    let refused = run(&["eval"], r#"{"hardware":"h300"}"#);
    let error = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        error.starts_with("parallel-lab: error: hardware: ") && error.contains("`h100-sxm`"),
        "{error}"
    );
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
