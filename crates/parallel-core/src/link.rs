//! The lab's links: a whole page state in a short, readable URL fragment, and back.
//!
//! ```text
//! #g64=tp8.pp2.z1.m32&c64=0&lang=en
//! ```
//!
//! - `g8` / `g64`: a grid's plan, as the fields that differ from that grid's base config
//!   (the neutral defaults of SPEC §2 with N = 8 or 64), joined by dots. Absent: the grid
//!   starts where the lesson starts. Numbers are a key and digits (`tp8`, `m32`, `s131072`,
//!   `z1`; a decimal point is written `p`: `mem94p5`); values that are words stand alone
//!   (`selective`, `interleaved`, `fp32`, `llama`).
//! - `c8` / `c64`: the selected card; `sec`: the open section; `lang`: `zh` or `en`;
//!   `embed`: the widget shown alone (embed mode).
//!
//! Decoding never fails: whatever does not parse, is out of range or does not combine with the
//! rest is ignored, named in an [`Ignored`] notice, and left at its default. Tokens are
//! applied in the order of the config table, each kept only if the plan stays valid, so
//! `g8=tp3.pp2` keeps PP 2 and reports TP 3. The grids' sizes are fixed (8 cards in one node,
//! 64 in 8 nodes) and TP stays within a node, as on the page.

use core::fmt;

use crate::config::{PlanConfig, Precision, RankOrder, Recompute, Schedule};
use crate::model::{ModelChoice, Preset};
use crate::plan::Plan;

/// The longest fragment read; the rest is ignored (with a notice).
pub const MAX_LINK_LEN: usize = 2048;
/// The most tokens read per grid.
const MAX_TOKENS: usize = 32;
/// Longest excerpt of the input quoted in a notice.
const EXCERPT: usize = 24;

/// One of the page's two grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GridId {
    /// One machine: 8 cards.
    Eight,
    /// Eight machines: 64 cards.
    SixtyFour,
}

impl GridId {
    /// Both grids, in page order.
    pub const ALL: [GridId; 2] = [GridId::Eight, GridId::SixtyFour];

    /// The link key of the grid's plan: "g8" or "g64".
    pub const fn key(self) -> &'static str {
        match self {
            GridId::Eight => "g8",
            GridId::SixtyFour => "g64",
        }
    }

    /// The link key of the grid's selected card: "c8" or "c64".
    pub const fn card_key(self) -> &'static str {
        match self {
            GridId::Eight => "c8",
            GridId::SixtyFour => "c64",
        }
    }

    /// Number of cards.
    pub const fn gpus(self) -> u32 {
        match self {
            GridId::Eight => 8,
            GridId::SixtyFour => 64,
        }
    }

    /// The config that tokens are differences from: the neutral defaults with this N.
    pub fn base(self) -> PlanConfig {
        PlanConfig {
            gpus: self.gpus(),
            ..PlanConfig::default()
        }
    }

    /// Where the page starts this grid (SPEC §2): the lesson's first plan.
    pub fn start(self) -> PlanConfig {
        match self {
            GridId::Eight => PlanConfig::lesson_8_gpus(),
            GridId::SixtyFour => PlanConfig::lesson_64_gpus(),
        }
    }
}

/// The sections a link can open (the `id`s of the page's sections).
pub const SECTIONS: [&str; 7] = [
    "intro",
    "part-one",
    "part-two",
    "part-three",
    "part-four",
    "evolution",
    "counting-note",
];

/// The widgets embed mode can show alone.
pub const WIDGETS: [&str; 8] = [
    "grid-8",
    "grid-64",
    "table-8",
    "table-64",
    "llama3",
    "chart-memory-64",
    "chart-bubble-64",
    "chart-traffic-64",
];

/// The page's language in a link.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LinkLang {
    /// Chinese (the default, never written).
    #[default]
    Zh,
    /// English.
    En,
}

