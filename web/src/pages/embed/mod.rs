//! Embed mode (`#…&embed=WIDGET`): one widget alone, compact, without the page's chrome, and
//! its height reported to the course page that frames it.

pub mod message;

use leptos::html::Div;
use leptos::prelude::*;
use parallel_core::lesson::{eight_gpu_plans, sixty_four_gpu_plans};
use parallel_core::link::{self, GridId, Origin, Refusal, Widget};
use parallel_core::{Plan, Traffic};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use crate::kit::charts::{BubbleChart, MemoryChart, TrafficChart};
use crate::kit::grid_kit::GridKit;
use crate::kit::grid_section::GridLabView;
use crate::kit::i18n::{use_lang, T};
use crate::kit::lesson_table::LessonTable;
use crate::kit::real_configs::llama::LlamaTable;
use crate::kit::share::widget_title;
use crate::state::lab::GridLab;
use crate::state::later::LaterPart;
use crate::state::permalink::PageState;
use crate::state::split::split_part;

/// The window that frames this one; `None` for a page that is not framed (its parent is
/// itself).
fn parent_window() -> Option<web_sys::Window> {
    let me = window();
    me.parent()
        .ok()
        .flatten()
        .filter(|parent| !js_sys::Object::is(parent.as_ref(), me.as_ref()))
}

/// A plain object of a message to the parent: its `type` and data fields (strings and
/// numbers only).
fn message(kind: &str, fields: &[(&str, JsValue)]) -> js_sys::Object {
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &kind.into());
    for (key, value) in fields {
        let _ = js_sys::Reflect::set(&message, &(*key).into(), value);
    }
    message
}

/// The message posted to the parent: `{type: "parallel-lab:height", widget, height}`.
/// Data only: a widget id and a number of pixels.
fn post_height(widget: Widget, height: f64) {
    let Some(parent) = parent_window() else {
        return;
    };
    let message = message(
        link::HEIGHT,
        &[
            ("widget", widget.id().into()),
            ("height", JsValue::from_f64(height.ceil())),
        ],
    );
    let _ = parent.post_message(&message, "*");
}

/// The answer to a refused `set`, to the parent that sent it and to its origin only:
/// `{type: "parallel-lab:error", widget, field, reason, message}`, the core's refusal as text
/// (`field` the field's key, `reason` one of four words, `message` one English line).
fn post_refusal(widget: Widget, refusal: &Refusal, sender_origin: &str) {
    let Some(parent) = parent_window() else {
        return;
    };
    let message = message(
        link::ERROR,
        &[
            ("widget", widget.id().into()),
            ("field", refusal.key().into()),
            ("reason", refusal.reason().id().into()),
            ("message", refusal.to_string().into()),
        ],
    );
    // A page opened from a file has the origin "null", which no target names.
    let target = if sender_origin == "null" {
        "*"
    } else {
        sender_origin
    };
    let _ = parent.post_message(&message, target);
}

/// Whether a message is one to act on: from the window that embeds this one (never true for a
/// page that is not framed), and, where the link names the course page (`parent=`), from that
/// origin.
fn from_parent(event: &web_sys::MessageEvent, parent: Option<&Origin>) -> bool {
    let from_window = match (event.source(), parent_window()) {
        (Some(source), Some(window)) => js_sys::Object::is(&source, window.as_ref()),
        _ => false,
    };
    from_window && parent.is_none_or(|origin| origin.is(&event.origin()))
}

