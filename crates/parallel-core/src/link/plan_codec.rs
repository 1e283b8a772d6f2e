//! A grid's plan as dot-separated tokens (`tp8.pp2.z1`): [`encode_plan`] writes the fields
//! that differ from the grid's base config, [`decode_plan`] reads them back leniently.

use crate::config::{
    Accounting, OptimizerOffload, PlanConfig, Precision, RankOrder, Recompute, Schedule,
};
use crate::hardware::Hardware;
use crate::model::{InlineModel, ModelChoice, Preset};
use crate::plan::Plan;

use super::model_token::{decode_inline, encode_inline, INLINE_PREFIX};
use super::notice::{ignored, Ignored, IgnoredReason};
use super::state::GridId;

/// The most tokens read per grid.
const MAX_TOKENS: usize = 32;

/// A single change a token makes to a config.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Change {
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
}

impl Change {
    /// Position in the config table: tokens are applied in this order (the card preset before
    /// the card fields it sets).
    fn rank(&self) -> u8 {
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
        }
    }

    fn apply(self, c: &mut PlanConfig) {
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
        }
    }
}

/// The words of enum values, and the preset aliases (one distinct word per preset but the
/// anchor, whose word is [`ANCHOR_WORD`]).
const WORDS: [(&str, Change); 26] = [
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
];

/// The anchor's alias (the default model, written only to return to it).
const ANCHOR_WORD: &str = "qwen";

/// Keys of numeric tokens.
const NUMBER_KEYS: [&str; 22] = [
    "n", "gpn", "tp", "pp", "cp", "ep", "m", "b", "s", "z", "v", "mem", "nvl", "ib", "tf", "hbm",
    "pk", "eff", "anv", "aib", "pcie", "host",
];

/// Reads one token. Err(reason) when it is not a well-formed token.
fn parse_token(token: &str) -> Result<Change, IgnoredReason> {
    if token == ANCHOR_WORD {
        return Ok(Change::Model(Preset::Qwen38_27b));
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
        _ => Change::Ib(float()?),
    })
}

/// A float as a token value: `80`, `94p5`.
fn float_value(v: f64) -> String {
    let text = format!("{v}");
    text.replace('.', "p")
}

/// Tokens of every field of `config` that differs from `base`, in table order.
fn tokens(config: &PlanConfig, base: &PlanConfig) -> Vec<String> {
    let mut out = Vec::new();
    if config.model != base.model {
        match &config.model {
            ModelChoice::Preset(Preset::Qwen38_27b) => out.push(ANCHOR_WORD.to_string()),
            ModelChoice::Preset(p) => out.extend(word_of(Change::Model(*p)).map(str::to_string)),
            // A custom model is written by its fields (a config.json once counted).
            ModelChoice::Inline(m) => out.push(encode_inline(m)),
            ModelChoice::HfConfig(c) => {
                if let Ok(counted) = c.to_model() {
                    out.push(encode_inline(&counted.model));
                }
            }
        }
    }
    let mut num = |key: &str, value: u64, base_value: u64| {
        if value != base_value {
            out.push(format!("{key}{value}"));
        }
    };
    num("n", config.gpus.into(), base.gpus.into());
    num(
        "gpn",
        config.gpus_per_node.into(),
        base.gpus_per_node.into(),
    );
    num("tp", config.tp.into(), base.tp.into());
    num("pp", config.pp.into(), base.pp.into());
    num("cp", config.cp.into(), base.cp.into());
    num("ep", config.ep.into(), base.ep.into());
    num("m", config.micro_batches.into(), base.micro_batches.into());
    num(
        "b",
        config.micro_batch_size.into(),
        base.micro_batch_size.into(),
    );
    num("s", config.seq_len.into(), base.seq_len.into());
    num("z", config.zero.into(), base.zero.into());
    let mut word = |changed: bool, change: Change| {
        if let Some(w) = changed.then(|| word_of(change)).flatten() {
            out.push(w.to_string());
        }
    };
    word(
        config.recompute != base.recompute,
        Change::Recompute(config.recompute),
    );
    word(
        config.schedule != base.schedule,
        Change::Schedule(config.schedule),
    );
    if config.virtual_stages != base.virtual_stages {
        out.push(format!("v{}", config.virtual_stages));
    }
    if let Some(w) = (config.precision != base.precision)
        .then(|| word_of(Change::Precision(config.precision)))
        .flatten()
    {
        out.push(w.to_string());
    }
    // The card: its preset's word, then the fields that differ from the base on that card.
    let card_base = if config.hardware == base.hardware {
        base.clone()
    } else {
        out.extend(word_of(Change::Hardware(config.hardware)).map(str::to_string));
        base.clone().use_card(config.hardware)
    };
    let floats = |out: &mut Vec<String>, fields: &[(&str, f64, f64)]| {
        for (key, value, base_value) in fields {
            if value != base_value {
                out.push(format!("{key}{}", float_value(*value)));
            }
        }
    };
    floats(
        &mut out,
        &[
            ("mem", config.gpu_memory_gb, card_base.gpu_memory_gb),
            ("nvl", config.nvlink_gbps, card_base.nvlink_gbps),
            ("ib", config.ib_gbps, card_base.ib_gbps),
        ],
    );
    if let Some(w) = (config.order != base.order)
        .then(|| word_of(Change::Order(config.order)))
        .flatten()
    {
        out.push(w.to_string());
    }
    if let Some(w) = (config.accounting != base.accounting)
        .then(|| word_of(Change::Accounting(config.accounting)))
        .flatten()
    {
        out.push(w.to_string());
    }
    floats(
        &mut out,
        &[
            ("tf", config.gpu_tflops, card_base.gpu_tflops),
            ("hbm", config.hbm_tbps, card_base.hbm_tbps),
            ("pk", config.peak_tflops, card_base.peak_tflops),
            ("eff", config.matmul_efficiency, card_base.matmul_efficiency),
            ("anv", config.nvlink_latency_us, card_base.nvlink_latency_us),
            ("aib", config.ib_latency_us, card_base.ib_latency_us),
        ],
    );
    if let Some(w) = (config.optimizer_offload != base.optimizer_offload)
        .then(|| word_of(Change::Offload(config.optimizer_offload)))
        .flatten()
    {
        out.push(w.to_string());
    }
    floats(
        &mut out,
        &[
            ("pcie", config.pcie_gbps, base.pcie_gbps),
            ("host", config.host_memory_gb, base.host_memory_gb),
        ],
    );
    out
}

