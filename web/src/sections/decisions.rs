//! Part four of the lesson: the three decisions for the project, as forms whose answers are
//! checked against the core, and the acceptance line's TP bench, really run in the page.
//!
//! The student's numbers are parsed here ([`parse_gb`], [`parse_whole`], [`parse_percent`])
//! and compared with what the core computes for the student's own plan; every figure shown
//! is the core's. Bad input (empty, text, negative, huge) becomes a message, never a panic.

use leptos::prelude::*;
use parallel_core::{
    tp_bench, BenchShape, Bytes, Dim, Link, Memory, ModelStates, Plan, PlanConfig, PlanError,
    Recompute, Report, TpBench, Traffic,
};

use crate::error_text::explain;
use crate::format;
use crate::i18n::{use_lang, Lang, T};
use crate::lab::GridLab;
use parallel_core::link::Section;
use parallel_core::traffic::heaviest;

/// Parameters of the project's own small model (the lesson's decision 3).
pub const SMALL_MODEL_PARAMS: f64 = 3_688_704.0;
/// The largest figure in GB a field accepts: far above any card or step on this page.
pub const MAX_GB: f64 = 100_000.0;
/// The largest number of micro-batches per step the form accepts.
pub const MAX_MICRO_BATCHES: u32 = 1024;
/// The bubble threshold when the student leaves it empty: 10% ((p−1)/m).
pub const DEFAULT_BUBBLE_THRESHOLD: f64 = 0.10;
/// A TP bench difference counts as rounding when it is below this fraction of the output's
/// largest value. f32 keeps about 7 significant digits (ε ≈ 1.2e-7) and the bench sums a few
/// dozen products, so rounding stays near 1e-7 of the output; splitting W by rows is off by
/// a sizeable fraction of it.
pub const ROUNDING_LEVEL: f64 = 1e-5;

// ---------------------------------------------------------------------------------------------
// Pure helpers: parsing and judging (tested natively below).
// ---------------------------------------------------------------------------------------------

/// Why a typed number was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// Nothing typed.
    Empty,
    /// Not a (finite) number.
    NotANumber,
    /// Below zero.
    Negative,
    /// Zero where a positive number is needed.
    NotPositive,
    /// A fraction where a whole number is needed.
    NotWhole,
    /// Below the smallest accepted value (shown as text).
    TooSmall(String),
    /// Above the largest accepted value (shown as text).
    TooLarge(String),
}

impl InputError {
    /// The message in the page's language; `example` is a valid input to suggest.
    pub fn message(&self, lang: Lang, example: &str) -> String {
        match (self, lang) {
            (InputError::Empty, Lang::Zh) => format!("还没填：请写一个数，例如 {example}。"),
            (InputError::Empty, Lang::En) => {
                format!("Empty: write a number, for example {example}.")
            }
            (InputError::NotANumber, Lang::Zh) => {
                format!("这不是一个数：只写数字（可带小数点），例如 {example}。")
            }
            (InputError::NotANumber, Lang::En) => {
                format!("That is not a number: write digits (a decimal point is fine), for example {example}.")
            }
            (InputError::Negative, Lang::Zh) => "不能是负数。".to_string(),
            (InputError::Negative, Lang::En) => "It cannot be negative.".to_string(),
            (InputError::NotPositive, Lang::Zh) => "要大于 0。".to_string(),
            (InputError::NotPositive, Lang::En) => "It must be above 0.".to_string(),
            (InputError::NotWhole, Lang::Zh) => format!("要一个整数，例如 {example}。"),
            (InputError::NotWhole, Lang::En) => {
                format!("It must be a whole number, for example {example}.")
            }
            (InputError::TooSmall(min), Lang::Zh) => format!("太小了：至少是 {min}。"),
            (InputError::TooSmall(min), Lang::En) => {
                format!("Too small: the least accepted is {min}.")
            }
            (InputError::TooLarge(max), Lang::Zh) => format!("太大了：最多 {max}。"),
            (InputError::TooLarge(max), Lang::En) => {
                format!("Too large: the most accepted is {max}.")
            }
        }
    }
}

/// Reads a number as typed: trims, drops a trailing unit (`GB`, `G`, `%`), accepts full-width
/// digits and a comma as thousands separator ("1,024") or as a decimal comma ("55,6").
fn parse_number(text: &str, units: &[&str]) -> Result<f64, InputError> {
    let normalized: String = text
        .trim()
        .chars()
        .map(|c| match c {
            '０'..='９' => {
                char::from_u32(u32::from(c) - u32::from('０') + u32::from('0')).unwrap_or(c)
            }
            '．' | '。' => '.',
            '，' => ',',
            '－' | '−' => '-',
            c => c,
        })
        .collect();
    let mut body = normalized.trim();
    for unit in units {
        let lower = body.to_ascii_lowercase();
        if lower.ends_with(unit) {
            body = body[..body.len() - unit.len()].trim_end();
            break;
        }
    }
    if body.is_empty() {
        return Err(InputError::Empty);
    }
    let body = body.replace([' ', '_'], "");
    let plain = if body.contains('.') {
        body.replace(',', "")
    } else {
        match body.rsplit_once(',') {
            // "1,024": thousands; "55,6": a decimal comma.
            Some((_, tail)) if tail.len() == 3 => body.replace(',', ""),
            Some((head, tail)) if !head.contains(',') => format!("{head}.{tail}"),
            Some(_) => return Err(InputError::NotANumber),
            None => body,
        }
    };
    let allowed = |c: char| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E');
    if !plain.chars().all(allowed) {
        return Err(InputError::NotANumber);
    }
    match plain.parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(value),
        _ => Err(InputError::NotANumber),
    }
}

