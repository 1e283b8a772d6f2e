//! The 3D balance (SPEC §23): what each lever of a plan trades, memory per card against the
//! bytes each card sends per step, one lever moved at a time from the plan as it stands.
//!
//! Three levers, each a path through plans the core accepts:
//! - TP: t over the powers of two up to a node (the grid's TP stays inside NVLink), p and c
//!   as the plan has them; DP takes the cards TP leaves.
//! - PP: p over the powers of two up to the layers, t and c as the plan has them.
//! - ZeRO: the stage 0–3 at the plan's degrees: DP's own lever on memory.
//!
//! Every point is [`Plan::new`] of the plan's config with that one field changed, and its
//! figures are the report's: [`Plan::memory`]'s total, the sum of [`Plan::traffic`]'s bytes
//! over the network (the host link of CPU Adam apart), and [`Plan::bubble`]. A value the core
//! refuses is no point.

use serde::Serialize;

use crate::config::PlanConfig;
use crate::grid::Dim;
use crate::plan::Plan;
use crate::units::Bytes;

/// A lever of the balance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Lever {
    /// Tensor parallelism, t.
    Tp,
    /// Pipeline parallelism, p.
    Pp,
    /// The ZeRO stage of data parallelism.
    Zero,
}

impl Lever {
    /// The three, in the order the chart draws them.
    pub const ALL: [Lever; 3] = [Lever::Tp, Lever::Pp, Lever::Zero];

    /// Its name in a JSON report and in a test id.
    pub const fn as_str(self) -> &'static str {
        match self {
            Lever::Tp => "tp",
            Lever::Pp => "pp",
            Lever::Zero => "zero",
        }
    }

    /// The lever's value in `config`.
    pub fn of(self, config: &PlanConfig) -> u32 {
        match self {
            Lever::Tp => config.tp,
            Lever::Pp => config.pp,
            Lever::Zero => u32::from(config.zero),
        }
    }

    /// `config` with the lever at `value`.
    fn set(self, config: &PlanConfig, value: u32) -> PlanConfig {
        let mut c = config.clone();
        match self {
            Lever::Tp => c.tp = value,
            Lever::Pp => c.pp = value,
            Lever::Zero => c.zero = u8::try_from(value).unwrap_or(u8::MAX),
        }
        c
    }

    /// The values the lever is tried at on `config`'s cards.
    fn values(self, config: &PlanConfig) -> Vec<u32> {
        let powers = |most: u32| -> Vec<u32> {
            (0..32)
                .map(|k| 1u32 << k)
                .take_while(|&v| v <= most)
                .collect()
        };
        match self {
            Lever::Tp => powers(config.gpus_per_node.min(config.gpus)),
            Lever::Pp => powers(config.gpus),
            Lever::Zero => (0..=3).collect(),
        }
    }
}

/// One plan on a lever's path.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BalancePoint {
    /// The lever's value: t, p or the ZeRO stage.
    pub value: u32,
    /// Memory per card, the headline ([`Plan::memory`]'s total).
    pub memory: Bytes,
    /// Bytes one card sends per step over NVLink and InfiniBand, every dimension summed.
    pub sent: Bytes,
    /// The bubble's share of the step.
    pub bubble_share: f64,
    /// Whether the memory fits the card.
    pub fits: bool,
}

impl BalancePoint {
    fn of(plan: &Plan, value: u32) -> BalancePoint {
        let memory = plan.memory();
        BalancePoint {
            value,
            memory: memory.total,
            sent: plan
                .traffic()
                .iter()
                .filter(|t| t.dim != Dim::Offload)
                .map(|t| t.bytes)
                .fold(Bytes::new(0.0), |sum, b| sum + b),
            bubble_share: plan.bubble().share,
            fits: memory.fits,
        }
    }
}

/// One lever's path: its points in increasing value, and the plan's own value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeverPath {
    /// The lever.
    pub lever: Lever,
    /// The plan's own value of it.
    pub current: u32,
    /// The plans along it the core accepts, the plan's own among them.
    pub points: Vec<BalancePoint>,
}

impl Plan {
    /// The 3D balance of the plan: for TP, PP and ZeRO, memory per card against bytes sent,
    /// the lever moved alone (SPEC §23).
    ///
    /// ```
    /// use parallel_core::{balance::Lever, Plan, PlanConfig};
    /// let plan = Plan::new(&PlanConfig { gpus: 64, tp: 8, pp: 8, ..PlanConfig::default() }).unwrap();
    /// let paths = plan.balance();
    /// let tp = &paths[0];
    /// assert_eq!((tp.lever, tp.current), (Lever::Tp, 8));
    /// assert_eq!(tp.points.iter().map(|p| p.value).collect::<Vec<_>>(), [1, 2, 4, 8]);
    /// // More TP: less memory per card, more bytes sent.
    /// assert!(tp.points[3].memory < tp.points[0].memory && tp.points[3].sent > tp.points[0].sent);
    /// ```
    pub fn balance(&self) -> Vec<LeverPath> {
        let config = self.config();
        Lever::ALL
            .into_iter()
            .map(|lever| {
                let current = lever.of(config);
                let mut values = lever.values(config);
                if !values.contains(&current) {
                    values.push(current);
                }
                let mut points = values
                    .into_iter()
                    .filter_map(|value| {
                        if value == current {
                            return Some(BalancePoint::of(self, value));
                        }
                        Plan::new(&lever.set(config, value))
                            .ok()
                            .map(|plan| BalancePoint::of(&plan, value))
                    })
                    .collect::<Vec<_>>();
                points.sort_by_key(|p| p.value);
                LeverPath {
                    lever,
                    current,
                    points,
                }
            })
            .collect()
    }
}
