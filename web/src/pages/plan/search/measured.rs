//! Measured on a real card (issue 35, SPEC §18): the H200's single-card figures beside the
//! lab's for the same shapes (layer times, whole steps, activation bytes), each with lab ÷
//! measured, the measured floor of a layer (its GEMMs and attention timed alone) and what
//! explains the rest. Every number is `parallel_core::measured`'s: the page, the second table of
//! `parallel-lab table --table runs` and the tests read the same rows.

use leptos::prelude::*;
use parallel_core::explain::Unit;
use parallel_core::formula::Show;
use parallel_core::measured::{measured_rows, MeasuredRow, SOURCE};

use crate::kit::i18n::{use_lang, T};
use crate::kit::table_scroll::{head_cells, TableScroll};

/// The table's column heads: (中文, English, numeric). The source is the same for every row;
/// the introduction names it once.
const HEADS: &[(&str, &str, bool)] = &[
    ("项目", "Figure", false),
    ("实测", "Measured", true),
    ("实验室", "Lab", true),
    ("实验室 ÷ 实测", "Lab ÷ measured", true),
    (
        "下限（GEMM + 注意力单测）",
        "Floor (GEMMs + attention alone)",
        true,
    ),
];

/// A measured or lab figure as the table writes it (as the CLI's table does): seconds or bytes.
pub fn figure_text(value: f64, unit: Unit) -> String {
    let show = match unit {
        Unit::Bytes => Show::Bytes,
        Unit::Seconds => Show::Seconds,
        Unit::Ratio => Show::Percent,
        Unit::Count | Unit::TokensPerSecond => Show::Count,
    };
    show.write(value)
}

/// The notes under the table: one per distinct note, named by the first row it explains (as
/// the CLI's table writes them).
pub fn notes(rows: &[MeasuredRow]) -> Vec<String> {
    let mut notes: Vec<(&str, String)> = Vec::new();
    for row in rows {
        if !notes.iter().any(|(n, _)| *n == row.note) {
            notes.push((row.note, format!("{}: {}", row.label, row.note)));
        }
    }
    notes.into_iter().map(|(_, text)| text).collect()
}

fn row_view(row: MeasuredRow) -> impl IntoView {
    let floor = row
        .floor
        .map_or_else(|| "—".to_string(), |f| figure_text(f, row.unit));
    view! {
        <tr data-testid=format!("measured-{}", row.id) data-measured=row.measured.to_string()
            data-lab=row.lab.to_string() data-ratio=row.ratio.to_string()
            data-floor=row.floor.map(|f| f.to_string())>
            <th scope="row">{row.label}</th>
            <td class="num">{figure_text(row.measured, row.unit)}</td>
            <td class="num">{figure_text(row.lab, row.unit)}</td>
            <td class="num">{format!("{:.2}", row.ratio)}</td>
            <td class="num">{floor}</td>
        </tr>
    }
}

/// The measured table with its notes, in the page's language.
#[component]
pub fn MeasuredTable() -> impl IntoView {
    let lang = use_lang();
    let body = move || {
        let lang = lang.get();
        match measured_rows(lang) {
            Ok(rows) => {
                let notes = notes(&rows)
                    .into_iter()
                    .map(|note| view! { <li>{note}</li> })
                    .collect_view();
                let rows = rows.into_iter().map(row_view).collect_view();
                view! {
                    <TableScroll zh="一张 H200 上的实测与实验室的数字" en="Measured on one H200 and the lab's figures">
                        <table class="lesson-table runs-table" data-testid="measured-table">
                            <thead><tr>{head_cells(HEADS)}</tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </TableScroll>
                    <ul class="table-notes" data-testid="measured-notes">{notes}</ul>
                }
                .into_any()
            }
            Err(error) => view! {
                <p class="figure-error" role="alert">{crate::kit::error_text::explain(lang, &error)}</p>
            }
            .into_any(),
        }
    };
    view! {
        <div class="measured" data-testid="measured">
            <h4><T zh="在一张真卡上实测" en="Measured on a real card" /></h4>
            <p>
                <T zh="真实卡上的估算按内核逐个计时，速率来自在一张 H200 上的实测。下表把这张卡上实测的单卡数字与实验室对同一形状算出的数字并排：单层的前向 + 反向、整步、每层激活的字节。实验室的数字来自与其它方案相同的代码（一张卡）；下限是把这一层的 GEMM 和注意力各自单独计时再相加。比值小于 1 表示实验室算出的时间或字节比实测少。"
                   en="On a real card the estimate times each kernel at rates measured on one H200. The table sets the single-card figures measured on that card beside the lab's for the same shapes: a layer's forward + backward, whole steps, and a layer's activation bytes. The lab's figures come from the same code as every other plan (on one card); the floor is the layer's GEMMs and attention, each timed alone, added up. A ratio below 1 means the lab counts less time or fewer bytes than measured." />
                " "
                <span class="caption" lang="en">{SOURCE}</span>
            </p>
            {body}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parallel_core::Lang;

    #[test]
    fn every_row_is_written_as_the_cli_writes_it() {
        let rows = measured_rows(Lang::En).unwrap();
        assert!(rows.len() >= 21, "{}", rows.len());
        let layer = rows.iter().find(|r| r.floor.is_some()).unwrap();
        assert!(figure_text(layer.measured, layer.unit).ends_with(" ms"));
        let bytes = rows.iter().find(|r| r.unit == Unit::Bytes).unwrap();
        assert!(figure_text(bytes.measured, bytes.unit).ends_with("B"));
        // One note per distinct note, each named by the first row it explains.
        let notes = notes(&rows);
        let mut distinct: Vec<&str> = rows.iter().map(|r| r.note).collect();
        distinct.dedup();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(notes.len(), distinct.len());
        assert!(notes[0].starts_with(&format!("{}: ", rows[0].label)));
    }
}
