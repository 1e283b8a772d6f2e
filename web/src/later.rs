//! The page's parts below the two grids, drawn after the first frame.
//!
//! Loading builds the header, the intro and both grids in one go, so the grids answer as soon as
//! the wasm has run; the parts below (real configurations, decisions, the evolution map, the
//! counting note) are then built one per task, the first after the first frame is painted. A
//! reader reaches them long after they are drawn; a link to one of them (`sec=`) or a contents
//! link draws them all at once before scrolling there. When every part is drawn, `<html>` gets
//! `data-drawn="all"`.

use leptos::prelude::*;

/// How many of the later parts are drawn, in page order.
#[derive(Clone, Copy)]
pub struct LaterParts {
    drawn: RwSignal<usize>,
    count: usize,
}

impl LaterParts {
    /// `count` parts, none drawn yet, or all of them when `all_now`.
    pub fn new(count: usize, all_now: bool) -> LaterParts {
        let parts = LaterParts {
            drawn: RwSignal::new(if all_now { count } else { 0 }),
            count,
        };
        Effect::new(move |_| {
            if parts.drawn.get() >= parts.count {
                if let Some(root) = document().document_element() {
                    let _ = root.set_attribute("data-drawn", "all");
                }
            }
        });
        parts
    }

    /// Draws the parts one task after another, starting after the next frame is painted (a
    /// timer set from an animation frame runs once that frame is out).
    pub fn draw_after_first_frame(self) {
        request_animation_frame(move || self.draw_next());
    }

    fn draw_next(self) {
        set_timeout(
            move || {
                let drawn = self.drawn.get_untracked();
                if drawn < self.count {
                    self.drawn.set(drawn + 1);
                    self.draw_next();
                }
            },
            std::time::Duration::ZERO,
        );
    }

    /// Draws every part now (before scrolling to one of them).
    pub fn draw_all(self) {
        if self.drawn.get_untracked() < self.count {
            self.drawn.set(self.count);
        }
    }

    /// Whether part `index` (0 = the first below the grids) is drawn.
    pub fn is_drawn(self, index: usize) -> bool {
        self.drawn.get() > index
    }
}

/// Part `index` of the later parts: `children` once it is drawn, an empty placeholder of about
/// its height before (so the scroll bar does not jump).
#[component]
pub fn Later(parts: LaterParts, index: usize, children: ChildrenFn) -> impl IntoView {
    // A memo, so drawing the next part does not rebuild this one.
    let drawn = Memo::new(move |_| parts.is_drawn(index));
    move || {
        if drawn.get() {
            children().into_any()
        } else {
            view! { <section class="part later-part" aria-hidden="true"></section> }.into_any()
        }
    }
}
