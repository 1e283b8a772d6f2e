//! The kits the pages hand their grids ([`GridKit`]): the base, the lesson's and an embedded
//! grid's. Kept apart from the type, which the controls name, because a kit names the
//! controls' drawings (`More`) and the parts a page adds.

use leptos::prelude::*;
use parallel_core::link::{Controls, Parts};

use crate::kit::gpu_check::gpu_check_offer;
use crate::kit::grid_kit::{GridKit, More};
use crate::kit::rollout::RolloutFigureWhenSet;

impl GridKit {
    /// Nothing added and every control in view: the base each page's kit names its parts over
    /// (`GridKit { run: Some(…), ..GridKit::BARE }`).
    pub const BARE: GridKit = GridKit {
        more: More::LEADING,
        own_model: None,
        host: None,
        rollout: None,
        figures: None,
        run: None,
        check: None,
        shown: None,
        parts: Parts::ALL,
        compact: false,
    };

    /// The lesson's grids: the rest behind "more controls"; the rollout card's memory for a
    /// plan with engines (its code fetched then), but none of the RL page's controls; "check
    /// on a GPU" under each.
    pub const LESSON: GridKit = GridKit {
        more: More::DISCLOSED,
        figures: Some(|lab| view! { <RolloutFigureWhenSet lab=lab /> }.into_any()),
        check: Some(|lab| Box::pin(gpu_check_offer(lab))),
        ..GridKit::BARE
    };

    /// An embedded grid: `shown`, or the lesson's controls, in view; `parts`, or the grid and
    /// its figures, drawn; nothing added.
    pub const fn embedded(shown: Option<Controls>, parts: Option<Parts>) -> GridKit {
        GridKit {
            shown: Some(match shown {
                Some(controls) => controls,
                None => Controls::LESSON,
            }),
            parts: match parts {
                Some(parts) => parts,
                None => Parts::EMBED,
            },
            compact: true,
            more: More::CHOSEN,
            ..GridKit::BARE
        }
    }
}
