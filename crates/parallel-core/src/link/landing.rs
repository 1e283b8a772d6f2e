//! Where a link lands. The lab has four entry points: three pages, one per audience (the lesson
//! at `index.html`, the RL layout step at `rl.html`, the planner at `plan.html`), and one
//! widget alone (`embed.html`). One rule, [`landing`], picks among them from what the link
//! carries and the entry point it was opened at.
//!
//! The rule in order:
//! 1. a link whose `embed=` names a [`Widget`](super::Widget) (as [`decode`] reads it: the first
//!    `embed` key, percent-decoded and trimmed) belongs to `embed.html`;
//! 2. a grid plan with the optimizer on the host, rollout engines or log-probability chunks
//!    belongs to the RL page, the only one with those controls;
//! 3. a grid plan with a model of one's own (a pasted config.json, or its fields) belongs to a
//!    page with the config.json box: the RL page when opened there, else the planner;
//! 4. a link that opens a section (`sec=`) belongs to the lesson, whose parts the sections are;
//! 5. anything else stays where it was opened, and `embed.html` without a widget sends it to
//!    the lesson.
//!
//! The entry point a link is sent to lands it there under the same rule, so a link moves at
//! most once and never back (a test below holds that over every entry point). Step 1 runs
//! before the wasm loads ([`names_widget`], transcribed in `assets/landing.js` and held equal by
//! a test in the web crate); steps 2–5 run in each entry point's wasm, which decodes the plans,
//! before anything is drawn.

use super::fragment::decode;
use super::state::{GridId, LinkState};
use crate::config::PlanConfig;
use crate::model::ModelChoice;

/// One of the lab's entry points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Entry {
    /// `index.html`: the lesson (seed 001), for students.
    Lesson,
    /// `rl.html`: the RL layout step (seed 000): CPU Adam, rollout engines, pools, recipes.
    Rl,
    /// `plan.html`: the planner: card presets, one's own model, the plan search, the runs.
    Plan,
    /// `embed.html`: one widget alone, for a course page's frame.
    Embed,
}

impl Entry {
    /// Every entry point.
    pub const ALL: [Entry; 4] = [Entry::Lesson, Entry::Rl, Entry::Plan, Entry::Embed];
    /// The three pages, in the order the page header links them.
    pub const PAGES: [Entry; 3] = [Entry::Lesson, Entry::Rl, Entry::Plan];

    /// The entry point's file; all four sit in the same folder.
    pub const fn file(self) -> &'static str {
        match self {
            Entry::Lesson => "index.html",
            Entry::Rl => "rl.html",
            Entry::Plan => "plan.html",
            Entry::Embed => "embed.html",
        }
    }

    /// The value of `data-entry` on the entry point's `<html>` element.
    pub const fn id(self) -> &'static str {
        match self {
            Entry::Lesson => "lesson",
            Entry::Rl => "rl",
            Entry::Plan => "plan",
            Entry::Embed => "embed",
        }
    }

    /// The entry point of a `data-entry` value.
    pub fn from_id(id: &str) -> Option<Entry> {
        Entry::ALL.into_iter().find(|e| e.id() == id)
    }
}

/// Whether a link names a widget (step 1 of [`landing`]): the part of the rule that
/// `assets/landing.js` applies before any wasm loads.
///
/// ```
/// use parallel_core::link::names_widget;
/// assert!(names_widget("g64=tp8&embed=grid-64"));
/// assert!(names_widget("embed=%20grid-64%20")); // trimmed, as decode reads it
/// assert!(!names_widget("embed=nonsense")); // the page names it in its notice
/// assert!(!names_widget("embed=grid-64x"));
/// ```
pub fn names_widget(link: &str) -> bool {
    decode(link).0.embed.is_some()
}

/// Whether a plan uses what only the RL page shows: the optimizer on the host, rollout
/// engines, log-probability chunks.
fn needs_rl(config: &PlanConfig, base: &PlanConfig) -> bool {
    config.optimizer_offload.on_host()
        || config.rollout.is_some()
        || config.log_probs_chunk != base.log_probs_chunk
}

