//! Sequences of uneven length (SPEC §25): when sequences are not packed to s, one micro-batch
//! of a step can be σ times as long. It lands on one data-parallel replica (the grid's first,
//! DP coordinate 0), whose cards hold its activations while it is in flight: σ times a
//! micro-batch's per-layer bytes (they grow with the tokens) and σ² times its attention scores
//! (they grow with the tokens squared) in place of one ordinary micro-batch.

use crate::formula::{Quantity, Show};
use crate::memory::Held;
use crate::plan::Plan;

impl<Q: Quantity> Held<Q> {
    /// What one micro-batch σ times as long adds to what this stage holds:
    /// (σ − 1)·per layer·layers + (σ² − 1)·scores·full-attention layers.
    pub(crate) fn long_sequence_excess(&self, sigma: Q) -> Q {
        let one = || Q::lit(1.0);
        let layers = (sigma.clone() - one()) * self.per_layer.clone() * self.layers.clone();
        match self.scores.clone() {
            Some((scores, full_attention)) => {
                layers + (sigma.clone() * sigma - one()) * scores * full_attention
            }
            None => layers,
        }
    }
}

impl Plan {
    /// σ, the longest micro-batch's tokens over s (`sequence_skew`, SPEC §25).
    pub fn sequence_skew(&self) -> f64 {
        self.config().sequence_skew
    }

    /// Whether one micro-batch is longer than s (σ > 1).
    pub fn uneven_sequences(&self) -> bool {
        self.sequence_skew() > 1.0
    }

    /// Whether `card` is of the data-parallel replica the longest micro-batch lands on (DP
    /// coordinate 0) while sequences are uneven.
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig};
    /// let plan = Plan::new(&PlanConfig { sequence_skew: 2.0, ..PlanConfig::lesson_8_gpus() })?;
    /// // 8 cards, DP 8: card 0 is the first replica.
    /// assert!(plan.holds_long_sequence(0) && !plan.holds_long_sequence(1));
    /// assert!(!Plan::new(&PlanConfig::lesson_8_gpus())?.holds_long_sequence(0));
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn holds_long_sequence(&self, card: u32) -> bool {
        self.uneven_sequences() && self.grid().coords(card).is_ok_and(|c| c.dp == 0)
    }

    /// What the longest micro-batch adds on `held`'s stage (0 while sequences are even).
    pub(crate) fn sequence_excess_of<Q: Quantity>(&self, held: &Held<Q>) -> Q {
        if !self.uneven_sequences() {
            return Q::lit(0.0);
        }
        let sigma = Q::var("σ", self.sequence_skew(), Show::Count);
        held.long_sequence_excess(sigma)
            .named("sequence excess", Show::Bytes)
    }

    /// [`Plan::sequence_excess_of`] on the even split's first stage (SPEC §4).
    pub(crate) fn sequence_excess<Q: Quantity>(&self) -> Q {
        self.sequence_excess_of(&self.held_even::<Q>())
    }

    /// [`Plan::sequence_excess_of`] on stage `stage` (SPEC §11).
    pub(crate) fn stage_sequence_excess<Q: Quantity>(&self, stage: u32) -> Q {
        self.sequence_excess_of(&self.stage_held::<Q>(stage))
    }
}
