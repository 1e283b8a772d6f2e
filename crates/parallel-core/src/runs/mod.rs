//! Published training runs beside the lab (issue 25): measured runs with named plans, each
//! with its source, the published figure, the lab's figure for the same plan and card, their
//! ratio, and what the lab leaves out that explains the rest.
//!
//! The published numbers are copied from their sources (`runs/data.rs`) and pinned by tests; the
//! lab's figures come from [`crate::evaluate`] with the one `matmul_efficiency` of every
//! preset. Nothing here is fitted to the runs.
//!
//! Sources count FLOPs in different ways; the lab's figure is counted the source's way
//! ([`Counting`]) so that the ratio compares step times, not conventions.

mod data;
mod kinds;
mod torchtitan;

use serde::Serialize;

use crate::config::PlanConfig;
use crate::error::PlanError;
use crate::lang::Lang;
use crate::plan::Plan;
use crate::report::Report;

pub use data::runs;
pub use kinds::{Counting, Figure, Published, Run};

/// A run with the lab's figures for it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunRow {
    /// The run's id.
    pub id: &'static str,
    /// Its source.
    pub source: &'static str,
    /// Its label in the chosen language.
    pub label: &'static str,
    /// The plan.
    pub config: PlanConfig,
    /// The published figures.
    pub published: Published,
    /// The lab's value of the published figure, counted the source's way.
    pub lab: f64,
    /// lab ÷ published.
    pub ratio: f64,
    /// The lab's own MFU (SPEC §17).
    pub lab_mfu: f64,
    /// The lab's peak memory per card, GiB.
    pub lab_memory_gib: f64,
    /// The lab's full report for the plan.
    pub report: Report,
    /// What was approximated and what is left out, in the chosen language.
    pub notes: &'static str,
}

impl Plan {
    /// FLOPs of one step counted as `counting` does (see [`Counting`]).
    pub fn flops_counted(&self, counting: Counting) -> f64 {
        let m = self.model();
        let tokens = self.tokens_per_step();
        let (l, h, s) = (
            f64::from(m.layers),
            f64::from(m.hidden),
            f64::from(self.seq_len()),
        );
        match counting {
            Counting::Palm => {
                let attention =
                    12.0 * f64::from(m.layers) * f64::from(m.heads) * f64::from(m.head_dim) * s;
                (6.0 * m.active_params() + attention) * tokens
            }
            Counting::MegatronWithRecompute => {
                let v = f64::from(m.vocab);
                // Per sequence: 96·s·l·h²·(1 + s/(6h) + V/(16lh)); T/s sequences.
                96.0 * s * l * h * h * (1.0 + s / (6.0 * h) + v / (16.0 * l * h)) * (tokens / s)
            }
        }
    }
}

impl Run {
    /// The run with the lab's figures, labels and notes in `lang`.
    pub fn evaluate(&self, lang: Lang) -> Result<RunRow, PlanError> {
        let plan = Plan::new(&self.config)?;
        let report = plan.report();
        let e = report.estimate;
        let step = e.step_s.get();
        let lab = match self.published.figure {
            Figure::Utilisation(counting) => {
                plan.flops_counted(counting)
                    / (f64::from(plan.gpus()) * self.config.peak_tflops * 1e12 * step)
            }
            Figure::TokensPerSecond => e.tokens_per_s_per_gpu,
        };
        let pick = |(zh, en): (&'static str, &'static str)| match lang {
            Lang::Zh => zh,
            Lang::En => en,
        };
        Ok(RunRow {
            id: self.id,
            source: self.source,
            label: pick(self.label),
            config: self.config.clone(),
            published: self.published,
            lab,
            ratio: lab / self.published.value,
            lab_mfu: e.mfu,
            lab_memory_gib: report.memory.total.get() / crate::units::GIB,
            report,
            notes: pick(self.notes),
        })
    }
}

/// Every published run with the lab's figures, in the table's order.
pub fn run_rows(lang: Lang) -> Result<Vec<RunRow>, PlanError> {
    runs().iter().map(|run| run.evaluate(lang)).collect()
}
