//! Sharing: the "copy link" button, the "embed" button with its `<iframe>` snippet, and the
//! notice that names what a link asked for but could not get.

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use parallel_core::link::{self, Controls, Origin, OriginError, Part, Parts, Widget};

use crate::kit::embed_picker::{ControlPicker, PartPicker};

use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::text::Text;
use crate::state::later::LaterPart;
use crate::state::permalink::{base_url, describe, embed_url, PageState};
use crate::state::split::split_part;

/// Copies `text` to the clipboard; false when the browser refuses (then the caller shows the
/// text selected for a manual copy).
pub(crate) async fn copy_text(text: String) -> bool {
    let clipboard = window().navigator().clipboard();
    JsFuture::from(clipboard.write_text(&text)).await.is_ok()
}

/// The height an embedded widget starts at, before it reports its own: a grid drawing `parts`
/// (one screen for its grid and figures, more with the table or charts).
fn initial_height(widget: Widget, parts: Parts) -> u32 {
    let more = parts.any_chart() || parts.contains(Part::Traffic) || parts.contains(Part::Estimate);
    match widget {
        Widget::Grid64 | Widget::Grid8 if !more => 1000,
        Widget::Grid64 => 1400,
        Widget::Grid8 => 1100,
        Widget::ChartMemory64 | Widget::ChartBubble64 | Widget::ChartTraffic64 => 420,
        Widget::Table8 | Widget::Table64 | Widget::Llama3 => 360,
    }
}

/// What a widget shows, after "Parallel Lab: " in its title (中文, English).
fn widget_subject(widget: Widget) -> (&'static str, &'static str) {
    match widget {
        Widget::Grid8 => ("8 卡设备网格", "the 8-GPU device grid"),
        Widget::Grid64 => ("64 卡设备网格", "the 64-GPU device grid"),
        Widget::Table8 => ("8 卡方案对照表", "the 8-GPU plans"),
        Widget::Table64 => ("64 卡方案对照表", "the 64-GPU plans"),
        Widget::Llama3 => ("Llama 3 的并行配置", "Llama 3's parallel configurations"),
        Widget::ChartMemory64 => ("每卡显存图", "memory per card chart"),
        Widget::ChartBubble64 => ("流水线气泡图", "pipeline bubble chart"),
        Widget::ChartTraffic64 => ("每卡通信图", "traffic per card chart"),
    }
}

/// The title of a widget, for the iframe's `title` (read by screen readers).
pub fn widget_title(lang: Lang, widget: Widget) -> String {
    let (zh, en) = widget_subject(widget);
    TITLE.fill(lang, &[("widget", &lang.pick(zh, en))])
}

/// A widget's iframe title.
const TITLE: Text = Text {
    zh: "并行实验室：{widget}",
    en: "Parallel Lab: {widget}",
};

/// The label of a widget's embed button.
fn embed_label(lang: Lang, widget: Widget) -> &'static str {
    match widget {
        Widget::Grid8 | Widget::Grid64 => lang.pick("嵌入这个网格", "Embed this grid"),
        Widget::Table8 | Widget::Table64 => lang.pick("嵌入这张表", "Embed this table"),
        Widget::Llama3 => lang.pick("嵌入 Llama 3 表", "Embed the Llama 3 table"),
        Widget::ChartMemory64 => lang.pick("嵌入显存图", "Embed the memory chart"),
        Widget::ChartTraffic64 => lang.pick("嵌入通信图", "Embed the traffic chart"),
        Widget::ChartBubble64 => lang.pick("嵌入气泡图", "Embed the bubble chart"),
    }
}

