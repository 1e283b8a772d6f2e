//! One grid with everything around it: controls, the device grid and its legend, memory,
//! traffic, bubble, warnings and charts. Used for the 8-GPU machine and the 64-GPU cluster.

use leptos::prelude::*;
use parallel_core::estimate::CommTime;
use parallel_core::link::{GridId, Part as Drawn};
use parallel_core::{Groups, Plan, Report, Traffic};

use crate::kit::charts::{BalanceChart, BubbleChart, MemoryChart, StageChart, TrafficChart};
use crate::kit::controls::GridControls;
use crate::kit::device_grid::DeviceGrid;
use crate::kit::estimate::EstimateFigure;
use crate::kit::figures::{BubbleFigure, TrafficTable, Warnings};
use crate::kit::grid_kit::GridKit;
use crate::kit::i18n::T;
use crate::kit::memory_figure::MemoryFigure;
use crate::kit::routing::RoutingFigure;
use crate::kit::schedule_view::ScheduleView;
use crate::state::lab::{part, CardLoad, GridLab};
use crate::state::later::{LaterPart, Piece};
use crate::state::permalink::PageState;
use crate::state::split::split_part;

/// The interactive lab of one grid, `grid` (its class `grid-lab-8` or `grid-lab-64`, the
/// device grid's test id `grid-8` or `grid-64`), with what the page adds (`kit`).
#[component]
pub fn GridLabView(lab: GridLab, grid: GridId, kit: GridKit) -> impl IntoView {
    // The lab's memos as they are (a derived signal would clone the plan or report on every
    // read), and memos of the parts each figure shows, so that a figure whose part did not
    // change is not run again.
    let plan: Signal<Plan> = lab.plan.into();
    let report: Signal<Report> = lab.report.into();
    let memory = part(move || lab.report.with(|r| r.memory));
    let busiest = part(move || lab.report.with(|r| r.busiest_stage));
    // An MoE model's states split into routed experts and the dense rest, as the core says
    // the memory figure shows them.
    let experts = part(move || lab.plan.with(|p| lab.report.with(|r| r.states_split(p))));
    let estimate = part(move || lab.report.with(|r| r.estimate));
    let card = part(move || lab.plan.with(|p| p.config().clone()));
    let times: Signal<Vec<CommTime>> = lab.comm_times.into();
    let card_loads: Signal<Vec<CardLoad>> = lab.card_loads.into();
    let traffic: Signal<Vec<Traffic>> = lab.traffic.into();
    let selected: Signal<Option<u32>> = lab.selected.into();
    let groups: Signal<Option<Groups>> = lab.groups.into();
    let on_toggle = Callback::new(move |card: u32| lab.toggle(card));
    let on_clear = Callback::new(move |()| lab.selected.set(None));
    let stale = move || lab.error.with(Option::is_some);
    // The piece below the figures: the charts and "check on a GPU", drawn after the first frame.
    let below = match grid {
        GridId::Eight => Piece::ChartsEight,
        GridId::SixtyFour => Piece::ChartsSixtyFour,
    };
    let draws = move |part: Drawn| kit.draws(part);
    let device = draws(Drawn::Grid).then(|| view! {
        <div class="grid-lab-grid" class:stale=stale data-grid-view=grid.gpus()>
            {move || stale().then(|| view! {
                <p class="stale-note" role="status">
                    <T zh="这个组合不成立；下面仍是上一个成立的方案。"
                       en="This combination does not work; the figures below still show the last one that did." />
                </p>
            })}
            <DeviceGrid
                grid=grid
                plan=plan
                selected=selected
                groups=groups
                memory=card_loads
                on_toggle=on_toggle
                on_clear=on_clear
                compact=kit.compact
            />
        </div>
    });
    let figures = (draws(Drawn::Figures) || draws(Drawn::Estimate)).then(|| {
        view! {
            <div class="grid-lab-figures">
                {draws(Drawn::Figures).then(|| view! {
                    <MemoryFigure memory=memory busiest=busiest experts=experts lab=lab />
                    {GridKit::draw(kit.figures, lab)}
                    <RoutingFigure lab=lab />
                    <BubbleFigure report=report lab=lab />
                })}
                {draws(Drawn::Estimate).then(|| view! {
                    <EstimateFigure estimate=estimate card=card times=times lab=lab />
                })}
                {draws(Drawn::Figures).then(|| view! { <Warnings report=report /> })}
            </div>
        }
    });
    let traffic_table = draws(Drawn::Traffic).then(|| {
        view! {
            <div class="grid-lab-traffic">
                <TrafficTable traffic=traffic selected=selected lab=lab />
            </div>
        }
    });
    let charts = kit.parts.any_chart().then(|| {
        view! {
            <div class="grid-lab-charts">
                <LaterPart piece=below load=move || grid_charts(kit, plan, traffic) />
            </div>
        }
    });
    view! {
        <div class=format!("grid-lab grid-lab-{}", grid.gpus())>
            <div class="grid-lab-controls">
                <GridControls lab=lab kit=kit />
            </div>
            {device}
            {figures}
            {traffic_table}
            {kit.run.map(|run| view! { <div class="grid-lab-run">{run(lab)}</div> })}
            {charts}
            {kit.check.map(|check| view! {
                <div class="grid-lab-check">
                    <LaterPart piece=below load=move || check(lab) />
                </div>
            })}
        </div>
    }
}

