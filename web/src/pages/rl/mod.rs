//! The RL layout step (`rl.html`, seed 000), for people setting up an RL run: both grids with
//! the optimizer on the host (CPU Adam), the rollout engines and their pool, log-probability
//! chunks, one's own config.json and the slime command; then the starting recipes.

pub mod offload;

use leptos::prelude::*;
use parallel_core::link::Entry;

use crate::kit::grid_kit::GridKit;
use crate::kit::own_model::OwnModel;
use crate::kit::real_configs::recipes::RecipeTable;
use crate::kit::rollout::{RolloutFigure, RolloutPanel};
use crate::kit::run_it::RunIt;
use crate::pages::grid_page;
use crate::pages::rl::offload::{HostMemoryFigure, OffloadSwitch};
use crate::state::lab::{part, GridLab};

/// The host's memory and the rollout card, after the memory figure.
fn figures(lab: GridLab) -> AnyView {
    let host = part(move || lab.report.with(|r| r.memory.host));
    let states = part(move || lab.report.with(|r| r.memory.model_states));
    view! {
        <HostMemoryFigure host=host states=states lab=lab />
        <RolloutFigure lab=lab />
    }
    .into_any()
}

/// What this page adds to each grid.
const KIT: GridKit = GridKit {
    own_model: Some(|lab| view! { <OwnModel lab=lab /> }.into_any()),
    host: Some(|lab| view! { <OffloadSwitch lab=lab /> }.into_any()),
    rollout: Some(|lab| view! { <RolloutPanel lab=lab /> }.into_any()),
    figures: Some(figures),
    run: Some(|lab| view! { <RunIt lab=lab /> }.into_any()),
    ..GridKit::BARE
};

/// The RL layout page. `bin/rl.rs` mounts it on `<body>`.
#[component]
pub fn RlPage() -> impl IntoView {
    grid_page(
        Entry::Rl,
        (
            "并行实验室：RL 一步的卡怎么摆",
            "Parallel Lab: laying out the cards of an RL step",
        ),
        (
            "RL 的一步里，训练和 rollout 抢同一批卡的显存：优化器可以放到主机（CPU Adam），rollout 引擎可以和训练同卡或单独成池。在网格里打开它们，看每卡显存、rollout 卡的权重与 KV cache、PCIe 流量和启动命令；最后对照种子 000 的起步配方。",
            "In one RL step, training and rollout share the cards' memory: the optimizer can move to the host (CPU Adam), and the rollout engines can share the training cards or form a pool of their own. Turn them on in a grid and see each card's memory, the rollout card's weights and KV cache, the PCIe traffic and the launch command; then compare seed 000's starting recipes.",
        ),
        KIT,
        |_| {
            view! {
                <section class="part" data-testid="section-recipes">
                    <RecipeTable />
                </section>
            }
            .into_any()
        },
    )
}
