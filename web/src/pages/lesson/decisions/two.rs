//! Decision ② (the 64-card cluster): TP × PP, ZeRO and m; the heaviest dimension, its bytes
//! and link, and the bubble against a threshold.

use leptos::prelude::*;
use parallel_core::traffic::heaviest;
use parallel_core::{Bubble, Dim, Link, Memory, PlanConfig, Traffic};

use super::check::*;
use super::choices::{self, Degree, ZeroStage};
use crate::kit::error_text::rejected;
use crate::kit::fields::*;
use crate::kit::figures::traffic_sentence;
use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::input::{parse_percent, parse_whole, InputError};
use crate::kit::vocab;
use crate::state::lab::GridLab;

/// The sentences of decision ②'s verdict.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The plan the student chose.
        pub const PLAN: Text = Text {
            zh: "你的方案（64 卡）：TP {tp} × PP {pp} × DP {dp} · ZeRO-{zero} · m = {m}",
            en: "Your plan (64 cards): TP {tp} × PP {pp} × DP {dp} · ZeRO-{zero} · m = {m}",
        };
        /// The core's heaviest dimension.
        pub const HEAVIEST: Text = Text {
            zh: "核心的账：最重的一维是 {dim} 每卡每步 {bytes} · {link} · {time}",
            en: "The core's count: the heaviest dimension is {dim} with {bytes} · {link} · {time}",
        };
        /// The student's answer, each part marked ✓ or ✗.
        pub const ANSWER: Text = Text {
            zh: "你写：{dim} {dim_mark} · {bytes} {bytes_mark} · {link} {link_mark}",
            en: "You wrote: {dim} {dim_mark} · {bytes} {bytes_mark} · {link} {link_mark}",
        };
        // The bubble lines keep the figure a word of its own, "12.5% (…)": the page's tests read
        // it that way, hence the ASCII parentheses in the Chinese too.
        /// The bubble, when the threshold could not be read.
        pub const BUBBLE: Text = Text {
            zh: "气泡 (p−1)/m = {ratio} (占整步 {share})",
            en: "Bubble (p−1)/m = {ratio} (share of the step {share})",
        };
        /// The bubble within the student's threshold.
        pub const BUBBLE_WITHIN: Text = Text {
            zh: "气泡 (p−1)/m = {ratio} (占整步 {share}) ✓ 不超过你定的阈值 {threshold}",
            en: "Bubble (p−1)/m = {ratio} (share of the step {share}) ✓ within your threshold of \
                 {threshold}",
        };
        /// The bubble above the student's threshold.
        pub const BUBBLE_ABOVE: Text = Text {
            zh: "气泡 (p−1)/m = {ratio} (占整步 {share}) ✗ 超过你定的阈值 {threshold}",
            en: "Bubble (p−1)/m = {ratio} (share of the step {share}) ✗ above your threshold of \
                 {threshold}",
        };
        /// Memory per card within the card.
        pub const MEMORY_FITS: Text = Text {
            zh: "✓ 每卡模型状态 {states} + 激活 {activations} = {total} ≤ {capacity}",
            en: "✓ model states per card {states} + activations {activations} = {total} ≤ {capacity}",
        };
        /// Memory per card over the card.
        pub const MEMORY_OVER: Text = Text {
            zh: "✗ 每卡模型状态 {states} + 激活 {activations} = {total} > {capacity}",
            en: "✗ model states per card {states} + activations {activations} = {total} > {capacity}",
        };
    }
}

/// What cannot be read or is missing in the form, one line each.
fn problems(lang: Lang, check: &DecisionTwo) -> Vec<String> {
    let mut problems: Vec<String> = Vec::new();
    if let Err(e) = &check.micro_batches {
        problems.push(field_problem(
            lang,
            lang.pick("每步 micro-batch 数 m", "Micro-batches per step m"),
            &e.message(lang, "32"),
        ));
    }
    problems.extend(input_line(
        lang,
        lang.pick("字节数", "Bytes"),
        &check.bytes,
        "12.3",
    ));
    if let Err(e) = &check.threshold {
        problems.push(field_problem(
            lang,
            lang.pick("气泡阈值", "Bubble threshold"),
            &e.message(lang, "10"),
        ));
    }
    if check.heaviest.is_none() {
        problems.push(
            lang.pick("还没选通信最重的一维。", "Pick the heaviest dimension.")
                .to_string(),
        );
    }
    if check.link.is_none() {
        problems.push(
            lang.pick("还没选它走的链路。", "Pick its link.")
                .to_string(),
        );
    }
    problems
}

