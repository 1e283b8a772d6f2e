//! Browser tests of the figures beside a grid and of the published tables (wasm-bindgen-test
//! in headless Chromium): a slider's move writes a traffic row in place (the same row element
//! and text node), rows come and go keyed by their dimension, the memory bar's widths go
//! through the CSS object model; a "why?" button opens, follows and closes its panel; the
//! estimate's buttons follow words of their own (the kernel terms' too, on a real card, equal
//! to the core's); the Llama 3 and DeepSeek-V3 tables, the table measured on one H200 and the
//! chart of the runs' and measured figures' ratios show the core's figures, in both languages.
//!
//! Run with `cargo test --target wasm32-unknown-unknown -p parallel-web` (scripts/test.sh).

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::*;
use leptos::prelude::*;
use leptos::task::tick;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// The visible text between each "?" button of `markup` and the one before it: what a sighted
/// reader has to tell the buttons apart.
fn text_before_buttons(markup: &str) -> Vec<String> {
    let strip = |markup: &str| {
        let mut text = String::new();
        let mut in_tag = false;
        for c in markup.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => text.push(c),
                _ => {}
            }
        }
        text.replace('·', "").trim().to_string()
    };
    let mut out = Vec::new();
    let mut rest = markup;
    while let Some(at) = rest.find("<button") {
        out.push(strip(&rest[..at]));
        rest = rest[at..].split_once("</button>").map_or("", |(_, r)| r);
    }
    out
}

/// The dimensions of the rows under `scope` whose test ids start with `prefix`, in document
/// order ("traffic-tp" → "tp").
fn dims_listed(scope: &Element, prefix: &str) -> Vec<String> {
    let rows = scope
        .query_selector_all(&format!(":scope > [data-testid^='{prefix}']"))
        .unwrap();
    (0..rows.length())
        .map(|i| {
            let row: Element = rows.item(i).unwrap().unchecked_into();
            attr(&row, "data-testid").unwrap()[prefix.len()..].to_string()
        })
        .collect()
}

#[wasm_bindgen_test]
async fn a_slider_writes_the_traffic_rows_in_place() {
    let host = mount_page().await;
    let s64 = section(&host, "64");
    let row = by_test_id(&s64, "traffic-tp");
    let bytes_cell = find(&row, "td:nth-child(2)");
    let text = bytes_cell.first_child().unwrap();
    let before = attr(&row, "data-bytes").unwrap();
    set_slider(&s64, "slider-m", 32);
    tick().await;
    let after = attr(&row, "data-bytes").unwrap();
    assert_ne!(before, after, "m changes TP's bytes");
    assert!(
        by_test_id(&s64, "traffic-tp") == row,
        "the same row, not a new one"
    );
    assert!(
        bytes_cell.first_child().unwrap() == text,
        "the bytes are written in their text node"
    );
    let bytes: f64 = after.parse().unwrap();
    assert_eq!(
        text.text_content().unwrap(),
        parallel_core::Bytes::new(bytes).to_string()
    );
    // TP 1 takes the TP row away; TP 8 brings it back, keyed by its dimension, while the
    // other rows stay the same elements, in the core's order.
    let pp_row = by_test_id(&s64, "traffic-pp");
    let estimate_pp = by_test_id(&s64, "estimate-pp");
    set_slider(&s64, "slider-tp", 1);
    tick().await;
    assert!(!has(&s64, "[data-testid='traffic-tp']"));
    assert!(has(&s64, "[data-testid='traffic-pp']"));
    set_slider(&s64, "slider-tp", 8);
    tick().await;
    assert_eq!(
        attr(&by_test_id(&s64, "traffic-tp"), "data-link").as_deref(),
        Some("nvlink")
    );
    assert!(
        by_test_id(&s64, "traffic-pp") == pp_row,
        "the PP row was kept"
    );
    assert!(
        by_test_id(&s64, "estimate-pp") == estimate_pp,
        "the PP time was kept"
    );
    for (prefix, scope) in [
        ("traffic-", "table.traffic tbody"),
        ("estimate-", ".estimate-dims"),
    ] {
        let listed = dims_listed(&find(&s64, scope), prefix);
        let core: Vec<&str> = parallel_core::Dim::ALL
            .iter()
            .map(|d| d.as_str())
            .filter(|d| listed.iter().any(|l| l == d))
            .collect();
        assert_eq!(listed, core, "{scope}: rows in Dim::ALL's order");
        assert!(
            listed.starts_with(&["tp".to_string()]),
            "{scope}: {listed:?}"
        );
    }
    // The memory bar's widths go through the CSS object model (the page's
    // Content-Security-Policy refuses `style` attributes in markup).
    let width = find(&s64, ".bar-states")
        .unchecked_into::<HtmlElement>()
        .style()
        .get_property_value("width")
        .unwrap();
    assert!(width.ends_with('%') && width != "0%", "{width}");
    host.remove();
}

