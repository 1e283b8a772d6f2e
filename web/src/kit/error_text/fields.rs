//! The Chinese names of the config fields, for the reasons in `chinese`.

use parallel_core::{BenchField, Field, RolloutField};

/// The Chinese name of a config field, as the controls and the lesson call it; a field
/// without one (a launch flag, a field the page has no control for) is named by its key.
pub fn field_zh(field: Field) -> String {
    let name = match field {
        Field::Model => "模型",
        Field::Gpus => "卡数 N",
        Field::GpusPerNode => "每节点卡数",
        Field::Tp | Field::Bench(BenchField::Tp) => "TP（张量并行）",
        Field::Pp => "PP（流水线并行）",
        Field::Cp => "CP（上下文并行）",
        Field::Ep => "EP（专家并行）",
        Field::MicroBatches => "每步 micro-batch 数 m",
        Field::MicroBatchSize => "每个 micro-batch 的序列数 b",
        Field::SeqLen => "序列长度 s",
        Field::Zero => "ZeRO 阶段",
        Field::Recompute => "激活重计算",
        Field::Schedule => "流水线调度",
        Field::VirtualStages => "每段模型块数 v",
        Field::GpuMemoryGb => "单卡显存（GB）",
        Field::NvlinkGbps => "NVLink 带宽（GB/s）",
        Field::IbGbps => "InfiniBand 带宽（GB/s）",
        Field::GpuTflops => "每卡有效算力（TFLOP/s）",
        Field::Hardware => "卡型",
        Field::HbmTbps => "显存带宽（TB/s）",
        Field::PeakTflops => "BF16 稠密峰值算力（TFLOP/s）",
        Field::MatmulEfficiency => "矩阵乘效率",
        Field::NvlinkLatencyUs => "NVLink 每步延迟（µs）",
        Field::IbLatencyUs => "网络每步延迟（µs）",
        Field::Card => "卡号",
        Field::Bench(BenchField::Tokens) => "演示的 token 数",
        Field::GlobalBatch => "全局批量（每步的序列数）",
        Field::Bench(BenchField::Hidden) => "隐藏维度 h",
        Field::Bench(BenchField::Ffn) => "FFN 宽度",
        Field::RoutingSkew => "路由不均 ρ（最热专家的负载 ÷ 均匀）",
        Field::CapacityFactor => "专家容量因子 c_f",
        Field::SequenceParallel => "序列并行（SP）",
        Field::RuntimeMemory => "运行时显存（CUDA 上下文、缓冲、分配器预留）",
        Field::SequenceSkew => "最长 micro-batch 相对 s 的倍数 σ",
        Field::InRollout(rollout) => match rollout {
            RolloutField::GpusPerEngine => "每个推理引擎的卡数 E",
            RolloutField::RolloutGpus => "推理卡池的卡数 R",
            RolloutField::Prompts => "每轮的 prompt 数",
            RolloutField::SamplesPerPrompt => "每个 prompt 的采样数",
            RolloutField::PromptLen => "prompt 长度",
            RolloutField::ResponseLen => "回答长度上限",
            RolloutField::KvBytes => "KV cache 每个值的字节数",
            RolloutField::Pool => "推理放在哪",
        },
        Field::InlineModel(inner) => return format!("模型字段 {}", inner.name()),
        Field::HfConfig(key) => return format!("模型字段 hf_config.{key}"),
        // No control of the page names these in Chinese: the key, as the config writes it.
        Field::Precision
        | Field::Order
        | Field::Accounting
        | Field::OptimizerOffload
        | Field::PcieGbps
        | Field::HostMemoryGb
        | Field::Rollout
        | Field::LogProbsChunk
        | Field::Flag(_)
        | Field::Command => return field.key(),
    };
    name.to_string()
}
