//! Browser tests (wasm-bindgen-test in headless Chromium): the core evaluated in wasm, and
//! the page's figure read back from the DOM through its `data-testid`.
//!
//! Run with `cargo test --target wasm32-unknown-unknown -p parallel-web` (scripts/test.sh).

use leptos::prelude::document;
use parallel_core::{evaluate, PlanConfig};
use parallel_web::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::HtmlElement;

wasm_bindgen_test_configure!(run_in_browser);

/// 27,781,427,952 parameters × 16 bytes (fp16 weights and gradients, fp32 Adam states and
/// master weights), sharded over 8 cards by ZeRO-3.
const MODEL_STATES_PER_CARD: f64 = 55_562_855_904.0;

#[wasm_bindgen_test]
fn core_evaluates_the_lesson_start_in_wasm() {
    let report = evaluate(&PlanConfig::lesson_8_gpus()).expect("the lesson's start plan is valid");
    assert_eq!(report.memory.model_states.get(), MODEL_STATES_PER_CARD);
    assert_eq!(report.memory.model_states.to_string(), "55.6 GB");
}

#[wasm_bindgen_test]
fn page_shows_model_states_per_card() {
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
    let _mounted = leptos::mount::mount_to(host.clone(), App);

    let figure = host
        .query_selector("[data-testid='mem-states']")
        .expect("the selector is valid")
        .expect("the page shows the model-states figure");
    assert_eq!(figure.get_attribute("data-bytes").as_deref(), Some("55562855904"));
    assert_eq!(figure.text_content().as_deref(), Some("55.6 GB"));
}
