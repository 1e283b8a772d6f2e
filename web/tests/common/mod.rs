//! What the browser tests share: the page mounted in a fresh `<div>`, elements found by test
//! id, events dispatched, and waits.

#![allow(dead_code, clippy::unwrap_used, clippy::panic)]

use leptos::prelude::*;
use parallel_web::pages::lesson::LessonPage;
use parallel_web::pages::plan::PlanPage;
use wasm_bindgen::JsCast;
use web_sys::{
    Element, Event, EventInit, HtmlElement, HtmlInputElement, HtmlSelectElement, KeyboardEvent,
    KeyboardEventInit,
};

/// A fresh `<div>` on the test page with the lesson mounted in it, once both its grids are
/// drawn (the 64-card one after the first frame). The page reads its state from the URL and
/// writes it back, so each test starts from an empty fragment.
pub async fn mount_page() -> HtmlElement {
    mount_page_at("#").await
}

/// A fresh `<div>` with the planner (`plan.html`'s page) mounted in it, from an empty fragment.
pub fn mount_planner() -> HtmlElement {
    mount_at("#", PlanPage)
}

/// A fresh `<div>` with `embed.html`'s app mounted in it, as if opened with `fragment`.
pub fn mount_embed_at(fragment: &str) -> HtmlElement {
    mount_at(fragment, parallel_web::pages::embed::EmbedApp)
}

/// A fresh `<div>` on the test page, the address's fragment set to `fragment`.
fn fresh_host(fragment: &str) -> HtmlElement {
    window()
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(fragment))
        .unwrap();
    let document = document();
    let host: HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&host).unwrap();
    host
}

/// The lesson mounted as if opened with `fragment`, once both its grids are drawn (at most
/// 3,000 tasks: a bound for a page that never draws the 64-card grid, not a time its drawing
/// must keep).
pub async fn mount_page_at(fragment: &str) -> HtmlElement {
    let host = mount_at(fragment, LessonPage);
    wait_for(&host, "[data-testid='grid-64']", 3_000).await;
    host
}

/// Waits until `scope` holds an element matching `selector`, one task ten milliseconds after
/// another, at most `tasks` of them; fails naming the selector otherwise.
pub async fn wait_for(scope: &Element, selector: &str, tasks: u32) -> Element {
    for _ in 0..tasks {
        if let Some(found) = scope.query_selector(selector).unwrap() {
            return found;
        }
        sleep(10).await;
    }
    panic!("nothing matches {selector}")
}

/// A fresh `<div>` with `app` mounted in it, as if opened with `fragment`.
fn mount_at<V: IntoView + 'static>(fragment: &str, app: fn() -> V) -> HtmlElement {
    let host = fresh_host(fragment);
    leptos::mount::mount_to(host.clone(), app).forget();
    host
}

pub fn find(scope: &Element, selector: &str) -> Element {
    scope
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
}

/// Whether anything in `scope` matches `selector`.
pub fn has(scope: &Element, selector: &str) -> bool {
    scope.query_selector(selector).unwrap().is_some()
}

pub fn by_test_id(scope: &Element, id: &str) -> Element {
    find(scope, &format!("[data-testid='{id}']"))
}

pub fn section(host: &HtmlElement, grid: &str) -> Element {
    by_test_id(host, &format!("section-{grid}"))
}

pub fn bubbling(kind: &str) -> Event {
    let init = EventInit::new();
    init.set_bubbles(true);
    Event::new_with_event_init_dict(kind, &init).unwrap()
}

pub fn click(element: &Element) {
    element.dispatch_event(&bubbling("click")).unwrap();
}

pub fn press(element: &Element, key: &str) {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    let event = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    element.dispatch_event(&event).unwrap();
}

pub fn set_slider(scope: &Element, id: &str, value: u32) {
    let input: HtmlInputElement = by_test_id(scope, id).unchecked_into();
    input.set_value(&value.to_string());
    input.dispatch_event(&bubbling("input")).unwrap();
}

pub fn set_select(scope: &Element, id: &str, value: &str) {
    let select: HtmlSelectElement = by_test_id(scope, id).unchecked_into();
    select.set_value(value);
    select.dispatch_event(&bubbling("change")).unwrap();
}

/// Waits until the page in `host` has drawn its parts below the grids (one task after another
/// after its first frame), then until the pages mounted before it have written any address
/// that the resulting scroll made them write.
pub async fn settled(host: &HtmlElement) {
    for _ in 0..200 {
        if host.query_selector(".later-part").unwrap().is_none() {
            break;
        }
        sleep(10).await;
    }
    assert!(
        host.query_selector(".later-part").unwrap().is_none(),
        "the later parts are drawn"
    );
    sleep(parallel_web::state::permalink::WRITE_DELAY_MS + 50).await;
}

/// Waits `ms` milliseconds of the browser's clock.
pub async fn sleep(ms: u64) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms as i32);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

pub fn attr(element: &Element, name: &str) -> Option<String> {
    element.get_attribute(name)
}

pub fn card(scope: &Element, rank: u32) -> Element {
    by_test_id(scope, &format!("card-{rank}"))
}
