//! A rejected plan in the page's language. The core's [`PlanError`] carries the numbers of
//! each reason; English is its own `Display`, Chinese is written here from the same variant,
//! so neither language borrows a sentence from the other.

use parallel_core::PlanError;

use crate::format::thousands;
use crate::i18n::Lang;

/// The sentences around a reason.
mod text {
    use crate::text::Text;

    /// A rejected plan: the core's reason after it.
    pub const REJECTED: Text = Text {
        zh: "核心拒绝了这个方案：{reason}",
        en: "The core rejects this plan: {reason}",
    };

    #[cfg(test)]
    pub const ALL: &[&Text] = &[&REJECTED];
}

/// "The core rejects this plan: " and the reason, in `lang`.
pub fn rejected(lang: Lang, error: &PlanError) -> String {
    text::REJECTED.fill(lang, &[("reason", &explain(lang, error))])
}

/// The reason a plan is rejected, in `lang`.
pub fn explain(lang: Lang, error: &PlanError) -> String {
    match lang {
        Lang::En => error.to_string(),
        Lang::Zh => chinese(error),
    }
}

/// The Chinese name of a config field, as the controls and the lesson call it.
pub fn field_zh(field: &str) -> String {
    let name = match field {
        "model" => "模型",
        "gpus" => "卡数 N",
        "gpus_per_node" => "每节点卡数",
        "tp" => "TP（张量并行）",
        "pp" => "PP（流水线并行）",
        "cp" => "CP（上下文并行）",
        "ep" => "EP（专家并行）",
        "micro_batches" => "每步 micro-batch 数 m",
        "micro_batch_size" => "每个 micro-batch 的序列数 b",
        "seq_len" => "序列长度 s",
        "zero" => "ZeRO 阶段",
        "recompute" => "激活重计算",
        "schedule" => "流水线调度",
        "virtual_stages" => "每段模型块数 v",
        "gpu_memory_gb" => "单卡显存（GB）",
        "nvlink_gbps" => "NVLink 带宽（GB/s）",
        "ib_gbps" => "InfiniBand 带宽（GB/s）",
        "gpu_tflops" => "每卡有效算力（TFLOP/s）",
        "hardware" => "卡型",
        "hbm_tbps" => "显存带宽（TB/s）",
        "peak_tflops" => "BF16 稠密峰值算力（TFLOP/s）",
        "matmul_efficiency" => "矩阵乘效率",
        "nvlink_latency_us" => "NVLink 每步延迟（µs）",
        "ib_latency_us" => "网络每步延迟（µs）",
        "card" => "卡号",
        "tokens" => "演示的 token 数",
        "global_batch" => "全局批量（每步的序列数）",
        "hidden" => "隐藏维度 h",
        "ffn" => "FFN 宽度",
        "rollout.gpus_per_engine" => "每个推理引擎的卡数 E",
        "rollout.rollout_gpus" => "推理卡池的卡数 R",
        "rollout.prompts" => "每轮的 prompt 数",
        "rollout.samples_per_prompt" => "每个 prompt 的采样数",
        "rollout.prompt_len" => "prompt 长度",
        "rollout.response_len" => "回答长度上限",
        "rollout.kv_bytes" => "KV cache 每个值的字节数",
        other => match other.strip_prefix("model.") {
            Some(inner) => return format!("模型字段 {inner}"),
            None => return other.to_string(),
        },
    };
    name.to_string()
}

