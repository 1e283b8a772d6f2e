//! The device grid's cards as views. Each card is one `view!` whose attributes and texts are
//! bound to the card's own reactive values ([`CardCells`]: its face, name, memory and fit, each
//! a signal), so that a slider's move re-runs only what changed on the cards it changed.
//!
//! Why signals set from the grid-wide memos rather than a `Memo` per card: a change upstream
//! wakes every effect below it, even where a memo between them stays equal (it is checked, not
//! skipped). With 64 cards × ~15 bound attributes that is ~960 effects woken by every m or PP
//! move; a signal set only where the value differs wakes only the effects of what changed.

use leptos::prelude::*;

use super::card::{card_class, CardFace, CardFit, CardMemory, CardName};
use super::layout::{over_mark_at, CARD_H, CARD_W};

/// What every card shows of the selection, card by card (one grid-wide memo).
pub(super) type Faces = Memo<Vec<(CardFace, CardName)>>;
/// What every card shows of its memory, card by card (one grid-wide memo).
pub(super) type Memories = Memo<Vec<Option<(CardMemory, CardFit)>>>;

/// One card's reactive values, one per part of the card that changes on its own: a PP move
/// changes most cards' names (coordinates) and memories, a click their faces.
#[derive(Clone, Copy)]
pub(super) struct CardCells {
    face: RwSignal<CardFace>,
    name: RwSignal<CardName>,
    memory: RwSignal<Option<CardMemory>>,
    fit: RwSignal<Option<CardFit>>,
}

/// Sets `cell` to `new` only when they differ, so that only what changed is notified.
fn set_if_changed<T>(cell: RwSignal<T>, new: &T)
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    if cell.with_untracked(|now| now != new) {
        cell.set(new.clone());
    }
}

/// Every card's cells, from the grid-wide memos as they are now, kept up with them from then
/// on: each cell is set only when its card's value changed.
pub(super) fn card_cells(faces: Faces, memories: Memories) -> Vec<CardCells> {
    let cells = faces.with_untracked(|faces| {
        memories.with_untracked(|memories| {
            faces
                .iter()
                .enumerate()
                .map(|(i, (face, name))| {
                    let own = memories.get(i).cloned().flatten();
                    CardCells {
                        face: RwSignal::new(face.clone()),
                        name: RwSignal::new(name.clone()),
                        memory: RwSignal::new(own.as_ref().map(|(m, _)| m.clone())),
                        fit: RwSignal::new(own.map(|(_, fit)| fit)),
                    }
                })
                .collect::<Vec<_>>()
        })
    });
    let each = cells.clone();
    Effect::new(move |_| {
        faces.with(|faces| {
            for (cell, (face, name)) in each.iter().zip(faces) {
                set_if_changed(cell.face, face);
                set_if_changed(cell.name, name);
            }
        })
    });
    let each = cells.clone();
    Effect::new(move |_| {
        memories.with(|memories| {
            for (i, cell) in each.iter().enumerate() {
                let own = memories.get(i).and_then(Option::as_ref);
                set_if_changed(cell.memory, &own.map(|(m, _)| m.clone()));
                set_if_changed(cell.fit, &own.map(|(_, fit)| *fit));
            }
        })
    });
    cells
}

/// One card at `(x, y)`: its body, its tint bar, its rank, badges and coordinates, and the "!"
/// of a card over its capacity. `title` is its title (filled on the card under the pointer or
/// focus only). The spaces between the texts are not drawn (SVG ignores text outside
/// `<text>`); they keep the card's text "1 TD t0 c0 p0 d1" in words for tools that read it,
/// matching the start of its name.
pub(super) fn card_view(
    card: u32,
    (x, y): (f64, f64),
    cells: CardCells,
    title: impl Fn() -> String + Send + Sync + 'static,
) -> impl IntoView {
    let CardCells {
        face,
        name,
        memory,
        fit,
    } = cells;
    let over = move || fit.with(|f| f.is_some_and(|f| !f.fits));
    let (mark_x, mark_y) = over_mark_at((x, y));
    view! {
        <g
            class=move || face.with(|face| card_class(face, fit.get()))
            data-testid=format!("card-{card}")
            data-card=card
            data-groups=move || face.with(CardFace::groups)
            data-selected=move || face.with(CardFace::data_selected)
            aria-pressed=move || face.with(CardFace::pressed)
            data-bytes=move || memory.with(|m| m.as_ref().map(CardMemory::bytes))
            data-stage=move || memory.with(|m| m.as_ref().and_then(CardMemory::stage))
            data-engine=move || memory.with(|m| m.as_ref().and_then(CardMemory::engine))
            data-fits=move || fit.get().map(|f| CardFit::flag(f.fits))
            data-tight=move || fit.get().map(|f| CardFit::flag(f.tight))
            data-expert-load=move || memory.with(|m| m.as_ref().and_then(CardMemory::hot))
            role="button"
            tabindex="0"
            aria-label=move || name.with(CardName::label)
        >
            <title>{title}</title>
            <rect class="card-body" x=x y=y width=CARD_W height=CARD_H rx="6"></rect>
            // The `fill` presentation attribute: the page's Content-Security-Policy refuses a
            // `style` attribute.
            <rect
                class="card-tint"
                x=x + 6.0
                y=y + 3.0
                width=CARD_W - 12.0
                height="5"
                rx="2"
                fill=move || memory.with(|m| m.as_ref().map(CardMemory::tint))
            ></rect>
            <text class="card-rank" x=x + 8.0 y=y + 20.0>{card}</text>
            // The hottest expert's cards (SPEC §20): "▲" beside the rank.
            {move || {
                memory
                    .with(|m| m.as_ref().and_then(CardMemory::hot))
                    .map(|_| {
                        view! {
                            " "
                            <text class="card-hot" x=x + 26.0 y=y + 20.0>"▲"</text>
                        }
                    })
            }}
            " "
            <text class="card-badge" x=x + CARD_W - 6.0 y=y + 17.0 text-anchor="end">
                {move || face.with(CardFace::badges)}
            </text>
            " "
            <text class="card-coords" x=x + 8.0 y=y + CARD_H - 8.0>
                {move || name.with(CardName::coords)}
            </text>
            {move || {
                over()
                    .then(|| {
                        view! {
                            " "
                            <text class="card-over" x=mark_x y=mark_y text-anchor="end">
                                "!"
                            </text>
                        }
                    })
            }}
        </g>
    }
}
