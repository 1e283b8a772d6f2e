//! Browser tests (wasm-bindgen-test in headless Chromium): the core evaluated in wasm, the
//! device grid's selection, groups and keyboard, a slider changing the figures, an invalid
//! combination explained at its control, the language switch, a permalink, embed mode. The
//! figures beside a grid and the published tables are `figures.rs`'s.
//!
//! Run with `cargo test --target wasm32-unknown-unknown -p parallel-web` (scripts/test.sh).

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::*;
use leptos::prelude::*;
use leptos::task::tick;
use parallel_core::{evaluate, PlanConfig};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn core_evaluates_the_lesson_start_in_wasm() {
    let report = evaluate(&PlanConfig::lesson_8_gpus()).unwrap();
    assert_eq!(report.memory.model_states.get(), 55_562_855_904.0);
    assert_eq!(report.memory.total.to_string(), "58.2 GB");
}

#[wasm_bindgen_test]
async fn clicking_a_card_lights_its_groups() {
    let host = mount_page().await;
    let s64 = section(&host, "64");
    set_slider(&s64, "slider-pp", 2);
    set_select(&s64, "select-zero", "1");
    tick().await;
    let grid = by_test_id(&s64, "grid-64");
    click(&card(&grid, 0));
    tick().await;

    assert_eq!(
        attr(&card(&grid, 0), "data-selected").as_deref(),
        Some("true")
    );
    assert_eq!(
        attr(&card(&grid, 0), "data-groups").as_deref(),
        Some("tp pp dp")
    );
    for rank in 1..8 {
        assert_eq!(
            attr(&card(&grid, rank), "data-groups").as_deref(),
            Some("tp"),
            "card {rank}"
        );
    }
    assert_eq!(attr(&card(&grid, 8), "data-groups").as_deref(), Some("pp"));
    for rank in [16, 32, 48] {
        assert_eq!(
            attr(&card(&grid, rank), "data-groups").as_deref(),
            Some("dp"),
            "card {rank}"
        );
    }
    assert_eq!(attr(&card(&grid, 9), "data-groups"), None);
    // Traffic is now the card's own: TP on NVLink, PP and DP across machines.
    assert_eq!(
        attr(&by_test_id(&s64, "traffic-tp"), "data-link").as_deref(),
        Some("nvlink")
    );
    assert_eq!(
        attr(&by_test_id(&s64, "traffic-pp"), "data-link").as_deref(),
        Some("ib")
    );
    assert_eq!(
        attr(&by_test_id(&s64, "traffic-dp"), "data-link").as_deref(),
        Some("ib")
    );
    assert!(by_test_id(&s64, "legend-tp")
        .text_content()
        .unwrap()
        .contains("0–7"));

    // Clicking again clears.
    click(&card(&grid, 0));
    tick().await;
    assert_eq!(attr(&card(&grid, 0), "data-selected"), None);
    assert_eq!(attr(&card(&grid, 1), "data-groups"), None);
}

#[wasm_bindgen_test]
async fn keyboard_moves_selects_and_clears() {
    let host = mount_page().await;
    let grid = by_test_id(&section(&host, "8"), "grid-8");
    let first = card(&grid, 0);
    first
        .unchecked_ref::<web_sys::SvgElement>()
        .focus()
        .unwrap();
    press(&first, "ArrowRight");
    tick().await;
    let focused = document().active_element().unwrap();
    assert_eq!(attr(&focused, "data-card").as_deref(), Some("1"));

    press(&focused, "Enter");
    tick().await;
    assert_eq!(
        attr(&card(&grid, 1), "data-selected").as_deref(),
        Some("true")
    );
    // DP 8 on one machine: every other card shares card 1's DP group.
    assert_eq!(attr(&card(&grid, 5), "data-groups").as_deref(), Some("dp"));

    press(&card(&grid, 1), "Escape");
    tick().await;
    assert_eq!(attr(&card(&grid, 1), "data-selected"), None);
}

#[wasm_bindgen_test]
async fn sliders_change_the_figures() {
    let host = mount_page().await;
    let s64 = section(&host, "64");
    // The 64-card start is TP 8 × PP 8, m = 8: bubble 7/8.
    assert_eq!(
        attr(&by_test_id(&s64, "bubble"), "data-ratio").as_deref(),
        Some("0.875")
    );
    set_slider(&s64, "slider-m", 32);
    tick().await;
    assert_eq!(
        attr(&by_test_id(&s64, "bubble"), "data-ratio").as_deref(),
        Some("0.21875")
    );

    let s8 = section(&host, "8");
    let states = |s: &Element| attr(&by_test_id(s, "mem-states"), "data-bytes");
    assert_eq!(states(&s8).as_deref(), Some("55562855904"));
    set_select(&s8, "select-zero", "0");
    tick().await;
    assert_eq!(states(&s8).as_deref(), Some("444502847232"));
    assert_eq!(
        attr(&by_test_id(&s8, "mem-total"), "data-fits").as_deref(),
        Some("false")
    );
}

