//! "Your own model": a Hugging Face `config.json` pasted (or dropped) into the page becomes the
//! grid's model, counted by the core exactly as `parallel-lab model` counts it. A config the
//! counter cannot read gets one message naming the field, in the page's language, and the
//! previous model stays.

use leptos::prelude::*;
use parallel_core::hf::HfConfig;
use parallel_core::numbers::thousands;
use parallel_core::{Field, ModelChoice};

use crate::kit::error_text::explain;
use crate::kit::i18n::{use_lang, Lang};
use crate::kit::text::Text;
use crate::state::lab::GridLab;

/// The box's sentences.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// A config that is not JSON.
        pub const NOT_JSON: Text = Text {
            zh: "这不是一段 JSON：请粘贴模型的 config.json 全文。",
            en: "That is not JSON: paste the whole config.json of the model.",
        };
        /// JSON that is not a config object (a field of the wrong type, or not an object).
        pub const NOT_CONFIG: Text = Text {
            zh: "这段 JSON 不是一份模型的 config.json：有字段的类型不对。",
            en: "That JSON is not a model's config.json: a field has the wrong type.",
        };
        /// A config read and counted, on a grid.
        pub const COUNTED: Text = Text {
            zh: "已读入：{params} 个参数，网格里现在是这个模型。",
            en: "Read: {params} parameters; the grid now uses this model.",
        };
        /// The grid's box, folded.
        pub const SUMMARY: Text = Text {
            zh: "你自己的模型：粘贴或拖入 config.json",
            en: "Your own model: paste or drop a config.json",
        };
        /// The text area's name.
        pub const AREA: Text = Text {
            zh: "模型的 config.json",
            en: "The model's config.json",
        };
        /// The button that reads the pasted text.
        pub const USE: Text = Text {
            zh: "用这个模型",
            en: "Use this model",
        };
    }
}

/// What reading a pasted config gave: the model to use and its count, or why not.
pub fn read_config(lang: Lang, json: &str) -> Result<(ModelChoice, u64), String> {
    let Ok(value) = js_value(json) else {
        return Err(text::NOT_JSON.get(lang).to_string());
    };
    let config: HfConfig = value.map_err(|_| text::NOT_CONFIG.get(lang).to_string())?;
    let model = config.to_model().map_err(|e| explain(lang, &e))?;
    Ok((ModelChoice::Inline(model.model), model.params))
}

/// Parses JSON text into a config: `Err(())` when it is not JSON at all, `Ok(Err(reason))`
/// when it is JSON but not a config object.
fn js_value(json: &str) -> Result<Result<HfConfig, String>, ()> {
    let value = js_sys::JSON::parse(json).map_err(|_| ())?;
    Ok(serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string()))
}

/// The paste box under a grid's model picker: a config read here becomes the grid's model.
#[component]
pub fn OwnModel(lab: GridLab) -> impl IntoView {
    let on_model =
        Callback::new(move |model: ModelChoice| lab.edit(Field::Model, |c| c.model = model));
    view! {
        <ConfigPaste
            test_id="model-config"
            summary=text::SUMMARY
            counted=text::COUNTED
            on_model=on_model
        />
    }
}

/// A box that takes a pasted or dropped `config.json` and hands the model it counts to
/// `on_model`; a config it cannot read leaves the previous model and says why. `test_id`
/// names the text area; its button, result and message are `{test_id}-apply`, `-result` and
/// `-error`. `counted` is the sentence after a config is read (`{params}` is filled).
#[component]
pub fn ConfigPaste(
    test_id: &'static str,
    summary: Text,
    counted: Text,
    on_model: Callback<ModelChoice>,
) -> impl IntoView {
    let lang = use_lang();
    let pasted = RwSignal::new(String::new());
    let outcome = RwSignal::new(None::<Result<u64, String>>);
    let use_text = move || {
        let lang = lang.get_untracked();
        match read_config(lang, &pasted.get_untracked()) {
            Ok((model, params)) => {
                on_model.run(model);
                outcome.set(Some(Ok(params)));
            }
            Err(reason) => outcome.set(Some(Err(reason))),
        }
    };
    let apply = move |_| use_text();
    // A config.json file dropped on the box is read and used at once.
    let on_drop = move |event: leptos::ev::DragEvent| {
        event.prevent_default();
        let Some(file) = event
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        else {
            return;
        };
        wasm_bindgen_futures::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
            if let Some(text) = text.ok().and_then(|t| t.as_string()) {
                pasted.set(text);
                use_text();
            }
        });
    };
    view! {
        <details class="own-model">
            <summary>{move || summary.get(lang.get())}</summary>
            <textarea
                data-testid=test_id
                rows="5"
                aria-label=move || text::AREA.get(lang.get())
                prop:value=move || pasted.get()
                on:input=move |event| pasted.set(event_target_value(&event))
                on:dragover=move |event: leptos::ev::DragEvent| event.prevent_default()
                on:drop=on_drop
            ></textarea>
            <button type="button" class="small" data-testid=format!("{test_id}-apply") on:click=apply>
                {move || text::USE.get(lang.get())}
            </button>
            {move || outcome.get().map(|result| match result {
                Ok(params) => view! {
                    <p class="own-model-result" role="status" data-testid=format!("{test_id}-result") data-params=params.to_string()>
                        {counted.fill(lang.get(), &[("params", &thousands(params as f64))])}
                    </p>
                }.into_any(),
                Err(reason) => view! {
                    <p class="control-error" role="alert" data-testid=format!("{test_id}-error")>{reason}</p>
                }.into_any(),
            })}
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        assert_each_lang_uses_all(text::ALL, |lang| {
            text::NOT_JSON.get(lang);
            text::NOT_CONFIG.get(lang);
            text::COUNTED.fill(lang, &[("params", &thousands(8_030_261_248.0))]);
            text::SUMMARY.get(lang);
            text::AREA.get(lang);
            text::USE.get(lang);
        });
    }
}
