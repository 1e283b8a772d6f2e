//! `parallel-lab table --table runs`: published training runs beside the lab's figures for
//! the same plan and card (`parallel_core::runs`).

use parallel_core::runs::{run_rows, Counting, Figure};
use parallel_core::{Lang, PlanError};

use super::{column, Row, RowData, Table};
use crate::cells::{percent, thousands, NOT_APPLICABLE};

/// A published figure or the lab's value of it, as the table writes it.
fn figure(value: f64, figure: Figure) -> String {
    match figure {
        Figure::Utilisation(_) => percent(value),
        Figure::TokensPerSecond => format!("{} tok/s", thousands(value.round())),
    }
}

/// The runs table.
pub fn table(lang: Lang) -> Result<Table, PlanError> {
    let mut table = Table::new(
        "runs",
        lang.pick(
            "公开的训练实测与实验室对同一方案、同一卡型的估算",
            "Published training runs beside the lab's estimate for the same plan and card",
        ),
        vec![
            column("run", lang.pick("实测", "Run")),
            column("source", lang.pick("出处", "Source")),
            column("metric", lang.pick("指标", "Figure")),
            column("published", lang.pick("公开值", "Published")),
            column("lab", lang.pick("实验室", "Lab")),
            column("ratio", lang.pick("实验室 ÷ 公开", "Lab ÷ published")),
            column("lab_mfu", lang.pick("实验室 MFU", "Lab MFU")),
            column(
                "memory_gib",
                lang.pick("显存 GiB（公开 / 实验室）", "Memory GiB (published / lab)"),
            ),
        ],
    );
    let rows = run_rows(lang)?;
    for row in rows {
        let metric = match row.published.figure {
            Figure::Utilisation(Counting::Palm) => {
                lang.pick("MFU（PaLM 口径）", "MFU (PaLM's count)")
            }
            Figure::Utilisation(Counting::MegatronWithRecompute) => {
                lang.pick("占峰值（含重计算）", "Share of peak (recompute counted)")
            }
            Figure::TokensPerSecond => lang.pick("每卡 token/s", "Tokens/s per card"),
        };
        let memory = match row.published.memory_gib {
            Some(gib) => format!("{gib:.1} / {:.1}", row.lab_memory_gib),
            None => format!("{NOT_APPLICABLE} / {:.1}", row.lab_memory_gib),
        };
        table.note_once(row.source, row.notes);
        table.rows.push(Row {
            cells: vec![
                row.label.to_string(),
                row.source.to_string(),
                metric.to_string(),
                figure(row.published.value, row.published.figure),
                figure(row.lab, row.published.figure),
                format!("{:.2}", row.ratio),
                percent(row.lab_mfu),
                memory,
            ],
            data: RowData::Run(Box::new(row)),
        });
    }
    Ok(table)
}
