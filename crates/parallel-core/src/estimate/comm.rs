//! Communication time, α–β (SPEC §17): a collective call costs steps·α + bytes/bandwidth
//! (Hockney 1994), with the ring's step counts of Thakur, Rabenseifner and Gropp 2005; on a
//! real card the α part is NCCL's own ring latency model (SPEC §18). The
//! bytes are the traffic table's (SPEC §5) with what a run also sends: full recompute's
//! re-run forward repeats TP's two forward calls (TP bytes × 3/2), and context parallelism's
//! backward reduce-scatters dK and dV as its forward all-gathered K and V (CP bytes × 2);
//! with gradient accumulation over m micro-batches, ZeRO-2 and ZeRO-3 hold only their shard
//! of the gradients and so reduce-scatter after every micro-batch's backward, and ZeRO-3
//! gathers the weights again for every micro-batch's forward and backward.

use crate::config::{Recompute, Schedule};
use crate::formula::{count_of, ring, Quantity, Show};
use crate::grid::{Dim, Link};
use crate::hardware::NCCL_RING_PLATEAU;
use crate::kernels::Kernels;
use crate::plan::Plan;
use crate::traffic::{bandwidth_symbol, Collective, Traffic};

/// Bytes per data-parallel bucket (SPEC §17): PyTorch DDP's default `bucket_cap_mb` of 25 MiB
/// is of the same order; Megatron-LM's distributed optimizer buckets at 40M parameters.
pub const DP_BUCKET_BYTES: f64 = 50e6;

/// Megatron-Core's smallest data-parallel bucket, in parameters (on a card with kernel tables,
/// SPEC §18): `bucket_size = max(40000000, 1000000 * dp_group.size())`,
/// megatron/core/distributed/distributed_data_parallel.py @ d98e8a6.
pub const MEGATRON_BUCKET_PARAMS: f64 = 40e6;

/// Megatron-Core's data-parallel bucket grows by this many parameters a card of the group
/// (the same line as [`MEGATRON_BUCKET_PARAMS`]).
pub const MEGATRON_BUCKET_PARAMS_PER_RANK: f64 = 1e6;

/// TP's bytes with full recompute, × the lesson's (SPEC §17): the re-run forward repeats the
/// two forward all-reduces of a layer, 6 calls where the lesson counts 4.
pub const TP_FULL_RECOMPUTE_BYTES: f64 = 6.0 / 4.0;

/// CP's bytes in a step, × the lesson's forward all-gather of K and V (SPEC §17): the
/// backward reduce-scatters dK and dV of the same size.
pub const CP_BACKWARD_BYTES: f64 = 2.0;

/// Steps of one call of `collective` over `n` cards, ring algorithms (Thakur et al. 2005):
/// all-reduce 2(n−1); all-gather, reduce-scatter and all-to-all n−1; point-to-point 1 (and
/// the offload's copies between a card and its host, which the estimate gives no α).
pub fn steps_per_call<Q: Quantity>(collective: Collective, n: Q) -> Q {
    match collective {
        Collective::AllReduce => Q::lit(2.0) * (n - Q::lit(1.0)),
        Collective::AllGather
        | Collective::AllToAll
        | Collective::ReduceScatterAllGather
        | Collective::AllGatherReduceScatter => n - Q::lit(1.0),
        Collective::P2p | Collective::DeviceHostRoundTrip => Q::lit(1.0),
    }
}

impl Plan {
    /// α of a link, in seconds.
    fn alpha<Q: Quantity>(&self, link: Link) -> Q {
        let c = self.config();
        let (symbol, us) = match link {
            Link::NvLink => ("α_NVLink", c.nvlink_latency_us),
            Link::InfiniBand => ("α_IB", c.ib_latency_us),
            Link::Pcie => ("α_PCIe", 0.0),
        };
        Q::var(symbol, us * 1e-6, Show::Seconds)
    }

