//! The pieces the three decision forms share: the form around a decision with its "Check"
//! button and verdict box, labelled fields, the ✓/✗ mark, the line that loads a decided plan
//! into its grid.

use leptos::prelude::*;
use parallel_core::{Plan, PlanConfig, Recompute};

use crate::kit::choices::Choices;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::input::{parse_gb, InputError};
use crate::state::lab::GridLab;

/// The sentences the three forms share.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// A field whose input cannot be read, and why.
        pub const FIELD_PROBLEM: Text = Text {
            zh: "{field}：{problem}",
            en: "{field}: {problem}",
        };
        /// The decision's grid shows the student's plan.
        pub const GRID_SAME: Text = Text {
            zh: "{cards} 卡网格现在显示的正是这个方案。",
            en: "The {cards}-card grid shows exactly this plan right now.",
        };
        /// The decision's grid shows another plan.
        pub const GRID_OTHER: Text = Text {
            zh: "{cards} 卡网格现在显示的是另一个方案。",
            en: "The {cards}-card grid currently shows a different plan.",
        };
        /// The button that loads the student's plan into the grid.
        pub const LOAD: Text = Text {
            zh: "把我的方案放进 {cards} 卡网格",
            en: "Load my plan into the {cards}-card grid",
        };
    }
}

// ---------------------------------------------------------------------------------------------
// Views.
// ---------------------------------------------------------------------------------------------

pub fn mark(ok: bool) -> &'static str {
    if ok {
        "✓"
    } else {
        "✗"
    }
}

pub fn recompute_name(lang: Lang, recompute: Recompute) -> &'static str {
    match recompute {
        Recompute::Full => lang.pick("全量重计算", "full recompute"),
        Recompute::Selective => lang.pick("选择性重计算", "selective recompute"),
        Recompute::None => lang.pick("不重计算", "no recompute"),
    }
}

/// A `<select>` bound to a typed signal, with its label: the options are `choices`' values,
/// and the browser's DOM value is read back by [`Choices::read`]. One no option spells (a bug
/// of the page) is logged and the value stays.
#[component]
pub fn SelectField<T>(
    id: &'static str,
    label_zh: &'static str,
    label_en: &'static str,
    choices: Choices<T>,
    value: RwSignal<T>,
) -> impl IntoView
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    let lang = use_lang();
    let spell = choices.id;
    let options = choices
        .list
        .iter()
        .map(|&(v, zh, en)| {
            view! { <option value=spell(v) selected=move || value.with(|s| *s == v)>{move || lang.get().pick(zh, en)}</option> }
        })
        .collect_view();
    let on_change = move |ev: leptos::ev::Event| match choices.read(&event_target_value(&ev)) {
        Ok(chosen) => value.set(chosen),
        Err(unknown) => leptos::logging::error!("{id}: {unknown}"),
    };
    view! {
        <label for=id>
            <span>{move || lang.get().pick(label_zh, label_en)}</span>
            <select id=id data-testid=id prop:value=move || spell(value.get()) on:change=on_change>
                {options}
            </select>
        </label>
    }
}

/// A text field for a number, with its label, unit and live error.
#[component]
pub fn NumberField(
    id: &'static str,
    label_zh: &'static str,
    label_en: &'static str,
    unit: &'static str,
    example: &'static str,
    value: RwSignal<String>,
    /// Parses the text; an error is shown under the field once something was typed.
    validate: fn(&str) -> Result<(), InputError>,
    /// Empty is allowed (a default applies).
    #[prop(optional)]
    optional: bool,
) -> impl IntoView {
    let lang = use_lang();
    let error = move || {
        let text = value.get();
        if text.trim().is_empty() && optional {
            return None;
        }
        validate(&text)
            .err()
            .filter(|e| !(text.is_empty() && *e == InputError::Empty))
    };
    let error_id = format!("{id}-error");
    view! {
        <label for=id class:invalid=move || error().is_some()>
            <span>{move || lang.get().pick(label_zh, label_en)}</span>
            <span class="input-with-unit">
                <input
                    id=id
                    data-testid=id
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    placeholder=example
                    aria-invalid=move || error().is_some().to_string()
                    aria-describedby=error_id.clone()
                    // The attribute for the first screen rendered as HTML; the property follows.
                    value=value.get_untracked()
                    prop:value=move || value.get()
                    on:input=move |ev| value.set(event_target_value(&ev))
                />
                <span class="unit">{unit}</span>
            </span>
            <span class="field-error" id=error_id role="alert">
                {move || error().map(|e| e.message(lang.get(), example))}
            </span>
        </label>
    }
}

/// Reads as gigabytes ([`parse_gb`]): a [`NumberField`]'s check for a figure in GB.
pub fn validate_gb(text: &str) -> Result<(), InputError> {
    parse_gb(text).map(|_| ())
}

