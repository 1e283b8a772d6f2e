//! A grid's plan as dot-separated tokens (`tp8.pp2.z1`): [`encode_plan`] writes the fields
//! that differ from the grid's base config, [`decode_plan`] reads them back leniently.

use crate::config::PlanConfig;
use crate::model::{InlineModel, ModelChoice, Preset};
use crate::plan::Plan;

use super::change::{float_value, parse_token, word_of, Change, ANCHOR_WORD};
use super::model_token::{decode_inline, encode_inline, INLINE_PREFIX};
use super::notice::{ignored, Ignored, IgnoredReason};
use super::rollout_token::{fit_together, rollout_tokens};
use super::state::GridId;

/// The most tokens read per grid.
const MAX_TOKENS: usize = 48;

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
    push_word(
        &mut out,
        config.recompute != base.recompute,
        Change::Recompute(config.recompute),
    );
    push_word(
        &mut out,
        config.schedule != base.schedule,
        Change::Schedule(config.schedule),
    );
    if config.virtual_stages != base.virtual_stages {
        out.push(format!("v{}", config.virtual_stages));
    }
    push_word(
        &mut out,
        config.precision != base.precision,
        Change::Precision(config.precision),
    );
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
    push_word(
        &mut out,
        config.order != base.order,
        Change::Order(config.order),
    );
    push_word(
        &mut out,
        config.accounting != base.accounting,
        Change::Accounting(config.accounting),
    );
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
    push_word(
        &mut out,
        config.optimizer_offload != base.optimizer_offload,
        Change::Offload(config.optimizer_offload),
    );
    floats(
        &mut out,
        &[
            ("pcie", config.pcie_gbps, base.pcie_gbps),
            ("host", config.host_memory_gb, base.host_memory_gb),
            ("rho", config.routing_skew, base.routing_skew),
        ],
    );
    if config.capacity_factor != base.capacity_factor {
        out.push(match config.capacity_factor {
            Some(cf) => format!("cf{}", float_value(cf)),
            None => "dropless".to_string(),
        });
    }
    push_word(
        &mut out,
        config.sequence_parallel != base.sequence_parallel,
        Change::SequenceParallel(config.sequence_parallel),
    );
    push_word(
        &mut out,
        config.runtime_memory != base.runtime_memory,
        Change::RuntimeMemory(config.runtime_memory),
    );
    floats(
        &mut out,
        &[("sq", config.sequence_skew, base.sequence_skew)],
    );
    out.extend(rollout_tokens(config, base));
    out
}

/// Adds `change`'s link word to `out` when the field `changed` from the base (and has a word).
fn push_word(out: &mut Vec<String>, changed: bool, change: Change) {
    if let Some(w) = changed.then(|| word_of(change)).flatten() {
        out.push(w.to_string());
    }
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
    // The engines' fields depend on each other (the pool must split into engines): when
    // they pass together, they are applied together.
    let engines = |change: &Change| matches!(change, Change::Rollout(r) if r.is_engine());
    let together = fit_together(
        &grid.base(),
        changes.iter().filter_map(|(change, _)| match change {
            Change::Rollout(r) if r.is_engine() => Some(*r),
            _ => None,
        }),
    );
    for (change, token) in changes {
        let mut next = config.clone();
        change.apply(&mut next);
        if together && engines(&change) {
            config = next;
            continue;
        }
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