/// The word that writes an enum value.
fn word_of(change: Change) -> Option<&'static str> {
    WORDS.iter().find(|(_, c)| *c == change).map(|(w, _)| *w)
}

/// The link value of a grid's plan: its differences from the grid's base, dot-joined.
///
/// ```
/// use parallel_core::link::{encode_plan, GridId};
/// use parallel_core::PlanConfig;
/// let plan = PlanConfig { gpus: 64, tp: 8, pp: 2, zero: 1, micro_batches: 32, ..PlanConfig::default() };
/// assert_eq!(encode_plan(&plan, GridId::SixtyFour), "tp8.pp2.m32.z1");
/// ```
pub fn encode_plan(config: &PlanConfig, grid: GridId) -> String {
    tokens(config, &grid.base()).join(".")
}

/// Whether a change keeps the grid's fixed shape (N, node size, TP within a node).
fn allowed_in(grid: GridId, change: &Change) -> bool {
    match *change {
        Change::Gpus(n) => n == grid.gpus(),
        Change::GpusPerNode(g) => g == 8,
        Change::Tp(t) => t <= 8,
        _ => true,
    }
}

/// Decodes a grid's plan leniently: tokens applied in table order, each kept only if the plan
/// stays valid.
///
/// ```
/// use parallel_core::link::{decode_plan, GridId};
/// let (plan, ignored) = decode_plan("tp3.pp2.zz9", GridId::Eight);
/// assert_eq!((plan.tp, plan.pp), (1, 2));
/// assert_eq!(ignored.len(), 2); // tp3 does not divide 8 cards; zz9 is unknown
/// ```
pub fn decode_plan(value: &str, grid: GridId) -> (PlanConfig, Vec<Ignored>) {
    let mut ignored_parts = Vec::new();
    let mut changes: Vec<(Change, &str)> = Vec::new();
    let mut seen_ranks: Vec<u8> = Vec::new();
    let mut custom: Option<(InlineModel, &str)> = None;
    for (i, token) in value.split('.').enumerate() {
        if token.is_empty() {
            continue;
        }
        if i >= MAX_TOKENS {
            ignored_parts.push(ignored(token, IgnoredReason::TooLong));
            break;
        }
        if token.starts_with(INLINE_PREFIX) {
            // A custom model: the model's place in the table (rank 0), like a preset word.
            let rank = Change::Model(Preset::Qwen38_27b).rank();
            match decode_inline(token) {
                Ok(_) if seen_ranks.contains(&rank) => {
                    ignored_parts.push(ignored(token, IgnoredReason::Repeated))
                }
                Ok(model) => {
                    seen_ranks.push(rank);
                    custom = Some((model, token));
                }
                Err(reason) => ignored_parts.push(ignored(token, reason)),
            }
            continue;
        }
        match parse_token(token) {
            Ok(change) => {
                if seen_ranks.contains(&change.rank()) {
                    ignored_parts.push(ignored(token, IgnoredReason::Repeated));
                } else if !allowed_in(grid, &change) {
                    seen_ranks.push(change.rank());
                    ignored_parts.push(ignored(token, IgnoredReason::Fixed));
                } else {
                    seen_ranks.push(change.rank());
                    changes.push((change, token));
                }
            }
            Err(reason) => ignored_parts.push(ignored(token, reason)),
        }
    }
    changes.sort_by_key(|(change, _)| change.rank());
    let mut config = grid.base();
    if let Some((model, token)) = custom {
        let next = PlanConfig {
            model: ModelChoice::Inline(model),
            ..config.clone()
        };
        match Plan::new(&next) {
            Ok(_) => config = next,
            Err(error) => {
                ignored_parts.push(ignored(token, IgnoredReason::Invalid(error.to_string())))
            }
        }
    }
    for (change, token) in changes {
        let mut next = config.clone();
        change.apply(&mut next);
        match Plan::new(&next) {
            Ok(_) => config = next,
            Err(error) => {
                ignored_parts.push(ignored(token, IgnoredReason::Invalid(error.to_string())))
            }
        }
    }
    // Tokens were applied to a valid base one at a time, so the result is valid; a base that
    // were not valid would fall back to the grid's start.
    if Plan::new(&config).is_err() {
        config = grid.start();
    }
    (config, ignored_parts)
}
