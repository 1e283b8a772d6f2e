//! What a course page says to an embedded widget by `postMessage`, and what the widget answers:
//! the message types, and [`read_plan`] (a plan object) and [`read_set`] (the plan as JSON
//! text), which read a `parallel-lab:set` message's plan for a grid. A plan object is taken
//! whole or not at all: a [`Refusal`] names the field at fault and why ([`RefusalReason`]). A
//! string is a link's plan tokens, read as a link is.

use core::fmt;

use serde_json::{Map, Value};

use super::notice::{excerpt, Ignored, IgnoredReason};
use super::plan_codec::{decode_plan, encode_plan};
use super::state::GridId;
use crate::config::{Field, PlanConfig};
use crate::error::PlanError;
use crate::plan::Plan;

/// The course page sets a grid: `{type: "parallel-lab:set", plan}`.
pub const SET: &str = "parallel-lab:set";
/// The widget's answer to a refused `set`: `{type: "parallel-lab:error", widget, field, reason,
/// message}`.
pub const ERROR: &str = "parallel-lab:error";
/// The widget tells the course page its height: `{type: "parallel-lab:height", widget, height}`.
pub const HEIGHT: &str = "parallel-lab:height";

/// The longest plan read, as JSON text: a plan with a `config.json` fits many times over.
pub const MAX_PLAN_LEN: usize = 16_384;

/// Why a `set` message's plan was refused. Nothing of a refused plan is applied.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// `plan` is neither an object nor a string of a link's tokens (a number, an array, `null`,
    /// left out, or not JSON at all).
    NotAPlan,
    /// `plan` is longer than [`MAX_PLAN_LEN`] as JSON.
    TooLong,
    /// A key that is no field of a plan, as written (shortened, control characters replaced:
    /// safe to show as text).
    Unknown(String),
    /// A value not of its field's type: `{"tp": "8"}`, `{"tp": 1.5}`, `{"tp": -1}` (a count is
    /// a whole number from 0), `{"recompute": "sometimes"}` (not one of its words).
    WrongType(Field),
    /// A value of its field's type that this grid does not take: `{"tp": 16}` (TP stays within
    /// a node), `{"gpus": 8}` on the 64-card grid, a number no link carries
    /// (`{"gpu_memory_gb": 1e7}`).
    OutOfRange(Field),
    /// The plan's own checks refuse it: the core's reason, with its field.
    Plan(PlanError),
}

/// Why a plan was refused, as the answer's `reason` writes it ([`RefusalReason::id`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefusalReason {
    /// `"wrong-type"`: not of the field's type (or no plan at all).
    WrongType,
    /// `"out-of-range"`: of its type, but a value the field, or this grid, does not take.
    OutOfRange,
    /// `"unknown"`: no such field.
    Unknown,
    /// `"invalid"`: values that do not make a plan together (N not divisible by t·p·c, EP on a
    /// dense model, …).
    Invalid,
}

impl RefusalReason {
    /// The answer's `reason`: `wrong-type`, `out-of-range`, `unknown` or `invalid`.
    pub const fn id(self) -> &'static str {
        match self {
            RefusalReason::WrongType => "wrong-type",
            RefusalReason::OutOfRange => "out-of-range",
            RefusalReason::Unknown => "unknown",
            RefusalReason::Invalid => "invalid",
        }
    }
}

impl Refusal {
    /// Why, in one of four words.
    pub fn reason(&self) -> RefusalReason {
        match self {
            Refusal::NotAPlan | Refusal::WrongType(_) => RefusalReason::WrongType,
            Refusal::TooLong | Refusal::OutOfRange(_) => RefusalReason::OutOfRange,
            Refusal::Unknown(_) => RefusalReason::Unknown,
            // A field's own bounds are its range; the rest is how fields combine.
            Refusal::Plan(error) => match error {
                PlanError::BelowOne { .. }
                | PlanError::AtMost { .. }
                | PlanError::NotPositive { .. }
                | PlanError::NotAShare { .. }
                | PlanError::Negative { .. }
                | PlanError::OutOfRange { .. }
                | PlanError::ZeroStage { .. } => RefusalReason::OutOfRange,
                _ => RefusalReason::Invalid,
            },
        }
    }

    /// The field at fault; `None` for the plan as a whole or a key that is no field.
    pub fn field(&self) -> Option<Field> {
        match self {
            Refusal::NotAPlan | Refusal::TooLong | Refusal::Unknown(_) => None,
            Refusal::WrongType(field) | Refusal::OutOfRange(field) => Some(*field),
            Refusal::Plan(error) => Some(error.field()),
        }
    }

    /// The answer's `field`: the field's key (`tp`, `model.hidden`), the unknown key as
    /// written, or `plan` for the plan as a whole.
    pub fn key(&self) -> String {
        match (self, self.field()) {
            (Refusal::Unknown(key), _) => key.clone(),
            (_, Some(field)) => field.key(),
            (_, None) => "plan".to_string(),
        }
    }
}

