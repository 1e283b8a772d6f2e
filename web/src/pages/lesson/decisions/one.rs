//! Decision ① (the 8-card machine): ZeRO stage, TP and recomputation, with the student's own
//! memory figures checked against the core's.

use leptos::prelude::*;
use parallel_core::{Bytes, Memory, PlanConfig, Recompute};

use super::check::*;
use super::choices::{self, Degree, ZeroStage};
use crate::kit::error_text::rejected;
use crate::kit::fields::*;
use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::input::InputError;
use crate::state::lab::GridLab;

/// The sentences of decision ①'s verdict.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The plan the student chose.
        pub const PLAN: Text = Text {
            zh: "你的方案：8 卡 · ZeRO-{zero} · TP {tp} · DP {dp} · {recompute}",
            en: "Your plan: 8 cards · ZeRO-{zero} · TP {tp} · DP {dp} · {recompute}",
        };
        /// A figure the student wrote that matches the core's.
        pub const FIGURE_MATCH: Text = Text {
            zh: "✓ {field}：你写 {typed} GB，核心算出 {computed}（相差 {tolerance} 以内，算对）",
            en: "✓ {field}: you wrote {typed} GB, the core computes {computed} (within {tolerance}: right)",
        };
        /// A figure the student wrote that does not match the core's.
        pub const FIGURE_NO_MATCH: Text = Text {
            zh: "✗ {field}：你写 {typed} GB，核心算出 {computed}（相差超过 {tolerance}）",
            en: "✗ {field}: you wrote {typed} GB, the core computes {computed} (more than {tolerance} off)",
        };
        /// The total per card within the card.
        pub const TOTAL_FITS: Text = Text {
            zh: "✓ 合计 {total} ≤ {capacity} 放得下",
            en: "✓ total {total} ≤ {capacity} fits",
        };
        /// The total per card over the card.
        pub const TOTAL_OVER: Text = Text {
            zh: "✗ 合计 {total} > {capacity} 放不下",
            en: "✗ total {total} > {capacity} does not fit",
        };
    }
}

/// The student's plan in one line.
fn plan_text(lang: Lang, config: &PlanConfig, dp: u32) -> String {
    text::PLAN.fill(
        lang,
        &[
            ("zero", &config.zero),
            ("tp", &config.tp),
            ("dp", &dp),
            ("recompute", &recompute_name(lang, config.recompute)),
        ],
    )
}

/// A figure the student wrote (`typed_gb`) against the core's, and whether they match.
fn figure_text(lang: Lang, field: &str, typed_gb: f64, computed: Bytes) -> (String, bool) {
    let ok = matches_gb(typed_gb, computed);
    let text = if ok {
        text::FIGURE_MATCH
    } else {
        text::FIGURE_NO_MATCH
    };
    let line = text.fill(
        lang,
        &[
            ("field", &field),
            ("typed", &typed_gb),
            ("computed", &format::bytes(computed)),
            (
                "tolerance",
                &format::rule_percent(crate::kit::tolerance::TOLERANCE),
            ),
        ],
    );
    (line, ok)
}

/// The total per card against the card.
fn total_text(lang: Lang, memory: &Memory) -> String {
    let text = if memory.fits {
        text::TOTAL_FITS
    } else {
        text::TOTAL_OVER
    };
    text.fill(
        lang,
        &[
            ("total", &format::bytes(memory.total)),
            ("capacity", &format::bytes(memory.capacity)),
        ],
    )
}

fn render_one(lang: Lang, check: &DecisionOne, lab8: GridLab) -> AnyView {
    let config = check.config.clone();
    let (dp, memory) = match &check.memory {
        Ok(found) => *found,
        Err(error) => {
            return view! {
                <p role="alert">{rejected(lang, error)}</p>
            }
            .into_any()
        }
    };
    let plan_name = plan_text(lang, &config, dp);
    let problems = [
        (
            lang.pick("每卡模型状态", "Model states per card"),
            &check.states,
            "12.3",
        ),
        (
            lang.pick("每卡激活", "Activations per card"),
            &check.activations,
            "4.5",
        ),
    ]
    .into_iter()
    .filter_map(|(field, typed, example)| input_line(lang, field, typed, example))
    .collect();
    let line = |label: &str,
                typed: &Result<f64, InputError>,
                computed: Bytes,
                test: &'static str| {
        typed.as_ref().ok().map(|&gb| {
            let (text, ok) = figure_text(lang, label, gb, computed);
            view! { <li data-testid=test data-ok=ok.to_string() data-bytes=computed.get().to_string()>{text}</li> }
        })
    };
    let states_line = line(
        lang.pick("每卡模型状态", "model states per card"),
        &check.states,
        memory.model_states,
        "decision-1-states-result",
    );
    let activations_line = line(
        lang.pick("每卡激活", "activations per card"),
        &check.activations,
        memory.activations,
        "decision-1-activations-result",
    );
    let total_line = total_text(lang, &memory);
    let conclusion = match check.marks() {
        Some((true, true, true)) => lang.pick(
            "✓ 通过：两项都和核心一致，合计不超过 80 GB。",
            "✓ Accepted: both figures match the core and the total stays within 80 GB.",
        ),
        Some((_, _, false)) => lang.pick(
            "✗ 这个方案放不下：换一种 ZeRO、TP 或激活存法再试。",
            "✗ This plan does not fit: try another ZeRO stage, TP degree or way of storing activations.",
        ),
        Some(_) => lang.pick(
            "✗ 还有数对不上：回到第一部分的网格里读这两项，或按页底的口径再算一遍。",
            "✗ A figure does not match yet: read both in the grid of part 1, or count again with the rules at the bottom of the page.",
        ),
        None => lang.pick("先把两个数填好。", "Fill in both figures first."),
    };
    let lines = view! {
        {states_line}
        {activations_line}
        <li data-testid="decision-1-total" data-fits=memory.fits.to_string()>{total_line}</li>
    };
    view! {
        <PlanVerdict plan=plan_name problems=problems conclusion=conclusion decision=1 lab=lab8 config=config>
            {lines}
        </PlanVerdict>
    }
    .into_any()
}

