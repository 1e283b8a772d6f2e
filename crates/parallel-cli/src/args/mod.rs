//! The command line: subcommands and their flags, parsed by hand into a [`Command`].
//!
//! Flags take their value as `--flag value` or `--flag=value`. Every mistake is a
//! [`CliError::Invalid`] naming the command or flag at fault.

use crate::error::CliError;
use parallel_core::numbers::quoted_text;

mod check;
pub use crate::launch::{FlagsFormat, LaunchArgs};
pub use check::CheckArgs;

/// What the user asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Print the usage text.
    Help,
    /// Evaluate the config on stdin, or of a lab link.
    Eval {
        /// `--card N`: traffic as that card sends it (links from its own groups, as the page
        /// shows a selected card) instead of the plan-wide links.
        card: Option<u32>,
        /// A lab link (`--url`) instead of stdin.
        link: Option<LinkArgs>,
        /// `--explain`: add every figure's formula, substituted values and source.
        explain: bool,
        /// `--megatron 'ARGS'`: a Megatron-LM / slime command instead of stdin (SPEC §16).
        launch: Option<LaunchArgs>,
    },
    /// Print the groups of one card of the config on stdin, or of a lab link.
    Groups {
        /// The card (`--card`; from the link's selected card when absent).
        card: Option<u32>,
        /// A lab link (`--url`) instead of stdin.
        link: Option<LinkArgs>,
        /// `--phase training|rollout`: the grid's groups (default) or the card's rollout
        /// engine (SPEC §15).
        phase: parallel_core::RolloutPhase,
        /// `--megatron 'ARGS'`: a Megatron-LM / slime command instead of stdin (SPEC §16).
        launch: Option<LaunchArgs>,
    },
    /// The config on stdin as an engine's launch arguments (SPEC §16).
    Flags {
        /// `--engine megatron|slime|deepspeed` (default megatron).
        engine: parallel_core::flags::Engine,
        /// `--format shell|json` (default shell).
        format: FlagsFormat,
        /// `--lang en|zh`: the notes' language (default en).
        lang: Lang,
    },
    /// Render tables.
    Table(TableArgs),
    /// A card's workload, or a measured file beside the lab (SPEC §19).
    Check(CheckArgs),
    /// Time the core.
    Bench {
        /// Few iterations: a smoke run, not a measurement.
        quick: bool,
    },
    /// Read a Hugging Face `config.json` on stdin and print its inline model and counts.
    Model,
    /// Print the plan every omitted field falls back to, and the model presets' ids.
    Defaults,
    /// The 3D balance of the config on stdin (SPEC §23): memory per card against bytes sent,
    /// TP, PP and ZeRO each moved alone.
    Balance,
    /// Search every plan of the config on stdin's model, cluster and global batch (SPEC §12).
    Search {
        /// `--top K`: how many of the best fitting plans to print (default 20).
        top: usize,
    },
}

/// `--url LINK [--grid 8|64]`: a plan taken from a page link instead of stdin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkArgs {
    /// The link: a whole URL or its fragment.
    pub url: String,
    /// Which grid's plan (`--grid`); needed when the link names both or neither.
    pub grid: Option<parallel_core::link::GridId>,
}

fn link_args(flags: &mut Flags<'_>) -> Result<Option<LinkArgs>, CliError> {
    let grid = match flags.value("--grid")?.as_deref() {
        None => None,
        Some("8") => Some(parallel_core::link::GridId::Eight),
        Some("64") => Some(parallel_core::link::GridId::SixtyFour),
        Some(other) => return Err(unknown("--grid", "grid", other, "8 or 64")),
    };
    match flags.value("--url")? {
        Some(url) => Ok(Some(LinkArgs { url, grid })),
        None if grid.is_some() => Err(CliError::invalid("--grid", "goes with --url LINK")),
        None => Ok(None),
    }
}

/// Output format of `table`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// GitHub-flavoured Markdown.
    #[default]
    Markdown,
    /// RFC 4180 CSV (one table).
    Csv,
    /// JSON with raw figures and formatted cells.
    Json,
}

/// Language of labels and headers: the core's [`Lang`]; the command line defaults to English.
pub use parallel_core::Lang;

/// One of the lesson's tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LessonTable {
    /// The 8-GPU plans.
    EightGpus,
    /// The 64-GPU plans.
    SixtyFourGpus,
    /// The published Llama 3 405B runs.
    Llama3,
    /// DeepSeek-V3's plan.
    DeepseekV3,
    /// Seed 000's starting recipes.
    Recipes,
    /// Published runs beside the lab's figures for them.
    Runs,
}

impl LessonTable {
    /// Every lesson table, in the lesson's order.
    pub const ALL: [LessonTable; 6] = [
        LessonTable::EightGpus,
        LessonTable::SixtyFourGpus,
        LessonTable::Llama3,
        LessonTable::DeepseekV3,
        LessonTable::Recipes,
        LessonTable::Runs,
    ];

