//! [`CliError`]: everything that can go wrong, as one line of text and an exit status.
//!
//! One convention for every subcommand:
//! - 0: success.
//! - 2: bad input of any kind (not JSON, not UTF-8, stdin unreadable, an unknown command,
//!   flag or field, a refused plan, link, launch line or measured file, a value out of range),
//!   and a result with a number that is not finite (the safety net under the core's bounds:
//!   some input beyond what the lab answers produced it). One line on stderr that starts with
//!   the field or flag at fault (`recompute: unknown variant ...`, `--card: ...`); every value
//!   it echoes is quoted in at most 80 characters ([`quoted_text`]; numbers by
//!   `parallel_core::numbers::quoted`), so one bad value, however large, gives well under 1 KB.
//! - 1: the lab's own failure, none of the input's doing: stdout that cannot be written, JSON
//!   the lab cannot write. A closed stdout (`parallel-lab table | head`) is not reported at all
//!   (see `main`).

use core::fmt;
use std::io;

use parallel_core::numbers::quoted_text;
use parallel_core::PlanError;

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// Invalid input or usage (exit status 2): `"<field or flag>: <reason>"`.
    Invalid(String),
    /// The lab's own failure, e.g. writing stdout (exit status 1).
    Io(io::Error),
}

impl CliError {
    /// An invalid-input error about `field` (a config field path or a command-line flag, quoted
    /// short: a path may hold a user's key). A value `reason` echoes is the caller's to quote.
    pub fn invalid(field: &str, reason: impl fmt::Display) -> CliError {
        CliError::Invalid(format!("{}: {reason}", quoted_text(field)))
    }

    /// Stdin could not be read (exit status 2: the input is at fault, e.g. a directory).
    pub fn unreadable(e: &io::Error) -> CliError {
        CliError::invalid("input", format!("cannot read stdin: {e}"))
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

/// The most bytes of an error line after `parallel-lab: error: `: the safety net under the
/// quoting of every value, so that stderr stays under 1 KB even were a value left unquoted (a
/// sentence and the few values it quotes need far less).
const LINE_BYTES: usize = 900;

impl fmt::Display for CliError {
    /// Always a single line, whatever the underlying message holds, of at most
    /// [`LINE_BYTES`] bytes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            CliError::Invalid(message) => message.clone(),
            CliError::Io(e) => format!("i/o: {e}"),
        };
        let line = one_line(&text);
        if line.len() <= LINE_BYTES {
            return f.write_str(&line);
        }
        let mut end = LINE_BYTES - '…'.len_utf8();
        while !line.is_char_boundary(end) {
            end -= 1;
        }
        write!(f, "{}…", &line[..end])
    }
}

/// `Ok` when every number in `value` is finite; else the error naming where (exit 2), before
/// anything is printed: serde_json would write NaN or ∞ as `null`, and the tables as "NaN".
/// The core's bounds keep every result finite; this is the net under them.
pub fn finite(value: &impl serde::Serialize) -> Result<(), CliError> {
    let paths = parallel_core::finite::non_finite(value);
    match paths.as_slice() {
        [] => Ok(()),
        [first, rest @ ..] => {
            let more = match rest {
                [] => String::new(),
                [second] => format!(" and {}", quoted_text(second)),
                _ => format!(" and {} more", rest.len()),
            };
            Err(CliError::invalid(
                "output",
                format!(
                    "{}{more} would not be a finite number (NaN or infinite): an input beyond \
                     what the lab can answer gave it",
                    quoted_text(first)
                ),
            ))
        }
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

    #[test]
    fn a_line_stays_short_whatever_it_is_given() {
        // A field (a user's key) is quoted short; a reason left unquoted is cut at the line's end.
        let e = CliError::invalid(&"k".repeat(10_000), "é".repeat(10_000));
        let line = e.to_string();
        assert!(
            line.starts_with(&format!("{}…: é", "k".repeat(79))),
            "{line}"
        );
        assert!(
            line.len() <= LINE_BYTES && line.ends_with('…'),
            "{}",
            line.len()
        );
    }

    #[test]
    fn a_result_that_is_not_finite_is_named_by_its_path() {
        #[derive(serde::Serialize)]
        struct Report {
            step_s: f64,
            parts: Vec<f64>,
        }
        let fine = Report {
            step_s: 1.0,
            parts: vec![0.5],
        };
        assert!(finite(&fine).is_ok());
        let broken = Report {
            step_s: f64::NAN,
            parts: vec![f64::INFINITY, 1.0, f64::NEG_INFINITY],
        };
        let e = finite(&broken).expect_err("NaN and ∞ refused");
        assert_eq!(e.exit_status(), 2);
        assert!(
            e.to_string()
                .starts_with("output: step_s and 2 more would not be a finite number"),
            "{e}"
        );
        let one = Report {
            step_s: 1.0,
            parts: vec![f64::NAN],
        };
        let e = finite(&one).expect_err("NaN refused");
        assert!(e.to_string().starts_with("output: parts[0] would"), "{e}");
    }
}
