//! The pipeline bubble (SPEC §6).

use serde::Serialize;

use crate::config::Schedule;
use crate::formula::{count_of, Quantity};
use crate::plan::Plan;

/// Idle time of the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Bubble {
    /// Idle time relative to the ideal compute time: (p−1)/m, interleaved (p−1)/(v·m).
    pub ratio: f64,
    /// Share of the whole step: ratio / (1 + ratio).
    pub share: f64,
}

impl Bubble {
    /// The bubble of p stages, m micro-batches and v chunks per stage (v = 1 unless
    /// interleaved). Source: Narayanan et al. 2021 §2.2.
    ///
    /// ```
    /// use parallel_core::Bubble;
    /// let b = Bubble::of(8, 32, 1);
    /// assert_eq!(b.ratio, 0.21875);
    /// assert_eq!(format!("{:.1}%", b.share * 100.0), "17.9%");
    /// assert_eq!(Bubble::of(1, 8, 1).share, 0.0);
    /// ```
    pub fn of(pp: u32, micro_batches: u32, virtual_stages: u32) -> Bubble {
        let ratio = ratio(pp, micro_batches, Some(virtual_stages));
        Bubble {
            ratio,
            share: share(ratio),
        }
    }
}

/// The bubble ratio (p − 1)/m, interleaved (p − 1)/(v·m), as a formula (`virtual_stages`
/// `None` unless interleaved).
pub(crate) fn ratio<Q: Quantity>(pp: u32, micro_batches: u32, virtual_stages: Option<u32>) -> Q {
    let idle = count_of::<Q>("p", pp.max(1)) - Q::lit(1.0);
    let m = count_of::<Q>("m", micro_batches.max(1));
    match virtual_stages {
        Some(v) => idle / (count_of::<Q>("v", v.max(1)) * m),
        None => idle / m,
    }
}

/// The bubble's share of the step, ratio/(1 + ratio), as a formula of the ratio.
pub(crate) fn share<Q: Quantity>(ratio: Q) -> Q {
    ratio.clone() / (Q::lit(1.0) + ratio)
}

impl Plan {
    /// The plan's bubble: v counts only for the interleaved schedule.
    pub fn bubble(&self) -> Bubble {
        let ratio = self.bubble_ratio();
        Bubble {
            ratio,
            share: share(ratio),
        }
    }

    /// The plan's bubble ratio as a formula: v counts only for the interleaved schedule.
    pub(crate) fn bubble_ratio<Q: Quantity>(&self) -> Q {
        let v = match self.schedule() {
            Schedule::Interleaved => Some(self.virtual_stages()),
            Schedule::Gpipe | Schedule::OneFOneB => None,
        };
        ratio(self.degrees().pp, self.micro_batches(), v)
    }
}