fn chinese(error: &PlanError) -> String {
    match error {
        PlanError::BelowOne { field } => format!("{}至少为 1（现在是 0）。", field_zh(field)),
        PlanError::Missing { field } if field.starts_with("model.") => {
            format!("自定义模型缺少{}。", field_zh(field))
        }
        PlanError::Missing { field } => format!("方案搜索需要{}。", field_zh(field)),
        PlanError::AtMost { field, max, got } => format!(
            "{}最大为 {}（现在是 {}）。",
            field_zh(field),
            thousands(*max),
            thousands(*got)
        ),
        PlanError::NotPositive { field, got } => {
            format!("{}必须是大于 0 的数（现在是 {got}）。", field_zh(field))
        }
        PlanError::NotAShare { field, got } => {
            format!("{}必须大于 0 且不超过 1（现在是 {got}）。", field_zh(field))
        }
        PlanError::Negative { field, got } => {
            format!("{}不能是负数（现在是 {got}）。", field_zh(field))
        }
        PlanError::ZeroStage { got } => {
            format!("ZeRO 阶段只能是 0、1、2 或 3（现在是 {got}）。")
        }
        PlanError::NotDivisible { gpus, tp, pp, cp } => format!(
            "{gpus} 张卡不能被 TP·PP·CP = {tp}·{pp}·{cp} = {} 整除。",
            u128::from(*tp) * u128::from(*pp) * u128::from(*cp)
        ),
        PlanError::ChunksNeedInterleaved {
            virtual_stages,
            schedule,
        } => {
            format!("每段 {virtual_stages} 个模型块只能配 interleaved 调度（现在是 {schedule}）。")
        }
        PlanError::InterleavedNeedsPipeline => {
            "interleaved 调度需要流水线：PP 要大于 1。".to_string()
        }
        PlanError::InterleavedMicroBatches { micro_batches, pp } => format!(
            "interleaved 调度要求 micro-batch 数能被 PP 整除：{micro_batches} 不是 {pp} 的倍数。"
        ),
        PlanError::InterleavedLayers {
            layers,
            pp,
            virtual_stages,
        } => format!(
            "interleaved 调度要求 {layers} 层（或首尾两段各少一层时的 {layers} + 2）能被 PP·v = {pp}·{virtual_stages} = {} 整除。",
            u64::from(*pp) * u64::from(*virtual_stages)
        ),
        PlanError::EpNeedsMoe { model } => {
            // An inline model (a config pasted into the page) has no name of its own.
            if model == "custom model" {
                "专家并行只用于 MoE 模型；你给出的模型是稠密模型。".to_string()
            } else {
                format!("专家并行只用于 MoE 模型；{model} 是稠密模型。")
            }
        }
        PlanError::EpNotDivisible { gpus, ep, pp } => format!(
            "{gpus} 张卡不能被 EP·PP = {ep}·{pp} = {} 整除。",
            u64::from(*ep) * u64::from(*pp)
        ),
        PlanError::ExpertsNotDivisible { experts, ep } => {
            format!("每个 MoE 层的 {experts} 个专家不能平均分到 EP = {ep} 张卡上。")
        }
        PlanError::MoreThanLayers {
            field,
            value,
            layers,
        } => format!("{} = {value}，超过了模型的 {layers} 层。", field_zh(field)),
        PlanError::TopKAboveExperts { top_k, experts } => {
            format!("每个 token 选 {top_k} 个专家，但模型只有 {experts} 个专家。")
        }
        PlanError::ParamsBelowRouted => "参数总量比它应当包含的路由专家参数还少。".to_string(),
        PlanError::NoSuchCard { card, gpus } => format!(
            "没有 {card} 号卡：这个网格只有 0–{} 号卡。",
            gpus.saturating_sub(1)
        ),
        PlanError::CpAboveSeqLen { cp, seq_len } => {
            format!("{seq_len} 个 token 分不到 {cp} 个 CP rank 上。")
        }
        PlanError::TimelineTooLarge { slots, max } => format!(
            "调度图最多画 {} 个格子，这个方案要 PP·m·v = {} 个。",
            thousands(*max),
            thousands(*slots)
        ),
        PlanError::BenchSplit { hidden, ffn, tp } => {
            format!("演示要把隐藏维度 {hidden} 和 FFN 宽度 {ffn} 都均分成 {tp} 份，分不开。")
        }
        PlanError::BenchTooLarge { max } => {
            format!("演示的每个矩阵最多 {} 个数。", thousands(*max as u64))
        }
        PlanError::RolloutPool {
            pool,
            gpus_per_engine,
            colocated,
        } => format!(
            "{}的 {} 张卡分不成每个 {} 张卡的推理引擎。",
            if *colocated { "同卡训推时训练卡" } else { "推理卡池" },
            thousands(u64::from(*pool)),
            thousands(u64::from(*gpus_per_engine))
        ),
        PlanError::RolloutTooLong {
            prompt_len,
            response_len,
            max,
        } => format!(
            "prompt 长度加回答长度上限 = {} + {} = {} 个 token，超过了上限 {}。",
            thousands(u64::from(*prompt_len)),
            thousands(u64::from(*response_len)),
            thousands(u64::from(*prompt_len) + u64::from(*response_len)),
            thousands(*max)
        ),
        PlanError::KvBytes { got } => format!(
            "KV cache 每个值的字节数只能是 1（FP8）、2（BF16）或 4（FP32），现在是 {got}。"
        ),
        PlanError::Unsupported {
            field,
            value,
            supported,
        } => format!(
            "{}为 {value}，参数计数器没有为它建模（可用：{supported}）。",
            field_zh(field)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parallel_core::ModelChoice;

    /// One error of every variant, with the numbers a student could reach.
    fn every_variant() -> Vec<PlanError> {
        vec![
            PlanError::BelowOne { field: "tp" },
            PlanError::Missing {
                field: "model.hidden",
            },
            PlanError::AtMost {
                field: "seq_len",
                max: 67_108_864,
                got: 2_147_483_648,
            },
            PlanError::NotPositive {
                field: "gpu_memory_gb",
                got: -1.0,
            },
            PlanError::NotAShare {
                field: "matmul_efficiency",
                got: 1.5,
            },
            PlanError::Negative {
                field: "ib_latency_us",
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
                field: "model.moe_layers",
                value: 70,
                layers: 61,
            },
            PlanError::TopKAboveExperts {
                top_k: 9,
                experts: 8,
            },
            PlanError::ParamsBelowRouted,
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
                field: "model.hf_config.architectures",
                value: "MambaForCausalLM".to_string(),
                supported: "LlamaForCausalLM, MixtralForCausalLM, DeepseekV3ForCausalLM",
            },
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
            | PlanError::TopKAboveExperts { .. }
            | PlanError::ParamsBelowRouted
            | PlanError::NoSuchCard { .. }
            | PlanError::CpAboveSeqLen { .. }
            | PlanError::TimelineTooLarge { .. }
            | PlanError::BenchSplit { .. }
            | PlanError::BenchTooLarge { .. }
            | PlanError::RolloutPool { .. }
            | PlanError::RolloutTooLong { .. }
            | PlanError::KvBytes { .. }
            | PlanError::Unsupported { .. } => {}
        }
    }

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let error = PlanError::InterleavedNeedsPipeline;
        crate::text::testing::assert_all_used(text::ALL, || {
            for lang in [Lang::Zh, Lang::En] {
                rejected(lang, &error);
            }
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
            explain(Lang::Zh, &missing("global_batch")),
            "方案搜索需要全局批量（每步的序列数）。"
        );
        assert_eq!(
            explain(Lang::En, &missing("global_batch")),
            "global_batch: missing: the plan search needs it"
        );
        assert_eq!(
            explain(Lang::En, &missing("model.layers")),
            "model.layers: missing: an inline model needs it"
        );
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
        assert_eq!(variants.len(), 27, "one case per variant of PlanError");
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
                    field: "seq_len",
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
}