/// `text` for an attribute value quoted with `"` in the snippet's HTML.
fn quoted(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The snippet a teacher pastes: the iframe, and a few lines that let the widget size it (a
/// height is believed only from the iframe's own window at the iframe's origin). It is
/// text for another page: this one shows it as a `<textarea>`'s value and copies it, never
/// parses it. Its URL carries the plan, so the URL and the title are quoted for the HTML it is
/// pasted into.
pub fn embed_snippet(url: &str, title: &str, height: u32) -> String {
    let attr = quoted;
    format!(
        "<iframe src=\"{}\" title=\"{}\" data-parallel-lab style=\"width:100%;border:0\" height=\"{height}\" loading=\"lazy\"></iframe>\n\
         <script>addEventListener(\"message\",function(e){{var d=e.data;if(!d||d.type!==\"{kind}\")return;\
         document.querySelectorAll(\"iframe[data-parallel-lab]\").forEach(function(f){{if(f.contentWindow===e.source&&new URL(f.src,location.href).origin===e.origin&&d.height>0)f.style.height=d.height+\"px\"}})}})</script>",
        attr(url),
        attr(title),
        kind = link::HEIGHT,
    )
}

/// "Copy link": the page's whole state as a URL.
#[component]
pub fn CopyLink(page: PageState) -> impl IntoView {
    let copied = RwSignal::new(None::<bool>);
    let shown = RwSignal::new(String::new());
    let on_click = move |_| {
        let url = format!("{}#{}", base_url(), page.fragment());
        shown.set(url.clone());
        leptos::task::spawn_local(async move {
            copied.set(Some(copy_text(url).await));
        });
    };
    view! {
        <div class="share">
            <button type="button" class="share-button" data-testid="copy-link" on:click=on_click>
                <T zh="复制链接" en="Copy link" />
            </button>
            {move || copied.get().map(|ok| if ok {
                view! { <span class="share-status" role="status"><T zh="已复制" en="Copied" /></span> }.into_any()
            } else {
                view! {
                    <input class="share-fallback" readonly data-testid="copy-link-text" prop:value=move || shown.get()
                        on:focus=move |ev| { event_target::<web_sys::HtmlInputElement>(&ev).select(); } />
                }.into_any()
            })}
        </div>
    }
}

/// Why the course page's address does not give an origin, beside its field (中文, English).
fn origin_error(error: OriginError) -> (&'static str, &'static str) {
    match error {
        OriginError::Scheme => ("地址要以 http:// 或 https:// 开头。", "The address must start with http:// or https://."),
        OriginError::Host => (
            "网站名缺失，或含有网站名不会有的字符（中文域名请写成 xn-- 形式）。",
            "The site's name is missing or has a character a host name does not have (write an international name in its xn-- form).",
        ),
        OriginError::Port => ("端口要是 1 到 65535 之间的数。", "The port must be a number from 1 to 65535."),
        OriginError::Path => ("源只到网站名和端口为止，不带路径。", "An origin ends after the site's name and port, with no path."),
        OriginError::TooLong => ("太长，不像一个网站地址。", "Too long for a site's address."),
    }
}

/// The course page's address, for a widget that takes messages: the snippet then names its
/// origin (`parent=`), and the widget takes messages from that site only. Empty: none named.
#[component]
fn CourseAddress(widget: Widget, address: RwSignal<String>) -> impl IntoView {
    let lang = use_lang();
    let error = move || address.with(|text| course_origin(text).err());
    view! {
        <label class="embed-parent">
            <span class="caption">
                <T zh="课程页面的地址（可选；填上后，挂件只听这个网站发来的消息）："
                    en="Your course page's address (optional; with it, the widget takes messages from that site only):" />
            </span>
            <input type="url" data-testid=format!("embed-parent-{}", widget.id())
                placeholder="https://course.example.org/lesson.html"
                prop:value=move || address.get()
                on:input=move |ev| address.set(event_target_value(&ev)) />
        </label>
        {move || error().map(|e| view! {
            <p class="control-error" role="alert" data-testid=format!("embed-parent-error-{}", widget.id())>
                {move || {
                    let (zh, en) = origin_error(e);
                    lang.get().pick(zh, en)
                }}
            </p>
        })}
    }
}

/// The origin of the course page's address as typed; `None` while the field is empty.
fn course_origin(address: &str) -> Result<Option<Origin>, OriginError> {
    if address.trim().is_empty() {
        Ok(None)
    } else {
        Origin::of_page(address).map(Some)
    }
}

/// "Embed": shows the `<iframe>` snippet of one widget in its current state, with a copy button;
/// for a grid, with the controls and parts the teacher ticks (`controls=`, the lesson's by
/// default; `parts=`, the grid and its figures by default).
#[component]
pub fn EmbedButton(page: PageState, widget: Widget) -> impl IntoView {
    let lang = use_lang();
    let open = RwSignal::new(false);
    // What the teacher picked, kept while the panel is closed.
    let choice = EmbedChoice {
        copied: RwSignal::new(false),
        picked: RwSignal::new(Controls::LESSON),
        drawn: RwSignal::new(Parts::EMBED),
        address: RwSignal::new(String::new()),
    };
    view! {
        <div class="embed-share">
            <button type="button" class="small" data-testid=format!("embed-{}", widget.id())
                aria-expanded=move || open.get().to_string()
                on:click=move |_| { open.update(|o| *o = !*o); choice.copied.set(false); }>
                {move || embed_label(lang.get(), widget)}
            </button>
            {move || open.get().then(|| view! {
                <LaterPart load=move || embed_panel(page, widget, choice) />
            })}
        </div>
    }
}

/// What the teacher picked in a widget's embed panel.
#[derive(Clone, Copy)]
pub struct EmbedChoice {
    /// The snippet was just copied.
    copied: RwSignal<bool>,
    /// The controls the widget shows.
    picked: RwSignal<Controls>,
    /// The parts the widget draws.
    drawn: RwSignal<Parts>,
    /// The course page's address, as typed.
    address: RwSignal<String>,
}

split_part! { in share;
    /// The embed panel, from a split module of its own: fetched when a teacher first opens one.
    fn embed_panel(page: PageState, widget: Widget, choice: EmbedChoice) {
        view! { <EmbedPanel page=page widget=widget choice=choice /> }
    }
}

/// A widget's embed panel: the pickers, the snippet and its copy button.
#[component]
fn EmbedPanel(page: PageState, widget: Widget, choice: EmbedChoice) -> impl IntoView {
    let lang = use_lang();
    let EmbedChoice {
        copied,
        picked,
        drawn,
        address,
    } = choice;
    // The panel opens under its button, which may sit at the bottom of the screen: it is
    // scrolled into view whole once drawn.
    let panel = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        if let Some(element) = panel.get() {
            crate::state::scroll::show_whole(element.into());
        }
    });
    let snippet = move || {
        // The embed entry point: the widget without the lesson around it, with the controls
        // picked (none written when they are the lesson's, the widget's default).
        let controls = picked.get();
        let controls =
            (widget.grid().is_some() && controls != Controls::LESSON).then_some(controls);
        // The parts likewise (none written when they are the grid and its figures).
        let parts = drawn.get();
        let parts = (widget.grid().is_some() && parts != Parts::EMBED).then_some(parts);
        // The course page's origin, when its address reads (an error beside the field
        // otherwise, and none named).
        let parent = address.with(|text| course_origin(text).ok().flatten());
        let url = format!(
            "{}#{}",
            embed_url(),
            page.embed_fragment(widget, controls, parts, parent)
        );
        embed_snippet(
            &url,
            &widget_title(lang.get(), widget),
            initial_height(widget, parts.unwrap_or(Parts::EMBED)),
        )
    };
    view! {
        <div class="embed-box" node_ref=panel>
            {widget.grid().is_some().then(|| view! { <ControlPicker widget=widget picked=picked /> })}
            {widget.grid().is_some().then(|| view! { <PartPicker widget=widget picked=drawn /> })}
            {widget.grid().is_some().then(|| view! { <CourseAddress widget=widget address=address /> })}
            <label>
                <span class="caption"><T zh="把这段代码贴进任何静态 HTML 页面：" en="Paste this into any static HTML page:" /></span>
                <textarea readonly rows="4" data-testid=format!("embed-code-{}", widget.id()) prop:value=snippet
                    on:focus=move |ev| { event_target::<web_sys::HtmlTextAreaElement>(&ev).select(); }></textarea>
            </label>
            <button type="button" class="small" data-testid=format!("embed-copy-{}", widget.id()) on:click=move |_| {
                let text = snippet();
                leptos::task::spawn_local(async move { copied.set(copy_text(text).await); });
            }>
                {move || if copied.get() { lang.get().pick("已复制", "Copied") } else { lang.get().pick("复制代码", "Copy the code") }}
            </button>
        </div>
    }
}

