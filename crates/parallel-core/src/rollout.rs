//! Rollout engines (SPEC §15, seed 000's RL recipes): an RL step also samples, and its
//! inference engines hold the weights and a KV cache for the sequences they generate.
//!
//! An engine spans E cards; the pool (R rollout cards, or the N training cards when
//! colocated) holds pool/E engines, which share n = prompts·samples_per_prompt sequences of
//! T_seq = prompt_len + response_len tokens. Per rollout card: BF16 weights 2·P/E and the KV
//! cache ⌈n/engines⌉·T_seq·F·k, where k is what one full-attention layer caches per token on
//! one card: 2·max(kv_heads/E, 1)·head_dim·kv_bytes for GQA (the KV heads split over the
//! engine, replicated when E > kv_heads), (kv_lora_rank + qk_rope_head_dim)·kv_bytes for MLA
//! (the latent is not split). Linear-attention layers keep no per-token cache; their fixed
//! per-sequence state is not counted (an omission). Colocated, the same cards alternate
//! between training and rollout, and with ideal offload between the phases a card needs the
//! larger of the two totals.
//!
//! Every figure is a generic formula over [`Quantity`]: the report evaluates it as `f64`,
//! `explain` writes it out.

use serde::Serialize;

use crate::config::Rollout;
use crate::error::PlanError;
use crate::formula::{count_of, Quantity, Show};
use crate::grid::Groups;
use crate::plan::Plan;
use crate::units::Bytes;

/// Bytes per weight in an inference engine: BF16.
const WEIGHT_BYTES: f64 = 2.0;
/// K and V: two cached vectors per KV head.
const K_AND_V: f64 = 2.0;

/// A phase of an RL step: training, or rollout (the engines sampling). The report's
/// `peak_phase` names the one that sets a card's peak; the grid shows one at a time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RolloutPhase {
    /// Training: the grid's TP / CP / PP / DP groups; as `peak_phase`, the busiest training
    /// card's total is the larger (colocated only).
    #[default]
    Training,
    /// Rollout: the engines; as `peak_phase`, the engine's weights and KV cache are the
    /// larger, or the pool is separate.
    Rollout,
}

impl RolloutPhase {
    /// Both phases, training first.
    pub const ALL: [RolloutPhase; 2] = [RolloutPhase::Training, RolloutPhase::Rollout];

    /// The phase's name: "training" or "rollout".
    pub const fn as_str(self) -> &'static str {
        match self {
            RolloutPhase::Training => "training",
            RolloutPhase::Rollout => "rollout",
        }
    }

    /// The phase named `name` ("training" or "rollout").
    pub fn parse(name: &str) -> Option<RolloutPhase> {
        RolloutPhase::ALL.into_iter().find(|p| p.as_str() == name)
    }
}

/// The report's `rollout` object (SPEC §15): the engines and one rollout card's memory.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RolloutReport {
    /// Engines in the pool, pool/E.
    pub engines: u32,
    /// E, cards per engine.
    pub gpus_per_engine: u32,
    /// n = prompts·samples_per_prompt, sequences per round.
    pub sequences: u64,
    /// ⌈n/engines⌉, sequences one engine holds.
    pub sequences_per_engine: u64,
    /// T_seq = prompt_len + response_len.
    pub tokens_per_sequence: u64,
    /// BF16 weights per rollout card, 2·P/E.
    pub weights: Bytes,
    /// KV cache per rollout card, ⌈n/engines⌉·T_seq·F·k.
    pub kv_cache: Bytes,
    /// weights + kv_cache.
    pub total: Bytes,
    /// total ≤ the card's capacity.
    pub fits: bool,
    /// Fits, but above [`crate::margin::SAFE_SHARE`] of the card ([`crate::margin::tight`]).
    pub tight: bool,
    /// Whether the engines run on the training cards (R = 0).
    pub colocated: bool,
    /// Cards in all: N when colocated, N + R with a separate pool.
    pub cards: u32,
    /// A card's peak: max(training busiest total, rollout total) when colocated, else the
    /// rollout total.
    pub peak: Bytes,
    /// The phase whose total is the peak.
    pub peak_phase: RolloutPhase,
}