/// A decision's form (`id`, `decision-N`): its legend, its fields (`children`), the "Check"
/// button (`decision-N-check`, which calls `on_check`) and the verdict box (`decision-N-verdict`),
/// which shows `verdict` and is marked by `passed` (`None` while nothing is checked).
#[component]
pub fn DecisionForm(
    /// Its test id, `decision-N`: the ids of its parts follow from it.
    id: &'static str,
    legend_zh: &'static str,
    legend_en: &'static str,
    on_check: impl Fn() + 'static,
    passed: Signal<Option<bool>>,
    #[prop(into)] verdict: ViewFn,
    children: Children,
) -> impl IntoView {
    let title = move || format!("{id}-title");
    view! {
        <form class="decision" data-testid=id aria-labelledby=title() novalidate
            on:submit=move |ev| {
                ev.prevent_default();
                on_check();
            }>
            <fieldset>
                <legend id=title()>
                    <T zh=legend_zh en=legend_en />
                </legend>
                {children()}
                <div class="form-actions">
                    <button type="submit" data-testid=format!("{id}-check")><T zh="核对" en="Check" /></button>
                </div>
                <div class=move || verdict_class(passed.get()) data-testid=format!("{id}-verdict") role="status" aria-live="polite"
                    data-pass=move || passed.get().unwrap_or(false).to_string()>
                    {move || verdict.run()}
                </div>
            </fieldset>
        </form>
    }
}

/// The verdict of a form checked (`checked`) as `render` writes it, or, before any check, a
/// line that says what to do.
pub fn verdict_or_hint<C>(
    lang: Lang,
    checked: Option<&C>,
    render: impl FnOnce(&C) -> AnyView,
) -> AnyView {
    match checked {
        None => view! { <p class="muted">{lang.pick("填好后点「核对」。", "Fill in the form, then press Check.")}</p> }.into_any(),
        Some(check) => render(check),
    }
}

/// A verdict's lines: what cannot be read in the form (`problems`), then the figures'
/// (`lines`), each an item of `verdict-lines`.
pub fn verdict_lines(problems: Vec<String>, lines: impl IntoView) -> impl IntoView {
    let problems = problems
        .into_iter()
        .map(|p| view! { <li class="input-problem">{p}</li> })
        .collect_view();
    view! { <ul class="verdict-lines">{problems}{lines}</ul> }
}

/// "Field: what is wrong with it", for the list of problems under a form.
pub fn field_problem(lang: Lang, field: &str, problem: &str) -> String {
    text::FIELD_PROBLEM.fill(lang, &[("field", &field), ("problem", &problem)])
}

/// The problem with a number field (named `field`), if it could not be read.
pub fn input_line(
    lang: Lang,
    field: &str,
    parsed: &Result<f64, InputError>,
    example: &str,
) -> Option<String> {
    parsed
        .as_ref()
        .err()
        .map(|e| field_problem(lang, field, &e.message(lang, example)))
}

pub fn derived_dp(config: &PlanConfig) -> String {
    Plan::new(config).map_or_else(|_| "—".to_string(), |plan| plan.degrees().dp.to_string())
}

/// The verdict box's class: unchecked, passed or failed.
pub fn verdict_class(passed: Option<bool>) -> &'static str {
    match passed {
        None => "verdict",
        Some(true) => "verdict pass",
        Some(false) => "verdict fail",
    }
}

/// Whether the `cards`-card grid shows the student's plan (`same`) or another one.
fn grid_line(lang: Lang, cards: u32, same: bool) -> String {
    let text = if same {
        text::GRID_SAME
    } else {
        text::GRID_OTHER
    };
    text.fill(lang, &[("cards", &cards)])
}

/// Whether the grid of a decision shows the student's plan right now, and a button that puts
/// it there (`decision-N-grid`, `decision-N-load`).
#[component]
pub fn GridLoadLine(decision: u8, lab: GridLab, config: PlanConfig) -> impl IntoView {
    let lang = use_lang();
    let in_grid = {
        let config = config.clone();
        Memo::new(move |_| lab.config.with(|c| *c == config))
    };
    let cards = lab.config.with_untracked(|c| c.gpus);
    let line = move || grid_line(lang.get(), cards, in_grid.get());
    let button = move || text::LOAD.fill(lang.get(), &[("cards", &cards)]);
    view! {
        <p class="verdict-grid" data-testid=format!("decision-{decision}-grid") data-same=move || in_grid.get().to_string()>
            {line} " "
            <button type="button" class="small" data-testid=format!("decision-{decision}-load") disabled=move || in_grid.get()
                on:click=move |_| lab.load_into_view(config.clone())>
                {button}
            </button>
        </p>
    }
}

/// The verdict on a plan the core counted: the plan in words, what cannot be read in the form
/// and the figures' lines (the children; see [`verdict_lines`]), the conclusion, and the line
/// that loads the plan into the decision's grid ([`GridLoadLine`]).
#[component]
pub fn PlanVerdict(
    plan: String,
    problems: Vec<String>,
    conclusion: &'static str,
    decision: u8,
    lab: GridLab,
    config: PlanConfig,
    children: Children,
) -> impl IntoView {
    view! {
        <p class="verdict-plan">{plan}</p>
        {verdict_lines(problems, children())}
        <p class="verdict-conclusion"><strong>{conclusion}</strong></p>
        <GridLoadLine decision=decision lab=lab config=config />
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let bad: Result<f64, InputError> = Err(InputError::Negative);
        assert_each_lang_uses_all(text::ALL, |lang| {
            input_line(lang, "x", &bad, "1");
            grid_line(lang, 8, true);
            grid_line(lang, 64, false);
            text::LOAD.fill(lang, &[("cards", &8)]);
        });
        assert_eq!(
            input_line(Lang::Zh, "每卡激活", &bad, "4.5").as_deref(),
            Some("每卡激活：不能是负数。")
        );
        assert_eq!(
            input_line(Lang::En, "Activations per card", &bad, "4.5").as_deref(),
            Some("Activations per card: It cannot be negative.")
        );
        assert_eq!(input_line(Lang::En, "x", &Ok(1.0), "1"), None);
    }
}
