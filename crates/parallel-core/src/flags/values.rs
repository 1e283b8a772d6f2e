//! [`Values`]: the flags a pasted command gave that the lab reads, the last of each winning
//! (as with argparse), and their values read as numbers with errors that name the flag.

use super::kinds::LaunchError;
use crate::error::PlanError;
use crate::numbers::quoted_text;

/// The flags read from a command: a switch maps to `None`, a flag with a value to its value.
#[derive(Clone, Debug, Default)]
pub(super) struct Values {
    given: Vec<(&'static str, Option<String>)>,
    /// Flags whose value was a shell variable the text does not set: read as absent.
    pub(super) unresolved: Vec<String>,
}

impl Values {
    /// Records a flag (the last one wins).
    pub(super) fn set(&mut self, flag: &'static str, value: Option<String>) {
        self.given.retain(|(f, _)| *f != flag);
        self.given.push((flag, value));
    }

    /// Whether the flag was given.
    pub(super) fn has(&self, flag: &str) -> bool {
        self.given.iter().any(|(f, _)| *f == flag)
    }

    /// The flag's value as text, if given.
    pub(super) fn text(&self, flag: &str) -> Option<&str> {
        self.given
            .iter()
            .find(|(f, _)| *f == flag)
            .and_then(|(_, v)| v.as_deref())
    }

    /// The flag's value as a whole number ≥ 1, if given.
    pub(super) fn count(&self, flag: &'static str) -> Result<Option<u32>, PlanError> {
        self.number(flag, 1)
    }

    /// The flag's value as a whole number ≥ `min`, if given.
    pub(super) fn number(&self, flag: &'static str, min: u32) -> Result<Option<u32>, PlanError> {
        let Some(text) = self.text(flag) else {
            return Ok(None);
        };
        match text.trim().parse::<u32>() {
            Ok(v) if v >= min => Ok(Some(v)),
            _ if min == 0 => Err(bad(flag, text, "a whole number")),
            _ => Err(bad(flag, text, "a whole number of at least 1")),
        }
    }

    /// The flag's value as a large whole number ≥ 1 (a global batch), if given.
    pub(super) fn big(&self, flag: &'static str) -> Result<Option<u64>, PlanError> {
        let Some(text) = self.text(flag) else {
            return Ok(None);
        };
        match text.trim().parse::<u64>() {
            Ok(v) if v >= 1 => Ok(Some(v)),
            _ => Err(bad(flag, text, "a whole number of at least 1")),
        }
    }
}

/// A value the lab cannot read for `flag`, quoted in a few dozen characters
/// ([`quoted_text`]): a pasted command may hold anything.
pub(super) fn bad(flag: &'static str, value: &str, expected: &'static str) -> PlanError {
    PlanError::Launch(LaunchError::BadValue {
        flag,
        value: quoted_text(value),
        expected,
    })
}
