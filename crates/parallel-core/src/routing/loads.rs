//! How one MoE layer's token-slots fall on its experts and EP ranks when routing is uneven
//! (SPEC §20), relative to the even split every other figure of the lab assumes.
//!
//! A micro-batch sends each EP group's cards T_l·k token-slots (T_l tokens on a card, each to
//! its top k experts): μ = e·T_l·k/E slots an expert on average. The hottest expert takes
//! ρ·μ (ρ = `routing_skew`, 1 = even); the other E − 1 share the rest evenly,
//! μ·(E − ρ)/(E − 1) each. With a capacity factor c_f, an expert keeps at most c_f·μ slots and
//! drops the rest (Switch Transformer, GShard); without one (dropless, Megatron-LM's default)
//! it keeps all. EP rank 0 holds the hot expert with E/e − 1 others; every other rank holds
//! E/e cold experts.

use crate::formula::{count_of, Quantity, Show};

/// One MoE layer's loads, each relative to the even split μ (an expert's) or g·μ (a rank's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpertLoads {
    /// E, routed experts.
    pub experts: u32,
    /// e, the EP degree (E/e experts a rank).
    pub ep: u32,
    /// ρ, the hottest expert's load over μ.
    pub skew: f64,
    /// c_f; `None`: dropless.
    pub capacity_factor: Option<f64>,
}

impl ExpertLoads {
    /// ρ as a formula.
    fn rho<Q: Quantity>(&self) -> Q {
        Q::var("ρ", self.skew, Show::Count)
    }

    /// An expert's kept load over μ: `load`, at most c_f.
    fn kept<Q: Quantity>(&self, load: Q) -> Q {
        match self.capacity_factor {
            Some(cf) => load.min(Q::var("c_f", cf, Show::Count)),
            None => load,
        }
    }

    /// The hottest expert's load over μ before any drop: ρ.
    pub fn hot_expert_routed<Q: Quantity>(&self) -> Q {
        self.rho()
    }

    /// Each other expert's load over μ before any drop: (E − ρ)/(E − 1); 1 with one expert.
    pub fn cold_expert_routed<Q: Quantity>(&self) -> Q {
        if self.experts <= 1 {
            return Q::lit(1.0);
        }
        let experts = || count_of::<Q>("E", self.experts);
        ((experts() - self.rho()) / (experts() - Q::lit(1.0))).named("cold", Show::Count)
    }

    /// The hottest expert's kept load over μ: min(ρ, c_f).
    pub fn hot_expert<Q: Quantity>(&self) -> Q {
        self.kept(self.hot_expert_routed())
    }

    /// Each other expert's kept load over μ: min((E − ρ)/(E − 1), c_f).
    pub fn cold_expert<Q: Quantity>(&self) -> Q {
        self.kept(self.cold_expert_routed())
    }

    /// EP rank 0's load over an even rank's g·μ (g = E/e): (hot + (g − 1)·cold)/g. With e = 1
    /// one rank holds every expert and, dropless, its load is even.
    ///
    /// ```
    /// use parallel_core::routing::ExpertLoads;
    /// let loads = |ep, skew, capacity_factor| ExpertLoads { experts: 8, ep, skew, capacity_factor };
    /// assert_eq!(loads(8, 2.0, None).hot_rank::<f64>(), 2.0);   // one expert a rank: ρ
    /// assert_eq!(loads(1, 2.0, None).hot_rank::<f64>(), 1.0);   // every expert on one rank
    /// assert_eq!(loads(4, 2.0, None).hot_rank::<f64>(), (2.0 + 6.0 / 7.0) / 2.0);
    /// assert_eq!(loads(8, 2.0, Some(1.25)).hot_rank::<f64>(), 1.25); // capped at the capacity
    /// ```
    pub fn hot_rank<Q: Quantity>(&self) -> Q {
        let g = self.per_rank();
        ((self.hot_expert::<Q>() + (count_of::<Q>("E/e", g) - Q::lit(1.0)) * self.cold_expert())
            / count_of::<Q>("E/e", g))
        .named("hot rank", Show::Count)
    }

