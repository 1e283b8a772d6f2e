//! `parallel-lab flags` and `eval/groups --megatron` (SPEC §16): the command of a plan, read
//! back into the same report; refused plans and unreadable commands exit 2 naming the field.

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::{error_line, json_of, stdout_of, strings, LESSON_64_ZERO1};

/// The shell text of `flags` without its `#` notes.
fn command_of(args: &[&str], stdin: &str) -> String {
    stdout_of(args, stdin)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn json_has_engine_args_and_notes() {
    let out = json_of(&["flags", "--format", "json"], LESSON_64_ZERO1);
    assert_eq!(common::keys(&out), ["args", "engine", "notes"]);
    assert_eq!(out["engine"], "megatron");
    let args = strings(&out["args"]);
    // TP 8 before Blackwell: Megatron's validate_args wants the variable at 1.
    assert_eq!(
        &args[..7],
        [
            "CUDA_DEVICE_MAX_CONNECTIONS=1",
            "torchrun",
            "--nnodes",
            "8",
            "--nproc-per-node",
            "8",
            "pretrain_gpt.py"
        ]
    );
    for pair in [
        ["--tensor-model-parallel-size", "8"],
        ["--pipeline-model-parallel-size", "2"],
        ["--global-batch-size", "32"],
    ] {
        assert!(args.windows(2).any(|w| w == pair), "{pair:?}");
    }
    assert!(args.contains(&"--use-distributed-optimizer"));
    let ds = json_of(
        &["flags", "--format", "json", "--engine", "deepspeed"],
        LESSON_64_ZERO1,
    );
    assert_eq!(ds["config"]["zero_optimization"]["stage"], 1);
    assert_eq!(ds["config"]["train_batch_size"], 32);
    let zh = json_of(
        &["flags", "--format", "json", "--lang", "zh"],
        LESSON_64_ZERO1,
    );
    assert!(strings(&zh["notes"]).iter().any(|n| n.contains("显存")));
}

#[test]
fn a_command_reads_back_into_the_same_report() {
    for (engine, config) in [
        ("megatron", LESSON_64_ZERO1),
        (
            "slime",
            r#"{"gpus":32,"tp":4,"pp":2,"cp":4,"zero":1,"seq_len":133120,"optimizer_offload":"cpu","log_probs_chunk":1024,"rollout":{"gpus_per_engine":2}}"#,
        ),
    ] {
        let command = command_of(&["flags", "--engine", engine], config);
        let direct = json_of(&["eval"], config);
        let mut read = json_of(&["eval", "--megatron", &command], "");
        let launch = read.as_object_mut().unwrap().remove("launch").unwrap();
        assert_eq!(read, direct, "{engine}");
        assert_eq!(launch["engine"], engine);
        assert_eq!(launch["ignored"], serde_json::json!([]));
        let groups = json_of(&["groups", "--card", "5", "--megatron", &command], "");
        assert_eq!(groups, json_of(&["groups", "--card", "5"], config));
    }
}

#[test]
fn unknown_and_unmodelled_flags_are_listed() {
    let line = "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 32 --hidden-size 4096 \
        --num-attention-heads 32 --vocab-size 32000 --global-batch-size 64 --bf16 --lr 1e-4 \
        --use-dynamic-batch-size --data-path $DATA";
    let out = json_of(&["eval", "--megatron", line], "");
    assert_eq!(
        out["launch"]["ignored"],
        serde_json::json!(["--lr", "--data-path"])
    );
    assert_eq!(
        out["launch"]["not_modelled"],
        serde_json::json!(["--use-dynamic-batch-size"])
    );
    assert_eq!(out["dp"], 8);
}

#[test]
fn refusals_and_bad_commands_name_the_field() {
    for (args, stdin, start) in [
        (
            vec!["flags"],
            r#"{"gpus":16,"tp":16}"#,
            "tp: Megatron-LM refuses this plan: num_attention_heads 24",
        ),
        (
            vec!["flags", "--engine", "deepspeed"],
            r#"{"gpus":16,"pp":2,"zero":3}"#,
            "zero: DeepSpeed refuses this plan: ZeRO-2 and ZeRO-3",
        ),
        (
            vec!["flags", "--engine", "fsdp"],
            "{}",
            "--engine: unknown engine `fsdp`",
        ),
        (
            vec!["flags", "--format", "yaml"],
            "{}",
            "--format: unknown format `yaml`",
        ),
        (
            vec!["eval", "--megatron", "--tensor-model-parallel-size two"],
            "",
            "--tensor-model-parallel-size: `two` is not",
        ),
        (
            vec!["eval", "--megatron", "--num-layers 2 'open"],
            "",
            "command: a ' quote is never closed",
        ),
        (
            vec!["eval", "--megatron", "--hidden-size 64"],
            "",
            "--num-layers: missing",
        ),
        (
            vec!["eval", "--gpus", "8"],
            "",
            "--gpus: goes with --megatron",
        ),
        (vec!["eval", "--megatron"], "", "--megatron: needs a value"),
    ] {
        let line = error_line(&args, stdin);
        assert!(line.starts_with(start), "{args:?}: {line}");
    }
}
