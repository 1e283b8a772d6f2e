//! A typed count of the rollout engines (prompts, samples, lengths, the separate pool's
//! cards): read by the page's one number parser, set in the config as typed, so a count the
//! core refuses shows the core's reason under the input while the figures keep the last valid
//! plan.

use leptos::html::Input;
use leptos::prelude::*;
use parallel_core::{Field, Rollout, RolloutField};

use crate::kit::error_text::explain;
use crate::kit::i18n::use_lang;
use crate::kit::input::{parse_whole, InputError};
use crate::state::lab::GridLab;

/// The sentence of a count that does not read as one.
mod text {
    use crate::kit::text::Text;

    /// The field's name, then what is wrong with what was typed.
    pub const TYPO: Text = Text {
        zh: "{field}：{problem}",
        en: "{field}: {problem}",
    };
    #[cfg(test)]
    pub const ALL: &[&Text] = &[&TYPO];
}

/// One count of [`Rollout`]: its config field (`rollout.<name>`, where its errors are shown),
/// test id, names, the least value the input itself takes (0 goes on to the core, which names
/// the field; the pool's 0 would mean "colocated", chosen with the pool's select instead),
/// and how it is read and set.
#[derive(Clone, Copy)]
pub(super) struct CountSpec {
    pub field: Field,
    pub test_id: &'static str,
    pub label_zh: &'static str,
    pub label_en: &'static str,
    pub min: u32,
    pub get: fn(&Rollout) -> u32,
    pub set: fn(&mut Rollout, u32),
}

/// The four counts of a round, in page order.
pub(super) const ROUND: [CountSpec; 4] = [
    CountSpec {
        field: Field::InRollout(RolloutField::Prompts),
        test_id: "input-prompts",
        label_zh: "每轮的 prompt 数",
        label_en: "Prompts per round",
        min: 0,
        get: |r| r.prompts,
        set: |r, v| r.prompts = v,
    },
    CountSpec {
        field: Field::InRollout(RolloutField::SamplesPerPrompt),
        test_id: "input-samples",
        label_zh: "每个 prompt 的采样数",
        label_en: "Samples per prompt",
        min: 0,
        get: |r| r.samples_per_prompt,
        set: |r, v| r.samples_per_prompt = v,
    },
    CountSpec {
        field: Field::InRollout(RolloutField::PromptLen),
        test_id: "input-prompt-len",
        label_zh: "prompt 长度（token）",
        label_en: "Prompt length (tokens)",
        min: 0,
        get: |r| r.prompt_len,
        set: |r, v| r.prompt_len = v,
    },
    CountSpec {
        field: Field::InRollout(RolloutField::ResponseLen),
        test_id: "input-response-len",
        label_zh: "回答长度上限（token）",
        label_en: "Response cap (tokens)",
        min: 0,
        get: |r| r.response_len,
        set: |r, v| r.response_len = v,
    },
];

/// The cards of a separate rollout pool, R.
pub(super) const POOL: CountSpec = CountSpec {
    field: Field::InRollout(RolloutField::RolloutGpus),
    test_id: "input-rollout-gpus",
    label_zh: "推理卡池的卡数 R",
    label_en: "Cards of the rollout pool R",
    min: 1,
    get: |r| r.rollout_gpus,
    set: |r, v| r.rollout_gpus = v,
};

/// A text input for one count of the rollout engines (shown only while they are on).
#[component]
pub(super) fn CountInput(spec: CountSpec, lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let value = Memo::new(move |_| lab.config.with(|c| c.rollout.map(|r| (spec.get)(&r))));
    let read = move |text: &str| parse_whole(text, spec.min, u32::MAX);
    // What was typed and does not read as a count: shown under the input, the config unchanged.
    let typo = RwSignal::new(None::<InputError>);
    let input = NodeRef::<Input>::new();
    let on_input = move |event: leptos::ev::Event| match read(&event_target_value(&event)) {
        Ok(count) => {
            typo.set(None);
            lab.edit(spec.field, |c| {
                if let Some(r) = c.rollout.as_mut() {
                    (spec.set)(r, count);
                }
            });
        }
        // Touched, so that the message is shown here (the config itself is unchanged).
        Err(problem) => {
            typo.set(Some(problem));
            lab.edit(spec.field, |_| ());
        }
    };
    // The config's value, unless the text typed already reads as it ("1,024" stays as typed).
    let shown = move || {
        let value = value.get().unwrap_or_default();
        let typed = input.get_untracked().map(|i| i.value()).unwrap_or_default();
        if read(&typed) == Ok(value) {
            typed
        } else {
            value.to_string()
        }
    };
    let error = move || {
        if lab.last_edited.get() != Some(spec.field) {
            return None;
        }
        let lang = lang.get();
        match typo.get() {
            Some(problem) => Some(text::TYPO.fill(
                lang,
                &[
                    ("field", &lang.pick(spec.label_zh, spec.label_en)),
                    ("problem", &problem.message(lang, "64")),
                ],
            )),
            None => lab.error.get().map(|e| explain(lang, &e)),
        }
    };
    let id = format!("{}-{}", spec.test_id, lab.config.with_untracked(|c| c.gpus));
    view! {
        <div class="control control-count" class:invalid=move || error().is_some()>
            <label for=id.clone()>
                <span class="control-name">{move || lang.get().pick(spec.label_zh, spec.label_en)}</span>
            </label>
            <input
                id=id
                type="text"
                inputmode="numeric"
                autocomplete="off"
                node_ref=input
                data-testid=spec.test_id
                prop:value=shown
                on:input=on_input
            />
            {move || error().map(|message| view! { <p class="control-error" role="alert">{message}</p> })}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::i18n::Lang;
    use parallel_core::{Plan, PlanConfig};

    #[test]
    fn each_count_sets_its_own_field_and_the_core_names_it_at_zero() {
        for spec in ROUND {
            let mut config = PlanConfig {
                rollout: Some(Rollout::default()),
                ..PlanConfig::lesson_8_gpus()
            };
            let rollout = config.rollout.as_mut().unwrap();
            (spec.set)(rollout, 3);
            assert_eq!((spec.get)(rollout), 3, "{}", spec.field);
            (spec.set)(rollout, 0);
            let error = Plan::new(&config).unwrap_err();
            assert_eq!(error.field(), spec.field);
        }
        let mut rollout = Rollout::default();
        (POOL.set)(&mut rollout, 16);
        assert_eq!(rollout.rollout_gpus, 16);
    }

    #[test]
    fn the_typo_sentence_is_filled_with_its_names() {
        crate::kit::text::testing::assert_all_used(text::ALL, || {
            for lang in [Lang::Zh, Lang::En] {
                text::TYPO.fill(lang, &[("field", &"R"), ("problem", &"?")]);
            }
        });
    }
}
