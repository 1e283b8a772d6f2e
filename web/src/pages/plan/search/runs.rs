//! Published runs beside the lab (issue 25): each measured run with its named plan, its
//! source, the published figure, the lab's figure for the same plan and card, their ratio, the
//! lab's own MFU and memory, and what the lab approximates or leaves out. Every number is
//! `parallel_core::runs`'s: the page, `parallel-lab table --table runs` and the tests read the
//! same rows. After it, the figures measured on one H200 ([`MeasuredTable`], issue 35) and one
//! chart of both tables' ratios ([`RatioChart`]).

use leptos::prelude::*;
use parallel_core::numbers::{percent, thousands};
use parallel_core::runs::{run_rows, Counting, Figure, RunRow};

use super::measured::MeasuredTable;
use crate::kit::charts::RatioChart;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::table_scroll::{head_cells, TableScroll};

/// The table's column heads: (中文, English, numeric).
const HEADS: &[(&str, &str, bool)] = &[
    ("实测", "Run", false),
    ("出处", "Source", false),
    ("指标", "Figure", false),
    ("公开值", "Published", true),
    ("实验室", "Lab", true),
    ("实验室 ÷ 公开", "Lab ÷ published", true),
    ("实验室 MFU", "Lab MFU", true),
    (
        "显存 GiB（公开 / 实验室）",
        "Memory GiB (published / lab)",
        true,
    ),
];

/// A figure as the table writes it: a percentage or tokens per second.
fn figure_text(value: f64, figure: Figure) -> String {
    match figure {
        Figure::Utilisation(_) => percent(value),
        Figure::TokensPerSecond => format!("{} tok/s", thousands(value.round())),
    }
}

fn metric(lang: Lang, figure: Figure) -> &'static str {
    match figure {
        Figure::Utilisation(Counting::Palm) => lang.pick("MFU（PaLM 口径）", "MFU (PaLM's count)"),
        Figure::Utilisation(Counting::MegatronWithRecompute) => {
            lang.pick("占峰值（含重计算）", "Share of peak (recompute counted)")
        }
        Figure::TokensPerSecond => lang.pick("每卡 token/s", "Tokens/s per card"),
    }
}

fn row_view(lang: Lang, row: RunRow) -> impl IntoView {
    let figure = row.published.figure;
    let memory = format!(
        "{} / {:.1}",
        row.published
            .memory_gib
            .map_or("—".to_string(), |g| format!("{g:.1}")),
        row.lab_memory_gib
    );
    view! {
        <tr data-testid=format!("run-{}", row.id) data-published=row.published.value.to_string()
            data-lab=row.lab.to_string() data-ratio=row.ratio.to_string()
            data-mfu=row.lab_mfu.to_string() data-memory-gib=row.lab_memory_gib.to_string()>
            <th scope="row">{row.label}</th>
            <td lang="en">{row.source}</td>
            <td>{metric(lang, figure)}</td>
            <td class="num">{figure_text(row.published.value, figure)}</td>
            <td class="num">{figure_text(row.lab, figure)}</td>
            <td class="num">{format!("{:.2}", row.ratio)}</td>
            <td class="num">{percent(row.lab_mfu)}</td>
            <td class="num">{memory}</td>
        </tr>
    }
}

/// The runs table with its notes, one per source.
#[component]
pub fn RunsTable() -> impl IntoView {
    let lang = use_lang();
    let body = move || {
        let lang = lang.get();
        match run_rows(lang) {
            Ok(rows) => {
                let mut notes: Vec<(&'static str, &'static str)> = Vec::new();
                for row in &rows {
                    if !notes.iter().any(|(_, n)| *n == row.notes) {
                        notes.push((row.source, row.notes));
                    }
                }
                let rows = rows
                    .into_iter()
                    .map(|row| row_view(lang, row))
                    .collect_view();
                let notes = notes
                    .into_iter()
                    .map(|(source, note)| view! { <li><span lang="en">{source}</span>": "{note}</li> })
                    .collect_view();
                view! {
                    <TableScroll zh="公开实测与实验室的估算" en="Published runs and the lab's estimate">
                        <table class="lesson-table runs-table" data-testid="runs-table">
                            <thead><tr>{head_cells(HEADS)}</tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </TableScroll>
                    <ul class="table-notes" data-testid="runs-notes">{notes}</ul>
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
        <div class="runs" data-testid="runs">
            <h3><T zh="估算对得上实测吗？公开的训练记录" en="Does the estimate match real runs? Published training records" /></h3>
            <p>
                <T zh="同一个估算放在论文与开源仓库公布的实测旁边：真实卡上的计算来自在一张 H200 上实测的内核速率（每个 GEMM 按它的形状，注意力按块长，访存型内核按拷贝带宽），没有自己实测表的卡按同一条规则借用 H200 的表；不按任何一行调。比值大于 1 表示实验室估得比实测快；每个出处下面写明实验室近似了什么、漏了什么。"
                   en="The same estimate beside the measurements published in papers and open repositories: on a real card the compute comes from kernel rates measured on one H200 (each GEMM at its shape, attention by chunk length, memory-bound kernels at the copy bandwidth), borrowed by one rule for the cards without tables of their own, and tuned to no row. A ratio above 1 means the lab estimates faster than the run; under each source, what the lab approximates and what it leaves out." />
            </p>
            {body}
            <MeasuredTable />
            <RatioChart />
        </div>
    }
}
