//! `parallel-lab eval` and `parallel-lab groups`: one config on stdin, one JSON line out.

use std::io::Write;

use parallel_core::{evaluate, Plan, PlanConfig};

use crate::error::CliError;

/// The SPEC §10 report of a config: `{"dp", "memory", "comm", "bubble", "warnings"}`.
pub fn eval(config: &PlanConfig, out: &mut dyn Write) -> Result<(), CliError> {
    let report = evaluate(config)?;
    write_json_line(&report, out)
}

/// The TP, CP, PP, DP (and, for MoE models, EP) groups of one card.
pub fn groups(config: &PlanConfig, card: u32, out: &mut dyn Write) -> Result<(), CliError> {
    let groups = Plan::new(config)?.grid().groups(card)?;
    write_json_line(&groups, out)
}

/// Writes a value as compact JSON followed by a newline.
pub fn write_json_line(value: &impl serde::Serialize, out: &mut dyn Write) -> Result<(), CliError> {
    serde_json::to_writer(&mut *out, value).map_err(std::io::Error::from)?;
    out.write_all(b"\n")?;
    Ok(())
}