/// A figure in GB as the student typed it ("55.6", "55.6 GB", "５５.６").
pub fn parse_gb(text: &str) -> Result<f64, InputError> {
    let value = parse_number(text, &["gb", "g"])?;
    if value < 0.0 {
        Err(InputError::Negative)
    } else if value > MAX_GB {
        Err(InputError::TooLarge(format!(
            "{} GB",
            format::thousands(MAX_GB as u64)
        )))
    } else {
        Ok(value)
    }
}

/// A whole number in `min..=max`.
pub fn parse_whole(text: &str, min: u32, max: u32) -> Result<u32, InputError> {
    let value = parse_number(text, &[])?;
    if value.fract() != 0.0 {
        return Err(InputError::NotWhole);
    }
    if value < f64::from(min) {
        return Err(if value < 0.0 {
            InputError::Negative
        } else {
            InputError::TooSmall(min.to_string())
        });
    }
    if value > f64::from(max) {
        return Err(InputError::TooLarge(format::thousands(u64::from(max))));
    }
    Ok(value as u32)
}

/// A threshold in percent ("10", "10%"), as a ratio; empty means [`DEFAULT_BUBBLE_THRESHOLD`].
pub fn parse_percent(text: &str) -> Result<f64, InputError> {
    if text.trim().is_empty() {
        return Ok(DEFAULT_BUBBLE_THRESHOLD);
    }
    let value = parse_number(text, &["%", "％"])?;
    if value < 0.0 {
        Err(InputError::Negative)
    } else if value == 0.0 {
        Err(InputError::NotPositive)
    } else if value > 100.0 {
        Err(InputError::TooLarge("100%".to_string()))
    } else {
        Ok(value / 100.0)
    }
}

/// Whether a typed GB figure matches the core's: the same at one decimal, or within 0.1 GB.
pub fn matches_one_decimal(typed_gb: f64, computed: Bytes) -> bool {
    let exact = computed.gb();
    format!("{typed_gb:.1}") == format!("{exact:.1}") || (typed_gb - exact).abs() <= 0.1 + 1e-9
}

/// Whether `dim` is a heaviest dimension of `comm` (ties count for every tied dimension).
pub fn is_heaviest(comm: &[Traffic], dim: Dim) -> bool {
    match (heaviest(comm), comm.iter().find(|t| t.dim == dim)) {
        (Some(top), Some(mine)) => mine.bytes.get() >= top.bytes.get(),
        _ => false,
    }
}

/// Whether a TP bench difference is at rounding level against the output's scale.
pub fn is_rounding_level(diff: f64, output_max_abs: f64) -> bool {
    diff <= ROUNDING_LEVEL * output_max_abs.max(1.0)
}

/// Decision 1's plan: one machine of 8 × 80 GB, s = 4,096, the student's ZeRO, TP and recompute.
pub fn decision_one_config(zero: u8, tp: u32, recompute: Recompute) -> PlanConfig {
    PlanConfig {
        zero,
        tp,
        recompute,
        ..PlanConfig::lesson_8_gpus()
    }
}

/// Decision 2's plan: 64 cards in 8 machines, the student's TP, PP, ZeRO and m (DP derived).
pub fn decision_two_config(tp: u32, pp: u32, zero: u8, micro_batches: u32) -> PlanConfig {
    PlanConfig {
        tp,
        pp,
        zero,
        micro_batches,
        ..PlanConfig::lesson_64_gpus()
    }
}

fn recompute_of(value: &str) -> Recompute {
    match value {
        "none" => Recompute::None,
        "selective" => Recompute::Selective,
        _ => Recompute::Full,
    }
}

fn dim_of(value: &str) -> Option<Dim> {
    match value {
        "tp" => Some(Dim::Tp),
        "pp" => Some(Dim::Pp),
        "dp" => Some(Dim::Dp),
        "cp" => Some(Dim::Cp),
        _ => None,
    }
}

fn link_of(value: &str) -> Option<Link> {
    match value {
        "nvlink" => Some(Link::NvLink),
        "ib" => Some(Link::InfiniBand),
        _ => None,
    }
}

/// Decision 1 checked: the student's two figures against the core's memory for their plan.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionOne {
    /// The plan the student described.
    pub config: PlanConfig,
    /// The core's memory for it, or why it rejects it.
    pub memory: Result<(u32, Memory), PlanError>,
    /// Model states per card as typed.
    pub states: Result<f64, InputError>,
    /// Activations per card as typed.
    pub activations: Result<f64, InputError>,
}

impl DecisionOne {
    /// Checks the typed figures against the core's report of `config`.
    pub fn check(config: PlanConfig, states: &str, activations: &str) -> DecisionOne {
        DecisionOne {
            memory: Plan::new(&config).map(|plan| (plan.degrees().dp, plan.memory())),
            config,
            states: parse_gb(states),
            activations: parse_gb(activations),
        }
    }

    /// (model states match, activations match, fits): `None` where input or plan is invalid.
    pub fn marks(&self) -> Option<(bool, bool, bool)> {
        let (_, memory) = self.memory.as_ref().ok()?;
        let states = self
            .states
            .as_ref()
            .ok()
            .map(|&gb| matches_one_decimal(gb, memory.model_states));
        let activations = self
            .activations
            .as_ref()
            .ok()
            .map(|&gb| matches_one_decimal(gb, memory.activations));
        Some((states?, activations?, memory.fits))
    }

