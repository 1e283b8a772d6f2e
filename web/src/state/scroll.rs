//! Bringing an element to the top of the viewport and keeping it there while the page
//! settles: a section a link names, a grid a button changed.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Brings the element `selector` finds to the top of the viewport, from the next frame on (a
/// grid after a plan is loaded into it from far below).
pub fn bring_into_view(selector: String) {
    request_animation_frame(move || settle_on(selector, 0));
}

/// Focuses the element `selector` finds, at the next frame (once the effects of a change
/// just made have drawn it) and without scrolling to it, opening first any closed
/// `<details>` it sits in (a control behind "more controls").
pub fn focus_quietly(selector: String) {
    request_animation_frame(move || {
        let Some(element) = document().query_selector(&selector).ok().flatten() else {
            return;
        };
        let mut above = element.parent_element();
        while let Some(parent) = above {
            if let Some(details) = parent.dyn_ref::<web_sys::HtmlDetailsElement>() {
                if !details.open() {
                    details.set_open(true);
                }
            }
            above = parent.parent_element();
        }
        if let Some(element) = element.dyn_ref::<web_sys::HtmlElement>() {
            let options = web_sys::FocusOptions::new();
            options.set_prevent_scroll(true);
            let _ = element.focus_with_options(&options);
        }
    });
}

/// The most frames spent waiting for the page's later parts before a section is scrolled to:
/// ten seconds at 60 frames a second.
const DRAWN_FRAMES: u32 = 600;

/// Brings the section `selector` finds to the top of the viewport once every later part of the
/// page is drawn (`<html data-drawn="all">`: the parts above it have their height, and the
/// section itself, from a split module, is there), or after [`DRAWN_FRAMES`] frames (a module
/// that did not load).
pub fn bring_into_view_when_drawn(selector: String) {
    request_animation_frame(move || wait_drawn(selector, 0));
}

fn wait_drawn(selector: String, frame: u32) {
    let drawn = document()
        .document_element()
        .and_then(|root| root.get_attribute("data-drawn"))
        .is_some_and(|drawn| drawn == "all");
    if drawn || frame >= DRAWN_FRAMES {
        settle_on(selector, 0);
    } else {
        request_animation_frame(move || wait_drawn(selector, frame + 1));
    }
}

/// The most frames spent bringing an element to the top of the viewport.
const SETTLE_FRAMES: u32 = 12;

/// Scrolls the element to the top, then checks again at the next frames: the sections far below
/// are drawn only near the viewport (CSS `content-visibility`), so those passed on the way may
/// take their real height once drawn and move the target; it is scrolled again until it stays.
fn settle_on(selector: String, frame: u32) {
    let Some(element) = document().query_selector(&selector).ok().flatten() else {
        return;
    };
    let top = element.get_bounding_client_rect().top();
    if frame > 0 && top.abs() < 1.0 {
        return;
    }
    // At once, not smoothly: a smooth scroll would still be heading for the old position.
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_behavior(web_sys::ScrollBehavior::Instant);
    element.scroll_into_view_with_scroll_into_view_options(&options);
    if frame < SETTLE_FRAMES {
        request_animation_frame(move || settle_on(selector, frame + 1));
    }
}

/// Scrolls `element` just enough to show it whole (or its top, when it is taller than the
/// viewport), from the next frame on: a panel that opened below the fold.
pub fn show_whole(element: web_sys::HtmlElement) {
    request_animation_frame(move || {
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Nearest);
        element.scroll_into_view_with_scroll_into_view_options(&options);
    });
}
