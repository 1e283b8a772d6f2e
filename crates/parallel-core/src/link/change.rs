//! What one token of a grid's plan does ([`Change`]), the words and keys that write them, and
//! how a token is read ([`parse_token`]).

use crate::config::{
    Accounting, OptimizerOffload, PlanConfig, Precision, RankOrder, Recompute, Schedule,
};
use crate::hardware::Hardware;
use crate::model::{ModelChoice, Preset};

use super::notice::IgnoredReason;
use super::rollout_token::RolloutChange;

/// A single change a token makes to a config.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Change {
    Model(Preset),
    Gpus(u32),
    GpusPerNode(u32),
    Tp(u32),
    Pp(u32),
    Cp(u32),
    Ep(u32),
    MicroBatches(u32),
    MicroBatchSize(u32),
    SeqLen(u32),
    Zero(u8),
    Recompute(Recompute),
    Schedule(Schedule),
    VirtualStages(u32),
    Precision(Precision),
    Hardware(Hardware),
    Memory(f64),
    NvLink(f64),
    Ib(f64),
    Order(RankOrder),
    Accounting(Accounting),
    Tflops(f64),
    Hbm(f64),
    Peak(f64),
    Efficiency(f64),
    NvLinkLatency(f64),
    IbLatency(f64),
    Offload(OptimizerOffload),
    Pcie(f64),
    HostMemory(f64),
    /// ρ, `routing_skew` (SPEC §20).
    Skew(f64),
    /// c_f, `capacity_factor`; `None`: dropless (SPEC §20).
    Capacity(Option<f64>),
    /// `sequence_parallel` (SPEC §22).
    SequenceParallel(bool),
    /// `runtime_memory` (SPEC §24).
    RuntimeMemory(bool),
    /// σ, `sequence_skew` (SPEC §25).
    SequenceSkew(f64),
    /// The rollout engines and the log-probability chunk (SPEC §15).
    Rollout(RolloutChange),
}

impl Change {
    /// Position in the config table: tokens are applied in this order (the card preset before
    /// the card fields it sets).
    pub(super) fn rank(&self) -> u8 {
        match self {
            Change::Model(_) => 0,
            Change::Gpus(_) => 1,
            Change::GpusPerNode(_) => 2,
            Change::Tp(_) => 3,
            Change::Pp(_) => 4,
            Change::Cp(_) => 5,
            Change::Ep(_) => 6,
            Change::MicroBatches(_) => 7,
            Change::MicroBatchSize(_) => 8,
            Change::SeqLen(_) => 9,
            Change::Zero(_) => 10,
            Change::Recompute(_) => 11,
            Change::Schedule(_) => 12,
            Change::VirtualStages(_) => 13,
            Change::Precision(_) => 14,
            // Before the card's own fields, which win over the preset's.
            Change::Hardware(_) => 15,
            Change::Memory(_) => 16,
            Change::NvLink(_) => 17,
            Change::Ib(_) => 18,
            Change::Order(_) => 19,
            Change::Accounting(_) => 20,
            Change::Tflops(_) => 21,
            Change::Hbm(_) => 22,
            Change::Peak(_) => 23,
            Change::Efficiency(_) => 24,
            Change::NvLinkLatency(_) => 25,
            Change::IbLatency(_) => 26,
            Change::Offload(_) => 27,
            Change::Pcie(_) => 28,
            Change::HostMemory(_) => 29,
            Change::Skew(_) => 30,
            Change::Capacity(_) => 31,
            Change::SequenceParallel(_) => 32,
            Change::RuntimeMemory(_) => 33,
            Change::SequenceSkew(_) => 34,
            Change::Rollout(r) => 35 + r.rank(),
        }
    }

