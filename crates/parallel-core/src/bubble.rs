//! The pipeline bubble (SPEC §6).

use serde::Serialize;

use crate::config::Schedule;
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
        let idle = f64::from(pp.saturating_sub(1));
        let ratio = idle / (f64::from(virtual_stages.max(1)) * f64::from(micro_batches.max(1)));
        Bubble {
            ratio,
            share: ratio / (1.0 + ratio),
        }
    }
}

impl Plan {
    /// The plan's bubble: v counts only for the interleaved schedule.
    pub fn bubble(&self) -> Bubble {
        let v = match self.schedule() {
            Schedule::Interleaved => self.virtual_stages(),
            Schedule::Gpipe | Schedule::OneFOneB => 1,
        };
        Bubble::of(self.degrees().pp, self.micro_batches(), v)
    }
}