/// One widget, alone.
#[component]
pub fn EmbedView(page: PageState, widget: Widget) -> impl IntoView {
    let lang = use_lang();
    let root = NodeRef::<Div>::new();
    Effect::new(move |_| {
        let Some(element) = root.get() else { return };
        let observed: web_sys::Element = element.clone().into();
        let report = Closure::<dyn Fn()>::new(move || {
            post_height(widget, observed.get_bounding_client_rect().height());
        });
        if let Ok(observer) = web_sys::ResizeObserver::new(report.as_ref().unchecked_ref()) {
            observer.observe(&element);
        }
        report.forget();
    });
    // Course text can drive the widget: `postMessage({type: "parallel-lab:set", plan})` from
    // the parent page. Only the embedding window is heard, and only at the origin the link names
    // (`parent=`), if it names one: a sibling frame, another tab, the widget itself or a course
    // page elsewhere cannot move the grid, and gets no answer (issue 50). A plan object is
    // taken whole or refused, the refusal answered with the field at fault; a string is read
    // as a link (what is not used is named in the notice). A first screen rendered at build
    // time hears nothing: there is no window then.
    if let Some(grid) = widget
        .grid()
        .filter(|_| crate::state::prerender::in_browser())
    {
        let lab = match grid {
            GridId::Eight => page.lab8,
            GridId::SixtyFour => page.lab64,
        };
        let messages = message::SetMessages::default();
        let on_message =
            Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
                let heard = page
                    .parent
                    .with_value(|parent| from_parent(&event, parent.as_ref()));
                if !heard {
                    return;
                }
                let data = event.data();
                let kind = js_sys::Reflect::get(&data, &"type".into())
                    .ok()
                    .and_then(|t| t.as_string());
                if kind.as_deref() != Some(link::SET) {
                    return;
                }
                let plan =
                    js_sys::Reflect::get(&data, &"plan".into()).unwrap_or(JsValue::UNDEFINED);
                messages.apply(lab, grid, &plan, move |answer| match answer {
                    Ok(notices) => page.notices.set(notices),
                    Err(refusal) => post_refusal(widget, &refusal, &event.origin()),
                });
            });
        let _ = window()
            .add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
        on_message.forget();
    }
    let lab64 = page.lab64;
    let plan64: Signal<Plan> = lab64.plan.into();
    let traffic64: Signal<Vec<Traffic>> = lab64.traffic.into();
    let body = match widget {
        Widget::Grid8 => {
            view! { <GridLabView lab=page.lab8 grid=GridId::Eight kit=GridKit::embedded(page.controls, page.parts) /> }
                .into_any()
        }
        Widget::Grid64 => {
            view! { <GridLabView lab=lab64 grid=GridId::SixtyFour kit=GridKit::embedded(page.controls, page.parts) /> }
                .into_any()
        }
        Widget::Table8 => view! { <LaterPart load=move || table_8(page.lab8) /> }.into_any(),
        Widget::Table64 => view! { <LaterPart load=move || table_64(lab64) /> }.into_any(),
        Widget::Llama3 => view! { <LaterPart load=llama_3 /> }.into_any(),
        Widget::ChartMemory64 => view! { <LaterPart load=move || chart_memory(plan64) /> }.into_any(),
        Widget::ChartBubble64 => view! { <LaterPart load=move || chart_bubble(plan64) /> }.into_any(),
        Widget::ChartTraffic64 => {
            view! { <LaterPart load=move || chart_traffic(traffic64) /> }.into_any()
        }
    };
    let section = match widget.grid() {
        Some(GridId::Eight) => "section-8",
        Some(GridId::SixtyFour) | None => "section-64",
    };
    view! {
        <div class="embedded" node_ref=root data-testid="embed-root" data-widget=widget.id()>
            <h1 class="sr-only">{move || widget_title(lang.get(), widget)}</h1>
            <section data-testid=section>{body}</section>
        </div>
    }
}

/// The embed entry point (`embed.html`, the `parallel-embed` binary): the widget its link names
/// (`#…&embed=WIDGET`) and nothing of the lesson around it, so a course page that frames one
/// widget loads that widget's code only.
///
/// Where a link lands is the core's `link::landing`: a link that names no widget is sent, before
/// this is mounted, to the page that shows its content (`pages::land`); should one reach this
/// anyway (its redirect refused), it shows the link's notice and the way to the lesson.
#[component]
pub fn EmbedApp() -> impl IntoView {
    let (page, state) = crate::state::start::start_page(parallel_core::link::Entry::Embed);
    match state.embed {
        Some(widget) => embedded(page, widget),
        None => no_widget(page),
    }
}

/// `embed.html` with a link that names no widget: the notice and a link to the whole page.
fn no_widget(page: PageState) -> AnyView {
    let whole_page = format!(
        "index.html{}",
        window().location().hash().unwrap_or_default()
    );
    view! {
        <crate::kit::share::LinkNotice page=page />
        <div class="embedded" data-testid="embed-root">
            <p>
                <a href=whole_page data-testid="embed-whole-page">
                    <T zh="打开完整的并行实验室" en="Open the whole Parallel Lab" />
                </a>
            </p>
        </div>
    }
    .into_any()
}

/// The page in embed mode: `<html class="embedded-page">`, the link's notice and the widget
/// (`EmbedApp`'s, for a link that names one).
fn embedded(page: PageState, widget: Widget) -> AnyView {
    // Also set before anything is painted, for the first screen (`assets/landing.js`).
    if let Some(root) = crate::state::prerender::in_browser()
        .then(|| document().document_element())
        .flatten()
    {
        let _ = root.class_list().add_1("embedded-page");
    }
    view! {
        <crate::kit::share::LinkNotice page=page />
        <EmbedView page=page widget=widget />
    }
    .into_any()
}

// The widgets other than a grid, each from a split module (`crate::state::split`): a course
// page that frames a grid, the usual widget, waits for no table's or chart's code.

split_part! { in embed_tables;
    /// The lesson's 8-card table.
    fn table_8(lab: GridLab) { view! { <LessonTable test_id="table-8" plans=eight_gpu_plans() lab=lab /> } }
}

split_part! { in embed_tables;
    /// The lesson's 64-card table.
    fn table_64(lab: GridLab) { view! { <LessonTable test_id="table-64" plans=sixty_four_gpu_plans() lab=lab /> } }
}

split_part! { in embed_tables;
    /// The Llama 3 table.
    fn llama_3() { view! { <LlamaTable /> } }
}

split_part! { in embed_charts;
    /// Memory per card under ZeRO 0–3, of the 64-card plan.
    fn chart_memory(plan: Signal<Plan>) { view! { <MemoryChart plan=plan /> } }
}

split_part! { in embed_charts;
    /// The bubble against m, of the 64-card plan.
    fn chart_bubble(plan: Signal<Plan>) { view! { <BubbleChart plan=plan /> } }
}

split_part! { in embed_charts;
    /// Traffic per card per dimension, of the 64-card plan.
    fn chart_traffic(traffic: Signal<Vec<Traffic>>) { view! { <TrafficChart traffic=traffic /> } }
}
