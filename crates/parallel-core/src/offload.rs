//! Optimizer offload, "CPU Adam" (SPEC §14, seed 000's recipes): the FP32 master weights and
//! both Adam moments live in host memory, the gradients go down to the host over PCIe, the
//! CPU updates, and the new BF16 weights come back.
//!
//! This module holds what the host holds: the optimizer shard Ψ_o a card offloads, the host
//! bytes per card and per node ([`HostMemory`]). What stays on the card is the ZeRO ledger
//! less its 12-byte part (`memory`); the PCIe traffic is the `offload` row of the traffic
//! table (`traffic`), whose seconds the estimate adds to the step. The CPU's own update time
//! is not counted (an omission).

use std::collections::BTreeSet;

use serde::Serialize;

use crate::config::{Accounting, OptimizerOffload};
use crate::formula::{count_of, sum, Quantity, Show};
use crate::plan::Plan;
use crate::units::Bytes;

/// Host bytes per offloaded parameter: 12 optimizer bytes (FP32 master weights and two FP32
/// moments) + the FP32 gradient copy the CPU update reads (SPEC §14).
const HOST_OPTIMIZER_BYTES: f64 = 12.0;
/// The FP32 gradient copy on the host.
const HOST_GRADIENT_BYTES: f64 = 4.0;
/// PCIe bytes per offloaded parameter and step: FP32 gradients down.
const DOWN_BYTES: f64 = 4.0;
/// PCIe bytes per offloaded parameter and step: BF16 weights up.
const UP_BYTES: f64 = 2.0;

/// Host memory with the optimizer offloaded (the report's `memory.host`, SPEC §14).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct HostMemory {
    /// 16·Ψ_o: the host bytes of the card the headline shows.
    pub per_gpu: Bytes,
    /// The largest node's host bytes: the sum over its cards.
    pub per_node: Bytes,
    /// `host_memory_gb`, per node.
    pub capacity: Bytes,
    /// per_node ≤ capacity (over it is a warning, not an error).
    pub fits: bool,
}

/// The optimizer part of a shard of `psi` parameters over a ZeRO group of `group` cards:
/// Ψ with ZeRO 0, Ψ/D with ZeRO 1–3 (SPEC §14), the parameters whose Adam states a card owns.
pub(crate) fn optimizer_part<Q: Quantity>(psi: Q, group: Q, zero: u8) -> Q {
    if zero >= 1 {
        psi / group
    } else {
        psi
    }
}

