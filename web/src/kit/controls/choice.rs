//! A `<select>` of a grid's controls over typed options, with the core's reason under it when
//! it was moved last and the plan is refused.
//!
//! A select is written as an [`Options`] of typed values (a `Recompute`, a `Preset`, a ZeRO
//! stage…): each value with its words and its spelling in the DOM, how the plan holds one, and
//! how one is set. [`Options::erase`] turns it into the one non-generic [`Choice`] the page
//! draws, so that each value type costs two small closures, not a copy of the component. An
//! option's DOM value is read back by [`Choices::read`]: one no option spells is logged, never
//! taken for another value.

use std::sync::Arc;

use leptos::prelude::*;
use parallel_core::{Field, PlanConfig};

use crate::kit::choices::{Choices, UnknownOption};
use crate::kit::error_text::explain;
use crate::kit::i18n::use_lang;
use crate::state::lab::GridLab;

/// A select's typed options: (value, 中文, English) in order, the value's spelling as the
/// option's DOM value (its config or link word), the plan's value and how to set one.
pub(crate) struct Options<T: 'static> {
    pub(crate) options: Vec<(T, &'static str, &'static str)>,
    pub(crate) id: fn(T) -> &'static str,
    pub(crate) get: fn(&PlanConfig) -> T,
    pub(crate) set: fn(&mut PlanConfig, T),
}

/// The plan's value as its option's DOM value.
type Read = Arc<dyn Fn(&PlanConfig) -> &'static str + Send + Sync>;
/// Sets the value of the option with this DOM value.
type Write = Arc<dyn Fn(&mut PlanConfig, &str) -> Result<(), UnknownOption> + Send + Sync>;

/// The options with their types erased: what [`Choice`] draws.
#[derive(Clone)]
pub(crate) struct Erased {
    /// (DOM value, 中文, English).
    options: Vec<(&'static str, &'static str, &'static str)>,
    /// The plan's value as its option's DOM value.
    get: Read,
    /// Sets the value of the option with this DOM value (a value no option spells changes
    /// nothing and is named).
    set: Write,
}

impl<T: Copy + PartialEq + Send + Sync + 'static> Options<T> {
    /// The same options as [`Choice`] takes them.
    pub(crate) fn erase(self) -> Erased {
        let Options {
            options,
            id,
            get,
            set,
        } = self;
        let choices = Choices { list: options, id };
        Erased {
            options: choices
                .list
                .iter()
                .map(|(v, zh, en)| (id(*v), *zh, *en))
                .collect(),
            get: Arc::new(move |c| id(get(c))),
            set: Arc::new(move |c, chosen| choices.read(chosen).map(|value| set(c, value))),
        }
    }
}

impl<T: Copy + PartialEq + Send + Sync + 'static> From<Options<T>> for Erased {
    fn from(options: Options<T>) -> Erased {
        options.erase()
    }
}

/// A `<select>` over typed options.
#[component]
pub(crate) fn Choice(
    lab: GridLab,
    field: Field,
    test_id: &'static str,
    label_zh: &'static str,
    label_en: &'static str,
    #[prop(into)] options: Erased,
) -> impl IntoView {
    let lang = use_lang();
    let error = move || lab.error_for(field).map(|e| explain(lang.get(), &e));
    let Erased { options, get, set } = options;
    // This selector's own value, as its option's DOM value.
    let read = get.clone();
    let current = Memo::new(move |_| lab.config.with(|c| read(c)));
    let id = format!("{}-{}", test_id, lab.config.with_untracked(|c| c.gpus));
    let options = options
        .into_iter()
        .map(|(value, zh, en)| {
            view! {
                <option value=value selected=move || current.with(|c| *c == value)>
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
                    let mut unknown = None;
                    lab.edit(field, |c| unknown = set(c, &value).err());
                    if let Some(unknown) = unknown {
                        leptos::logging::error!("{test_id}: {unknown}");
                    }
                    // An option the config cannot take as it is ("your own model" before a
                    // config is pasted) does not stay selected: the select shows the config.
                    let shown = lab.config.with_untracked(|c| get(c));
                    if shown != value {
                        event_target::<web_sys::HtmlSelectElement>(&event).set_value(shown);
                    }
                }
            >
                {options}
            </select>
            {move || error().map(|message| view! { <p class="control-error" role="alert">{message}</p> })}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parallel_core::Recompute;

    fn recompute() -> Erased {
        Options {
            options: vec![
                (Recompute::Full, "全量", "full"),
                (Recompute::None, "不重计算", "none"),
            ],
            id: Recompute::as_str,
            get: |c| c.recompute,
            set: |c, v| c.recompute = v,
        }
        .erase()
    }

    #[test]
    fn an_option_s_dom_value_sets_its_typed_value_and_reads_back() {
        let erased = recompute();
        assert_eq!(
            erased.options,
            [("full", "全量", "full"), ("none", "不重计算", "none")]
        );
        let mut c = PlanConfig::default();
        assert_eq!((erased.set)(&mut c, "none"), Ok(()));
        assert_eq!(c.recompute, Recompute::None);
        assert_eq!((erased.get)(&c), "none");
        // A value that no option spells changes nothing, and is named.
        assert_eq!(
            (erased.set)(&mut c, "selective"),
            Err(UnknownOption {
                value: "selective".into()
            })
        );
        assert_eq!(c.recompute, Recompute::None);
    }
}