/// Whether a plan's model is one's own rather than a preset.
fn own_model(config: &PlanConfig) -> bool {
    !matches!(config.model, ModelChoice::Preset(_))
}

/// A link's state made fit for `page`, for a link from one page to another ("open this plan in
/// the planner", "back to the lesson"): the grids' plans and cards and the language, less what
/// `page` does not show (the RL page's host optimizer, rollout engines and log-probability
/// chunks anywhere else; a model of one's own on the lesson, which gets the grid's start
/// model), with no widget, embed controls or parent, and a section only for the lesson. Such a link lands on `page`.
pub fn for_page(state: &LinkState, page: Entry) -> LinkState {
    let mut out = state.clone();
    out.embed = None;
    out.controls = None;
    out.parts = None;
    out.parent = None;
    if page != Entry::Lesson {
        out.section = None;
    }
    for (config, grid) in [
        (&mut out.g8, GridId::Eight),
        (&mut out.g64, GridId::SixtyFour),
    ] {
        let base = grid.base();
        if page != Entry::Rl {
            config.optimizer_offload = base.optimizer_offload;
            config.rollout = base.rollout;
            config.log_probs_chunk = base.log_probs_chunk;
        }
        if page == Entry::Lesson && own_model(config) {
            config.model = grid.start().model;
        }
    }
    out
}

/// The entry point of an already decoded link opened at `here` (see [`landing`]).
pub fn landing_of(state: &LinkState, here: Entry) -> Entry {
    if state.embed.is_some() {
        return Entry::Embed;
    }
    let plans = [(&state.g8, GridId::Eight), (&state.g64, GridId::SixtyFour)];
    if plans.iter().any(|(c, grid)| needs_rl(c, &grid.base())) {
        return Entry::Rl;
    }
    if plans.iter().any(|(c, _)| own_model(c)) {
        return if here == Entry::Rl {
            Entry::Rl
        } else {
            Entry::Plan
        };
    }
    if state.section.is_some() {
        return Entry::Lesson;
    }
    match here {
        Entry::Embed => Entry::Lesson,
        page => page,
    }
}

