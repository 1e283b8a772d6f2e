//! The published runs, copied from their sources. Each number here is a source's, with the
//! table it stands in; the plans are the runs as the lab writes them, with what had to be
//! approximated said in the run's notes.

use super::kinds::{Counting, Figure, Published, Run};
use super::torchtitan::torchtitan;
use crate::config::{PlanConfig, Precision, Recompute, Schedule};
use crate::hardware::Hardware;
use crate::lesson::llama3_runs;
use crate::model::{InlineModel, Mlp, ModelChoice};

const LLAMA3: &str = "Llama 3 (arXiv 2407.21783) Table 4";
const NARAYANAN: &str = "Narayanan et al. 2021 (arXiv 2104.04473) Table 1";
const KORTHIKANTI: &str = "Korthikanti et al. 2022 (arXiv 2205.05198) Tables 3 and 5";

/// A GPT model of Narayanan et al. 2021 and Korthikanti et al. 2022: h, l, a as in their
/// tables, a plain 4h MLP (h → 4h → h with a GeLU), V = 51,200, s = 2,048, and P from Narayanan et al.'s eq. 2,
/// P = 12·l·h²·(1 + 13/(12h) + (V + s)/(12·l·h)).
fn gpt(hidden: u32, layers: u32, heads: u32) -> ModelChoice {
    let (h, l, v, s) = (f64::from(hidden), f64::from(layers), 51_200.0, 2048.0);
    let params = 12.0 * l * h * h * (1.0 + 13.0 / (12.0 * h) + (v + s) / (12.0 * l * h));
    ModelChoice::Inline(InlineModel {
        params: Some(params.round() as u64),
        hidden: Some(hidden),
        layers: Some(layers),
        heads: Some(heads),
        kv_heads: Some(heads),
        head_dim: Some(hidden / heads),
        ffn: Some(4 * hidden),
        mlp: Mlp::Plain,
        vocab: Some(51_200),
        ..InlineModel::default()
    })
}

/// One row of Narayanan et al. 2021, Table 1: (h, a, l, t, p, N, batch, TFLOP/s, % of peak).
type NarayananRow = (u32, u32, u32, u32, u32, u32, u32, f64, f64);

/// Table 1 as published (A100 80 GB, s = 2,048, V = 51,200).
const NARAYANAN_TABLE_1: [NarayananRow; 10] = [
    (2304, 24, 24, 1, 1, 32, 512, 137.0, 0.44),
    (3072, 32, 30, 2, 1, 64, 512, 138.0, 0.44),
    (4096, 32, 36, 4, 1, 128, 512, 142.0, 0.46),
    (6144, 48, 40, 8, 1, 256, 1024, 135.0, 0.43),
    (8192, 64, 48, 8, 2, 512, 1536, 138.0, 0.44),
    (10240, 80, 60, 8, 4, 1024, 1792, 140.0, 0.45),
    (12288, 96, 80, 8, 8, 1536, 2304, 148.0, 0.47),
    (16384, 128, 96, 8, 16, 1920, 2160, 155.0, 0.50),
    (20480, 128, 105, 8, 35, 2520, 2520, 163.0, 0.52),
    (25600, 160, 128, 8, 64, 3072, 3072, 163.0, 0.52),
];

const NARAYANAN_IDS: [&str; 10] = [
    "narayanan-1.7b",
    "narayanan-3.6b",
    "narayanan-7.5b",
    "narayanan-18.4b",
    "narayanan-39.1b",
    "narayanan-76.1b",
    "narayanan-145.6b",
    "narayanan-310.1b",
    "narayanan-529.6b",
    "narayanan-1008b",
];

