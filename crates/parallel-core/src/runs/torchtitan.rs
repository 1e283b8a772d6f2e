//! torchtitan's published H100 runs of Llama 3.1 (8B FSDP on 8 and 128 cards, 8B with CP up
//! to 262,144 tokens, 70B FSDP × TP, 405B FSDP × TP × PP), copied from the benchmark file, with
//! the card they ran on.

use super::kinds::{Figure, Published, Run};
use crate::config::{PlanConfig, Recompute, Schedule};
use crate::hardware::Hardware;
use crate::model::{ModelChoice, Preset};

const TORCHTITAN: &str = "pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md \
                          @ b5bcd76 (runs of torchtitan 9dec370)";

/// The H100 of the torchtitan runs: 96 GB HBM2e at 2.4 TB/s (the file's "Hardware"), the SXM
/// peak (the file: "we use the peak number of SXM directly"), 400 Gb/s per card.
fn torchtitan_card() -> PlanConfig {
    PlanConfig {
        gpu_memory_gb: 96.0,
        hbm_tbps: 2.4,
        ..PlanConfig::on(Hardware::H100)
    }
}

const TORCHTITAN_BF16: (&str, &str) = (
    "torchtitan 的 FSDP 即 ZeRO-3；序列长度取它当时的默认配置 seq_len = 8192（train_configs，9dec370）。\
     显存是各卡峰值。torchtitan 的 selective 检查点按算子挑选，与实验室的 selective（Korthikanti）不完全相同。\
     卡是 96 GB HBM2e、500 W 的 H100，比 SXM 的 700 W 慢，实验室仍按 700 W 的 H200/H100 实测内核速率算\
     （访存型内核按 2.4 TB/s 的 HBM 缩放）；FSDP 的预取与重叠细节不计。",
    "torchtitan's FSDP is ZeRO-3; the sequence length is its default config of the time, \
     seq_len = 8192 (train_configs at 9dec370). Memory is the peak over cards. torchtitan's \
     selective checkpointing picks operators, not quite the lab's selective (Korthikanti). The \
     cards are 96 GB HBM2e H100s at 500 W, slower than a 700 W SXM; the lab keeps the kernel \
     rates measured at 700 W (memory-bound kernels scaled to the 2.4 TB/s HBM). FSDP's prefetch \
     and overlap details are not counted.",
);
const TORCHTITAN_FLOAT8: (&str, &str) = (
    "这一行用了 Float8 矩阵乘和 torch.compile：实验室只按 BF16 计算，所以估得偏慢。torchtitan 的 \
     FSDP 即 ZeRO-3；全量检查点即 full。卡是 96 GB HBM2e、500 W 的 H100，实验室仍按 700 W 实测的内核速率算。",
    "This row runs Float8 GEMMs and torch.compile; the lab counts BF16 only, so it estimates \
     slower. torchtitan's FSDP is ZeRO-3; full checkpointing is the lab's full. The cards are \
     96 GB HBM2e H100s at 500 W; the lab keeps the kernel rates measured at 700 W.",
);

/// (id, label, model, N, t, p, c, s, b, m, recompute, schedule, v, tokens/s, GiB, float8)
type TorchtitanRow = (
    &'static str,
    (&'static str, &'static str),
    Preset,
    u32,
    u32,
    u32,
    u32,
    u32,
    u32,
    u32,
    Recompute,
    Schedule,
    u32,
    f64,
    f64,
    bool,
);

