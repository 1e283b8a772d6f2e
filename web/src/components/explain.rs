//! "Why is this number this?": a small button beside a computed figure that opens the core's
//! explanation of it (formula, the plan's values substituted, result, source). The
//! explanation is computed by `parallel_core::explain` only while the panel is open, from the
//! same plan and report the figure shows, so the two are one number.
//!
//! Test hooks: the button is `explain-<figure id>`, the open panel `explanation` with
//! `data-result` equal to the figure's own value attribute.

use leptos::prelude::*;
use parallel_core::explain::{Explanation, Figure};
use parallel_core::Dim;

use crate::format::escape_markup;
use crate::i18n::Lang;
use crate::lab::GridLab;
use crate::vocab;

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
    let dim = |d: Dim| vocab::dim_traffic(lang, d);
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

/// The button's accessible name.
pub fn button_label(lang: Lang, figure: Figure) -> String {
    text::EXPLAIN.fill(lang, &[("figure", &figure_name(lang, figure))])
}

/// The open panel of `figure` as markup: formula, values substituted, result and source of
/// the core's explanation on `lab`'s plan, and a close button. `data-result` is the figure's
/// value, for the tests to compare with the figure's own attribute.
pub fn explanation_markup(lang: Lang, lab: GridLab, figure: Figure) -> String {
    let e = explanation_of(lab, figure);
    let id = figure.id();
    let gpus = lab.config.with_untracked(|c| c.gpus);
    let name = escape_markup(&figure_name(lang, figure));
    let result = e
        .as_ref()
        .map(|e| format!(" data-result=\"{}\"", e.result))
        .unwrap_or_default();
    let body = match e {
        Some(e) => {
            let row = |term: &str, attributes: &str, value: &str| {
                format!(
                    "<dt>{term}</dt><dd{attributes}>{}</dd>",
                    escape_markup(value)
                )
            };
            let formula = " class=\"formula\" data-testid=\"explanation-formula\"";
            let substituted = " class=\"formula\" data-testid=\"explanation-substituted\"";
            format!(
                "<dl>{}{}{}{}</dl>",
                row(lang.pick("公式", "Formula"), formula, &e.formula),
                row(
                    lang.pick("代入这套方案", "With this plan's values"),
                    substituted,
                    &e.substituted
                ),
                row(
                    lang.pick("结果", "Result"),
                    " data-testid=\"explanation-shown\"",
                    &e.shown
                ),
                row(lang.pick("出处", "Source"), "", e.source),
            )
        }
        None => format!(
            "<p>{}</p>",
            lang.pick("这套方案里没有这一项。", "This plan has no such figure.")
        ),
    };
    format!(
        "<div class=\"explanation\" role=\"dialog\" aria-modal=\"false\" id=\"{}\" \
         aria-label=\"{name}\" data-testid=\"explanation\" data-figure=\"{id}\"{result}>{body}\
         <button type=\"button\" class=\"small\" data-close=\"\">{}</button></div>",
        panel_id(figure, gpus),
        lang.pick("关闭（Esc）", "Close (Esc)")
    )
}

/// The id of `figure`'s panel, which its button controls (`gpus` tells the two grids' panels
/// apart).
fn panel_id(figure: Figure, gpus: u32) -> String {
    format!("explain-panel-{}-{gpus}", figure.id())
}

/// The "why?" button of `figure` as markup.
pub(crate) fn button_markup(lang: Lang, figure: Figure, gpus: u32) -> String {
    let id = figure.id();
    let label = escape_markup(&button_label(lang, figure));
    format!(
        "<button type=\"button\" class=\"explain-button\" data-testid=\"explain-{id}\" \
         aria-expanded=\"false\" aria-controls=\"{}\" aria-label=\"{label}\">?</button>",
        panel_id(figure, gpus)
    )
}

/// The "why?" button of `figure` as markup inside the `span.explain` its explanation opens
/// in, for a live block given the grid's lab (`crate::live`), which handles its clicks.
pub fn explain_button(lang: Lang, figure: Figure, gpus: u32) -> String {
    format!(
        "<span class=\"explain\" data-explain=\"{}\">{}</span>",
        figure.id(),
        button_markup(lang, figure, gpus)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        crate::text::testing::assert_all_used(text::ALL, || {
            for lang in [Lang::Zh, Lang::En] {
                button_label(lang, Figure::ModelStates);
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
