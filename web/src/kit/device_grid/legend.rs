//! The device grid's legend: each group of the selected card lit, with its swatch and badge,
//! its name, its members and its link; a hint while no card is selected.

use leptos::prelude::*;
use parallel_core::{Groups, Link};

use super::words::badge;
use crate::kit::format;
use crate::kit::i18n::{use_lang, T};
use crate::kit::vocab;

/// The legend: each lit group with its swatch, members and link. `compact`: the cards'
/// coordinates are not drawn, and the hint does not explain them.
#[component]
pub(super) fn GroupLegend(
    #[prop(into)] groups: Signal<Option<Groups>>,
    gpus_per_node: u32,
    compact: bool,
) -> impl IntoView {
    let lang = use_lang();
    // The dimensions lit for the selected card (none without a selection): they change only
    // with the selection or the model, so the list is built again only then, and a slider
    // move rewrites only the members' texts.
    let lit = Memo::new(move |_| {
        groups.with(|g| {
            g.as_ref()
                .map(|g| g.each().map(|(dim, _)| dim).collect::<Vec<_>>())
        })
    });
    move || {
        match lit.get() {
        None => view! {
            <p class="legend-hint">
                <T zh="点任意一张卡（或用方向键 + Enter），看它的 TP、CP、PP、DP 组；再点一次或按 Esc 取消。"
                   en="Click any card (or use the arrow keys and Enter) to light up its TP, CP, PP and DP groups; click again or press Esc to clear." />
                {(!compact).then(|| view! {
                    <T zh="每张卡上的 t、c、p、d 是它在各维里的位置：t 是它在 TP 组里的序号，c 是 CP 组里的序号，p 是它所在的流水线段，d 是它属于第几份数据并行副本（都从 0 数）。"
                       en=" The t, c, p and d on each card are its place in each dimension: t its rank in its TP group, c in its CP group, p its pipeline stage, d the data-parallel replica it belongs to (each counted from 0)." />
                })}
            </p>
        }
        .into_any(),
        Some(dims) => {
            let rows = dims
                .into_iter()
                .map(|dim| {
                    let detail = move || {
                        let lang = lang.get();
                        let members =
                            groups.with(|g| g.as_ref().and_then(|g| g.of(dim)).map(<[u32]>::to_vec))?;
                        Some(if members.len() > 1 {
                            let link = Link::of_cards(&members, gpus_per_node);
                            format!("{} · {}", format::cards(&members), vocab::link(lang, link))
                        } else {
                            lang.pick("只有自己（这一维是 1）", "only itself (degree 1)").to_string()
                        })
                    };
                    view! {
                        <li class=format!("legend-item legend-{}", dim.as_str()) data-testid=format!("legend-{}", dim.as_str())>
                            <span class=format!("swatch swatch-{}", dim.as_str()) aria-hidden="true">{badge(dim)}</span>
                            <span class="legend-name">{move || vocab::group(lang.get(), dim)}</span>
                            <span class="legend-members">{detail}</span>
                        </li>
                    }
                })
                .collect_view();
            view! { <ul class="legend">{rows}</ul> }.into_any()
        }
    }
    }
}
