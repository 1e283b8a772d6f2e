//! How many nodes a group spans, the node count NCCL's ring latency takes (SPEC §18).

use super::{Grid, Link, CP, DP, PP, TP};
use crate::grid::Dim;

impl Grid {
    /// How many nodes the group of card 0 along `dim` spans (the node count NCCL's ring latency
    /// takes): the group's members are Σ i_d·stride_d; along its outermost dimension a stride
    /// of a whole node or more puts each step on a new node, while members closer than a node
    /// share nodes by their span. EP and expert-DP groups, enumerated rather than strided, are
    /// taken as one node each when they stay inside a node and one member a node otherwise.
    ///
    /// ```
    /// use parallel_core::{Dim, Plan, PlanConfig};
    /// // 64 cards of 8 a node, TP 2 × PP 2: DP 16 takes every fourth card, 2 a node over 8
    /// // nodes; TP 8 × PP 2: each of DP 4 on a node of its own.
    /// let grid = Plan::new(&PlanConfig { gpus: 64, tp: 2, pp: 2, ..PlanConfig::default() })?.grid();
    /// assert_eq!((grid.nodes_spanned(Dim::Tp), grid.nodes_spanned(Dim::Dp)), (1, 8));
    /// let grid = Plan::new(&PlanConfig { gpus: 64, tp: 8, pp: 2, ..PlanConfig::default() })?.grid();
    /// assert_eq!((grid.nodes_spanned(Dim::Pp), grid.nodes_spanned(Dim::Dp)), (2, 4));
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn nodes_spanned(&self, dim: Dim) -> u32 {
        let dims: &[usize] = match dim {
            Dim::Tp => &[TP],
            Dim::Cp => &[CP],
            Dim::Pp => &[PP],
            Dim::Dp => &[CP, DP],
            Dim::Ep | Dim::Edp => {
                let size = self
                    .groups(0)
                    .ok()
                    .and_then(|g| g.of(dim).map(<[u32]>::len));
                let size = size.map_or(1, |n| n as u32);
                return if self.link(dim) == Link::NvLink {
                    1
                } else {
                    size
                };
            }
            Dim::Offload | Dim::Engine => return 1,
        };
        let mut axes: Vec<(u64, u64)> = dims
            .iter()
            .map(|&d| (u64::from(self.strides[d]), u64::from(self.sizes[d])))
            .filter(|&(_, size)| size > 1)
            .collect();
        axes.sort_unstable();
        nodes_of(&axes, u64::from(self.gpus_per_node)) as u32
    }
}

/// Nodes of `node` cards spanned by the cards Σ i_d·stride_d, i_d < size_d, over `axes` sorted
/// by stride: the outermost axis steps to new nodes when its stride is a node or more;
/// otherwise the whole group lies within its span.
fn nodes_of(axes: &[(u64, u64)], node: u64) -> u64 {
    match axes.split_last() {
        None => 1,
        Some((&(stride, size), inner)) if stride >= node => size * nodes_of(inner, node),
        Some(_) => {
            let span: u64 = axes.iter().map(|&(stride, size)| (size - 1) * stride).sum();
            span / node + 1
        }
    }
}
