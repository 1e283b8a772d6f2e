//! Decision ② (the 64-card cluster): TP × PP, ZeRO and m; the heaviest dimension, its bytes
//! and link, and the bubble against a threshold.

use leptos::prelude::*;
use parallel_core::traffic::heaviest;
use parallel_core::{Dim, Link, PlanConfig};

use super::check::*;
use super::fields::*;
use crate::error_text::explain;
use crate::format;
use crate::i18n::{use_lang, Lang, T};
use crate::input::{parse_gb, parse_percent, parse_whole, InputError};
use crate::lab::GridLab;

fn render_two(lang: Lang, check: &DecisionTwo, lab64: GridLab) -> AnyView {
    let mut problems: Vec<String> = Vec::new();
    if let Err(e) = &check.micro_batches {
        problems.push(format!(
            "{}{}",
            lang.pick("每步 micro-batch 数 m：", "Micro-batches per step m: "),
            e.message(lang, "32")
        ));
    }
    problems.extend(input_line(
        lang,
        lang.pick("字节数：", "Bytes: "),
        &check.bytes,
        "12.3",
    ));
    if let Err(e) = &check.threshold {
        problems.push(format!(
            "{}{}",
            lang.pick("气泡阈值：", "Bubble threshold: "),
            e.message(lang, "10")
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
    let problem_items = problems
        .into_iter()
        .map(|p| view! { <li class="input-problem">{p}</li> })
        .collect_view();
    let Some((config, report)) = check.report.clone() else {
        return view! { <ul class="verdict-lines">{problem_items}</ul> }.into_any();
    };
    let report = match report {
        Ok(report) => report,
        Err(error) => {
            return view! {
                <ul class="verdict-lines">{problem_items}</ul>
                <p role="alert">{lang.pick("核心拒绝了这个方案：", "The core rejects this plan: ")}{explain(lang, &error)}</p>
            }
            .into_any()
        }
    };
    let plan_name = format!(
        "{} TP {} × PP {} × DP {} · ZeRO-{} · m = {}",
        lang.pick("你的方案（64 卡）：", "Your plan (64 cards):"),
        config.tp,
        config.pp,
        report.dp,
        config.zero,
        config.micro_batches
    );
    let marks = check.marks();
    let top = heaviest(&report.comm).cloned();
    let heaviest_line = top.as_ref().map(|t| {
        format!(
            "{} {} {} {} · {} · {}",
            lang.pick(
                "核心的账：最重的一维是",
                "The core's count: the heaviest dimension is"
            ),
            t.dim.label(),
            lang.pick("每卡每步", "with"),
            format::bytes(t.bytes),
            format::link(lang, t.link),
            format::seconds(t.seconds)
        )
    });
    let answer_line = marks.map(|m| {
        let named = check.heaviest.map_or("—", Dim::label);
        let bytes = check
            .bytes
            .as_ref()
            .map_or_else(|_| "—".to_string(), |gb| format!("{gb} GB"));
        let link = check.link.map_or("—", Link::short_name);
        format!(
            "{} {named} {} · {bytes} {} · {link} {}",
            lang.pick("你写：", "You wrote:"),
            mark(m.dimension),
            mark(m.bytes),
            mark(m.link)
        )
    });
    let bubble = report.bubble;
    let threshold = check.threshold.as_ref().ok().copied();
    let bubble_line = if config.pp <= 1 {
        lang.pick(
            "PP = 1：没有流水线，也就没有气泡。",
            "PP = 1: no pipeline, so no bubble.",
        )
        .to_string()
    } else {
        let under = threshold.map(|t| bubble.ratio <= t + 1e-12);
        let verdict = match (under, threshold) {
            (Some(true), Some(t)) => {
                format!(
                    "{} {}",
                    mark(true),
                    lang.pick("不超过你定的阈值", "within your threshold of")
                ) + &format!(" {}", format::percent(t))
            }
            (Some(false), Some(t)) => {
                format!(
                    "{} {}",
                    mark(false),
                    lang.pick("超过你定的阈值", "above your threshold of")
                ) + &format!(" {}", format::percent(t))
            }
            _ => String::new(),
        };
        format!(
            "{} (p−1)/m = {} ({} {}) {verdict}",
            lang.pick("气泡", "Bubble"),
            format::percent(bubble.ratio),
            lang.pick("占整步", "share of the step"),
            format::percent(bubble.share)
        )
    };
    let m = report.memory;
    let memory_line = format!(
        "{} {} {} + {} {} = {} {} {}",
        mark(m.fits),
        lang.pick("每卡模型状态", "model states per card"),
        format::bytes(m.model_states),
        lang.pick("激活", "activations"),
        format::bytes(m.activations),
        format::bytes(m.total),
        if m.fits { "≤" } else { ">" },
        format::bytes(m.capacity)
    );
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
    view! {
        <p class="verdict-plan">{plan_name}</p>
        <ul class="verdict-lines">
            {problem_items}
            <li data-testid="decision-2-heaviest-result" data-dim=heaviest_dim data-bytes=heaviest_bytes.to_string()>{heaviest_line}</li>
            {answer_line.map(|text| view! { <li data-testid="decision-2-answer">{text}</li> })}
            <li data-testid="decision-2-bubble" data-ratio=bubble.ratio.to_string()>{bubble_line}</li>
            <li data-testid="decision-2-memory" data-fits=m.fits.to_string()>{memory_line}</li>
        </ul>
        <p class="verdict-conclusion"><strong>{conclusion}</strong></p>
        <GridLoadLine decision=2 lab=lab64 config=config />
    }
    .into_any()
}

#[component]
pub fn DecisionTwoForm(lab64: GridLab) -> impl IntoView {
    let lang = use_lang();
    let tp = RwSignal::new("8".to_string());
    let pp = RwSignal::new("8".to_string());
    let zero = RwSignal::new("1".to_string());
    let micro_batches = RwSignal::new("8".to_string());
    let heaviest = RwSignal::new(String::new());
    let bytes = RwSignal::new(String::new());
    let link = RwSignal::new(String::new());
    let threshold = RwSignal::new(String::new());
    let checked = RwSignal::new(None::<DecisionTwo>);
    let answer = move || DecisionTwoAnswer {
        tp: tp.with(|t| t.parse().unwrap_or(8)),
        pp: pp.with(|p| p.parse().unwrap_or(1)),
        zero: zero.with(|z| z.parse().unwrap_or(1)),
        micro_batches: micro_batches.get_untracked(),
        heaviest: heaviest.with(|h| dim_of(h)),
        bytes: bytes.get_untracked(),
        link: link.with(|l| link_of(l)),
        threshold: threshold.get_untracked(),
    };
    let dp = move || {
        let config = decision_two_config(
            tp.with(|t| t.parse().unwrap_or(8)),
            pp.with(|p| p.parse().unwrap_or(1)),
            zero.with(|z| z.parse().unwrap_or(1)),
            PlanConfig::lesson_64_gpus().micro_batches,
        );
        derived_dp(&config)
    };
    let verdict = move || {
        let lang = lang.get();
        checked.with(|c| match c {
            None => view! { <p class="muted">{lang.pick("填好后点「核对」。", "Fill in the form, then press Check.")}</p> }.into_any(),
            Some(check) => render_two(lang, check, lab64),
        })
    };
    let verdict_class = move || checked.with(|c| verdict_class(c.as_ref().map(|c| c.passed())));
    let validate_m: fn(&str) -> Result<(), InputError> =
        |text| parse_whole(text, 1, MAX_MICRO_BATCHES).map(|_| ());
    let validate_gb: fn(&str) -> Result<(), InputError> = |text| parse_gb(text).map(|_| ());
    let validate_percent: fn(&str) -> Result<(), InputError> =
        |text| parse_percent(text, DEFAULT_BUBBLE_THRESHOLD).map(|_| ());
    let degrees = || {
        vec![
            ("1", "1", "1"),
            ("2", "2", "2"),
            ("4", "4", "4"),
            ("8", "8", "8"),
        ]
    };
    view! {
        <form class="decision" data-testid="decision-2" aria-labelledby="decision-2-title" novalidate
            on:submit=move |ev| {
                ev.prevent_default();
                checked.set(Some(DecisionTwo::check(&answer())));
            }>
            <fieldset>
                <legend id="decision-2-title">
                    <T zh="② 64 张卡（8 台机）：TP、PP、DP 各取多少？" en="② 64 cards (8 machines): how much TP, PP and DP?" />
                </legend>
                <p class="hint">
                    <T zh="TP 最多 8（一台机）。DP 由 64 ÷ (TP × PP) 推出。说出通信最重的一维、它每卡每步发多少 GB、走 NVLink 还是 IB；再选一个 m，让气泡 (p−1)/m 低于你能接受的阈值（不填就按 10%）。"
                       en="TP goes up to 8 (one machine). DP follows as 64 ÷ (TP × PP). Name the heaviest dimension, how many GB it sends per card per step and whether it runs over NVLink or IB; then pick an m that keeps the bubble (p−1)/m under a threshold you accept (10% if left empty)." />
                </p>
                <div class="form-row">
                    <SelectField id="decision-2-tp" label_zh="TP" label_en="TP" value=tp options=degrees() />
                    <SelectField id="decision-2-pp" label_zh="PP" label_en="PP" value=pp options=degrees() />
                    <SelectField id="decision-2-zero" label_zh="ZeRO 阶段" label_en="ZeRO stage" value=zero
                        options=vec![("0", "0", "0"), ("1", "1", "1"), ("2", "2", "2"), ("3", "3", "3")] />
                    <p class="derived-value"><T zh="DP（推出）" en="DP (derived)" />" = " <output data-testid="decision-2-dp">{dp}</output></p>
                    <NumberField id="decision-2-m" label_zh="每步 micro-batch 数 m" label_en="Micro-batches per step m" unit="" example="32" value=micro_batches validate=validate_m />
                </div>
                <div class="form-row">
                    <SelectField id="decision-2-heaviest" label_zh="通信最重的一维" label_en="Heaviest dimension" value=heaviest
                        options=vec![("", "请选择", "choose"), ("tp", "TP", "TP"), ("pp", "PP", "PP"), ("dp", "DP", "DP")] />
                    <NumberField id="decision-2-bytes" label_zh="它每卡每步发送" label_en="Its bytes per card per step" unit="GB" example="12.3" value=bytes validate=validate_gb />
                    <SelectField id="decision-2-link" label_zh="它走的链路" label_en="Its link" value=link
                        options=vec![("", "请选择", "choose"), ("nvlink", "NVLink（机内）", "NVLink (inside a machine)"), ("ib", "InfiniBand（跨机）", "InfiniBand (across machines)")] />
                    <NumberField id="decision-2-threshold" label_zh="可接受的气泡" label_en="Acceptable bubble" unit="%" example="10" value=threshold validate=validate_percent optional=true />
                </div>
                <div class="form-actions">
                    <button type="submit" data-testid="decision-2-check"><T zh="核对" en="Check" /></button>
                </div>
                <div class=verdict_class data-testid="decision-2-verdict" role="status" aria-live="polite"
                    data-pass=move || checked.with(|c| c.as_ref().map(|c| c.passed()).unwrap_or(false).to_string())>
                    {verdict}
                </div>
            </fieldset>
        </form>
    }
}
