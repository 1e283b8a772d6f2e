//! A `<select>` of a grid's controls over fixed options, with the core's reason under it when
//! it was moved last and the plan is refused.

use leptos::prelude::*;
use parallel_core::PlanConfig;

use crate::error_text::explain;
use crate::i18n::use_lang;
use crate::lab::GridLab;

/// A `<select>` over fixed options.
#[component]
pub(crate) fn Choice(
    lab: GridLab,
    field: &'static str,
    test_id: &'static str,
    label_zh: &'static str,
    label_en: &'static str,
    /// (value, 中文, English)
    options: Vec<(&'static str, &'static str, &'static str)>,
    get: fn(&PlanConfig) -> String,
    set: fn(&mut PlanConfig, &str),
) -> impl IntoView {
    let lang = use_lang();
    let error = move || lab.error_for(field).map(|e| explain(lang.get(), &e));
    // This selector's own value, as its option's value.
    let current = Memo::new(move |_| lab.config.with(get));
    let id = format!("{}-{}", test_id, lab.config.with_untracked(|c| c.gpus));
    let options = options
        .into_iter()
        .map(|(value, zh, en)| {
            view! {
                <option value=value selected=move || current.with(|c| c == value)>
                    {move || lang.get().pick(zh, en)}
                </option>
            }
        })
        .collect_view();
    view! {
        <div class="control" class:invalid=move || error().is_some()>
            <label for=id.clone()>
                <span class="control-name">{move || lang.get().pick(label_zh, label_en)}</span>
            </label>
            <select
                id=id
                data-testid=test_id
                prop:value=move || current.get()
                on:change=move |event| {
                    let value = event_target_value(&event);
                    lab.edit(field, |c| set(c, &value));
                    // An option the config cannot take as it is ("your own model" before a
                    // config is pasted) does not stay selected: the select shows the config.
                    let shown = lab.config.with_untracked(get);
                    if shown != value {
                        event_target::<web_sys::HtmlSelectElement>(&event).set_value(&shown);
                    }
                }
            >
                {options}
            </select>
            {move || error().map(|message| view! { <p class="control-error" role="alert">{message}</p> })}
        </div>
    }
}
