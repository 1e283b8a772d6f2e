//! Launch flags (SPEC §16): each engine rule, broken by one plan and kept by the plan just
//! inside it; and the lesson's and seed 000's recipe plans as commands, flag by flag.

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::flags::{flags, Engine, EngineRule, LaunchError};
use parallel_core::lesson::recipes;
use parallel_core::{
    Field, InlineModel, ModelChoice, OptimizerOffload, PlanConfig, PlanError, Precision, Preset,
    RankOrder, Schedule,
};

fn refused(engine: Engine, rule: EngineRule) -> PlanError {
    PlanError::Launch(LaunchError::Refused { engine, rule })
}

/// A dense inline model with `heads` heads, `kv` KV heads and `layers` layers.
fn model(heads: u32, kv: u32, layers: u32) -> ModelChoice {
    ModelChoice::Inline(InlineModel {
        hidden: Some(heads * 64),
        layers: Some(layers),
        heads: Some(heads),
        kv_heads: Some(kv),
        ffn: Some(heads * 256),
        vocab: Some(32_000),
        ..InlineModel::default()
    })
}

#[test]
fn each_rule_refuses_just_outside_and_passes_just_inside() {
    let base = PlanConfig::default();
    let m = Engine::Megatron;
    // (engine, broken plan, its error, the plan just inside)
    let cases: Vec<(Engine, PlanConfig, PlanError, PlanConfig)> = vec![
        (
            m,
            PlanConfig {
                model: model(12, 12, 8),
                gpus: 8,
                tp: 8,
                ..base.clone()
            },
            refused(m, EngineRule::HeadsByTp { heads: 12, tp: 8 }),
            PlanConfig {
                model: model(16, 16, 8),
                gpus: 8,
                tp: 8,
                ..base.clone()
            },
        ),
        (
            m,
            PlanConfig {
                model: model(24, 6, 8),
                gpus: 8,
                tp: 8,
                ..base.clone()
            },
            refused(m, EngineRule::QueryGroupsByTp { groups: 6, tp: 8 }),
            PlanConfig {
                model: model(24, 4, 8),
                gpus: 8,
                tp: 8,
                ..base.clone()
            },
        ),
        (
            m,
            PlanConfig {
                gpus: 4,
                cp: 4,
                seq_len: 4100,
                ..base.clone()
            },
            refused(
                m,
                EngineRule::SeqByTwiceCp {
                    seq_len: 4100,
                    cp: 4,
                },
            ),
            PlanConfig {
                gpus: 4,
                cp: 4,
                seq_len: 4104,
                ..base.clone()
            },
        ),
        (
            m,
            PlanConfig {
                model: model(8, 8, 9),
                gpus: 2,
                pp: 2,
                ..base.clone()
            },
            refused(m, EngineRule::LayersByPp { layers: 9, pp: 2 }),
            PlanConfig {
                model: model(8, 8, 10),
                gpus: 2,
                pp: 2,
                ..base.clone()
            },
        ),
        (
            Engine::DeepSpeed,
            PlanConfig {
                gpus: 2,
                pp: 2,
                zero: 2,
                ..base.clone()
            },
            refused(
                Engine::DeepSpeed,
                EngineRule::PipelineZero { zero: 2, pp: 2 },
            ),
            PlanConfig {
                gpus: 2,
                pp: 2,
                zero: 1,
                ..base.clone()
            },
        ),
        // DeepSpeed 0.19.8: FP32 gradient accumulation and the host optimizer need ZeRO 1–3; the
        // pipeline engine shards the states at ZeRO 0 once d·c > 1; its MoE groups take the
        // stages as blocks, pipe outermost.
        (
            Engine::DeepSpeed,
            PlanConfig {
                gpus: 2,
                precision: Precision::Fp32Grads,
                ..base.clone()
            },
            refused(Engine::DeepSpeed, EngineRule::Fp32GradsWithoutZero),
            PlanConfig {
                gpus: 2,
                precision: Precision::Fp32Grads,
                zero: 1,
                ..base.clone()
            },
        ),
        (
            Engine::DeepSpeed,
            PlanConfig {
                gpus: 2,
                optimizer_offload: OptimizerOffload::Cpu,
                ..base.clone()
            },
            refused(Engine::DeepSpeed, EngineRule::OffloadWithoutZero),
            PlanConfig {
                gpus: 2,
                optimizer_offload: OptimizerOffload::Cpu,
                zero: 1,
                ..base.clone()
            },
        ),
        (
            Engine::DeepSpeed,
            PlanConfig {
                gpus: 4,
                pp: 2,
                ..base.clone()
            },
            refused(
                Engine::DeepSpeed,
                EngineRule::PipelineShardsStates { pp: 2, group: 2 },
            ),
            PlanConfig {
                gpus: 2,
                pp: 2,
                ..base.clone()
            },
        ),
        (
            Engine::DeepSpeed,
            PlanConfig {
                model: ModelChoice::Preset(Preset::Mixtral8x7b),
                gpus: 4,
                pp: 2,
                zero: 1,
                order: RankOrder::TpCpPpDp,
                ..base.clone()
            },
            refused(
                Engine::DeepSpeed,
                EngineRule::MoeStagesInterleaved { pp: 2, dp: 2 },
            ),
            PlanConfig {
                model: ModelChoice::Preset(Preset::Mixtral8x7b),
                gpus: 4,
                pp: 2,
                zero: 1,
                order: RankOrder::TpCpDpPp,
                ..base.clone()
            },
        ),
    ];
    for (engine, broken, error, inside) in cases {
        assert_eq!(flags(&broken, engine), Err(error.clone()), "{broken:?}");
        assert!(flags(&inside, engine).is_ok(), "{inside:?}");
        let line = error.to_string();
        assert!(
            line.starts_with(&error.field().key()) && line.contains(engine.name()),
            "{line}"
        );
    }
    // The two interleaved rules and experts over e are the lab's own checks too: Plan::new
    // refuses such a plan first, with its own error naming the same field.
    let interleaved = PlanConfig {
        gpus: 2,
        pp: 2,
        schedule: Schedule::Interleaved,
        virtual_stages: 2,
        micro_batches: 1,
        ..base.clone()
    };
    assert_eq!(
        flags(&interleaved, m).unwrap_err().field(),
        Field::MicroBatches
    );
    assert!(flags(
        &PlanConfig {
            micro_batches: 2,
            ..interleaved.clone()
        },
        m
    )
    .is_ok());
    assert_eq!(
        flags(
            &PlanConfig {
                pp: 1,
                gpus: 1,
                ..interleaved
            },
            m
        )
        .unwrap_err()
        .field(),
        Field::Schedule
    );
    let moe = PlanConfig {
        model: ModelChoice::Preset(Preset::Mixtral8x7b),
        gpus: 16,
        ep: 16,
        ..base.clone()
    };
    assert_eq!(flags(&moe, m).unwrap_err().field(), Field::Ep);
    assert!(flags(
        &PlanConfig {
            gpus: 8,
            ep: 8,
            ..moe
        },
        m
    )
    .is_ok());
    // Each rule's Chinese wording.
    let zh = refused(m, EngineRule::HeadsByTp { heads: 12, tp: 8 });
    let PlanError::Launch(launch) = zh else {
        unreachable!()
    };
    assert_eq!(
        launch.reason(parallel_core::Lang::Zh),
        "Megatron-LM 拒绝这个方案：注意力头数 12 必须是 TP = 8 的倍数"
    );
}

