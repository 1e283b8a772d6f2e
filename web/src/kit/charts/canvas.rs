//! The `<canvas>` every chart is drawn on, and the effect that redraws it.
//!
//! The canvas is as wide as its CSS box, 16:9, and its backing store is that size ×
//! `devicePixelRatio`, so lines and text are crisp. Drawing is synchronous inside one effect:
//! the canvas is cleared and redrawn in the same task, so the browser never paints a blank
//! frame. A canvas that is missing, or a browser that gives no 2D context, leaves a short
//! note instead of a panic.
//!
//! Text is measured with the canvas's own `measureText` ([`MeasuredCanvas`]): plotters'
//! browser font code measures each label by adding a `<span>` to the page and reading its
//! size, which forces a layout of the whole page per label, a few dozen per redraw.

use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::layout::{fail, DESIGN};
use crate::kit::i18n::{use_lang, Lang, T};

/// Plotters' canvas backend, with text measured by the canvas instead of the page's layout.
pub struct MeasuredCanvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
}

impl MeasuredCanvas {
    /// The backend for `canvas`, or `None` when the browser gives no 2D context.
    pub fn new(canvas: &HtmlCanvasElement) -> Option<MeasuredCanvas> {
        let context = canvas
            .get_context("2d")
            .ok()??
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        let inner = CanvasBackend::with_canvas_object(canvas.clone())?;
        Some(MeasuredCanvas { inner, context })
    }
}

type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;

impl DrawingBackend for MeasuredCanvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_text(text, style, pos)
    }

    /// Width from `measureText` in the same font `draw_text` sets; height one line (1.2 em).
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        let size = style.size();
        self.context.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            size,
            style.family().as_str()
        ));
        let width = self
            .context
            .measure_text(text)
            .map(|metrics| metrics.width())
            .unwrap_or(0.6 * size * text.chars().count() as f64);
        Ok((
            width.ceil().max(0.0) as u32,
            (1.2 * size).ceil().max(0.0) as u32,
        ))
    }
}

/// What a chart's canvas shows besides its drawing.
pub struct CanvasSpec {
    /// `data-testid` of the canvas.
    pub test_id: &'static str,
    /// The chart as text, in the page's language (`aria-label`).
    pub summary: Signal<String>,
    /// The drawn values as plain numbers (`data-series`), for browser tests.
    pub values: Signal<String>,
    /// When set, the canvas is hidden and this note is shown instead (nothing to draw).
    pub note: Signal<Option<String>>,
}

impl CanvasSpec {
    /// The spec of the canvas `test_id` of a chart drawn from `series`: its summary, its values
    /// and its note, each a function of the series (and of the page's language).
    pub fn of<S: Send + Sync + 'static>(
        test_id: &'static str,
        series: Memo<S>,
        summary: fn(&S, Lang) -> String,
        values: fn(&S) -> String,
        note: fn(&S, Lang) -> Option<String>,
    ) -> CanvasSpec {
        let lang = use_lang();
        CanvasSpec {
            test_id,
            summary: Signal::derive(move || series.with(|s| summary(s, lang.get()))),
            values: Signal::derive(move || series.with(values)),
            note: Signal::derive(move || series.with(|s| note(s, lang.get()))),
        }
    }
}

/// The largest backing store side, in device pixels.
const MAX_BACKING: f64 = 8192.0;

/// The backing store size for a canvas: its CSS width (the design width before layout) ×
/// `devicePixelRatio`, 16:9. The width comes from a `ResizeObserver`, never from reading the
/// layout during an update (which would force the browser to lay the page out mid-update).
fn backing_size(css_width: f64) -> (u32, u32) {
    let css_width = if css_width >= 1.0 {
        css_width
    } else {
        DESIGN.0
    };
    let ratio = web_sys::window()
        .map(|window| window.device_pixel_ratio())
        .filter(|ratio| ratio.is_finite() && *ratio > 0.0)
        .unwrap_or(1.0)
        .clamp(1.0, 4.0);
    let width = (css_width * ratio).round().clamp(1.0, MAX_BACKING);
    let height = (width * DESIGN.1 / DESIGN.0).round().max(1.0);
    (width as u32, height as u32)
}

