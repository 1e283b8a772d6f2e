//! A panel that opens beside the control that opened it, inside the viewport: shown in the
//! browser's top layer (the Popover API), so that no scrolling container clips it and no
//! contained ancestor (`content-visibility`, a transform) moves it; placed below its anchor,
//! above it when there is no room below, and slid sideways to stay on screen; placed again at
//! every frame while it is open, so that it follows its opener however the page moves.

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The margin kept between a panel and the viewport's edges, and between it and its anchor,
/// in CSS pixels.
pub const MARGIN: f64 = 8.0;

/// A rectangle in viewport coordinates, CSS pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Distance from the viewport's left edge.
    pub left: f64,
    /// Distance from the viewport's top edge.
    pub top: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

/// Where a panel goes: its top-left corner in the viewport.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Place {
    /// Distance from the viewport's top edge.
    pub top: f64,
    /// Distance from the viewport's left edge.
    pub left: f64,
}

/// Where a panel of `size` (width, height) goes beside `anchor` in a viewport of
/// `viewport` (width, height): right-aligned with the anchor and below it when it fits there,
/// else above it when it fits there, else as low as the viewport lets it; always at least
/// [`MARGIN`] inside every edge, even for an anchor at or past the viewport's edge (a panel taller than the viewport scrolls inside itself, its
/// CSS caps its height).
pub fn place(anchor: Rect, size: (f64, f64), viewport: (f64, f64)) -> Place {
    let (width, height) = size;
    let (vw, vh) = viewport;
    let clamp = |value: f64, low: f64, high: f64| value.min(high).max(low);
    let left = clamp(
        anchor.left + anchor.width - width,
        MARGIN,
        vw - width - MARGIN,
    );
    let below = anchor.top + anchor.height + MARGIN;
    let above = anchor.top - MARGIN - height;
    let top = if below + height <= vh - MARGIN {
        below
    } else if above >= MARGIN {
        above
    } else {
        vh - height - MARGIN
    };
    // An anchor partly out of the viewport (a button at its very edge) still gets a panel
    // wholly inside it.
    Place {
        top: clamp(top, MARGIN, vh - height - MARGIN),
        left,
    }
}

/// The viewport rectangle of `element`.
fn rect_of(element: &web_sys::Element) -> Rect {
    let r = element.get_bounding_client_rect();
    Rect {
        left: r.left(),
        top: r.top(),
        width: r.width(),
        height: r.height(),
    }
}

