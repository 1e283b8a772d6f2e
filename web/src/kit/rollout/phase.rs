//! Which phase of an RL step the grid shows (`select-phase`): training (the grid's TP / CP /
//! PP / DP groups, each card's training memory) or rollout (each card's engine outlined as a
//! group, each card tinted by a rollout card's memory). Only engines that run on the grid's own
//! cards can be shown on it: with a separate pool the rollout option is off, and says why.

use leptos::prelude::*;
use parallel_core::RolloutPhase;

use crate::kit::i18n::{use_lang, T};
use crate::state::lab::GridLab;

/// The phase's option text.
fn option_text(phase: RolloutPhase) -> (&'static str, &'static str) {
    match phase {
        RolloutPhase::Training => (
            "训练（TP、CP、PP、DP 组）",
            "training (TP, CP, PP, DP groups)",
        ),
        RolloutPhase::Rollout => (
            "推理采样（每个推理引擎一组）",
            "rollout (one group per engine)",
        ),
    }
}

/// The phase picker of one grid's rollout panel.
#[component]
pub(super) fn PhaseChoice(lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let id = format!("select-phase-{}", lab.config.with_untracked(|c| c.gpus));
    let separate = Memo::new(move |_| lab.report.with(|r| r.rollout.is_some_and(|r| !r.colocated)));
    let options = RolloutPhase::ALL
        .into_iter()
        .map(|phase| {
            let (zh, en) = option_text(phase);
            view! {
                <option
                    value=phase.as_str()
                    selected=move || lab.shown_phase.get() == phase
                    disabled=move || phase == RolloutPhase::Rollout && separate.get()
                >
                    {move || lang.get().pick(zh, en)}
                </option>
            }
        })
        .collect_view();
    view! {
        <div class="control">
            <label for=id.clone()>
                <span class="control-name"><T zh="网格显示的阶段" en="Phase shown on the grid" /></span>
            </label>
            <select
                id=id
                data-testid="select-phase"
                prop:value=move || lab.shown_phase.get().as_str()
                on:change=move |event| {
                    if let Some(phase) = RolloutPhase::parse(&event_target_value(&event)) {
                        lab.phase.set(phase);
                    }
                }
            >
                {options}
            </select>
            <p class="control-note">
                {move || if separate.get() {
                    view! { <T zh="训推分离：推理引擎在另一池卡上，不在这张网格里；网格只显示训练。"
                               en="Separate pools: the engines run on other cards, not on this grid; the grid shows training only." /> }.into_any()
                } else {
                    view! { <T zh="推理阶段：每个引擎的 E 张卡是一组（标 R，坐标 r = 引擎号），卡的颜色是推理每卡显存。"
                               en="Rollout phase: each engine's E cards form a group (badge R, coordinate r = engine number); a card's colour is a rollout card's memory." /> }.into_any()
                }}
            </p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_phase_has_its_option_and_reads_back() {
        for phase in RolloutPhase::ALL {
            let (zh, en) = option_text(phase);
            assert!(!zh.is_empty() && !en.is_empty());
            assert_eq!(RolloutPhase::parse(phase.as_str()), Some(phase));
        }
    }
}
