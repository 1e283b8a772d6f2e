//! Physical bounds of every real-valued input (issue 50), in one place: a card's memory, peak
//! and effective FLOP/s, HBM, scale-up, scale-out and PCIe bandwidths, host memory, link
//! latencies and the GEMM efficiency. A value outside its [`Bound`] is not a card the lab can
//! answer for: `checks::bounded` names the field, its value and the range
//! ([`crate::PlanError::OutOfRange`]).
//!
//! A card's figures may be at most ten times beyond the slowest and the fastest card the lab
//! knows ([`Hardware::ALL`], each from its datasheet): a tenth of the A100's peak, ten times the
//! B200's. Wider than any card sold, narrow enough that a slipped exponent (1e300, 5e-324) is
//! refused instead of answered with NaN or an MFU above 1.

use crate::config::Field;
use crate::hardware::{
    Card, Hardware, NCCL_NET_STEP_US, NCCL_NVLINK_STEP_US, SCALE_OUT_LATENCY_US,
    SCALE_UP_LATENCY_US,
};
use crate::lang::Lang;
use crate::numbers::quoted;

/// How far beyond the known cards a figure may go: ten times either way.
pub const MARGIN: f64 = 10.0;

/// PCIe bandwidth per direction of an x16 slot, GB/s: PCIe 3.0 at 8 GT/s a lane with 128b/130b
/// coding, 0.985 GB/s a lane (PCI-SIG, PCI Express Base Specification 3.0), and PCIe 6.0 at
/// 64 GT/s, 7.56 GB/s a lane after FLIT overhead (PCI-SIG, PCIe 6.0 specification FAQ: 121 GB/s
/// per direction for x16).
const PCIE_X16_GBPS: [f64; 2] = [15.75, 121.0];

/// Host memory of one node, GB: the smallest card's memory (a node holds at least what it
/// offloads from one card) to a DGX H100's 2 TB (NVIDIA DGX H100 datasheet: 2 TB system
/// memory), each with the margin.
const HOST_MEMORY_GB: [f64; 2] = [80.0, 2048.0];

/// Why a field's range is what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// Ten times beyond the cards the lab knows.
    Cards,
    /// Ten times beyond PCIe 3.0 x16 and PCIe 6.0 x16.
    Pcie,
    /// Ten times beyond one card's memory and a DGX H100's host memory.
    Host,
    /// From 0 to ten times the slowest link step the lab knows (the lesson's or NCCL's).
    Latency,
    /// A share of the card's peak: above 0, at most 1.
    Share,
    /// An effective rate, at most the card's `peak_tflops` (else MFU would pass 1).
    Peak,
    /// A given total over its shape's count, at most what keeps MFU at 1 when the shape runs
    /// at the card's measured kernel rates.
    ParamsPeak,
    /// A load over an even split of a MoE layer's tokens (SPEC §20): at least 1, at most
    /// E/top_k (one expert receiving every token once); only 1 on a dense model.
    Routing,
    /// The longest micro-batch over s (SPEC §25): at least s (1), at most the lab's longest
    /// sequence over s.
    Sequence,
}

