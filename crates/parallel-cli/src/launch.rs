//! `parallel-lab flags` (a plan on stdin as an engine's launch arguments) and `eval/groups
//! --megatron 'ARGS'` (a pasted Megatron-LM / slime command read back into a plan), over
//! `parallel_core::flags` (SPEC §16).

use std::io::Write;

use parallel_core::flags::{flags, read_launch, Engine, Launch};
use parallel_core::{Lang, PlanConfig};

use crate::error::CliError;
use crate::eval::write_json_line;

/// Output format of `flags`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FlagsFormat {
    /// The command as shell text: launcher and script on the first line, one flag per line
    /// joined by ` \` continuations (copyable as is), the notes after it as `#` comments.
    #[default]
    Shell,
    /// `{"engine", "args": [...], "notes": [...]}` (and `"config": {...}` for DeepSpeed).
    Json,
}

/// `--megatron 'ARGS'` and `--gpus N`: a pasted launch command instead of a config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchArgs {
    /// The command text.
    pub command: String,
    /// The card count when the command gives none.
    pub gpus: Option<u32>,
}

/// `parallel-lab flags`: the plan of `config` as `engine`'s launch.
pub fn write_flags(
    config: &PlanConfig,
    engine: Engine,
    format: FlagsFormat,
    lang: Lang,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let launch = flags(config, engine)?;
    let notes: Vec<&str> = launch.notes.iter().map(|n| n.text(lang)).collect();
    match format {
        FlagsFormat::Shell => {
            out.write_all(launch.shell().as_bytes())?;
            for note in notes {
                writeln!(out, "# {note}")?;
            }
            Ok(())
        }
        FlagsFormat::Json => {
            let mut value = serde_json::json!({
                "engine": launch.engine.id(),
                "args": launch.args,
                "notes": notes,
            });
            if let (Some(text), Some(object)) = (&launch.config, value.as_object_mut()) {
                let config: serde_json::Value =
                    serde_json::from_str(text).map_err(std::io::Error::from)?;
                object.insert("config".to_string(), config);
            }
            write_json_line(&value, out)
        }
    }
}

/// The plan of a pasted command, and what the reader says about it as JSON:
/// `{"engine", "ignored", "not_modelled", "notes"}` (notes in English).
pub fn read(args: &LaunchArgs) -> Result<(PlanConfig, serde_json::Value), CliError> {
    let Launch {
        config,
        engine,
        ignored,
        not_modelled,
        notes,
    } = read_launch(&args.command, args.gpus)?;
    let notes: Vec<&str> = notes.iter().map(|n| n.text(Lang::En)).collect();
    let notice = serde_json::json!({
        "engine": engine.id(),
        "ignored": ignored,
        "not_modelled": not_modelled,
        "notes": notes,
    });
    Ok((config, notice))
}
