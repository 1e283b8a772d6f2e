//! Plan tables: one row per plan with its memory, traffic and bubble, like the lesson's
//! 8-GPU and 64-GPU tables. Also used for `table --stdin` and for DeepSeek-V3's row.

use parallel_core::{Plan, PlanConfig, PlanError, Report};

use super::{column, Column, Row, RowData, Table};
use crate::args::Lang;
use crate::cells::{bubble_cells, comm_summary, total_with_fit};
use crate::error::CliError;

/// A plan to put in a table.
#[derive(Clone, Debug)]
pub struct PlanRow {
    /// A stable id (lesson rows), for the JSON output.
    pub id: Option<&'static str>,
    /// The label shown in the first column.
    pub label: String,
    /// The plan.
    pub config: PlanConfig,
}

/// The columns of a plan's figures: model states, activations, total, comm and bubble.
pub fn figure_columns(lang: Lang) -> Vec<Column> {
    vec![
        column("model_states", lang.pick("每卡模型状态", "Model states")),
        column("activations", lang.pick("激活", "Activations")),
        column("total", lang.pick("合计", "Total")),
        column("comm", lang.pick("每步每卡通信", "Comm per card per step")),
        column("bubble", lang.pick("气泡 (p−1)/m", "Bubble (p−1)/m")),
        column(
            "bubble_share",
            lang.pick("气泡占整步", "Bubble share of step"),
        ),
    ]
}

/// The cells of [`figure_columns`] for one evaluated plan.
pub fn figure_cells(plan: &Plan, report: &Report) -> Vec<String> {
    let m = &report.memory;
    let [bubble, share] = bubble_cells(plan.degrees().pp, &report.bubble);
    vec![
        m.model_states.to_string(),
        m.activations.to_string(),
        total_with_fit(m),
        comm_summary(&report.comm),
        bubble,
        share,
    ]
}

/// What the figure columns mean, for the notes under a table.
pub fn legend(lang: Lang) -> String {
    lang.pick(
        "显存按最忙的卡(第一段流水线)计;✓ 放得下,✗ 放不下。通信:每张卡每步在每一维发出的字节,及其走的链路。\
         未计入:embedding 与 logits 的激活、临时缓冲、显存碎片、延迟与重叠。",
        "Memory of the busiest card (the first pipeline stage); ✓ fits the card, ✗ does not. \
         Comm: bytes one card sends per step in each dimension, and the link it crosses. \
         Not counted: embedding and logits activations, buffers, fragmentation, latency, overlap.",
    )
    .to_string()
}

/// A plan table. Rows whose config is invalid fail the whole table with the row's position
/// in the error (`[2].config.tp: ...` for stdin rows).
pub fn plan_table(
    id: &'static str,
    title: Option<String>,
    plans: &[PlanRow],
    lang: Lang,
) -> Result<Table, CliError> {
    let title = title.unwrap_or_else(|| lang.pick("方案", "Plans").to_string());
    let mut columns = vec![column("plan", lang.pick("方案", "Plan"))];
    columns.extend(figure_columns(lang));
    let mut table = Table::new(id, title, columns);
    table.notes.push(legend(lang));
    for (i, row) in plans.iter().enumerate() {
        let located = |e: PlanError| match row.id {
            Some(row_id) => CliError::invalid(&format!("{id}/{row_id}.{}", e.field()), e.reason()),
            None => CliError::invalid(&format!("[{i}].config.{}", e.field()), e.reason()),
        };
        let plan = Plan::new(&row.config).map_err(located)?;
        let report = plan.report();
        for warning in &report.warnings {
            table.notes.push(format!("{}: {warning}", row.label));
        }
        let mut cells = vec![row.label.clone()];
        cells.extend(figure_cells(&plan, &report));
        table.rows.push(Row {
            cells,
            data: RowData::Plan {
                id: row.id,
                label: row.label.clone(),
                config: row.config.clone(),
                report,
            },
        });
    }
    Ok(table)
}