impl Basis {
    /// The reason, in `lang`.
    pub fn why(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Basis::Cards, Lang::En) => {
                "ten times beyond the slowest and the fastest card the lab knows (A100 to B200)"
            }
            (Basis::Cards, Lang::Zh) => "实验室已知最慢和最快的卡（A100 到 B200）再各放宽 10 倍",
            (Basis::Pcie, Lang::En) => "ten times beyond PCIe 3.0 x16 and PCIe 6.0 x16",
            (Basis::Pcie, Lang::Zh) => "PCIe 3.0 x16 到 PCIe 6.0 x16 再各放宽 10 倍",
            (Basis::Host, Lang::En) => {
                "ten times beyond one card's memory and a DGX H100's 2 TB of host memory"
            }
            (Basis::Host, Lang::Zh) => "一张卡的显存到 DGX H100 的 2 TB 主机内存，再各放宽 10 倍",
            (Basis::Latency, Lang::En) => {
                "from 0 to ten times the slowest link step the lab knows (NCCL's)"
            }
            (Basis::Latency, Lang::Zh) => "0 到实验室已知最慢一步（NCCL 的）的 10 倍",
            (Basis::Share, Lang::En) => "a share of the card's peak",
            (Basis::Share, Lang::Zh) => "是峰值算力的一部分",
            (Basis::Peak, Lang::En) => {
                "an effective rate is at most the card's peak_tflops, else MFU would pass 100%"
            }
            (Basis::Peak, Lang::Zh) => "有效算力不能超过这张卡的峰值算力，否则 MFU 会超过 100%",
            (Basis::ParamsPeak, Lang::En) => {
                "its layers run at their shape's measured kernel rates, so more parameters than the shape holds would make MFU pass 100%"
            }
            (Basis::ParamsPeak, Lang::Zh) => {
                "各层按形状以实测的 kernel 速率计时，参数比形状多出太多会让 MFU 超过 100%"
            }
            (Basis::Routing, Lang::En) => {
                "a load over an even split: at least even (1), at most every token once on one expert (experts/top_k; 1 on a dense model)"
            }
            (Basis::Routing, Lang::Zh) => {
                "相对均匀分配的负载：至少是均匀（1），至多每个 token 都到同一个专家一次（专家数/top_k；稠密模型只能是 1）"
            }
            (Basis::Sequence, Lang::En) => {
                "the longest micro-batch over s: at least s itself (1), at most the lab's longest sequence (2^26 tokens) over s"
            }
            (Basis::Sequence, Lang::Zh) => {
                "最长 micro-batch 相对 s 的倍数：至少就是 s（1），至多到实验室允许的最长序列（2^26 个 token）÷ s"
            }
        }
    }
}

/// The range of one real-valued field: `min` to `max` in its unit, `min` itself allowed only
/// where `min_allowed` (a latency of 0; not a share of 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound {
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Whether `min` itself is allowed.
    pub min_allowed: bool,
    /// The unit, as the field's name gives it (`GB`, `TFLOP/s`, `µs`, or empty).
    pub unit: &'static str,
    /// Why.
    pub basis: Basis,
}

impl Bound {
    /// Why `got` is refused, in `lang`, without the field's name: the range, its unit and its
    /// basis, and the value quoted in a few characters ([`quoted`]).
    pub fn reason(&self, lang: Lang, got: f64) -> String {
        let (min, max, unit, got) = (quoted(self.min), quoted(self.max), self.unit, quoted(got));
        let why = self.basis.why(lang);
        match (lang, self.min_allowed) {
            (Lang::En, true) => {
                format!("must be between {min} and {max} {unit}, {why} (got {got})")
            }
            (Lang::En, false) => {
                format!("must be above {min} and at most {max} {unit}, {why} (got {got})")
            }
            (Lang::Zh, true) => format!("必须在 {min} 到 {max} {unit} 之间（{why}；现在是 {got}）"),
            (Lang::Zh, false) => {
                format!("必须大于 {min} 且不超过 {max} {unit}（{why}；现在是 {got}）")
            }
        }
        .replace("  ", " ")
        .replace(" ,", ",")
        .replace(" （", "（")
    }

    /// Whether `value` is inside (NaN never is).
    pub fn holds(&self, value: f64) -> bool {
        let above = if self.min_allowed {
            value >= self.min
        } else {
            value > self.min
        };
        above && value <= self.max
    }
}

/// The span of one figure over the known cards, widened by [`MARGIN`].
#[inline]
pub(crate) fn cards(figure: fn(&Card) -> f64, unit: &'static str) -> Bound {
    let values = Hardware::ALL.map(|h| figure(&h.card()));
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(0.0, f64::max);
    Bound {
        min: min / MARGIN,
        max: max * MARGIN,
        min_allowed: true,
        unit,
        basis: Basis::Cards,
    }
}