#[wasm_bindgen_test]
async fn a_why_button_opens_and_closes_its_panel() {
    let host = mount_page().await;
    let s8 = section(&host, "8");
    let button: HtmlElement = by_test_id(&s8, "explain-mem-states").unchecked_into();
    let panel = || s8.query_selector("[data-testid='explanation']").unwrap();
    assert!(panel().is_none());
    assert_eq!(attr(&button, "aria-expanded").as_deref(), Some("false"));
    click(&button);
    tick().await;
    let open = panel().expect("the panel opens");
    assert_eq!(attr(&button, "aria-expanded").as_deref(), Some("true"));
    assert_eq!(attr(&open, "aria-label").as_deref(), Some("模型状态"));
    assert_eq!(
        attr(&open, "id"),
        attr(&button, "aria-controls"),
        "the button controls its panel"
    );
    assert_eq!(
        attr(&open, "data-result"),
        attr(&by_test_id(&s8, "mem-states"), "data-bytes")
    );
    // Escape in the panel closes it and gives the focus back to the button.
    press(&by_test_id(&open, "explanation-formula"), "Escape");
    tick().await;
    assert!(panel().is_none(), "Escape closes");
    assert_eq!(attr(&button, "aria-expanded").as_deref(), Some("false"));
    assert!(document().active_element().as_ref() == Some(button.unchecked_ref::<Element>()));
    // The close button does the same; a second click on the button too.
    click(&button);
    tick().await;
    click(&find(&panel().unwrap(), "[data-close]"));
    tick().await;
    assert!(panel().is_none(), "the close button closes");
    assert!(document().active_element().as_ref() == Some(button.unchecked_ref::<Element>()));
    click(&button);
    tick().await;
    // While open the panel follows the plan.
    set_select(&s8, "select-zero", "0");
    tick().await;
    assert_eq!(
        attr(&panel().unwrap(), "data-result"),
        attr(&by_test_id(&s8, "mem-states"), "data-bytes")
    );
    click(&button);
    tick().await;
    assert!(panel().is_none(), "a second click closes");
    host.remove();
}

#[wasm_bindgen_test]
async fn every_why_button_of_the_estimate_follows_its_own_visible_words() {
    let host = mount_page().await;
    for lang in ["zh", "en"] {
        let estimate = by_test_id(&section(&host, "8"), "estimate");
        let before = text_before_buttons(&estimate.outer_html());
        // Step, compute, tokens, throughput, latency, roofline, MFU, and one per dimension's
        // estimate time: the 8-card start has DP only.
        assert_eq!(before.len(), 8, "{before:?}");
        for (i, text) in before.iter().enumerate() {
            assert!(
                !text.is_empty(),
                "{lang}: button {i} has nothing before it: {before:?}"
            );
            assert!(
                !before[..i].contains(text),
                "{lang}: two buttons follow the same words {text:?}"
            );
        }
        click(&by_test_id(&host, "lang-toggle"));
        tick().await;
    }
    host.remove();
}

#[wasm_bindgen_test]
async fn on_a_real_card_the_kernel_terms_follow_words_of_their_own_and_equal_the_core() {
    use parallel_core::explain::Figure;
    use parallel_core::{Plan, PlanConfig};
    // The 8-card grid on the H200 (`#g8=h200`: the core's default plan on that card, as
    // `parallel-lab eval --url` reads the link).
    let host = mount_page_at("#g8=h200").await;
    let estimate = by_test_id(&section(&host, "8"), "estimate");
    let config = PlanConfig::on(parallel_core::hardware::Hardware::H200);
    assert_eq!(config.gpus, 8);
    let kernels = Plan::new(&config).unwrap().estimate().kernels.unwrap();
    for (figure, value) in [
        (Figure::KernelGemm, kernels.gemm_s),
        (Figure::KernelAttention, kernels.attention_s),
        (Figure::KernelMemory, kernels.memory_bound_s),
        (Figure::Optimizer, kernels.optimizer_s),
    ] {
        let shown = by_test_id(&estimate, &figure.id());
        assert_eq!(attr(&shown, "data-value"), Some(value.get().to_string()));
        by_test_id(&shown, &format!("explain-{}", figure.id()));
    }
    let line = by_test_id(&estimate, "estimate-kernels")
        .text_content()
        .unwrap();
    assert!(line.contains(&kernels.gemm_s.to_string()), "{line}");
    for lang in ["zh", "en"] {
        let before = text_before_buttons(&estimate.outer_html());
        // The lesson's eight, and the four kernel terms.
        assert_eq!(before.len(), 12, "{before:?}");
        for (i, text) in before.iter().enumerate() {
            assert!(!text.is_empty(), "{lang}: button {i}: {before:?}");
            assert!(
                !before[..i].contains(text),
                "{lang}: two buttons follow the same words {text:?}"
            );
        }
        click(&by_test_id(&host, "lang-toggle"));
        tick().await;
    }
    // Back on the lesson's card, the kernel terms are gone.
    set_select(&section(&host, "8"), "select-hardware", "lesson");
    tick().await;
    assert!(!has(&estimate, "[data-testid='estimate-kernels']"));
    assert_eq!(text_before_buttons(&estimate.outer_html()).len(), 8);
    host.remove();
}

