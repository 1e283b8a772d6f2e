//! The `parallel-lab` command line over `parallel-core` (SPEC §10).
//!
//! - `eval`: one `PlanConfig` on stdin → the JSON report of `parallel_core::evaluate`.
//! - `groups --card N`: one config on stdin → card N's TP, CP, PP, DP (and EP) groups.
//! - `table`: the lesson's tables, or a plan table of configs on stdin, as Markdown, CSV or
//!   JSON, for course material generated at build time.
//! - `model`: a Hugging Face `config.json` on stdin → `{"model", "params", "active_params",
//!   "notes"}`: the inline model it stands for and its exact parameter counts
//!   (`parallel_core::hf`, SPEC §13).
//! - `search [--top K]`: a config on stdin (model, cluster, `global_batch`, …) → every plan
//!   enumerated, the fitting ones ranked by estimated step time (`parallel_core::search`,
//!   SPEC §12): `{"considered", "valid", "fitting", "plans": [{"config", "report"}…]}`.
//! - `defaults`: `{"config", "presets"}`: the plan an empty input stands for, every field
//!   written out, and the model presets in the order the page's picker lists them.
//! - `check --emit [--card N]`: a card's workload for the measuring program of
//!   `scripts/gpu-check/`; `check --measured FILE`: its measurements beside the lab's figures
//!   (`parallel_core::check`, SPEC §19).
//! - `bench`: times the core (a benchmark, not a test).
//! - `flags [--engine megatron|slime|deepspeed] [--format shell|json]`: the config on stdin as
//!   the engine's launch arguments (`parallel_core::flags`, SPEC §16); `eval/groups --megatron
//!   'ARGS'`: a Megatron-LM / slime command read back into the plan it describes.
//! - `eval --url LINK` / `groups --url LINK`: the plan of a page link instead of stdin (the
//!   same codec as the page, `parallel_core::link`), so a link and a config are interchangeable.
//!
//! [`run`] does the work against any reader and writer; `main` only wires it to the process
//! and turns a [`CliError`] into one line on stderr and an exit status (2 for bad input).

mod args;
mod bench;
mod cells;
mod check;
mod error;
mod eval;
mod input;
mod launch;
mod link_input;
mod table;
mod usage;

use std::io::{Read, Write};

pub use args::{parse as parse_args, Command};
pub use error::CliError;
pub use usage::usage;

/// Runs one command line (without the program name), reading stdin only when the command
/// needs it.
pub fn run(args: &[String], stdin: &mut dyn Read, out: &mut dyn Write) -> Result<(), CliError> {
    match args::parse(args)? {
        Command::Help => out.write_all(usage().as_bytes())?,
        Command::Eval {
            card,
            link,
            explain,
            launch,
        } => {
            let (config, notice) = match (link, launch) {
                (Some(link), _) => (link_input::plan_of(&link)?.0, None),
                (None, Some(launch)) => {
                    let (config, notice) = launch::read(&launch)?;
                    (config, Some(notice))
                }
                (None, None) => (input::parse_config(&input::read_all(stdin)?)?, None),
            };
            eval::eval(&config, card, explain, notice, out)?;
        }
        Command::Flags {
            engine,
            format,
            lang,
        } => {
            let config = input::parse_config(&input::read_all(stdin)?)?;
            launch::write_flags(&config, engine, format, lang, out)?;
        }
        Command::Groups {
            card,
            link,
            phase,
            launch,
        } => {
            let (config, link_card) = match (link, launch) {
                (Some(link), _) => link_input::plan_of(&link)?,
                (None, Some(launch)) => (launch::read(&launch)?.0, None),
                (None, None) => (input::parse_config(&input::read_all(stdin)?)?, None),
            };
            let card = card.or(link_card).ok_or_else(|| {
                CliError::invalid(
                    "--card",
                    "missing, and the link selects no card of that grid",
                )
            })?;
            eval::groups(&config, card, phase, out)?;
        }
        Command::Check(args::CheckArgs::Emit { card, link }) => {
            let (config, link_card) = match link {
                Some(link) => link_input::plan_of(&link)?,
                None => (input::parse_config(&input::read_all(stdin)?)?, None),
            };
            check::emit(&config, card.or(link_card).unwrap_or(0), out)?;
        }
        Command::Check(args::CheckArgs::Measured { path, format, lang }) => {
            check::measured(&path, format, lang, stdin, out)?;
        }
        Command::Table(table_args) => table::run(&table_args, stdin, out)?,
        Command::Bench { quick } => bench::run(quick, out)?,
        Command::Defaults => eval::defaults(out)?,
        Command::Balance => {
            let config = input::parse_config(&input::read_all(stdin)?)?;
            eval::write_json_line(&parallel_core::Plan::new(&config)?.balance(), out)?;
        }
        Command::Model => eval::model(&input::parse_hf_config(&input::read_all(stdin)?)?, out)?,
        Command::Search { top } => {
            let config = input::parse_config(&input::read_all(stdin)?)?;
            eval::write_json_line(&parallel_core::search::search(&config, top)?, out)?;
        }
    }
    out.flush()?;
    Ok(())
}
