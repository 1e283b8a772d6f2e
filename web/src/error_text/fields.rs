//! The Chinese names of the config fields, for the reasons in `chinese`.

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
