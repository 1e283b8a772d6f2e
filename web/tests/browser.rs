//! Browser tests (wasm-bindgen-test in headless Chromium): the core evaluated in wasm, and
//! the page's figure read back from the DOM through its `data-testid`.
//!
//! Run with `cargo test --target wasm32-unknown-unknown -p parallel-web` (scripts/test.sh).

use leptos::prelude::*;
use leptos::task::tick;
use parallel_core::{evaluate, PlanConfig};
use parallel_web::{use_report, App, ModelStatesFigure};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Parameters of the default model (Qwen3.8-27B).
const PARAMS: f64 = 27_781_427_952.0;
/// 16 bytes per parameter: BF16 weights and gradients, FP32 master weights and Adam states.
const BYTES_PER_PARAM: f64 = 16.0;

/// A fresh `<div>` on the test page to mount into.
fn host() -> HtmlElement {
    let document = document();
    let host: HtmlElement = document
        .create_element("div")
        .expect("a div can be created")
        .unchecked_into();
    document
        .body()
        .expect("the test page has a body")
        .append_child(&host)
        .expect("the host div can be attached");
    host
}

fn by_test_id(host: &HtmlElement, id: &str) -> Option<Element> {
    host.query_selector(&format!("[data-testid='{id}']"))
        .expect("the selector is valid")
}

#[wasm_bindgen_test]
fn core_evaluates_the_lesson_start_in_wasm() {
    let report = evaluate(&PlanConfig::lesson_8_gpus()).expect("the lesson's start is valid");
    // ZeRO-3 over DP 8 shards all 16 bytes of every parameter across the 8 cards.
    assert_eq!(
        report.memory.model_states.get(),
        PARAMS * BYTES_PER_PARAM / 8.0
    );
    assert_eq!(report.memory.model_states.get(), 55_562_855_904.0);
    assert_eq!(report.memory.model_states.to_string(), "55.6 GB");
}

#[wasm_bindgen_test]
fn page_shows_model_states_per_card() {
    let host = host();
    let _mounted = leptos::mount::mount_to(host.clone(), App);

    let figure = by_test_id(&host, "mem-states").expect("the page shows the model states");
    assert_eq!(
        figure.get_attribute("data-bytes").as_deref(),
        Some("55562855904")
    );
    assert_eq!(figure.text_content().as_deref(), Some("55.6 GB"));
}

#[wasm_bindgen_test]
async fn figure_follows_the_plan() {
    let host = host();
    let plan = RwSignal::new(PlanConfig::lesson_8_gpus());
    let _mounted = leptos::mount::mount_to(host.clone(), move || {
        view! { <ModelStatesFigure report=use_report(plan.into()) /> }
    });

    // ZeRO off: every card holds all 16 bytes of every parameter.
    plan.update(|plan| plan.zero = 0);
    tick().await;
    let figure = by_test_id(&host, "mem-states").expect("the figure is still shown");
    assert_eq!(
        figure.get_attribute("data-bytes").as_deref(),
        Some((PARAMS * BYTES_PER_PARAM).to_string().as_str())
    );

    // 8 GPUs cannot be split into TP groups of 3: the core's message replaces the figure.
    plan.update(|plan| plan.tp = 3);
    tick().await;
    assert!(by_test_id(&host, "mem-states").is_none());
    let error = by_test_id(&host, "plan-error").expect("the rejected plan is explained");
    let expected = evaluate(&plan.get_untracked()).expect_err("TP 3 does not divide 8 GPUs");
    assert_eq!(error.text_content(), Some(expected.to_string()));
}