/// What the link asked for but did not get, dismissable.
#[component]
pub fn LinkNotice(page: PageState) -> impl IntoView {
    let lang = use_lang();
    move || {
        let notices = page.notices.get();
        (!notices.is_empty()).then(|| {
            let items = notices
                .iter()
                .map(|n| view! { <li>{describe(lang.get(), n)}</li> })
                .collect_view();
            view! {
                <aside class="link-notice" role="status" data-testid="link-notice">
                    <p>
                        <strong><T zh="链接里有几处没有用上，" en="Parts of this link were not used; " /></strong>
                        <T zh="其余照常载入，这几处保持默认：" en="the rest is loaded and these stay at their defaults:" />
                    </p>
                    <ul>{items}</ul>
                    <button type="button" class="small" data-testid="link-notice-dismiss" on:click=move |_| page.notices.set(Vec::new())>
                        <T zh="知道了" en="Dismiss" />
                    </button>
                </aside>
            }
        })
    }
}

/// An embed button for `widget`, when the page's state is in context and the page is not
/// itself embedded.
#[component]
pub fn EmbedHere(widget: Widget) -> impl IntoView {
    use_context::<PageState>()
        .filter(|page| page.embed.is_none())
        .map(|page| view! { <EmbedButton page=page widget=widget /> })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snippet_quotes_the_four_characters_that_end_a_value_or_a_tag() {
        assert_eq!(
            quoted(r#"卡 1 <a & "b">"#),
            "卡 1 &lt;a &amp; &quot;b&quot;&gt;"
        );
        let snippet = embed_snippet("https://x/embed.html#g8=tp2&embed=grid-8", "a \"b\"", 400);
        assert!(snippet.starts_with(
            r#"<iframe src="https://x/embed.html#g8=tp2&amp;embed=grid-8" title="a &quot;b&quot;""#
        ));
        assert!(snippet.contains(r#"d.type!=="parallel-lab:height""#));
    }

    #[test]
    fn every_widget_has_its_title() {
        assert_eq!(
            widget_title(Lang::En, Widget::Grid8),
            "Parallel Lab: the 8-GPU device grid"
        );
        assert_eq!(
            widget_title(Lang::Zh, Widget::ChartBubble64),
            "并行实验室：流水线气泡图"
        );
        for widget in Widget::ALL {
            for lang in [Lang::Zh, Lang::En] {
                assert!(!widget_title(lang, widget).contains('{'));
            }
        }
    }

    #[test]
    fn the_course_address_gives_an_origin_or_says_why_not() {
        assert_eq!(course_origin("  "), Ok(None));
        assert_eq!(
            course_origin("https://course.example.org/week1/tp.html")
                .unwrap()
                .map(|o| o.to_string()),
            Some("https://course.example.org".to_string())
        );
        for (address, error) in [
            ("course.example.org", OriginError::Scheme),
            ("https://例子.cn/", OriginError::Host),
            ("https://x.org:99999/", OriginError::Port),
        ] {
            assert_eq!(course_origin(address), Err(error));
            let (zh, en) = origin_error(error);
            assert!(!zh.is_empty() && !en.is_empty());
        }
    }
}
