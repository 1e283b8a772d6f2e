//! The configurations behind the lesson's tables (seed 001) and the recipe table (seed 000).
//!
//! These are data, not results: every figure shown next to them is computed from the
//! configs by [`crate::evaluate`], in the CLI's `table` command and on the page alike.

use crate::config::{PlanConfig, Recompute};
use crate::model::{ModelChoice, Preset};

pub use crate::recipe::{recipes, Recipe, RecipeLayout};

/// One row of a plan table: a label in both languages and its config.
#[derive(Clone, Debug, PartialEq)]
pub struct LessonPlan {
    /// A short stable id (used in links and tests), e.g. `"dp8-zero3-full"`.
    pub id: &'static str,
    /// Label in Chinese, the page's first language.
    pub label_zh: &'static str,
    /// Label in English.
    pub label_en: &'static str,
    /// The plan.
    pub config: PlanConfig,
}

/// The lesson's 8-GPU table: one machine, 8 × 80 GB, s = 4,096, m = 8.
pub fn eight_gpu_plans() -> Vec<LessonPlan> {
    let base = PlanConfig::default;
    vec![
        LessonPlan {
            id: "dp8-zero3-full",
            label_zh: "DP 8 · ZeRO-3 · 全量重计算",
            label_en: "DP 8 · ZeRO-3 · full recompute",
            config: PlanConfig { zero: 3, ..base() },
        },
        LessonPlan {
            id: "dp8-zero3-selective",
            label_zh: "DP 8 · ZeRO-3 · 选择性重计算",
            label_en: "DP 8 · ZeRO-3 · selective recompute",
            config: PlanConfig {
                zero: 3,
                recompute: Recompute::Selective,
                ..base()
            },
        },
        LessonPlan {
            id: "tp8-selective",
            label_zh: "TP 8 · 选择性重计算",
            label_en: "TP 8 · selective recompute",
            config: PlanConfig {
                tp: 8,
                recompute: Recompute::Selective,
                ..base()
            },
        },
        LessonPlan {
            id: "tp2-pp4-full",
            label_zh: "TP 2 × PP 4 · 全量重计算",
            label_en: "TP 2 × PP 4 · full recompute",
            config: PlanConfig {
                tp: 2,
                pp: 4,
                ..base()
            },
        },
    ]
}

/// The lesson's 64-GPU table: 8 nodes of 8, TP inside a node.
pub fn sixty_four_gpu_plans() -> Vec<LessonPlan> {
    let base = || PlanConfig {
        gpus: 64,
        tp: 8,
        ..PlanConfig::default()
    };
    vec![
        LessonPlan {
            id: "tp8-pp8-full",
            label_zh: "TP 8 × PP 8 · 全量重计算",
            label_en: "TP 8 × PP 8 · full recompute",
            config: PlanConfig { pp: 8, ..base() },
        },
        LessonPlan {
            id: "tp8-pp8-full-m32",
            label_zh: "TP 8 × PP 8 · 全量重计算 · m = 32",
            label_en: "TP 8 × PP 8 · full recompute · m = 32",
            config: PlanConfig {
                pp: 8,
                micro_batches: 32,
                ..base()
            },
        },
        LessonPlan {
            id: "tp8-pp2-dp4-zero1",
            label_zh: "TP 8 × PP 2 × DP 4 · ZeRO-1",
            label_en: "TP 8 × PP 2 × DP 4 · ZeRO-1",
            config: PlanConfig {
                pp: 2,
                zero: 1,
                ..base()
            },
        },
    ]
}

/// A published Llama 3 405B configuration (Llama 3 report, table 4).
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedRun {
    /// The plan: GPUs, TP, CP, PP, sequence length and batch per DP replica (as m, b = 1).
    pub config: PlanConfig,
    /// Achieved TFLOPs per GPU, as published.
    pub tflops_per_gpu: u32,
    /// BF16 model FLOPs utilisation, as published (percent).
    pub mfu_percent: u32,
}

/// The three Llama 3 405B runs. DP and tokens per step are computed from these
/// ([`crate::Plan::tokens_per_step`]), not copied.
pub fn llama3_runs() -> Vec<PublishedRun> {
    let run = |gpus, cp, seq_len, batch_per_dp, tflops_per_gpu, mfu_percent| PublishedRun {
        config: PlanConfig {
            model: ModelChoice::Preset(Preset::Llama3_405b),
            gpus,
            tp: 8,
            cp,
            pp: 16,
            seq_len,
            micro_batches: batch_per_dp,
            zero: 3,
            ..PlanConfig::default()
        },
        tflops_per_gpu,
        mfu_percent,
    };
    vec![
        run(8192, 1, 8192, 32, 430, 43),
        run(16_384, 1, 8192, 16, 400, 41),
        run(16_384, 16, 131_072, 16, 380, 38),
    ]
}

/// DeepSeek-V3's published plan: 2,048 H800, PP 16 × EP 64 × ZeRO-1 DP, no TP.
///
/// Its micro-batch count is not in the lesson; the lab assumes m = 2p = 32 so that the
/// pipeline is full (with the default m = 8 < p the bubble would exceed the compute).
pub fn deepseek_v3_plan() -> PlanConfig {
    PlanConfig {
        model: ModelChoice::Preset(Preset::DeepseekV3),
        gpus: 2048,
        pp: 16,
        ep: 64,
        zero: 1,
        micro_batches: 32,
        ..PlanConfig::default()
    }
}

/// Parameters of the project's own small model, the one the course trains on its single GPU
/// (seed 001, decision ③).
pub const SMALL_MODEL_PARAMS: f64 = 3_688_704.0;

/// Decision ③'s figures: the small model's states on one card by ZeRO's ledger with no
/// sharding (16 bytes a parameter with BF16 gradients), the lesson's card, and how many times
/// the card holds them (capacity ÷ states).
///
/// ```
/// let (states, capacity, times) = parallel_core::lesson::small_model_states();
/// assert_eq!(states.get(), 16.0 * 3_688_704.0);
/// assert_eq!(times, capacity.get() / states.get());
/// ```
pub fn small_model_states() -> (crate::Bytes, crate::Bytes, f64) {
    let grad_bytes = PlanConfig::default().precision.grad_bytes();
    let states = crate::ModelStates::ledger(SMALL_MODEL_PARAMS, 1.0, 0, grad_bytes).total();
    let capacity = crate::Plan::default().capacity();
    (states, capacity, capacity.get() / states.get())
}
