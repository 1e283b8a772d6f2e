//! The flags of `check` (SPEC §19).

use super::{card_arg, lang_arg, link_args, unknown, Flags, Format, LinkArgs};
use crate::error::CliError;
use parallel_core::Lang;

/// `check --emit` or `check --measured FILE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckArgs {
    /// `--emit [--card N] [--url LINK]`: the card's workload as JSON.
    Emit {
        /// The card (default: the link's selected card, else 0).
        card: Option<u32>,
        /// A lab link instead of stdin.
        link: Option<LinkArgs>,
    },
    /// `--measured FILE [--format md|json] [--lang en|zh]`: the file beside the lab.
    Measured {
        /// The measured file's path (`-` for stdin).
        path: String,
        /// Markdown (default) or JSON.
        format: Format,
        /// The notes' language.
        lang: Lang,
    },
}

/// Parses `check`'s flags: exactly one of `--emit` and `--measured FILE`.
pub(super) fn check_args(flags: &mut Flags<'_>) -> Result<CheckArgs, CliError> {
    let emit = flags.switch("--emit");
    let measured = flags.value("--measured")?;
    match (emit, measured) {
        (true, Some(_)) => Err(CliError::invalid(
            "--measured",
            "choose one: --emit writes a workload, --measured FILE reads a measurement",
        )),
        (true, None) => Ok(CheckArgs::Emit {
            card: card_arg(flags)?,
            link: link_args(flags)?,
        }),
        (false, Some(path)) => {
            let format = match flags.value("--format")?.as_deref() {
                None | Some("md" | "markdown") => Format::Markdown,
                Some("json") => Format::Json,
                Some(other) => return Err(unknown("--format", "format", other, "md or json")),
            };
            Ok(CheckArgs::Measured {
                path,
                format,
                lang: lang_arg(flags)?,
            })
        }
        (false, None) => Err(CliError::invalid(
            "--emit",
            "missing; check needs --emit (a card's workload) or --measured FILE",
        )),
    }
}