/// The student's plan in one line.
fn plan_text(lang: Lang, config: &PlanConfig, dp: u32) -> String {
    text::PLAN.fill(
        lang,
        &[
            ("tp", &config.tp),
            ("pp", &config.pp),
            ("dp", &dp),
            ("zero", &config.zero),
            ("m", &config.micro_batches),
        ],
    )
}

/// The core's heaviest dimension: bytes, link, time.
fn heaviest_text(lang: Lang, t: &Traffic) -> String {
    traffic_sentence(&text::HEAVIEST, lang, t)
}

/// The student's answer with its marks.
fn answer_text(lang: Lang, check: &DecisionTwo, marks: DecisionTwoMarks) -> String {
    let named = check.heaviest.map_or("—", |d| vocab::dim(lang, d));
    let bytes = check
        .bytes
        .as_ref()
        .map_or_else(|_| "—".to_string(), |gb| format!("{gb} GB"));
    let link = check.link.map_or("—", Link::short_name);
    text::ANSWER.fill(
        lang,
        &[
            ("dim", &named),
            ("dim_mark", &mark(marks.dimension)),
            ("bytes", &bytes),
            ("bytes_mark", &mark(marks.bytes)),
            ("link", &link),
            ("link_mark", &mark(marks.link)),
        ],
    )
}

/// The bubble of a plan with `pp` stages against the student's threshold (when readable).
fn bubble_text(lang: Lang, pp: u32, bubble: Bubble, threshold: Option<f64>) -> String {
    if pp <= 1 {
        return lang
            .pick(
                "PP = 1：没有流水线，也就没有气泡。",
                "PP = 1: no pipeline, so no bubble.",
            )
            .to_string();
    }
    let ratio = format::percent(bubble.ratio);
    let share = format::percent(bubble.share);
    match threshold {
        Some(t) => {
            let text = if bubble.ratio <= t + 1e-12 {
                text::BUBBLE_WITHIN
            } else {
                text::BUBBLE_ABOVE
            };
            text.fill(
                lang,
                &[
                    ("ratio", &ratio),
                    ("share", &share),
                    ("threshold", &format::percent(t)),
                ],
            )
        }
        None => text::BUBBLE.fill(lang, &[("ratio", &ratio), ("share", &share)]),
    }
}

/// Memory per card: model states + activations against the card.
fn memory_text(lang: Lang, m: &Memory) -> String {
    let text = if m.fits {
        text::MEMORY_FITS
    } else {
        text::MEMORY_OVER
    };
    text.fill(
        lang,
        &[
            ("states", &format::bytes(m.model_states)),
            ("activations", &format::bytes(m.activations)),
            ("total", &format::bytes(m.total)),
            ("capacity", &format::bytes(m.capacity)),
        ],
    )
}