    pub(super) fn apply(self, c: &mut PlanConfig) {
        match self {
            Change::Model(p) => c.model = ModelChoice::Preset(p),
            Change::Gpus(v) => c.gpus = v,
            Change::GpusPerNode(v) => c.gpus_per_node = v,
            Change::Tp(v) => c.tp = v,
            Change::Pp(v) => c.pp = v,
            Change::Cp(v) => c.cp = v,
            Change::Ep(v) => c.ep = v,
            Change::MicroBatches(v) => c.micro_batches = v,
            Change::MicroBatchSize(v) => c.micro_batch_size = v,
            Change::SeqLen(v) => c.seq_len = v,
            Change::Zero(v) => c.zero = v,
            Change::Recompute(v) => c.recompute = v,
            Change::Schedule(v) => c.schedule = v,
            Change::VirtualStages(v) => c.virtual_stages = v,
            Change::Precision(v) => c.precision = v,
            Change::Hardware(h) => *c = c.clone().use_card(h),
            Change::Memory(v) => c.gpu_memory_gb = v,
            Change::NvLink(v) => c.nvlink_gbps = v,
            Change::Ib(v) => c.ib_gbps = v,
            Change::Order(v) => c.order = v,
            Change::Accounting(v) => c.accounting = v,
            Change::Tflops(v) => c.gpu_tflops = v,
            Change::Hbm(v) => c.hbm_tbps = v,
            Change::Peak(v) => c.peak_tflops = v,
            Change::Efficiency(v) => c.matmul_efficiency = v,
            Change::NvLinkLatency(v) => c.nvlink_latency_us = v,
            Change::IbLatency(v) => c.ib_latency_us = v,
            Change::Offload(v) => c.optimizer_offload = v,
            Change::Pcie(v) => c.pcie_gbps = v,
            Change::HostMemory(v) => c.host_memory_gb = v,
            Change::Skew(v) => c.routing_skew = v,
            Change::Capacity(v) => c.capacity_factor = v,
            Change::SequenceParallel(v) => c.sequence_parallel = v,
            Change::RuntimeMemory(v) => c.runtime_memory = v,
            Change::SequenceSkew(v) => c.sequence_skew = v,
            Change::Rollout(r) => r.apply(c),
        }
    }
}

/// The words of enum values, and the preset aliases (one distinct word per preset but the
/// anchor, whose word is [`ANCHOR_WORD`]).
const WORDS: [(&str, Change); 31] = [
    ("full", Change::Recompute(Recompute::Full)),
    ("selective", Change::Recompute(Recompute::Selective)),
    ("none", Change::Recompute(Recompute::None)),
    ("gpipe", Change::Schedule(Schedule::Gpipe)),
    ("1f1b", Change::Schedule(Schedule::OneFOneB)),
    ("interleaved", Change::Schedule(Schedule::Interleaved)),
    ("bf16", Change::Precision(Precision::Bf16Grads)),
    ("fp32", Change::Precision(Precision::Fp32Grads)),
    ("tpcpppdp", Change::Order(RankOrder::TpCpPpDp)),
    ("tpcpdppp", Change::Order(RankOrder::TpCpDpPp)),
    ("llama", Change::Model(Preset::Llama3_405b)),
    ("deepseek", Change::Model(Preset::DeepseekV3)),
    ("llama8b", Change::Model(Preset::Llama3_8b)),
    ("llama70b", Change::Model(Preset::Llama3_70b)),
    ("mixtral", Change::Model(Preset::Mixtral8x7b)),
    ("qwen30b", Change::Model(Preset::Qwen3_30bA3b)),
    ("even", Change::Accounting(Accounting::Even)),
    ("stages", Change::Accounting(Accounting::Stages)),
    ("lessoncard", Change::Hardware(Hardware::Lesson)),
    ("a100", Change::Hardware(Hardware::A100)),
    ("h100", Change::Hardware(Hardware::H100)),
    ("h200", Change::Hardware(Hardware::H200)),
    ("b200", Change::Hardware(Hardware::B200)),
    ("mi300x", Change::Hardware(Hardware::Mi300x)),
    ("cpuadam", Change::Offload(OptimizerOffload::Cpu)),
    ("gpuadam", Change::Offload(OptimizerOffload::None)),
    ("dropless", Change::Capacity(None)),
    ("sp", Change::SequenceParallel(true)),
    ("nosp", Change::SequenceParallel(false)),
    ("runtime", Change::RuntimeMemory(true)),
    ("noruntime", Change::RuntimeMemory(false)),
];

