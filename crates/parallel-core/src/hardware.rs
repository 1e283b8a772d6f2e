//! Cards (SPEC §17): the lesson's card and real accelerators, each value from its vendor's
//! datasheet. A preset fills the card fields of a [`crate::PlanConfig`]; explicit fields win.
//!
//! Bandwidths are per card and per direction, as the traffic table counts them (bytes one card
//! sends): datasheets give NVLink and Infinity Fabric as the sum of both directions, halved
//! here. The scale-out figure is one network adapter per card (400 Gb/s = 50 GB/s).

use core::fmt;

use serde::{Deserialize, Serialize};

/// A card preset (`hardware` in the config).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Hardware {
    /// The lesson's card: 80 GB, NVLink 160 GB/s, IB 50 GB/s, 400 TFLOP/s effective.
    #[default]
    #[serde(rename = "lesson")]
    Lesson,
    /// NVIDIA A100 80GB SXM.
    #[serde(rename = "a100-80gb")]
    A100,
    /// NVIDIA H100 SXM (80 GB).
    #[serde(rename = "h100-sxm")]
    H100,
    /// NVIDIA H200 SXM (141 GB).
    #[serde(rename = "h200")]
    H200,
    /// NVIDIA B200 (HGX B200, 180 GB).
    #[serde(rename = "b200")]
    B200,
    /// AMD Instinct MI300X (192 GB).
    #[serde(rename = "mi300x")]
    Mi300x,
}

/// What a card is, as the formulas use it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Card {
    /// Memory, GB (1e9 bytes).
    pub memory_gb: f64,
    /// HBM bandwidth, TB/s (1e12 bytes/s).
    pub hbm_tbps: f64,
    /// Dense BF16 peak, TFLOP/s (no sparsity).
    pub peak_tflops: f64,
    /// Scale-up (NVLink, Infinity Fabric) bandwidth per direction, GB/s.
    pub scale_up_gbps: f64,
    /// Scale-out (network) bandwidth per card per direction, GB/s.
    pub scale_out_gbps: f64,
    /// The effective TFLOP/s a card states itself, when it does not come from
    /// `peak_tflops × matmul_efficiency`: the lesson's 400, and for the H200 and the H100 SXM
    /// (the same chip and clocks) the 8,192³ GEMM measured on an H200 (SPEC §18).
    pub effective_tflops: Option<f64>,
    /// Latency of one collective step over the scale-up and over the scale-out link, µs: the
    /// lesson's §17 defaults, or NCCL's ring steps for the real cards (SPEC §18).
    pub step_latency_us: [f64; 2],
    /// Latency of one collective call before its steps, µs: 0 on the lesson's card, NCCL's
    /// ring base latency on the real ones.
    pub call_latency_us: f64,
    /// Where the values come from.
    pub source: &'static str,
}

/// The lesson's latencies (SPEC §17).
const LESSON_LATENCY: [f64; 2] = [SCALE_UP_LATENCY_US, SCALE_OUT_LATENCY_US];
/// NCCL's ring steps (SPEC §18), for every real card.
const NCCL_LATENCY: [f64; 2] = [NCCL_NVLINK_STEP_US, NCCL_NET_STEP_US];

/// One step of a collective over NVLink or Infinity Fabric, µs (SPEC §17's default α, the
/// lesson's card).
pub const SCALE_UP_LATENCY_US: f64 = 1.0;
/// One step of a collective over the network, µs (SPEC §17's default α, the lesson's card).
pub const SCALE_OUT_LATENCY_US: f64 = 5.0;

/// Where NCCL's latency model is read (SPEC §18): its ring algorithm with the Simple protocol,
/// the one it picks for the large messages of training.
pub const NCCL_SOURCE: &str = "NCCL 2.30.7 src/graph/tuning.cc @ 5067397 \
     (ncclTunerConstantsDefaults, ncclTopoTuneModel: ring, Simple protocol)";
/// NCCL's base latency of one ring collective call, µs (`baseLatencies[Ring][Simple]`).
pub const NCCL_BASE_LATENCY_US: f64 = 8.4;
/// NCCL's latency of one ring step over NVLink, µs (`hwLatencies[NVLINK][Ring][Simple]`).
pub const NCCL_NVLINK_STEP_US: f64 = 3.4;
/// NCCL's latency of one ring step over the network, µs (`hwLatencies[NET][Ring][Simple]`).
pub const NCCL_NET_STEP_US: f64 = 14.0;
/// NCCL's "plateau effect of ring": a ring all-reduce across nodes (compute capability 8.0 and
/// up, large messages) takes its latency × 1.4 (`ncclTopoGetAlgoTime`).
pub const NCCL_RING_PLATEAU: f64 = 1.4;
/// The 8,192³ bf16 GEMM measured on one H200 SXM (PyTorch 2.11.0, CUDA 13.0, 2026-12-04;
/// `data/h200-2026-12-04/card.json`), TFLOP/s: the H200's and the H100's `gpu_tflops` (the same
/// chip at the same clocks), and the large-GEMM rate the kernel tables are relative to (SPEC
/// §18).
pub const H200_GEMM_8192_TFLOPS: f64 = 761.84;

/// The share of a preset's dense peak that its GEMMs reach (SPEC §17): one value for every
/// preset, never fitted per run.
pub const MATMUL_EFFICIENCY: f64 = 0.75;