#[component]
pub fn DecisionOneForm(lab8: GridLab) -> impl IntoView {
    let lang = use_lang();
    let zero = RwSignal::new(ZeroStage::Three);
    let tp = RwSignal::new(Degree::One);
    let recompute = RwSignal::new(Recompute::Full);
    let states = RwSignal::new(String::new());
    let activations = RwSignal::new(String::new());
    let checked = RwSignal::new(None::<DecisionOne>);
    let current = move || decision_one_config(zero.get().get(), tp.get().get(), recompute.get());
    let dp = move || derived_dp(&current());
    let verdict = move || {
        let lang = lang.get();
        checked.with(|c| verdict_or_hint(lang, c.as_ref(), |check| render_one(lang, check, lab8)))
    };
    let passed = Signal::derive(move || checked.with(|c| c.as_ref().map(DecisionOne::passed)));
    let on_check = move || {
        checked.set(Some(DecisionOne::check(
            current(),
            &states.get_untracked(),
            &activations.get_untracked(),
        )));
    };
    view! {
        <DecisionForm id="decision-1" on_check=on_check passed=passed verdict=verdict
            legend_zh="① 在一台 8 × 80 GB 的机器上训练锚点，序列 4,096" legend_en="① One machine of 8 × 80 GB for the anchor, sequence 4,096">
            <p class="hint">
                <T zh="选定 ZeRO 的级别、TP 的大小和激活的重计算方式，再写下你算出的每卡模型状态与激活（单位 GB，与核对值相差 5% 以内算对）。DP 自动等于 8 ÷ TP。"
                   en="Which ZeRO stage? TP or not? How are activations kept? Choose a plan, then write your per-card model states and activations (GB; within 5% of the computed figure counts as right). DP follows as 8 ÷ TP." />
            </p>
            <div class="form-row">
                <SelectField id="decision-1-zero" label_zh="ZeRO 阶段" label_en="ZeRO stage" value=zero
                    choices=choices::zero_explained() />
                <SelectField id="decision-1-tp" label_zh="TP" label_en="TP" value=tp choices=choices::degrees() />
                <SelectField id="decision-1-recompute" label_zh="激活重计算" label_en="Activation recompute" value=recompute
                    choices=choices::recompute() />
                <p class="derived-value"><T zh="DP（推出）" en="DP (derived)" />" = " <output data-testid="decision-1-dp">{dp}</output></p>
            </div>
            <div class="form-row">
                <NumberField id="decision-1-states" label_zh="每卡模型状态" label_en="Model states per card" unit="GB" example="12.3" value=states validate=validate_gb />
                <NumberField id="decision-1-activations" label_zh="每卡激活" label_en="Activations per card" unit="GB" example="4.5" value=activations validate=validate_gb />
            </div>
        </DecisionForm>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;
    use parallel_core::evaluate;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let config = decision_one_config(3, 1, Recompute::Full);
        let fits = evaluate(&config).unwrap().memory;
        let over = evaluate(&decision_one_config(3, 1, Recompute::Selective))
            .unwrap()
            .memory;
        assert_each_lang_uses_all(text::ALL, |lang| {
            plan_text(lang, &config, 8);
            figure_text(lang, "x", 55.6, fits.model_states);
            figure_text(lang, "x", 50.0, fits.model_states);
            total_text(lang, &fits);
            total_text(lang, &over);
        });
        assert_eq!(
            plan_text(Lang::Zh, &config, 8),
            "你的方案：8 卡 · ZeRO-3 · TP 1 · DP 8 · 全量重计算"
        );
        assert_eq!(
            figure_text(Lang::Zh, "每卡模型状态", 50.0, fits.model_states).0,
            "✗ 每卡模型状态：你写 50 GB，核心算出 55.6 GB（相差超过 5%）"
        );
        assert_eq!(
            figure_text(Lang::En, "model states per card", 55.6, fits.model_states).0,
            "✓ model states per card: you wrote 55.6 GB, the core computes 55.6 GB (within 5%: right)"
        );
        assert_eq!(
            total_text(Lang::En, &over),
            "✗ total 101.2 GB > 80.0 GB does not fit"
        );
    }
}