/// 0 to [`MARGIN`] times the slower of the lesson's and NCCL's step over one link.
fn latency(lesson: f64, nccl: f64) -> Bound {
    Bound {
        min: 0.0,
        max: lesson.max(nccl) * MARGIN,
        min_allowed: true,
        unit: "µs",
        basis: Basis::Latency,
    }
}

/// `[min, max]` of a table, widened by [`MARGIN`].
fn widened([min, max]: [f64; 2], unit: &'static str, basis: Basis) -> Bound {
    Bound {
        min: min / MARGIN,
        max: max * MARGIN,
        min_allowed: true,
        unit,
        basis,
    }
}

/// The bound of a real-valued config field; `None` for a field that is not one.
///
/// Inlined: [`crate::Plan::new`] asks it of every plan (the search, of every candidate), where
/// the field is a constant and the card spans fold away.
#[inline]
pub fn bound(field: Field) -> Option<Bound> {
    Some(match field {
        Field::GpuMemoryGb => cards(|c| c.memory_gb, "GB"),
        Field::HbmTbps => cards(|c| c.hbm_tbps, "TB/s"),
        Field::PeakTflops | Field::GpuTflops => cards(|c| c.peak_tflops, "TFLOP/s"),
        Field::NvlinkGbps => cards(|c| c.scale_up_gbps, "GB/s"),
        Field::IbGbps => cards(|c| c.scale_out_gbps, "GB/s"),
        Field::PcieGbps => widened(PCIE_X16_GBPS, "GB/s", Basis::Pcie),
        Field::HostMemoryGb => widened(HOST_MEMORY_GB, "GB", Basis::Host),
        Field::NvlinkLatencyUs => latency(SCALE_UP_LATENCY_US, NCCL_NVLINK_STEP_US),
        Field::IbLatencyUs => latency(SCALE_OUT_LATENCY_US, NCCL_NET_STEP_US),
        Field::MatmulEfficiency => Bound {
            min: 0.0,
            max: 1.0,
            min_allowed: false,
            unit: "",
            basis: Basis::Share,
        },
        _ => return None,
    })
}

/// Every field [`bound`] knows, in the config's order.
pub const BOUNDED: [Field; 11] = [
    Field::GpuMemoryGb,
    Field::NvlinkGbps,
    Field::IbGbps,
    Field::GpuTflops,
    Field::HbmTbps,
    Field::PeakTflops,
    Field::MatmulEfficiency,
    Field::NvlinkLatencyUs,
    Field::IbLatencyUs,
    Field::PcieGbps,
    Field::HostMemoryGb,
];

/// A layer's forward and backward pass as a measured file gives it (SPEC §19), seconds: at
/// least 1 µs, since launching one GPU kernel alone takes microseconds (CUDA's launch latency)
/// and a layer's pass launches dozens of kernels; at most a day, since the measuring program
/// times the median of repeated passes and finishes in minutes. Outside it is no measurement:
/// 0 s has no ratio to the lab's time and 5e-324 s an infinite one.
pub const MEASURED_LAYER_SECONDS: [f64; 2] = [1e-6, 86_400.0];

/// The least share of the lab's model states for the layers a measured file built that its
/// peak (and the allocator's reserve at it) may be. The measuring program holds those states
/// (BF16 weights, gradients, Adam's FP32 master weights and moments) through the step whose
/// peak it takes, so the peak cannot be below them; the lab counts a built layer as its stage's
/// average layer, within 10% of the states every shipped measurement holds (0.90 to 1.03), so
/// half leaves room for that, and for a lab wrong by less than 2×, and refuses only what no run
/// measures (1 byte beside 10^15).
pub const MEASURED_PEAK_STATES_SHARE: f64 = 0.5;
