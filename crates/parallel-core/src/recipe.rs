//! Seed 000's recipe table: the starting layouts of an RL recipe for 8-GPU nodes, each with
//! the cards of one inference engine and its response cap, and the plan each row stands for
//! (SPEC §15's last paragraph): 8 prompts × 8 samples, CPU Adam and full recompute, log-prob
//! chunks of 1,024 tokens, the engines colocated with training.

use crate::config::{OptimizerOffload, PlanConfig, Recompute, Rollout};
use crate::link::GridId;
use crate::model::{ModelChoice, Preset};
use crate::plan::Plan;

/// The log-probability chunk seed 000's recipes export (`--log-probs-chunk-size 1024`).
pub const LOG_PROBS_CHUNK: u32 = 1024;

/// A row of seed 000's recipe table. Most of these models' configs are not in the lab: a
/// row gets memory figures from its preset, or from a config the user supplies.
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
    /// Cards of one inference engine, E (seed 000's "每个推理引擎卡数").
    pub gpus_per_engine: u32,
    /// The response cap in tokens: 131,072, GLM-5.3's 262,144.
    pub response_len: u32,
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

    /// The rollout engines of this row: E cards each, colocated with training, 8 prompts × 8
    /// samples of a 2,048-token prompt (the core's defaults) and the row's response cap.
    pub fn rollout(&self) -> Rollout {
        Rollout {
            gpus_per_engine: self.gpus_per_engine,
            rollout_gpus: 0,
            response_len: self.response_len,
            ..Rollout::default()
        }
    }

    /// This row's plan with `model` (the row's own preset, or a config the user supplies):
    /// the row's TP, PP, CP and EP; training sequences as long as a sampled one (prompt +
    /// response cap: "prompt 长度仍计入显存"); ZeRO-1 (a distributed optimizer); CPU Adam and
    /// full recompute ("MoE 和 Qwen 默认启用 CPU Adam 与重计算"); log-prob chunks of 1,024;
    /// the row's engines, colocated.
    ///
    /// ```
    /// use parallel_core::lesson::recipes;
    /// use parallel_core::ModelChoice;
    /// let qwen = recipes()[3].config_with(ModelChoice::default());
    /// assert_eq!((qwen.seq_len, qwen.log_probs_chunk), (133_120, 1024));
    /// assert!(qwen.optimizer_offload.on_host());
    /// ```
    pub fn config_with(&self, model: ModelChoice) -> PlanConfig {
        let rollout = self.rollout();
        PlanConfig {
            model,
            gpus: self.gpus,
            tp: self.tp,
            pp: self.pp,
            cp: self.cp,
            ep: self.ep,
            seq_len: rollout.prompt_len.saturating_add(rollout.response_len),
            zero: 1,
            recompute: Recompute::Full,
            optimizer_offload: OptimizerOffload::Cpu,
            log_probs_chunk: LOG_PROBS_CHUNK,
            rollout: Some(rollout),
            ..PlanConfig::default()
        }
    }

    /// This row's plan with `model` ([`Recipe::config_with`]), validated.
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
        Plan::new(&self.config_with(model))
    }

    /// The plan of this recipe where the lab knows the model (the anchor's preset); `None`
    /// for the rows whose config is not in the lab.
    pub fn plan(&self) -> Option<Result<Plan, crate::PlanError>> {
        self.preset
            .map(|preset| self.plan_with(ModelChoice::Preset(preset)))
    }

    /// The page's grid this row's layout fills (its N is the grid's card count), if any.
    ///
    /// ```
    /// use parallel_core::lesson::recipes;
    /// use parallel_core::link::GridId;
    /// let grids: Vec<_> = recipes().iter().map(|r| r.grid()).collect();
    /// assert_eq!(grids, [Some(GridId::Eight), Some(GridId::SixtyFour), None, None]);
    /// ```
    pub fn grid(&self) -> Option<GridId> {
        GridId::ALL.into_iter().find(|g| g.gpus() == self.gpus)
    }
}

/// Seed 000's recipe table: starting layouts for 8-GPU nodes, with each row's cards per
/// inference engine and response cap.
pub fn recipes() -> [Recipe; 4] {
    const CAP: u32 = 131_072;
    [
        Recipe {
            model: "GLM-4.7-Flash",
            gpus: 8,
            tp: 2,
            pp: 1,
            cp: 4,
            ep: 8,
            gpus_per_engine: 8,
            response_len: CAP,
            preset: None,
        },
        Recipe {
            model: "GLM-4.7",
            gpus: 64,
            tp: 8,
            pp: 4,
            cp: 2,
            ep: 16,
            gpus_per_engine: 32,
            response_len: CAP,
            preset: None,
        },
        Recipe {
            model: "GLM-5.3",
            gpus: 256,
            tp: 4,
            pp: 8,
            cp: 8,
            ep: 32,
            gpus_per_engine: 64,
            response_len: 262_144,
            preset: None,
        },
        Recipe {
            model: "Qwen3.8-27B",
            gpus: 32,
            tp: 4,
            pp: 2,
            cp: 4,
            ep: 1,
            gpus_per_engine: 2,
            response_len: CAP,
            preset: Some(Preset::Qwen38_27b),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_s_engines_split_its_cards() {
        for recipe in recipes() {
            assert_eq!(recipe.gpus % recipe.gpus_per_engine, 0, "{}", recipe.model);
            let config = recipe.config_with(ModelChoice::default());
            assert_eq!(
                config.rollout.map(|r| r.response_len),
                Some(recipe.response_len)
            );
        }
    }
}
