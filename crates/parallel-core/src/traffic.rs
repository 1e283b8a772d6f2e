//! Communication per card per step: bytes one card sends for each dimension, with ring
//! collectives, the link they cross and the time at that link's bandwidth (SPEC §5).
//!
//! Not counted (the page says so): latency, overlap with compute, the extra forward of
//! recomputation, and context parallelism's backward.

use serde::Serialize;

use crate::config::Schedule;
use crate::formula::{count_of, ring, Quantity, Show};
use crate::grid::{written_as_str, Dim, Link};
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
    /// Optimizer offload: gradients device to host, weights host to device (SPEC §14).
    DeviceHostRoundTrip,
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
            Collective::DeviceHostRoundTrip => "d2h+h2d",
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

written_as_str!(Collective);

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
/// order wins (tp, cp, ep, pp, dp, edp, offload: the order of [`Plan::traffic`]); `None` when nothing
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
    Bytes::new(data_parallel(psi, f64::from(group), zero, grad_bytes))
}

/// [`data_parallel_bytes`] as a formula of the shard `psi` and the group `group`.
pub fn data_parallel<Q: Quantity>(psi: Q, group: Q, zero: u8, grad_bytes: f64) -> Q {
    let g = || count_of::<Q>("g", grad_bytes);
    let per_param = match zero {
        0 => Q::lit(2.0) * g(),
        1 | 2 => g() + Q::lit(2.0),
        _ => Q::lit(4.0) + g(),
    };
    ring(group) * per_param * psi
}

/// The symbol of a link's bandwidth in formulas.
pub(crate) const fn bandwidth_symbol(link: Link) -> &'static str {
    match link {
        Link::NvLink => "NVLink bandwidth",
        Link::InfiniBand => "IB bandwidth",
        Link::Pcie => "PCIe bandwidth",
    }
}

impl Plan {
    /// x = 2·s'·b·h: one BF16 activation tensor of one micro-batch (s' = s/c).
    pub fn activation_tensor(&self) -> Bytes {
        Bytes::new(self.tensor())
    }

    /// s' = s/c: the tokens of a sequence one card of a CP group holds.
    pub(crate) fn local_seq<Q: Quantity>(&self) -> Q {
        (count_of::<Q>("s", self.seq_len()) / count_of("c", self.degrees().cp))
            .named("s'", Show::Count)
    }

    /// [`Plan::activation_tensor`] as a formula.
    pub(crate) fn tensor<Q: Quantity>(&self) -> Q {
        (Q::lit(2.0)
            * self.local_seq()
            * count_of("b", self.micro_batch_size())
            * count_of("h", self.model().hidden))
        .named("x", Show::Bytes)
    }

    /// The bytes one card sends per step for `dim` (the rows of [`Plan::traffic`]'s table),
    /// `None` when the plan has no such traffic (a dense model's EP, the offload with the
    /// optimizer on the card). A group of one card gives the formula's value, 0.
    pub fn traffic_bytes<Q: Quantity>(&self, dim: Dim) -> Option<Q> {
        let d = self.degrees();
        let model = self.model();
        let m = || count_of::<Q>("m", self.micro_batches());
        let p = || count_of::<Q>("p", d.pp);
        let t = || count_of::<Q>("t", d.tp);
        Some(match dim {
            Dim::Tp => {
                m() * (count_of::<Q>("L", model.layers) / p())
                    * Q::lit(4.0)
                    * Q::lit(2.0)
                    * ring(t())
                    * self.tensor()
            }
            Dim::Cp => {
                let kv_local = (count_of::<Q>("kv_heads", model.kv_heads) / t())
                    .max(Q::lit(1.0))
                    .named("kv_local", Show::Count);
                m() * (count_of::<Q>("F", model.full_attention_layers) / p())
                    * ring(count_of("c", d.cp))
                    * Q::lit(2.0)
                    * kv_local
                    * count_of("head_dim", model.head_dim)
                    * count_of("s", self.seq_len())
                    * count_of("b", self.micro_batch_size())
                    * Q::lit(2.0)
            }
            Dim::Ep => {
                let even = self.ep_bytes_even::<Q>()?;
                if self.uneven() {
                    even * self.busiest_rank::<Q>()
                } else {
                    even
                }
            }
            Dim::Pp => {
                let sent = m() * Q::lit(2.0) * self.tensor();
                match self.schedule() {
                    Schedule::Interleaved => sent * count_of("v", self.virtual_stages()),
                    Schedule::Gpipe | Schedule::OneFOneB => sent,
                }
            }
            Dim::Dp => {
                let (psi, group) = self.dense_shard();
                data_parallel(psi, group, self.zero(), self.precision().grad_bytes())
            }
            Dim::Edp => {
                let (psi, group) = self.expert_shard()?;
                data_parallel(psi, group, self.zero(), self.precision().grad_bytes())
            }
            Dim::Offload if self.optimizer_offload().on_host() => self.offload_bytes(),
            Dim::Offload | Dim::Engine => return None,
        })
    }