/// Everything a link carries.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkState {
    /// The 8-card grid's plan.
    pub g8: PlanConfig,
    /// The 64-card grid's plan.
    pub g64: PlanConfig,
    /// The 8-card grid's selected card.
    pub card8: Option<u32>,
    /// The 64-card grid's selected card.
    pub card64: Option<u32>,
    /// The open section, one of [`SECTIONS`].
    pub section: Option<&'static str>,
    /// The language.
    pub lang: LinkLang,
    /// The widget shown alone, one of [`WIDGETS`].
    pub embed: Option<&'static str>,
}

impl Default for LinkState {
    fn default() -> LinkState {
        LinkState {
            g8: GridId::Eight.start(),
            g64: GridId::SixtyFour.start(),
            card8: None,
            card64: None,
            section: None,
            lang: LinkLang::Zh,
            embed: None,
        }
    }
}

impl LinkState {
    /// The plan of one grid.
    pub fn plan(&self, grid: GridId) -> &PlanConfig {
        match grid {
            GridId::Eight => &self.g8,
            GridId::SixtyFour => &self.g64,
        }
    }

    /// The selected card of one grid.
    pub fn card(&self, grid: GridId) -> Option<u32> {
        match grid {
            GridId::Eight => self.card8,
            GridId::SixtyFour => self.card64,
        }
    }
}

/// A part of a link that was not applied, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ignored {
    /// The part as written (shortened, control characters removed): safe to show as text.
    pub part: String,
    /// Why it was ignored.
    pub reason: IgnoredReason,
}

/// Why a part of a link was ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IgnoredReason {
    /// The key is not one the lab writes.
    UnknownKey,
    /// The key appeared before; the first one counts.
    Repeated,
    /// The value does not parse (e.g. letters where a number goes).
    Malformed,
    /// The value is outside what the field takes (e.g. ZeRO 7, card 99 on 64 cards).
    OutOfRange,
    /// This grid's size is fixed (N, GPUs per node) or TP is capped at a node.
    Fixed,
    /// The value parses but the plan would not be valid with it: the core's reason.
    Invalid(String),
    /// The link is longer than [`MAX_LINK_LEN`] or a grid has too many tokens.
    TooLong,
}

impl fmt::Display for Ignored {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match &self.reason {
            IgnoredReason::UnknownKey => "unknown key".to_string(),
            IgnoredReason::Repeated => "repeated; the first one counts".to_string(),
            IgnoredReason::Malformed => "not a value the lab writes".to_string(),
            IgnoredReason::OutOfRange => "out of range".to_string(),
            IgnoredReason::Fixed => "fixed in this grid".to_string(),
            IgnoredReason::Invalid(reason) => reason.clone(),
            IgnoredReason::TooLong => "too long; the rest was not read".to_string(),
        };
        write!(f, "\"{}\": {why}", self.part)
    }
}

/// A short, printable excerpt of untrusted input.
fn excerpt(raw: &str) -> String {
    let clean: String = raw
        .chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    if clean.chars().count() > EXCERPT {
        let mut short: String = clean.chars().take(EXCERPT).collect();
        short.push('…');
        short
    } else {
        clean
    }
}

fn ignored(part: &str, reason: IgnoredReason) -> Ignored {
    Ignored {
        part: excerpt(part),
        reason,
    }
}