    /// Calls per step of a dimension (SPEC §17): TP 4 per layer per micro-batch (6 with
    /// full recompute), CP 2 per full-attention layer, EP 4 per MoE layer, PP 2 per
    /// micro-batch (× v interleaved), DP and expert DP in buckets.
    fn calls<Q: Quantity>(&self, dim: Dim) -> Q {
        let model = self.model();
        let m = || count_of::<Q>("m", self.micro_batches());
        let per_stage = |symbol, layers: u32| {
            m() * (count_of::<Q>(symbol, layers) / count_of("p", self.degrees().pp))
        };
        match dim {
            Dim::Tp => {
                let per_layer = match self.recompute() {
                    Recompute::Full => 6.0,
                    Recompute::Selective | Recompute::None => 4.0,
                };
                per_stage("L", model.layers) * Q::lit(per_layer)
            }
            Dim::Cp => per_stage("F", model.full_attention_layers) * Q::lit(2.0),
            Dim::Ep => per_stage("MoE layers", model.moe.map_or(0, |m| m.moe_layers)) * Q::lit(4.0),
            Dim::Pp => match self.schedule() {
                Schedule::Interleaved => m() * Q::lit(2.0) * count_of("v", self.virtual_stages()),
                Schedule::Gpipe | Schedule::OneFOneB => m() * Q::lit(2.0),
            },
            Dim::Dp => self.buckets(self.dense_shard::<Q>()),
            Dim::Edp => self
                .expert_shard::<Q>()
                .map_or_else(|| Q::lit(0.0), |shard| self.buckets(shard)),
            Dim::Offload | Dim::Engine => Q::lit(0.0),
        }
    }

    /// Calls of the data-parallel collectives of a shard of Ψ parameters (g bytes of
    /// gradient each) over D cards: ZeRO-0 an all-reduce of the gradients; ZeRO-1 a
    /// reduce-scatter of the gradients and an all-gather of the 2·Ψ bytes of weights; ZeRO-2
    /// the reduce-scatter after each of the m backwards; ZeRO-3 also two all-gathers of the
    /// weights (forward, backward) each micro-batch (ZeRO, Rajbhandari et al. 2019 §5 and §7).
    /// Each collective is cut into buckets: on the lesson's card ⌈bytes ÷ 50 MB⌉ calls (SPEC
    /// §17); on a card with kernel tables (SPEC §18) Megatron-Core's default bucket of
    /// max(40M, 1M·D) parameters, ⌈Ψ ÷ bucket⌉ calls ("larger DP sizes need larger buckets to
    /// ensure collectives do not become latency-bound",
    /// megatron/core/distributed/distributed_data_parallel_config.py @ d98e8a6).
    fn buckets<Q: Quantity>(&self, (psi, group): (Q, Q)) -> Q {
        let m = || count_of::<Q>("m", self.micro_batches());
        let (grads, params) = if Kernels::apply_to(self.config()) {
            let bucket = Q::lit(MEGATRON_BUCKET_PARAMS)
                .max(Q::lit(MEGATRON_BUCKET_PARAMS_PER_RANK) * group)
                .named("bucket", Show::Count);
            let calls = (psi / bucket).ceil();
            (calls.clone(), calls)
        } else {
            let psi = || psi.clone();
            let bucket = || Q::var("bucket", DP_BUCKET_BYTES, Show::Bytes);
            let grads =
                (count_of::<Q>("g", self.precision().grad_bytes()) * psi() / bucket()).ceil();
            (grads, (Q::lit(2.0) * psi() / bucket()).ceil())
        };
        let grads = || grads.clone();
        let params = || params.clone();
        match self.zero() {
            0 => grads(),
            1 => grads() + params(),
            2 => m() * grads() + params(),
            _ => m() * (grads() + Q::lit(2.0) * params()),
        }
    }

    /// Bytes a card sends for data parallelism in a step of m micro-batches, over a group of
    /// D cards holding a shard of Ψ: ZeRO-0 2·((D−1)/D)·g·Ψ and ZeRO-1 ((D−1)/D)·(g + 2)·Ψ, as
    /// the traffic table (SPEC §5, once a step: the full gradients accumulate on the card);
    /// ZeRO-2 ((D−1)/D)·(m·g + 2)·Ψ (its gradient shard is reduce-scattered after each
    /// backward); ZeRO-3 ((D−1)/D)·m·(g + 4)·Ψ (the weights gathered for each forward and
    /// backward too; Rajbhandari et al. 2019 §7, PyTorch FSDP's reshard after forward).
    fn data_parallel_sent<Q: Quantity>(&self, dim: Dim) -> Option<Q> {
        let (psi, group) = match dim {
            Dim::Dp => self.dense_shard::<Q>(),
            Dim::Edp => self.expert_shard::<Q>()?,
            _ => return None,
        };
        let m = || count_of::<Q>("m", self.micro_batches());
        let g = || count_of::<Q>("g", self.precision().grad_bytes());
        let per_param = match self.zero() {
            0 => Q::lit(2.0) * g(),
            1 => g() + Q::lit(2.0),
            2 => m() * g() + Q::lit(2.0),
            _ => m() * (g() + Q::lit(4.0)),
        };
        Some(ring(group) * per_param * psi)
    }