    /// Every check passes.
    pub fn passed(&self) -> bool {
        self.marks() == Some((true, true, true))
    }
}

/// Decision 2 as the student filled it in.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionTwoAnswer {
    /// TP degree.
    pub tp: u32,
    /// PP degree.
    pub pp: u32,
    /// ZeRO stage.
    pub zero: u8,
    /// Micro-batches per step, as typed.
    pub micro_batches: String,
    /// The heaviest dimension named.
    pub heaviest: Option<Dim>,
    /// Its bytes per card per step in GB, as typed.
    pub bytes: String,
    /// Its link named.
    pub link: Option<Link>,
    /// Acceptable bubble in percent, as typed (empty: 10%).
    pub threshold: String,
}

/// Decision 2 checked against the core's report of the student's plan.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionTwo {
    /// m as parsed.
    pub micro_batches: Result<u32, InputError>,
    /// The bytes as parsed.
    pub bytes: Result<f64, InputError>,
    /// The threshold as parsed (a ratio).
    pub threshold: Result<f64, InputError>,
    /// The named dimension and link.
    pub heaviest: Option<Dim>,
    /// The named link.
    pub link: Option<Link>,
    /// The plan and its report; `None` until m is valid.
    pub report: Option<(PlanConfig, Result<Report, PlanError>)>,
}

/// What decision 2's check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecisionTwoMarks {
    /// The named dimension is the heaviest.
    pub dimension: bool,
    /// Its bytes match the core's to one decimal.
    pub bytes: bool,
    /// Its link is right.
    pub link: bool,
    /// The bubble (p−1)/m is at most the threshold.
    pub bubble: bool,
    /// The busiest card fits.
    pub fits: bool,
}

impl DecisionTwo {
    /// Parses the answer and evaluates the plan.
    pub fn check(answer: &DecisionTwoAnswer) -> DecisionTwo {
        let micro_batches = parse_whole(&answer.micro_batches, 1, MAX_MICRO_BATCHES);
        let report = micro_batches.as_ref().ok().map(|&m| {
            let config = decision_two_config(answer.tp, answer.pp, answer.zero, m);
            let report = Plan::new(&config).map(|plan| plan.report());
            (config, report)
        });
        DecisionTwo {
            micro_batches,
            bytes: parse_gb(&answer.bytes),
            threshold: parse_percent(&answer.threshold),
            heaviest: answer.heaviest,
            link: answer.link,
            report,
        }
    }

    /// The marks, once every field is readable and the core accepts the plan.
    pub fn marks(&self) -> Option<DecisionTwoMarks> {
        let (_, report) = self.report.as_ref()?;
        let report = report.as_ref().ok()?;
        let top = heaviest(&report.comm)?;
        let dim = self.heaviest?;
        let link = self.link?;
        let bytes = *self.bytes.as_ref().ok()?;
        let threshold = *self.threshold.as_ref().ok()?;
        Some(DecisionTwoMarks {
            dimension: is_heaviest(&report.comm, dim),
            bytes: matches_one_decimal(bytes, top.bytes),
            link: link == top.link,
            bubble: report.bubble.ratio <= threshold + 1e-12,
            fits: report.memory.fits,
        })
    }

    /// Every check passes.
    pub fn passed(&self) -> bool {
        self.marks()
            .is_some_and(|m| m.dimension && m.bytes && m.link && m.bubble && m.fits)
    }
}

/// Model states of the small model (16 bytes/param, one card, no sharding) and how many times
/// one card of the lesson's plan holds them.
pub fn small_model_states() -> (Bytes, Bytes, f64) {
    let grad_bytes = PlanConfig::default().precision.grad_bytes();
    let states = ModelStates::ledger(SMALL_MODEL_PARAMS, 1.0, 0, grad_bytes).total();
    let capacity = Plan::default().capacity();
    (states, capacity, capacity.get() / states.get())
}

/// "56.3 MiB": one decimal in mebibytes (the lesson's notation for small models).
pub fn mib(bytes: Bytes) -> String {
    format!("{:.1} MiB", bytes.gib() * 1024.0)
}

// ---------------------------------------------------------------------------------------------
// Views.
// ---------------------------------------------------------------------------------------------

fn mark(ok: bool) -> &'static str {
    if ok {
        "✓"
    } else {
        "✗"
    }
}

fn recompute_name(lang: Lang, recompute: Recompute) -> &'static str {
    match recompute {
        Recompute::Full => lang.pick("全量重计算", "full recompute"),
        Recompute::Selective => lang.pick("选择性重计算", "selective recompute"),
        Recompute::None => lang.pick("不重计算", "no recompute"),
    }
}