fn render_two(lang: Lang, check: &DecisionTwo, lab64: GridLab) -> AnyView {
    let problems = problems(lang, check);
    let Some((config, report)) = check.report.clone() else {
        return verdict_lines(problems, ()).into_any();
    };
    let report = match report {
        Ok(report) => report,
        Err(error) => {
            return view! {
                {verdict_lines(problems, ())}
                <p role="alert">{rejected(lang, &error)}</p>
            }
            .into_any()
        }
    };
    let plan_name = plan_text(lang, &config, report.dp);
    let marks = check.marks();
    let top = heaviest(&report.comm).cloned();
    let heaviest_line = top.as_ref().map(|t| heaviest_text(lang, t));
    let answer_line = marks.map(|m| answer_text(lang, check, m));
    let bubble = report.bubble;
    let threshold = check.threshold.as_ref().ok().copied();
    let bubble_line = bubble_text(lang, config.pp, bubble, threshold);
    let m = report.memory;
    let memory_line = memory_text(lang, &m);
    let conclusion = match marks {
        Some(mk) if mk.dimension && mk.bytes && mk.link && mk.bubble && mk.fits => lang.pick(
            "✓ 通过：最重的一维、它的字节数和链路都说对了，气泡在你的阈值之内，每卡放得下。",
            "✓ Accepted: the heaviest dimension, its bytes and its link are right, the bubble is within your threshold and every card fits.",
        ),
        Some(mk) if !mk.bubble => lang.pick(
            "✗ 气泡超过了你的阈值：把 m 调大，或减少流水线段数。",
            "✗ The bubble is above your threshold: raise m or use fewer pipeline stages.",
        ),
        Some(mk) if !mk.fits => lang.pick("✗ 每卡放不下。", "✗ A card overflows."),
        Some(_) => lang.pick(
            "✗ 通信这一项还没对上：在第二部分的网格里设好同一方案，读通信表。",
            "✗ The traffic answer does not match yet: set the same plan in the grid of part 2 and read its traffic table.",
        ),
        None => lang.pick("把每一项填好再核对。", "Fill in every field, then check again."),
    };
    let heaviest_bytes = top.as_ref().map_or(0.0, |t| t.bytes.get());
    let heaviest_dim = top.as_ref().map_or("", |t| t.dim.as_str());
    let lines = view! {
        <li data-testid="decision-2-heaviest-result" data-dim=heaviest_dim data-bytes=heaviest_bytes.to_string()>{heaviest_line}</li>
        {answer_line.map(|text| view! { <li data-testid="decision-2-answer">{text}</li> })}
        <li data-testid="decision-2-bubble" data-ratio=bubble.ratio.to_string()>{bubble_line}</li>
        <li data-testid="decision-2-memory" data-fits=m.fits.to_string()>{memory_line}</li>
    };
    view! {
        <PlanVerdict plan=plan_name problems=problems conclusion=conclusion decision=2 lab=lab64 config=config>
            {lines}
        </PlanVerdict>
    }
    .into_any()
}

