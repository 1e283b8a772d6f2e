//! The device grid: rank coordinates, each card's groups, and which link a group uses (SPEC §3).
//!
//! Ranks are laid out by [`RankOrder`], innermost first. For "tp-cp-pp-dp":
//! tp_idx = r mod t, cp_idx = (r div t) mod c, pp_idx = (r div t·c) mod p,
//! dp_idx = r div (t·c·p). A card's group along a dimension is the set of cards that differ
//! from it only in that coordinate. Card r sits on node floor(r / gpus_per_node); a group is on
//! NVLink when all its cards share a node, otherwise on InfiniBand.

mod groups;
mod names;
mod nodes;

pub use groups::Groups;
pub(crate) use names::written_as_str;
pub use names::{Dim, Link};

use serde::Serialize;

use crate::config::RankOrder;
use crate::error::PlanError;

/// A card's position along each dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Coords {
    /// Index in its TP group.
    pub tp: u32,
    /// Index in its CP group.
    pub cp: u32,
    /// Pipeline stage.
    pub pp: u32,
    /// Data-parallel replica.
    pub dp: u32,
}

/// Sizes and strides of the four dense dimensions for one plan; all grid questions go here.
///
/// Get it from a validated plan with [`crate::Plan::grid`], which guarantees t·c·p·d = N.
///
/// # Example (SPEC §3)
/// ```
/// use parallel_core::{Plan, PlanConfig};
/// // 64 GPUs, TP 8 × PP 2 × DP 4
/// let grid = Plan::new(&PlanConfig { gpus: 64, tp: 8, pp: 2, ..PlanConfig::default() })?.grid();
/// let g = grid.groups(0).unwrap();
/// assert_eq!(g.tp, (0..8).collect::<Vec<_>>());
/// assert_eq!(g.pp, vec![0, 8]);
/// assert_eq!(g.dp, vec![0, 16, 32, 48]);
/// # Ok::<(), parallel_core::PlanError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    gpus: u32,
    gpus_per_node: u32,
    /// t, c, p, d.
    sizes: [u32; 4],
    /// Rank distance between neighbours along tp, cp, pp, dp.
    strides: [u32; 4],
    /// EP degree (1 when the model is dense).
    ep: u32,
    /// Whether the model has experts: its cards then have EP and expert-DP groups, at EP 1
    /// too (Megatron-Core forms them for every MoE model: `parallel_state.py`'s expert mesh).
    experts: bool,
}

const TP: usize = 0;
const CP: usize = 1;
const PP: usize = 2;
const DP: usize = 3;

impl Grid {
    /// The grid of `gpus` cards with degrees `[t, c, p, d]` (t·c·p·d must equal `gpus`, as
    /// [`crate::Plan::new`] guarantees) and the given rank order.
    pub(crate) fn new(gpus: u32, gpus_per_node: u32, sizes: [u32; 4], order: RankOrder) -> Grid {
        let [t, c, p, d] = sizes;
        let strides = match order {
            RankOrder::TpCpPpDp => [1, t, t * c, t * c * p],
            RankOrder::TpCpDpPp => [1, t, t * c * d, t * c],
        };
        Grid {
            gpus,
            gpus_per_node: gpus_per_node.max(1),
            sizes,
            strides,
            ep: 1,
            experts: false,
        }
    }

    /// The same grid for a MoE model, with expert-parallel groups of `ep` cards inside each
    /// stage (groups of one card at EP 1).
    pub(crate) fn with_ep(mut self, ep: u32) -> Grid {
        self.ep = ep.max(1);
        self.experts = true;
        self
    }

    /// Number of cards.
    pub fn gpus(&self) -> u32 {
        self.gpus
    }

    /// GPUs per node.
    pub fn gpus_per_node(&self) -> u32 {
        self.gpus_per_node
    }

    /// The node of a card: floor(r / gpus_per_node).
    pub fn node_of(&self, card: u32) -> u32 {
        card / self.gpus_per_node
    }

    fn check_card(&self, card: u32) -> Result<(), PlanError> {
        if card < self.gpus {
            Ok(())
        } else {
            Err(PlanError::NoSuchCard {
                card,
                gpus: self.gpus,
            })
        }
    }

    fn index(&self, card: u32, dim: usize) -> u32 {
        (card / self.strides[dim]) % self.sizes[dim]
    }