    /// The name used with `--table`.
    pub const fn id(self) -> &'static str {
        match self {
            LessonTable::EightGpus => "8gpu",
            LessonTable::SixtyFourGpus => "64gpu",
            LessonTable::Llama3 => "llama3",
            LessonTable::DeepseekV3 => "deepseek",
            LessonTable::Recipes => "recipes",
            LessonTable::Runs => "runs",
        }
    }
}

/// Which tables `table` renders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Some of the lesson's tables.
    Lesson(Vec<LessonTable>),
    /// One plan table from `[{"label": ..., "config": {...}}, ...]` on stdin.
    Stdin,
}

/// The flags of `table`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableArgs {
    /// Output format.
    pub format: Format,
    /// Language of labels and headers.
    pub lang: Lang,
    /// Which tables.
    pub source: Source,
}

/// `--card N`, when given.
fn card_arg(flags: &mut Flags<'_>) -> Result<Option<u32>, CliError> {
    flags
        .value("--card")?
        .map(|card| {
            card.parse::<u32>().map_err(|_| {
                CliError::invalid(
                    "--card",
                    format!(
                        "expected a card number 0, 1, 2, …, got `{}`",
                        quoted_text(&card)
                    ),
                )
            })
        })
        .transpose()
}

/// The error for a `value` of `field` that names none of its choices:
/// "unknown {what} `value`; expected {choices}".
fn unknown(field: &str, what: &str, value: &str, choices: &str) -> CliError {
    CliError::invalid(
        field,
        format!(
            "unknown {what} `{}`; expected {choices}",
            quoted_text(value)
        ),
    )
}

/// `--lang en|zh` (default en).
fn lang_arg(flags: &mut Flags<'_>) -> Result<Lang, CliError> {
    match flags.value("--lang")?.as_deref() {
        None | Some("en") => Ok(Lang::En),
        Some("zh") => Ok(Lang::Zh),
        Some(other) => Err(unknown("--lang", "language", other, "en or zh")),
    }
}

/// `--top K` (default [`parallel_core::search::DEFAULT_TOP`]).
fn top_arg(flags: &mut Flags<'_>) -> Result<usize, CliError> {
    match flags.value("--top")? {
        None => Ok(parallel_core::search::DEFAULT_TOP),
        Some(top) => top
            .parse::<usize>()
            .ok()
            .filter(|k| *k >= 1)
            .ok_or_else(|| {
                CliError::invalid(
                    "--top",
                    format!("expected a count 1, 2, 3, …, got `{}`", quoted_text(&top)),
                )
            }),
    }
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Command, CliError> {
    let Some((command, rest)) = args.split_first() else {
        return Err(CliError::invalid(
            "command",
            "missing; expected eval, groups, flags, check, model, search, balance, defaults, table, bench or help (try --help)",
        ));
    };
    let is_help = |a: &String| matches!(a.as_str(), "help" | "--help" | "-h");
    if is_help(command) || rest.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(Command::Help);
    }
    let mut flags = Flags::new(rest);
    let parsed = match command.as_str() {
        "eval" => Command::Eval {
            card: card_arg(&mut flags)?,
            link: link_args(&mut flags)?,
            explain: flags.switch("--explain"),
            launch: launch_args(&mut flags)?,
        },
        "flags" => flags_args(&mut flags)?,
        "groups" => {
            let card = card_arg(&mut flags)?;
            let link = link_args(&mut flags)?;
            let launch = launch_args(&mut flags)?;
            if card.is_none() && link.is_none() {
                return Err(CliError::invalid(
                    "--card",
                    "missing; groups needs --card N (a card number)",
                ));
            }
            let phase = match flags.value("--phase")?.as_deref() {
                None => parallel_core::RolloutPhase::Training,
                Some(name) => parallel_core::RolloutPhase::parse(name)
                    .ok_or_else(|| unknown("--phase", "phase", name, "training or rollout"))?,
            };
            Command::Groups {
                card,
                link,
                phase,
                launch,
            }
        }
        "table" => Command::Table(table_args(&mut flags)?),
        "bench" => Command::Bench {
            quick: flags.switch("--quick"),
        },
        "model" => Command::Model,
        "defaults" => Command::Defaults,
        "balance" => Command::Balance,
        "check" => Command::Check(check::check_args(&mut flags)?),
        "search" => Command::Search {
            top: top_arg(&mut flags)?,
        },
        other => return Err(unknown(
            "command",
            "command",
            other,
            "eval, groups, flags, check, model, search, balance, defaults, table, bench or help",
        )),
    };
    flags.finish(command)?;
    Ok(parsed)
}

/// `--megatron 'ARGS' [--gpus N]`, when given.
fn launch_args(flags: &mut Flags<'_>) -> Result<Option<LaunchArgs>, CliError> {
    let gpus = flags
        .value("--gpus")?
        .map(|gpus| {
            gpus.parse::<u32>().ok().filter(|g| *g >= 1).ok_or_else(|| {
                CliError::invalid(
                    "--gpus",
                    format!(
                        "expected a card count 1, 2, 3, …, got `{}`",
                        quoted_text(&gpus)
                    ),
                )
            })
        })
        .transpose()?;
    match flags.value_any("--megatron")? {
        Some(command) => Ok(Some(LaunchArgs { command, gpus })),
        None if gpus.is_some() => Err(CliError::invalid("--gpus", "goes with --megatron 'ARGS'")),
        None => Ok(None),
    }
}