impl Plan {
    /// Ψ_o, the parameters whose optimizer states one card offloads (SPEC §14), even split:
    /// Ψ (ZeRO 0) or Ψ/D (ZeRO 1–3) of the dense shard, + for MoE models the routed experts'
    /// Ψ_e by the same rule over their expert-data-parallel group E.
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig};
    /// // The anchor on 8 cards: ZeRO-3 shards Ψ = 27,781,427,952 over D = 8.
    /// let plan = Plan::new(&PlanConfig::lesson_8_gpus())?;
    /// assert_eq!(plan.optimizer_shard_params(), 27_781_427_952.0 / 8.0);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn optimizer_shard_params(&self) -> f64 {
        self.optimizer_shard()
    }

    /// [`Plan::optimizer_shard_params`] as a formula.
    pub(crate) fn optimizer_shard<Q: Quantity>(&self) -> Q {
        let (psi, group) = self.dense_shard::<Q>();
        let dense = optimizer_part(psi, group, self.zero());
        let shard = match self.expert_shard::<Q>() {
            Some((psi, group)) => dense + optimizer_part(psi, group, self.zero()),
            None => dense,
        };
        shard.named("Ψ_o", Show::Count)
    }

    /// Host bytes one card's optimizer takes: (12 + 4)·Ψ_o (SPEC §14), of the even split's
    /// Ψ_o (`stage` `None`) or of stage i's own Ψ_o,i ("stages").
    pub(crate) fn host_per_gpu<Q: Quantity>(&self, stage: Option<u32>) -> Q {
        let shard = match stage {
            None => self.optimizer_shard(),
            Some(i) => self.stage_optimizer_shard(i),
        };
        (Q::lit(HOST_OPTIMIZER_BYTES) + Q::lit(HOST_GRADIENT_BYTES)) * shard
    }

    /// PCIe bytes one card moves per step: (4 + 2)·Ψ_o, FP32 gradients down and BF16 weights
    /// up (SPEC §14), of the even split's Ψ_o, like the `dp` row's Ψ.
    pub(crate) fn offload_bytes<Q: Quantity>(&self) -> Q {
        (Q::lit(DOWN_BYTES) + Q::lit(UP_BYTES)) * self.optimizer_shard()
    }

    /// The stage whose card the headline shows: `None` with the even split, the busiest
    /// stage with "stages" (the report's `busiest_stage`).
    pub(crate) fn host_stage(&self) -> Option<u32> {
        match self.config().accounting {
            Accounting::Even => None,
            Accounting::Stages => Some(self.busiest_stage()),
        }
    }

    /// The node with the most host bytes, as (stage, cards of that stage on it), stages in
    /// order; with the even split, every card is alike: `[(0, min(gpus_per_node, N))]`.
    fn busiest_node(&self) -> Vec<(u32, u32)> {
        let gpn = self.gpus_per_node();
        let n = self.gpus();
        if self.config().accounting == Accounting::Even {
            return vec![(0, gpn.min(n))];
        }
        let grid = self.grid();
        let mut kinds: BTreeSet<Vec<(u32, u32)>> = BTreeSet::new();
        let mut first = 0;
        while first < n {
            let last = first.saturating_add(gpn).min(n);
            let mut stages: Vec<u32> = (first..last)
                .map(|card| grid.coords(card).map_or(0, |c| c.pp))
                .collect();
            stages.sort_unstable();
            let mut node: Vec<(u32, u32)> = Vec::new();
            for stage in stages {
                match node.last_mut() {
                    Some((s, k)) if *s == stage => *k += 1,
                    _ => node.push((stage, 1)),
                }
            }
            kinds.insert(node);
            first = last;
        }
        kinds
            .into_iter()
            .fold(None, |best: Option<(f64, Vec<(u32, u32)>)>, node| {
                let bytes = self.host_per_node::<f64>(&node);
                match best {
                    Some((b, _)) if b >= bytes => best,
                    _ => Some((bytes, node)),
                }
            })
            .map_or_else(Vec::new, |(_, node)| node)
    }

    /// The host bytes of a node holding `node`'s cards (stage, count): the sum over its cards
    /// of [`Plan::host_per_gpu`] (SPEC §14), k·16·Ψ_o with the even split.
    pub(crate) fn host_per_node<Q: Quantity>(&self, node: &[(u32, u32)]) -> Q {
        match self.config().accounting {
            Accounting::Even => {
                let cards = node.first().map_or(0, |&(_, k)| k);
                count_of::<Q>("cards per node", cards) * self.host_per_gpu(None)
            }
            Accounting::Stages => sum(node.iter().map(|&(stage, cards)| {
                count_of::<Q>("cards of stage i", cards) * self.host_per_gpu(Some(stage))
            })),
        }
    }

    /// The busiest node's host bytes as a formula (the `mem-host-node` figure).
    pub(crate) fn host_node<Q: Quantity>(&self) -> Q {
        self.host_per_node(&self.busiest_node())
    }

    /// Host memory with the optimizer on the host (SPEC §14), `None` when it stays on the
    /// card: 16·Ψ_o per card (the headline's card), the largest node's sum over its cards,
    /// against `host_memory_gb`.
    ///
    /// ```
    /// use parallel_core::{OptimizerOffload, Plan, PlanConfig};
    /// let plan = Plan::new(&PlanConfig {
    ///     optimizer_offload: OptimizerOffload::Cpu,
    ///     ..PlanConfig::lesson_8_gpus()
    /// })?;
    /// let host = plan.host_memory().unwrap();
    /// // 16·Ψ/8 per card, 8 cards on the node: 16·Ψ, the anchor's 444.5 GB, in 2,048 GB.
    /// assert_eq!((host.per_gpu.to_string(), host.per_node.to_string()), ("55.6 GB".into(), "444.5 GB".into()));
    /// assert!(host.fits);
    /// assert!(Plan::new(&PlanConfig::default())?.host_memory().is_none());
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn host_memory(&self) -> Option<HostMemory> {
        if self.optimizer_offload() == OptimizerOffload::None {
            return None;
        }
        let per_gpu = Bytes::new(self.host_per_gpu(self.host_stage()));
        let per_node = Bytes::new(self.host_node());
        let capacity = Bytes::from_gb(self.config().host_memory_gb);
        Some(HostMemory {
            per_gpu,
            per_node,
            capacity,
            fits: per_node <= capacity,
        })
    }
}