/// Megatron-Core's order rule (`initialize_model_parallel`): with --use-tp-pp-dp-mapping and
/// p > 1 the attention's d must equal the expert mesh's N/(etp·e·p).
#[test]
fn megatron_refuses_the_tp_pp_dp_mapping_when_the_expert_mesh_differs() {
    let m = Engine::Megatron;
    let dense = PlanConfig {
        gpus: 256,
        tp: 8,
        cp: 2,
        pp: 2,
        ..PlanConfig::default()
    };
    let err = flags(&dense, m).unwrap_err();
    assert_eq!(err.field(), Field::Order);
    let PlanError::Launch(LaunchError::Refused {
        rule:
            EngineRule::OrderDataParallel {
                attention_dp,
                expert_dp,
                moved,
            },
        ..
    }) = err
    else {
        panic!("{err:?}")
    };
    // d = 256/(8·2·2) = 8; the dense expert mesh N/(t·1·p) = 16.
    assert_eq!((attention_dp, expert_dp), (8, 16));
    assert_eq!(moved.names(), "PP/DP");
    // Megatron's own order runs it; without pipeline stages the rule does not apply.
    let pp_last = PlanConfig {
        order: RankOrder::TpCpDpPp,
        ..dense.clone()
    };
    assert!(flags(&pp_last, m).is_ok());
    assert!(flags(
        &PlanConfig {
            pp: 1,
            gpus: 128,
            ..dense.clone()
        },
        m
    )
    .is_ok());
    // At d = 1 the lab keeps the plan and writes Megatron's order, with a note.
    let one_replica = PlanConfig {
        gpus: 32,
        ..dense.clone()
    };
    let out = flags(&one_replica, m).unwrap();
    assert!(!out.args.iter().any(|a| a == "--use-tp-pp-dp-mapping"));
    assert!(out.notes.iter().any(|n| n.en.contains("tp-cp-dp-pp")));
    // MoE (expert tensor parallel 1): e must equal t·c.
    let moe = |tp: u32, cp: u32, ep: u32, gpus: u32| PlanConfig {
        model: ModelChoice::Preset(Preset::Qwen3_30bA3b),
        gpus,
        tp,
        cp,
        pp: 3,
        ep,
        seq_len: 4096,
        ..PlanConfig::default()
    };
    let refused_moe = flags(&moe(4, 1, 1, 48), m).unwrap_err();
    assert_eq!(refused_moe.field(), Field::Order, "{refused_moe:?}");
    assert!(flags(&moe(4, 1, 4, 48), m).is_ok());
    assert_eq!(
        flags(&moe(2, 2, 2, 48), m).unwrap_err().field(),
        Field::Order
    );
    assert!(flags(&moe(2, 2, 4, 48), m).is_ok());
}

