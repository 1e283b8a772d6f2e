//! Bad input of every command: exit 2, nothing on stdout, one stderr line naming the field.
#![allow(clippy::unwrap_used)]

mod common;

use common::{error_line, LESSON_64_ZERO1};

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
             `host_memory_gb`, `rollout`, `log_probs_chunk`, `routing_skew`, `capacity_factor`, `sequence_parallel`, `runtime_memory`, `sequence_skew` at line 1 column 10",
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
            "command: unknown command `evaluate`; expected eval, groups, flags, check, model, search, \
             balance, defaults, table, bench or help",
        ),
        (
            &[],
            "",
            "command: missing; expected eval, groups, flags, check, model, search, balance, defaults, \
             table, bench or help (try --help)",
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
