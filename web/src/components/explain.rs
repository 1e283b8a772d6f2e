//! "Why is this number this?": a small button beside a computed figure that opens the core's
//! explanation of it (formula, the plan's values substituted, result, source). The
//! explanation is computed by `parallel_core::explain` only while the panel is open, from the
//! same plan and report the figure shows, so the two are one number.
//!
//! Test hooks: the button is `explain-<figure id>`, the open panel `explanation` with
//! `data-result` equal to the figure's own value attribute.

use leptos::ev::KeyboardEvent;
use leptos::html::Button;
use leptos::prelude::*;
use parallel_core::explain::{Explanation, Figure};
use parallel_core::Dim;

use crate::i18n::{use_lang, Lang};
use crate::lab::GridLab;

/// The panel's sentences.
mod text {
    use crate::text::Text;

    /// The button's accessible name.
    pub const EXPLAIN: Text = Text {
        zh: "这个数怎么来的：{figure}",
        en: "Where this number comes from: {figure}",
    };

    #[cfg(test)]
    pub const ALL: &[&Text] = &[&EXPLAIN];
}

/// The figure's name in the page's language.
pub fn figure_name(lang: Lang, figure: Figure) -> String {
    let dim = |d: Dim| match d {
        Dim::Dp => lang.pick("DP（含 ZeRO）", "DP (with ZeRO)").to_string(),
        Dim::Edp => lang.pick("专家 DP", "expert DP").to_string(),
        other => other.label().to_string(),
    };
    match figure {
        Figure::ModelStates => lang.pick("模型状态", "model states").into(),
        Figure::Activations => lang.pick("激活", "activations").into(),
        Figure::Total => lang.pick("每卡合计", "total per card").into(),
        Figure::Dp => lang.pick("数据并行度 DP", "data-parallel degree DP").into(),
        Figure::Traffic(d) => format!(
            "{} {}",
            dim(d),
            lang.pick("每卡每步字节", "bytes per card per step")
        ),
        Figure::TrafficTime(d) => {
            format!("{} {}", dim(d), lang.pick("通信时间", "communication time"))
        }
        Figure::BubbleRatio => lang.pick("气泡比", "bubble ratio").into(),
        Figure::BubbleShare => lang.pick("气泡占整步", "bubble's share of the step").into(),
        Figure::TokensPerStep => lang.pick("每步 token 数", "tokens per step").into(),
        Figure::StepTime => lang.pick("估算的每步时间", "estimated step time").into(),
        Figure::Compute => lang.pick("估算的计算时间", "estimated compute time").into(),
        Figure::Throughput => lang
            .pick("每卡每秒 token 数", "tokens per second per card")
            .into(),
    }
}

/// The explanation of `figure` on `lab`'s plan as the grid shows it (traffic with the
/// selected card's own links).
pub fn explanation_of(lab: GridLab, figure: Figure) -> Option<Explanation> {
    lab.plan.with(|plan| {
        lab.report.with(|report| {
            let traffic = lab.traffic.get();
            let shown = parallel_core::Report {
                comm: traffic,
                ..report.clone()
            };
            plan.explain(figure, &shown)
        })
    })
}

/// The button and, when open, the panel beside it.
#[component]
pub fn ExplainButton(figure: Figure, lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let open = RwSignal::new(false);
    let button = NodeRef::<Button>::new();
    let id = figure.id();
    let panel_id = format!(
        "explain-panel-{id}-{}",
        lab.config.with_untracked(|c| c.gpus)
    );
    let close = move || {
        open.set(false);
        if let Some(b) = button.get() {
            let _ = b.focus();
        }
    };
    let on_key = move |event: KeyboardEvent| {
        if event.key() == "Escape" && open.get_untracked() {
            event.prevent_default();
            event.stop_propagation();
            close();
        }
    };
    let panel = {
        let panel_id = panel_id.clone();
        move || {
            open.get().then(|| {
                let e = explanation_of(lab, figure);
                let result = e.as_ref().map(|e| e.result.to_string());
                let lang = lang.get();
                view! {
                    <div class="explanation" role="dialog" aria-modal="false" id=panel_id.clone()
                        aria-label=figure_name(lang, figure)
                        data-testid="explanation"
                        data-figure=figure.id()
                        data-result=result
                        on:keydown=on_key>
                        {match e {
                            Some(e) => view! {
                                <dl>
                                    <dt>{lang.pick("公式", "Formula")}</dt>
                                    <dd class="formula" data-testid="explanation-formula">{e.formula}</dd>
                                    <dt>{lang.pick("代入这套方案", "With this plan's values")}</dt>
                                    <dd class="formula" data-testid="explanation-substituted">{e.substituted}</dd>
                                    <dt>{lang.pick("结果", "Result")}</dt>
                                    <dd data-testid="explanation-shown">{e.shown}</dd>
                                    <dt>{lang.pick("出处", "Source")}</dt>
                                    <dd>{e.source}</dd>
                                </dl>
                            }.into_any(),
                            None => view! { <p>{lang.pick("这套方案里没有这一项。", "This plan has no such figure.")}</p> }.into_any(),
                        }}
                        <button type="button" class="small" on:click=move |_| close()>
                            {lang.pick("关闭（Esc）", "Close (Esc)")}
                        </button>
                    </div>
                }
            })
        }
    };
    view! {
        <span class="explain">
            <button type="button" class="explain-button" node_ref=button
                data-testid=format!("explain-{id}")
                aria-expanded=move || open.get().to_string()
                aria-controls=panel_id.clone()
                aria-label=move || text::EXPLAIN.fill(lang.get(), &[("figure", &figure_name(lang.get(), figure))])
                on:click=move |_| open.update(|o| *o = !*o)
                on:keydown=on_key>
                "?"
            </button>
            {panel}
        </span>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        crate::text::testing::assert_all_used(text::ALL, || {
            for lang in [Lang::Zh, Lang::En] {
                text::EXPLAIN.fill(lang, &[("figure", &figure_name(lang, Figure::ModelStates))]);
            }
        });
        assert_eq!(
            figure_name(Lang::En, Figure::Traffic(Dim::Tp)),
            "TP bytes per card per step"
        );
        assert_eq!(
            figure_name(Lang::Zh, Figure::TrafficTime(Dim::Dp)),
            "DP（含 ZeRO） 通信时间"
        );
    }
}