/// A `<select>` bound to a string signal, with its label.
#[component]
fn SelectField(
    id: &'static str,
    label_zh: &'static str,
    label_en: &'static str,
    /// (value, 中文, English)
    options: Vec<(&'static str, &'static str, &'static str)>,
    value: RwSignal<String>,
) -> impl IntoView {
    let lang = use_lang();
    let options = options
        .into_iter()
        .map(|(v, zh, en)| {
            view! { <option value=v selected=move || value.with(|s| s == v)>{move || lang.get().pick(zh, en)}</option> }
        })
        .collect_view();
    view! {
        <label for=id>
            <span>{move || lang.get().pick(label_zh, label_en)}</span>
            <select id=id data-testid=id prop:value=move || value.get() on:change=move |ev| value.set(event_target_value(&ev))>
                {options}
            </select>
        </label>
    }
}

/// A text field for a number, with its label, unit and live error.
#[component]
fn NumberField(
    id: &'static str,
    label_zh: &'static str,
    label_en: &'static str,
    unit: &'static str,
    example: &'static str,
    value: RwSignal<String>,
    /// Parses the text; an error is shown under the field once something was typed.
    validate: fn(&str) -> Result<(), InputError>,
    /// Empty is allowed (a default applies).
    #[prop(optional)]
    optional: bool,
) -> impl IntoView {
    let lang = use_lang();
    let error = move || {
        let text = value.get();
        if text.trim().is_empty() && optional {
            return None;
        }
        validate(&text)
            .err()
            .filter(|e| !(text.is_empty() && *e == InputError::Empty))
    };
    let error_id = format!("{id}-error");
    view! {
        <label for=id class:invalid=move || error().is_some()>
            <span>{move || lang.get().pick(label_zh, label_en)}</span>
            <span class="input-with-unit">
                <input
                    id=id
                    data-testid=id
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    placeholder=example
                    aria-invalid=move || error().is_some().to_string()
                    aria-describedby=error_id.clone()
                    prop:value=move || value.get()
                    on:input=move |ev| value.set(event_target_value(&ev))
                />
                <span class="unit">{unit}</span>
            </span>
            <span class="field-error" id=error_id role="alert">
                {move || error().map(|e| e.message(lang.get(), example))}
            </span>
        </label>
    }
}

fn input_line(
    lang: Lang,
    what: &str,
    parsed: &Result<f64, InputError>,
    example: &str,
) -> Option<String> {
    parsed
        .as_ref()
        .err()
        .map(|e| format!("{what}{}", e.message(lang, example)))
}

fn render_one(lang: Lang, check: &DecisionOne, lab8: GridLab) -> AnyView {
    let config = check.config.clone();
    let (dp, memory) = match &check.memory {
        Ok(found) => *found,
        Err(error) => {
            return view! {
                <p role="alert">{lang.pick("核心拒绝了这个方案：", "The core rejects this plan: ")}{explain(lang, error)}</p>
            }
            .into_any()
        }
    };
    let plan_name = format!(
        "{} {} · ZeRO-{} · TP {} · DP {} · {}",
        lang.pick("你的方案：", "Your plan:"),
        lang.pick("8 卡", "8 cards"),
        config.zero,
        config.tp,
        dp,
        recompute_name(lang, config.recompute)
    );
    let mut problems = Vec::new();
    problems.extend(input_line(
        lang,
        lang.pick("每卡模型状态：", "Model states per card: "),
        &check.states,
        "12.3",
    ));
    problems.extend(input_line(
        lang,
        lang.pick("每卡激活：", "Activations per card: "),
        &check.activations,
        "4.5",
    ));
    let line = |label: &str,
                typed: &Result<f64, InputError>,
                computed: Bytes,
                test: &'static str| {
        typed.as_ref().ok().map(|&gb| {
            let ok = matches_one_decimal(gb, computed);
            let (colon, comma) = (lang.pick("：", ": "), lang.pick("，", ", "));
            let text = format!(
                "{} {label}{colon}{} {gb} GB{comma}{} {} {}",
                mark(ok),
                lang.pick("你写", "you wrote"),
                lang.pick("核心算出", "the core computes"),
                format::bytes(computed),
                if ok { lang.pick("（一致）", "(match)") } else { lang.pick("（对不上）", "(no match)") }
            );
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
    let total_line = format!(
        "{} {} {} {} {} {}",
        mark(memory.fits),
        lang.pick("合计", "total"),
        format::bytes(memory.total),
        if memory.fits { "≤" } else { ">" },
        format::bytes(memory.capacity),
        if memory.fits {
            lang.pick("放得下", "fits")
        } else {
            lang.pick("放不下", "does not fit")
        }
    );
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
    view! {
        <p class="verdict-plan">{plan_name}</p>
        <ul class="verdict-lines">
            {problems.into_iter().map(|p| view! { <li class="input-problem">{p}</li> }).collect_view()}
            {states_line}
            {activations_line}
            <li data-testid="decision-1-total" data-fits=memory.fits.to_string()>{total_line}</li>
        </ul>
        <p class="verdict-conclusion"><strong>{conclusion}</strong></p>
        <GridLoadLine decision=1 lab=lab8 config=config />
    }
    .into_any()
}

/// DP of a form's plan as the core derives it, or "—" while the plan does not divide.
fn derived_dp(config: &PlanConfig) -> String {
    Plan::new(config).map_or_else(|_| "—".to_string(), |plan| plan.degrees().dp.to_string())
}

/// The verdict box's class: unchecked, passed or failed.
fn verdict_class(passed: Option<bool>) -> &'static str {
    match passed {
        None => "verdict",
        Some(true) => "verdict pass",
        Some(false) => "verdict fail",
    }
}

/// Whether the grid of a decision shows the student's plan right now, and a button that puts
/// it there (`decision-N-grid`, `decision-N-load`).
#[component]
fn GridLoadLine(decision: u8, lab: GridLab, config: PlanConfig) -> impl IntoView {
    let lang = use_lang();
    let in_grid = {
        let config = config.clone();
        Memo::new(move |_| lab.config.with(|c| *c == config))
    };
    let cards = lab.config.with_untracked(|c| c.gpus);
    let line = move || match (lang.get(), in_grid.get()) {
        (Lang::Zh, true) => format!("{cards} 卡网格现在显示的正是这个方案。"),
        (Lang::Zh, false) => format!("{cards} 卡网格现在显示的是另一个方案。"),
        (Lang::En, true) => format!("The {cards}-card grid shows exactly this plan right now."),
        (Lang::En, false) => format!("The {cards}-card grid currently shows a different plan."),
    };
    let button = move || match lang.get() {
        Lang::Zh => format!("把我的方案放进 {cards} 卡网格"),
        Lang::En => format!("Load my plan into the {cards}-card grid"),
    };
    view! {
        <p class="verdict-grid" data-testid=format!("decision-{decision}-grid") data-same=move || in_grid.get().to_string()>
            {line} " "
            <button type="button" class="small" data-testid=format!("decision-{decision}-load") disabled=move || in_grid.get()
                on:click=move |_| lab.load(config.clone())>
                {button}
            </button>
        </p>
    }
}

#[component]
fn DecisionOneForm(lab8: GridLab) -> impl IntoView {
    let lang = use_lang();
    let zero = RwSignal::new("3".to_string());
    let tp = RwSignal::new("1".to_string());
    let recompute = RwSignal::new("full".to_string());
    let states = RwSignal::new(String::new());
    let activations = RwSignal::new(String::new());
    let checked = RwSignal::new(None::<DecisionOne>);
    let current = move || {
        decision_one_config(
            zero.with(|z| z.parse().unwrap_or(3)),
            tp.with(|t| t.parse().unwrap_or(1)),
            recompute.with(|r| recompute_of(r)),
        )
    };
    let dp = move || derived_dp(&current());
    let verdict = move || {
        let lang = lang.get();
        checked.with(|c| match c {
            None => view! { <p class="muted">{lang.pick("填好后点「核对」。", "Fill in the form, then press Check.")}</p> }.into_any(),
            Some(check) => render_one(lang, check, lab8),
        })
    };
    let verdict_class = move || checked.with(|c| verdict_class(c.as_ref().map(|c| c.passed())));
    let validate_gb: fn(&str) -> Result<(), InputError> = |text| parse_gb(text).map(|_| ());
    view! {
        <form class="decision" data-testid="decision-1" aria-labelledby="decision-1-title" novalidate
            on:submit=move |ev| {
                ev.prevent_default();
                checked.set(Some(DecisionOne::check(current(), &states.get_untracked(), &activations.get_untracked())));
            }>
            <fieldset>
                <legend id="decision-1-title">
                    <T zh="① 在一台 8 × 80 GB 的机器上训练锚点，序列 4,096" en="① One machine of 8 × 80 GB for the anchor, sequence 4,096" />
                </legend>
                <p class="hint">
                    <T zh="选定 ZeRO 的级别、TP 的大小和激活的重计算方式，再写下你算出的每卡模型状态与激活（单位 GB，保留一位小数）。DP 自动等于 8 ÷ TP。"
                       en="Which ZeRO stage? TP or not? How are activations kept? Choose a plan, then write your per-card model states and activations (GB, one decimal). DP follows as 8 ÷ TP." />
                </p>
                <div class="form-row">
                    <SelectField id="decision-1-zero" label_zh="ZeRO 阶段" label_en="ZeRO stage" value=zero
                        options=vec![("0", "0：不切", "0: none"), ("1", "1：切优化器状态", "1: optimizer states"), ("2", "2：再切梯度", "2: + gradients"), ("3", "3：再切参数", "3: + parameters")] />
                    <SelectField id="decision-1-tp" label_zh="TP" label_en="TP" value=tp
                        options=vec![("1", "1", "1"), ("2", "2", "2"), ("4", "4", "4"), ("8", "8", "8")] />
                    <SelectField id="decision-1-recompute" label_zh="激活重计算" label_en="Activation recompute" value=recompute
                        options=vec![("full", "全量", "full"), ("selective", "选择性", "selective"), ("none", "不重计算", "none")] />
                    <p class="derived-value"><T zh="DP（推出）" en="DP (derived)" />" = " <output data-testid="decision-1-dp">{dp}</output></p>
                </div>
                <div class="form-row">
                    <NumberField id="decision-1-states" label_zh="每卡模型状态" label_en="Model states per card" unit="GB" example="12.3" value=states validate=validate_gb />
                    <NumberField id="decision-1-activations" label_zh="每卡激活" label_en="Activations per card" unit="GB" example="4.5" value=activations validate=validate_gb />
                </div>
                <div class="form-actions">
                    <button type="submit" data-testid="decision-1-check"><T zh="核对" en="Check" /></button>
                </div>
                <div class=verdict_class data-testid="decision-1-verdict" role="status" aria-live="polite"
                    data-pass=move || checked.with(|c| c.as_ref().map(|c| c.passed()).unwrap_or(false).to_string())>
                    {verdict}
                </div>
            </fieldset>
        </form>
    }
}

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
fn DecisionTwoForm(lab64: GridLab) -> impl IntoView {
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
        |text| parse_percent(text).map(|_| ());
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

#[component]
fn DecisionThreeForm() -> impl IntoView {
    let lang = use_lang();
    let (states, capacity, times) = small_model_states();
    let params_text = format::thousands(SMALL_MODEL_PARAMS as u64);
    let answer = RwSignal::new(None::<bool>);
    let checked = RwSignal::new(None::<Option<bool>>);
    let verdict = move || {
        let lang = lang.get();
        let times = format::thousands(times.floor() as u64);
        checked.get().map(|choice| match choice {
            None => lang.pick("先选一个答案。", "Pick an answer first.").to_string(),
            Some(needs) => {
                let head = if needs {
                    lang.pick("✗ 不需要。", "✗ It does not.")
                } else {
                    lang.pick("✓ 对，不需要并行。", "✓ Right: no parallelism needed.")
                };
                match lang {
                    Lang::Zh => format!(
                        "{head}它的模型状态只有 {}（{} 字节），一张 {} 的卡能装下约 {times} 份。多卡对它只是复制几份数据并行来提速，不是因为放不下。",
                        mib(states), format::thousands(states.get() as u64), format::bytes(capacity)
                    ),
                    Lang::En => format!(
                        "{head} Its model states are only {} ({} bytes); one {} card holds about {times} copies of them. More cards would only add data-parallel replicas for speed, not because it does not fit.",
                        mib(states), format::thousands(states.get() as u64), format::bytes(capacity)
                    ),
                }
            }
        })
    };
    // Passes when the answer is "no, it needs no parallelism".
    let verdict_class = move || verdict_class(checked.get().map(|answer| answer == Some(false)));
    view! {
        <form class="decision" data-testid="decision-3" aria-labelledby="decision-3-title" novalidate
            on:submit=move |ev| { ev.prevent_default(); checked.set(Some(answer.get_untracked())); }>
            <fieldset>
                <legend id="decision-3-title">
                    <T zh="③ 我们自己的小模型" en="③ The project's own small model" />
                </legend>
                <p>
                    {move || lang.get().pick("参数量 ", "Parameters: ")}
                    <strong>{params_text}</strong>
                    {move || lang.get().pick("；模型状态 16 字节 × 参数量 = ", "; model states, 16 bytes × parameters = ")}
                    <strong data-testid="decision-3-states" data-bytes=states.get().to_string()>{mib(states)}</strong>
                    {move || lang.get().pick("。", ".")}
                </p>
                <fieldset class="choice-group">
                    <legend><T zh="它需要并行吗？" en="Does it need parallelism?" /></legend>
                    <label>
                        <input type="radio" name="decision-3-answer" value="yes" data-testid="decision-3-yes"
                            prop:checked=move || answer.get() == Some(true)
                            on:change=move |_| answer.set(Some(true)) />
                        <T zh="需要：一张卡放不下" en="Yes: one card cannot hold it" />
                    </label>
                    <label>
                        <input type="radio" name="decision-3-answer" value="no" data-testid="decision-3-no"
                            prop:checked=move || answer.get() == Some(false)
                            on:change=move |_| answer.set(Some(false)) />
                        <T zh="不需要：一张卡绰绰有余" en="No: one card holds it with room to spare" />
                    </label>
                </fieldset>
                <div class="form-actions">
                    <button type="submit" data-testid="decision-3-check"><T zh="核对" en="Check" /></button>
                </div>
                <div class=verdict_class data-testid="decision-3-verdict" role="status" aria-live="polite"
                    data-pass=move || (checked.get() == Some(Some(false))).to_string()>
                    {move || verdict().map(|text| view! { <p>{text}</p> })}
                </div>
            </fieldset>
        </form>
    }
}

/// A seed for the bench from the browser's generator (the core has no randomness).
#[cfg(target_arch = "wasm32")]
fn fresh_seed() -> u64 {
    use web_sys::js_sys::Math;
    let half = || (Math::random() * 4_294_967_296.0) as u64;
    (half() << 32) | half()
}

/// Outside the browser (native tests) a fixed seed.
#[cfg(not(target_arch = "wasm32"))]
fn fresh_seed() -> u64 {
    0x5EED
}

fn bench_lines(lang: Lang, bench: &TpBench) -> (String, String, bool) {
    let column_ok = is_rounding_level(bench.column_split_max_diff, bench.output_max_abs);
    let row_ok = !is_rounding_level(bench.row_split_max_diff, bench.output_max_abs);
    let column = format!(
        "{} {}: max |Y − Y_split| = {:.1e} {}",
        mark(column_ok),
        lang.pick(
            "W 按列切、V 按行切，部分和相加",
            "W split by columns and V by rows, partial outputs summed"
        ),
        bench.column_split_max_diff,
        if column_ok {
            lang.pick("（舍入级）", "(rounding level)")
        } else {
            lang.pick("（超出舍入级）", "(above rounding level)")
        }
    );
    let row = format!(
        "{} {}: max |Y − Y_split| = {:.3} {}",
        mark(row_ok),
        lang.pick(
            "W 按行切（GeLU 作用在部分和上）",
            "W split by rows (GeLU applied to partial sums)"
        ),
        bench.row_split_max_diff,
        if row_ok {
            lang.pick("（明显不为 0）", "(clearly non-zero)")
        } else {
            lang.pick("（意外地接近 0）", "(unexpectedly near zero)")
        }
    );
    (column, row, column_ok && row_ok)
}

#[component]
fn TpBenchView() -> impl IntoView {
    let lang = use_lang();
    let seed = RwSignal::new(fresh_seed());
    let shape = BenchShape::default();
    let result = Memo::new(move |_| tp_bench(seed.get(), shape));
    let body = move || {
        let lang = lang.get();
        match result.get() {
            Ok(bench) => {
                let (column, row, both) = bench_lines(lang, &bench);
                let scale = format!(
                    "{} {:.2}",
                    lang.pick("输出 Y 的最大绝对值", "largest |Y| of the output"),
                    bench.output_max_abs
                );
                view! {
                    <ul class="verdict-lines">
                        <li data-testid="tp-bench-column" data-diff=bench.column_split_max_diff.to_string()>{column}</li>
                        <li data-testid="tp-bench-row" data-diff=bench.row_split_max_diff.to_string()>{row}</li>
                        <li class="muted">{scale}</li>
                    </ul>
                    <p data-testid="tp-bench-verdict" data-pass=both.to_string()>
                        <strong>{if both {
                            lang.pick("✓ 两个结论都复现了。", "✓ Both conclusions reproduced.")
                        } else {
                            lang.pick("✗ 这一次没有复现，再跑一次看看。", "✗ Not reproduced this time; run it again.")
                        }}</strong>
                    </p>
                }
                .into_any()
            }
            Err(error) => view! { <p role="alert">{error.to_string()}</p> }.into_any(),
        }
    };
    view! {
        <div class="tp-bench figure" data-testid="tp-bench">
            <h4><T zh="第 3 课的验算台：Y = GeLU(X·W)·V" en="Lesson 3's bench: Y = GeLU(X·W)·V" /></h4>
            <p class="hint">
                {move || match lang.get() {
                    Lang::Zh => format!(
                        "在你的浏览器里真算：X 是 {}×{}，W 是 {}×{}，V 是 {}×{}，切给 {} 张“卡”，f32。矩阵由种子 {} 生成。",
                        shape.tokens, shape.hidden, shape.hidden, shape.ffn, shape.ffn, shape.hidden, shape.tp, seed.get()
                    ),
                    Lang::En => format!(
                        "Computed for real in your browser: X is {}×{}, W is {}×{}, V is {}×{}, split over {} \"cards\", in f32. The matrices come from seed {}.",
                        shape.tokens, shape.hidden, shape.hidden, shape.ffn, shape.ffn, shape.hidden, shape.tp, seed.get()
                    ),
                }}
            </p>
            <div role="status" aria-live="polite">{body}</div>
            <button type="button" data-testid="tp-bench-rerun" on:click=move |_| seed.set(fresh_seed())>
                <T zh="换一组随机矩阵，再跑一次" en="Run again with new random matrices" />
            </button>
        </div>
    }
}

/// Part four: the three decisions, the acceptance line and the TP bench.
#[component]
pub fn Decisions(lab8: GridLab, lab64: GridLab) -> impl IntoView {
    view! {
        <section class="part" id=Section::PartFour.id() data-testid="section-decisions" aria-labelledby="part-four-title">
            <h2 id="part-four-title"><span class="part-number">"4"</span><T zh="为项目拍板" en="Decide for the project" /></h2>
            <p class="lead">
                <T zh="三件事要拍板，每件都写成能核对的数：选好方案、写下你的数，页面用和网格相同的公式算一遍，逐项对照。"
                   en="Three decisions, each written as figures that can be checked: choose a plan, write down your numbers, and the page counts the same plan with the grid's formulas and compares line by line." />
            </p>
            <DecisionOneForm lab8=lab8 />
            <DecisionTwoForm lab64=lab64 />
            <DecisionThreeForm />
            <div class="acceptance" data-testid="acceptance">
                <h3><T zh="验收" en="Acceptance" /></h3>
                <ol>
                    <li><T zh="每卡显存分项（模型状态、激活）与网格现算值一致，合计 ≤ 80 GB（第 ① 项）。"
                           en="Per-card memory, item by item (model states, activations), matches the grid's computed figures, and the total is at most 80 GB (decision ①)." /></li>
                    <li><T zh="写清通信最重的一维、它的字节数和链路（第 ② 项）。"
                           en="The heaviest dimension is named with its bytes and its link (decision ②)." /></li>
                    <li><T zh="第 3 课验算台的两个结论能复现：先列切再行切，差在舍入级；按行切，差不为 0。"
                           en="Both conclusions of lesson 3's bench reproduce: columns then rows differ only by rounding; a row split does not give the same result." /></li>
                </ol>
                <TpBenchView />
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gb_fields_accept_numbers_and_name_what_is_wrong() {
        let cases: [(&str, Result<f64, InputError>); 14] = [
            ("55.6", Ok(55.6)),
            (" 55.6 GB ", Ok(55.6)),
            ("55.6gb", Ok(55.6)),
            ("2.7 G", Ok(2.7)),
            ("５５．６", Ok(55.6)),
            ("55,6", Ok(55.6)),
            ("1,024", Ok(1024.0)),
            ("0", Ok(0.0)),
            ("", Err(InputError::Empty)),
            ("  GB", Err(InputError::Empty)),
            ("abc", Err(InputError::NotANumber)),
            ("inf", Err(InputError::NotANumber)),
            ("-3", Err(InputError::Negative)),
            ("1e9", Err(InputError::TooLarge("100,000 GB".to_string()))),
        ];
        for (text, expected) in cases {
            assert_eq!(parse_gb(text), expected, "{text:?}");
        }
        assert_eq!(parse_gb("NaN"), Err(InputError::NotANumber));
        assert_eq!(parse_gb("5 5"), Ok(55.0));
        assert_eq!(parse_gb("1,2,3"), Err(InputError::NotANumber));
    }

    #[test]
    fn whole_numbers_and_percent() {
        assert_eq!(parse_whole("32", 1, MAX_MICRO_BATCHES), Ok(32));
        assert_eq!(
            parse_whole("8.5", 1, MAX_MICRO_BATCHES),
            Err(InputError::NotWhole)
        );
        assert_eq!(
            parse_whole("0", 1, MAX_MICRO_BATCHES),
            Err(InputError::TooSmall("1".to_string()))
        );
        assert_eq!(
            parse_whole("-4", 1, MAX_MICRO_BATCHES),
            Err(InputError::Negative)
        );
        assert_eq!(
            parse_whole("99999999999999999999", 1, MAX_MICRO_BATCHES),
            Err(InputError::TooLarge("1,024".to_string()))
        );
        assert_eq!(parse_whole("", 1, 4), Err(InputError::Empty));
        assert_eq!(parse_percent(""), Ok(DEFAULT_BUBBLE_THRESHOLD));
        assert_eq!(parse_percent("25%"), Ok(0.25));
        assert_eq!(parse_percent("0"), Err(InputError::NotPositive));
        assert_eq!(
            parse_percent("150"),
            Err(InputError::TooLarge("100%".to_string()))
        );
        assert_eq!(parse_percent("ten"), Err(InputError::NotANumber));
    }

    #[test]
    fn messages_come_in_both_languages() {
        let han = |s: &str| {
            s.chars().any(|c| {
                ('\u{4e00}'..='\u{9fff}').contains(&c)
                    || ('\u{3000}'..='\u{303f}').contains(&c)
                    || ('\u{ff00}'..='\u{ffef}').contains(&c)
            })
        };
        for e in [
            InputError::Empty,
            InputError::NotANumber,
            InputError::Negative,
            InputError::NotPositive,
            InputError::NotWhole,
            InputError::TooSmall("1".into()),
            InputError::TooLarge("9".into()),
        ] {
            assert!(han(&e.message(Lang::Zh, "1")), "{e:?}");
            assert!(!han(&e.message(Lang::En, "1")), "{e:?}");
        }
    }

    #[test]
    fn one_decimal_matching() {
        let b = Bytes::new(55_562_855_904.0);
        assert!(matches_one_decimal(55.6, b));
        assert!(matches_one_decimal(55.5, b));
        assert!(matches_one_decimal(55.56, b));
        assert!(!matches_one_decimal(55.4, b));
        assert!(!matches_one_decimal(56.0, b));
    }

    #[test]
    fn decision_one_checks_against_the_core() {
        let right =
            DecisionOne::check(decision_one_config(3, 1, Recompute::Full), "55.6", "2.7 GB");
        assert_eq!(right.marks(), Some((true, true, true)));
        assert!(right.passed());
        let overflow = DecisionOne::check(
            decision_one_config(3, 1, Recompute::Selective),
            "55.6",
            "45.6",
        );
        assert_eq!(overflow.marks(), Some((true, true, false)));
        let typo = DecisionOne::check(
            decision_one_config(0, 8, Recompute::Selective),
            "55.6",
            "5.7",
        );
        assert_eq!(
            typo.marks(),
            Some((true, true, true)),
            "TP 8 keeps 55.6 GB whatever the ZeRO stage"
        );
        let bad = DecisionOne::check(decision_one_config(3, 1, Recompute::Full), "", "x");
        assert_eq!(bad.marks(), None);
        assert!(!bad.passed());
        let rejected = DecisionOne::check(decision_one_config(3, 3, Recompute::Full), "1", "1");
        assert!(rejected.memory.is_err());
    }

    #[test]
    fn heaviest_dimension_is_the_most_bytes() {
        let plan = Plan::new(&decision_two_config(8, 2, 1, 8)).expect("lesson plan");
        let comm = plan.traffic();
        let top = heaviest(&comm).expect("some traffic");
        assert_eq!(
            (top.dim, format::bytes(top.bytes), top.link),
            (Dim::Tp, "75.2 GB".to_string(), Link::NvLink)
        );
        assert!(is_heaviest(&comm, Dim::Tp));
        assert!(!is_heaviest(&comm, Dim::Dp));
        assert!(!is_heaviest(&comm, Dim::Cp));
        assert!(heaviest(&[]).is_none());
    }

    #[test]
    fn decision_two_checks_dimension_bytes_link_and_bubble() {
        let mut answer = DecisionTwoAnswer {
            tp: 8,
            pp: 8,
            zero: 1,
            micro_batches: "32".into(),
            heaviest: Some(Dim::Tp),
            bytes: "75.2".into(),
            link: Some(Link::NvLink),
            threshold: String::new(),
        };
        let check = DecisionTwo::check(&answer);
        let marks = check.marks().expect("complete answer");
        assert!(marks.dimension && marks.bytes && marks.link && marks.fits);
        assert!(!marks.bubble, "21.9% is above the default 10%");
        answer.threshold = "25".into();
        assert!(DecisionTwo::check(&answer).passed());
        answer.link = Some(Link::InfiniBand);
        assert!(!DecisionTwo::check(&answer).passed());
        answer.micro_batches = "zero".into();
        let check = DecisionTwo::check(&answer);
        assert!(check.report.is_none() && check.marks().is_none());
    }

    #[test]
    fn small_model_fits_many_times() {
        let (states, capacity, times) = small_model_states();
        assert_eq!(mib(states), "56.3 MiB");
        assert_eq!(format::bytes(capacity), "80.0 GB");
        assert_eq!(times.floor(), 1355.0);
    }

    #[test]
    fn bench_verdicts() {
        for seed in [1, 7, 42, u64::MAX] {
            let bench = tp_bench(seed, BenchShape::default()).expect("default shape");
            let (_, _, both) = bench_lines(Lang::En, &bench);
            assert!(both, "seed {seed}: {bench:?}");
        }
        assert!(is_rounding_level(1e-6, 5.0));
        assert!(!is_rounding_level(0.5, 5.0));
    }
}
