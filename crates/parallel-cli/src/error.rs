//! [`CliError`]: everything that can go wrong, as one line of text and an exit status.
//!
//! Bad input and bad usage exit with status 2 and a message that starts with the field or
//! flag at fault (`recompute: unknown variant ...`, `--card: ...`). Failing to read stdin or
//! to write stdout exits with status 1; a closed stdout (`parallel-lab table | head`) is not
//! reported at all (see `main`).

use core::fmt;
use std::io;

use parallel_core::PlanError;

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// Invalid input or usage (exit status 2): `"<field or flag>: <reason>"`.
    Invalid(String),
    /// Reading stdin or writing stdout failed (exit status 1).
    Io(io::Error),
}

impl CliError {
    /// An invalid-input error about `field` (a config field path or a command-line flag).
    pub fn invalid(field: &str, reason: impl fmt::Display) -> CliError {
        CliError::Invalid(format!("{field}: {reason}"))
    }

    /// The process exit status for this error.
    pub fn exit_status(&self) -> u8 {
        match self {
            CliError::Invalid(_) => 2,
            CliError::Io(_) => 1,
        }
    }

    /// Whether this is stdout closing under us (e.g. piped into `head`): not worth a message.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, CliError::Io(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for CliError {
    /// Always a single line, whatever the underlying message holds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            CliError::Invalid(message) => message.clone(),
            CliError::Io(e) => format!("i/o: {e}"),
        };
        f.write_str(&one_line(&text))
    }
}

impl std::error::Error for CliError {}

impl From<PlanError> for CliError {
    /// A core error already reads `"<field>: <reason>"`.
    fn from(e: PlanError) -> CliError {
        CliError::Invalid(e.to_string())
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Io(e)
    }
}

/// Joins the lines of a message with spaces, so stderr always gets exactly one line.
fn one_line(text: &str) -> String {
    text.split(['\n', '\r'])
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line() {
        let e = CliError::invalid("tp", "first\nsecond\r\n");
        assert_eq!(e.to_string(), "tp: first second");
        assert_eq!(e.exit_status(), 2);
    }
}
