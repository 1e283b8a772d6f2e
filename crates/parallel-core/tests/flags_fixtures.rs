//! Launch scripts as their engines publish them (`fixtures/launch/`, each with its repository,
//! path and commit in a header comment) read back into the plans they describe (SPEC §16).

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::flags::{flags, read_launch, Engine};
use parallel_core::{
    InlineModel, Mlp, ModelChoice, Plan, PlanConfig, PlanError, Precision, Preset, RankOrder,
    Recompute, Rollout,
};

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/launch/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Megatron-LM's defaults where a script says nothing: no recompute, ZeRO 0, FP32 gradients
/// (no --grad-reduce-in-bf16), Megatron's tp-cp-dp-pp rank order.
fn megatron_base() -> PlanConfig {
    PlanConfig {
        recompute: Recompute::None,
        precision: Precision::Fp32Grads,
        order: RankOrder::TpCpDpPp,
        ..PlanConfig::default()
    }
}

#[test]
fn megatron_gpt3_175b() {
    let script = fixture("megatron_gpt3_175b.sh");
    let gpt3 = ModelChoice::Inline(InlineModel {
        hidden: Some(12_288),
        layers: Some(96),
        heads: Some(96),
        ffn: Some(4 * 12_288),
        // No --swiglu: GPT-3's GeLU MLP, two matrices.
        mlp: Mlp::Plain,
        vocab: Some(50_257),
        tied_embeddings: true,
        ..InlineModel::default()
    });
    // "Change for multinode config": as published, one node of 8 cards, which TP 8 × PP 16
    // cannot fill.
    let read = read_launch(&script, None).unwrap();
    let expected = PlanConfig {
        model: gpt3.clone(),
        gpus: 8,
        tp: 8,
        pp: 16,
        seq_len: 2048,
        // The script has no --sequence-parallel: Megatron's default, off (SPEC §22).
        sequence_parallel: false,
        ..megatron_base()
    };
    assert_eq!(read.config, expected);
    assert_eq!(
        Plan::new(&read.config).unwrap_err(),
        PlanError::NotDivisible {
            gpus: 8,
            tp: 8,
            pp: 16,
            cp: 1
        }
    );
    assert!(read
        .notes
        .iter()
        .any(|n| n.en.contains("GPT-2 tokenizer's 50257")));
    assert_eq!(
        read.not_modelled,
        ["--step-batch-size-schedule", "--fp16", "--bf16 (absent)"]
    );
    assert!(
        read.ignored.contains(&"--lr".to_string())
            && read.ignored.contains(&"--data-path".to_string())
    );
    // On the 16 nodes the script is written for: 1,536 sequences, one micro-batch per step each.
    let read = read_launch(&script.replace("\nNUM_NODES=1\n", "\nNUM_NODES=16\n"), None).unwrap();
    assert_eq!(
        read.config,
        PlanConfig {
            gpus: 128,
            micro_batches: 1536,
            ..expected
        }
    );
    assert!(Plan::new(&read.config).is_ok());
}

#[test]
fn megatron_mixtral_8x7b_reads_as_the_preset() {
    let script = fixture("megatron_mixtral_8x7b.sh");
    let expected = PlanConfig {
        model: ModelChoice::Preset(Preset::Mixtral8x7b),
        gpus: 32,
        pp: 4,
        ep: 8,
        micro_batches: 32,
        zero: 1,
        ..megatron_base()
    };
    // NNODES=${SLURM_NNODES:-"1"}: on 4 nodes from Slurm.
    let read = read_launch(&format!("SLURM_NNODES=4\n{script}"), None).unwrap();
    assert_eq!(read.config, expected);
    assert!(read.not_modelled.is_empty(), "{:?}", read.not_modelled);
    assert!(Plan::new(&read.config).is_ok());
    // Its command again, and back.
    let again = flags(&read.config, Engine::Megatron).unwrap();
    assert_eq!(read_launch(&again.shell(), None).unwrap().config, expected);
}

#[test]
fn slime_qwen3_4b() {
    // run-qwen3-4B.sh sources models/qwen3-4B.sh for its MODEL_ARGS.
    let script = fixture("slime_models_qwen3-4B.sh") + &fixture("slime_run-qwen3-4B.sh");
    let read = read_launch(&script, None).unwrap();
    let expected = PlanConfig {
        model: ModelChoice::Inline(InlineModel {
            hidden: Some(2560),
            layers: Some(36),
            heads: Some(32),
            kv_heads: Some(8),
            head_dim: Some(128),
            ffn: Some(9728),
            vocab: Some(151_936),
            tied_embeddings: true,
            ..InlineModel::default()
        }),
        gpus: 8,
        tp: 2,
        micro_batches: 64,
        seq_len: 2048 + 8192,
        recompute: Recompute::Full,
        rollout: Some(Rollout {
            gpus_per_engine: 2,
            prompts: 32,
            samples_per_prompt: 8,
            response_len: 8192,
            ..Rollout::default()
        }),
        ..megatron_base()
    };
    assert_eq!(read.config, expected);
    assert_eq!(read.engine, Engine::Slime);
    assert_eq!(
        read.not_modelled,
        [
            "--use-dynamic-batch-size",
            "--max-tokens-per-gpu",
            "--accumulate-allreduce-grads-in-fp32",
            "--bf16 (absent)"
        ]
    );
    assert!(read.notes[0].en.starts_with("No --rollout-max-prompt-len"));
    let report = Plan::new(&read.config).unwrap().report();
    assert_eq!(report.rollout.unwrap().engines, 4);
}
