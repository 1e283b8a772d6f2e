//! Browser tests of "check on a GPU" (wasm-bindgen-test in headless Chromium): the panel under
//! a planner grid builds its contents when first opened; a pasted measured file gives one row
//! per figure with the core's cells; a second file rewrites the same rows in place (the same
//! `<tr>` elements, keyed by figure); a foreign file replaces the table by an alert naming the
//! field; a card clicked on the grid is the card the command names.
//!
//! Run with `cargo test --target wasm32-unknown-unknown -p parallel-web` (scripts/test.sh).

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::*;
use parallel_core::check::{show, show_ratio, Measured, Workload, MEASURED_FORMAT};
use parallel_core::{Lang, Plan, PlanConfig};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlDetailsElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A measured file for `w` whose every figure is the lab's times `scale`, on a card whose
/// memory holds them (the whole stage is built, more than one H200 holds).
fn measured_file(w: &Workload, scale: f64) -> String {
    let p = w.predicted;
    let figures = serde_json::json!({
        "layer_fwd_bwd_s": p.layer_fwd_bwd_s.map(|s| s * scale),
        "activation_per_layer_bytes": p.activation_per_layer_bytes * scale,
        "activation_in_flight_bytes": p.activation_in_flight_bytes * scale,
        "states_bytes": p.states_bytes * scale,
        "peak_bytes": p.peak_bytes * scale,
        "reserved_bytes": p.peak_bytes * scale * 1.2,
    });
    serde_json::json!({
        "format": MEASURED_FORMAT, "version": 1, "workload": w,
        "card": {"name": "NVIDIA H200", "memory_bytes": (p.peak_bytes * scale * 1.2).max(150e9)},
        "software": {"torch": "2.11.0", "cuda": "13.0"},
        "date": "2026-12-04", "method": "browser test",
        "built": {"layers": w.layers.total, "moe": w.layers.moe,
                  "full_attention": w.layers.full_attention, "held": w.held()},
        "eager": figures, "compiled": figures,
    })
    .to_string()
}

/// The panel's waits: at most 300 tasks ten milliseconds apart ([`wait_for`]).
const PANEL_TASKS: u32 = 300;

/// Pastes `text` into the panel's box and presses "compare".
fn paste_and_compare(panel: &Element, text: &str) {
    let area: HtmlTextAreaElement = by_test_id(panel, "gpu-check-paste").unchecked_into();
    area.set_value(text);
    area.dispatch_event(&bubbling("input")).unwrap();
    click(&by_test_id(panel, "gpu-check-compare"));
}

#[wasm_bindgen_test]
async fn a_pasted_file_fills_the_rows_in_place_and_a_foreign_one_is_named() {
    let host = mount_planner();
    settled(&host).await;
    let grid = section(&host, "8");
    let panel = by_test_id(&grid, "gpu-check");
    assert!(
        panel
            .query_selector("[data-testid='gpu-check-paste']")
            .unwrap()
            .is_none(),
        "nothing built while closed"
    );
    panel.unchecked_ref::<HtmlDetailsElement>().set_open(true);
    wait_for(&panel, "[data-testid='gpu-check-paste']", PANEL_TASKS).await;

    // A card clicked on the grid is the one the command names.
    click(&card(&grid, 3));
    let command = wait_for(&panel, "[data-testid='gpu-check-command']", PANEL_TASKS).await;
    for _ in 0..100 {
        if command
            .text_content()
            .unwrap()
            .contains("workload-card-3.json")
        {
            break;
        }
        sleep(10).await;
    }
    assert_eq!(
        command.text_content().unwrap(),
        "python3 check.py workload-card-3.json"
    );

    let plan = Plan::new(&PlanConfig {
        gpus: 8,
        tp: 2,
        pp: 2,
        ..PlanConfig::on(parallel_core::hardware::Hardware::H200)
    })
    .unwrap();
    let w = plan.workload(5).unwrap();
    let mut rows_seen = Vec::new();
    for scale in [1.0, 2.0] {
        let text = measured_file(&w, scale);
        let want = Measured::read(&text).unwrap().compare(Lang::Zh).unwrap();
        paste_and_compare(&panel, &text);
        let table = wait_for(&panel, "[data-testid='gpu-check-table']", PANEL_TASKS).await;
        // Wait for this file's ratios (the second file halves them).
        let first = format!("[data-testid='gpu-check-row-{}']", want.rows[0].figure.id());
        for _ in 0..100 {
            let row = table.query_selector(&first).unwrap();
            if row.is_some_and(|r| {
                r.text_content()
                    .unwrap()
                    .contains(&show_ratio(want.rows[0].ratio_eager))
            }) {
                break;
            }
            sleep(10).await;
        }
        let mut trs = Vec::new();
        for row in &want.rows {
            let tr = by_test_id(&table, &format!("gpu-check-row-{}", row.figure.id()));
            let cells = tr.query_selector_all("th, td").unwrap();
            let text: Vec<String> = (0..cells.length())
                .map(|i| cells.item(i).unwrap().text_content().unwrap())
                .collect();
            assert_eq!(
                text,
                [
                    row.label.to_owned(),
                    show(row.unit, row.predicted),
                    show(row.unit, row.eager),
                    show(row.unit, row.compiled),
                    show_ratio(row.ratio_eager),
                    show_ratio(row.ratio_compiled),
                ]
            );
            trs.push(tr);
        }
        rows_seen.push(trs);
    }
    // The second file wrote into the first file's rows: the same elements.
    for (a, b) in rows_seen[0].iter().zip(&rows_seen[1]) {
        assert!(a.is_same_node(Some(b)), "a row kept its element");
    }

    // A workload loaded by mistake: an alert naming `format`, and no table.
    paste_and_compare(&panel, &serde_json::to_string(&w).unwrap());
    let alert = wait_for(&panel, "[role='alert']", PANEL_TASKS).await;
    assert_eq!(
        attr(&alert, "data-testid").as_deref(),
        Some("gpu-check-error")
    );
    assert_eq!(attr(&alert, "data-field").as_deref(), Some("format"));
    assert!(!has(&panel, "[data-testid='gpu-check-table']"));
    host.remove();
}
