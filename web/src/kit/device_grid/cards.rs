//! The device grid's cards as views. Each card is one `view!` whose attributes and texts are
//! bound to the card's own reactive values ([`CardCells`]: its face, name, fit and each attribute of its memory, each
//! a signal), so that a slider's move re-runs only what changed on the cards it changed.
//!
//! Why signals set from the grid-wide memos rather than a `Memo` per card: a change upstream
//! wakes every effect below it, even where a memo between them stays equal (it is checked, not
//! skipped). With 64 cards × ~15 bound attributes that is ~960 effects woken by every m or PP
//! move; a signal set only where the value differs wakes only the effects of what changed.

use leptos::prelude::*;

use super::card::{card_class, CardFace, CardFit, CardMemory, CardName};
use super::layout::{CardShape, CARD_H};

/// What every card shows of the selection, card by card (one grid-wide memo).
pub(super) type Faces = Memo<Vec<(CardFace, CardName)>>;
/// What every card shows of its memory, card by card (one grid-wide memo).
pub(super) type Memories = Memo<Vec<Option<(CardMemory, CardFit)>>>;

/// One card's reactive values, one per attribute or text of the card, so that a move wakes
/// only the attributes whose text changed: a PP move changes most cards' classes, groups,
/// badges, names, coordinates, stages, bytes and tints, but not whether they are selected,
/// their engines or their hot marks; a click changes faces only.
#[derive(Clone, Copy)]
pub(super) struct CardCells {
    class: RwSignal<String>,
    groups: RwSignal<Option<String>>,
    selected: RwSignal<bool>,
    badges: RwSignal<String>,
    label: RwSignal<String>,
    coords: RwSignal<String>,
    bytes: RwSignal<Option<String>>,
    stage: RwSignal<Option<String>>,
    engine: RwSignal<Option<String>>,
    tint: RwSignal<Option<String>>,
    hot: RwSignal<Option<String>>,
    fit: RwSignal<Option<CardFit>>,
}

/// A card's memory attribute, read from its memory where it has one.
type MemoryPart = fn(&CardMemory) -> Option<String>;

/// The memory's cells and how each is read, in one list for [`CardCells::new`] and
/// [`CardCells::set_memory`].
fn memory_parts(cells: &CardCells) -> [(RwSignal<Option<String>>, MemoryPart); 5] {
    [
        (cells.bytes, |m| Some(m.bytes())),
        (cells.stage, CardMemory::stage),
        (cells.engine, CardMemory::engine),
        (cells.tint, |m| Some(m.tint())),
        (cells.hot, CardMemory::hot),
    ]
}

impl CardCells {
    fn new(face: &(CardFace, CardName), own: Option<&(CardMemory, CardFit)>) -> CardCells {
        let cells = CardCells {
            class: RwSignal::new(String::new()),
            groups: RwSignal::new(None),
            selected: RwSignal::new(false),
            badges: RwSignal::new(String::new()),
            label: RwSignal::new(String::new()),
            coords: RwSignal::new(String::new()),
            bytes: RwSignal::new(None),
            stage: RwSignal::new(None),
            engine: RwSignal::new(None),
            tint: RwSignal::new(None),
            hot: RwSignal::new(None),
            fit: RwSignal::new(None),
        };
        cells.set_face(face);
        cells.set_memory(own);
        cells
    }

    /// Sets each of the face's and the name's cells that changed.
    fn set_face(&self, (face, name): &(CardFace, CardName)) {
        set_if_changed(self.class, face.class());
        set_if_changed(self.groups, &face.groups());
        set_if_changed(self.selected, &face.is_selected());
        set_if_changed(self.badges, &face.badges());
        set_if_changed(self.label, &name.label());
        set_if_changed(self.coords, &name.coords());
    }

    /// Sets each of the memory's cells that changed.
    fn set_memory(&self, own: Option<&(CardMemory, CardFit)>) {
        for (cell, read) in memory_parts(self) {
            set_if_changed(cell, &own.and_then(|(m, _)| read(m)));
        }
        set_if_changed(self.fit, &own.map(|(_, fit)| *fit));
    }
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
                .map(|(i, face)| CardCells::new(face, memories.get(i).and_then(Option::as_ref)))
                .collect::<Vec<_>>()
        })
    });
    let each = cells.clone();
    Effect::new(move |_| {
        faces.with(|faces| {
            for (cell, face) in each.iter().zip(faces) {
                cell.set_face(face);
            }
        })
    });
    let each = cells.clone();
    Effect::new(move |_| {
        memories.with(|memories| {
            for (i, cell) in each.iter().enumerate() {
                cell.set_memory(memories.get(i).and_then(Option::as_ref));
            }
        })
    });
    cells
}

/// One card at `(x, y)`, drawn as `shape` says: its body, its tint bar, its rank, badges and
/// coordinates, and the "!" of a card over its capacity. `title` is its title (filled on the
/// card under the pointer or focus only). The spaces between the texts are not drawn (SVG
/// ignores text outside `<text>`); they keep the card's text "1 TD t0 c0 p0 d1" in words for
/// tools that read it, matching the start of its name.
pub(super) fn card_view(
    card: u32,
    (x, y): (f64, f64),
    shape: CardShape,
    cells: CardCells,
    title: impl Fn() -> String + Send + Sync + 'static,
) -> impl IntoView {
    let CardCells {
        class,
        groups,
        selected,
        badges,
        label,
        coords,
        bytes,
        stage,
        engine,
        tint,
        hot,
        fit,
    } = cells;
    let over = move || fit.with(|f| f.is_some_and(|f| !f.fits));
    let (mark_x, mark_y) = shape.over_mark_at((x, y));
    let width = shape.units_wide();
    let (badge_x, badge_y, badge_anchor) = shape.badge_at((x, y));
    view! {
        <g
            class=move || class.with(|class| card_class(class, fit.get()))
            data-testid=format!("card-{card}")
            data-card=card
            data-groups=groups
            data-selected=move || selected.get().then_some("true")
            aria-pressed=move || if selected.get() { "true" } else { "false" }
            data-bytes=bytes
            data-stage=stage
            data-engine=engine
            data-fits=move || fit.get().map(|f| CardFit::flag(f.fits))
            data-tight=move || fit.get().map(|f| CardFit::flag(f.tight))
            data-expert-load=hot
            role="button"
            tabindex="0"
            aria-label=label
        >
            <title>{title}</title>
            <rect class="card-body" x=x y=y width=width height=CARD_H rx="6"></rect>
            // The `fill` presentation attribute: the page's Content-Security-Policy refuses a
            // `style` attribute.
            <rect
                class="card-tint"
                x=x + 6.0
                y=y + 3.0
                width=width - 12.0
                height="5"
                rx="2"
                fill=tint
            ></rect>
            <text class="card-rank" x=x + 8.0 y=y + 20.0>{card}</text>
            // The hottest expert's cards (SPEC §20): "▲" beside the rank.
            {move || {
                hot.with(Option::is_some)
                    .then(|| {
                        view! {
                            " "
                            <text class="card-hot" x=x + 26.0 y=y + 20.0>"▲"</text>
                        }
                    })
            }}
            " "
            <text class="card-badge" x=badge_x y=badge_y text-anchor=badge_anchor>
                {badges}
            </text>
            " "
            <text class="card-coords" x=x + 8.0 y=y + CARD_H - 8.0>
                {coords}
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