/// One English line, `"<field>: <why>"`, as the CLI writes its errors: the answer's `message`.
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotAPlan => f.write_str(
                "plan: not a plan (an object with the CLI's field names, or a link's plan tokens)",
            ),
            Refusal::TooLong => write!(f, "plan: longer than {MAX_PLAN_LEN} characters as JSON"),
            Refusal::Unknown(key) => write!(f, "{key}: unknown field"),
            Refusal::WrongType(field) => write!(f, "{field}: wrong type"),
            Refusal::OutOfRange(field) => write!(f, "{field}: out of range for this grid"),
            Refusal::Plan(error) => write!(f, "{error}"),
        }
    }
}

/// A plan object as a course page sent it, read a field at a time: what [`read_plan`] needs of
/// it, whatever its form (a JavaScript object in the embed, JSON in [`read_set`]).
pub trait PlanObject {
    /// Its keys, in order.
    fn keys(&self) -> Vec<String>;
    /// The plan of its field `key` alone, or of all its fields (`None`), on `gpus` cards when
    /// they leave `gpus` out; `None` when they do not read as a plan's fields (serde refuses
    /// them).
    fn plan(&self, key: Option<&str>, gpus: u32) -> Option<PlanConfig>;
}

impl PlanObject for Map<String, Value> {
    fn keys(&self) -> Vec<String> {
        self.keys().cloned().collect()
    }

    fn plan(&self, key: Option<&str>, gpus: u32) -> Option<PlanConfig> {
        let mut fields = match key {
            Some(key) => self
                .get_key_value(key)
                .map(|(k, v)| Map::from_iter([(k.clone(), v.clone())]))
                .unwrap_or_default(),
            None => self.clone(),
        };
        fields.entry("gpus").or_insert_with(|| Value::from(gpus));
        serde_json::from_value(Value::Object(fields)).ok()
    }
}

/// Reads a `set` message's plan object for `grid`: a whole plan, every field of which must be
/// one (else [`Refusal::Unknown`]), of its type ([`Refusal::WrongType`]: serde does not read
/// it, e.g. `"8"`, `1.5` or `-1` for a count, a word the field does not have), taken by this
/// grid's links ([`Refusal::OutOfRange`]: N and the node fixed, TP within a node, the
/// numbers a link carries), and the plan must pass the core's checks ([`Refusal::Plan`]). The
/// first field at fault, in the order of the keys, is the refusal. A plan taken is then read
/// as a link is, so that a message does no more than a link can.
pub fn read_plan(
    object: &impl PlanObject,
    grid: GridId,
) -> Result<(PlanConfig, Vec<Ignored>), Refusal> {
    for key in object.keys() {
        let field = Field::from_key(&key)
            .filter(|field| Field::PLAIN.contains(field))
            .ok_or_else(|| Refusal::Unknown(excerpt(&key)))?;
        let alone = object
            .plan(Some(&key), grid.gpus())
            .ok_or(Refusal::WrongType(field))?;
        // The field alone on the grid's base: a value this grid's links do not carry (how it
        // combines with the other fields is the whole plan's check, below).
        let (_, notices) = decode_plan(&encode_plan(&alone, grid), grid);
        if notices
            .iter()
            .any(|n| !matches!(n.reason, IgnoredReason::Invalid(_)))
        {
            return Err(Refusal::OutOfRange(field));
        }
    }
    let config = object.plan(None, grid.gpus()).ok_or(Refusal::NotAPlan)?;
    Plan::new(&config).map_err(Refusal::Plan)?;
    Ok(decode_plan(&encode_plan(&config, grid), grid))
}

