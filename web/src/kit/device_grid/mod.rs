//! The device grid: cards drawn inside their node boxes, the selected card's TP / CP / PP / DP
//! groups lit (colour plus a second cue: outline style and a letter badge), and the ring hops
//! of each group drawn card to card, marked NVLink (inside a node) or InfiniBand (across).
//!
//! One component serves the 8-GPU machine and the 64-GPU cluster. It draws what the core says
//! (`Grid::groups`, `Link::of_cards`); its own arithmetic is only layout. This module holds the
//! component (node boxes, the hops, the cards' events, the memory read-out and the tint's
//! scale); its parts are `layout` (geometry and hops), `card` (a card's view-models), `cards`
//! (the cards' views and their reactive values), `words` and `legend`. Everything is drawn with
//! `view!`: one view per card, and the hops as a keyed list of paths.

mod card;
mod cards;
mod layout;
mod legend;
mod words;

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use parallel_core::link::GridId;
use parallel_core::{Groups, Plan};
use wasm_bindgen::JsCast;

use crate::kit::format;
use crate::kit::i18n::{tr, use_lang};
use crate::state::lab::{roles_of, CardLoad};
pub use card::tint;
use card::{card_face, CardMemory};
use cards::{card_cells, card_view};
use layout::NODE_PAD;
pub use layout::{hops, Hop, Layout};
use legend::GroupLegend;
pub use words::badge;
use words::card_load_line;

/// The words of the grid around its cards.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// A node box's title.
        pub const NODE: Text = Text {
            zh: "机器 {node}",
            en: "Node {node}",
        };
        /// The tint's legend.
        pub const SCALE: Text = Text {
            zh: "每张卡顶上的色条：它自己的显存合计，从 0（浅）到容量 {capacity}（深）；超过容量的卡标「!」，超过容量 {safe} 的卡（偏紧）描虚线边。",
            en: "The bar along each card's top: its own total memory, from 0 (light) to the capacity of {capacity} (dark); a card over capacity is marked “!”, a card above {safe} of it (tight) has a dashed outline.",
        };

        /// The margin's source, as the legend's disclosure names it.
        pub const WHY_SAFE: Text = Text {
            zh: "为什么是 {safe}？",
            en: "Why {safe}?",
        };
        /// Where the margin comes from (Fujii, Watanabe, Yokota 2024).
        pub const SAFE_SOURCE: Text = Text {
            zh: "Fujii、Watanabe、Yokota 2024（arXiv 2411.06465）在 A100 与 H100 上做了 454 次训练：估算显存低于卡的 {safe} 时，从未出现显存不足。余下的部分留给临时缓冲、碎片与分配器自己。",
            en: "Fujii, Watanabe and Yokota 2024 (arXiv 2411.06465) ran 454 trainings on A100 and H100 cards: while the estimated memory stayed under {safe} of the card, none ran out of memory. The rest goes to temporary buffers, fragmentation and the allocator itself.",
        };
    }
}

fn focus_card(event: &KeyboardEvent, card: u32) {
    let Some(target) = event.current_target() else {
        return;
    };
    let Ok(element) = target.dyn_into::<web_sys::Element>() else {
        return;
    };
    let Some(svg) = element.closest("svg").ok().flatten() else {
        return;
    };
    if let Ok(Some(next)) = svg.query_selector(&format!("[data-card='{card}']")) {
        if let Ok(next) = next.dyn_into::<web_sys::SvgElement>() {
            let _ = next.focus();
        }
    }
}

