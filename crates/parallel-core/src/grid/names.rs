//! The names of the grid's dimensions ([`Dim`]) and links ([`Link`]), the vocabulary every
//! face of the lab uses for them.

use core::fmt;

use serde::Serialize;

/// A parallel dimension of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dim {
    /// Tensor parallel.
    Tp,
    /// Context parallel.
    Cp,
    /// Expert parallel (MoE models; inside a pipeline stage).
    Ep,
    /// Pipeline parallel.
    Pp,
    /// Data parallel. In traffic figures, the D = d·c cards that hold the same weights.
    Dp,
    /// Expert data parallel: the cards holding the same experts.
    Edp,
    /// Optimizer offload (SPEC §14): a card and its host, over PCIe; a group of one card.
    Offload,
    /// A rollout engine (SPEC §15): the E cards that serve one inference engine in the rollout
    /// phase. Not a dimension of the training grid (no traffic row): see
    /// [`crate::Plan::engine_group`].
    Engine,
}

impl Dim {
    /// Every dimension, in the order reports and tables list them (the traffic rows' order):
    /// the grid's six, then the host link's offload (SPEC §14).
    pub const ALL: [Dim; 7] = [
        Dim::Tp,
        Dim::Cp,
        Dim::Ep,
        Dim::Pp,
        Dim::Dp,
        Dim::Edp,
        Dim::Offload,
    ];

    /// The dimensions that group cards of the grid: all but the offload.
    pub const GRID: [Dim; 6] = [Dim::Tp, Dim::Cp, Dim::Ep, Dim::Pp, Dim::Dp, Dim::Edp];

    /// The dimension's short name, as in reports: "tp", "cp", "ep", "pp", "dp", "edp",
    /// "offload", "engine".
    pub const fn as_str(self) -> &'static str {
        match self {
            Dim::Tp => "tp",
            Dim::Cp => "cp",
            Dim::Ep => "ep",
            Dim::Pp => "pp",
            Dim::Dp => "dp",
            Dim::Edp => "edp",
            Dim::Offload => "offload",
            Dim::Engine => "engine",
        }
    }

    /// The dimension's label in tables and text, the same in both languages: "TP", "CP",
    /// "EP", "PP", "DP", "EDP", "Offload", "Engine".
    pub const fn label(self) -> &'static str {
        match self {
            Dim::Tp => "TP",
            Dim::Cp => "CP",
            Dim::Ep => "EP",
            Dim::Pp => "PP",
            Dim::Dp => "DP",
            Dim::Edp => "EDP",
            Dim::Offload => "Offload",
            Dim::Engine => "Engine",
        }
    }
}

/// `Display` and `Serialize` for types named by their `as_str`: both write that name, so a
/// report's JSON and its text spell a value alike.
macro_rules! written_as_str {
    ($($t:ty),+ $(,)?) => {$(
        impl core::fmt::Display for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
    )+};
}
pub(crate) use written_as_str;

written_as_str!(Dim);

/// The interconnect a group's traffic crosses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Link {
    /// Inside a node.
    #[serde(rename = "nvlink")]
    NvLink,
    /// Across nodes.
    #[serde(rename = "ib")]
    InfiniBand,
    /// Between a card and its host (SPEC §14: the optimizer offload's traffic).
    #[serde(rename = "pcie")]
    Pcie,
}

impl Link {
    /// "nvlink", "ib" or "pcie", as in reports and the page's `data-link`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Link::NvLink => "nvlink",
            Link::InfiniBand => "ib",
            Link::Pcie => "pcie",
        }
    }

    /// The link's short name in tables and charts: "NVLink", "IB" or "PCIe". (`Display`
    /// spells out "InfiniBand".)
    pub const fn short_name(self) -> &'static str {
        match self {
            Link::NvLink => "NVLink",
            Link::InfiniBand => "IB",
            Link::Pcie => "PCIe",
        }
    }

    /// The link of a set of cards: NVLink when they all share a node (SPEC §3). (A card's
    /// own PCIe link to its host is not a link between cards.)
    ///
    /// ```
    /// use parallel_core::Link;
    /// assert_eq!(Link::of_cards(&[0, 7], 8), Link::NvLink);
    /// assert_eq!(Link::of_cards(&[0, 8], 8), Link::InfiniBand);
    /// ```
    pub fn of_cards(cards: &[u32], gpus_per_node: u32) -> Link {
        let gpn = gpus_per_node.max(1);
        let mut nodes = cards.iter().map(|&c| c / gpn);
        match nodes.next() {
            Some(first) if nodes.any(|n| n != first) => Link::InfiniBand,
            _ => Link::NvLink,
        }
    }
}

impl fmt::Display for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Link::NvLink => "NVLink",
            Link::InfiniBand => "InfiniBand",
            Link::Pcie => "PCIe",
        })
    }
}
