//! The groups of one card: what the device grid lights when a card is picked.

use serde::Serialize;

use super::Dim;

/// The groups of one card, each listed in rank order: in the training phase its TP, CP, PP
/// and DP groups (and EP and expert DP for every MoE model, e = 1 included), from
/// [`crate::grid::Grid::groups`]; in the rollout phase (SPEC §15) its engine alone, from
/// [`crate::Plan::groups_in`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Groups {
    /// Cards of its TP group (empty in the rollout phase).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tp: Vec<u32>,
    /// Cards of its CP group (empty in the rollout phase).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cp: Vec<u32>,
    /// Cards of its pipeline, one per stage (empty in the rollout phase).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pp: Vec<u32>,
    /// Cards of its DP group (empty in the rollout phase).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dp: Vec<u32>,
    /// Cards of its EP group (MoE models; the card alone at e = 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ep: Option<Vec<u32>>,
    /// Cards of its expert-data-parallel group, those holding the same experts (MoE models).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edp: Option<Vec<u32>>,
    /// Cards of its rollout engine (the rollout phase only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<Vec<u32>>,
}

impl Groups {
    /// The groups of a card in the rollout phase: its engine's cards, and no other.
    pub fn of_engine(engine: Vec<u32>) -> Groups {
        Groups {
            tp: Vec::new(),
            cp: Vec::new(),
            pp: Vec::new(),
            dp: Vec::new(),
            ep: None,
            edp: None,
            engine: Some(engine),
        }
    }

    /// The cards of the group of `dim`; `None` for EP and expert DP when the model is dense,
    /// for the offload (a card and its host), for
    /// the engine in the training phase and for the training groups in the rollout phase.
    ///
    /// ```
    /// use parallel_core::{Dim, Plan, PlanConfig};
    /// let groups = Plan::new(&PlanConfig { gpus: 64, tp: 8, pp: 2, ..PlanConfig::default() })?
    ///     .grid()
    ///     .groups(0)?;
    /// assert_eq!(groups.of(Dim::Pp), Some(&[0, 8][..]));
    /// assert_eq!(groups.of(Dim::Ep), None);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn of(&self, dim: Dim) -> Option<&[u32]> {
        match dim {
            Dim::Tp => present(&self.tp),
            Dim::Cp => present(&self.cp),
            Dim::Pp => present(&self.pp),
            Dim::Dp => present(&self.dp),
            Dim::Ep => self.ep.as_deref(),
            Dim::Edp => self.edp.as_deref(),
            Dim::Offload => None,
            Dim::Engine => self.engine.as_deref(),
        }
    }

    /// Every group the card has, with its dimension, in the order tp, cp, pp, dp, ep, edp,
    /// engine.
    pub fn each(&self) -> impl Iterator<Item = (Dim, &[u32])> {
        [
            Dim::Tp,
            Dim::Cp,
            Dim::Pp,
            Dim::Dp,
            Dim::Ep,
            Dim::Edp,
            Dim::Engine,
        ]
        .into_iter()
        .filter_map(|dim| self.of(dim).map(|members| (dim, members)))
    }
}

/// A group that is there: `None` for the empty list of a phase that has no such group.
fn present(cards: &[u32]) -> Option<&[u32]> {
    Some(cards).filter(|c| !c.is_empty())
}
