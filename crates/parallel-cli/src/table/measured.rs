//! The second table of `parallel-lab table --table runs`: figures measured on one H200 beside
//! the lab's for the same single-card shapes (`parallel_core::measured`).

use parallel_core::explain::Unit;
use parallel_core::formula::Show;
use parallel_core::measured::{measured_rows, SOURCE};
use parallel_core::{Lang, PlanError};

use super::{column, Row, RowData, Table};
use crate::cells::NOT_APPLICABLE;

/// A measured or lab figure as the table writes it: seconds or GB.
fn figure(value: f64, unit: Unit) -> String {
    match unit {
        Unit::Bytes => Show::Bytes.write(value),
        _ => Show::Seconds.write(value),
    }
}

/// The measured-on-a-card table.
pub fn table(lang: Lang) -> Result<Table, PlanError> {
    let mut table = Table::new(
        "measured",
        lang.pick(
            "在一张真卡上实测（H200）与实验室对同一形状的数字",
            "Measured on a real card (H200) beside the lab's figures for the same shapes",
        ),
        vec![
            column("figure", lang.pick("项目", "Figure")),
            column("source", lang.pick("出处", "Source")),
            column("measured", lang.pick("实测", "Measured")),
            column("lab", lang.pick("实验室", "Lab")),
            column("ratio", lang.pick("实验室 ÷ 实测", "Lab ÷ measured")),
            column(
                "floor",
                lang.pick(
                    "下限（GEMM + 注意力单测）",
                    "Floor (GEMMs + attention alone)",
                ),
            ),
        ],
    );
    for row in measured_rows(lang)? {
        table.note_once(&row.label, row.note);
        table.rows.push(Row {
            cells: vec![
                row.label.clone(),
                SOURCE.to_string(),
                figure(row.measured, row.unit),
                figure(row.lab, row.unit),
                format!("{:.2}", row.ratio),
                row.floor
                    .map_or_else(|| NOT_APPLICABLE.to_string(), |f| figure(f, row.unit)),
            ],
            data: RowData::Measured(Box::new(row)),
        });
    }
    Ok(table)
}