    /// The α part of a dimension's time. On the lesson's card calls·steps·α (SPEC §17); on a
    /// real card NCCL's ring model (SPEC §18, [`crate::hardware::NCCL_SOURCE`]):
    /// calls·(α_call + (steps − inter)·α_NVLink + inter·α_IB), with inter the steps that cross
    /// nodes (all-reduce 2·(nodes − 1), the others nodes − 1, over the nodes the group spans),
    /// and a ring all-reduce across nodes × 1.4 (NCCL's "plateau effect of ring").
    /// NCCL's model has no point-to-point entry: a send costs one step of its link; the
    /// offload's host copies have no α.
    pub(crate) fn comm_latency<Q: Quantity>(&self, row: &Traffic) -> Q {
        let calls = || self.calls::<Q>(row.dim).named("calls", Show::Count);
        let base = self.config().hardware.card().call_latency_us;
        let ring = !matches!(
            row.collective,
            Collective::P2p | Collective::DeviceHostRoundTrip
        );
        if base == 0.0 || !ring {
            return calls()
                * steps_per_call(row.collective, count_of("n", row.group_size))
                * self.alpha(row.link);
        }
        let nodes = match row.link {
            Link::InfiniBand => self.grid().nodes_spanned(row.dim),
            Link::NvLink | Link::Pcie => 1,
        };
        let steps = steps_per_call::<Q>(row.collective, count_of("n", row.group_size));
        let inter = match row.collective {
            Collective::AllReduce => Q::lit(2.0) * (count_of::<Q>("nodes", nodes) - Q::lit(1.0)),
            _ => count_of::<Q>("nodes", nodes) - Q::lit(1.0),
        }
        .named("inter", Show::Count);
        let per_call = Q::var("α_call", base * 1e-6, Show::Seconds)
            + (steps - inter.clone()) * self.alpha(Link::NvLink)
            + inter * self.alpha(Link::InfiniBand);
        if row.collective == Collective::AllReduce && nodes > 1 {
            calls() * per_call * Q::constant("1.4", NCCL_RING_PLATEAU)
        } else {
            calls() * per_call
        }
    }

    /// A dimension's time in the estimate: calls·steps·α + k·bytes/bandwidth, k =
    /// [`TP_FULL_RECOMPUTE_BYTES`] for TP with full recompute, [`CP_BACKWARD_BYTES`] for CP,
    /// else 1 (SPEC §17); data parallelism's bytes are those
    /// of a step of m micro-batches (`data_parallel_sent`). The offload's is bytes/PCIe
    /// bandwidth (SPEC §14: large DMA copies, no α counted).
    pub(crate) fn comm_seconds<Q: Quantity>(&self, row: &Traffic) -> Q {
        if row.dim == Dim::Offload {
            return self.link_seconds(row.bytes, row.link);
        }
        let bytes = || Q::var("bytes", row.bytes.get(), Show::Bytes);
        let sent = match (row.dim, self.recompute()) {
            (Dim::Tp, Recompute::Full) => bytes() * Q::factor(TP_FULL_RECOMPUTE_BYTES),
            (Dim::Cp, _) => bytes() * Q::factor(CP_BACKWARD_BYTES),
            // On a card with kernel tables (SPEC §18) the pipeline sends what Megatron-Core
            // sends: with sequence parallelism each of a TP group's t cards sends its own
            // shard, (s/(c·t), b, h), and the next stage gathers it over NVLink
            // (`get_tensor_shapes`, megatron/core/pipeline_parallel/schedules.py @ d98e8a6;
            // Narayanan et al. 2021 §4.1's scatter/gather). The lesson's table keeps x a card.
            // Without sequence parallelism every card sends the whole tensor (SPEC §22).
            (Dim::Pp, _) if Kernels::apply_to(self.config()) && !self.sequence_whole() => {
                (Q::var("pp of §5", row.bytes.get(), Show::Bytes)
                    / count_of::<Q>("t", self.degrees().tp))
                .named("bytes", Show::Bytes)
            }
            (Dim::Dp | Dim::Edp, _) if self.zero() >= 2 => self
                .data_parallel_sent::<Q>(row.dim)
                .map_or_else(bytes, |sent| sent.named("bytes", Show::Bytes)),
            _ => bytes(),
        };
        let symbol = bandwidth_symbol(row.link);
        self.comm_latency::<Q>(row).named("latency", Show::Seconds)
            + sent / Q::var(symbol, self.bandwidth(row.link).get(), Show::Bandwidth)
    }
}
