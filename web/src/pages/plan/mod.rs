//! The planner (`plan.html`), for engineers and teachers: both grids with every card preset,
//! one's own config.json, memory by stage and the launch flags out and in; the plan search;
//! published and measured runs against the lab's figures.

#[cfg(feature = "js-api")]
pub mod js_api;
pub mod search;

use leptos::prelude::*;
use parallel_core::link::Entry;

use crate::kit::gpu_check::GpuCheck;
use crate::kit::grid_kit::GridKit;
use crate::kit::grid_section::BothGrids;
use crate::kit::header::PageHeader;
use crate::kit::i18n::T;
use crate::kit::own_model::OwnModel;
use crate::kit::run_it::RunIt;
use crate::kit::share::LinkNotice;
use crate::pages::plan::search::runs::RunsTable;
use crate::pages::plan::search::PlanSearch;
use crate::state::later::LaterParts;
use crate::state::start;

/// What this page adds to each grid.
const KIT: GridKit = GridKit {
    own_model: Some(|lab| view! { <OwnModel lab=lab /> }.into_any()),
    run: Some(|lab| view! { <RunIt lab=lab /> }.into_any()),
    check: Some(|lab| view! { <GpuCheck lab=lab /> }.into_any()),
    ..GridKit::BARE
};

/// The planner. `bin/plan.rs` mounts it on `<body>`.
#[component]
pub fn PlanPage() -> impl IntoView {
    let (page, _) = start::start_page(Entry::Plan);
    let later = LaterParts::new(false);
    provide_context(later);
    later.draw_after_first_frame();
    view! {
        <PageHeader
            page=page
            here=Entry::Plan
            title_zh="并行实验室：规划器"
            title_en="Parallel Lab: the planner"
        />
        <LinkNotice page=page />
        <main class="page">
            <section class="part intro">
                <p class="lead">
                    <T zh="任选模型（或贴上你自己的 config.json）和卡型，在网格里看每卡每段的显存、每一维的通信和步时估算；让搜索把成立的方案排个序；再拿公开训练和单卡实测来检验这些数。"
                       en="Pick any model (or paste your own config.json) and card, and see memory per card and stage, each dimension's traffic and the step-time estimate in a grid; let the search rank the plans that work; then hold these figures against published runs and single-card measurements." />
                </p>
            </section>
            <BothGrids page=page kit=KIT />
            <section class="part" data-testid="section-search">
                <PlanSearch lab8=page.lab8 lab64=page.lab64 />
                <RunsTable />
            </section>
        </main>
    }
}
