//! A measured file beside the lab (the core's `Comparison`): where and how it was measured,
//! one row per figure (the lab's, eager and compiled PyTorch's, lab ÷ each), what explains
//! each difference, what one GPU does not build, and the plot of the lab's figures against
//! the measured ones. Cells are written by the core's `show` and `show_ratio`, as
//! `parallel-lab check --measured` writes them.

use leptos::prelude::*;
use parallel_core::check::{show, show_ratio, CheckRow, Comparison, Figure};

use super::text;
use crate::kit::charts::CheckPlot;
use crate::kit::i18n::{use_lang, Lang};
use crate::kit::table_scroll::{head_cells, TableScroll};

/// The table's column heads: (中文, English, numeric), the CLI's.
const HEADS: &[(&str, &str, bool)] = &[
    ("指标", "figure", false),
    ("实验室", "lab", true),
    ("eager", "eager", true),
    ("compiled", "compiled", true),
    ("实验室 ÷ eager", "lab ÷ eager", true),
    ("实验室 ÷ compiled", "lab ÷ compiled", true),
];

/// One figure's cells: its label, the lab's, eager's and compiled's figures and lab ÷ each,
/// each number also in `data-value` as it is.
fn cells(row: &CheckRow) -> impl IntoView {
    let unit = row.unit;
    let cell = |value: Option<f64>, text: String| {
        view! { <td class="num" data-value=value.map(|v| v.to_string())>{text}</td> }
    };
    view! {
        <th scope="row">{row.label}</th>
        {cell(row.predicted, show(unit, row.predicted))}
        {cell(row.eager, show(unit, row.eager))}
        {cell(row.compiled, show(unit, row.compiled))}
        {cell(row.ratio_eager, show_ratio(row.ratio_eager))}
        {cell(row.ratio_compiled, show_ratio(row.ratio_compiled))}
    }
}

/// One figure's row, kept while the figure has one; a new file or language rewrites its
/// cells from its own memo.
fn row_view(row: Memo<Option<CheckRow>>, figure: Figure) -> AnyView {
    view! {
        <tr data-testid=format!("gpu-check-row-{}", figure.id())>
            {move || row.with(|r| r.as_ref().map(cells))}
        </tr>
    }
    .into_any()
}

/// A slot per figure of [`Figure::ALL`], shown while the comparison has that figure's row.
fn rows(
    comparison: Memo<Option<Comparison>>,
    item: fn(Memo<Option<CheckRow>>, Figure) -> AnyView,
) -> impl IntoView {
    Figure::ALL
        .into_iter()
        .map(|figure| {
            let row = Memo::new(move |_| {
                comparison.with(|c| {
                    c.as_ref()
                        .and_then(|c| c.rows.iter().find(|r| r.figure == figure).cloned())
                })
            });
            view! { <Show when=move || row.with(Option::is_some)>{item(row, figure)}</Show> }
        })
        .collect_view()
}

/// One figure's note, under the table.
fn note_view(row: Memo<Option<CheckRow>>, figure: Figure) -> AnyView {
    view! {
        <li data-testid=format!("gpu-check-note-{}", figure.id())>
            {move || row.with(|r| r.as_ref().map(|r| view! { <strong>{r.label}</strong>": "{r.note.clone()} }))}
        </li>
    }
    .into_any()
}

/// The comparison of a measured file: header, table, notes, what was not built, the plot.
/// Drawn while `comparison` holds one.
#[component]
pub fn ComparisonView(comparison: Memo<Option<Comparison>>) -> impl IntoView {
    let lang = use_lang();
    let line = move |write: fn(&Comparison, Lang) -> String| {
        move || comparison.with(|c| c.as_ref().map(|c| write(c, lang.get())))
    };
    let compiled_error = move || {
        comparison.with(|c| {
            c.as_ref()?.compiled_error.as_ref().map(|why| {
                let line = text::COMPILED_ERROR.fill(lang.get(), &[("why", why)]);
                view! { <p class="note" data-testid="gpu-check-compiled-error">{line}</p> }
            })
        })
    };
    let not_built = move || {
        comparison.with(|c| {
            c.as_ref().map(|c| {
                c.not_built
                    .iter()
                    .map(|part| view! { <li>{*part}</li> })
                    .collect_view()
            })
        })
    };
    view! {
        <div class="gpu-check-comparison" data-testid="gpu-check-comparison">
            <p data-testid="gpu-check-header">
                <span data-testid="gpu-check-measured-on">{line(measured_on)}</span>
                <br />
                <span data-testid="gpu-check-built">{line(built)}</span>
            </p>
            <TableScroll zh=text::TABLE.zh en=text::TABLE.en>
                <table class="lesson-table" data-testid="gpu-check-table">
                    <thead><tr>{head_cells(HEADS)}</tr></thead>
                    <tbody>{rows(comparison, row_view)}</tbody>
                </table>
            </TableScroll>
            {compiled_error}
            <h4>{move || text::NOTES.get(lang.get())}</h4>
            <ul class="notes" data-testid="gpu-check-notes">{rows(comparison, note_view)}</ul>
            <h4>{move || text::NOT_BUILT.get(lang.get())}</h4>
            <ul class="notes" data-testid="gpu-check-not-built">{not_built}</ul>
            <p class="note" data-testid="gpu-check-method">{line(method)}</p>
            <CheckPlot comparison=comparison />
        </div>
    }
}

/// Where and with what the file was measured.
pub fn measured_on(c: &Comparison, lang: Lang) -> String {
    text::MEASURED_ON.fill(
        lang,
        &[
            ("card", &c.card),
            ("software", &c.software),
            ("date", &c.date),
        ],
    )
}

/// Which card and stage, the layers built and the micro-batches held.
pub fn built(c: &Comparison, lang: Lang) -> String {
    text::BUILT.fill(
        lang,
        &[
            ("rank", &c.rank),
            ("stage", &c.stage),
            ("built", &c.built.total),
            ("stage_layers", &c.stage_layers),
            ("held", &c.held),
        ],
    )
}

/// How it was measured.
pub fn method(c: &Comparison, lang: Lang) -> String {
    text::METHOD.fill(lang, &[("method", &c.method)])
}