const NARAYANAN_LABELS: [(&str, &str); 10] = [
    (
        "GPT 1.7B · 32 张 A100 · DP 32",
        "GPT 1.7B · 32 A100 · DP 32",
    ),
    ("GPT 3.6B · 64 张 A100 · TP 2", "GPT 3.6B · 64 A100 · TP 2"),
    (
        "GPT 7.5B · 128 张 A100 · TP 4",
        "GPT 7.5B · 128 A100 · TP 4",
    ),
    (
        "GPT 18.4B · 256 张 A100 · TP 8",
        "GPT 18.4B · 256 A100 · TP 8",
    ),
    (
        "GPT 39.1B · 512 张 A100 · TP 8 × PP 2",
        "GPT 39.1B · 512 A100 · TP 8 × PP 2",
    ),
    (
        "GPT 76.1B · 1,024 张 A100 · TP 8 × PP 4",
        "GPT 76.1B · 1,024 A100 · TP 8 × PP 4",
    ),
    (
        "GPT 145.6B · 1,536 张 A100 · TP 8 × PP 8",
        "GPT 145.6B · 1,536 A100 · TP 8 × PP 8",
    ),
    (
        "GPT 310.1B · 1,920 张 A100 · TP 8 × PP 16",
        "GPT 310.1B · 1,920 A100 · TP 8 × PP 16",
    ),
    (
        "GPT 529.6B · 2,520 张 A100 · TP 8 × PP 35",
        "GPT 529.6B · 2,520 A100 · TP 8 × PP 35",
    ),
    (
        "GPT 1008B · 3,072 张 A100 · TP 8 × PP 64",
        "GPT 1008B · 3,072 A100 · TP 8 × PP 64",
    ),
];

const NARAYANAN_NOTES: (&str, &str) = (
    "按论文式 (3) 计 FLOPs（含全量重计算多跑的一次前向），与论文的「每卡 TFLOP/s」同口径。\
     论文用 interleaved 调度但未给每段块数，micro-batch 大小也未列出：实验室按 1F1B、b = 1 计，\
     气泡偏大。数据并行不用 ZeRO（ZeRO-0）。A100 的矩阵乘按 H200 实测表借用（按 A100 的有效算力缩放），\
     注意力按 FlashAttention-2 的 A100 速率；而 2021 年的这些实测还没有 FlashAttention（融合 softmax \
     仍要写出注意力分数），所以实验室在注意力上偏快。未计：数据加载、日志（论文的吞吐是端到端的）。",
    "FLOPs counted by the paper's eq. 3 (full recompute's extra forward included), as its \
     TFLOP/s per GPU are. The paper runs the interleaved schedule without giving its chunks \
     per stage, nor the micro-batch size: the lab runs 1F1B with b = 1, a larger bubble. Data \
     parallelism without ZeRO (ZeRO-0). The A100's GEMMs borrow the H200 tables (scaled to the \
     A100's effective rate) and its attention runs at FlashAttention-2's A100 rates, while these \
     2021 runs predate FlashAttention (the fused softmax still writes the scores out), so the \
     lab is quick on attention. Left out: data loading, logging (the paper's throughput is end \
     to end).",
);

fn narayanan() -> impl Iterator<Item = Run> {
    NARAYANAN_TABLE_1
        .into_iter()
        .zip(NARAYANAN_IDS.into_iter().zip(NARAYANAN_LABELS))
        .map(
            |((h, a, l, t, p, gpus, batch, tflops, peak), (id, label))| {
                let dp = gpus / (t * p);
                Run {
                    id,
                    source: NARAYANAN,
                    label,
                    config: PlanConfig {
                        model: gpt(h, l, a),
                        gpus,
                        tp: t,
                        pp: p,
                        seq_len: 2048,
                        micro_batches: batch / dp,
                        recompute: Recompute::Full,
                        ..PlanConfig::on(Hardware::A100)
                    },
                    published: Published {
                        value: peak,
                        figure: Figure::Utilisation(Counting::MegatronWithRecompute),
                        tflops_per_gpu: Some(tflops),
                        memory_gib: None,
                    },
                    notes: NARAYANAN_NOTES,
                }
            },
        )
}

