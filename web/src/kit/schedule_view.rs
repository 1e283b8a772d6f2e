//! The pipeline schedule as stages × time: the plan's own schedule, or any of GPipe, 1F1B,
//! interleaved and ZB-H1 for the same p and m. The timeline is the core's `simulate_schedule`,
//! drawn on a canvas by `charts::ScheduleChart`.

use leptos::prelude::*;
use parallel_core::{simulate_schedule, Plan, ScheduleView as View, Timeline};

use crate::kit::charts::ScheduleChart;
use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};

/// The sentences of the schedule view.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The caption under the timeline.
        pub const IDLE: Text = Text {
            zh: "空等占比 {idle} · {slots} 个时间片",
            en: "idle share {idle} · {slots} time slots",
        };
    }
}

/// The caption of a timeline: its idle share and its length.
fn idle_caption(lang: Lang, timeline: &Timeline) -> String {
    text::IDLE.fill(
        lang,
        &[
            ("idle", &format::percent(timeline.idle_share)),
            ("slots", &timeline.total_ticks),
        ],
    )
}

fn view_name(lang: Lang, view: View) -> &'static str {
    match view {
        View::Gpipe => "GPipe",
        View::OneFOneB => "1F1B",
        View::Interleaved => lang.pick("interleaved(v = 2)", "interleaved (v = 2)"),
        View::ZbH1 => lang.pick("零气泡 ZB-H1", "zero bubble ZB-H1"),
    }
}

/// The timeline for a plan drawn as `view`: interleaved uses the plan's v (2 when the plan is
/// not interleaved), everything else one chunk per stage.
fn timeline_for(plan: &Plan, view: View) -> Result<Timeline, parallel_core::PlanError> {
    let chunks = match view {
        View::Interleaved => plan.virtual_stages().max(2),
        _ => 1,
    };
    simulate_schedule(view, plan.degrees().pp, plan.micro_batches(), chunks)
}

/// The schedule view with its switch of schedules.
#[component]
pub fn ScheduleView(#[prop(into)] plan: Signal<Plan>) -> impl IntoView {
    let lang = use_lang();
    // None = follow the plan's own schedule.
    let choice = RwSignal::new(None::<View>);
    let view_now = move || {
        choice
            .get()
            .unwrap_or_else(|| plan.with(|p| View::from(p.schedule())))
    };
    let timeline = Memo::new(move |_| plan.with(|p| timeline_for(p, view_now())));

    let buttons = [View::Gpipe, View::OneFOneB, View::Interleaved, View::ZbH1]
        .into_iter()
        .map(|v| {
            view! {
                <button
                    type="button"
                    class="chip"
                    aria-pressed=move || if view_now() == v { "true" } else { "false" }
                    on:click=move |_| choice.set(Some(v))
                >
                    {move || view_name(lang.get(), v)}
                </button>
            }
        })
        .collect_view();

    let drawable = Memo::new(move |_| {
        let lang = lang.get();
        if plan.with(|p| p.degrees().pp) == 1 {
            return Err(lang
                .pick(
                    "PP = 1：只有一段，没有流水线，也就没有气泡。",
                    "PP = 1: a single stage, no pipeline and no bubble.",
                )
                .to_string());
        }
        timeline.get().map_err(|error| match lang {
            Lang::En => error.to_string(),
            Lang::Zh => "这个 p、m 组合画不出这种调度（interleaved 要求 m 能被 p 整除；图最多画 4,096 格）。".to_string(),
        })
    });
    let summary = Signal::derive(move || {
        let lang = lang.get();
        drawable.with(|t| match t {
            Ok(t) => idle_caption(lang, t),
            Err(note) => note.clone(),
        })
    });
    let idle = move || drawable.with(|t| t.as_ref().ok().map(|t| t.idle_share.to_string()));

    view! {
        <div class="figure schedule-figure" data-testid="schedule-view">
            <h3 class="figure-title"><T zh="流水线调度（段 × 时间）" en="Pipeline schedule (stages × time)" /></h3>
            <div class="chips" role="group">{buttons}</div>
            <ScheduleChart timeline=drawable summary=summary />
            // The idle share under the drawing; without one, the chart itself says why, once.
            <Show when=move || drawable.with(Result::is_ok)>
                <p class="caption" data-testid="schedule-idle" data-share=idle>{summary}</p>
            </Show>
            <p class="legend-line">
                <span class="op-key op-f"></span><T zh="前向 " en="forward " />
                <span class="op-key op-b"></span><T zh="反向 " en="backward " />
                <span class="op-key op-w"></span><T zh="权重梯度 W（ZB-H1 拆出来填空）" en="weight gradient W (ZB-H1 moves it into the gaps)" />
            </p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let t = simulate_schedule(View::Gpipe, 4, 8, 1).unwrap();
        assert_each_lang_uses_all(text::ALL, |lang| {
            idle_caption(lang, &t);
        });
        let expected = format!(
            "idle share {} · {} time slots",
            format::percent(t.idle_share),
            t.total_ticks
        );
        assert_eq!(idle_caption(Lang::En, &t), expected);
    }
}
