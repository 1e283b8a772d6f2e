//! [`PlanConfig`]: the one input type, shared by the CLI, the page and its links (SPEC §2).

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::hardware::{Hardware, MATMUL_EFFICIENCY, SCALE_OUT_LATENCY_US, SCALE_UP_LATENCY_US};
use crate::model::ModelChoice;

mod field;
mod form;
mod rollout;

pub use field::{BenchField, Field, ModelField, RolloutField};
pub use rollout::Rollout;

/// How activations are kept for the backward pass (SPEC §4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recompute {
    /// Keep everything, including the s×s attention scores of full-attention layers.
    None,
    /// Recompute only the attention core: 34·s·b·h/t bytes per layer.
    Selective,
    /// Keep only each layer's input (2·s·b·h/t bytes) and recompute the rest.
    #[default]
    Full,
}

/// The pipeline schedule (SPEC §4, §6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Schedule {
    /// All forwards, then all backwards: m micro-batches in flight.
    #[serde(rename = "gpipe")]
    Gpipe,
    /// One forward, one backward: min(m, p) micro-batches in flight.
    #[default]
    #[serde(rename = "1f1b")]
    OneFOneB,
    /// 1F1B over v model chunks per stage: the bubble shrinks by v.
    #[serde(rename = "interleaved")]
    Interleaved,
}

/// Which byte ledger model states follow (SPEC §4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Precision {
    /// BF16 weights and gradients + FP32 master and two moments: 16 bytes/param (the lesson).
    #[default]
    #[serde(rename = "bf16-grads")]
    Bf16Grads,
    /// FP32 gradients: 18 bytes/param (seed 000's ledger).
    #[serde(rename = "fp32-grads")]
    Fp32Grads,
}

impl Precision {
    /// Bytes of gradient per parameter, g: 2 for BF16, 4 for FP32.
    pub const fn grad_bytes(self) -> f64 {
        match self {
            Precision::Bf16Grads => 2.0,
            Precision::Fp32Grads => 4.0,
        }
    }
}

/// How memory per card is accounted (SPEC §11).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Accounting {
    /// The lesson's even split: every stage holds L/p layers and P/(t·p) parameters, and the
    /// headline is the first stage (SPEC §4). Every figure of the lesson is in this mode.
    #[default]
    Even,
    /// Each pipeline stage its own layers, embedding, output head, in-flight micro-batches
    /// and logits; the headline is the busiest stage (SPEC §11).
    Stages,
}

/// Where Adam's optimizer states live and run (SPEC §14, "CPU Adam").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OptimizerOffload {
    /// On the card: the ZeRO ledger of SPEC §4 as it is (the lesson).
    #[default]
    None,
    /// On the host: the FP32 master weights and both moments live in host memory, the
    /// gradients go down over PCIe, the CPU updates and the BF16 weights come back (seed 000's
    /// recipes).
    Cpu,
}

impl OptimizerOffload {
    /// Whether the optimizer states are on the host.
    pub const fn on_host(self) -> bool {
        matches!(self, OptimizerOffload::Cpu)
    }
}

/// Rank order of the grid, innermost dimension first (SPEC §3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RankOrder {
    /// TP innermost, then CP, PP, DP (the lesson's and Llama 3's order).
    #[default]
    #[serde(rename = "tp-cp-pp-dp")]
    TpCpPpDp,
    /// TP, CP, DP, PP: Megatron-core's order.
    #[serde(rename = "tp-cp-dp-pp")]
    TpCpDpPp,
}