    /// The coordinates of a card along tp, cp, pp, dp.
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig};
    /// let grid = Plan::new(&PlanConfig { gpus: 64, tp: 8, pp: 2, ..PlanConfig::default() })?.grid();
    /// let c = grid.coords(27)?;
    /// assert_eq!((c.tp, c.pp, c.dp), (3, 1, 1));
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn coords(&self, card: u32) -> Result<Coords, PlanError> {
        self.check_card(card)?;
        Ok(Coords {
            tp: self.index(card, TP),
            cp: self.index(card, CP),
            pp: self.index(card, PP),
            dp: self.index(card, DP),
        })
    }

    /// Cards that differ from `card` only along the given dense dimensions, in rank order.
    fn members(&self, card: u32, dims: &[usize]) -> Vec<u32> {
        let base = dims
            .iter()
            .fold(card, |b, &d| b - self.index(card, d) * self.strides[d]);
        let mut cards = vec![base];
        for &d in dims {
            let stride = self.strides[d];
            let current = cards.clone();
            cards = (0..self.sizes[d])
                .flat_map(|i| current.iter().map(move |&c| c + i * stride))
                .collect();
        }
        cards.sort_unstable();
        cards
    }

    /// The group of `card` along `dim`: tp, cp, pp and dp are the cards differing only in that
    /// coordinate; ep and edp follow SPEC §3's numbering inside a stage.
    ///
    /// ```
    /// use parallel_core::{Dim, Plan, PlanConfig, RankOrder};
    /// let config = PlanConfig { gpus: 64, tp: 8, pp: 2, order: RankOrder::TpCpDpPp, ..PlanConfig::default() };
    /// assert_eq!(Plan::new(&config)?.grid().group(0, Dim::Pp)?, vec![0, 32]);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn group(&self, card: u32, dim: Dim) -> Result<Vec<u32>, PlanError> {
        self.check_card(card)?;
        Ok(match dim {
            Dim::Tp => self.members(card, &[TP]),
            Dim::Cp => self.members(card, &[CP]),
            Dim::Pp => self.members(card, &[PP]),
            Dim::Dp => self.members(card, &[DP]),
            Dim::Ep => {
                let (stage, q) = self.stage_position(card);
                let first = q / self.ep * self.ep;
                (first..first + self.ep)
                    .map(|q| self.card_at(stage, q))
                    .collect()
            }
            Dim::Edp => {
                let (stage, q) = self.stage_position(card);
                let per_stage = self.gpus / self.sizes[PP];
                (q % self.ep..per_stage)
                    .step_by(self.ep as usize)
                    .map(|q| self.card_at(stage, q))
                    .collect()
            }
            // A group of one: the offload's is a card and its host; engines belong to the
            // rollout phase, not to the training grid (see `Plan::engine_group`).
            Dim::Offload | Dim::Engine => vec![card],
        })
    }

    /// The card's rank in its EP group, q mod e with q its position in its stage (SPEC §3):
    /// rank r holds experts r·E/e … (r + 1)·E/e − 1, so rank 0 holds the first (SPEC §20: the
    /// hottest). 0 on a dense model's grid.
    ///
    /// ```
    /// use parallel_core::{ModelChoice, Plan, PlanConfig, Preset};
    /// let moe = PlanConfig { model: ModelChoice::Preset(Preset::Mixtral8x7b), gpus: 16, ep: 4, ..PlanConfig::default() };
    /// let grid = Plan::new(&moe)?.grid();
    /// assert_eq!((0..6).map(|c| grid.ep_rank(c).unwrap()).collect::<Vec<_>>(), [0, 1, 2, 3, 0, 1]);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn ep_rank(&self, card: u32) -> Result<u32, PlanError> {
        self.check_card(card)?;
        Ok(self.stage_position(card).1 % self.ep.max(1))
    }

    /// The cards holding the same (dense) weights as `card`: its CP and DP groups together,
    /// D = d·c cards (SPEC §4–§5). This is the group of the `dp` traffic entry.
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig};
    /// let grid = Plan::new(&PlanConfig { cp: 2, ..PlanConfig::default() })?.grid();
    /// assert_eq!(grid.weight_group(0)?, vec![0, 1, 2, 3, 4, 5, 6, 7]);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn weight_group(&self, card: u32) -> Result<Vec<u32>, PlanError> {
        self.check_card(card)?;
        Ok(self.members(card, &[CP, DP]))
    }

    /// Every group of one card (the CLI's `groups --card N`).
    pub fn groups(&self, card: u32) -> Result<Groups, PlanError> {
        Ok(Groups {
            tp: self.group(card, Dim::Tp)?,
            cp: self.group(card, Dim::Cp)?,
            pp: self.group(card, Dim::Pp)?,
            dp: self.group(card, Dim::Dp)?,
            ep: if self.experts {
                Some(self.group(card, Dim::Ep)?)
            } else {
                None
            },
            edp: if self.experts {
                Some(self.group(card, Dim::Edp)?)
            } else {
                None
            },
            engine: None,
        })
    }

    /// A card's stage and its position q among the stage's N/p cards in rank order.
    ///
    /// Removing the pp coordinate leaves tp, cp, dp in rank order for both orders, so
    /// q = tp_idx + t·cp_idx + t·c·dp_idx.
    fn stage_position(&self, card: u32) -> (u32, u32) {
        let [t, c, _, _] = self.sizes;
        let q = self.index(card, TP) + t * self.index(card, CP) + t * c * self.index(card, DP);
        (self.index(card, PP), q)
    }

    /// The card at position q of a stage (inverse of `stage_position`).
    fn card_at(&self, stage: u32, q: u32) -> u32 {
        let [t, c, _, _] = self.sizes;
        let coords = [q % t, (q / t) % c, stage, q / (t * c)];
        coords.iter().zip(self.strides).map(|(i, s)| i * s).sum()
    }

    /// The link of a dimension in the plan-wide report: InfiniBand when *any* of its groups
    /// spans nodes (SPEC §3). `Dim::Dp` means the weight group (CP and DP together); the
    /// offload's is PCIe (SPEC §14).
    ///
    /// Runs in time independent of the number of cards for nodes of up to 64 GPUs: it tracks
    /// the set of residues mod gpus_per_node that the groups' first cards take.
    ///
    /// ```
    /// use parallel_core::{Dim, Link, Plan, PlanConfig};
    /// let grid = Plan::new(&PlanConfig { gpus: 64, tp: 8, pp: 2, ..PlanConfig::default() })?.grid();
    /// assert_eq!(grid.link(Dim::Tp), Link::NvLink);
    /// assert_eq!(grid.link(Dim::Pp), Link::InfiniBand);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn link(&self, dim: Dim) -> Link {
        let spans = match dim {
            Dim::Tp => self.any_group_spans(&[TP]),
            Dim::Cp => self.any_group_spans(&[CP]),
            Dim::Pp => self.any_group_spans(&[PP]),
            Dim::Dp => self.any_group_spans(&[CP, DP]),
            Dim::Ep | Dim::Edp => self.any_enumerated_group_spans(dim),
            Dim::Offload => return Link::Pcie,
            // The training grid's engine group is the card alone (see `group`); an engine's
            // own link is `Link::of_cards` of `Plan::engine_group`.
            Dim::Engine => false,
        };
        if spans {
            Link::InfiniBand
        } else {
            Link::NvLink
        }
    }

    fn any_group_spans(&self, dims: &[usize]) -> bool {
        let gpn = self.gpus_per_node;
        if gpn >= self.gpus {
            return false;
        }
        // Members of a group are base + Σ i_d·stride_d; its first and last cards are base and
        // base + span, and all lie between them, so it spans nodes iff base mod G + span ≥ G.
        let span: u64 = dims
            .iter()
            .map(|&d| u64::from(self.sizes[d] - 1) * u64::from(self.strides[d]))
            .sum();
        if span == 0 {
            return false;
        }
        let gpn64 = u64::from(gpn);
        if span >= gpn64 {
            return true;
        }
        let threshold = (gpn64 - span) as u32;
        let others = (0..4).filter(|d| !dims.contains(d));
        if gpn <= 64 {
            // Bit ρ set ⇔ some group's first card has residue ρ mod G.
            let full = if gpn == 64 {
                u64::MAX
            } else {
                (1u64 << gpn) - 1
            };
            let rotate = |set: u64, by: u32| -> u64 {
                if by == 0 {
                    set
                } else {
                    ((set << by) | (set >> (gpn - by))) & full
                }
            };
            let mut residues: u64 = 1;
            for d in others {
                let step = self.strides[d] % gpn;
                if step == 0 || self.sizes[d] == 1 {
                    continue;
                }
                let mut reached = residues;
                let mut shift = 0;
                for _ in 1..self.sizes[d] {
                    shift = (shift + step) % gpn;
                    if shift == 0 {
                        break;
                    }
                    reached |= rotate(residues, shift);
                }
                residues = reached;
                if residues >> threshold != 0 {
                    return true;
                }
            }
            residues >> threshold != 0
        } else {
            // Large nodes: walk the groups' first cards (bounded by the number of cards).
            (0..self.gpus)
                .filter(|&r| dims.iter().all(|&d| self.index(r, d) == 0))
                .any(|base| base % gpn >= threshold)
        }
    }

    /// EP and EDP groups are not arithmetic progressions of ranks: walk each group once
    /// (N card visits in all, no allocation).
    fn any_enumerated_group_spans(&self, dim: Dim) -> bool {
        let per_stage = self.gpus / self.sizes[PP];
        let (groups, size, member_step, group_step) = match dim {
            Dim::Ep => (per_stage / self.ep, self.ep, 1, self.ep),
            _ => (self.ep, per_stage / self.ep, self.ep, 1),
        };
        (0..self.sizes[PP]).any(|stage| {
            (0..groups).any(|g| {
                let first = g * group_step;
                let node = self.node_of(self.card_at(stage, first));
                (1..size)
                    .any(|i| self.node_of(self.card_at(stage, first + i * member_step)) != node)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_force_link(grid: &Grid, dim: Dim) -> Link {
        let spans = (0..grid.gpus).any(|card| {
            let g = if dim == Dim::Dp {
                grid.weight_group(card)
            } else {
                grid.group(card, dim)
            }
            .expect("card in range");
            Link::of_cards(&g, grid.gpus_per_node) == Link::InfiniBand
        });
        if spans {
            Link::InfiniBand
        } else {
            Link::NvLink
        }
    }

    #[test]
    fn fast_link_matches_enumeration() {
        for gpn in [1, 2, 3, 5, 6, 8, 12, 72] {
            for (gpus, sizes) in [
                (64, [8, 1, 2, 4]),
                (48, [2, 3, 2, 4]),
                (24, [1, 2, 3, 4]),
                (96, [3, 2, 4, 4]),
                (144, [6, 2, 3, 4]),
            ] {
                for order in [RankOrder::TpCpPpDp, RankOrder::TpCpDpPp] {
                    let grid = Grid::new(gpus, gpn, sizes, order);
                    for dim in [Dim::Tp, Dim::Cp, Dim::Pp, Dim::Dp] {
                        assert_eq!(
                            grid.link(dim),
                            brute_force_link(&grid, dim),
                            "gpn {gpn} gpus {gpus} sizes {sizes:?} {order:?} {dim:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn ep_groups_are_consecutive_cards_of_a_stage() {
        // 16 cards, PP 2, DP 8 (tp-cp-pp-dp): stage 0 = {0,2,4,...,14}; EP 4 groups of 4.
        let grid = Grid::new(16, 8, [1, 1, 2, 8], RankOrder::TpCpPpDp).with_ep(4);
        assert_eq!(grid.group(0, Dim::Ep).unwrap(), vec![0, 2, 4, 6]);
        assert_eq!(grid.group(2, Dim::Edp).unwrap(), vec![2, 10]);
        assert_eq!(grid.group(9, Dim::Ep).unwrap(), vec![9, 11, 13, 15]);
    }

    #[test]
    fn ep_link_matches_enumeration_and_groups_partition_each_stage() {
        for gpn in [2, 4, 8, 16] {
            for (gpus, sizes, ep) in [
                (16, [1, 1, 2, 8], 4),
                (32, [2, 1, 2, 8], 8),
                (64, [1, 2, 4, 8], 2),
            ] {
                for order in [RankOrder::TpCpPpDp, RankOrder::TpCpDpPp] {
                    let grid = Grid::new(gpus, gpn, sizes, order).with_ep(ep);
                    for dim in [Dim::Ep, Dim::Edp] {
                        assert_eq!(
                            grid.link(dim),
                            brute_force_link(&grid, dim),
                            "{gpn} {sizes:?} {order:?} {dim}"
                        );
                        let mut seen = vec![false; gpus as usize];
                        for card in 0..gpus {
                            let g = grid.group(card, dim).unwrap();
                            assert!(g.contains(&card));
                            let stage = grid.coords(card).unwrap().pp;
                            assert!(g.iter().all(|&c| grid.coords(c).unwrap().pp == stage));
                            seen[card as usize] = true;
                        }
                        assert!(seen.iter().all(|&s| s));
                    }
                }
            }
        }
    }

    #[test]
    fn unknown_card_is_an_error() {
        let grid = Grid::new(8, 8, [1, 1, 1, 8], RankOrder::TpCpPpDp);
        assert_eq!(grid.groups(8).unwrap_err().field(), crate::Field::Card);
    }
}