/// The flags of `flags`.
fn flags_args(flags: &mut Flags<'_>) -> Result<Command, CliError> {
    let engine = match flags.value("--engine")? {
        None => parallel_core::flags::Engine::Megatron,
        Some(id) => parallel_core::flags::Engine::from_id(&id)
            .ok_or_else(|| unknown("--engine", "engine", &id, "megatron, slime or deepspeed"))?,
    };
    let format = match flags.value("--format")?.as_deref() {
        None | Some("shell") => FlagsFormat::Shell,
        Some("json") => FlagsFormat::Json,
        Some(other) => return Err(unknown("--format", "format", other, "shell or json")),
    };
    let lang = lang_arg(flags)?;
    Ok(Command::Flags {
        engine,
        format,
        lang,
    })
}

fn table_args(flags: &mut Flags<'_>) -> Result<TableArgs, CliError> {
    let format = match flags.value("--format")?.as_deref() {
        None | Some("md" | "markdown") => Format::Markdown,
        Some("csv") => Format::Csv,
        Some("json") => Format::Json,
        Some(other) => return Err(unknown("--format", "format", other, "md, csv or json")),
    };
    let lang = lang_arg(flags)?;
    let table = flags.value("--table")?;
    let stdin = flags.switch("--stdin");
    let source = match (table.as_deref(), stdin) {
        (Some(_), true) => {
            return Err(CliError::invalid(
                "--stdin",
                "renders the plans given on stdin; leave out --table",
            ))
        }
        (_, true) => Source::Stdin,
        (None | Some("all"), false) => Source::Lesson(LessonTable::ALL.to_vec()),
        (Some(id), false) => match LessonTable::ALL.into_iter().find(|t| t.id() == id) {
            Some(t) => Source::Lesson(vec![t]),
            None => {
                let ids = LessonTable::ALL.map(LessonTable::id).join(", ");
                return Err(unknown("--table", "table", id, &format!("{ids} or all")));
            }
        },
    };
    if format == Format::Csv && matches!(&source, Source::Lesson(t) if t.len() > 1) {
        return Err(CliError::invalid(
            "--table",
            "CSV holds one table: choose it with --table 8gpu|64gpu|llama3|deepseek|recipes|runs",
        ));
    }
    Ok(TableArgs {
        format,
        lang,
        source,
    })
}

/// The flags after a command: each is taken once by name, and whatever is left is an error.
struct Flags<'a> {
    args: &'a [String],
    used: Vec<bool>,
}

impl<'a> Flags<'a> {
    fn new(args: &'a [String]) -> Flags<'a> {
        Flags {
            args,
            used: vec![false; args.len()],
        }
    }

    /// The value of `--name value` or `--name=value`, if given (the last one wins).
    fn value(&mut self, name: &str) -> Result<Option<String>, CliError> {
        self.take(name, |v| !v.starts_with("--"), "needs a value")
    }

    /// The value of `--name value` or `--name=value`, where the value may itself start with
    /// `--` (a pasted command line); the last one wins.
    fn value_any(&mut self, name: &str) -> Result<Option<String>, CliError> {
        self.take(name, |_| true, "needs a value: the launch command, quoted")
    }

    /// Takes every `--name value` and `--name=value`, the last one winning; a separate value
    /// must pass `accepts`, or the flag fails with `missing`.
    fn take(
        &mut self,
        name: &str,
        accepts: impl Fn(&str) -> bool,
        missing: &str,
    ) -> Result<Option<String>, CliError> {
        let mut found = None;
        let mut i = 0;
        while i < self.args.len() {
            let arg = &self.args[i];
            if arg == name {
                self.used[i] = true;
                let value = self
                    .args
                    .get(i + 1)
                    .filter(|v| accepts(v))
                    .ok_or_else(|| CliError::invalid(name, missing))?;
                self.used[i + 1] = true;
                found = Some(value.clone());
                i += 2;
                continue;
            }
            if let Some(value) = arg.strip_prefix(name).and_then(|v| v.strip_prefix('=')) {
                self.used[i] = true;
                found = Some(value.to_string());
            }
            i += 1;
        }
        Ok(found)
    }

    /// Whether the switch `--name` is present.
    fn switch(&mut self, name: &str) -> bool {
        let mut present = false;
        for (arg, used) in self.args.iter().zip(&mut self.used) {
            if arg == name {
                *used = true;
                present = true;
            }
        }
        present
    }

    /// Fails on the first argument no flag took.
    fn finish(self, command: &str) -> Result<(), CliError> {
        match self.args.iter().zip(&self.used).find(|(_, used)| !**used) {
            None => Ok(()),
            Some((arg, _)) if arg.starts_with('-') => Err(CliError::invalid(
                arg.split('=').next().unwrap_or(arg),
                format!("unknown flag for `{command}` (try --help)"),
            )),
            Some((arg, _)) => Err(CliError::invalid(
                command,
                format!("unexpected argument `{}` (try --help)", quoted_text(arg)),
            )),
        }
    }
}

#[cfg(test)]
mod tests;