#[component]
pub fn DecisionTwoForm(lab64: GridLab) -> impl IntoView {
    let lang = use_lang();
    let tp = RwSignal::new(Degree::Eight);
    let pp = RwSignal::new(Degree::Eight);
    let zero = RwSignal::new(ZeroStage::One);
    let micro_batches = RwSignal::new("8".to_string());
    let heaviest = RwSignal::new(None::<Dim>);
    let bytes = RwSignal::new(String::new());
    let link = RwSignal::new(None::<Link>);
    let threshold = RwSignal::new(String::new());
    let checked = RwSignal::new(None::<DecisionTwo>);
    let answer = move || DecisionTwoAnswer {
        tp: tp.get().get(),
        pp: pp.get().get(),
        zero: zero.get().get(),
        micro_batches: micro_batches.get_untracked(),
        heaviest: heaviest.get(),
        bytes: bytes.get_untracked(),
        link: link.get(),
        threshold: threshold.get_untracked(),
    };
    let dp = move || {
        let config = decision_two_config(
            tp.get().get(),
            pp.get().get(),
            zero.get().get(),
            PlanConfig::lesson_64_gpus().micro_batches,
        );
        derived_dp(&config)
    };
    let verdict = move || {
        let lang = lang.get();
        checked.with(|c| verdict_or_hint(lang, c.as_ref(), |check| render_two(lang, check, lab64)))
    };
    let passed = Signal::derive(move || checked.with(|c| c.as_ref().map(DecisionTwo::passed)));
    let on_check = move || checked.set(Some(DecisionTwo::check(&answer())));
    let validate_m: fn(&str) -> Result<(), InputError> =
        |text| parse_whole(text, 1, MAX_MICRO_BATCHES).map(|_| ());
    let validate_percent: fn(&str) -> Result<(), InputError> =
        |text| parse_percent(text, DEFAULT_BUBBLE_THRESHOLD).map(|_| ());
    view! {
        <DecisionForm id="decision-2" on_check=on_check passed=passed verdict=verdict
            legend_zh="② 64 张卡（8 台机）：TP、PP、DP 各取多少？" legend_en="② 64 cards (8 machines): how much TP, PP and DP?">
            <p class="hint">
                <T zh="TP 最多 8（一台机）。DP 由 64 ÷ (TP × PP) 推出。说出通信最重的一维、它每卡每步发多少 GB、走 NVLink 还是 IB；再选一个 m，让气泡 (p−1)/m 低于你能接受的阈值（不填就按 10%）。"
                   en="TP goes up to 8 (one machine). DP follows as 64 ÷ (TP × PP). Name the heaviest dimension, how many GB it sends per card per step and whether it runs over NVLink or IB; then pick an m that keeps the bubble (p−1)/m under a threshold you accept (10% if left empty)." />
            </p>
            <div class="form-row">
                <SelectField id="decision-2-tp" label_zh="TP" label_en="TP" value=tp choices=choices::degrees() />
                <SelectField id="decision-2-pp" label_zh="PP" label_en="PP" value=pp choices=choices::degrees() />
                <SelectField id="decision-2-zero" label_zh="ZeRO 阶段" label_en="ZeRO stage" value=zero
                    choices=choices::zero_bare() />
                <p class="derived-value"><T zh="DP（推出）" en="DP (derived)" />" = " <output data-testid="decision-2-dp">{dp}</output></p>
                <NumberField id="decision-2-m" label_zh="每步 micro-batch 数 m" label_en="Micro-batches per step m" unit="" example="32" value=micro_batches validate=validate_m />
            </div>
            <div class="form-row">
                <SelectField id="decision-2-heaviest" label_zh="通信最重的一维" label_en="Heaviest dimension" value=heaviest
                    choices=choices::heaviest() />
                <NumberField id="decision-2-bytes" label_zh="它每卡每步发送" label_en="Its bytes per card per step" unit="GB" example="12.3" value=bytes validate=validate_gb />
                <SelectField id="decision-2-link" label_zh="它走的链路" label_en="Its link" value=link
                    choices=choices::link() />
                <NumberField id="decision-2-threshold" label_zh="可接受的气泡" label_en="Acceptable bubble" unit="%" example="10" value=threshold validate=validate_percent optional=true />
            </div>
        </DecisionForm>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    fn answer(threshold: &str, m: &str) -> DecisionTwo {
        DecisionTwo::check(&DecisionTwoAnswer {
            tp: 8,
            pp: 2,
            zero: 1,
            micro_batches: m.to_string(),
            heaviest: Some(Dim::Tp),
            bytes: "75.2".to_string(),
            link: Some(Link::NvLink),
            threshold: threshold.to_string(),
        })
    }

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let check = answer("", "8");
        let (config, report) = check.report.clone().unwrap();
        let report = report.unwrap();
        let top = *heaviest(&report.comm).unwrap();
        let marks = check.marks().unwrap();
        let bad = answer("0", "8.5");
        let over = parallel_core::evaluate(&decision_two_config(1, 1, 0, 8))
            .unwrap()
            .memory;
        assert_each_lang_uses_all(text::ALL, |lang| {
            problems(lang, &bad);
            plan_text(lang, &config, report.dp);
            heaviest_text(lang, &top);
            answer_text(lang, &check, marks);
            for threshold in [None, Some(0.10), Some(0.15)] {
                bubble_text(lang, 2, report.bubble, threshold);
            }
            memory_text(lang, &report.memory);
            memory_text(lang, &over);
        });
        assert_eq!(
            plan_text(Lang::Zh, &config, report.dp),
            "你的方案（64 卡）：TP 8 × PP 2 × DP 4 · ZeRO-1 · m = 8"
        );
        assert_eq!(
            answer_text(Lang::En, &check, marks),
            "You wrote: TP ✓ · 75.2 GB ✓ · NVLink ✓"
        );
        assert_eq!(
            bubble_text(Lang::Zh, 2, report.bubble, Some(0.10)),
            "气泡 (p−1)/m = 12.5% (占整步 11.1%) ✗ 超过你定的阈值 10.0%"
        );
        assert!(heaviest_text(Lang::Zh, &top)
            .starts_with("核心的账：最重的一维是 TP 每卡每步 75.2 GB · NVLink · "));
        assert_eq!(
            problems(Lang::En, &bad)[0],
            "Micro-batches per step m: It must be a whole number, for example 32."
        );
    }
}