/// Reads a `set` message's plan given as JSON text, for `grid`: an object by [`read_plan`]; a
/// string as a link's plan tokens (`"tp4.pp2"`), read as a link is (what is not used is
/// returned as notices, the rest applies); anything else is [`Refusal::NotAPlan`].
///
/// ```
/// use parallel_core::link::{read_set, GridId, Refusal, RefusalReason};
/// use parallel_core::Field;
/// let (plan, notices) = read_set(r#"{"tp": 4, "pp": 2}"#, GridId::SixtyFour).unwrap();
/// assert_eq!((plan.gpus, plan.tp, plan.pp), (64, 4, 2));
/// assert!(notices.is_empty());
/// let refused = read_set(r#"{"tp": "8"}"#, GridId::SixtyFour).unwrap_err();
/// assert_eq!(refused, Refusal::WrongType(Field::Tp));
/// assert_eq!((refused.key().as_str(), refused.reason().id()), ("tp", "wrong-type"));
/// ```
pub fn read_set(plan: &str, grid: GridId) -> Result<(PlanConfig, Vec<Ignored>), Refusal> {
    if plan.len() > MAX_PLAN_LEN {
        return Err(Refusal::TooLong);
    }
    match serde_json::from_str::<Value>(plan) {
        Ok(Value::String(tokens)) => Ok(decode_plan(&tokens, grid)),
        Ok(Value::Object(fields)) => read_plan(&fields, grid),
        _ => Err(Refusal::NotAPlan),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(plan: &str, grid: GridId) -> (String, &'static str) {
        let refusal = read_set(plan, grid).expect_err(plan);
        let line = refusal.to_string();
        assert!(line.starts_with(&format!("{}: ", refusal.key())), "{line}");
        assert!(line.len() < 200, "{line}");
        (refusal.key(), refusal.reason().id())
    }

    #[test]
    fn a_plan_object_is_taken_whole() {
        for grid in GridId::ALL {
            let (plan, notices) = read_set(r#"{"tp": 2, "pp": 2, "zero": 1}"#, grid).unwrap();
            assert!(notices.is_empty(), "{notices:?}");
            assert_eq!(
                (plan.gpus, plan.tp, plan.pp, plan.zero),
                (grid.gpus(), 2, 2, 1)
            );
        }
        let (plan, _) = read_set(
            r#"{"model": "mixtral-8x7b", "gpus": 64, "tp": 4, "pp": 2, "ep": 8, "recompute": "selective"}"#,
            GridId::SixtyFour,
        )
        .unwrap();
        assert_eq!((plan.tp, plan.pp, plan.ep), (4, 2, 8));
        let (plan, _) = read_set("{}", GridId::Eight).unwrap();
        assert_eq!(plan, GridId::Eight.base());
    }

    #[test]
    fn a_refused_plan_names_its_field_and_why() {
        let g64 = GridId::SixtyFour;
        for (plan, field, reason) in [
            (r#"{"tp": "8"}"#, "tp", "wrong-type"),
            (r#"{"pp": 2, "tp": 1.5}"#, "tp", "wrong-type"),
            (r#"{"tp": null}"#, "tp", "wrong-type"),
            (r#"{"model": {"hidden": "x"}}"#, "model", "wrong-type"),
            (r#"{"tp": -1}"#, "tp", "wrong-type"),
            (r#"{"zero": 300}"#, "zero", "wrong-type"),
            (r#"{"recompute": "sometimes"}"#, "recompute", "wrong-type"),
            (r#"{"zero": 7}"#, "zero", "out-of-range"),
            (r#"{"tp": 0}"#, "tp", "out-of-range"),
            (r#"{"tp": 16}"#, "tp", "out-of-range"),
            (r#"{"gpus": 8}"#, "gpus", "out-of-range"),
            (r#"{"gpus_per_node": 4}"#, "gpus_per_node", "out-of-range"),
            (r#"{"gpu_memory_gb": 1e7}"#, "gpu_memory_gb", "out-of-range"),
            (r#"{"tpp": 2}"#, "tpp", "unknown"),
            (r#"{"card": 2}"#, "card", "unknown"),
            (r#"{"model.hidden": 2}"#, "model.hidden", "unknown"),
            (r#"{"tp": 3}"#, "gpus", "invalid"),
            (r#"{"ep": 8}"#, "ep", "invalid"),
            ("42", "plan", "wrong-type"),
            ("null", "plan", "wrong-type"),
            ("[1, 2]", "plan", "wrong-type"),
            ("{not json", "plan", "wrong-type"),
        ] {
            assert_eq!(refused(plan, g64), (field.to_string(), reason), "{plan}");
        }
        // TP within a node: 16 is out of range on either grid (on 8 cards, also beyond N).
        assert_eq!(refused(r#"{"tp": 16}"#, GridId::Eight).0, "tp");
        // Only the first field at fault (in key order) is named.
        assert_eq!(refused(r#"{"pp": "x", "tp": "y"}"#, g64).0, "pp");
    }

    #[test]
    fn hostile_keys_and_values_stay_short() {
        let long_key = format!(r#"{{"{}<b>\u0007": 1}}"#, "k".repeat(5_000));
        let (key, reason) = refused(&long_key, GridId::Eight);
        assert_eq!(reason, "unknown");
        assert!(
            key.chars().count() <= 25 && !key.chars().any(char::is_control),
            "{key}"
        );
        let long_value = format!(r#"{{"model": "{}"}}"#, "m".repeat(10_000));
        assert_eq!(
            refused(&long_value, GridId::Eight),
            ("model".to_string(), "wrong-type")
        );
        let too_long = format!(r#"{{"model": "{}"}}"#, "m".repeat(MAX_PLAN_LEN));
        assert_eq!(read_set(&too_long, GridId::Eight), Err(Refusal::TooLong));
        let deep = format!("{}{}", "[".repeat(5_000), "]".repeat(5_000));
        assert_eq!(read_set(&deep, GridId::Eight), Err(Refusal::NotAPlan));
    }

    #[test]
    fn a_string_is_read_as_a_link() {
        let (plan, notices) = read_set(r#""tp16.pp4""#, GridId::SixtyFour).unwrap();
        assert_eq!((plan.tp, plan.pp), (1, 4));
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].reason, IgnoredReason::Fixed);
    }
}
