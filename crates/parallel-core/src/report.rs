//! [`Report`]: everything the `eval` command prints and the page shows for one plan.

use serde::Serialize;

use crate::bubble::Bubble;
use crate::config::PlanConfig;
use crate::error::{PlanError, Warning};
use crate::memory::Memory;
use crate::plan::Plan;
use crate::traffic::Traffic;

/// The evaluation of one plan (SPEC §10's `eval` JSON).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// d = N/(t·p·c).
    pub dp: u32,
    /// Memory of the busiest card.
    pub memory: Memory,
    /// Traffic per dimension with more than one card.
    pub comm: Vec<Traffic>,
    /// Pipeline bubble.
    pub bubble: Bubble,
    /// Soft problems.
    pub warnings: Vec<Warning>,
}

impl Plan {
    /// Memory, traffic and bubble of this plan.
    pub fn report(&self) -> Report {
        Report {
            dp: self.degrees().dp,
            memory: self.memory(),
            comm: self.traffic(),
            bubble: self.bubble(),
            warnings: self.warnings().to_vec(),
        }
    }
}

impl Report {
    /// The dimension that sends the most per card per step ([`crate::traffic::heaviest`]:
    /// the first in report order on a tie).
    pub fn heaviest_traffic(&self) -> Option<&Traffic> {
        crate::traffic::heaviest(&self.comm)
    }
}

/// Checks a config and evaluates it: [`Plan::new`] then [`Plan::report`].
///
/// # Example: the lesson's 64-GPU plan TP 8 × PP 2 × DP 4, ZeRO-1
/// ```
/// use parallel_core::{evaluate, Link, PlanConfig};
/// let r = evaluate(&PlanConfig { gpus: 64, tp: 8, pp: 2, zero: 1, ..PlanConfig::default() }).unwrap();
/// assert_eq!(r.dp, 4);
/// assert_eq!(r.memory.model_states.to_string(), "12.2 GB");
/// let dp = r.comm.iter().find(|t| t.dim.as_str() == "dp").unwrap();
/// assert_eq!((dp.bytes.to_string(), dp.link), ("5.2 GB".to_string(), Link::InfiniBand));
/// assert_eq!(r.bubble.ratio, 0.125);
/// ```
pub fn evaluate(config: &PlanConfig) -> Result<Report, PlanError> {
    Plan::new(config).map(|plan| plan.report())
}