/// Decodes %XX escapes; invalid escapes stay as written, invalid UTF-8 becomes U+FFFD.
fn percent_decode(input: &str) -> String {
    let bytes = input.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(hi), Some(lo)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A single change a token makes to a config.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Change {
    Model(Preset),
    Gpus(u32),
    GpusPerNode(u32),
    Tp(u32),
    Pp(u32),
    Cp(u32),
    Ep(u32),
    MicroBatches(u32),
    MicroBatchSize(u32),
    SeqLen(u32),
    Zero(u8),
    Recompute(Recompute),
    Schedule(Schedule),
    VirtualStages(u32),
    Precision(Precision),
    Memory(f64),
    NvLink(f64),
    Ib(f64),
    Order(RankOrder),
}

impl Change {
    /// Position in the config table: tokens are applied in this order.
    fn rank(&self) -> u8 {
        match self {
            Change::Model(_) => 0,
            Change::Gpus(_) => 1,
            Change::GpusPerNode(_) => 2,
            Change::Tp(_) => 3,
            Change::Pp(_) => 4,
            Change::Cp(_) => 5,
            Change::Ep(_) => 6,
            Change::MicroBatches(_) => 7,
            Change::MicroBatchSize(_) => 8,
            Change::SeqLen(_) => 9,
            Change::Zero(_) => 10,
            Change::Recompute(_) => 11,
            Change::Schedule(_) => 12,
            Change::VirtualStages(_) => 13,
            Change::Precision(_) => 14,
            Change::Memory(_) => 15,
            Change::NvLink(_) => 16,
            Change::Ib(_) => 17,
            Change::Order(_) => 18,
        }
    }

    fn apply(self, c: &mut PlanConfig) {
        match self {
            Change::Model(p) => c.model = ModelChoice::Preset(p),
            Change::Gpus(v) => c.gpus = v,
            Change::GpusPerNode(v) => c.gpus_per_node = v,
            Change::Tp(v) => c.tp = v,
            Change::Pp(v) => c.pp = v,
            Change::Cp(v) => c.cp = v,
            Change::Ep(v) => c.ep = v,
            Change::MicroBatches(v) => c.micro_batches = v,
            Change::MicroBatchSize(v) => c.micro_batch_size = v,
            Change::SeqLen(v) => c.seq_len = v,
            Change::Zero(v) => c.zero = v,
            Change::Recompute(v) => c.recompute = v,
            Change::Schedule(v) => c.schedule = v,
            Change::VirtualStages(v) => c.virtual_stages = v,
            Change::Precision(v) => c.precision = v,
            Change::Memory(v) => c.gpu_memory_gb = v,
            Change::NvLink(v) => c.nvlink_gbps = v,
            Change::Ib(v) => c.ib_gbps = v,
            Change::Order(v) => c.order = v,
        }
    }
}

/// The words of enum values, and the preset aliases.
const WORDS: [(&str, Change); 12] = [
    ("full", Change::Recompute(Recompute::Full)),
    ("selective", Change::Recompute(Recompute::Selective)),
    ("none", Change::Recompute(Recompute::None)),
    ("gpipe", Change::Schedule(Schedule::Gpipe)),
    ("1f1b", Change::Schedule(Schedule::OneFOneB)),
    ("interleaved", Change::Schedule(Schedule::Interleaved)),
    ("bf16", Change::Precision(Precision::Bf16Grads)),
    ("fp32", Change::Precision(Precision::Fp32Grads)),
    ("tpcpppdp", Change::Order(RankOrder::TpCpPpDp)),
    ("tpcpdppp", Change::Order(RankOrder::TpCpDpPp)),
    ("llama", Change::Model(Preset::Llama3_405b)),
    ("deepseek", Change::Model(Preset::DeepseekV3)),
];

/// The anchor's alias (the default model, written only to return to it).
const ANCHOR_WORD: &str = "qwen";

/// Keys of numeric tokens.
const NUMBER_KEYS: [&str; 14] = [
    "n", "gpn", "tp", "pp", "cp", "ep", "m", "b", "s", "z", "v", "mem", "nvl", "ib",
];

/// Reads one token. Err(reason) when it is not a well-formed token.
fn parse_token(token: &str) -> Result<Change, IgnoredReason> {
    if token == ANCHOR_WORD {
        return Ok(Change::Model(Preset::Qwen38_27b));
    }
    if let Some((_, change)) = WORDS.iter().find(|(word, _)| *word == token) {
        return Ok(*change);
    }
    let split = token
        .find(|c: char| !c.is_ascii_lowercase())
        .unwrap_or(token.len());
    let (key, value) = token.split_at(split);
    if !NUMBER_KEYS.contains(&key) {
        return Err(IgnoredReason::UnknownKey);
    }
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit() || b == b'p') {
        return Err(IgnoredReason::Malformed);
    }
    let float = || -> Result<f64, IgnoredReason> {
        let text = value.replacen('p', ".", 1);
        if text.contains('p') || text.starts_with('.') || text.ends_with('.') || text.len() > 12 {
            return Err(IgnoredReason::Malformed);
        }
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() && v > 0.0 && v <= 1e6 => Ok(v),
            Ok(_) => Err(IgnoredReason::OutOfRange),
            Err(_) => Err(IgnoredReason::Malformed),
        }
    };
    let int = || -> Result<u32, IgnoredReason> {
        if value.contains('p') {
            return Err(IgnoredReason::Malformed);
        }
        value.parse::<u32>().map_err(|_| IgnoredReason::OutOfRange)
    };
    Ok(match key {
        "n" => Change::Gpus(int()?),
        "gpn" => Change::GpusPerNode(int()?),
        "tp" => Change::Tp(int()?),
        "pp" => Change::Pp(int()?),
        "cp" => Change::Cp(int()?),
        "ep" => Change::Ep(int()?),
        "m" => Change::MicroBatches(int()?),
        "b" => Change::MicroBatchSize(int()?),
        "s" => Change::SeqLen(int()?),
        "z" => Change::Zero(u8::try_from(int()?).map_err(|_| IgnoredReason::OutOfRange)?),
        "v" => Change::VirtualStages(int()?),
        "mem" => Change::Memory(float()?),
        "nvl" => Change::NvLink(float()?),
        _ => Change::Ib(float()?),
    })
}