const KORTHIKANTI_NOTES: (&str, &str) = (
    "「本文方法」= 选择性重计算 + 序列并行，对应实验室的 selective；175B 与 530B 按论文用 3 块 \
     interleaved。MFU 按 PaLM 的口径（注意力不按因果减半）。没有数据并行（论文表 3 注明）。\
     A100 的矩阵乘借用 H200 实测表，注意力按 FlashAttention-2 的 A100 速率，而 2022 年的实测用的是\
     融合 softmax（要写出注意力分数），实验室在注意力上偏快。未计：内核启动、数据加载。",
    "\"Present work\" = selective recompute + sequence parallelism, the lab's selective; 175B \
     and 530B run 3 interleaved chunks as the paper says. MFU counted as PaLM does (attention \
     not halved for causality). No data parallelism (the paper's Table 3 says so). The A100's \
     GEMMs borrow the H200 tables and its attention runs at FlashAttention-2's A100 rates, while \
     the 2022 runs used a fused softmax that writes the scores out, so the lab is quick on \
     attention. Left out: kernel launches, data loading.",
);

/// Korthikanti et al. 2022: Table 3's configs (h, a, l, p, N, global batch, micro-batch,
/// chunks per stage) and Table 5's MFU of "present work".
type KorthikantiRow = (
    &'static str,
    (&'static str, &'static str),
    u32,
    u32,
    u32,
    u32,
    u32,
    u32,
    u32,
    u32,
    f64,
);

const KORTHIKANTI_TABLES: [KorthikantiRow; 4] = [
    (
        "korthikanti-22b",
        ("GPT 22B · 8 张 A100 · TP 8", "GPT 22B · 8 A100 · TP 8"),
        6144,
        64,
        48,
        1,
        8,
        4,
        4,
        1,
        0.415,
    ),
    (
        "korthikanti-175b",
        (
            "GPT-3 175B · 64 张 A100 · TP 8 × PP 8",
            "GPT-3 175B · 64 A100 · TP 8 × PP 8",
        ),
        12288,
        96,
        96,
        8,
        64,
        64,
        1,
        3,
        0.514,
    ),
    (
        "korthikanti-530b",
        (
            "MT-NLG 530B · 280 张 A100 · TP 8 × PP 35",
            "MT-NLG 530B · 280 A100 · TP 8 × PP 35",
        ),
        20480,
        128,
        105,
        35,
        280,
        280,
        1,
        3,
        0.560,
    ),
    (
        "korthikanti-1t",
        (
            "GPT 1T · 512 张 A100 · TP 8 × PP 64",
            "GPT 1T · 512 A100 · TP 8 × PP 64",
        ),
        25600,
        160,
        128,
        64,
        512,
        512,
        1,
        1,
        0.563,
    ),
];

fn korthikanti() -> impl Iterator<Item = Run> {
    KORTHIKANTI_TABLES.into_iter().map(
        |(id, label, h, a, l, p, gpus, batch, micro_batch, chunks, mfu)| Run {
            id,
            source: KORTHIKANTI,
            label,
            config: PlanConfig {
                model: gpt(h, l, a),
                gpus,
                tp: 8,
                pp: p,
                seq_len: 2048,
                micro_batch_size: micro_batch,
                // No data parallelism (Table 3): m = global batch / b.
                micro_batches: batch / micro_batch,
                recompute: Recompute::Selective,
                schedule: if chunks > 1 {
                    Schedule::Interleaved
                } else {
                    Schedule::OneFOneB
                },
                virtual_stages: chunks,
                ..PlanConfig::on(Hardware::A100)
            },
            published: Published {
                value: mfu,
                figure: Figure::Utilisation(Counting::Palm),
                tflops_per_gpu: None,
                memory_gib: None,
            },
            notes: KORTHIKANTI_NOTES,
        },
    )
}