/// The anchor model's flags (Qwen3.8-27B: 64 layers, 16 of them full attention).
const ANCHOR: &[&str] = &[
    "--num-layers 64",
    "--hidden-size 5120",
    "--ffn-hidden-size 17408",
    "--num-attention-heads 24",
    "--group-query-attention",
    "--num-query-groups 4",
    "--kv-channels 256",
    "--vocab-size 248320",
];

/// The rest of the anchor's flags, after the vocabulary (and its divisor where Megatron's
/// default 128·t would pad 248,320: at TP 8, 248,320/8 = 31,040 = 485·64).
const ANCHOR_TAIL: &[&str] = &[
    "--untie-embeddings-and-output-weights",
    "--swiglu",
    "--normalization RMSNorm",
    "--disable-bias-linear",
    "--position-embedding-type rope",
    "--experimental-attention-variant gated_delta_net",
    "--linear-attention-freq 4",
];

const FULL_RECOMPUTE: &[&str] = &[
    "--recompute-granularity full",
    "--recompute-method uniform",
    "--recompute-num-layers 1",
];

fn check(config: &PlanConfig, engine: Engine, expected: &[&[&str]]) {
    let text = flags(config, engine).unwrap().shell();
    let got: Vec<&str> = text
        .lines()
        .map(|l| l.trim().trim_end_matches(" \\"))
        .collect();
    let want: Vec<&str> = expected
        .iter()
        .flat_map(|part| part.iter().copied())
        .collect();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "line {i} of\n{text}");
    }
    assert_eq!(got.len(), want.len(), "{text}");
}

