//! Decision ③ (the project's own small model): do its model states call for any split?

use leptos::prelude::*;

use super::check::*;
use super::fields::*;
use crate::format;
use crate::i18n::{use_lang, Lang, T};

#[component]
pub fn DecisionThreeForm() -> impl IntoView {
    let lang = use_lang();
    let (states, capacity, times) = small_model_states();
    let params_text = format::thousands(SMALL_MODEL_PARAMS as u64);
    let answer = RwSignal::new(None::<bool>);
    let checked = RwSignal::new(None::<Option<bool>>);
    let verdict = move || {
        let lang = lang.get();
        let times = format::thousands(times.floor() as u64);
        checked.get().map(|choice| match choice {
            None => lang.pick("先选一个答案。", "Pick an answer first.").to_string(),
            Some(needs) => {
                let head = if needs {
                    lang.pick("✗ 不需要。", "✗ It does not.")
                } else {
                    lang.pick("✓ 对，不需要并行。", "✓ Right: no parallelism needed.")
                };
                match lang {
                    Lang::Zh => format!(
                        "{head}它的模型状态只有 {}（{} 字节），一张 {} 的卡能装下约 {times} 份。多卡对它只是复制几份数据并行来提速，不是因为放不下。",
                        mib(states), format::thousands(states.get() as u64), format::bytes(capacity)
                    ),
                    Lang::En => format!(
                        "{head} Its model states are only {} ({} bytes); one {} card holds about {times} copies of them. More cards would only add data-parallel replicas for speed, not because it does not fit.",
                        mib(states), format::thousands(states.get() as u64), format::bytes(capacity)
                    ),
                }
            }
        })
    };
    // Passes when the answer is "no, it needs no parallelism".
    let verdict_class = move || verdict_class(checked.get().map(|answer| answer == Some(false)));
    view! {
        <form class="decision" data-testid="decision-3" aria-labelledby="decision-3-title" novalidate
            on:submit=move |ev| { ev.prevent_default(); checked.set(Some(answer.get_untracked())); }>
            <fieldset>
                <legend id="decision-3-title">
                    <T zh="③ 我们自己的小模型" en="③ The project's own small model" />
                </legend>
                <p>
                    {move || lang.get().pick("参数量 ", "Parameters: ")}
                    <strong>{params_text}</strong>
                    {move || lang.get().pick("；模型状态 16 字节 × 参数量 = ", "; model states, 16 bytes × parameters = ")}
                    <strong data-testid="decision-3-states" data-bytes=states.get().to_string()>{mib(states)}</strong>
                    {move || lang.get().pick("。", ".")}
                </p>
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
                <div class="form-actions">
                    <button type="submit" data-testid="decision-3-check"><T zh="核对" en="Check" /></button>
                </div>
                <div class=verdict_class data-testid="decision-3-verdict" role="status" aria-live="polite"
                    data-pass=move || (checked.get() == Some(Some(false))).to_string()>
                    {move || verdict().map(|text| view! { <p>{text}</p> })}
                </div>
            </fieldset>
        </form>
    }
}