/// One grid in its part, under its heading (`section-8`, `section-64`).
#[component]
pub fn GridPart(
    lab: GridLab,
    grid: GridId,
    kit: GridKit,
    title_zh: &'static str,
    title_en: &'static str,
) -> impl IntoView {
    let test_id = format!("section-{}", grid.gpus());
    let title_id = format!("grid-title-{}", grid.gpus());
    let labelled_by = title_id.clone();
    view! {
        <section class="part" data-testid=test_id aria-labelledby=labelled_by>
            <h2 id=title_id><T zh=title_zh en=title_en /></h2>
            <GridLabView lab=lab grid=grid kit=kit />
        </section>
    }
}

/// Both grids, each in its part with its title, as the RL page and the planner show them.
#[component]
pub fn BothGrids(page: PageState, kit: GridKit) -> impl IntoView {
    view! {
        <GridPart lab=page.lab8 grid=GridId::Eight kit=kit title_zh="一台机：8 张卡" title_en="One machine: 8 cards" />
        <GridPart lab=page.lab64 grid=GridId::SixtyFour kit=kit title_zh="8 台机：64 张卡" title_en="Eight machines: 64 cards" />
    }
}

// The charts, from a split module of their own (`crate::state::split`): plotters and the
// charts' code are fetched when they are first drawn, after the page's first frame.
split_part! { in charts;
    /// The charts `kit` draws, of `plan` and its `traffic`.
    fn grid_charts(kit: GridKit, plan: Signal<Plan>, traffic: Signal<Vec<Traffic>>) {
        let draws = move |part: Drawn| kit.draws(part);
        let chart =
            move |part: Drawn, view: fn(Signal<Plan>) -> AnyView| draws(part).then(|| view(plan));
        view! {
            {chart(Drawn::ChartMemory, |plan| view! { <MemoryChart plan=plan /> }.into_any())}
            {chart(Drawn::ChartBalance, |plan| view! { <BalanceChart plan=plan /> }.into_any())}
            {chart(Drawn::ChartStages, |plan| view! { <StageChart plan=plan /> }.into_any())}
            {draws(Drawn::ChartTraffic).then(|| view! { <TrafficChart traffic=traffic /> })}
            {chart(Drawn::ChartBubble, |plan| view! { <BubbleChart plan=plan /> }.into_any())}
            {chart(Drawn::Schedule, |plan| view! { <ScheduleView plan=plan /> }.into_any())}
        }
    }
}