    /// Every other EP rank's load over g·μ: its experts are all cold.
    pub fn cold_rank<Q: Quantity>(&self) -> Q {
        self.cold_expert()
    }

    /// The share of the layer's token-slots dropped: ((ρ − hot) + (E − 1)·(cold_routed −
    /// cold))/E; 0 dropless.
    ///
    /// ```
    /// use parallel_core::routing::ExpertLoads;
    /// let l = ExpertLoads { experts: 8, ep: 8, skew: 2.0, capacity_factor: Some(1.25) };
    /// assert!((l.dropped::<f64>() - 0.75 / 8.0).abs() < 1e-12); // the hot expert's 0.75·μ
    /// assert_eq!(ExpertLoads { capacity_factor: None, ..l }.dropped::<f64>(), 0.0);
    /// ```
    pub fn dropped<Q: Quantity>(&self) -> Q {
        if self.capacity_factor.is_none() {
            return Q::lit(0.0);
        }
        let experts = || count_of::<Q>("E", self.experts);
        let hot = self.hot_expert_routed::<Q>() - self.hot_expert();
        let cold = self.cold_expert_routed::<Q>() - self.cold_expert();
        ((hot + (experts() - Q::lit(1.0)) * cold) / experts()).named("dropped", Show::Count)
    }

    /// g = E/e, the routed experts one EP rank (one card) holds, at least 1: what expert
    /// parallelism divides (SPEC §20).
    ///
    /// ```
    /// use parallel_core::routing::ExpertLoads;
    /// let loads = |ep| ExpertLoads { experts: 8, ep, skew: 1.0, capacity_factor: None };
    /// assert_eq!((loads(1).per_rank(), loads(4).per_rank(), loads(8).per_rank()), (8, 2, 1));
    /// ```
    pub fn per_rank(&self) -> u32 {
        (self.experts / self.ep.max(1)).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loads(experts: u32, ep: u32, skew: f64, capacity_factor: Option<f64>) -> ExpertLoads {
        ExpertLoads {
            experts,
            ep,
            skew,
            capacity_factor,
        }
    }

    /// Every slot goes somewhere: dropless, the ranks' loads add up to e even ranks; with a
    /// capacity, what the ranks keep plus what is dropped is the whole layer.
    #[test]
    fn slots_are_conserved() {
        for experts in [8_u32, 16, 64, 256] {
            for ep in [1_u32, 2, 4, 8].into_iter().filter(|e| experts % e == 0) {
                for skew in [1.0, 1.3, 2.0, 3.5] {
                    for cf in [None, Some(1.0), Some(1.25), Some(2.0)] {
                        let l = loads(experts, ep, skew, cf);
                        let e = f64::from(ep);
                        let kept = (l.hot_rank::<f64>() + (e - 1.0) * l.cold_rank::<f64>()) / e;
                        assert!(
                            (kept + l.dropped::<f64>() - 1.0).abs() < 1e-12,
                            "{l:?}: kept {kept}, dropped {}",
                            l.dropped::<f64>()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn even_routing_is_even_everywhere() {
        let l = loads(64, 8, 1.0, Some(1.0));
        assert_eq!(l.hot_rank::<f64>(), 1.0);
        assert_eq!(l.cold_rank::<f64>(), 1.0);
        assert_eq!(l.dropped::<f64>(), 0.0);
    }

    #[test]
    fn the_hot_rank_is_the_busiest_and_grows_with_the_skew() {
        let mut before = 1.0;
        for skew in [1.1, 1.5, 2.0, 4.0] {
            let l = loads(64, 16, skew, None);
            let hot = l.hot_rank::<f64>();
            assert!(hot > before && hot > l.cold_rank::<f64>(), "{l:?}");
            before = hot;
        }
    }
}