/// Sizes `canvas` and draws on it with `paint`.
fn paint_canvas(canvas: &HtmlCanvasElement, css_width: f64, paint: &Paint) -> Result<(), String> {
    let (width, height) = backing_size(css_width);
    if canvas.width() != width {
        canvas.set_width(width);
    }
    if canvas.height() != height {
        canvas.set_height(height);
    }
    let backend = MeasuredCanvas::new(canvas)
        .ok_or_else(|| "the browser gave no 2D canvas context".to_string())?;
    let area = backend.into_drawing_area();
    paint(&area)?;
    area.present().map_err(fail)
}

/// A canvas that `paint` draws on. It is redrawn whenever a signal that `track` reads changes
/// or the canvas is resized, at the next animation frame: several changes within one frame
/// make one drawing, and a slider's update of the page's figures never waits for plotters.
pub fn chart_canvas<T, F>(spec: CanvasSpec, track: T, paint: F) -> AnyView
where
    T: Fn() + 'static,
    F: Fn(&DrawingArea<MeasuredCanvas, Shift>) -> Result<(), String> + 'static,
{
    canvas_view(spec, Box::new(track), std::rc::Rc::new(paint))
}

/// A drawing on a chart's canvas.
type Paint = dyn Fn(&DrawingArea<MeasuredCanvas, Shift>) -> Result<(), String>;

/// `chart_canvas` without its type parameters: the canvas, its observers and its effects are
/// the same code for every chart (one instance in the wasm instead of one per chart).
fn canvas_view(spec: CanvasSpec, track: Box<dyn Fn()>, paint: std::rc::Rc<Paint>) -> AnyView {
    let CanvasSpec {
        test_id,
        summary,
        values,
        note,
    } = spec;
    let lang = use_lang();
    let canvas_ref = NodeRef::<Canvas>::new();
    let error = RwSignal::new(None::<String>);
    // CSS width of the canvas, as a ResizeObserver last reported it (0: not laid out yet).
    let css_width = RwSignal::new(0.0_f64);
    Effect::new(move |_| {
        let Some(canvas) = canvas_ref.get() else {
            return;
        };
        let on_resize = wasm_bindgen::closure::Closure::<dyn Fn(js_sys::Array)>::new(
            move |entries: js_sys::Array| {
                let width = entries
                    .get(0)
                    .dyn_into::<web_sys::ResizeObserverEntry>()
                    .map(|entry| entry.content_rect().width())
                    .unwrap_or(0.0);
                if width >= 1.0 && (width - css_width.get_untracked()).abs() >= 0.5 {
                    css_width.set(width);
                }
            },
        );
        if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
            observer.observe(&canvas);
        }
        on_resize.forget();
    });

    // Whether the canvas is on screen (or about to be): a canvas out of sight is not drawn,
    // only marked out of date, and drawn when it comes near the viewport.
    let visible = RwSignal::new(false);
    Effect::new(move |_| {
        if let Some(canvas) = canvas_ref.get() {
            watch_visibility(&canvas, visible);
        }
    });

    let frame_requested = StoredValue::new_local(false);
    let out_of_date = StoredValue::new_local(true);
    // Draws at the next animation frame when the canvas is out of date and in view.
    let schedule = move || {
        if !out_of_date.get_value() || frame_requested.get_value() {
            return;
        }
        if !visible.get_untracked() || canvas_ref.get_untracked().is_none() {
            return;
        }
        if note.with_untracked(Option::is_some) {
            return;
        }
        frame_requested.set_value(true);
        let paint = std::rc::Rc::clone(&paint);
        request_animation_frame(move || {
            frame_requested.set_value(false);
            let Some(canvas) = canvas_ref.get_untracked() else {
                return;
            };
            out_of_date.set_value(false);
            let outcome =
                untrack(|| paint_canvas(&canvas, css_width.get_untracked(), &*paint).err());
            if error.with_untracked(|e| *e != outcome) {
                error.set(outcome);
            }
        });
    };
    let schedule = std::rc::Rc::new(schedule);
    {
        let schedule = std::rc::Rc::clone(&schedule);
        Effect::new(move |_| {
            track();
            css_width.track();
            note.track();
            canvas_ref.track();
            out_of_date.set_value(true);
            schedule();
        });
    }
    Effect::new(move |_| {
        if visible.get() {
            schedule();
        }
    });

    view! {
        <canvas
            node_ref=canvas_ref
            class="chart"
            class:hidden=move || note.with(Option::is_some)
            width=DESIGN.0
            height=DESIGN.1
            role="img"
            data-testid=test_id
            aria-label=move || summary.get()
            data-series=move || values.get()
        ></canvas>
        {move || note.get().map(|text| view! {
            <p class="chart-note muted" data-testid=format!("{test_id}-note")>{text}</p>
        })}
        {move || error.get().map(|detail| view! {
            <p class="chart-error" role="status" data-error=detail>
                {lang.get().pick("这张图没能画出来。", "This chart could not be drawn.")}
            </p>
        })}
    }
    .into_any()
}