#[test]
fn the_lesson_s_plans_as_commands() {
    check(
        &PlanConfig::lesson_8_gpus(),
        Engine::Megatron,
        &[
            &[
                "torchrun --nnodes 1 --nproc-per-node 8 pretrain_gpt.py",
                "--tensor-model-parallel-size 1",
                "--pipeline-model-parallel-size 1",
                "--context-parallel-size 1",
                "--use-tp-pp-dp-mapping",
                "--micro-batch-size 1",
                "--global-batch-size 64",
                "--seq-length 4096",
                "--max-position-embeddings 4096",
            ],
            FULL_RECOMPUTE,
            &[
                "--use-megatron-fsdp",
                "--data-parallel-sharding-strategy optim_grads_params",
                "--ckpt-format fsdp_dtensor",
                "--bf16",
                "--grad-reduce-in-bf16",
            ],
            ANCHOR,
            ANCHOR_TAIL,
        ],
    );
    check(
        &PlanConfig::lesson_64_gpus(),
        Engine::Megatron,
        &[
            &[
                "CUDA_DEVICE_MAX_CONNECTIONS=1 torchrun --nnodes 8 --nproc-per-node 8 pretrain_gpt.py",
                "--tensor-model-parallel-size 8",
                "--pipeline-model-parallel-size 8",
                "--context-parallel-size 1",
                "--sequence-parallel",
                "--use-tp-pp-dp-mapping",
                "--micro-batch-size 1",
                "--global-batch-size 8",
                "--seq-length 4096",
                "--max-position-embeddings 4096",
            ],
            FULL_RECOMPUTE,
            &["--bf16", "--grad-reduce-in-bf16"],
            ANCHOR,
            &["--make-vocab-size-divisible-by 64"],
            ANCHOR_TAIL,
        ],
    );
}

const RECIPE_TERMS: &[&str] = &[
    "--use-distributed-optimizer",
    "--optimizer-cpu-offload",
    "--overlap-cpu-optimizer-d2h-h2d",
    "--use-precision-aware-optimizer",
    "--bf16",
    "--grad-reduce-in-bf16",
];

/// The recipes' batch: one sequence a micro-batch, 8 a step, of 2,048 + 131,072 tokens.
const RECIPE_BATCH: &[&str] = &[
    "--micro-batch-size 1",
    "--global-batch-size 8",
    "--seq-length 133120",
    "--max-position-embeddings 133120",
];

/// The recipes' rollout after the engine's size: colocated, 8 prompts × 8 samples, prompts of
/// 2,048 tokens and responses of 131,072.
const RECIPE_ROLLOUT: &[&str] = &[
    "--colocate",
    "--rollout-batch-size 8",
    "--n-samples-per-prompt 8",
    "--rollout-max-prompt-len 2048",
    "--rollout-max-response-len 131072",
    "--log-probs-chunk-size 1024",
];