/// A float as a token value: `80`, `94p5`.
fn float_value(v: f64) -> String {
    let text = format!("{v}");
    text.replace('.', "p")
}

/// Tokens of every field of `config` that differs from `base`, in table order.
fn tokens(config: &PlanConfig, base: &PlanConfig) -> Vec<String> {
    let mut out = Vec::new();
    if config.model != base.model {
        match &config.model {
            ModelChoice::Preset(Preset::Qwen38_27b) => out.push(ANCHOR_WORD.to_string()),
            ModelChoice::Preset(Preset::Llama3_405b) => out.push("llama".to_string()),
            ModelChoice::Preset(Preset::DeepseekV3) => out.push("deepseek".to_string()),
            // Inline models have no link form; they are never produced by the page.
            ModelChoice::Inline(_) => {}
        }
    }
    let mut num = |key: &str, value: u64, base_value: u64| {
        if value != base_value {
            out.push(format!("{key}{value}"));
        }
    };
    num("n", config.gpus.into(), base.gpus.into());
    num(
        "gpn",
        config.gpus_per_node.into(),
        base.gpus_per_node.into(),
    );
    num("tp", config.tp.into(), base.tp.into());
    num("pp", config.pp.into(), base.pp.into());
    num("cp", config.cp.into(), base.cp.into());
    num("ep", config.ep.into(), base.ep.into());
    num("m", config.micro_batches.into(), base.micro_batches.into());
    num(
        "b",
        config.micro_batch_size.into(),
        base.micro_batch_size.into(),
    );
    num("s", config.seq_len.into(), base.seq_len.into());
    num("z", config.zero.into(), base.zero.into());
    let mut word = |changed: bool, change: Change| {
        if let Some(w) = changed.then(|| word_of(change)).flatten() {
            out.push(w.to_string());
        }
    };
    word(
        config.recompute != base.recompute,
        Change::Recompute(config.recompute),
    );
    word(
        config.schedule != base.schedule,
        Change::Schedule(config.schedule),
    );
    if config.virtual_stages != base.virtual_stages {
        out.push(format!("v{}", config.virtual_stages));
    }
    if let Some(w) = (config.precision != base.precision)
        .then(|| word_of(Change::Precision(config.precision)))
        .flatten()
    {
        out.push(w.to_string());
    }
    for (key, value, base_value) in [
        ("mem", config.gpu_memory_gb, base.gpu_memory_gb),
        ("nvl", config.nvlink_gbps, base.nvlink_gbps),
        ("ib", config.ib_gbps, base.ib_gbps),
    ] {
        if value != base_value {
            out.push(format!("{key}{}", float_value(value)));
        }
    }
    if let Some(w) = (config.order != base.order)
        .then(|| word_of(Change::Order(config.order)))
        .flatten()
    {
        out.push(w.to_string());
    }
    out
}