/// The anchor's alias (the default model, written only to return to it).
pub(super) const ANCHOR_WORD: &str = "qwen";

/// Keys of numeric tokens.
const NUMBER_KEYS: [&str; 25] = [
    "n", "gpn", "tp", "pp", "cp", "ep", "m", "b", "s", "z", "v", "mem", "nvl", "ib", "tf", "hbm",
    "pk", "eff", "anv", "aib", "pcie", "host", "rho", "cf", "sq",
];

/// Reads one token. Err(reason) when it is not a well-formed token.
pub(super) fn parse_token(token: &str) -> Result<Change, IgnoredReason> {
    if token == ANCHOR_WORD {
        return Ok(Change::Model(Preset::Qwen38_27b));
    }
    if let Some(rollout) = RolloutChange::parse(token) {
        return rollout.map(Change::Rollout);
    }
    if let Some((_, change)) = WORDS.iter().find(|(word, _)| *word == token) {
        return Ok(*change);
    }
    let split = token
        .find(|c: char| !c.is_ascii_lowercase())
        .unwrap_or(token.len());
    let (key, value) = token.split_at(split);
    if !NUMBER_KEYS.contains(&key) {
        return Err(IgnoredReason::UnknownKey);
    }
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit() || b == b'p') {
        return Err(IgnoredReason::Malformed);
    }
    // A latency may be 0; every other real field is above 0.
    let least = if matches!(key, "anv" | "aib") {
        0.0
    } else {
        f64::MIN_POSITIVE
    };
    let float = || -> Result<f64, IgnoredReason> {
        let text = value.replacen('p', ".", 1);
        if text.contains('p') || text.starts_with('.') || text.ends_with('.') || text.len() > 12 {
            return Err(IgnoredReason::Malformed);
        }
        match crate::decimal::parse(&text) {
            Some(v) if v.is_finite() && v >= least && v <= 1e6 => Ok(v),
            Some(_) => Err(IgnoredReason::OutOfRange),
            None => Err(IgnoredReason::Malformed),
        }
    };
    let int = || -> Result<u32, IgnoredReason> {
        if value.contains('p') {
            return Err(IgnoredReason::Malformed);
        }
        value.parse::<u32>().map_err(|_| IgnoredReason::OutOfRange)
    };
    Ok(match key {
        "n" => Change::Gpus(int()?),
        "gpn" => Change::GpusPerNode(int()?),
        "tp" => Change::Tp(int()?),
        "pp" => Change::Pp(int()?),
        "cp" => Change::Cp(int()?),
        "ep" => Change::Ep(int()?),
        "m" => Change::MicroBatches(int()?),
        "b" => Change::MicroBatchSize(int()?),
        "s" => Change::SeqLen(int()?),
        "z" => Change::Zero(u8::try_from(int()?).map_err(|_| IgnoredReason::OutOfRange)?),
        "v" => Change::VirtualStages(int()?),
        "mem" => Change::Memory(float()?),
        "nvl" => Change::NvLink(float()?),
        "tf" => Change::Tflops(float()?),
        "hbm" => Change::Hbm(float()?),
        "pk" => Change::Peak(float()?),
        "eff" => Change::Efficiency(float()?),
        "anv" => Change::NvLinkLatency(float()?),
        "aib" => Change::IbLatency(float()?),
        "pcie" => Change::Pcie(float()?),
        "host" => Change::HostMemory(float()?),
        "rho" => Change::Skew(float()?),
        "cf" => Change::Capacity(Some(float()?)),
        "sq" => Change::SequenceSkew(float()?),
        _ => Change::Ib(float()?),
    })
}

/// A float as a token value: `80`, `94p5`.
pub(super) fn float_value(v: f64) -> String {
    let text = format!("{v}");
    text.replace('.', "p")
}

/// The word that writes an enum value.
pub(super) fn word_of(change: Change) -> Option<&'static str> {
    WORDS.iter().find(|(_, c)| *c == change).map(|(w, _)| *w)
}
