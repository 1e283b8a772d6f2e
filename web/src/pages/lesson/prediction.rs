//! Predict, then check: the student writes a number before looking, and the core's figure is
//! revealed with how it is counted. The answer arrives computed; this only compares.

use leptos::prelude::*;
use parallel_core::Bytes;

use crate::kit::format;
use crate::kit::i18n::{use_lang, T};
use crate::kit::input::{parse_gb, InputError};
use crate::kit::prose::{Prose, Said};
use crate::kit::tolerance::close_enough;

/// What a prediction in GB is worth against the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Within [`crate::kit::tolerance::TOLERANCE`].
    Right,
    /// Too high.
    High,
    /// Too low.
    Low,
}

/// Compares a guess in GB with the computed answer.
pub fn judge(guess_gb: f64, answer: Bytes) -> Verdict {
    let answer_gb = answer.gb();
    if close_enough(guess_gb, answer_gb) {
        Verdict::Right
    } else if guess_gb > answer_gb {
        Verdict::High
    } else {
        Verdict::Low
    }
}

/// A prediction box: question, a number field in GB, a check button, then the answer and
/// its explanation.
#[component]
pub fn Prediction(
    test_id: &'static str,
    /// The question (a sentence of the first screen, [`crate::kit::prose`]).
    question: Prose,
    /// How to start on it.
    hint: Prose,
    #[prop(into)] answer: Signal<Bytes>,
    /// How the answer is counted (already localized by the caller).
    #[prop(into)]
    explanation: Signal<String>,
) -> impl IntoView {
    let lang = use_lang();
    let guess = RwSignal::new(String::new());
    let checked = RwSignal::new(None::<Result<Verdict, InputError>>);
    let check = move || {
        // The same reading as every form of the page: "55,6", "５５.６ GB" and "60" all work.
        let parsed = parse_gb(&guess.get_untracked());
        checked.set(Some(parsed.map(|gb| judge(gb, answer.get_untracked()))));
    };
    let result = move || {
        let lang = lang.get();
        checked.get().map(|outcome| match outcome {
            Err(error) => view! {
                <p class="prediction-result invalid" role="status">
                    {error.message(lang, "60")}
                </p>
            }
            .into_any(),
            Ok(verdict) => {
                let head = match verdict {
                    Verdict::Right => lang.pick("✓ 对了（差距在 5% 以内）。", "✓ Right (within 5%)."),
                    Verdict::High => lang.pick("✗ 高了。", "✗ Too high."),
                    Verdict::Low => lang.pick("✗ 低了。", "✗ Too low."),
                };
                view! {
                    <div class="prediction-result" class:right=verdict == Verdict::Right role="status">
                        <p>
                            <strong>{head}</strong> " "
                            {lang.pick("核对值：", "Computed: ")}
                            <strong data-testid=format!("{test_id}-answer") data-bytes=answer.get().get().to_string()>
                                {format::bytes(answer.get())}
                            </strong>
                        </p>
                        <p class="prediction-why">{explanation.get()}</p>
                    </div>
                }
                .into_any()
            }
        })
    };
    view! {
        <div class="prediction" data-testid=test_id>
            <p class="prediction-question">
                <span class="tag"><T zh="先预测" en="Predict first" /></span>
                <Said prose=question />
            </p>
            <p class="hint"><Said prose=hint /></p>
            <form class="prediction-form" on:submit=move |ev| { ev.prevent_default(); check(); }>
                <label>
                    <span class="sr-only"><T zh="你的预测（GB）" en="Your prediction (GB)" /></span>
                    <input
                        type="text"
                        inputmode="decimal"
                        data-testid=format!("{test_id}-input")
                        placeholder=move || lang.get().pick("你的预测", "your guess")
                        prop:value=move || guess.get()
                        on:input=move |ev| guess.set(event_target_value(&ev))
                    />
                    " GB"
                </label>
                <button type="submit" data-testid=format!("{test_id}-check")><T zh="核对" en="Check" /></button>
            </form>
            {result}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_percent_either_side_is_right() {
        let answer = Bytes::from_gb(55.6);
        assert_eq!(judge(55.6, answer), Verdict::Right);
        assert_eq!(judge(58.0, answer), Verdict::Right);
        assert_eq!(judge(60.0, answer), Verdict::High);
        assert_eq!(judge(50.0, answer), Verdict::Low);
    }
}