#[test]
fn the_recipes_as_slime_commands() {
    let qwen = recipes()[3].config_with(ModelChoice::Preset(Preset::Qwen38_27b));
    check(
        &qwen,
        Engine::Slime,
        &[
            &[
                "CUDA_DEVICE_MAX_CONNECTIONS=1 python3 train.py",
                "--actor-num-nodes 4",
                "--actor-num-gpus-per-node 8",
                "--tensor-model-parallel-size 4",
                "--pipeline-model-parallel-size 2",
                "--context-parallel-size 4",
                "--sequence-parallel",
                // DP 1, CP 4, PP 2: Megatron-Core refuses the tp-pp-dp mapping, and at DP 1
                // its default pp-last order forms the same groups.
            ],
            RECIPE_BATCH,
            FULL_RECOMPUTE,
            RECIPE_TERMS,
            ANCHOR,
            ANCHOR_TAIL,
            &["--rollout-num-gpus-per-engine 2"],
            RECIPE_ROLLOUT,
        ],
    );
    // GLM-4.7-Flash's row (its config is not in the lab) with Qwen3-30B-A3B's 128 experts.
    let flash = recipes()[0].config_with(ModelChoice::Preset(Preset::Qwen3_30bA3b));
    check(
        &flash,
        Engine::Slime,
        &[
            &[
                "CUDA_DEVICE_MAX_CONNECTIONS=1 python3 train.py",
                "--actor-num-nodes 1",
                "--actor-num-gpus-per-node 8",
                "--tensor-model-parallel-size 2",
                "--pipeline-model-parallel-size 1",
                "--context-parallel-size 4",
                "--expert-model-parallel-size 8",
                "--expert-tensor-parallel-size 1",
                "--sequence-parallel",
                "--use-tp-pp-dp-mapping",
            ],
            RECIPE_BATCH,
            FULL_RECOMPUTE,
            RECIPE_TERMS,
            &[
                "--num-layers 48",
                "--hidden-size 2048",
                "--num-attention-heads 32",
                "--group-query-attention",
                "--num-query-groups 4",
                "--kv-channels 128",
                "--vocab-size 151936",
                // 151,936/2 = 75,968 = 1,187·64: Megatron's default 128 would pad it.
                "--make-vocab-size-divisible-by 64",
                "--untie-embeddings-and-output-weights",
                "--swiglu",
                "--normalization RMSNorm",
                "--disable-bias-linear",
                "--position-embedding-type rope",
                // Qwen3-30B-A3B's config.json: rope_theta 1,000,000, q_norm and k_norm.
                "--rotary-base 1000000",
                "--qk-layernorm",
                "--num-experts 128",
                "--moe-router-topk 8",
                "--moe-ffn-hidden-size 768",
                "--rollout-num-gpus-per-engine 8",
            ],
            RECIPE_ROLLOUT,
        ],
    );
    // DeepSpeed: the config's keys for the same recipe (CPU Adam under ZeRO 1, BF16 gradients),
    // four whole nodes, and the unit train.py passes for d = 32/(4·4·2) = 1.
    let ds = flags(&qwen, Engine::DeepSpeed).unwrap();
    assert_eq!(
        ds.args.join(" "),
        "deepspeed --hostfile hostfile --num_nodes 4 --num_gpus 8 train.py --deepspeed --deepspeed_config ds_config.json"
    );
    let config = ds.config.unwrap();
    for key in [
        "\"train_batch_size\": 8",
        "\"train_micro_batch_size_per_gpu\": 1",
        "\"gradient_accumulation_steps\": 8",
        "\"grad_accum_dtype\": \"bf16\"",
        "\"communication_data_type\": \"bf16\"",
        "\"type\": \"AdamW\"",
        "\"stage\": 1",
        "\"device\": \"cpu\"",
    ] {
        assert!(config.contains(key), "{key}: {config}");
    }
    for text in [
        "`PipelineModule(layers, topology=PipeModelDataParallelTopology(num_pp=2, num_mp=16, num_dp=1))`",
        "`get_sequence_parallel_world_size() == 4`",
    ] {
        assert!(
            ds.notes.iter().any(|n| n.en.contains(text)),
            "{text}: {:?}",
            ds.notes
        );
    }
}

#[test]
fn gpipe_and_rollout_on_megatron_are_notes() {
    let gpipe = PlanConfig {
        schedule: Schedule::Gpipe,
        gpus: 2,
        pp: 2,
        ..PlanConfig::default()
    };
    let out = flags(&gpipe, Engine::Megatron).unwrap();
    let note = out.notes.iter().find(|n| n.en.contains("GPipe")).unwrap();
    assert!(note.en.starts_with("Megatron-LM has no GPipe schedule"));
    assert!(note.zh.contains("1F1B"));
    let recipe = recipes()[3].config_with(ModelChoice::Preset(Preset::Qwen38_27b));
    let out = flags(&recipe, Engine::Megatron).unwrap();
    assert!(out.notes.iter().any(|n| n.en.contains("--engine slime")));
    assert!(!out.args.iter().any(|a| a.starts_with("--rollout")));
}
