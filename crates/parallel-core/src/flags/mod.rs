//! Launch flags (SPEC §16): a valid plan as Megatron-LM, slime or DeepSpeed launch arguments
//! ([`flags`]), and a pasted Megatron-LM / slime command read back into a plan
//! ([`read_launch`]). Every flag name is spelled once, in `names`, with the engine source and
//! commit it was read from.
//!
//! - `kinds`: [`Engine`], [`EngineRule`], [`LaunchError`] (held by [`crate::PlanError`]);
//! - `rules`: each engine's own checks, run before any flag is written;
//! - `megatron`, `deepspeed`: the writers; `model`: the model's flags, both ways;
//! - `shell`: words of a shell text (quotes, `\` continuations, comments) and quoting back;
//! - `read`: the reader.
//!
//! flags → [`read_launch`] → flags is the identity for Megatron-LM and slime; what an engine
//! cannot express (GPipe, a `params` override, the card's own figures …) is a [`Note`], never a
//! silently different plan.
//!
//! ```
//! use parallel_core::flags::{flags, read_launch, Engine};
//! use parallel_core::PlanConfig;
//! let plan = PlanConfig { gpus: 64, tp: 8, pp: 2, zero: 1, ..PlanConfig::default() };
//! let out = flags(&plan, Engine::Megatron)?;
//! assert!(out.args.windows(2).any(|w| w == ["--tensor-model-parallel-size", "8"]));
//! let back = read_launch(&out.shell(), None)?;
//! assert_eq!(back.config, plan);
//! assert_eq!(flags(&back.config, Engine::Megatron)?.shell(), out.shell());
//! # Ok::<(), parallel_core::PlanError>(())
//! ```

mod deepspeed;
pub mod kinds;
mod megatron;
mod model;
pub mod names;
mod read;
mod rules;
mod shell;
mod values;

pub use kinds::{Engine, EngineRule, LaunchError};
pub use read::{read_launch, Launch};
pub use rules::check;
pub use shell::{quote, words};

use crate::config::PlanConfig;
use crate::error::PlanError;
use crate::lang::Lang;
use crate::plan::Plan;

/// A sentence about the command, in both languages: what the engine cannot express, what the
/// lab does not set, or what a pasted command held that the lab does not model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// 中文.
    pub zh: String,
    /// English.
    pub en: String,
}

impl Note {
    /// A note from its two sentences.
    pub fn new(zh: impl Into<String>, en: impl Into<String>) -> Note {
        Note {
            zh: zh.into(),
            en: en.into(),
        }
    }

    /// The sentence in `lang`.
    pub fn text(&self, lang: Lang) -> &str {
        lang.pick(&self.zh, &self.en)
    }
}

/// A plan as one engine's launch: the argument words (launcher and script first), for
/// DeepSpeed its JSON config, and the notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flags {
    /// The engine.
    pub engine: Engine,
    /// The command's words, unquoted: `["torchrun", "--nnodes", "1", …, "pretrain_gpt.py",
    /// "--tensor-model-parallel-size", "8", …]`.
    pub args: Vec<String>,
    /// DeepSpeed's `ds_config.json` (pretty JSON text); `None` for the other engines.
    pub config: Option<String>,
    /// What the command cannot say, or what the lab does not set.
    pub notes: Vec<Note>,
}

impl Flags {
    /// The command as a copyable shell text: the launcher and script on the first line, then
    /// one flag (with its value) per line, each line but the last ending in ` \`; values that
    /// the shell would change are single-quoted. For DeepSpeed, a here-document writing
    /// `ds_config.json` comes first. [`read_launch`] reads this text back.
    pub fn shell(&self) -> String {
        let mut lines: Vec<String> = Vec::new();
        let mut current: Vec<String> = Vec::new();
        let mut in_launcher = true;
        for word in &self.args {
            if word.starts_with("--") && !in_launcher {
                if !current.is_empty() {
                    lines.push(current.join(" "));
                }
                current = Vec::new();
            }
            if in_launcher && word.ends_with(".py") {
                in_launcher = false;
            }
            current.push(quote(word));
        }
        if !current.is_empty() {
            lines.push(current.join(" "));
        }
        let mut text = lines.join(" \\\n  ");
        text.push('\n');
        match &self.config {
            Some(config) => format!("cat > ds_config.json <<'EOF'\n{config}\nEOF\n{text}"),
            None => text,
        }
    }
}

/// The plan of `config` as `engine`'s launch arguments (SPEC §16). The plan is checked first
/// by [`Plan::new`], then by the engine's own rules ([`check`]); either failure is the error,
/// naming the field (an engine rule as [`PlanError::Launch`]).
pub fn flags(config: &PlanConfig, engine: Engine) -> Result<Flags, PlanError> {
    let plan = Plan::new(config)?;
    check(&plan, engine)?;
    Ok(match engine {
        Engine::Megatron | Engine::Slime => megatron::write(&plan, engine),
        Engine::DeepSpeed => deepspeed::write(&plan),
    })
}
