//! The rollout engines and the log-probability chunk in a link (SPEC §15): `rollout` alone for
//! seed 000's default engines, or the fields that differ from them, each implying the engines:
//! `eng2` (cards per engine), `rpool32` (a separate pool; absent = colocated), `np8` prompts,
//! `ns8` samples per prompt, `pl2048` prompt tokens, `rl262144` response cap, `kv1` bytes per
//! cached value; `norollout` returns to training only; `lpc1024` is `log_probs_chunk`.

use crate::config::{PlanConfig, Rollout};

use super::notice::IgnoredReason;

/// The word of seed 000's default engines.
const ON_WORD: &str = "rollout";
/// The word of a training-only plan.
const OFF_WORD: &str = "norollout";
/// The key of `log_probs_chunk`.
const CHUNK_KEY: &str = "lpc";
/// The keys of the engines' fields, in the order of SPEC §15's table.
const FIELD_KEYS: [&str; 7] = ["eng", "rpool", "np", "ns", "pl", "rl", "kv"];

/// What a rollout token changes in a config.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(in crate::link) enum RolloutChange {
    /// The engines with their defaults (kept as they are if already on).
    On,
    /// No engines: training only.
    Off,
    /// One field of the engines, by its index in [`FIELD_KEYS`]; turns the engines on.
    Field(u8, u32),
    /// `log_probs_chunk`.
    LogProbsChunk(u32),
}

impl RolloutChange {
    /// Its place after the fields before it in the config table (0 for on/off, then the
    /// fields in table order, then the chunk).
    pub(in crate::link) fn rank(&self) -> u8 {
        match *self {
            RolloutChange::On | RolloutChange::Off => 0,
            RolloutChange::Field(i, _) => 1 + i,
            RolloutChange::LogProbsChunk(_) => 1 + FIELD_KEYS.len() as u8,
        }
    }

    /// Whether it changes the engines (rather than the chunk, which never makes a plan
    /// invalid).
    pub(in crate::link) fn is_engine(&self) -> bool {
        !matches!(self, RolloutChange::LogProbsChunk(_))
    }

    pub(in crate::link) fn apply(self, c: &mut PlanConfig) {
        match self {
            RolloutChange::On => {
                c.rollout.get_or_insert_with(Rollout::default);
            }
            RolloutChange::Off => c.rollout = None,
            RolloutChange::Field(i, v) => {
                let r = c.rollout.get_or_insert_with(Rollout::default);
                if let Some(field) = fields_mut(r).into_iter().nth(usize::from(i)) {
                    *field = v;
                }
            }
            RolloutChange::LogProbsChunk(v) => c.log_probs_chunk = v,
        }
    }

    /// Reads a rollout token: `None` when the token is not one (another key), else the
    /// change or why it is malformed.
    pub(in crate::link) fn parse(token: &str) -> Option<Result<RolloutChange, IgnoredReason>> {
        match token {
            ON_WORD => return Some(Ok(RolloutChange::On)),
            OFF_WORD => return Some(Ok(RolloutChange::Off)),
            _ => {}
        }
        let split = token
            .find(|c: char| !c.is_ascii_lowercase())
            .unwrap_or(token.len());
        let (key, digits) = token.split_at(split);
        let index = FIELD_KEYS.iter().position(|k| *k == key);
        if index.is_none() && key != CHUNK_KEY {
            return None;
        }
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Some(Err(IgnoredReason::Malformed));
        }
        let Ok(value) = digits.parse::<u32>() else {
            return Some(Err(IgnoredReason::OutOfRange));
        };
        Some(Ok(match index {
            // FIELD_KEYS has 7 entries: the index fits a u8.
            Some(i) => RolloutChange::Field(i as u8, value),
            None => RolloutChange::LogProbsChunk(value),
        }))
    }
}

/// The engines' fields in [`FIELD_KEYS`]' order.
fn fields(r: &Rollout) -> [u32; 7] {
    [
        r.gpus_per_engine,
        r.rollout_gpus,
        r.prompts,
        r.samples_per_prompt,
        r.prompt_len,
        r.response_len,
        r.kv_bytes,
    ]
}

/// The engines' fields in [`FIELD_KEYS`]' order, to set.
fn fields_mut(r: &mut Rollout) -> [&mut u32; 7] {
    [
        &mut r.gpus_per_engine,
        &mut r.rollout_gpus,
        &mut r.prompts,
        &mut r.samples_per_prompt,
        &mut r.prompt_len,
        &mut r.response_len,
        &mut r.kv_bytes,
    ]
}

/// The rollout tokens of `config` against `base`: the engines' fields that differ from the
/// base's engines (or from the defaults when the base has none; `rollout` when none does),
/// `norollout` when the base has engines and the config not, then `lpc…`.
pub(in crate::link) fn rollout_tokens(config: &PlanConfig, base: &PlanConfig) -> Vec<String> {
    let mut out = Vec::new();
    match (config.rollout, base.rollout) {
        (None, Some(_)) => out.push(OFF_WORD.to_string()),
        (Some(r), b) if Some(r) != b => {
            let from = fields(&b.unwrap_or_default());
            for ((key, value), was) in FIELD_KEYS.iter().zip(fields(&r)).zip(from) {
                if value != was {
                    out.push(format!("{key}{value}"));
                }
            }
            if out.is_empty() {
                out.push(ON_WORD.to_string());
            }
        }
        _ => {}
    }
    if config.log_probs_chunk != base.log_probs_chunk {
        out.push(format!("{CHUNK_KEY}{}", config.log_probs_chunk));
    }
    out
}

/// Whether the engines' changes, applied together to `base`, give engines that pass their
/// checks: then a link's `rpool12.eng3` is read as written, although neither token alone
/// fits the default engines of 8 cards.
pub(in crate::link) fn fit_together(
    base: &PlanConfig,
    changes: impl IntoIterator<Item = RolloutChange>,
) -> bool {
    let mut c = base.clone();
    for change in changes {
        change.apply(&mut c);
    }
    c.rollout.is_none_or(|r| r.check(c.gpus).is_ok())
}