/// A training plan as the user writes it: every field has a default (SPEC §2).
///
/// Fields are checked by [`crate::Plan::new`], not here, so that a config with a bad value
/// can still be held, shown and edited. Unknown field names are rejected when parsing.
///
/// `hardware` names a card preset; when a config is read (serde), the card fields it leaves
/// out come from that preset and the ones it gives win (SPEC §17). In Rust, start from
/// [`PlanConfig::on`] to get a preset's values.
///
/// # Example
/// ```
/// use parallel_core::PlanConfig;
/// let plan = PlanConfig { gpus: 64, tp: 8, pp: 2, zero: 1, ..PlanConfig::default() };
/// assert_eq!(plan.micro_batches, 8);
/// assert_eq!(plan.seq_len, 4096);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "form::PlanConfigForm")]
pub struct PlanConfig {
    /// Preset id or inline model; default `"qwen3.8-27b"`.
    pub model: ModelChoice,
    /// N, total GPUs; default 8.
    pub gpus: u32,
    /// GPUs that share NVLink; default 8.
    pub gpus_per_node: u32,
    /// Tensor-parallel degree t.
    pub tp: u32,
    /// Pipeline-parallel degree p.
    pub pp: u32,
    /// Context-parallel degree c.
    pub cp: u32,
    /// Expert-parallel degree e (MoE models only).
    pub ep: u32,
    /// m, micro-batches per step per pipeline; default 8.
    pub micro_batches: u32,
    /// b, sequences per micro-batch; default 1.
    pub micro_batch_size: u32,
    /// s, tokens per sequence; default 4096.
    pub seq_len: u32,
    /// ZeRO stage 0–3; default 0.
    pub zero: u8,
    /// Activation recomputation; default full.
    pub recompute: Recompute,
    /// Pipeline schedule; default 1F1B.
    pub schedule: Schedule,
    /// v, model chunks per stage (interleaved only); default 1.
    pub virtual_stages: u32,
    /// Byte ledger of model states; default bf16-grads (16 bytes/param).
    pub precision: Precision,
    /// Card capacity in GB (1e9 bytes); default 80.
    pub gpu_memory_gb: f64,
    /// NVLink bandwidth per GPU in GB/s; default 160.
    pub nvlink_gbps: f64,
    /// InfiniBand bandwidth per GPU in GB/s; default 50.
    pub ib_gbps: f64,
    /// Rank order, innermost first; default tp-cp-pp-dp.
    pub order: RankOrder,
    /// Memory accounting: the lesson's even split (default) or stage by stage.
    pub accounting: Accounting,
    /// Effective dense BF16 TFLOP/s per card for the step-time estimate (SPEC §12); default 400.
    pub gpu_tflops: f64,
    /// Sequences per step, for the plan search only (SPEC §12); absent by default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub global_batch: Option<u32>,
    /// The card preset the card fields came from (SPEC §17); default the lesson's card.
    pub hardware: Hardware,
    /// HBM bandwidth, TB/s, for the roofline (SPEC §17); default 3.35.
    pub hbm_tbps: f64,
    /// Dense BF16 peak, TFLOP/s, for MFU (SPEC §17); default 989.
    pub peak_tflops: f64,
    /// The share of the peak a preset's GEMMs reach: a preset's `gpu_tflops` is
    /// `peak_tflops × matmul_efficiency` (SPEC §17); default 0.75.
    pub matmul_efficiency: f64,
    /// α, µs per step of a collective over NVLink: 1 on the lesson's card (SPEC §17), NCCL's
    /// ring step of 3.4 on the real cards (SPEC §18).
    pub nvlink_latency_us: f64,
    /// α, µs per step of a collective over the network: 5 on the lesson's card (SPEC §17),
    /// NCCL's ring step of 14 on the real cards (SPEC §18).
    pub ib_latency_us: f64,
    /// Where the optimizer states live (SPEC §14): on the card (default) or on the host.
    pub optimizer_offload: OptimizerOffload,
    /// The host link per card, GB/s, for the offload's traffic (SPEC §14); default 50.
    pub pcie_gbps: f64,
    /// Host memory per node, GB, for the offloaded states (SPEC §14); default 2048.
    pub host_memory_gb: f64,
    /// The rollout engines of an RL step (SPEC §15); `None` (default) = training only.
    pub rollout: Option<Rollout>,
    /// Tokens whose FP32 logits the last stage holds at once for the log-probabilities
    /// (SPEC §15); 0 (default) = the whole micro-batch, s'·b.
    pub log_probs_chunk: u32,
    /// ρ, the hottest expert's share of its MoE layer's tokens over an even split (SPEC §20);
    /// default 1 (even, and then not written: configs and workloads read as before). MoE
    /// models only.
    #[serde(skip_serializing_if = "is_even")]
    pub routing_skew: f64,
    /// c_f: an expert keeps at most c_f × an even split's tokens and drops the rest (Switch
    /// Transformer, GShard); `None` (default) drops nothing, Megatron-LM's default (SPEC §20).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capacity_factor: Option<f64>,
    /// Sequence parallelism (Korthikanti et al. 2022; Megatron-LM's `--sequence-parallel`):
    /// with t > 1, the norms' and dropouts' activations are split over the TP group along the
    /// sequence. Default on; it means nothing at t = 1 (SPEC §4, §22).
    pub sequence_parallel: bool,
    /// Count what the running process holds beside the model states and activations: the
    /// CUDA context, the engine's communication buffer and the allocator's reserve
    /// (SPEC §24). Default off (and then not written), so the lesson's figures are the
    /// formulas' own.
    #[serde(skip_serializing_if = "is_off")]
    pub runtime_memory: bool,
    /// σ, the longest micro-batch's tokens over s: sequences of uneven length, not packed to
    /// s, put one micro-batch of σ·s tokens on the first data-parallel replica (SPEC §25).
    /// Default 1 (every micro-batch s tokens, and then not written).
    #[serde(skip_serializing_if = "is_even")]
    pub sequence_skew: f64,
}