impl Plan {
    /// The engine that rollout card `card` serves, k = ⌊card/E⌋, `None` for a training-only
    /// plan. The pool's cards (the N training cards when colocated, the R rollout cards
    /// otherwise, numbered 0 … pool−1) form pool/E engines of E consecutive cards, so an
    /// engine of up to a node's size stays inside a node, on NVLink.
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig, Rollout};
    /// let rollout = Some(Rollout { gpus_per_engine: 2, ..Rollout::default() });
    /// let plan = Plan::new(&PlanConfig { rollout, ..PlanConfig::default() })?;
    /// assert_eq!(plan.engine_of(5)?, Some(2));
    /// assert_eq!(plan.engine_group(5)?, Some(vec![4, 5]));
    /// assert!(plan.engine_of(8).is_err()); // the pool is the 8 training cards
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn engine_of(&self, card: u32) -> Result<Option<u32>, PlanError> {
        let Some(r) = self.rollout_engines_spec() else {
            return Ok(None);
        };
        let pool = r.pool(self.gpus());
        if card >= pool {
            return Err(PlanError::NoSuchCard { card, gpus: pool });
        }
        Ok(Some(card / r.gpus_per_engine.max(1)))
    }

    /// The cards of rollout card `card`'s engine (see [`Plan::engine_of`]), `None` for a
    /// training-only plan.
    pub fn engine_group(&self, card: u32) -> Result<Option<Vec<u32>>, PlanError> {
        let e = self
            .rollout_engines_spec()
            .map_or(1, |r| r.gpus_per_engine.max(1));
        Ok(self
            .engine_of(card)?
            .map(|engine| (engine * e..(engine + 1) * e).collect()))
    }

    /// The groups of `card` in `phase`: the grid's in training ([`crate::Grid::groups`]),
    /// its engine alone in the rollout phase (`None` for a training-only plan, which has no
    /// rollout phase).
    pub fn groups_in(&self, phase: RolloutPhase, card: u32) -> Result<Option<Groups>, PlanError> {
        match phase {
            RolloutPhase::Training => self.grid().groups(card).map(Some),
            RolloutPhase::Rollout => Ok(self.engine_group(card)?.map(Groups::of_engine)),
        }
    }

    /// The rollout engines of this plan, `None` for a training-only plan.
    pub(crate) fn rollout_engines_spec(&self) -> Option<Rollout> {
        self.config().rollout
    }

    /// Engines in the pool: pool/E, the pool being N (colocated) or R.
    fn engines<Q: Quantity>(&self, r: &Rollout) -> Q {
        let pool = if r.colocated() {
            count_of::<Q>("N", self.gpus())
        } else {
            count_of::<Q>("R", r.rollout_gpus)
        };
        (pool / count_of("E", r.gpus_per_engine)).named("engines", Show::Count)
    }

    /// n = prompts·samples_per_prompt.
    fn sequences<Q: Quantity>(r: &Rollout) -> Q {
        (count_of::<Q>("prompts", r.prompts) * count_of("samples", r.samples_per_prompt))
            .named("n", Show::Count)
    }

    /// ⌈n/engines⌉, the sequences of one engine.
    fn sequences_per_engine<Q: Quantity>(&self, r: &Rollout) -> Q {
        (Plan::sequences::<Q>(r) / self.engines(r))
            .ceil()
            .named("n_e", Show::Count)
    }

    /// T_seq = prompt_len + response_len.
    fn tokens_per_sequence<Q: Quantity>(r: &Rollout) -> Q {
        (count_of::<Q>("prompt_len", r.prompt_len) + count_of("response_len", r.response_len))
            .named("T_seq", Show::Count)
    }

    /// BF16 weights per rollout card: 2·P/E (SPEC §15; every parameter, experts included).
    pub(crate) fn rollout_weights<Q: Quantity>(&self, r: &Rollout) -> Q {
        Q::lit(WEIGHT_BYTES) * Q::var("P", self.model().params, Show::Count)
            / count_of("E", r.gpus_per_engine)
    }

    /// k, bytes one full-attention layer caches per token on one card: GQA
    /// 2·max(kv_heads/E, 1)·head_dim·kv_bytes, MLA (kv_lora_rank + qk_rope_head_dim)·kv_bytes.
    fn kv_per_token<Q: Quantity>(&self, r: &Rollout) -> Q {
        let model = self.model();
        let bytes = count_of::<Q>("kv_bytes", r.kv_bytes);
        let k = match model.mla {
            Some(mla) => {
                (count_of::<Q>("kv_lora_rank", mla.kv_lora_rank)
                    + count_of("qk_rope_head_dim", mla.qk_rope_head_dim))
                    * bytes
            }
            None => {
                Q::lit(K_AND_V)
                    * (count_of::<Q>("kv_heads", model.kv_heads) / count_of("E", r.gpus_per_engine))
                        .max(Q::lit(1.0))
                    * count_of("head_dim", model.head_dim)
                    * bytes
            }
        };
        k.named("k", Show::Count)
    }

    /// KV cache per rollout card: ⌈n/engines⌉·T_seq·F·k (SPEC §15), F the full-attention
    /// layers (linear-attention layers keep no per-token cache).
    pub(crate) fn rollout_kv<Q: Quantity>(&self, r: &Rollout) -> Q {
        self.sequences_per_engine::<Q>(r)
            * Plan::tokens_per_sequence(r)
            * count_of("F", self.model().full_attention_layers)
            * self.kv_per_token(r)
    }

    /// A rollout card's total: weights + KV cache.
    pub(crate) fn rollout_total<Q: Quantity>(&self, r: &Rollout) -> Q {
        self.rollout_weights::<Q>(r).named("weights", Show::Bytes)
            + self.rollout_kv::<Q>(r).named("KV cache", Show::Bytes)
    }

    /// A card's peak (SPEC §15): colocated, max(`training`, the rollout total), `training`
    /// being the busiest training card's total; with a separate pool, the rollout total.
    pub(crate) fn rollout_peak<Q: Quantity>(&self, r: &Rollout, training: Q) -> Q {
        let rollout = self.rollout_total::<Q>(r);
        if r.colocated() {
            training.max(rollout.named("rollout total", Show::Bytes))
        } else {
            rollout
        }
    }

    /// The report's `rollout` object (SPEC §15) for a plan whose busiest training card holds
    /// `training` bytes; `None` for a training-only plan.
    pub(crate) fn rollout_report(&self, training: Bytes) -> Option<RolloutReport> {
        let r = self.rollout_engines_spec()?;
        let total = Bytes::new(self.rollout_total(&r));
        let peak = Bytes::new(self.rollout_peak(&r, training.get()));
        let cards = if r.colocated() {
            self.gpus()
        } else {
            self.gpus().saturating_add(r.rollout_gpus)
        };
        Some(RolloutReport {
            engines: r.pool(self.gpus()) / r.gpus_per_engine.max(1),
            gpus_per_engine: r.gpus_per_engine,
            // Whole numbers by construction (a product, a ceiling, a sum of counts).
            sequences: Plan::sequences::<f64>(&r) as u64,
            sequences_per_engine: self.sequences_per_engine::<f64>(&r) as u64,
            tokens_per_sequence: Plan::tokens_per_sequence::<f64>(&r) as u64,
            weights: Bytes::new(self.rollout_weights(&r)),
            kv_cache: Bytes::new(self.rollout_kv(&r)),
            total,
            fits: total <= self.capacity(),
            tight: crate::margin::tight(total, self.capacity()),
            colocated: r.colocated(),
            cards,
            peak,
            peak_phase: if r.colocated() && training >= total {
                RolloutPhase::Training
            } else {
                RolloutPhase::Rollout
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PlanConfig, Preset};

    #[test]
    fn the_engines_count_is_the_formula_s() {
        let plan = Plan::new(&PlanConfig {
            gpus: 32,
            rollout: Some(Rollout {
                gpus_per_engine: 2,
                ..Rollout::default()
            }),
            ..PlanConfig::default()
        })
        .unwrap();
        let r = plan.rollout_engines_spec().unwrap();
        assert_eq!(plan.engines::<f64>(&r), 16.0);
        assert_eq!(plan.sequences_per_engine::<f64>(&r), 4.0);
        assert_eq!(plan.model().mla, None);
        assert!(Preset::DeepseekV3.model().mla.is_some());
    }
}
