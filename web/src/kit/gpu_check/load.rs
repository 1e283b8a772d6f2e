//! The second half of the panel's steps: a measured file brought back, chosen with a file
//! input, dropped on the box or pasted, and read by the core (`Measured::read`). A file the
//! core refuses is named by its field (`Refused`); the panel shows it in place of the
//! comparison.

use leptos::prelude::*;
use parallel_core::check::{CheckError, Measured};
use wasm_bindgen::JsCast;

use super::text;
use crate::kit::i18n::{use_lang, Lang};

/// Why a file brought back shows no comparison.
#[derive(Clone, Debug, PartialEq)]
pub enum Refused {
    /// The core refused the file (or its plan), at a field.
    File(CheckError),
    /// The browser could not hand over the file's text.
    Unreadable,
}

impl Refused {
    /// The reason in `lang`: the core's `CheckError` sentence (in English the CLI's line,
    /// after its `--measured:`), naming the field.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Refused::Unreadable => text::UNREADABLE.get(lang).to_owned(),
            Refused::File(error) => error.text(lang),
        }
    }

    /// The field at fault, if one is.
    pub fn field(&self) -> &str {
        match self {
            Refused::File(error) => &error.field,
            Refused::Unreadable => "",
        }
    }
}

/// What the last file brought back gave: the measurement read, or why not.
pub type Loaded = Option<Result<Measured, Refused>>;

/// The core's reading of a measured file's text.
pub fn read(text: &str) -> Result<Measured, Refused> {
    Measured::read(text).map_err(Refused::File)
}

/// Reads `file`'s text into `pasted` and then `loaded`.
fn read_file(file: web_sys::File, pasted: RwSignal<String>, loaded: RwSignal<Loaded>) {
    wasm_bindgen_futures::spawn_local(async move {
        let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
        match text.ok().and_then(|t| t.as_string()) {
            Some(text) => {
                loaded.set(Some(read(&text)));
                pasted.set(text);
            }
            None => loaded.set(Some(Err(Refused::Unreadable))),
        }
    });
}

/// The file input, the drop box and the paste box; `loaded` gets what each brings.
#[component]
pub fn MeasuredInput(gpus: u32, loaded: RwSignal<Loaded>) -> impl IntoView {
    let lang = use_lang();
    let pasted = RwSignal::new(String::new());
    let on_compare = move |_| loaded.set(Some(read(&pasted.get_untracked())));
    let on_file = move |event: leptos::ev::Event| {
        let Some(input) = event
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            read_file(file, pasted, loaded);
        }
        // The same file chosen again is read again.
        input.set_value("");
    };
    let on_drop = move |event: leptos::ev::DragEvent| {
        event.prevent_default();
        if let Some(file) = event
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        {
            read_file(file, pasted, loaded);
        }
    };
    let file_id = format!("gpu-check-file-{gpus}");
    let paste_id = format!("gpu-check-paste-{gpus}");
    view! {
        <div class="gpu-check-drop" data-testid="gpu-check-drop"
            on:dragover=move |event: leptos::ev::DragEvent| event.prevent_default()
            on:drop=on_drop>
            <label for=file_id.clone()>{move || text::FILE.get(lang.get())}</label>
            <input type="file" id=file_id accept=".json,application/json" data-testid="gpu-check-file" on:change=on_file />
            <label for=paste_id.clone()>{move || text::PASTE.get(lang.get())}</label>
            <textarea id=paste_id data-testid="gpu-check-paste" rows="5" spellcheck="false"
                prop:value=move || pasted.get()
                on:input=move |event| pasted.set(event_target_value(&event))></textarea>
            <button type="button" class="small" data-testid="gpu-check-compare" on:click=on_compare>
                {move || text::COMPARE.get(lang.get())}
            </button>
        </div>
    }
}
