//! `table`: the lesson's tables (SPEC §9) with their figures, as Markdown and as CSV.
#![allow(clippy::unwrap_used)]

mod common;

use common::{markdown_rows, parse_csv, stdout_of};

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
                    "Cards per engine",
                    "Response cap",
                    "Model states",
                    "Activations",
                    "Training total",
                    "Rollout per card",
                    "Shared peak",
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
                    "8",
                    "131,072",
                    "—",
                    "—",
                    "—",
                    "—",
                    "—",
                ],
                &[
                    "GLM-4.7", "64", "8", "4", "2", "16", "1", "1", "32", "131,072", "—", "—", "—",
                    "—", "—",
                ],
                &[
                    "GLM-5.3", "256", "4", "8", "8", "32", "1", "1", "64", "262,144", "—", "—",
                    "—", "—", "—",
                ],
                // Seed 000's anchor row on the recipe's terms (CPU Adam, 133,120-token
                // sequences, log-prob chunks of 1,024, engines of 2): issue 26's figures,
                // weights 27.8 GB + KV cache 17.4 GB = 45.2 GB per rollout card.
                &[
                    "Qwen3.8-27B",
                    "32",
                    "4",
                    "2",
                    "4",
                    "1",
                    "1",
                    "—",
                    "2",
                    "131,072",
                    "13.9 GB",
                    "5.5 GB",
                    "19.3 GB ✓",
                    "45.2 GB ✓",
                    "45.2 GB ✓ (rollout)",
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