/// The word that writes an enum value.
fn word_of(change: Change) -> Option<&'static str> {
    WORDS.iter().find(|(_, c)| *c == change).map(|(w, _)| *w)
}

/// The link value of a grid's plan: its differences from the grid's base, dot-joined.
///
/// ```
/// use parallel_core::link::{encode_plan, GridId};
/// use parallel_core::PlanConfig;
/// let plan = PlanConfig { gpus: 64, tp: 8, pp: 2, zero: 1, micro_batches: 32, ..PlanConfig::default() };
/// assert_eq!(encode_plan(&plan, GridId::SixtyFour), "tp8.pp2.m32.z1");
/// ```
pub fn encode_plan(config: &PlanConfig, grid: GridId) -> String {
    tokens(config, &grid.base()).join(".")
}

/// Whether a change keeps the grid's fixed shape (N, node size, TP within a node).
fn allowed_in(grid: GridId, change: &Change) -> bool {
    match *change {
        Change::Gpus(n) => n == grid.gpus(),
        Change::GpusPerNode(g) => g == 8,
        Change::Tp(t) => t <= 8,
        _ => true,
    }
}

/// Decodes a grid's plan leniently: tokens applied in table order, each kept only if the plan
/// stays valid.
///
/// ```
/// use parallel_core::link::{decode_plan, GridId};
/// let (plan, ignored) = decode_plan("tp3.pp2.zz9", GridId::Eight);
/// assert_eq!((plan.tp, plan.pp), (1, 2));
/// assert_eq!(ignored.len(), 2); // tp3 does not divide 8 cards; zz9 is unknown
/// ```
pub fn decode_plan(value: &str, grid: GridId) -> (PlanConfig, Vec<Ignored>) {
    let mut ignored_parts = Vec::new();
    let mut changes: Vec<(Change, &str)> = Vec::new();
    let mut seen_ranks: Vec<u8> = Vec::new();
    for (i, token) in value.split('.').enumerate() {
        if token.is_empty() {
            continue;
        }
        if i >= MAX_TOKENS {
            ignored_parts.push(ignored(token, IgnoredReason::TooLong));
            break;
        }
        match parse_token(token) {
            Ok(change) => {
                if seen_ranks.contains(&change.rank()) {
                    ignored_parts.push(ignored(token, IgnoredReason::Repeated));
                } else if !allowed_in(grid, &change) {
                    seen_ranks.push(change.rank());
                    ignored_parts.push(ignored(token, IgnoredReason::Fixed));
                } else {
                    seen_ranks.push(change.rank());
                    changes.push((change, token));
                }
            }
            Err(reason) => ignored_parts.push(ignored(token, reason)),
        }
    }
    changes.sort_by_key(|(change, _)| change.rank());
    let mut config = grid.base();
    for (change, token) in changes {
        let mut next = config.clone();
        change.apply(&mut next);
        match Plan::new(&next) {
            Ok(_) => config = next,
            Err(error) => {
                ignored_parts.push(ignored(token, IgnoredReason::Invalid(error.to_string())))
            }
        }
    }
    // Tokens were applied to a valid base one at a time, so the result is valid; a base that
    // were not valid would fall back to the grid's start.
    if Plan::new(&config).is_err() {
        config = grid.start();
    }
    (config, ignored_parts)
}