/// Whether a switch is off, its default (left out when a config is written).
fn is_off(on: &bool) -> bool {
    !*on
}

/// Whether a skew (`routing_skew`, `sequence_skew`) is even, its default (left out when a
/// config is written).
fn is_even(skew: &f64) -> bool {
    *skew == 1.0
}

impl Default for PlanConfig {
    fn default() -> Self {
        PlanConfig {
            model: ModelChoice::default(),
            gpus: 8,
            gpus_per_node: 8,
            tp: 1,
            pp: 1,
            cp: 1,
            ep: 1,
            micro_batches: 8,
            micro_batch_size: 1,
            seq_len: 4096,
            zero: 0,
            recompute: Recompute::Full,
            schedule: Schedule::OneFOneB,
            virtual_stages: 1,
            precision: Precision::Bf16Grads,
            gpu_memory_gb: 80.0,
            nvlink_gbps: 160.0,
            ib_gbps: 50.0,
            order: RankOrder::TpCpPpDp,
            accounting: Accounting::Even,
            gpu_tflops: 400.0,
            global_batch: None,
            hardware: Hardware::Lesson,
            hbm_tbps: 3.35,
            peak_tflops: 989.0,
            matmul_efficiency: MATMUL_EFFICIENCY,
            nvlink_latency_us: SCALE_UP_LATENCY_US,
            ib_latency_us: SCALE_OUT_LATENCY_US,
            optimizer_offload: OptimizerOffload::None,
            pcie_gbps: 50.0,
            host_memory_gb: 2048.0,
            rollout: None,
            log_probs_chunk: 0,
            routing_skew: 1.0,
            capacity_factor: None,
            sequence_parallel: true,
            runtime_memory: false,
            sequence_skew: 1.0,
        }
    }
}

impl PlanConfig {
    /// The default plan on the card `hardware`: its memory, bandwidths, HBM, peak and the
    /// effective rate [`PlanConfig::derived_tflops`].
    ///
    /// ```
    /// use parallel_core::{hardware::Hardware, PlanConfig};
    /// let c = PlanConfig::on(Hardware::H100);
    /// assert_eq!((c.gpu_memory_gb, c.nvlink_gbps, c.ib_gbps), (80.0, 450.0, 50.0));
    /// // The H100 states the 8,192³ GEMM measured on an H200 (the same chip, SPEC §18).
    /// assert_eq!(c.gpu_tflops, 761.84);
    /// assert_eq!(PlanConfig::on(Hardware::B200).gpu_tflops, 2250.0 * 0.75);
    /// assert_eq!(PlanConfig::on(Hardware::Lesson), PlanConfig::default());
    /// ```
    pub fn on(hardware: Hardware) -> PlanConfig {
        PlanConfig::default().use_card(hardware)
    }

    /// This plan with every card field taken from `hardware` (the page's card picker):
    /// memory, bandwidths, HBM, peak, the step latencies (SPEC §17's on the lesson's card,
    /// NCCL's on the real ones), and `gpu_tflops` from the card's efficiency.
    /// `matmul_efficiency` is kept.
    pub fn use_card(self, hardware: Hardware) -> PlanConfig {
        let card = hardware.card();
        let mut c = PlanConfig {
            hardware,
            gpu_memory_gb: card.memory_gb,
            nvlink_gbps: card.scale_up_gbps,
            ib_gbps: card.scale_out_gbps,
            hbm_tbps: card.hbm_tbps,
            peak_tflops: card.peak_tflops,
            nvlink_latency_us: card.step_latency_us[0],
            ib_latency_us: card.step_latency_us[1],
            ..self
        };
        c.gpu_tflops = c.derived_tflops();
        c
    }

    /// The effective TFLOP/s of this config's card when `gpu_tflops` is not given: the
    /// lesson's stated 400, or `peak_tflops × matmul_efficiency` for a preset (SPEC §17).
    pub fn derived_tflops(&self) -> f64 {
        self.hardware
            .card()
            .effective_tflops
            .unwrap_or(self.peak_tflops * self.matmul_efficiency)
    }