const LLAMA3_IDS: [&str; 3] = [
    "llama3-405b-8k-8192",
    "llama3-405b-8k-16384",
    "llama3-405b-128k-16384",
];
const LLAMA3_LABELS: [(&str, &str); 3] = [
    (
        "Llama 3 405B · 8,192 张 H100 · TP 8 × PP 16 × DP 64 · 8K",
        "Llama 3 405B · 8,192 H100 · TP 8 × PP 16 × DP 64 · 8K",
    ),
    (
        "Llama 3 405B · 16,384 张 H100 · TP 8 × PP 16 × DP 128 · 8K",
        "Llama 3 405B · 16,384 H100 · TP 8 × PP 16 × DP 128 · 8K",
    ),
    (
        "Llama 3 405B · 16,384 张 H100 · TP 8 × CP 16 × PP 16 × DP 8 · 128K",
        "Llama 3 405B · 16,384 H100 · TP 8 × CP 16 × PP 16 × DP 8 · 128K",
    ),
];
const LLAMA3_NOTES: (&str, &str) = (
    "论文在 8K 上不做激活检查点（FlashAttention 反向时重算注意力），实验室按 selective 计；FSDP 只切\
     优化器状态和梯度，按 ZeRO-2 计；梯度按 FP32 累积并 reduce-scatter（§3.3.2），按 4 字节计。论文用 interleaved 调度，首尾两段各少一层，\
     「第一段的第一个模型块只剩 embedding」：每块一层，(126 + 2) ÷ 16 = 每段 8 块，实验室按 v = 8 计。\
     论文靠主动释放各段的输入输出张量放进 80 GB，实验室不计这一步，显存超出卡的容量。表 4 的 CP 16 一行写 DP 4，但 16,384 ÷ (8·16·16) = 8，每步 16M token 也要 DP 8：\
     按 DP 8 计。MFU 按 PaLM 的口径。未计：重叠之外的调度细节、各段用时不均。",
    "The paper trains 8K sequences without activation checkpointing (FlashAttention recomputes \
     attention in the backward pass): the lab's selective. FSDP shards optimizer states and \
     gradients only: ZeRO-2, with gradients accumulated and reduce-scattered in FP32 (§3.3.2): \
     4-byte gradients. The paper runs the interleaved schedule with one layer fewer on the \
     first and the last stage, so that \"the first model chunk on the first stage has only the \
     embedding\" (§3.3.2): a chunk is one layer, and (126 + 2) ÷ 16 stages = 8 chunks a stage, \
     the lab's v = 8. The paper fits 80 GB by freeing each stage's input and output tensors \
     early; the lab does not count that, and its memory comes out over the card. \
     Table 4's CP 16 row says DP 4, but 16,384 ÷ (8·16·16) = 8 and 16M tokens a step need DP 8: \
     the lab uses DP 8. MFU counted as PaLM does. Left out: scheduling beyond the overlap the \
     lab counts, stages of unequal time.",
);

/// Model chunks per pipeline stage in Llama 3's runs (arXiv 2407.21783 §3.3.2): "we reduce
/// one Transformer layer each from the first and the last stages, respectively. This means
/// that the first model chunk on the first stage has only the embedding", so a chunk holds
/// one layer, and the 126 layers with the embedding and the output head in their places fill
/// 128 = 16 stages × 8 chunks.
const LLAMA3_CHUNKS: u32 = 8;

fn llama3() -> impl Iterator<Item = Run> {
    llama3_runs()
        .into_iter()
        .zip(LLAMA3_IDS.into_iter().zip(LLAMA3_LABELS))
        .map(|(published, (id, label))| Run {
            id,
            source: LLAMA3,
            label,
            config: PlanConfig {
                recompute: Recompute::Selective,
                zero: 2,
                schedule: Schedule::Interleaved,
                virtual_stages: LLAMA3_CHUNKS,
                // "we use FP32 gradient accumulation during backward computation over
                // multiple micro-batches and also reduce-scatter gradients in FP32 across
                // data parallel workers in FSDP" (§3.3.2, numerical stability).
                precision: Precision::Fp32Grads,
                ..published.config.use_card(Hardware::H100)
            },
            published: Published {
                value: f64::from(published.mfu_percent) / 100.0,
                figure: Figure::Utilisation(Counting::Palm),
                tflops_per_gpu: Some(f64::from(published.tflops_per_gpu)),
                memory_gib: None,
            },
            notes: LLAMA3_NOTES,
        })
}

/// Every published run, in the table's order: Llama 3, Narayanan et al., Korthikanti et al.,
/// torchtitan.
pub fn runs() -> Vec<Run> {
    llama3()
        .chain(narayanan())
        .chain(korthikanti())
        .chain(torchtitan())
        .collect()
}