/// Tables 1 to 5 of the file, the rows the issue names. The local batch is b (no gradient
/// accumulation), or, with PP, split into p micro-batches (torchtitan's default
/// `pipeline_parallel_microbatches`, config_manager.py at 9dec370).
const TORCHTITAN_TABLES: [TorchtitanRow; 9] = [
    (
        "torchtitan-8b-fsdp8",
        (
            "Llama 3.1 8B · 8 张 · FSDP 8",
            "Llama 3.1 8B · 8 cards · FSDP 8",
        ),
        Preset::Llama3_8b,
        8,
        1,
        1,
        1,
        8192,
        2,
        1,
        Recompute::Selective,
        Schedule::OneFOneB,
        1,
        5762.0,
        82.4,
        false,
    ),
    (
        "torchtitan-8b-fsdp128",
        (
            "Llama 3.1 8B · 128 张 · FSDP 128",
            "Llama 3.1 8B · 128 cards · FSDP 128",
        ),
        Preset::Llama3_8b,
        128,
        1,
        1,
        1,
        8192,
        2,
        1,
        Recompute::Selective,
        Schedule::OneFOneB,
        1,
        5605.0,
        67.0,
        false,
    ),
    (
        "torchtitan-8b-cp1-32k",
        (
            "Llama 3.1 8B · 8 张 · FSDP 8 · 32K",
            "Llama 3.1 8B · 8 cards · FSDP 8 · 32K",
        ),
        Preset::Llama3_8b,
        8,
        1,
        1,
        1,
        32_768,
        1,
        1,
        Recompute::Full,
        Schedule::OneFOneB,
        1,
        3890.0,
        83.9,
        true,
    ),
    (
        "torchtitan-8b-cp2-64k",
        (
            "Llama 3.1 8B · 8 张 · FSDP 4 × CP 2 · 64K",
            "Llama 3.1 8B · 8 cards · FSDP 4 × CP 2 · 64K",
        ),
        Preset::Llama3_8b,
        8,
        1,
        1,
        2,
        65_536,
        1,
        1,
        Recompute::Full,
        Schedule::OneFOneB,
        1,
        2540.0,
        84.2,
        true,
    ),
    (
        "torchtitan-8b-cp4-128k",
        (
            "Llama 3.1 8B · 8 张 · FSDP 2 × CP 4 · 128K",
            "Llama 3.1 8B · 8 cards · FSDP 2 × CP 4 · 128K",
        ),
        Preset::Llama3_8b,
        8,
        1,
        1,
        4,
        131_072,
        1,
        1,
        Recompute::Full,
        Schedule::OneFOneB,
        1,
        1071.0,
        84.0,
        true,
    ),
    (
        "torchtitan-8b-cp8-256k",
        (
            "Llama 3.1 8B · 8 张 · CP 8 · 256K",
            "Llama 3.1 8B · 8 cards · CP 8 · 256K",
        ),
        Preset::Llama3_8b,
        8,
        1,
        1,
        8,
        262_144,
        1,
        1,
        Recompute::Full,
        Schedule::OneFOneB,
        1,
        548.0,
        84.5,
        true,
    ),
    (
        "torchtitan-70b-fsdp32-tp8",
        (
            "Llama 3.1 70B · 256 张 · FSDP 32 × TP 8",
            "Llama 3.1 70B · 256 cards · FSDP 32 × TP 8",
        ),
        Preset::Llama3_70b,
        256,
        8,
        1,
        1,
        8192,
        16,
        1,
        Recompute::Full,
        Schedule::OneFOneB,
        1,
        829.0,
        71.9,
        true,
    ),
    (
        "torchtitan-405b-1f1b",
        (
            "Llama 3.1 405B · 512 张 · FSDP 8 × TP 8 × PP 8 · 1F1B",
            "Llama 3.1 405B · 512 cards · FSDP 8 × TP 8 × PP 8 · 1F1B",
        ),
        Preset::Llama3_405b,
        512,
        8,
        8,
        1,
        8192,
        4,
        8,
        Recompute::Full,
        Schedule::OneFOneB,
        1,
        100.0,
        82.5,
        true,
    ),
    (
        "torchtitan-405b-interleaved",
        (
            "Llama 3.1 405B · 512 张 · FSDP 8 × TP 8 × PP 8 · interleaved",
            "Llama 3.1 405B · 512 cards · FSDP 8 × TP 8 × PP 8 · interleaved",
        ),
        Preset::Llama3_405b,
        512,
        8,
        8,
        1,
        8192,
        4,
        8,
        Recompute::Full,
        Schedule::Interleaved,
        2,
        128.0,
        72.7,
        true,
    ),
];

pub(super) fn torchtitan() -> impl Iterator<Item = Run> {
    TORCHTITAN_TABLES.into_iter().map(
        |(
            id,
            label,
            preset,
            gpus,
            tp,
            pp,
            cp,
            seq_len,
            b,
            m,
            recompute,
            schedule,
            v,
            tps,
            gib,
            float8,
        )| Run {
            id,
            source: TORCHTITAN,
            label,
            config: PlanConfig {
                model: ModelChoice::Preset(preset),
                gpus,
                tp,
                pp,
                cp,
                seq_len,
                micro_batch_size: b,
                micro_batches: m,
                zero: 3,
                recompute,
                schedule,
                virtual_stages: v,
                ..torchtitan_card()
            },
            published: Published {
                value: tps,
                figure: Figure::TokensPerSecond,
                tflops_per_gpu: None,
                memory_gib: Some(gib),
            },
            notes: if float8 {
                TORCHTITAN_FLOAT8
            } else {
                TORCHTITAN_BF16
            },
        },
    )
}
