//! Communication per card per step: bytes one card sends for each dimension, with ring
//! collectives, the link they cross and the time at that link's bandwidth (SPEC §5).
//!
//! Not counted (the page says so): latency, overlap with compute, the extra forward of
//! recomputation, and context parallelism's backward.

use core::fmt;

use serde::{Serialize, Serializer};

use crate::config::Schedule;
use crate::grid::{Dim, Link};
use crate::plan::Plan;
use crate::units::{Bytes, Seconds};

/// The collective a dimension runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collective {
    /// Ring all-reduce (or, with sequence parallelism, all-gather + reduce-scatter: same bytes).
    AllReduce,
    /// All-gather (CP's K and V).
    AllGather,
    /// All-to-all (EP's dispatch and combine).
    AllToAll,
    /// Point-to-point (PP's activations and gradients).
    P2p,
    /// ZeRO-1/2: reduce-scatter of gradients, all-gather of parameters.
    ReduceScatterAllGather,
    /// ZeRO-3: all-gather of parameters (forward and backward), reduce-scatter of gradients.
    AllGatherReduceScatter,
}

impl Collective {
    /// The name used in reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            Collective::AllReduce => "all-reduce",
            Collective::AllGather => "all-gather",
            Collective::AllToAll => "all-to-all",
            Collective::P2p => "p2p",
            Collective::ReduceScatterAllGather => "reduce-scatter+all-gather",
            Collective::AllGatherReduceScatter => "all-gather+reduce-scatter",
        }
    }

    fn for_zero(zero: u8) -> Collective {
        match zero {
            0 => Collective::AllReduce,
            1 | 2 => Collective::ReduceScatterAllGather,
            _ => Collective::AllGatherReduceScatter,
        }
    }
}

impl fmt::Display for Collective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Collective {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// The traffic of one dimension, per card per step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Traffic {
    /// The dimension.
    pub dim: Dim,
    /// Its collective.
    pub collective: Collective,
    /// Cards in its group.
    pub group_size: u32,
    /// Bytes one card sends per step.
    pub bytes: Bytes,
    /// The link it crosses.
    pub link: Link,
    /// bytes ÷ the link's bandwidth.
    pub seconds: Seconds,
}

/// The dimension that sends the most bytes per card per step. On a tie the first in report
/// order wins (tp, cp, ep, pp, dp, edp: the order of [`Plan::traffic`]); `None` when nothing
/// is sent. Every card sends the same bytes, so a card's own traffic gives the same answer.
///
/// ```
/// use parallel_core::{evaluate, Dim, PlanConfig};
/// // TP 8 on 8 cards: TP's 150.3 GB outweighs everything else.
/// let report = evaluate(&PlanConfig { tp: 8, ..PlanConfig::default() }).unwrap();
/// assert_eq!(report.heaviest_traffic().map(|t| t.dim), Some(Dim::Tp));
/// ```
pub fn heaviest(comm: &[Traffic]) -> Option<&Traffic> {
    comm.iter()
        .fold(None, |best: Option<&Traffic>, t| match best {
            Some(b) if b.bytes.get() >= t.bytes.get() => Some(b),
            _ => Some(t),
        })
}

/// Data-parallel bytes per card for a shard of Ψ parameters over a group of D cards (SPEC §5):
/// ZeRO-0 2·((D−1)/D)·g·Ψ; ZeRO-1/2 ((D−1)/D)·(g + 2)·Ψ; ZeRO-3 ((D−1)/D)·(4 + g)·Ψ.
///
/// ```
/// use parallel_core::traffic::data_parallel_bytes;
/// // The anchor on 8 cards, ZeRO-3, g = 2: 145.9 GB (the lesson's table).
/// assert_eq!(data_parallel_bytes(27_781_427_952.0, 8, 3, 2.0).to_string(), "145.9 GB");
/// ```
pub fn data_parallel_bytes(psi: f64, group: u32, zero: u8, grad_bytes: f64) -> Bytes {
    let ring = f64::from(group - 1) / f64::from(group);
    let per_param = match zero {
        0 => 2.0 * grad_bytes,
        1 | 2 => grad_bytes + 2.0,
        _ => 4.0 + grad_bytes,
    };
    Bytes::new(ring * per_param * psi)
}

impl Plan {
    /// x = 2·s'·b·h: one BF16 activation tensor of one micro-batch (s' = s/c).
    pub fn activation_tensor(&self) -> Bytes {
        let s_local = f64::from(self.seq_len()) / f64::from(self.degrees().cp);
        Bytes::new(
            2.0 * s_local * f64::from(self.micro_batch_size()) * f64::from(self.model().hidden),
        )
    }

