//! Decision ③ (the project's own small model): do its model states call for any split?

use leptos::prelude::*;

use super::check::*;
use crate::kit::fields::*;
use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::text::Piece;
use parallel_core::lesson::{small_model_states, SMALL_MODEL_PARAMS};
use parallel_core::Bytes;

/// The sentences of decision ③.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The small model's size; both figures are shown in bold.
        pub const SMALL_MODEL: Text = Text {
            zh: "参数量 {params}；模型状态 16 字节 × 参数量 = {states}。",
            en: "Parameters: {params}; model states, 16 bytes × parameters = {states}.",
        };
        /// Why it needs no parallelism, after the verdict's `head` (a sentence of its own).
        pub const VERDICT: Text = Text {
            zh: "{head}它的模型状态只有 {states}（{bytes} 字节），一张 {card} 的卡能装下约 {times} \
                 份。多卡对它只是复制几份数据并行来提速，不是因为放不下。",
            en: "{head} Its model states are only {states} ({bytes} bytes); one {card} card holds \
                 about {times} copies of them. More cards would only add data-parallel replicas for \
                 speed, not because it does not fit.",
        };
    }
}

/// The verdict on the student's choice (`None`: nothing chosen yet; `Some(true)`: "it needs
/// parallelism"), with the small model's `states`, a card's `capacity` and how many `times`
/// the card holds them.
fn verdict_text(
    lang: Lang,
    choice: Option<bool>,
    states: Bytes,
    capacity: Bytes,
    times: f64,
) -> String {
    let Some(needs) = choice else {
        return lang
            .pick("先选一个答案。", "Pick an answer first.")
            .to_string();
    };
    let head = if needs {
        lang.pick("✗ 不需要。", "✗ It does not.")
    } else {
        lang.pick("✓ 对，不需要并行。", "✓ Right: no parallelism needed.")
    };
    text::VERDICT.fill(
        lang,
        &[
            ("head", &head),
            ("states", &mib(states)),
            ("bytes", &format::thousands(states.get() as u64)),
            ("card", &format::bytes(capacity)),
            ("times", &format::thousands(times.floor() as u64)),
        ],
    )
}

#[component]
pub fn DecisionThreeForm() -> impl IntoView {
    let lang = use_lang();
    let (states, capacity, times) = small_model_states();
    let params_text = format::thousands(SMALL_MODEL_PARAMS as u64);
    let answer = RwSignal::new(None::<bool>);
    let checked = RwSignal::new(None::<Option<bool>>);
    let verdict = move || {
        checked
            .get()
            .map(|choice| verdict_text(lang.get(), choice, states, capacity, times))
    };
    // The model's size in one sentence, its two figures in bold.
    let size = move || {
        text::SMALL_MODEL
            .pieces(lang.get())
            .into_iter()
            .map(|piece| match piece {
                Piece::Literal(words) => words.into_any(),
                Piece::Param("params") => view! { <strong>{params_text.clone()}</strong> }.into_any(),
                Piece::Param("states") => view! {
                    <strong data-testid="decision-3-states" data-bytes=states.get().to_string()>{mib(states)}</strong>
                }
                .into_any(),
                // No other parameter: the test below checks the text's names.
                Piece::Param(_) => ().into_any(),
            })
            .collect_view()
    };
    // Passes when the answer is "no, it needs no parallelism".
    let passed = Signal::derive(move || checked.get().map(|answer| answer == Some(false)));
    let on_check = move || checked.set(Some(answer.get_untracked()));
    let verdict = move || verdict().map(|text| view! { <p>{text}</p> });
    view! {
        <DecisionForm id="decision-3" on_check=on_check passed=passed verdict=verdict
            legend_zh="③ 我们自己的小模型" legend_en="③ The project's own small model">
            <p>{size}</p>
            <fieldset class="choice-group">
                <legend><T zh="它需要并行吗？" en="Does it need parallelism?" /></legend>
                <label>
                    <input type="radio" name="decision-3-answer" value="yes" data-testid="decision-3-yes"
                        prop:checked=move || answer.get() == Some(true)
                        on:change=move |_| answer.set(Some(true)) />
                    <T zh="需要：一张卡放不下" en="Yes: one card cannot hold it" />
                </label>
                <label>
                    <input type="radio" name="decision-3-answer" value="no" data-testid="decision-3-no"
                        prop:checked=move || answer.get() == Some(false)
                        on:change=move |_| answer.set(Some(false)) />
                    <T zh="不需要：一张卡绰绰有余" en="No: one card holds it with room to spare" />
                </label>
            </fieldset>
        </DecisionForm>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::params;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let (states, capacity, times) = small_model_states();
        assert_each_lang_uses_all(text::ALL, |lang| {
            for choice in [None, Some(true), Some(false)] {
                verdict_text(lang, choice, states, capacity, times);
            }
            text::SMALL_MODEL.pieces(lang);
        });
        // The view shows these two parameters in bold, one of them with a test id.
        assert_eq!(params(text::SMALL_MODEL.zh), ["params", "states"]);
        assert_eq!(
            verdict_text(Lang::En, None, states, capacity, times),
            "Pick an answer first."
        );
        assert!(verdict_text(Lang::En, Some(false), states, capacity, times)
            .starts_with("✓ Right: no parallelism needed. Its model states are only 56.3 MiB ("));
        assert!(verdict_text(Lang::Zh, Some(true), states, capacity, times)
            .starts_with("✗ 不需要。它的模型状态只有 56.3 MiB（"));
    }
}
