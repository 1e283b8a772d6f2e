//! [`Rollout`]: the inference engines of an RL step (SPEC §15), as a config writes them. Every
//! field may be left out (`{"rollout": {}}` is seed 000's default engine); `null` or no
//! `rollout` at all is a training-only plan.

use serde::{Deserialize, Serialize};

use super::field::{Field, RolloutField};
use crate::checks::{at_least_one, at_most};
use crate::error::PlanError;

/// The largest pool of rollout cards accepted, as for the training cards (2^20).
const MAX_ROLLOUT_GPUS: u32 = 1 << 20;
/// The longest rollout sequence, prompt + response (2^26 tokens, as for `seq_len`).
const MAX_SEQUENCE: u64 = 1 << 26;

/// The rollout engines of an RL step (SPEC §15): how many cards an inference engine spans,
/// where the engines run and how much they sample per round.
///
/// Checked by [`crate::Plan::new`] after every training field: each count at least 1
/// (`rollout_gpus` may be 0), the pool divisible by `gpus_per_engine`, a sequence of at most
/// 2^26 tokens, `kv_bytes` 1, 2 or 4.
///
/// ```
/// use parallel_core::{PlanConfig, Rollout};
/// let c: PlanConfig = serde_json::from_str(r#"{"rollout": {"gpus_per_engine": 2}}"#).unwrap();
/// assert_eq!(c.rollout, Some(Rollout { gpus_per_engine: 2, ..Rollout::default() }));
/// assert_eq!(Rollout::default().response_len, 131_072);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rollout {
    /// E, cards of one inference engine (its weights and KV heads split over them); default 8.
    pub gpus_per_engine: u32,
    /// R, cards of a separate rollout pool; 0 (default) = colocated on the N training cards.
    pub rollout_gpus: u32,
    /// Prompts per round; default 8.
    pub prompts: u32,
    /// Samples drawn per prompt; default 8.
    pub samples_per_prompt: u32,
    /// Tokens of a prompt (they count toward the cache too); default 2,048.
    pub prompt_len: u32,
    /// The response cap in tokens; default 131,072 (GLM-5.3's recipe: 262,144).
    pub response_len: u32,
    /// Bytes per cached value: 2 = BF16 (default), 1 = FP8, 4 = FP32.
    pub kv_bytes: u32,
}

impl Default for Rollout {
    fn default() -> Self {
        Rollout {
            gpus_per_engine: 8,
            rollout_gpus: 0,
            prompts: 8,
            samples_per_prompt: 8,
            prompt_len: 2048,
            response_len: 131_072,
            kv_bytes: 2,
        }
    }
}

impl Rollout {
    /// Whether the engines share the N training cards (R = 0, "同卡训推").
    pub const fn colocated(&self) -> bool {
        self.rollout_gpus == 0
    }

    /// The checks of SPEC §15, in its order, for a plan of `gpus` training cards: every count
    /// at least 1 (`rollout_gpus` may be 0; beyond the spec, at most 2^20 like `gpus`), the
    /// pool (R, or N when colocated) divisible by E, prompt_len + response_len ≤ 2^26,
    /// kv_bytes ∈ {1, 2, 4}. Each error names its field, `rollout.<field>`.
    ///
    /// ```
    /// use parallel_core::{Field, PlanError, Rollout, RolloutField};
    /// assert_eq!(Rollout::default().check(8), Ok(()));
    /// let three = Rollout { gpus_per_engine: 3, ..Rollout::default() };
    /// let engines = Field::InRollout(RolloutField::GpusPerEngine);
    /// assert_eq!(three.check(8).unwrap_err().field(), engines);
    /// let fp16 = Rollout { kv_bytes: 3, ..Rollout::default() };
    /// assert_eq!(fp16.check(8), Err(PlanError::KvBytes { got: 3 }));
    /// ```
    pub fn check(&self, gpus: u32) -> Result<(), PlanError> {
        at_least_one(
            self.gpus_per_engine,
            Field::InRollout(RolloutField::GpusPerEngine),
        )?;
        at_most(
            self.rollout_gpus,
            MAX_ROLLOUT_GPUS,
            Field::InRollout(RolloutField::RolloutGpus),
        )?;
        at_least_one(self.prompts, Field::InRollout(RolloutField::Prompts))?;
        at_least_one(
            self.samples_per_prompt,
            Field::InRollout(RolloutField::SamplesPerPrompt),
        )?;
        at_least_one(self.prompt_len, Field::InRollout(RolloutField::PromptLen))?;
        at_least_one(
            self.response_len,
            Field::InRollout(RolloutField::ResponseLen),
        )?;
        let pool = self.pool(gpus);
        if pool % self.gpus_per_engine != 0 {
            return Err(PlanError::RolloutPool {
                pool,
                gpus_per_engine: self.gpus_per_engine,
                colocated: self.colocated(),
            });
        }
        let tokens = u64::from(self.prompt_len) + u64::from(self.response_len);
        if tokens > MAX_SEQUENCE {
            return Err(PlanError::RolloutTooLong {
                prompt_len: self.prompt_len,
                response_len: self.response_len,
                max: MAX_SEQUENCE,
            });
        }
        if !matches!(self.kv_bytes, 1 | 2 | 4) {
            return Err(PlanError::KvBytes { got: self.kv_bytes });
        }
        Ok(())
    }

    /// The cards the engines run on: R, or the `gpus` training cards when colocated.
    pub const fn pool(&self, gpus: u32) -> u32 {
        if self.colocated() {
            gpus
        } else {
            self.rollout_gpus
        }
    }
}
