//! Rows keyed by their dimension (the traffic table's rows, the estimate's times): one slot per
//! dimension of the core's order, [`Dim::ALL`] (the order of `Plan::traffic` and of the
//! estimate's times), shown while the plan has that dimension. A row is built when its
//! dimension appears, kept (the same nodes, written in place by the row's own memo) while it
//! stays, and dropped when it goes: a keyed list whose keys are known before the page runs.
//! Leptos's `<For>` did the same through a keyed diff whose code (its hash set, its keyed
//! state) cost the embed 4.1 KB gzipped; a `<Show>` per slot needs none of it.

use leptos::prelude::*;
use parallel_core::Dim;

/// A row per dimension of `dims`, in [`Dim::ALL`]'s order, each built by `row` when its
/// dimension enters `dims` and kept until it leaves.
pub fn dim_rows<V>(
    dims: Signal<Vec<Dim>>,
    row: impl Fn(Dim) -> V + Clone + Send + Sync + 'static,
) -> impl IntoView
where
    V: IntoView + 'static,
{
    Dim::ALL
        .into_iter()
        .map(|dim| {
            let row = row.clone();
            view! { <Show when=move || dims.with(|d| d.contains(&dim))>{row(dim)}</Show> }
        })
        .collect_view()
}
