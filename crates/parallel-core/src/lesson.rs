//! The configurations behind the lesson's tables (seed 001) and the recipe table (seed 000).
//!
//! These are data, not results: every figure shown next to them is computed from the
//! configs by [`crate::evaluate`], in the CLI's `table` command and on the page alike.

use crate::config::{PlanConfig, Recompute};
use crate::model::{ModelChoice, Preset};
use crate::plan::Plan;

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
/// ([`Plan::tokens_per_step`]), not copied.
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

/// A row of seed 000's recipe table: a layout only (most of these models' configs are not
/// in the lab, so they get no memory figures).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recipe {
    /// Model name.
    pub model: &'static str,
    /// Training GPUs N.
    pub gpus: u32,
    /// TP degree.
    pub tp: u32,
    /// PP degree.
    pub pp: u32,
    /// CP degree.
    pub cp: u32,
    /// EP degree.
    pub ep: u32,
    /// The preset whose config is known to the lab, if any.
    pub preset: Option<Preset>,
}

/// What a recipe's layout implies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecipeLayout {
    /// DP = N/(t·p·c), when it divides.
    pub dp: Option<u32>,
    /// Expert DP = N/(e·p), when it divides.
    pub expert_dp: Option<u32>,
}

impl Recipe {
    /// Derived DP and expert-DP (None where the division is not exact).
    ///
    /// ```
    /// use parallel_core::lesson::recipes;
    /// let qwen = recipes()[3];
    /// let layout = qwen.layout();
    /// assert_eq!((layout.dp, layout.expert_dp), (Some(1), Some(16)));
    /// ```
    pub fn layout(&self) -> RecipeLayout {
        let exact = |den: u64| {
            let n = u64::from(self.gpus);
            (den > 0 && n % den == 0).then(|| (n / den) as u32)
        };
        let (t, p, c, e) = (
            u64::from(self.tp),
            u64::from(self.pp),
            u64::from(self.cp),
            u64::from(self.ep),
        );
        RecipeLayout {
            dp: exact(t * p * c),
            expert_dp: exact(e * p),
        }
    }

    /// The plan of this recipe where the lab knows the model (the anchor's preset); `None`
    /// for the rows whose config is not in the lab.
    pub fn plan(&self) -> Option<Result<Plan, crate::PlanError>> {
        self.preset
            .map(|preset| self.plan_with(ModelChoice::Preset(preset)))
    }

    /// This recipe's layout with `model` (the row's own preset, or a config the user
    /// supplies): 128K-token sequences (the recipes' response cap), ZeRO-1 (a distributed
    /// optimizer), full recompute, and the row's TP, PP, CP and EP.
    ///
    /// ```
    /// use parallel_core::lesson::recipes;
    /// use parallel_core::{ModelChoice, Preset};
    /// // GLM-4.7-Flash's row (8 cards, TP 2 × CP 4, EP 8) with Qwen3-30B-A3B's 128 experts.
    /// let plan = recipes()[0].plan_with(ModelChoice::Preset(Preset::Qwen3_30bA3b))?;
    /// assert_eq!((plan.degrees().ep, plan.degrees().expert_dp), (8, Some(1)));
    /// // A dense model cannot take the row's EP 8.
    /// assert!(recipes()[0].plan_with(ModelChoice::Preset(Preset::Llama3_8b)).is_err());
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn plan_with(&self, model: ModelChoice) -> Result<Plan, crate::PlanError> {
        Plan::new(&PlanConfig {
            model,
            gpus: self.gpus,
            tp: self.tp,
            pp: self.pp,
            cp: self.cp,
            ep: self.ep,
            seq_len: 131_072,
            zero: 1,
            ..PlanConfig::default()
        })
    }
}

/// Seed 000's recipe table: starting layouts for 8-GPU nodes.
pub fn recipes() -> [Recipe; 4] {
    [
        Recipe {
            model: "GLM-4.7-Flash",
            gpus: 8,
            tp: 2,
            pp: 1,
            cp: 4,
            ep: 8,
            preset: None,
        },
        Recipe {
            model: "GLM-4.7",
            gpus: 64,
            tp: 8,
            pp: 4,
            cp: 2,
            ep: 16,
            preset: None,
        },
        Recipe {
            model: "GLM-5.3",
            gpus: 256,
            tp: 4,
            pp: 8,
            cp: 8,
            ep: 32,
            preset: None,
        },
        Recipe {
            model: "Qwen3.8-27B",
            gpus: 32,
            tp: 4,
            pp: 2,
            cp: 4,
            ep: 1,
            preset: Some(Preset::Qwen38_27b),
        },
    ]
}
