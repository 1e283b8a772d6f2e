//! `parallel-lab table`: the lesson's tables, or a plan table of the user's own configs,
//! as Markdown, CSV or JSON.
//!
//! A [`Table`] holds columns, rows of formatted cells and, per row, the raw figures (`data`)
//! the JSON output carries for whoever generates course material from it.

mod lesson;
mod measured;
mod plans;
mod render;
mod runs;

pub use render::write;

use std::io::{Read, Write};

use parallel_core::{Dim, PlanConfig, Report};
use serde::{Deserialize, Serialize};

use crate::args::{LessonTable, Source, TableArgs};
use crate::error::CliError;
use crate::input::{self, Object};

/// A column: a stable key (for JSON and templates) and a header in the chosen language.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// snake_case key, e.g. `"model_states"`.
    pub key: &'static str,
    /// Header text.
    pub header: String,
}

/// One row: a cell per column and the raw figures behind them.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Formatted cells, one per column, in column order.
    pub cells: Vec<String>,
    /// Raw figures, for the JSON output.
    pub data: RowData,
}

/// The raw figures behind a row (JSON output only): configs as given, reports as
/// `parallel-lab eval` prints them, bytes as plain numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum RowData {
    /// A plan row: its id (lesson rows), label, config and report.
    Plan {
        /// Stable id of a lesson row.
        id: Option<&'static str>,
        /// The label of the first column.
        label: String,
        /// The plan.
        config: PlanConfig,
        /// Its evaluation.
        report: Report,
    },
    /// A published Llama 3 run.
    Llama3 {
        /// The run as a plan.
        config: PlanConfig,
        /// Derived data-parallel degree.
        dp: u32,
        /// DP × batch per DP × sequence length.
        tokens_per_step: f64,
        /// As published.
        tflops_per_gpu: u32,
        /// As published.
        mfu_percent: u32,
        /// Its evaluation (memory, traffic, bubble).
        report: Report,
    },
    /// DeepSeek-V3's plan.
    DeepseekV3 {
        /// The plan.
        config: PlanConfig,
        /// Derived DP of the dense weights.
        dp: u32,
        /// Cards holding the same experts, N/(EP·PP).
        expert_dp: Option<u32>,
        /// Its evaluation.
        report: Report,
    },
    /// A starting recipe.
    Recipe {
        /// Model name.
        model: &'static str,
        /// Training GPUs.
        gpus: u32,
        /// TP degree.
        tp: u32,
        /// PP degree.
        pp: u32,
        /// CP degree.
        cp: u32,
        /// EP degree.
        ep: u32,
        /// N/(TP·PP·CP), null when it does not divide.
        dp: Option<u32>,
        /// N/(EP·PP), null when it does not divide or the model is dense.
        expert_dp: Option<u32>,
        /// Cards of one inference engine.
        gpus_per_engine: u32,
        /// The response cap in tokens.
        response_len: u32,
        /// The evaluation, for models the lab knows.
        report: Option<Report>,
    },
    /// A published run beside the lab's figures for it.
    Run(Box<parallel_core::runs::RunRow>),
    /// A figure measured on a real card beside the lab's.
    Measured(Box<parallel_core::measured::MeasuredRow>),
    /// Nothing (the bench's own results).
    None,
}

/// A rendered table, before it is written in a format.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The `--table` id, or `"stdin"`.
    pub id: &'static str,
    /// A title in the chosen language.
    pub title: String,
    /// Columns.
    pub columns: Vec<Column>,
    /// Rows.
    pub rows: Vec<Row>,
    /// Legend and warnings, printed under the table.
    pub notes: Vec<String>,
}

impl Table {
    /// An empty table.
    pub fn new(id: &'static str, title: impl Into<String>, columns: Vec<Column>) -> Table {
        Table {
            id,
            title: title.into(),
            columns,
            rows: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Adds the note "`whose`: `note`" under the table, unless a note already ends with `note`
    /// (several rows from one source share its note).
    fn note_once(&mut self, whose: &str, note: &str) {
        if !self.notes.iter().any(|n| n.ends_with(note)) {
            self.notes.push(format!("{whose}: {note}"));
        }
    }
}

/// A column from its key and its header in the chosen language.
fn column(key: &'static str, header: &str) -> Column {
    Column {
        key,
        header: header.to_string(),
    }
}

/// The columns of parallel degrees, keyed and headed by the grid's own names (`tp`, "TP").
fn dim_columns(dims: &[Dim]) -> impl Iterator<Item = Column> + '_ {
    dims.iter().map(|dim| column(dim.as_str(), dim.label()))
}

/// One entry of `table --stdin`: `{"label": "...", "config": {PlanConfig}}`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StdinPlan {
    label: String,
    #[serde(default)]
    config: Object<PlanConfig>,
}

/// Runs `table`: builds the selected tables and writes them in the chosen format.
pub fn run(args: &TableArgs, stdin: &mut dyn Read, out: &mut dyn Write) -> Result<(), CliError> {
    let tables = match &args.source {
        Source::Lesson(ids) => {
            let mut tables = Vec::new();
            for &id in ids {
                tables.push(lesson::table(id, args.lang)?);
                // The published runs come with the figures measured on a real card.
                if id == LessonTable::Runs {
                    tables.push(measured::table(args.lang).map_err(|e| {
                        CliError::invalid(&format!("measured.{}", e.field()), e.reason())
                    })?);
                }
            }
            tables
        }
        Source::Stdin => {
            let entries: Vec<Object<StdinPlan>> = input::parse(&input::read_all(stdin)?)?;
            let plans = entries
                .into_iter()
                .map(|Object(e)| plans::PlanRow {
                    id: None,
                    label: e.label,
                    config: e.config.0,
                })
                .collect::<Vec<_>>();
            vec![plans::plan_table("stdin", None, &plans, args.lang)?]
        }
    };
    // Every format writes its cells from these figures: none may be NaN or infinite.
    let figures: Vec<&RowData> = tables
        .iter()
        .flat_map(|t| &t.rows)
        .map(|r| &r.data)
        .collect();
    crate::error::finite(&figures)?;
    render::write(&tables, args.format, out)
}