/// The grid of cards. `plan` gives N, the node size and each card's coordinates; `groups` the
/// selected card's groups; `on_toggle` / `on_clear` are how a click or a key changes the
/// selection.
#[component]
pub fn DeviceGrid(
    /// Which grid: its `data-testid` is "grid-8" or "grid-64".
    grid: GridId,
    /// The (last valid) plan.
    #[prop(into)]
    plan: Signal<Plan>,
    /// The selected card.
    #[prop(into)]
    selected: Signal<Option<u32>>,
    /// The selected card's groups.
    #[prop(into)]
    groups: Signal<Option<Groups>>,
    /// What each card holds in the phase shown, card by card: in training its stage's memory
    /// (or the even split's), in the rollout phase its engine and a rollout card's memory.
    #[prop(into)]
    memory: Signal<Vec<CardLoad>>,
    /// Click or Enter on a card.
    on_toggle: Callback<u32>,
    /// Escape.
    on_clear: Callback<()>,
    /// Drawn compact (an embedded grid): four node boxes a row where they fit, the cards'
    /// coordinates not drawn (they stay in each card's name).
    #[prop(optional)]
    compact: bool,
) -> impl IntoView {
    let lang = use_lang();
    let (gpus, gpus_per_node) = plan.with_untracked(|p| (p.gpus(), p.gpus_per_node()));
    // Laid out for the window it opens in: a phone stands the node boxes one a row.
    let width = crate::state::prerender::window_width();
    let layout = if compact {
        Layout::compact(gpus, gpus_per_node, width)
    } else {
        Layout::for_width(gpus, gpus_per_node, width)
    };
    let nodes = layout.nodes();
    let roles = Memo::new(move |_| {
        groups.with(|groups| match groups {
            Some(g) => (0..gpus).map(|card| roles_of(g, card)).collect::<Vec<_>>(),
            None => vec![Vec::new(); gpus as usize],
        })
    });

    // Each card's coordinates, as one memo: a change of m or s leaves them equal, so the 64
    // card labels are not touched at all. In the rollout phase a card's coordinate is its
    // engine, "r2" (the legend and the read-out name it in words).
    let engines = Memo::new(move |_| {
        memory.with(|m| {
            m.iter()
                .map(|load| match load {
                    CardLoad::Rollout { engine, .. } => Some(*engine),
                    CardLoad::Training(_) => None,
                })
                .collect::<Vec<_>>()
        })
    });
    let coord_labels = Memo::new(move |_| {
        let engines = engines.get();
        plan.with(|p| {
            let grid = p.grid();
            (0..gpus)
                .map(|card| match engines.get(card as usize).copied().flatten() {
                    Some(engine) => format!("r{engine}"),
                    None => grid
                        .coords(card)
                        .map(|c| format!("t{} c{} p{} d{}", c.tp, c.cp, c.pp, c.dp))
                        .unwrap_or_default(),
                })
                .collect::<Vec<_>>()
        })
    });

    let node_boxes = (0..nodes)
        .map(|node| {
            let (x, y) = layout.node_origin(node);
            let (w, h) = layout.node_size();
            view! {
                <g class="node">
                    <rect class="node-box" x=x y=y width=w height=h rx="10" />
                    <text class="node-title" x=x + NODE_PAD y=y + 15.0>
                        {move || text::NODE.fill(lang.get(), &[("node", &node)])}
                    </text>
                </g>
            }
        })
        .collect_view();

    // The card under the pointer or the keyboard focus: its memory is read out below the grid.
    let pointed = RwSignal::new(None::<u32>);
    // One capacity for every card (the tint's top and the read-out's "capacity").
    let capacity = Memo::new(move |_| plan.with(|p| p.capacity()));

    // What every card shows, as two grid-wide memos: the selection's side (groups,
    // coordinates, name) and the memory's side. Each card's own values are set from them only
    // where they changed (`cards::card_cells`), so a move re-runs only what it changed.
    let faces = Memo::new(move |_| {
        let lang = lang.get();
        let selected = selected.get();
        roles.with(|roles| {
            coord_labels.with(|coords| {
                (0..gpus)
                    .map(|card| {
                        let i = card as usize;
                        card_face(
                            lang,
                            card,
                            selected == Some(card),
                            roles.get(i).map_or(&[], Vec::as_slice),
                            coords.get(i).cloned().unwrap_or_default(),
                        )
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    let memories = Memo::new(move |_| {
        let capacity = capacity.get();
        memory.with(|m| {
            plan.with(|p| {
                (0..gpus)
                    .map(|card| {
                        let hot = p.hot_card_load(card);
                        m.get(card as usize)
                            .map(|m| CardMemory::new(m, capacity, hot))
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    // The memory in words of the card under the pointer or holding the focus: read out below
    // the grid, and that card's title (the browser's tooltip). Only that one card has a title,
    // so a move does not write 64 of them; the selector wakes only the cards pointed and
    // no longer pointed.
    let pointed_line = Memo::new(move |_| {
        let card = pointed.get()?;
        let m = memory.with(|m| m.get(card as usize).copied())?;
        Some((card, card_load_line(lang.get(), card, &m, capacity.get())))
    });
    let is_pointed = Selector::new(move || pointed.get());
    let cells = card_cells(faces, memories);
    let card_views = cells
        .into_iter()
        .zip(0..gpus)
        .map(|(cells, card)| {
            let is_pointed = is_pointed.clone();
            let title = move || {
                if is_pointed.selected(&Some(card)) {
                    pointed_line
                        .with(|line| line.as_ref().map(|(_, line)| line.clone()))
                        .unwrap_or_default()
                } else {
                    String::new()
                }
            };
            card_view(
                card,
                layout.card_origin(card),
                layout.card_shape(),
                cells,
                title,
            )
        })
        .collect_view();
    let card_of = |target: Option<web_sys::EventTarget>| -> Option<u32> {
        let element = target?.dyn_into::<web_sys::Element>().ok()?;
        let card = element.closest("[data-card]").ok()??;
        card.get_attribute("data-card")?.parse().ok()
    };
    // Leaving for a card of the other grid is leaving this one: a related target counts only
    // inside this grid's own cards.
    let card_within = move |own: Option<web_sys::EventTarget>,
                            target: Option<web_sys::EventTarget>|
          -> Option<u32> {
        let own = own?.dyn_into::<web_sys::Node>().ok()?;
        let node = target.clone()?.dyn_into::<web_sys::Node>().ok()?;
        own.contains(Some(&node)).then(|| card_of(target)).flatten()
    };
    let on_key = move |event: KeyboardEvent| {
        let Some(card) = card_of(event.target()) else {
            return;
        };
        let key = event.key();
        match key.as_str() {
            "Enter" | " " => {
                event.prevent_default();
                on_toggle.run(card);
            }
            "Escape" => on_clear.run(()),
            other => {
                if let Some(next) = layout.neighbour(card, other) {
                    event.prevent_default();
                    focus_card(&event, next);
                }
            }
        }
    };
    let point = move |card: Option<u32>| {
        if pointed.get_untracked() != card {
            pointed.set(card);
        }
    };
    let cards = view! {
        <g
            class="cards"
            on:click=move |event| {
                if let Some(card) = card_of(event.target()) {
                    on_toggle.run(card);
                }
            }
            on:keydown=on_key
            // The card under the pointer or holding the focus; leaving for another card (or
            // for none) says so through the event's related target.
            on:mouseover=move |event| point(card_of(event.target()))
            on:mouseout=move |event| point(card_within(event.current_target(), event.related_target()))
            on:focusin=move |event| point(card_of(event.target()))
            on:focusout=move |event| point(card_within(event.current_target(), event.related_target()))
        >
            {card_views}
        </g>
    };
    // The hops of the selected card's groups, one path each, keyed by their cards and
    // dimension: a path that stays is not written again.
    let hop_list = Memo::new(move |_| {
        groups.with(|g| {
            g.as_ref()
                .map(|g| hops(g, gpus_per_node))
                .unwrap_or_default()
        })
    });

    view! {
        <figure class="grid-figure">
            <svg
                class="device-grid"
                class:one-column=layout.one_column()
                class:compact=compact
                data-testid=format!("grid-{}", grid.gpus())
                viewBox=layout.view_box()
                role="group"
                aria-label=tr("设备网格：点一张卡看它的分组", "Device grid: pick a card to see its groups")
            >
                {node_boxes}
                <g class="hops" aria-hidden="true">
                    <For
                        each=move || hop_list.get()
                        key=Hop::key
                        children=move |hop| {
                            view! {
                                <path
                                    class=hop.class()
                                    data-link=hop.link.as_str()
                                    data-from=hop.from
                                    data-to=hop.to
                                    d=hop.path(&layout)
                                ></path>
                            }
                        }
                    />
                </g>
                {cards}
            </svg>
            <p class="card-memory-detail" data-testid="card-memory-detail" aria-live="polite">
                {move || pointed_line.with(|line| line.as_ref().map(|(_, line)| line.clone()))}
            </p>
            <div class="memory-scale" data-testid="memory-scale">
                <span class="memory-scale-end">"0 GB"</span>
                <span class="memory-scale-bar" aria-hidden="true"></span>
                <span class="memory-scale-end">{move || format::bytes(capacity.get())}</span>
                <span class="memory-scale-note">
                    {move || text::SCALE.fill(lang.get(), &[("capacity", &format::bytes(capacity.get())), ("safe", &format::safe_share())])}
                </span>
                <details class="memory-scale-source" data-testid="tight-source">
                    <summary>{move || text::WHY_SAFE.fill(lang.get(), &[("safe", &format::safe_share())])}</summary>
                    <p>{move || text::SAFE_SOURCE.fill(lang.get(), &[("safe", &format::safe_share())])}</p>
                </details>
            </div>
            <GroupLegend groups=groups gpus_per_node=gpus_per_node compact=compact />
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::i18n::Lang;

    #[test]
    fn the_grid_s_words_are_filled_with_their_names() {
        crate::kit::text::testing::assert_all_used(text::ALL, || {
            for lang in [Lang::Zh, Lang::En] {
                text::NODE.fill(lang, &[("node", &2)]);
                text::SCALE.fill(lang, &[("capacity", &"80.0 GB"), ("safe", &"80%")]);
                text::WHY_SAFE.fill(lang, &[("safe", &"80%")]);
                text::SAFE_SOURCE.fill(lang, &[("safe", &"80%")]);
            }
        });
    }
}