/// Writes a whole state as a fragment (without the leading `#`): only what differs from
/// [`LinkState::default`].
///
/// ```
/// use parallel_core::link::{encode, LinkLang, LinkState};
/// use parallel_core::PlanConfig;
/// let state = LinkState {
///     g64: PlanConfig { gpus: 64, tp: 8, pp: 2, zero: 1, ..PlanConfig::default() },
///     card64: Some(0),
///     lang: LinkLang::En,
///     ..LinkState::default()
/// };
/// assert_eq!(encode(&state), "g64=tp8.pp2.z1&c64=0&lang=en");
/// ```
pub fn encode(state: &LinkState) -> String {
    let mut parts: Vec<String> = Vec::new();
    for grid in GridId::ALL {
        let plan = state.plan(grid);
        if *plan != grid.start() {
            parts.push(format!("{}={}", grid.key(), encode_plan(plan, grid)));
        }
        if let Some(card) = state.card(grid) {
            parts.push(format!("{}={card}", grid.card_key()));
        }
    }
    if let Some(section) = state.section {
        parts.push(format!("sec={section}"));
    }
    if state.lang == LinkLang::En {
        parts.push("lang=en".to_string());
    }
    if let Some(widget) = state.embed {
        parts.push(format!("embed={widget}"));
    }
    parts.join("&")
}