/// A chart's drawing: a series in a language, on the page's canvas.
pub type DrawSeries<S> = fn(&DrawingArea<MeasuredCanvas, Shift>, &S, Lang) -> Result<(), String>;

/// The canvas of a chart that is a pure function of a series and the page's language: redrawn
/// when either changes.
pub fn series_canvas<S>(spec: CanvasSpec, series: Memo<S>, draw: DrawSeries<S>) -> impl IntoView
where
    S: PartialEq + Send + Sync + 'static,
{
    let lang = use_lang();
    chart_canvas(
        spec,
        move || {
            series.track();
            lang.track();
        },
        move |area| series.with(|s| draw(area, s, lang.get())),
    )
}

/// A chart's figure: its title (中文, English) over the canvas of [`series_canvas`], in a
/// `<div>` of class `figure chart-figure <test id>-figure`.
pub fn series_figure<S>(
    title: (&'static str, &'static str),
    spec: CanvasSpec,
    series: Memo<S>,
    draw: DrawSeries<S>,
) -> impl IntoView
where
    S: PartialEq + Send + Sync + 'static,
{
    let class = format!("figure chart-figure {}-figure", spec.test_id);
    view! {
        <div class=class>
            <h4><T zh=title.0 en=title.1 /></h4>
            {series_canvas(spec, series, draw)}
        </div>
    }
}

/// A chart's values for `data-series`: one item per bar, separated by spaces.
pub fn spaced(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(" ")
}

/// Keeps `visible` true while `element` is on screen or within 400 px of it (an
/// IntersectionObserver; where there is none, it is always true). Once the view that owns
/// `visible` is gone, the observer disconnects itself.
pub fn watch_visibility(element: &web_sys::Element, visible: RwSignal<bool>) {
    let on_view = wasm_bindgen::closure::Closure::<
        dyn Fn(js_sys::Array, web_sys::IntersectionObserver),
    >::new(
        move |entries: js_sys::Array, observer: web_sys::IntersectionObserver| {
            let Some(was) = visible.try_get_untracked() else {
                observer.disconnect();
                return;
            };
            let seen = entries
                .iter()
                .filter_map(|entry| entry.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
                .next_back()
                .map(|entry| entry.is_intersecting());
            if let Some(seen) = seen {
                if seen != was {
                    visible.set(seen);
                }
            }
        },
    );
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root_margin("400px 0px");
    if let Ok(observer) =
        web_sys::IntersectionObserver::new_with_options(on_view.as_ref().unchecked_ref(), &options)
    {
        observer.observe(element);
    } else {
        visible.set(true);
    }
    on_view.forget();
}
