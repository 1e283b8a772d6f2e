//! The reasons in both languages: every variant listed, each in its own language, with its
//! numbers.

use super::*;
use crate::kit::text::testing::assert_each_lang_uses_all;
use parallel_core::flags::{Engine, EngineRule, LaunchError};
use parallel_core::{BenchField, Field, ModelChoice, ModelField, RolloutField};

/// One error of every variant, with the numbers a student could reach.
fn every_variant() -> Vec<PlanError> {
    vec![
        PlanError::BelowOne { field: Field::Tp },
        PlanError::Missing {
            field: Field::InlineModel(ModelField::Hidden),
        },
        PlanError::AtMost {
            field: Field::SeqLen,
            max: 67_108_864,
            got: 2_147_483_648,
        },
        PlanError::NotPositive {
            field: Field::GpuMemoryGb,
            got: -1.0,
        },
        PlanError::NotAShare {
            field: Field::MatmulEfficiency,
            got: 1.5,
        },
        PlanError::Negative {
            field: Field::IbLatencyUs,
            got: -1.0,
        },
        PlanError::ZeroStage { got: 4 },
        PlanError::NotDivisible {
            gpus: 8,
            tp: 3,
            pp: 1,
            cp: 1,
        },
        PlanError::ChunksNeedInterleaved {
            virtual_stages: 2,
            schedule: "1f1b",
        },
        PlanError::InterleavedNeedsPipeline,
        PlanError::InterleavedMicroBatches {
            micro_batches: 6,
            pp: 4,
        },
        PlanError::InterleavedLayers {
            layers: 64,
            pp: 64,
            virtual_stages: 2,
        },
        PlanError::EpNeedsMoe {
            model: "Qwen3.8-27B".to_string(),
        },
        PlanError::EpNotDivisible {
            gpus: 64,
            ep: 3,
            pp: 2,
        },
        PlanError::ExpertsNotDivisible { experts: 8, ep: 16 },
        PlanError::MoreThanLayers {
            field: Field::InlineModel(ModelField::MoeLayers),
            value: 70,
            layers: 61,
        },
        PlanError::OutOfRange {
            field: Field::GpuTflops,
            got: 1e300,
            bound: parallel_core::bounds::bound(Field::GpuTflops).unwrap(),
        },
        PlanError::NotAMultiple {
            field: Field::InlineModel(ModelField::LinearNumValueHeads),
            value: 24,
            of_field: Field::InlineModel(ModelField::LinearNumKeyHeads),
            of: 16,
        },
        PlanError::WithoutMla {
            field: Field::InlineModel(ModelField::VHeadDim),
        },
        PlanError::AboveField {
            field: Field::InlineModel(ModelField::Heads),
            value: 64,
            of_field: Field::InlineModel(ModelField::Hidden),
            of: 32,
        },
        PlanError::TopKAboveExperts {
            top_k: 9,
            experts: 8,
        },
        PlanError::ParamsOffShape {
            got: 1e15,
            floor: 1.5e9,
            ceiling: 1.6e10,
        },
        PlanError::NoSuchCard {
            card: 999,
            gpus: 64,
        },
        PlanError::CpAboveSeqLen { cp: 16, seq_len: 8 },
        PlanError::TimelineTooLarge {
            slots: 8192,
            max: 4096,
        },
        PlanError::BenchSplit {
            hidden: 6,
            ffn: 8,
            tp: 4,
        },
        PlanError::BenchTooLarge { max: 65_536 },
        PlanError::RolloutPool {
            pool: 8,
            gpus_per_engine: 3,
            colocated: true,
        },
        PlanError::RolloutTooLong {
            prompt_len: 2048,
            response_len: 67_108_864,
            max: 67_108_864,
        },
        PlanError::KvBytes { got: 3 },
        PlanError::Unsupported {
            field: Field::HfConfig("architectures"),
            value: "MambaForCausalLM".to_string(),
            supported: "LlamaForCausalLM, MixtralForCausalLM, DeepseekV3ForCausalLM",
        },
        PlanError::Launch(LaunchError::Refused {
            engine: Engine::Megatron,
            rule: EngineRule::HeadsByTp { heads: 40, tp: 16 },
        }),
    ]
}

/// Fails to compile when a variant is added without a case in `every_variant` above.
#[allow(dead_code)]
fn listed(error: &PlanError) {
    match error {
        PlanError::BelowOne { .. }
        | PlanError::Missing { .. }
        | PlanError::AtMost { .. }
        | PlanError::NotPositive { .. }
        | PlanError::NotAShare { .. }
        | PlanError::Negative { .. }
        | PlanError::ZeroStage { .. }
        | PlanError::NotDivisible { .. }
        | PlanError::ChunksNeedInterleaved { .. }
        | PlanError::InterleavedNeedsPipeline
        | PlanError::InterleavedMicroBatches { .. }
        | PlanError::InterleavedLayers { .. }
        | PlanError::EpNeedsMoe { .. }
        | PlanError::EpNotDivisible { .. }
        | PlanError::ExpertsNotDivisible { .. }
        | PlanError::MoreThanLayers { .. }
        | PlanError::NotAMultiple { .. }
        | PlanError::WithoutMla { .. }
        | PlanError::AboveField { .. }
        | PlanError::OutOfRange { .. }
        | PlanError::TopKAboveExperts { .. }
        | PlanError::ParamsOffShape { .. }
        | PlanError::NoSuchCard { .. }
        | PlanError::CpAboveSeqLen { .. }
        | PlanError::TimelineTooLarge { .. }
        | PlanError::BenchSplit { .. }
        | PlanError::BenchTooLarge { .. }
        | PlanError::RolloutPool { .. }
        | PlanError::RolloutTooLong { .. }
        | PlanError::KvBytes { .. }
        | PlanError::Unsupported { .. }
        | PlanError::Launch(_) => {}
    }
}

