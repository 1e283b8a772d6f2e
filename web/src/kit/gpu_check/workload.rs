//! The first half of the panel: the card's workload as the file `parallel-lab check --emit`
//! prints (the core's `Plan::workload`, pretty JSON), downloaded by a button; the measuring
//! program `check.py` (shipped beside the page); and the one command that runs them, with a
//! copy button.

use leptos::prelude::*;
use parallel_core::check::Workload;
use parallel_core::{Plan, PlanError};
use wasm_bindgen::{JsCast, JsValue};

use super::text;
use crate::kit::i18n::use_lang;
use crate::kit::share::copy_text;

/// The workload file's name for card `card`.
pub fn file_name(card: u32) -> String {
    format!("workload-card-{card}.json")
}

/// The command that measures card `card`'s workload.
pub fn command(card: u32) -> String {
    format!("python3 check.py {}", file_name(card))
}

/// Card `card`'s workload as the CLI writes it: pretty JSON and a final newline.
pub fn workload_text(plan: &Plan, card: u32) -> Result<String, PlanError> {
    let workload = plan.workload(card)?;
    Ok(json_of(&workload))
}

/// A workload as pretty JSON with a final newline (a workload always serialises: its fields
/// are numbers, text and enums).
pub fn json_of(workload: &Workload) -> String {
    let mut text = serde_json::to_string_pretty(workload).unwrap_or_default();
    text.push('\n');
    text
}

/// Hands `text` to the browser as a download named `name` (a Blob behind a link clicked once).
fn download(name: &str, text: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let link: web_sys::HtmlAnchorElement = document().create_element("a")?.unchecked_into();
    link.set_href(&url);
    link.set_download(name);
    link.click();
    // The browser has taken the file once the click is handled; the address is let go later.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(30),
    );
    Ok(())
}

/// The downloads and the command for card `card` of `plan` (a valid plan: the panel shows the
/// plan's error instead of this while the grid's config is refused).
#[component]
pub fn WorkloadSteps(plan: Memo<Plan>, card: Memo<u32>) -> impl IntoView {
    let lang = use_lang();
    let copied = RwSignal::new(None::<bool>);
    Effect::new(move |_| {
        card.track();
        copied.set(None);
    });
    let on_download = move |_| {
        let card = card.get_untracked();
        if let Ok(text) = plan.with_untracked(|p| workload_text(p, card)) {
            let _ = download(&file_name(card), &text);
        }
    };
    let on_copy = move |_| {
        let text = command(card.get_untracked());
        leptos::task::spawn_local(async move {
            copied.set(Some(copy_text(text).await));
        });
    };
    view! {
        <li>
            {move || text::STEP_DOWNLOAD.get(lang.get())}
            <span class="gpu-check-downloads">
                <button type="button" class="small" data-testid="gpu-check-download" on:click=on_download>
                    {move || text::DOWNLOAD.fill(lang.get(), &[("file", &file_name(card.get()))])}
                </button>
                <a href="check.py" download="check.py" data-testid="gpu-check-script">{move || text::SCRIPT.get(lang.get())}</a>
            </span>
        </li>
        <li>
            {move || text::STEP_RUN.get(lang.get())}
            <pre class="command" data-testid="gpu-check-command">{move || command(card.get())}</pre>
            <button type="button" class="small" data-testid="gpu-check-copy" on:click=on_copy>
                {move || text::COPY.get(lang.get())}
            </button>
            {move || copied.get().map(|ok| view! {
                <span class="share-status" role="status">
                    {move || if ok { text::COPIED.get(lang.get()) } else { text::COPY_REFUSED.get(lang.get()) }}
                </span>
            })}
        </li>
    }
}
