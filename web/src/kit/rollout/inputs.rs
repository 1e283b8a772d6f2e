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
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The field's name, then what is wrong with what was typed.
        pub const TYPO: Text = Text {
            zh: "{field}：{problem}",
            en: "{field}: {problem}",
        };
    }
}

/// A count of [`Rollout`] that the panel takes as typed text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Count {
    /// Prompts per round.
    Prompts,
    /// Samples per prompt.
    SamplesPerPrompt,
    /// A prompt's tokens.
    PromptLen,
    /// A response's tokens at most.
    ResponseLen,
    /// The cards of a separate rollout pool, R.
    RolloutGpus,
}

impl Count {
    /// Its config field, `rollout.<name>` (where its errors are shown).
    pub(super) const fn field(self) -> Field {
        Field::InRollout(match self {
            Count::Prompts => RolloutField::Prompts,
            Count::SamplesPerPrompt => RolloutField::SamplesPerPrompt,
            Count::PromptLen => RolloutField::PromptLen,
            Count::ResponseLen => RolloutField::ResponseLen,
            Count::RolloutGpus => RolloutField::RolloutGpus,
        })
    }

    /// Where the engines hold it.
    fn slot(self, r: &mut Rollout) -> &mut u32 {
        match self {
            Count::Prompts => &mut r.prompts,
            Count::SamplesPerPrompt => &mut r.samples_per_prompt,
            Count::PromptLen => &mut r.prompt_len,
            Count::ResponseLen => &mut r.response_len,
            Count::RolloutGpus => &mut r.rollout_gpus,
        }
    }

    /// Its value in `r`.
    pub(super) fn get(self, mut r: Rollout) -> u32 {
        *self.slot(&mut r)
    }

    /// Sets it in `r`.
    pub(super) fn set(self, r: &mut Rollout, value: u32) {
        *self.slot(r) = value;
    }

    /// The least value the input itself takes: 0 goes on to the core, which names the field;
    /// the pool's 0 would mean "colocated", chosen with the pool's select instead.
    const fn min(self) -> u32 {
        match self {
            Count::RolloutGpus => 1,
            _ => 0,
        }
    }
}

/// One count's input: the count, its test id and its names (中文, English).
#[derive(Clone, Copy)]
pub(super) struct CountSpec {
    pub count: Count,
    pub test_id: &'static str,
    pub label_zh: &'static str,
    pub label_en: &'static str,
}

/// The four counts of a round, in page order.
#[rustfmt::skip]
pub(super) const ROUND: [CountSpec; 4] = [
    CountSpec { count: Count::Prompts, test_id: "input-prompts", label_zh: "每轮的 prompt 数", label_en: "Prompts per round" },
    CountSpec { count: Count::SamplesPerPrompt, test_id: "input-samples", label_zh: "每个 prompt 的采样数", label_en: "Samples per prompt" },
    CountSpec { count: Count::PromptLen, test_id: "input-prompt-len", label_zh: "prompt 长度（token）", label_en: "Prompt length (tokens)" },
    CountSpec { count: Count::ResponseLen, test_id: "input-response-len", label_zh: "回答长度上限（token）", label_en: "Response cap (tokens)" },
];

/// The cards of a separate rollout pool, R.
#[rustfmt::skip]
pub(super) const POOL: CountSpec =
    CountSpec { count: Count::RolloutGpus, test_id: "input-rollout-gpus", label_zh: "推理卡池的卡数 R", label_en: "Cards of the rollout pool R" };

/// A text input for one count of the rollout engines (shown only while they are on).
#[component]
pub(super) fn CountInput(spec: CountSpec, lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let count = spec.count;
    let value = Memo::new(move |_| lab.config.with(|c| c.rollout.map(|r| count.get(r))));
    let read = move |text: &str| parse_whole(text, count.min(), u32::MAX);
    // What was typed and does not read as a count: shown under the input, the config unchanged.
    let typo = RwSignal::new(None::<InputError>);
    let input = NodeRef::<Input>::new();
    let on_input = move |event: leptos::ev::Event| match read(&event_target_value(&event)) {
        Ok(typed) => {
            typo.set(None);
            lab.edit(count.field(), |c| {
                if let Some(r) = c.rollout.as_mut() {
                    count.set(r, typed);
                }
            });
        }
        // Touched, so that the message is shown here (the config itself is unchanged).
        Err(problem) => {
            typo.set(Some(problem));
            lab.edit(count.field(), |_| ());
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
        if lab.last_edited.get() != Some(count.field()) {
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
    use crate::kit::text::testing::assert_each_lang_uses_all;
    use parallel_core::{Plan, PlanConfig};

    #[test]
    fn each_count_sets_its_own_field_and_the_core_names_it_at_zero() {
        for spec in ROUND {
            let count = spec.count;
            let mut config = PlanConfig {
                rollout: Some(Rollout::default()),
                ..PlanConfig::lesson_8_gpus()
            };
            let rollout = config.rollout.as_mut().unwrap();
            count.set(rollout, 3);
            assert_eq!(count.get(*rollout), 3, "{}", count.field());
            count.set(rollout, 0);
            let error = Plan::new(&config).unwrap_err();
            assert_eq!(error.field(), count.field());
            assert_eq!(count.min(), 0);
        }
        let mut rollout = Rollout::default();
        POOL.count.set(&mut rollout, 16);
        assert_eq!(rollout.rollout_gpus, 16);
        assert_eq!(POOL.count.min(), 1);
    }

    #[test]
    fn the_typo_sentence_is_filled_with_its_names() {
        assert_each_lang_uses_all(text::ALL, |lang| {
            text::TYPO.fill(lang, &[("field", &"R"), ("problem", &"?")]);
        });
    }
}
