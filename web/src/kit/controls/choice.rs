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
use parallel_core::{Field, PlanConfig, Recompute};

use crate::kit::choices::{Choices, UnknownOption};
use crate::kit::error_text::explain;
use crate::kit::i18n::use_lang;
use crate::state::lab::GridLab;

/// A select's typed options ([`Choices`]: each value with its words and its spelling as the
/// option's DOM value), the plan's value and how to set one.
pub(crate) struct Options<T: 'static> {
    pub(crate) choices: Choices<T>,
    pub(crate) get: fn(&PlanConfig) -> T,
    pub(crate) set: fn(&mut PlanConfig, T),
}

/// A ZeRO stage a select offers: 0 to 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZeroStage {
    /// Nothing sharded.
    Zero,
    /// Optimizer states sharded.
    One,
    /// And gradients.
    Two,
    /// And parameters.
    Three,
}

impl ZeroStage {
    /// Every stage, in order.
    pub const ALL: [ZeroStage; 4] = [
        ZeroStage::Zero,
        ZeroStage::One,
        ZeroStage::Two,
        ZeroStage::Three,
    ];

    /// The stage as the plan holds it (`zero`, link `z1`).
    pub const fn get(self) -> u8 {
        match self {
            ZeroStage::Zero => 0,
            ZeroStage::One => 1,
            ZeroStage::Two => 2,
            ZeroStage::Three => 3,
        }
    }

    /// The stage a plan holds, if it is one (the core refuses any other).
    pub(crate) fn of(stage: u8) -> Option<ZeroStage> {
        ZeroStage::ALL.into_iter().find(|z| z.get() == stage)
    }

    /// The stage as its option's DOM value: "0" … "3".
    pub const fn as_str(self) -> &'static str {
        match self {
            ZeroStage::Zero => "0",
            ZeroStage::One => "1",
            ZeroStage::Two => "2",
            ZeroStage::Three => "3",
        }
    }
}

/// The ZeRO stages, each with what it shards (the grid's select and decision ①'s).
pub(crate) fn zero_choices() -> Choices<ZeroStage> {
    Choices::named(&ZeroStage::ALL, ZeroStage::as_str, |z| match z {
        ZeroStage::Zero => ("0：不切", "0: none"),
        ZeroStage::One => ("1：切优化器状态", "1: optimizer states"),
        ZeroStage::Two => ("2：再切梯度", "2: + gradients"),
        ZeroStage::Three => ("3：再切参数", "3: + parameters"),
    })
}

/// The ways of keeping activations: full, selective, none (the grid's select and decision ①'s).
pub(crate) fn recompute_choices() -> Choices<Recompute> {
    Choices::named(
        &[Recompute::Full, Recompute::Selective, Recompute::None],
        Recompute::as_str,
        |r| match r {
            Recompute::Full => ("全量", "full"),
            Recompute::Selective => ("选择性", "selective"),
            Recompute::None => ("不重计算", "none"),
        },
    )
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
        let Options { choices, get, set } = self;
        let id = choices.id;
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

    fn recompute() -> Erased {
        let mut choices = recompute_choices();
        choices.list.retain(|(r, ..)| *r != Recompute::Selective);
        Options {
            choices,
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
