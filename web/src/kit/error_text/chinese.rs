//! The reason a plan is rejected, in Chinese: one sentence per variant of [`PlanError`],
//! written from the variant's numbers (English is the core's own `Display`).

use parallel_core::numbers::{self, quoted};
use parallel_core::{Field, Lang, PlanError};

use super::fields::field_zh;
use crate::kit::format::thousands;

pub(super) fn chinese(error: &PlanError) -> String {
    match error {
        PlanError::BelowOne { field } => format!("{}至少为 1（现在是 0）。", field_zh(*field)),
        PlanError::Missing {
            field: field @ (Field::InlineModel(_) | Field::HfConfig(_)),
        } => format!("自定义模型缺少{}。", field_zh(*field)),
        PlanError::Missing { field } => format!("方案搜索需要{}。", field_zh(*field)),
        PlanError::AtMost { field, max, got } => format!(
            "{}最大为 {}（现在是 {}）。",
            field_zh(*field),
            thousands(*max),
            thousands(*got)
        ),
        PlanError::NotPositive { field, got } => {
            format!("{}必须是大于 0 的数（现在是 {}）。", field_zh(*field), quoted(*got))
        }
        PlanError::NotAShare { field, got } => {
            format!("{}必须大于 0 且不超过 1（现在是 {}）。", field_zh(*field), quoted(*got))
        }
        PlanError::Negative { field, got } => {
            format!("{}不能是负数（现在是 {}）。", field_zh(*field), quoted(*got))
        }
        PlanError::OutOfRange { field, got, bound } => {
            format!("{}{}。", field_zh(*field), bound.reason(Lang::Zh, *got))
        }
        PlanError::ZeroStage { got } => {
            format!("ZeRO 阶段只能是 0、1、2 或 3（现在是 {got}）。")
        }
        PlanError::NotDivisible { gpus, tp, pp, cp } => format!(
            "{gpus} 张卡不能被 TP·PP·CP = {tp}·{pp}·{cp} = {} 整除。",
            derived(error)
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
            derived(error)
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
            derived(error)
        ),
        PlanError::ExpertsNotDivisible { experts, ep } => {
            format!("每个 MoE 层的 {experts} 个专家不能平均分到 EP = {ep} 张卡上。")
        }
        PlanError::MoreThanLayers {
            field,
            value,
            layers,
        } => format!("{} = {value}，超过了模型的 {layers} 层。", field_zh(*field)),
        PlanError::NotAMultiple {
            field,
            value,
            of_field,
            of,
        } => format!(
            "{} = {value}，不是{} = {of} 的倍数。",
            field_zh(*field),
            field_zh(*of_field)
        ),
        PlanError::AboveField {
            field,
            value,
            of_field,
            of,
        } => format!(
            "{} = {value}，超过了{} = {of}。",
            field_zh(*field),
            field_zh(*of_field)
        ),
        PlanError::WithoutMla { field } => format!(
            "{}是 MLA 的维度：需要同时给出 kv_lora_rank 和 qk_rope_head_dim。",
            field_zh(*field)
        ),
        PlanError::TopKAboveExperts { top_k, experts } => {
            format!("每个 token 选 {top_k} 个专家，但模型只有 {experts} 个专家。")
        }
        PlanError::ParamsOffShape {
            got,
            floor,
            ceiling,
        } => format!(
            "参数总量必须在 {}（它的嵌入、归一化和路由专家本身）到 {}（按形状计数的 10 倍）之间（现在是 {}）。",
            quoted(*floor),
            quoted(*ceiling),
            quoted(*got)
        ),
        PlanError::NoSuchCard { card, .. } => format!(
            "没有 {card} 号卡：这个网格只有 0–{} 号卡。",
            derived(error)
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
            numbers::thousands(derived(error) as f64),
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
            field_zh(*field)
        ),
        // Launch flags (SPEC §16) word their Chinese in the core, beside the English.
        PlanError::Launch(launch) => format!("{}。", launch.reason(parallel_core::Lang::Zh)),
    }
}

/// The number `error`'s reason computes from its own ([`PlanError::derived`]): a product, the
/// last card, a sequence's tokens.
fn derived(error: &PlanError) -> u128 {
    error.derived().unwrap_or_default()
}
