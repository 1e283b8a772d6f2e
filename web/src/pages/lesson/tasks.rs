//! The lesson's "try three things" as guided steps: each loads its plan into the grid, says
//! what to look at, reads the live figure back and ticks itself off once the grid is there.

use leptos::prelude::*;
use parallel_core::{evaluate, PlanConfig, Report};

use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::prose::{Say, Words};
use crate::kit::vocab;
use crate::state::lab::GridLab;

/// The sentences of the guided steps.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The total per card when it fits.
        pub const TOTAL_FITS: Text = Text {
            zh: "每卡合计 {total} ≤ {capacity}",
            en: "total per card {total} ≤ {capacity}",
        };
        /// The total per card when it does not fit.
        pub const TOTAL_OVER: Text = Text {
            zh: "每卡合计 {total} > {capacity} ✗",
            en: "total per card {total} > {capacity} ✗",
        };
    }
}

/// One guided step.
#[derive(Clone)]
pub struct Task {
    /// Stable id (test hook `task-<id>`).
    pub id: &'static str,
    /// What to do (a sentence of the first screen, for the steps above a grid).
    pub todo: Words,
    /// Where the step starts, when the student should read it first (the lesson's opening plan
    /// before a change to it): a button of its own sets it up, and the total reads back.
    pub start: Option<PlanConfig>,
    /// The plan the step sets up.
    pub target: PlanConfig,
    /// A card to select with it.
    pub select: Option<u32>,
    /// What the grid shows once there, from the live report.
    pub observe: fn(Lang, &Report) -> String,
}

#[cfg(test)]
impl Task {
    /// What the grid shows once the step's plan is set up, in `lang`.
    pub fn observed(&self, lang: Lang) -> String {
        let report = parallel_core::evaluate(&self.target).expect("a task's plan is valid");
        (self.observe)(lang, &report)
    }
}

/// The heaviest traffic dimension of a report, as "TP 150.3 GB (NVLink)".
pub fn heaviest(lang: Lang, report: &Report) -> String {
    report
        .heaviest_traffic()
        .map(|t| {
            let dim = vocab::dim(lang, t.dim);
            format!(
                "{dim} {} ({})",
                format::bytes(t.bytes),
                vocab::link(lang, t.link)
            )
        })
        .unwrap_or_else(|| lang.pick("没有通信", "no traffic").to_string())
}

/// The total against the card, "101.2 GB ✗ (> 80.0 GB)".
pub fn total_line(lang: Lang, report: &Report) -> String {
    let m = report.memory;
    let text = if m.fits {
        text::TOTAL_FITS
    } else {
        text::TOTAL_OVER
    };
    text.fill(lang, &[("total", &m.total), ("capacity", &m.capacity)])
}

/// The guided steps of one grid.
#[component]
pub fn GuidedTasks(tasks: Vec<Task>, lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let items = tasks
        .into_iter()
        .enumerate()
        .map(|(i, task)| {
            let target = task.target.clone();
            let select = task.select;
            let here = {
                let target = target.clone();
                move || lab.config.with(|c| *c == target) && (select.is_none() || lab.selected.get() == select)
            };
            let observe = task.observe;
            let observation = {
                let here = here.clone();
                move || here().then(|| lab.report.with(|r| observe(lang.get(), r)))
            };
            let start = task.start.clone().map(|start| {
                let at_start = {
                    let start = start.clone();
                    move || lab.config.with(|c| *c == start)
                };
                let reading = move || at_start().then(|| lab.report.with(|r| total_line(lang.get(), r)));
                let id = format!("task-{}-start", task.id);
                let button = plan_button(lab, id, start, None, ("先摆出起点", "Set up the start first"));
                (button, observation_line(reading))
            });
            let (start_button, start_reading) = start.unzip();
            // The readings at the step's plans, from the core's report of each.
            let start_room = task.start.as_ref().and_then(|start| evaluate(start).ok()).map(|r| room_line(move || total_line(lang.get(), &r)));
            let target_room = evaluate(&target).ok().map(|r| room_line(move || observe(lang.get(), &r)));
            view! {
                <li class="task" class:done=here.clone() data-testid=format!("task-{}", task.id)>
                    <span class="task-number" aria-hidden="true">{["①", "②", "③", "④"].get(i).copied().unwrap_or("•")}</span>
                    <div class="task-body">
                        <p><Say words=task.todo /></p>
                        {start_button}
                        {plan_button(lab, format!("task-{}-set", task.id), target, select, ("在网格里设好", "Set it up in the grid"))}
                        // The room a reading takes is kept whether it shows or not, so that it
                        // appearing or going (a slider moved onto or off the step's plan) never
                        // moves the controls and the grid below it: the readings at the step's
                        // plans, hidden, share the live reading's place and hold it open however
                        // many lines they wrap to on a narrow screen.
                        <div class="task-reading">
                            <div role="status">
                                {start_reading}
                                {observation_line(observation)}
                            </div>
                            {start_room}
                            {target_room}
                        </div>
                    </div>
                </li>
            }
        })
        .collect_view();
    view! { <ol class="tasks">{items}</ol> }
}

/// A step's button (`label`: 中文, English), which loads `plan` into the grid, brought into
/// view, with `select` selected.
fn plan_button(
    lab: GridLab,
    test_id: String,
    plan: PlanConfig,
    select: Option<u32>,
    (zh, en): (&'static str, &'static str),
) -> impl IntoView {
    view! {
        <button type="button" class="small" data-testid=test_id on:click=move |_| {
            lab.load_into_view(plan.clone());
            lab.selected.set(select);
        }>
            <T zh=zh en=en />
        </button>
    }
}

/// A button's `reading` while its plan holds.
fn observation_line(reading: impl Fn() -> Option<String> + Send + Sync + 'static) -> impl IntoView {
    move || reading().map(|text| reading_line("task-observation", false, text))
}

/// The reading a step shows at one of its plans, laid out but never seen: it keeps that
/// reading's room (see `.task-room`).
fn room_line(reading: impl Fn() -> String + Send + Sync + 'static) -> impl IntoView {
    reading_line("task-room", true, reading)
}

/// A reading as a step writes it, "→ …": one markup for the live reading and its room, so the
/// room is exactly as long as the reading.
fn reading_line(class: &'static str, hidden: bool, text: impl IntoView + 'static) -> impl IntoView {
    view! { <p class=class aria-hidden=hidden.then_some("true")>"→ " {text}</p> }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;
    use parallel_core::{evaluate, Recompute};

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let base = PlanConfig::lesson_8_gpus;
        let fits = evaluate(&base()).unwrap();
        let over = evaluate(&PlanConfig {
            recompute: Recompute::Selective,
            ..base()
        })
        .unwrap();
        assert_each_lang_uses_all(text::ALL, |lang| {
            total_line(lang, &fits);
            total_line(lang, &over);
        });
        assert_eq!(total_line(Lang::Zh, &fits), "每卡合计 58.2 GB ≤ 80.0 GB");
        assert_eq!(
            total_line(Lang::En, &over),
            "total per card 101.2 GB > 80.0 GB ✗"
        );
    }
}