    /// Where the page's 8-GPU grid starts (SPEC §2): DP 8, ZeRO-3, full recompute, m = 8.
    pub fn lesson_8_gpus() -> PlanConfig {
        PlanConfig {
            zero: 3,
            ..PlanConfig::default()
        }
    }

    /// The lesson's worked 64-GPU plan (SPEC §2's example): TP 8 × PP 2 × DP 4 with ZeRO-1.
    ///
    /// ```
    /// use parallel_core::{evaluate, PlanConfig};
    /// let r = evaluate(&PlanConfig::lesson_64_zero1()).unwrap();
    /// assert_eq!((r.dp, r.memory.model_states.to_string()), (4, "12.2 GB".to_string()));
    /// ```
    pub fn lesson_64_zero1() -> PlanConfig {
        PlanConfig {
            gpus: 64,
            tp: 8,
            pp: 2,
            zero: 1,
            ..PlanConfig::default()
        }
    }

    /// Where the page's 64-GPU grid starts (SPEC §2): TP 8 × PP 8, full recompute, m = 8.
    pub fn lesson_64_gpus() -> PlanConfig {
        PlanConfig {
            gpus: 64,
            tp: 8,
            pp: 8,
            ..PlanConfig::default()
        }
    }
}

/// The real-valued fields of [`PlanConfig`], each named once with its [`Field`]: the ones the
/// physical bounds cover ([`crate::bounds::BOUNDED`], in the same order). One list gives
/// both ways in, so a field read by [`Plan::new`](crate::Plan::new) and one a test or a control
/// sets cannot be two different fields.
macro_rules! real_fields {
    ($($field:ident => $name:ident),+ $(,)?) => {
        impl PlanConfig {
            /// Every real-valued field with its value, in the struct's order.
            ///
            /// ```
            /// use parallel_core::{Field, PlanConfig};
            /// let reals = PlanConfig::default().reals();
            /// assert_eq!(reals[0], (Field::GpuMemoryGb, 80.0));
            /// assert_eq!(reals.len(), 11);
            /// ```
            pub fn reals(&self) -> [(Field, f64); 11] {
                [$((Field::$field, self.$name)),+]
            }

            /// The real-valued field `field`, to read or set; `None` for a field that is not
            /// one (a count, a choice, a nested field).
            ///
            /// ```
            /// use parallel_core::{Field, PlanConfig};
            /// let mut c = PlanConfig::default();
            /// if let Some(v) = c.real_mut(Field::IbGbps) {
            ///     *v = 25.0;
            /// }
            /// assert_eq!(c.ib_gbps, 25.0);
            /// assert!(c.real_mut(Field::Tp).is_none());
            /// ```
            pub fn real_mut(&mut self, field: Field) -> Option<&mut f64> {
                match field {
                    $(Field::$field => Some(&mut self.$name),)+
                    _ => None,
                }
            }
        }
    };
}

real_fields! {
    GpuMemoryGb => gpu_memory_gb,
    NvlinkGbps => nvlink_gbps,
    IbGbps => ib_gbps,
    GpuTflops => gpu_tflops,
    HbmTbps => hbm_tbps,
    PeakTflops => peak_tflops,
    MatmulEfficiency => matmul_efficiency,
    NvlinkLatencyUs => nvlink_latency_us,
    IbLatencyUs => ib_latency_us,
    PcieGbps => pcie_gbps,
    HostMemoryGb => host_memory_gb,
}

/// Names used in reports and links for the enum values: their serde spelling.
macro_rules! display_as_serde {
    ($($t:ty => { $($v:ident => $s:literal),+ $(,)? }),+ $(,)?) => {$(
        impl $t {
            /// The spelling used in configs and reports.
            pub const fn as_str(self) -> &'static str {
                match self { $(<$t>::$v => $s),+ }
            }
        }
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    )+};
}

display_as_serde! {
    Recompute => { None => "none", Selective => "selective", Full => "full" },
    Schedule => { Gpipe => "gpipe", OneFOneB => "1f1b", Interleaved => "interleaved" },
    Precision => { Bf16Grads => "bf16-grads", Fp32Grads => "fp32-grads" },
    RankOrder => { TpCpPpDp => "tp-cp-pp-dp", TpCpDpPp => "tp-cp-dp-pp" },
    Accounting => { Even => "even", Stages => "stages" },
    OptimizerOffload => { None => "none", Cpu => "cpu" },
}
