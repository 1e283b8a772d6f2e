//! The controls of a grid: sliders for TP, PP, CP, micro-batches and sequence length, and
//! selectors for ZeRO and recomputation (the lesson's), then the others ([`more`]): model, card,
//! EP, bytes per gradient, schedule, memory accounting. DP is derived and shown, never set.
//!
//! Every value a slider can reach is a number the core accepts on its own; a combination
//! the core rejects (say TP 3 on 8 cards) shows the core's reason right under the control that
//! was moved, while the figures keep the last valid plan, marked as such, and the derived DP
//! is the controls' own (none when their degrees do not divide the cards). The sliders keep the values that do not divide on purpose: predicting that TP 3
//! cannot split 8 cards, and reading why, is part of the lesson.

mod card;
pub(crate) mod choice;
mod disclosure;
mod ids;
mod more;
pub(crate) mod slider;

use leptos::prelude::*;
use parallel_core::explain::Figure;
use parallel_core::link::Control;
use parallel_core::{Field, PlanConfig};

use crate::kit::choices::Choices;
use crate::kit::explain_button::ExplainButton;
use crate::kit::grid_kit::{GridKit, More};
use crate::kit::i18n::T;
use crate::state::lab::GridLab;
use crate::state::later::LaterPart;

pub(crate) use card::card_options;
use choice::{recompute_choices, zero_choices, Choice, Options, ZeroStage};
use disclosure::Disclosure;
pub use ids::test_id;
use more::{more_controls, MoreControls, MORE};
use slider::{slider_specs, Slider, SLIDER_CONTROLS};

impl More {
    /// In view, before the lesson's controls: the RL page and the planner lead with the model
    /// and the card.
    pub const LEADING: More = More {
        lesson_first: false,
        draw: |lab, kit| view! { <MoreControls lab=lab kit=kit /> }.into_any(),
    };

    /// After the lesson's controls, behind "more controls", closed unless the plan already
    /// uses one of them; drawn from their split module once opened (the lesson).
    pub const DISCLOSED: More = More {
        lesson_first: true,
        draw: |lab, kit| view! { <Disclosure lab=lab kit=kit /> }.into_any(),
    };

    /// After the lesson's controls, in view, those the link names (an embedded grid), drawn
    /// from their split module: where it names none, nothing is fetched.
    pub const CHOSEN: More = More {
        lesson_first: true,
        draw: |lab, kit| {
            MORE.into_iter()
                .any(|control| kit.shows(control))
                .then(|| view! { <LaterPart load=move || more_controls(lab, kit) /> })
                .into_any()
        },
    };
}

/// All controls of one grid, its sliders over the values the core's [`Slider`] ranges offer
/// on it; `kit` says what the page adds and whether the controls beyond the lesson's sit
/// behind "more controls".
///
/// [`Slider`]: parallel_core::link::Slider
#[component]
pub fn GridControls(lab: GridLab, kit: GridKit) -> impl IntoView {
    let sliders = slider_specs(lab.config.with_untracked(|c| c.gpus))
        .into_iter()
        .zip(SLIDER_CONTROLS)
        .filter(|(_, control)| kit.shows(*control))
        .map(|(spec, _)| view! { <Slider spec=spec lab=lab /> })
        .collect_view();
    // DP follows from the controls as they stand (the core's `derived_dp`): none when their
    // degrees do not divide the cards, never the last valid plan's.
    let dp = move || {
        lab.config
            .with(PlanConfig::derived_dp)
            .map_or_else(|| "—".to_string(), |d| d.to_string())
    };
    let zero = kit.shows(Control::Zero).then(|| {
        // A stage the core refuses (a pasted config's) is no option: none is shown.
        let stages = zero_choices();
        let choices = Choices {
            list: stages.list.into_iter().map(|(z, zh, en)| (Some(z), zh, en)).collect(),
            id: |z| z.map_or("?", ZeroStage::as_str),
        };
        let options = Options {
            choices,
            get: |c| ZeroStage::of(c.zero),
            set: |c, stage| {
                if let Some(stage) = stage {
                    c.zero = stage.get();
                }
            },
        };
        view! { <Choice lab=lab field=Field::Zero test_id=test_id(Control::Zero) label_zh="ZeRO 阶段" label_en="ZeRO stage" options=options /> }
    });
    let recompute = kit.shows(Control::Recompute).then(|| {
        let options = Options {
            choices: recompute_choices(),
            get: |c| c.recompute,
            set: |c, v| c.recompute = v,
        };
        view! { <Choice lab=lab field=Field::Recompute test_id=test_id(Control::Recompute) label_zh="激活重计算" label_en="Activation recompute" options=options /> }
    });
    let lesson = view! {
        {sliders}
        {zero}
        {recompute}
            <div class="control derived">
                <span class="control-name"><T zh="DP 数据并行（推出来的）" en="DP data parallel (derived)" /></span>
                <output class="control-value" data-testid="derived-dp">{dp}</output>
                " "<ExplainButton figure=Figure::Dp lab=lab />
                <p class="control-note"><T zh="d = N ÷ (TP·PP·CP)" en="d = N ÷ (TP·PP·CP)" /></p>
            </div>
    };
    let more = (kit.more.draw)(lab, kit);
    let (first, second) = if kit.more.lesson_first {
        (lesson.into_any(), more)
    } else {
        (more, lesson.into_any())
    };
    view! {
        <div class="controls">
            {first}
            {second}
            {GridKit::draw(kit.rollout, lab)}
        </div>
    }
}