/// Puts `panel` in the top layer when the browser has the Popover API (the element carries
/// `popover="manual"`); without it the panel stays a fixed element of the page.
fn show_in_top_layer(panel: &web_sys::HtmlElement) {
    let show = js_sys::Reflect::get(panel, &"showPopover".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if let Some(show) = show {
        let _ = show.call0(panel);
    }
}

/// Where `panel` goes beside `anchor` in the window as it is now.
fn place_now(panel: &web_sys::HtmlElement, anchor: &web_sys::Element) -> Place {
    let window = web_sys::window().expect("a page has a window");
    let size = |value: Result<wasm_bindgen::JsValue, _>| {
        value.ok().and_then(|v| v.as_f64()).unwrap_or(0.0)
    };
    let viewport = (size(window.inner_width()), size(window.inner_height()));
    let own = rect_of(panel);
    place(rect_of(anchor), (own.width, own.height), viewport)
}

/// Places the panel now and again at every frame while it is in the page, writing the place
/// only when it changes: the page may move under it in ways no event reports (a section drawn
/// late above it, a plan that changes its own height), and the panel follows from the next
/// frame, as floating UI libraries' frame-by-frame update does.
fn follow(
    panel_ref: NodeRef<Div>,
    anchor: fn(&web_sys::HtmlElement) -> Option<web_sys::Element>,
    set_at: WriteSignal<Option<Place>>,
    last: Option<Place>,
) {
    // Once the panel is closed its node reference and signal are gone: stop without touching
    // them (a read of a disposed one would abort the page).
    let Some(Some(panel)) = panel_ref.try_get_untracked() else {
        return;
    };
    let panel: &web_sys::HtmlElement = &panel;
    if !panel.is_connected() {
        return;
    }
    let Some(opener) = anchor(panel) else {
        return;
    };
    let now = place_now(panel, &opener);
    if last != Some(now) && set_at.try_set(Some(now)).is_some() {
        return;
    }
    request_animation_frame(move || follow(panel_ref, anchor, set_at, Some(now)));
}

/// Shows the panel of `panel_ref` in the top layer once it is mounted and keeps it placed
/// beside the element `anchor` finds from the panel (its opener) for as long as it is open:
/// the returned place is what the panel's `style:top` and `style:left` read.
pub fn placed_beside(
    panel_ref: NodeRef<Div>,
    anchor: fn(&web_sys::HtmlElement) -> Option<web_sys::Element>,
) -> ReadSignal<Option<Place>> {
    let (at, set_at) = signal(None::<Place>);
    Effect::new(move |_| {
        if panel_ref.get().is_some() {
            open_in_page(panel_ref, anchor, set_at, 0);
        }
    });
    at
}

/// The most frames a panel's node waits to be inserted into the page before it is shown.
const INSERT_FRAMES: u32 = 60;

/// Shows the panel in the top layer and starts [`follow`] once its node is in the page: a panel
/// built from a split module (`crate::state::later::LaterPart`) is inserted after it is built.
fn open_in_page(
    panel_ref: NodeRef<Div>,
    anchor: fn(&web_sys::HtmlElement) -> Option<web_sys::Element>,
    set_at: WriteSignal<Option<Place>>,
    frame: u32,
) {
    let Some(Some(panel)) = panel_ref.try_get_untracked() else {
        return;
    };
    if panel.is_connected() {
        show_in_top_layer(&panel);
        follow(panel_ref, anchor, set_at, None);
    } else if frame < INSERT_FRAMES {
        request_animation_frame(move || open_in_page(panel_ref, anchor, set_at, frame + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESKTOP: (f64, f64) = (1400.0, 900.0);
    const PHONE: (f64, f64) = (390.0, 844.0);

    fn button(left: f64, top: f64) -> Rect {
        Rect {
            left,
            top,
            width: 24.0,
            height: 24.0,
        }
    }

    fn inside(p: Place, size: (f64, f64), viewport: (f64, f64)) -> bool {
        p.left >= MARGIN
            && p.top >= MARGIN
            && p.left + size.0 <= viewport.0 - MARGIN
            && p.top + size.1 <= viewport.1 - MARGIN
    }

    #[test]
    fn below_and_right_aligned_when_there_is_room() {
        let p = place(button(600.0, 100.0), (512.0, 300.0), DESKTOP);
        assert_eq!(
            p,
            Place {
                top: 132.0,
                left: 112.0
            }
        );
    }

    #[test]
    fn above_when_the_room_is_above() {
        let p = place(button(600.0, 700.0), (512.0, 300.0), DESKTOP);
        assert_eq!(p.top, 700.0 - MARGIN - 300.0);
    }

    #[test]
    fn slid_sideways_to_stay_on_a_phone() {
        // A button near the left edge of a phone: the panel's right edge would pass the
        // left edge of the screen if it were right-aligned with the button.
        let size = (374.0, 400.0);
        let p = place(button(10.0, 200.0), size, PHONE);
        assert!(inside(p, size, PHONE), "{p:?}");
        let p = place(button(360.0, 200.0), size, PHONE);
        assert!(inside(p, size, PHONE), "{p:?}");
    }

    #[test]
    fn an_anchor_past_the_bottom_still_gets_a_place_on_screen() {
        let size = (512.0, 316.0);
        let p = place(button(836.0, 909.0), size, (1280.0, 800.0));
        assert!(inside(p, size, (1280.0, 800.0)), "{p:?}");
    }

    #[test]
    fn every_anchor_on_screen_gets_a_place_on_screen() {
        for viewport in [DESKTOP, PHONE] {
            let size = (viewport.0.min(512.0) - 2.0 * MARGIN, 420.0);
            let mut y = 0.0;
            while y < viewport.1 - 24.0 {
                let mut x = 0.0;
                while x < viewport.0 - 24.0 {
                    let p = place(button(x, y), size, viewport);
                    assert!(inside(p, size, viewport), "{x},{y} on {viewport:?}: {p:?}");
                    x += 17.0;
                }
                y += 13.0;
            }
        }
    }
}