/// Reads a link (a whole URL, a fragment with or without `#`, or a query string) into a
/// state. Never fails: the notices say what was ignored and why.
///
/// ```
/// use parallel_core::link::{decode, LinkLang};
/// let (state, ignored) = decode("https://example.org/lab/#g64=tp8.pp2.z1&c64=0&lang=en&x=<b>");
/// assert_eq!((state.g64.tp, state.g64.pp, state.g64.zero, state.card64), (8, 2, 1, Some(0)));
/// assert_eq!(state.lang, LinkLang::En);
/// assert_eq!(ignored.len(), 1);
/// assert_eq!(ignored[0].to_string(), "\"x=<b>\": unknown key");
/// ```
pub fn decode(link: &str) -> (LinkState, Vec<Ignored>) {
    let mut state = LinkState::default();
    let mut notices = Vec::new();
    let fragment = match link.find('#') {
        Some(i) => &link[i + 1..],
        None => match link.find('?') {
            Some(i) => &link[i + 1..],
            None => link,
        },
    };
    let fragment = if fragment.len() > MAX_LINK_LEN {
        let mut cut = MAX_LINK_LEN;
        while !fragment.is_char_boundary(cut) {
            cut -= 1;
        }
        notices.push(ignored(&fragment[cut..], IgnoredReason::TooLong));
        &fragment[..cut]
    } else {
        fragment
    };
    let mut seen: Vec<String> = Vec::new();
    for part in fragment.split(['&', ';']) {
        if part.is_empty() {
            continue;
        }
        let decoded = percent_decode(part);
        let (key, value) = match decoded.split_once('=') {
            Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
            None => (decoded.trim().to_string(), String::new()),
        };
        if seen.contains(&key) {
            notices.push(ignored(&decoded, IgnoredReason::Repeated));
            continue;
        }
        seen.push(key.clone());
        match key.as_str() {
            "g8" | "g64" => {
                let grid = if key == "g8" {
                    GridId::Eight
                } else {
                    GridId::SixtyFour
                };
                let (plan, mut ignored_tokens) = decode_plan(&value, grid);
                match grid {
                    GridId::Eight => state.g8 = plan,
                    GridId::SixtyFour => state.g64 = plan,
                }
                for notice in &mut ignored_tokens {
                    notice.part = excerpt(&format!("{key}: {}", notice.part));
                }
                notices.extend(ignored_tokens);
            }
            "c8" | "c64" => {
                let grid = if key == "c8" {
                    GridId::Eight
                } else {
                    GridId::SixtyFour
                };
                match value.parse::<u32>() {
                    Ok(card) if card < grid.gpus() => match grid {
                        GridId::Eight => state.card8 = Some(card),
                        GridId::SixtyFour => state.card64 = Some(card),
                    },
                    Ok(_) => notices.push(ignored(&decoded, IgnoredReason::OutOfRange)),
                    Err(_) => notices.push(ignored(&decoded, IgnoredReason::Malformed)),
                }
            }
            "sec" => match SECTIONS.iter().find(|s| **s == value) {
                Some(section) => state.section = Some(section),
                None => notices.push(ignored(&decoded, IgnoredReason::Malformed)),
            },
            "lang" => match value.as_str() {
                "en" => state.lang = LinkLang::En,
                "zh" => state.lang = LinkLang::Zh,
                _ => notices.push(ignored(&decoded, IgnoredReason::Malformed)),
            },
            "embed" => match WIDGETS.iter().find(|w| **w == value) {
                Some(widget) => state.embed = Some(widget),
                None => notices.push(ignored(&decoded, IgnoredReason::Malformed)),
            },
            _ => notices.push(ignored(&decoded, IgnoredReason::UnknownKey)),
        }
    }
    (state, notices)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_link_is_the_lesson_start() {
        let (state, notices) = decode("");
        assert_eq!(state, LinkState::default());
        assert!(notices.is_empty());
        assert_eq!(encode(&state), "");
    }

    #[test]
    fn words_and_floats_round_trip() {
        let plan = PlanConfig {
            gpus: 64,
            tp: 4,
            pp: 4,
            micro_batches: 16,
            schedule: Schedule::Interleaved,
            virtual_stages: 2,
            recompute: Recompute::Selective,
            precision: Precision::Fp32Grads,
            gpu_memory_gb: 94.5,
            order: RankOrder::TpCpDpPp,
            model: ModelChoice::Preset(Preset::Llama3_405b),
            ..PlanConfig::default()
        };
        // Llama's 126 layers do not split into 4·2 chunks: the link keeps what combines.
        let (partial, notices) =
            decode_plan(&encode_plan(&plan, GridId::SixtyFour), GridId::SixtyFour);
        assert_eq!(notices.len(), 2, "{notices:?}");
        assert_eq!(
            (partial.schedule, partial.virtual_stages),
            (Schedule::OneFOneB, 1)
        );
        let plan = PlanConfig {
            model: ModelChoice::Preset(Preset::Qwen38_27b),
            ..plan
        };
        let value = encode_plan(&plan, GridId::SixtyFour);
        assert_eq!(
            value,
            "tp4.pp4.m16.selective.interleaved.v2.fp32.mem94p5.tpcpdppp"
        );
        let (back, notices) = decode_plan(&value, GridId::SixtyFour);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(back, plan);
    }

    #[test]
    fn fixed_shape_and_tp_cap() {
        let (plan, notices) = decode_plan("n16.gpn4.tp16.pp2", GridId::SixtyFour);
        assert_eq!(
            (plan.gpus, plan.gpus_per_node, plan.tp, plan.pp),
            (64, 8, 1, 2)
        );
        assert!(notices.iter().all(|n| n.reason == IgnoredReason::Fixed));
        assert_eq!(notices.len(), 3);
    }

    #[test]
    fn hostile_input_is_named_and_harmless() {
        let long = "a".repeat(100_000);
        for link in [
            "#g8=tp99999999999999999999",
            "#g8=tp-1.pp%ZZ.zNaN",
            "#g8=%FF%FE%00",
            "#<script>alert(1)</script>",
            "#g64=tp8&g64=tp1",
            "#c64=64&c8=-1&lang=fr&sec=../../etc&embed=javascript:alert(1)",
            long.as_str(),
        ] {
            let (state, notices) = decode(link);
            assert!(!notices.is_empty(), "{link:.40}");
            assert!(Plan::new(&state.g8).is_ok() && Plan::new(&state.g64).is_ok());
            for n in &notices {
                assert!(n.part.chars().count() <= EXCERPT + 1, "{n}");
                assert!(!n.part.chars().any(char::is_control));
            }
        }
    }
}