/// One network adapter per card at 400 Gb/s (ConnectX-7 NDR, the adapter of DGX H100, H200
/// and B200 systems; AMD's MI300X platform pairs each card with a 400 Gb/s NIC too).
const NIC_400G_GBPS: f64 = 50.0;

impl Hardware {
    /// Every preset, in the order the page lists them.
    pub const ALL: [Hardware; 6] = [
        Hardware::Lesson,
        Hardware::A100,
        Hardware::H100,
        Hardware::H200,
        Hardware::B200,
        Hardware::Mi300x,
    ];

    /// The spelling used in configs, links and reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            Hardware::Lesson => "lesson",
            Hardware::A100 => "a100-80gb",
            Hardware::H100 => "h100-sxm",
            Hardware::H200 => "h200",
            Hardware::B200 => "b200",
            Hardware::Mi300x => "mi300x",
        }
    }

    /// The card's name as people write it.
    pub const fn name(self) -> &'static str {
        match self {
            Hardware::Lesson => "lesson card",
            Hardware::A100 => "A100 80GB SXM",
            Hardware::H100 => "H100 SXM",
            Hardware::H200 => "H200 SXM",
            Hardware::B200 => "B200",
            Hardware::Mi300x => "MI300X",
        }
    }

    /// The preset's values.
    ///
    /// ```
    /// use parallel_core::hardware::Hardware;
    /// let h100 = Hardware::H100.card();
    /// assert_eq!((h100.memory_gb, h100.hbm_tbps, h100.peak_tflops), (80.0, 3.35, 989.0));
    /// ```
    pub const fn card(self) -> Card {
        match self {
            // SPEC §2 and §17: the lesson's round numbers; HBM and peak are an H100's.
            Hardware::Lesson => Card {
                memory_gb: 80.0,
                hbm_tbps: 3.35,
                peak_tflops: 989.0,
                scale_up_gbps: 160.0,
                scale_out_gbps: 50.0,
                effective_tflops: Some(400.0),
                step_latency_us: LESSON_LATENCY,
                call_latency_us: 0.0,
                source: "the lesson (seed 001) and SPEC §2, §17",
            },
            Hardware::A100 => Card {
                memory_gb: 80.0,
                hbm_tbps: 2.039,
                peak_tflops: 312.0,
                scale_up_gbps: 300.0,
                scale_out_gbps: 25.0,
                effective_tflops: None,
                step_latency_us: NCCL_LATENCY,
                call_latency_us: NCCL_BASE_LATENCY_US,
                source: "NVIDIA A100 Tensor Core GPU datasheet (A100 80GB SXM: BF16 312 TFLOPS \
                         dense, 2,039 GB/s, NVLink 600 GB/s); DGX A100: one 200 Gb/s HDR \
                         adapter per GPU",
            },
            Hardware::H100 => Card {
                memory_gb: 80.0,
                hbm_tbps: 3.35,
                peak_tflops: 989.0,
                scale_up_gbps: 450.0,
                scale_out_gbps: NIC_400G_GBPS,
                effective_tflops: Some(H200_GEMM_8192_TFLOPS),
                step_latency_us: NCCL_LATENCY,
                call_latency_us: NCCL_BASE_LATENCY_US,
                source: "NVIDIA H100 Tensor Core GPU datasheet (H100 SXM: BF16 1,979 TFLOPS \
                         with sparsity = 989 dense, 3.35 TB/s, NVLink 900 GB/s); DGX H100: one \
                         400 Gb/s ConnectX-7 per GPU",
            },
            // The H100's chip, links and NICs with a larger, faster memory.
            Hardware::H200 => Card {
                memory_gb: 141.0,
                hbm_tbps: 4.8,
                source: "NVIDIA H200 Tensor Core GPU datasheet (H200 SXM: 141 GB, 4.8 TB/s, \
                         BF16 1,979 TFLOPS with sparsity = 989 dense, NVLink 900 GB/s)",
                ..Hardware::H100.card()
            },
            Hardware::B200 => Card {
                memory_gb: 180.0,
                hbm_tbps: 8.0,
                peak_tflops: 2250.0,
                scale_up_gbps: 900.0,
                scale_out_gbps: NIC_400G_GBPS,
                effective_tflops: None,
                step_latency_us: NCCL_LATENCY,
                call_latency_us: NCCL_BASE_LATENCY_US,
                source: "NVIDIA HGX B200 datasheet (8 GPUs: 1.44 TB, 64 TB/s, FP16/BF16 36 \
                         PFLOPS with sparsity = 2.25 dense per GPU; NVLink 5 1.8 TB/s per GPU)",
            },
            Hardware::Mi300x => Card {
                memory_gb: 192.0,
                hbm_tbps: 5.3,
                peak_tflops: 1307.4,
                scale_up_gbps: 448.0,
                scale_out_gbps: NIC_400G_GBPS,
                effective_tflops: None,
                step_latency_us: NCCL_LATENCY,
                call_latency_us: NCCL_BASE_LATENCY_US,
                source: "AMD Instinct MI300X datasheet (192 GB HBM3, 5.3 TB/s, BF16 1,307.4 \
                         TFLOPS dense; Infinity Fabric 896 GB/s peer to peer)",
            },
        }
    }

    /// The preset of a spelling, if it is one.
    pub fn from_id(id: &str) -> Option<Hardware> {
        Hardware::ALL.into_iter().find(|h| h.as_str() == id)
    }
}

impl fmt::Display for Hardware {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
