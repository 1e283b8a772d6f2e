//! The planner (`plan.html`), for engineers and teachers: both grids with every card preset,
//! one's own config.json, memory by stage and the launch flags out and in; the plan search;
//! published and measured runs against the lab's figures.

#[cfg(feature = "js-api")]
pub mod js_api;
pub mod search;

use leptos::prelude::*;
use parallel_core::link::Entry;

use crate::kit::gpu_check::gpu_check_panel;
use crate::kit::grid_kit::GridKit;
use crate::kit::own_model::OwnModel;
use crate::kit::run_it::RunIt;
use crate::pages::grid_page;
use crate::pages::plan::search::runs::RunsTable;
use crate::pages::plan::search::PlanSearch;

/// What this page adds to each grid.
const KIT: GridKit = GridKit {
    own_model: Some(|lab| view! { <OwnModel lab=lab /> }.into_any()),
    run: Some(|lab| view! { <RunIt lab=lab /> }.into_any()),
    check: Some(|lab| Box::pin(gpu_check_panel(lab))),
    ..GridKit::BARE
};

/// The planner. `bin/plan.rs` mounts it on `<body>`.
#[component]
pub fn PlanPage() -> impl IntoView {
    grid_page(
        Entry::Plan,
        ("并行实验室：规划器", "Parallel Lab: the planner"),
        (
            "任选模型（或贴上你自己的 config.json）和卡型，在网格里看每卡每段的显存、每一维的通信和步时估算；让搜索把成立的方案排个序；再拿公开训练和单卡实测来检验这些数。",
            "Pick any model (or paste your own config.json) and card, and see memory per card and stage, each dimension's traffic and the step-time estimate in a grid; let the search rank the plans that work; then hold these figures against published runs and single-card measurements.",
        ),
        KIT,
        |page| {
            view! {
                <section class="part" data-testid="section-search">
                    <PlanSearch lab8=page.lab8 lab64=page.lab64 />
                    <RunsTable />
                </section>
            }
            .into_any()
        },
    )
}