#[wasm_bindgen_test]
async fn invalid_combination_is_explained_and_the_last_plan_stays() {
    let host = mount_page().await;
    let s8 = section(&host, "8");
    let before = attr(&by_test_id(&s8, "mem-total"), "data-bytes");
    set_slider(&s8, "slider-tp", 3);
    tick().await;
    let error = find(&s8, ".control-error");
    assert!(
        error.text_content().unwrap().contains('3'),
        "{:?}",
        error.text_content()
    );
    assert_eq!(attr(&by_test_id(&s8, "mem-total"), "data-bytes"), before);
    set_slider(&s8, "slider-tp", 4);
    tick().await;
    assert!(s8.query_selector(".control-error").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn english_switch_leaves_no_chinese() {
    let host = mount_page().await;
    // Light a card so that the legend's texts are on the page too.
    click(&card(&by_test_id(&section(&host, "64"), "grid-64"), 0));
    click(&by_test_id(&host, "lang-toggle"));
    tick().await;
    let text = host.inner_text();
    let chinese: String = text
        .chars()
        .filter(|c| {
            ('\u{4e00}'..='\u{9fff}').contains(c)
                || ('\u{3000}'..='\u{303f}').contains(c)
                || ('\u{ff00}'..='\u{ffef}').contains(c)
        })
        .collect();
    // The switch itself names the other language in its own script.
    assert_eq!(chinese, "中文", "Chinese left in English mode");
    click(&by_test_id(&host, "lang-toggle"));
    tick().await;
    assert!(host.inner_text().contains("一台机"));
}

#[wasm_bindgen_test]
async fn a_permalink_restores_the_plan_the_card_and_the_language() {
    let host = mount_page_at("#g64=tp8.pp2.z1&c64=0&lang=en").await;
    tick().await;
    let s64 = section(&host, "64");
    let grid = by_test_id(&s64, "grid-64");
    assert_eq!(
        attr(&card(&grid, 0), "data-selected").as_deref(),
        Some("true")
    );
    assert_eq!(attr(&card(&grid, 8), "data-groups").as_deref(), Some("pp"));
    assert_eq!(attr(&card(&grid, 48), "data-groups").as_deref(), Some("dp"));
    assert_eq!(
        attr(&by_test_id(&s64, "bubble"), "data-ratio").as_deref(),
        Some("0.125")
    );
    assert!(host.inner_text().contains("One machine"));
    assert!(!has(&host, "[data-testid='link-notice']"));

    // Changing the plan writes it back into the address, once the page is quiet.
    settled(&host).await;
    set_slider(&s64, "slider-m", 32);
    tick().await;
    sleep(parallel_web::state::permalink::WRITE_DELAY_MS + 50).await;
    // (The section in view, `sec=`, depends on the earlier tests' pages above this one.)
    let hash = window().location().hash().unwrap();
    assert!(hash.starts_with("#g64=tp8.pp2.m32.z1&c64=0&"), "{hash}");
    assert!(hash.ends_with("&lang=en"), "{hash}");
}

#[wasm_bindgen_test]
async fn a_hostile_link_is_named_and_the_rest_applies() {
    let host = mount_page_at("#g8=tp3.pp2.%3Cscript%3E&c8=99&x=%FF&lang=en").await;
    tick().await;
    let notice = by_test_id(&host, "link-notice");
    let text = notice.text_content().unwrap();
    for part in ["tp3", "<script>", "c8=99", "x="] {
        assert!(text.contains(part), "{part} not named in {text}");
    }
    // Only text: nothing of the link became an element.
    assert!(notice.query_selector("script").unwrap().is_none());
    let s8 = section(&host, "8");
    assert_eq!(
        attr(&by_test_id(&s8, "derived-dp"), "data-testid").as_deref(),
        Some("derived-dp")
    );
    assert_eq!(
        by_test_id(&s8, "derived-dp").text_content().as_deref(),
        Some("4")
    );
    click(&by_test_id(&host, "link-notice-dismiss"));
    tick().await;
    assert!(!has(&host, "[data-testid='link-notice']"));
}

#[wasm_bindgen_test]
async fn embed_mode_shows_one_widget() {
    let host = mount_embed_at("#g64=tp8.pp2&embed=grid-64");
    tick().await;
    assert!(!has(&host, "[data-testid='section-8']"));
    assert!(!has(&host, "[data-testid='lang-toggle']"));
    let root = by_test_id(&host, "embed-root");
    assert_eq!(attr(&root, "data-widget").as_deref(), Some("grid-64"));
    assert_eq!(
        by_test_id(&root, "derived-dp").text_content().as_deref(),
        Some("4")
    );
    document()
        .document_element()
        .unwrap()
        .class_list()
        .remove_1("embedded-page")
        .unwrap();
}

/// A link naming a widget is sent to `embed.html` before the lesson mounts (`pages::land`);
/// should that redirect be refused, the lesson shows itself whole, the link's plan in its grid.
#[wasm_bindgen_test]
async fn a_widget_link_on_the_lesson_shows_the_whole_lesson() {
    let host = mount_page_at("#g64=tp8.pp2&embed=grid-64").await;
    tick().await;
    assert!(!has(&host, "[data-testid='embed-root']"));
    assert!(has(&host, "[data-testid='section-8']"));
    let s64 = by_test_id(&host, "section-64");
    assert_eq!(
        by_test_id(&s64, "derived-dp").text_content().as_deref(),
        Some("4")
    );
}