#[wasm_bindgen_test]
async fn the_measured_table_and_the_ratio_chart_hold_the_core_rows() {
    use parallel_core::measured::measured_rows;
    use parallel_core::runs::run_rows;
    let host = mount_planner();
    settled(&host).await;
    let runs = run_rows(parallel_core::Lang::Zh).unwrap();
    let rows = measured_rows(parallel_core::Lang::Zh).unwrap();
    let table = by_test_id(&host, "measured-table");
    for row in &rows {
        let tr = by_test_id(&table, &format!("measured-{}", row.id));
        assert_eq!(attr(&tr, "data-measured"), Some(row.measured.to_string()));
        assert_eq!(attr(&tr, "data-lab"), Some(row.lab.to_string()));
        assert_eq!(attr(&tr, "data-ratio"), Some(row.ratio.to_string()));
        let cells = tr.query_selector_all("td").unwrap();
        assert_eq!(
            cells.item(2).unwrap().text_content(),
            Some(format!("{:.2}", row.ratio))
        );
    }
    assert_eq!(
        table.query_selector_all("tbody tr").unwrap().length() as usize,
        rows.len()
    );
    // The chart's points: every run, then every measured row, each with its ratio.
    let canvas = by_test_id(&host, "chart-ratios");
    let series: serde_json::Value =
        serde_json::from_str(&attr(&canvas, "data-series").unwrap()).unwrap();
    let points = series.as_array().unwrap();
    assert_eq!(points.len(), runs.len() + rows.len());
    let ids = runs
        .iter()
        .map(|r| (r.id.to_string(), "run", r.ratio))
        .chain(rows.iter().map(|r| (r.id.clone(), "measured", r.ratio)));
    for (point, (id, kind, ratio)) in points.iter().zip(ids) {
        assert_eq!(point["id"], id.as_str());
        assert_eq!(point["kind"], kind);
        assert_eq!(point["ratio"].as_f64(), Some(ratio));
    }
    assert_eq!(attr(&canvas, "role").as_deref(), Some("img"));
    assert!(attr(&canvas, "aria-label").unwrap().contains("±20%"));
    host.remove();
}

#[wasm_bindgen_test]
async fn the_real_tables_show_the_plans_as_the_core_computes_them() {
    use parallel_web::kit::real_configs::deepseek::deepseek_plan;
    use parallel_web::kit::real_configs::llama::llama_rows;
    let host = mount_page().await;
    settled(&host).await;
    let real = by_test_id(&host, "section-real");
    for (i, row) in llama_rows().into_iter().enumerate() {
        let row = row.map_err(|rejected| rejected.1).unwrap();
        assert_eq!(
            by_test_id(&real, &format!("llama3-dp-{i}")).text_content(),
            Some(row.degrees.dp.to_string())
        );
        let tokens = by_test_id(&real, &format!("llama3-tokens-{i}"));
        assert_eq!(
            attr(&tokens, "data-tokens"),
            Some(row.tokens_per_step.to_string())
        );
        assert_eq!(
            tokens.text_content(),
            Some(parallel_web::kit::format::thousands(
                row.tokens_per_step as u64
            ))
        );
    }
    let plan = deepseek_plan().unwrap();
    let report = plan.report();
    assert_eq!(
        by_test_id(&real, "deepseek-dp").text_content(),
        Some(plan.degrees().dp.to_string())
    );
    let states = by_test_id(&real, "deepseek-states");
    assert_eq!(
        attr(&states, "data-bytes"),
        Some(report.memory.model_states.get().to_string())
    );
    assert_eq!(
        states.text_content(),
        Some(report.memory.model_states.to_string())
    );
    assert_eq!(
        by_test_id(&real, "llama3-lessons")
            .query_selector_all("li")
            .unwrap()
            .length(),
        3
    );
    click(&by_test_id(&host, "lang-toggle"));
    tick().await;
    let text = real.unchecked_ref::<HtmlElement>().inner_text();
    assert!(
        !text.contains(|c: char| ('\u{4e00}'..='\u{9fff}').contains(&c)),
        "{text}"
    );
    assert!(text.contains("Reading this table with the earlier lessons"));
    click(&by_test_id(&host, "lang-toggle"));
    tick().await;
    host.remove();
}
