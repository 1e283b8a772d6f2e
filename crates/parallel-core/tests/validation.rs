//! Bad input gets an error naming the field (SPEC §2), in the order of the config table;
//! soft problems are warnings beside a still-valid result.

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::{evaluate, PlanConfig, Warning};

fn parse(json: &str) -> Result<PlanConfig, serde_json::Error> {
    serde_json::from_str(json)
}

/// `json` must be rejected, naming `field` (serde errors must mention it too).
fn check_error(json: &str, field: &str) {
    match parse(json) {
        Err(e) => assert!(
            e.to_string().contains(field),
            "{json}: parse error should name `{field}`: {e}"
        ),
        Ok(config) => {
            let err = evaluate(&config).expect_err(json);
            assert_eq!(err.field().to_string(), field, "{json}: {err}");
            assert!(!err.reason().is_empty());
            assert!(!err.to_string().contains('\n'), "one line: {err}");
        }
    }
}

#[test]
fn errors_name_the_field() {
    let cases = [
        (r#"{"tp_size": 2}"#, "tp_size"),
        (r#"{"model": "gpt-9"}"#, "gpt-9"),
        (r#"{"gpus": 0}"#, "gpus"),
        (r#"{"gpus_per_node": 0}"#, "gpus_per_node"),
        (r#"{"tp": 0}"#, "tp"),
        (r#"{"pp": 0}"#, "pp"),
        (r#"{"cp": 0}"#, "cp"),
        (r#"{"ep": 0}"#, "ep"),
        (r#"{"micro_batches": 0}"#, "micro_batches"),
        (r#"{"micro_batch_size": 0}"#, "micro_batch_size"),
        (r#"{"seq_len": 0}"#, "seq_len"),
        (r#"{"zero": 4}"#, "zero"),
        (r#"{"virtual_stages": 0}"#, "virtual_stages"),
        (r#"{"gpu_memory_gb": 0}"#, "gpu_memory_gb"),
        (r#"{"nvlink_gbps": -1}"#, "nvlink_gbps"),
        (r#"{"ib_gbps": 0}"#, "ib_gbps"),
        (r#"{"gpus": 8, "tp": 3}"#, "gpus"),
        (r#"{"gpus": 8, "tp": 16}"#, "gpus"),
        (r#"{"virtual_stages": 2}"#, "virtual_stages"),
        (r#"{"schedule": "interleaved"}"#, "schedule"),
        (
            r#"{"schedule": "interleaved", "pp": 4, "micro_batches": 6}"#,
            "micro_batches",
        ),
        (
            r#"{"schedule": "interleaved", "pp": 4, "virtual_stages": 32}"#,
            "virtual_stages",
        ),
        (r#"{"ep": 2}"#, "ep"),
        (
            r#"{"model": "deepseek-v3", "gpus": 64, "pp": 4, "ep": 32}"#,
            "ep",
        ),
        (r#"{"gpus": 2000000}"#, "gpus"),
        (r#"{"model": {"hidden": 64}}"#, "model.layers"),
        (
            r#"{"model": {"hidden": 64, "layers": 2, "heads": 4, "ffn": 256}}"#,
            "model.vocab",
        ),
        (r#"{"model": {"hidden": 64, "layerz": 2}}"#, "layerz"),
    ];
    for (json, field) in cases {
        check_error(json, field);
    }
}

#[test]
fn first_problem_in_table_order_wins() {
    // tp and zero are both wrong: tp comes first in the table.
    check_error(r#"{"tp": 0, "zero": 9}"#, "tp");
    // A field error beats a divisibility error.
    check_error(r#"{"tp": 3, "seq_len": 0}"#, "seq_len");
}

#[test]
fn warnings_leave_the_result_valid() {
    let config = PlanConfig {
        gpus: 32,
        tp: 16,
        pp: 2,
        cp: 1,
        ..PlanConfig::default()
    };
    let report = evaluate(&config).expect("valid with warnings");
    assert!(report.warnings.contains(&Warning::TpAcrossNodes {
        tp: 16,
        gpus_per_node: 8
    }));

    let config = PlanConfig {
        pp: 8,
        seq_len: 4095,
        cp: 1,
        ..PlanConfig::default()
    };
    assert!(evaluate(&config).expect("valid").warnings.is_empty());

    let config = PlanConfig {
        gpus: 24,
        pp: 3,
        cp: 2,
        seq_len: 4098,
        ..PlanConfig::default()
    };
    let warnings = evaluate(&config).expect("valid").warnings;
    assert_eq!(
        warnings,
        [
            Warning::LayersNotDivisible { layers: 64, pp: 3 },
            Warning::ZigzagPadding {
                seq_len: 4098,
                cp: 2
            },
        ]
    );
    assert!(warnings.iter().all(|w| !w.to_string().is_empty()));
}

#[test]
fn config_round_trips_through_json() {
    let config = PlanConfig::lesson_64_zero1();
    let json = serde_json::to_string(&config).expect("serialize");
    assert!(json.contains(r#""model":"qwen3.8-27b""#), "{json}");
    assert!(json.contains(r#""schedule":"1f1b""#), "{json}");
    assert_eq!(parse(&json).expect("parse"), config);
    assert_eq!(parse("{}").expect("defaults"), PlanConfig::default());
}

#[test]
fn moe_plan_of_deepseek_v3() {
    let config = parallel_core::lesson::deepseek_v3_plan();
    let plan = parallel_core::Plan::new(&config).expect("valid");
    assert_eq!(plan.degrees().dp, 128);
    assert_eq!(plan.degrees().expert_dp, Some(2));
    let report = plan.report();
    let dims: Vec<&str> = report.comm.iter().map(|t| t.dim.as_str()).collect();
    assert_eq!(dims, ["ep", "pp", "dp", "edp"]);
    let ep = &report.comm[0];
    assert_eq!(ep.group_size, 64);
    assert_eq!(ep.link, parallel_core::Link::InfiniBand); // 64 cards span 8 nodes
    let edp = &report.comm[3];
    assert_eq!(edp.group_size, 2);
    // Routed experts of one card: 653.9e9 / (64 · 16) parameters.
    let groups = plan.grid().groups(0).expect("card 0");
    assert_eq!(groups.ep.as_ref().map(Vec::len), Some(64));
}

/// Each rejection is a variant carrying the numbers the page words it with.
#[test]
fn errors_carry_their_numbers() {
    use parallel_core::{Field, PlanError};
    let cases: Vec<(&str, PlanError)> = vec![
        (
            r#"{"gpus": 8, "tp": 3}"#,
            PlanError::NotDivisible {
                gpus: 8,
                tp: 3,
                pp: 1,
                cp: 1,
            },
        ),
        (
            r#"{"seq_len": 2147483648}"#,
            PlanError::AtMost {
                field: Field::SeqLen,
                max: 1 << 26,
                got: 1 << 31,
            },
        ),
        (r#"{"tp": 0}"#, PlanError::BelowOne { field: Field::Tp }),
        (r#"{"zero": 4}"#, PlanError::ZeroStage { got: 4 }),
        (
            r#"{"gpu_memory_gb": -1}"#,
            PlanError::NotPositive {
                field: Field::GpuMemoryGb,
                got: -1.0,
            },
        ),
        (
            r#"{"virtual_stages": 2}"#,
            PlanError::ChunksNeedInterleaved {
                virtual_stages: 2,
                schedule: "1f1b",
            },
        ),
        (
            r#"{"schedule": "interleaved"}"#,
            PlanError::InterleavedNeedsPipeline,
        ),
        (
            r#"{"gpus": 64, "pp": 4, "micro_batches": 6, "schedule": "interleaved", "virtual_stages": 2}"#,
            PlanError::InterleavedMicroBatches {
                micro_batches: 6,
                pp: 4,
            },
        ),
        (
            r#"{"gpus": 64, "pp": 64, "micro_batches": 64, "schedule": "interleaved", "virtual_stages": 2}"#,
            PlanError::InterleavedLayers {
                layers: 64,
                pp: 64,
                virtual_stages: 2,
            },
        ),
        (
            r#"{"ep": 2}"#,
            PlanError::EpNeedsMoe {
                model: "Qwen3.8-27B".to_string(),
            },
        ),
        (
            r#"{"model": "deepseek-v3", "gpus": 64, "ep": 3}"#,
            PlanError::EpNotDivisible {
                gpus: 64,
                ep: 3,
                pp: 1,
            },
        ),
    ];
    for (json, expected) in cases {
        let err = evaluate(&parse(json).unwrap()).expect_err(json);
        assert_eq!(err, expected, "{json}");
        assert_eq!(
            err.to_string(),
            format!("{}: {}", err.field(), err.reason())
        );
    }
}