    /// EP's all-to-all bytes per card per step at even routing (SPEC §5):
    /// m·(L_moe/p)·4·((e−1)/e)·(s·b/(c·t))·top_k·h·2. Uneven routing (SPEC §20) scales the
    /// plan's row by the busiest rank's load; `None` for a dense model.
    pub(crate) fn ep_bytes_even<Q: Quantity>(&self) -> Option<Q> {
        let d = self.degrees();
        let model = self.model();
        let moe = model.moe?;
        let tokens = (count_of::<Q>("s", self.seq_len()) * count_of("b", self.micro_batch_size())
            / (count_of::<Q>("c", d.cp) * count_of("t", d.tp)))
        .named("tokens", Show::Count);
        Some(
            count_of::<Q>("m", self.micro_batches())
                * (count_of::<Q>("MoE layers", moe.moe_layers) / count_of("p", d.pp))
                * Q::lit(4.0)
                * ring(count_of("e", d.ep))
                * tokens
                * count_of("top_k", moe.top_k)
                * count_of("h", model.hidden)
                * Q::lit(2.0),
        )
    }

    /// time = bytes/bandwidth of the link (SPEC §1, §5).
    pub fn link_seconds<Q: Quantity>(&self, bytes: Bytes, link: Link) -> Q {
        Q::var("bytes", bytes.get(), Show::Bytes)
            / Q::var(
                bandwidth_symbol(link),
                self.bandwidth(link).get(),
                Show::Bandwidth,
            )
    }

    /// Traffic per dimension for the whole plan, in the order tp, cp, ep, pp, dp, edp, listing
    /// only dimensions whose group has more than one card, then, with the optimizer on the
    /// host, the offload (a group of one card and its host, over PCIe, SPEC §14). A
    /// dimension's link is InfiniBand when any of its groups spans nodes (SPEC §3).
    ///
    /// | dim | bytes per card per step |
    /// |---|---|
    /// | tp | m·(L/p)·4·(2(t−1)/t)·x (2 all-reduces forward + 2 backward per layer) |
    /// | cp | m·(F/p)·((c−1)/c)·2·kv_local·head_dim·s·b·2, kv_local = max(kv_heads/t, 1) |
    /// | ep | m·(MoE layers/p)·4·((e−1)/e)·(s·b/(c·t))·top_k·h·2 |
    /// | pp | m·2·x (× v when interleaved) |
    /// | dp | [`data_parallel_bytes`] of Ψ (dense part) over D = d·c |
    /// | edp | [`data_parallel_bytes`] of Ψ_e over N/(e·p) |
    /// | offload | (4 + 2)·Ψ_o: FP32 gradients down, BF16 weights up (Ψ_o: the optimizer shard) |
    ///
    /// Sources: Megatron-LM (Shoeybi 2019; Korthikanti 2022) for TP, ring attention's K/V
    /// all-gather for CP, GShard for EP, ZeRO (Rajbhandari 2019) for DP, ZeRO-Offload (Ren et
    /// al. 2021) for the offload.
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
        let mut links = Vec::with_capacity(7);
        for dim in Dim::GRID {
            let cards = match dim {
                Dim::Dp => grid.weight_group(card)?,
                Dim::Ep | Dim::Edp if !self.model().is_moe() => vec![card],
                _ => grid.group(card, dim)?,
            };
            links.push((dim, Link::of_cards(&cards, self.gpus_per_node())));
        }
        links.push((Dim::Offload, grid.link(Dim::Offload)));
        Ok(self.traffic_with_links(|dim| {
            links
                .iter()
                .find(|(d, _)| *d == dim)
                .map_or(Link::NvLink, |(_, link)| *link)
        }))
    }

    fn traffic_with_links(&self, link_of: impl Fn(Dim) -> Link) -> Vec<Traffic> {
        let d = self.degrees();
        let moe = self.model().is_moe();
        let groups = [
            (Dim::Tp, Collective::AllReduce, d.tp),
            (Dim::Cp, Collective::AllGather, d.cp),
            (Dim::Ep, Collective::AllToAll, if moe { d.ep } else { 1 }),
            (Dim::Pp, Collective::P2p, d.pp),
            (Dim::Dp, Collective::for_zero(self.zero()), d.weight_group()),
            (
                Dim::Edp,
                Collective::for_zero(self.zero()),
                d.expert_dp.filter(|_| moe).unwrap_or(1),
            ),
        ];
        let offload = self.optimizer_offload().on_host().then_some((
            Dim::Offload,
            Collective::DeviceHostRoundTrip,
            1,
        ));
        groups
            .into_iter()
            .filter(|&(_, _, group_size)| group_size > 1)
            .chain(offload)
            .filter_map(|(dim, collective, group_size)| {
                let bytes = Bytes::new(self.traffic_bytes::<f64>(dim)?);
                let link = link_of(dim);
                Some(Traffic {
                    dim,
                    collective,
                    group_size,
                    bytes,
                    link,
                    seconds: Seconds::new(self.link_seconds(bytes, link)),
                })
            })
            .collect()
    }
}