    /// Traffic per dimension for the whole plan, in the order tp, cp, ep, pp, dp, edp, listing
    /// only dimensions whose group has more than one card. A dimension's link is InfiniBand
    /// when any of its groups spans nodes (SPEC §3).
    ///
    /// | dim | bytes per card per step |
    /// |---|---|
    /// | tp | m·(L/p)·4·(2(t−1)/t)·x (2 all-reduces forward + 2 backward per layer) |
    /// | cp | m·(F/p)·((c−1)/c)·2·kv_local·head_dim·s·b·2, kv_local = max(kv_heads/t, 1) |
    /// | ep | m·(MoE layers/p)·4·((e−1)/e)·(s·b/(c·t))·top_k·h·2 |
    /// | pp | m·2·x (× v when interleaved) |
    /// | dp | [`data_parallel_bytes`] of Ψ (dense part) over D = d·c |
    /// | edp | [`data_parallel_bytes`] of Ψ_e over N/(e·p) |
    ///
    /// Sources: Megatron-LM (Shoeybi 2019; Korthikanti 2022) for TP, ring attention's K/V
    /// all-gather for CP, GShard for EP, ZeRO (Rajbhandari 2019) for DP.
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig};
    /// let plan = Plan::new(&PlanConfig { tp: 2, pp: 4, ..PlanConfig::default() }).unwrap();
    /// let t = plan.traffic();
    /// assert_eq!((t[0].dim.as_str(), t[0].bytes.to_string()), ("tp", "21.5 GB".to_string()));
    /// assert_eq!((t[1].dim.as_str(), t[1].bytes.to_string()), ("pp", "0.7 GB".to_string()));
    /// ```
    pub fn traffic(&self) -> Vec<Traffic> {
        let grid = self.grid();
        self.traffic_with_links(|dim| grid.link(dim))
    }

    /// Traffic as seen from one card: each link comes from that card's own groups (the page's
    /// view of a selected card). Errors when the card is not on the grid.
    pub fn traffic_for_card(&self, card: u32) -> Result<Vec<Traffic>, crate::PlanError> {
        let grid = self.grid();
        let mut links = Vec::with_capacity(6);
        for dim in [Dim::Tp, Dim::Cp, Dim::Ep, Dim::Pp, Dim::Dp, Dim::Edp] {
            let cards = match dim {
                Dim::Dp => grid.weight_group(card)?,
                Dim::Ep | Dim::Edp if !self.model().is_moe() => vec![card],
                _ => grid.group(card, dim)?,
            };
            links.push((dim, Link::of_cards(&cards, self.gpus_per_node())));
        }
        Ok(self.traffic_with_links(|dim| {
            links
                .iter()
                .find(|(d, _)| *d == dim)
                .map_or(Link::NvLink, |(_, link)| *link)
        }))
    }

    fn traffic_with_links(&self, link_of: impl Fn(Dim) -> Link) -> Vec<Traffic> {
        let d = self.degrees();
        let model = self.model();
        let (t, p, c) = (f64::from(d.tp), f64::from(d.pp), f64::from(d.cp));
        let m = f64::from(self.micro_batches());
        let s = f64::from(self.seq_len());
        let b = f64::from(self.micro_batch_size());
        let x = self.activation_tensor();
        let g = self.precision().grad_bytes();
        let ring = |k: f64| (k - 1.0) / k;

        let mut out = Vec::with_capacity(6);
        let mut push = |dim: Dim, collective: Collective, group_size: u32, bytes: Bytes| {
            if group_size > 1 {
                let link = link_of(dim);
                out.push(Traffic {
                    dim,
                    collective,
                    group_size,
                    bytes,
                    link,
                    seconds: bytes / self.bandwidth(link),
                });
            }
        };

        let layers = f64::from(model.layers) / p;
        push(
            Dim::Tp,
            Collective::AllReduce,
            d.tp,
            x * (m * layers * 4.0 * 2.0 * ring(t)),
        );

        let full_attention = f64::from(model.full_attention_layers) / p;
        let kv_local = (f64::from(model.kv_heads) / t).max(1.0);
        let kv_bytes = 2.0 * kv_local * f64::from(model.head_dim) * s * b * 2.0;
        push(
            Dim::Cp,
            Collective::AllGather,
            d.cp,
            Bytes::new(m * full_attention * ring(c) * kv_bytes),
        );

        let routed = model.routed_params();
        if let Some(moe) = model.moe {
            let e = f64::from(d.ep);
            let tokens = s * b / (c * t);
            let bytes = m
                * (f64::from(moe.moe_layers) / p)
                * 4.0
                * ring(e)
                * tokens
                * f64::from(moe.top_k)
                * f64::from(model.hidden)
                * 2.0;
            push(Dim::Ep, Collective::AllToAll, d.ep, Bytes::new(bytes));
        }

        let chunks = match self.schedule() {
            Schedule::Interleaved => f64::from(self.virtual_stages()),
            Schedule::Gpipe | Schedule::OneFOneB => 1.0,
        };
        push(Dim::Pp, Collective::P2p, d.pp, x * (m * 2.0 * chunks));

        let zero = self.zero();
        let dense_psi = (model.params - routed) / (t * p);
        let group = d.weight_group();
        if group > 1 {
            push(
                Dim::Dp,
                Collective::for_zero(zero),
                group,
                data_parallel_bytes(dense_psi, group, zero, g),
            );
        }
        if let Some(edp) = d.expert_dp.filter(|_| routed > 0.0) {
            if edp > 1 {
                let expert_psi = routed / (f64::from(d.ep) * p);
                push(
                    Dim::Edp,
                    Collective::for_zero(zero),
                    edp,
                    data_parallel_bytes(expert_psi, edp, zero, g),
                );
            }
        }
        out
    }
}
