//! Questions students ask (seed 003), answered by the lab: each one a prediction box, a button
//! that sets its grid to the demonstration plan, and the answer read from that grid's live
//! figures. Questions the lab cannot compute say so in one line.
//!
//! Rooms: [`data`] holds the questions, their plans and their answers (no views).

pub mod data;
mod table;
#[cfg(test)]
mod tests;
mod words;

use leptos::prelude::*;

use leptos::ev::MouseEvent;
use parallel_core::link::{self, GridId, LinkState};

use crate::kit::controls;
use crate::kit::i18n::{use_lang, T};
use crate::state::lab::GridLab;
use data::{Question, BEYOND};

/// One question's card: the question, the student's prediction, the link that puts its plan
/// on its grid (and focuses the control that checks it), and, once the grid shows that plan,
/// the prediction again beside the answer read from the grid.
#[component]
fn QuestionCard(question: Question, lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let demo = question.plan();
    let in_grid = {
        let demo = demo.clone();
        Memo::new(move |_| lab.config.with(|c| *c == demo))
    };
    let prediction = RwSignal::new(String::new());
    // The plan as the CLI's JSON, for readers who want it (and the page's tests).
    let plan_json = crate::kit::format::json_text(&demo);
    // The link that opens the lesson with this plan on its grid: it lands in a new tab too.
    let href = {
        let demo = demo.clone();
        move || {
            let state = LinkState::opening(question.grid, demo.clone(), lang.get());
            format!("#{}", link::encode(&state))
        }
    };
    let section = format!("section-{}", question.grid.gpus());
    let control = question.control.map(controls::test_id);
    let set_up = move |event: MouseEvent| {
        // A click with a modifier (or not the main button) opens the address as the browser
        // would, in a new tab or window: the link lands there on its own.
        if event.ctrl_key()
            || event.meta_key()
            || event.shift_key()
            || event.alt_key()
            || event.button() != 0
        {
            return;
        }
        // Here, the plan is put on the grid at once; the address follows as for any change.
        event.prevent_default();
        lab.selected.set(None);
        lab.load(demo.clone());
        crate::state::scroll::bring_into_view(format!("[data-testid=\"{section}\"]"));
        if let Some(control) = control {
            crate::state::scroll::focus_quietly(format!(
                "[data-testid=\"{section}\"] [data-testid=\"{control}\"]"
            ));
        }
    };
    let answer = move || {
        in_grid.get().then(|| {
            lab.plan
                .with(|plan| lab.report.with(|r| question.answer(lang.get(), plan, r)))
        })
    };
    // The prediction, said again once the answer is there, to check it against.
    let checked = move || {
        let guess = prediction.get();
        (in_grid.get() && !guess.trim().is_empty()).then(|| {
            view! {
                <p class="question-check" data-testid="question-check">
                    {move || words::YOUR_PREDICTION.fill(lang.get(), &[("guess", &guess)])}
                </p>
            }
        })
    };
    let input_id = format!("question-{}-prediction", question.id);
    let label_for = input_id.clone();
    view! {
        <li class="question" data-testid="question" data-question=question.id data-grid=question.grid.gpus()
            data-plan=plan_json data-control=control>
            <h4>{move || question.ask.get(lang.get())}</h4>
            <label for=label_for class="question-prediction">
                <span><T zh="先写下你的预测：" en="Write down your prediction first:" /></span>
                <input id=input_id type="text" autocomplete="off" data-testid="question-prediction"
                    prop:value=move || prediction.get()
                    on:input=move |ev| prediction.set(event_target_value(&ev)) />
            </label>
            <a class="small" data-testid="question-setup" href=href on:click=set_up>
                {move || match question.grid {
                    GridId::Eight => lang.get().pick("在 8 卡网格上摆出来", "Set it up on the 8-card grid"),
                    GridId::SixtyFour => lang.get().pick("在 64 卡网格上摆出来", "Set it up on the 64-card grid"),
                }}
            </a>
            {checked}
            <p class="question-answer" data-testid="question-answer" data-cites=question.cites.id()
                data-in-grid=move || in_grid.get().to_string()>
                {move || answer().unwrap_or_else(|| lang.get().pick(
                    "按上面的按钮把方案摆到网格上，答案就从网格上的数读出来。",
                    "Press the button to put the plan on the grid; the answer is read from the grid's figures.",
                ).to_string())}
            </p>
        </li>
    }
}

/// Every question, in the order seed 003 asks them.
pub fn questions() -> Vec<Question> {
    table::all()
}

/// The questions block of part four.
#[component]
pub fn Questions(lab8: GridLab, lab64: GridLab) -> impl IntoView {
    let lang = use_lang();
    let cards = questions()
        .into_iter()
        .map(|q| {
            let lab = match q.grid {
                GridId::Eight => lab8,
                GridId::SixtyFour => lab64,
            };
            view! { <QuestionCard question=q lab=lab /> }
        })
        .collect_view();
    let beyond = BEYOND
        .iter()
        .map(|t| view! { <li>{move || t.get(lang.get())}</li> })
        .collect_view();
    view! {
        <div class="questions" data-testid="questions">
            <h3><T zh="学生常问的问题：先预测，再在网格上对答案" en="Questions students ask: predict, then check on the grid" /></h3>
            <ol class="question-list">{cards}</ol>
            <p class="note"><T zh="本页算不了的：" en="What this lab cannot compute:" /></p>
            <ul class="beyond" data-testid="questions-beyond">{beyond}</ul>
        </div>
    }
}
