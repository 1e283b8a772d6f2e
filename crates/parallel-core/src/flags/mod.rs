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
mod output;
mod read;
mod rules;
mod shell;
mod values;

pub use kinds::{Engine, EngineRule, LaunchError, MovedGroups};
pub use megatron::launch_order;
pub use output::{Flags, Note};
pub use read::{read_launch, Launch};
pub use rules::check;
pub use shell::{quote, words};

use crate::config::PlanConfig;
use crate::error::PlanError;
use crate::plan::Plan;

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