/// The entry point a link (a whole URL, or a fragment with or without `#`, as [`decode`]
/// takes it) opened at `here` lands on. See the module's rule.
///
/// ```
/// use parallel_core::link::{landing, Entry};
/// assert_eq!(landing("g64=tp8&embed=grid-64", Entry::Lesson), Entry::Embed);
/// assert_eq!(landing("g64=tp8", Entry::Lesson), Entry::Lesson);
/// assert_eq!(landing("g64=tp8", Entry::Plan), Entry::Plan);
/// assert_eq!(landing("g64=tp8", Entry::Embed), Entry::Lesson);
/// assert_eq!(landing("g8=cpuadam", Entry::Lesson), Entry::Rl);
/// assert_eq!(landing("sec=part-two", Entry::Plan), Entry::Lesson);
/// assert_eq!(landing("embed=nonsense", Entry::Rl), Entry::Rl); // the page names it
/// ```
pub fn landing(link: &str, here: Entry) -> Entry {
    landing_of(&decode(link).0, here)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::{encode, Widget};

    #[test]
    fn every_widget_lands_on_the_embed_and_the_rest_on_a_page() {
        for here in Entry::ALL {
            for widget in Widget::ALL {
                let link = format!("#g8=tp2&embed={}&lang=en", widget.id());
                assert_eq!(landing(&link, here), Entry::Embed, "{link}");
            }
            for link in [
                "",
                "#",
                "#embed",
                "#embed=",
                "#embed=GRID-64",
                "#embed=grid-64%00",
                "#embed=<script>alert(1)</script>",
                "#card=1e309&lang=xx&embed=nonsense",
                // The first `embed` decides; a second is a repeated key, ignored.
                "#embed=nonsense&embed=grid-64",
            ] {
                let page = if here == Entry::Embed {
                    Entry::Lesson
                } else {
                    here
                };
                assert_eq!(landing(link, here), page, "{link} at {}", here.file());
            }
            assert_eq!(landing("#embed=grid-64&embed=nonsense", here), Entry::Embed);
        }
    }

    /// A model of one's own, given by its fields.
    fn llama_fields() -> crate::model::InlineModel {
        crate::model::InlineModel {
            hidden: Some(4096),
            layers: Some(32),
            heads: Some(32),
            kv_heads: Some(8),
            ffn: Some(14336),
            vocab: Some(128_256),
            ..Default::default()
        }
    }

    /// Links written by the page itself, one per kind of content.
    fn written(change: impl Fn(&mut PlanConfig)) -> String {
        let mut state = LinkState::default();
        change(&mut state.g64);
        encode(&state)
    }

    #[test]
    fn content_lands_on_the_page_that_shows_it_and_stays_there() {
        let rl = [
            written(|c| c.optimizer_offload = crate::config::OptimizerOffload::Cpu),
            written(|c| c.log_probs_chunk = 256),
            written(|c| c.rollout = Some(crate::config::Rollout::default())),
        ];
        for link in &rl {
            for here in Entry::ALL {
                assert_eq!(landing(link, here), Entry::Rl, "{link} at {}", here.file());
            }
        }
        let own = written(|c| {
            c.model = ModelChoice::Inline(llama_fields());
        });
        assert_eq!(landing(&own, Entry::Lesson), Entry::Plan, "{own}");
        assert_eq!(landing(&own, Entry::Embed), Entry::Plan);
        assert_eq!(landing(&own, Entry::Plan), Entry::Plan);
        assert_eq!(landing(&own, Entry::Rl), Entry::Rl);
        let plain = written(|c| c.tp = 4);
        for here in Entry::PAGES {
            assert_eq!(landing(&plain, here), here);
        }
    }

    #[test]
    fn a_link_moves_at_most_once() {
        let links = [
            String::new(),
            "sec=part-two".to_string(),
            "g8=cpuadam&sec=part-one".to_string(),
            "embed=grid-8".to_string(),
            written(|c| c.log_probs_chunk = 512),
            written(|c| {
                c.model = ModelChoice::Inline(llama_fields());
            }),
        ];
        for link in &links {
            for here in Entry::ALL {
                let there = landing(link, here);
                assert_eq!(
                    landing(link, there),
                    there,
                    "{link}: {here:?} → {there:?} moves on"
                );
            }
        }
    }

    #[test]
    fn a_link_made_for_a_page_lands_there() {
        let mut state = LinkState::default();
        state.g8.optimizer_offload = crate::config::OptimizerOffload::Cpu;
        state.g8.tp = 2;
        state.g64.model = ModelChoice::Inline(llama_fields());
        state.g64.rollout = Some(crate::config::Rollout::default());
        state.section = Some(crate::link::Section::PartTwo);
        for page in Entry::PAGES {
            let link = encode(&for_page(&state, page));
            assert_eq!(landing(&link, page), page, "{link}");
            if page != Entry::Rl {
                assert_eq!(landing(&link, Entry::Lesson), page, "{link}");
            }
            // The plans' other fields travel.
            assert_eq!(crate::link::decode(&link).0.g8.tp, 2, "{link}");
        }
    }

    #[test]
    fn a_link_past_the_length_limit_loses_its_widget_there() {
        let pad = "x".repeat(crate::link::MAX_LINK_LEN);
        assert!(!names_widget(&format!("{pad}&embed=grid-8")));
        let pad = "x".repeat(crate::link::MAX_LINK_LEN - "&embed=grid-8".len());
        assert!(names_widget(&format!("{pad}&embed=grid-8")));
    }

    #[test]
    fn data_entry_values_read_back() {
        for entry in Entry::ALL {
            assert_eq!(Entry::from_id(entry.id()), Some(entry));
        }
        assert_eq!(Entry::from_id("page"), None);
    }
}
