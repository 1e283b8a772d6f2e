//! Which parts an embedded grid draws (`parts=grid,figures`): a teacher ticks them in the
//! embed dialog as the controls, and the snippet's link carries them. Without the key a widget
//! draws the grid and its figures ([`Parts::EMBED`]), one screen in a course page's column.

/// One part of a grid's lab, as a teacher can pick it for an embed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// The device grid, its cards and their groups.
    Grid,
    /// Memory per card, expert routing and the bubble, with the warnings.
    Figures,
    /// The step-time estimate.
    Estimate,
    /// The traffic table.
    Traffic,
    /// The memory chart (ZeRO 0–3).
    ChartMemory,
    /// The 3D balance chart.
    ChartBalance,
    /// Memory by pipeline stage.
    ChartStages,
    /// Traffic per dimension.
    ChartTraffic,
    /// The bubble against micro-batches.
    ChartBubble,
    /// The pipeline schedule's timeline.
    Schedule,
}

impl Part {
    /// Every part, in the order a grid draws them.
    pub const ALL: [Part; 10] = [
        Part::Grid,
        Part::Figures,
        Part::Estimate,
        Part::Traffic,
        Part::ChartMemory,
        Part::ChartBalance,
        Part::ChartStages,
        Part::ChartTraffic,
        Part::ChartBubble,
        Part::Schedule,
    ];

    /// Its word in a link.
    pub const fn id(self) -> &'static str {
        match self {
            Part::Grid => "grid",
            Part::Figures => "figures",
            Part::Estimate => "estimate",
            Part::Traffic => "traffic",
            Part::ChartMemory => "chart-memory",
            Part::ChartBalance => "chart-balance",
            Part::ChartStages => "chart-stages",
            Part::ChartTraffic => "chart-traffic",
            Part::ChartBubble => "chart-bubble",
            Part::Schedule => "schedule",
        }
    }

    /// The part of a link word.
    pub fn from_id(id: &str) -> Option<Part> {
        Part::ALL.into_iter().find(|p| p.id() == id)
    }

    /// Whether it is one of the charts drawn after the page settles.
    pub const fn is_chart(self) -> bool {
        matches!(
            self,
            Part::ChartMemory
                | Part::ChartBalance
                | Part::ChartStages
                | Part::ChartTraffic
                | Part::ChartBubble
                | Part::Schedule
        )
    }

    const fn bit(self) -> u32 {
        1 << self as u32
    }
}

super::word_set::word_set! {
    /// A set of parts.
    ///
    /// ```
    /// use parallel_core::link::{Part, Parts};
    /// assert_eq!(Parts::EMBED.write(), "grid,figures");
    /// let set = Parts::read("traffic, grid")?;
    /// assert!(set.contains(Part::Grid) && !set.contains(Part::Figures));
    /// assert_eq!(Parts::read("grid,charts"), Err("charts".to_string()));
    /// # Ok::<(), String>(())
    /// ```
    Parts of Part, "grid,figures"
}

impl Parts {
    /// An embedded grid's parts by default: the grid and its figures.
    pub const EMBED: Parts = Parts(Part::Grid.bit() | Part::Figures.bit());
    /// Every part: a page's grid.
    pub const ALL: Parts = Parts((1 << Part::ALL.len()) - 1);

    /// Whether any chart is in the set.
    pub fn any_chart(self) -> bool {
        self.iter().any(Part::is_chart)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_set_reads_back() {
        for bits in 0..(1u32 << Part::ALL.len()) {
            let set = Parts(bits);
            assert_eq!(Parts::read(&set.write()), Ok(set), "{bits:b}");
        }
        assert_eq!(Parts::ALL.iter().count(), Part::ALL.len());
        for part in Part::ALL {
            assert_eq!(Part::from_id(part.id()), Some(part));
        }
    }
}