#[test]
fn every_sentence_is_filled_with_its_names() {
    let error = PlanError::InterleavedNeedsPipeline;
    assert_each_lang_uses_all(text::ALL, |lang| {
        rejected(lang, &error);
    });
    assert_eq!(
        rejected(Lang::Zh, &error),
        "核心拒绝了这个方案：interleaved 调度需要流水线：PP 要大于 1。"
    );
    assert_eq!(
        rejected(Lang::En, &error),
        format!("The core rejects this plan: {error}")
    );
}

#[test]
fn a_missing_field_says_who_needs_it() {
    let missing = |field| PlanError::Missing { field };
    assert_eq!(
        explain(Lang::Zh, &missing(Field::GlobalBatch)),
        "方案搜索需要全局批量（每步的序列数）。"
    );
    assert_eq!(
        explain(Lang::En, &missing(Field::GlobalBatch)),
        "global_batch: missing: the plan search needs it"
    );
    assert_eq!(
        explain(Lang::En, &missing(Field::InlineModel(ModelField::Layers))),
        "model.layers: missing: an inline model needs it"
    );
}

#[test]
fn fields_are_named_in_chinese_or_by_their_key() {
    assert_eq!(field_zh(Field::Tp), "TP（张量并行）");
    assert_eq!(field_zh(Field::Bench(BenchField::Tp)), field_zh(Field::Tp));
    assert_eq!(
        field_zh(Field::Bench(BenchField::Tokens)),
        "演示的 token 数"
    );
    assert_eq!(
        field_zh(Field::InRollout(RolloutField::KvBytes)),
        "KV cache 每个值的字节数"
    );
    assert_eq!(
        field_zh(Field::InlineModel(ModelField::TopK)),
        "模型字段 top_k"
    );
    assert_eq!(
        field_zh(Field::HfConfig("head_dim")),
        "模型字段 hf_config.head_dim"
    );
    assert_eq!(field_zh(Field::LogProbsChunk), "log_probs_chunk");
    assert_eq!(field_zh(Field::Flag("--num-layers")), "--num-layers");
}

#[test]
fn a_pasted_model_is_named_in_chinese() {
    let error = PlanError::EpNeedsMoe {
        model: ModelChoice::Inline(Default::default()).label().to_string(),
    };
    assert_eq!(
        explain(Lang::Zh, &error),
        "专家并行只用于 MoE 模型；你给出的模型是稠密模型。"
    );
}

#[test]
fn every_variant_is_listed_once() {
    let variants = every_variant();
    let mut kinds: Vec<_> = variants.iter().map(std::mem::discriminant).collect();
    kinds.dedup();
    assert_eq!(kinds.len(), variants.len());
    assert_eq!(variants.len(), 32, "one case per variant of PlanError");
}

use parallel_core::lang::has_cjk;

/// English words of the core's reasons that must never reach the Chinese text.
const ENGLISH_WORDS: &[&str] = &[
    "must",
    "divide",
    "GPUs",
    "need",
    "least",
    "most",
    "got",
    "missing",
    "model's",
    "more than",
    "does not",
    "cannot",
    "exist",
    "ranks",
    "numbers",
    "splits",
    "positive",
    "stage must",
    "dense",
    "parallelism",
];

#[test]
fn every_variant_reads_in_its_own_language() {
    for error in every_variant() {
        let en = explain(Lang::En, &error);
        let zh = explain(Lang::Zh, &error);
        assert!(!has_cjk(&en), "English text with CJK: {en}");
        assert!(en.starts_with(&format!("{}: ", error.field())), "{en}");
        assert!(has_cjk(&zh), "Chinese text without Chinese: {zh}");
        assert!(
            !zh.contains(&error.reason()),
            "Chinese text quotes the English: {zh}"
        );
        for word in ENGLISH_WORDS {
            assert!(
                !zh.contains(word),
                "Chinese text `{zh}` has the English `{word}`"
            );
        }
    }
}

#[test]
fn the_numbers_of_each_reason_appear_in_both_languages() {
    let cases: Vec<(PlanError, &[&str], &[&str])> = vec![
        (
            PlanError::NotDivisible {
                gpus: 8,
                tp: 3,
                pp: 1,
                cp: 1,
            },
            &["8 张卡", "3·1·1 = 3"],
            &["8 GPUs", "3·1·1 = 3"],
        ),
        (
            PlanError::AtMost {
                field: Field::SeqLen,
                max: 131_072,
                got: 262_144,
            },
            &["序列长度 s", "131,072", "262,144"],
            &["seq_len", "131072", "262144"],
        ),
        (
            PlanError::InterleavedMicroBatches {
                micro_batches: 6,
                pp: 4,
            },
            &["6 不是 4 的倍数"],
            &["6 is not a multiple of 4"],
        ),
        (
            PlanError::InterleavedLayers {
                layers: 64,
                pp: 64,
                virtual_stages: 2,
            },
            &["64 层", "64·2 = 128"],
            &["64 layers", "64·2 = 128"],
        ),
        (
            PlanError::InterleavedNeedsPipeline,
            &["PP 要大于 1"],
            &["pp must be above 1"],
        ),
    ];
    for (error, zh_parts, en_parts) in cases {
        let zh = explain(Lang::Zh, &error);
        let en = explain(Lang::En, &error);
        for part in zh_parts {
            assert!(zh.contains(part), "`{zh}` lacks `{part}`");
        }
        for part in en_parts {
            assert!(en.contains(part), "`{en}` lacks `{part}`");
        }
    }
}
