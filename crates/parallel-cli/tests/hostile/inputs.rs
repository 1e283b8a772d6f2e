//! The hostile inputs of `hostile.rs`, drawn from a seeded [`Rng`]: configs with hostile card
//! figures and counts, the shipped measured files with hostile fields, page links with hostile
//! tokens, launch lines with hostile flag values; each a [`Case`] (arguments, stdin, what a
//! success prints, and the field its error must name when that is certain). Lists of values are
//! written as words, one string each.

use std::collections::BTreeSet;

use parallel_core::flags::names as n;
use parallel_core::SplitMix;
use serde_json::{Map, Value};

use crate::common::json_of;

/// What a long hostile value is made of: a run of it in stderr is the value echoed.
pub const FILL: char = 'Ж';

/// The core's seeded [`SplitMix`], drawing what a hostile input is made of.
pub struct Rng(SplitMix);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix::new(seed))
    }

    /// 0 ≤ n < `bound`.
    pub fn below(&mut self, bound: usize) -> usize {
        (self.0.next_u64() % bound as u64) as usize
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// One of the whitespace-separated words of `list`.
    pub fn word(&mut self, list: &'static str) -> &'static str {
        let words: Vec<&'static str> = list.split_whitespace().collect();
        words[self.below(words.len())]
    }
}

/// `FILL` `n` times.
fn fill(n: usize) -> String {
    FILL.to_string().repeat(n)
}

/// What a successful run prints.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// `eval`: one report.
    Report,
    /// `search`: plans, each with its report.
    Search,
    /// `check --measured --format json`: the comparison.
    Comparison,
    /// Other JSON (groups, a workload, flags).
    Json,
    /// Text (Markdown, a launch command).
    Text,
}

/// One run: the arguments, stdin, what success prints, and the field an error must name when
/// only that field was changed, to text (issue 50: `{"tp": "8"}` names `tp`).
pub struct Case {
    pub args: Vec<String>,
    pub stdin: String,
    pub shape: Shape,
    pub must_name: Option<String>,
}

fn case(args: &[&str], stdin: String, shape: Shape, must_name: Option<String>) -> Case {
    Case {
        args: args.iter().map(|a| a.to_string()).collect(),
        stdin,
        shape,
        must_name,
    }
}

/// The plan every omitted field falls back to, as `parallel-lab defaults` writes it.
fn defaults() -> Map<String, Value> {
    let defaults = json_of(&["defaults"], "");
    defaults["config"].as_object().unwrap().clone()
}

/// The config's fields, and `global_batch` (the search's only, absent from the defaults).
pub fn config_keys() -> BTreeSet<String> {
    let mut keys: BTreeSet<String> = defaults().keys().cloned().collect();
    keys.insert("global_batch".to_string());
    keys
}

/// The real-valued fields (a card's figures) with their defaults: the fields whose default is
/// not a whole number.
pub fn real_keys() -> Vec<(String, f64)> {
    let config = defaults();
    let real = config.iter().filter(|(_, v)| v.is_f64());
    real.map(|(k, v)| (k.clone(), v.as_f64().unwrap()))
        .collect()
}

/// Numbers as JSON text: zero, signs, the ends of f64, u32 and u64, a few real values.
const NUMBERS: &str = "0 -0 -1 -1e300 1e300 1e308 -1e308 5e-324 1e-300 1e-9 0.5 1 2 3 7 64 80 \
    400 989 0.75 1.5 1e15 65536 1048576 4294967295 4294967296 18446744073709551616 1e999";

/// Text where a field takes a number or a known word (as JSON strings).
const TEXTS: &str = r#""NaN" "inf" "-Infinity" "8" "" "1e300" "\u0000\n\t""#;

/// A hostile value as JSON text, and whether it is text; `default`, a card figure's, scaled
/// to the edges of its bounds and past them.
fn hostile_value(rng: &mut Rng, default: Option<f64>) -> (String, bool) {
    if let Some(default) = default.filter(|_| rng.chance(40)) {
        let scale: f64 = rng
            .word("0.05 0.1 0.11 0.5 0.99 1.01 2 9.9 10 20")
            .parse()
            .unwrap();
        return (format!("{}", default * scale), false);
    }
    match rng.below(20) {
        0..=10 => (rng.word(NUMBERS).to_string(), false),
        11..=14 => (rng.word(TEXTS).to_string(), true),
        15..=16 => (format!("\"{}\"", fill(20_000)), true),
        _ => (rng.word("null true [] {} [1e300]").to_string(), false),
    }
}

/// Plans the hostile fields are set in.
const BASES: &[&str] = &[
    "{}",
    r#"{"hardware":"h100-sxm"}"#,
    r#"{"hardware":"mi300x","gpus":64,"tp":8,"pp":2,"zero":1}"#,
    r#"{"hardware":"b200","gpus":64,"tp":8,"pp":4,"schedule":"interleaved","virtual_stages":2}"#,
    r#"{"gpus":32,"rollout":{"gpus_per_engine":2},"log_probs_chunk":1024}"#,
    r#"{"zero":1,"optimizer_offload":"cpu","pcie_gbps":25}"#,
    r#"{"model":"mixtral-8x7b","gpus":16,"ep":8,"hardware":"h200"}"#,
    r#"{"model":"llama3-8b","gpus":8,"tp":2,"accounting":"stages"}"#,
];

/// The commands that read a config, and what each prints.
const CONFIG_COMMANDS: [(&[&str], Shape); 10] = [
    (&["eval"], Shape::Report),
    (&["eval", "--explain"], Shape::Report),
    (&["eval", "--card", "3"], Shape::Report),
    (&["groups", "--card", "1"], Shape::Json),
    (&["check", "--emit", "--card", "1"], Shape::Json),
    (&["flags", "--format", "json"], Shape::Json),
    (
        &["flags", "--engine", "deepspeed", "--format", "json"],
        Shape::Json,
    ),
    (&["flags", "--engine", "slime"], Shape::Text),
    (&["search", "--top", "2"], Shape::Search),
    (&["table", "--stdin"], Shape::Text),
];

/// A config with one to three fields set to hostile values (mostly a card's figures), run by
/// one of the commands that read a config.
pub fn config_case(rng: &mut Rng, keys: &[String], real: &[(String, f64)]) -> Case {
    let (command, shape) = *rng.pick(&CONFIG_COMMANDS);
    // The search enumerates the cluster's plans: only the card's figures change there.
    let search = command[0] == "search";
    let base = if search {
        r#"{"gpus":16,"global_batch":32}"#
    } else {
        rng.pick(BASES)
    };
    let mut config: Map<String, Value> = serde_json::from_str(base).unwrap();
    let mut changed: Vec<(String, String, bool)> = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let (key, default) = if search || rng.chance(70) {
            let (key, default) = rng.pick(real);
            (key, Some(*default))
        } else {
            (rng.pick(keys), None)
        };
        let (value, text) = hostile_value(rng, default);
        config.remove(key);
        changed.retain(|(k, _, _)| k != key);
        changed.push((key.clone(), value, text));
    }
    // Written by hand: serde_json has no NaN, 1e999 or u64 overflow to write.
    let mut text = Value::Object(config).to_string();
    text.pop();
    for (key, value, _) in &changed {
        if text.len() > 1 {
            text.push(',');
        }
        text.push_str(&format!("\"{key}\":{value}"));
    }
    text.push('}');
    let table = command[0] == "table";
    let must_name = match changed.as_slice() {
        [(key, _, true)] if table => Some(format!("[0].config.{key}")),
        [(key, _, true)] => Some(key.clone()),
        _ => None,
    };
    let stdin = if table {
        format!(r#"[{{"label":"hostile","config":{text}}}]"#)
    } else {
        text
    };
    case(command, stdin, shape, must_name)
}

/// Whether text shows only readable, finite numbers: no NaN, no infinity, no number of 30
/// digits or more (10^308 bytes written out), thousands separators included.
pub fn no_unreadable_number(text: &str) -> bool {
    let lower = text.to_lowercase();
    let boundary = |c: Option<char>| !c.is_some_and(char::is_alphabetic);
    let word = |w: &str| {
        lower.match_indices(w).any(|(i, _)| {
            boundary(lower[..i].chars().next_back())
                && boundary(lower[i + w.len()..].chars().next())
        })
    };
    // A number: digits, and the ",ddd" groups after them.
    let longest = text
        .split(|c: char| !c.is_ascii_digit() && c != ',')
        .flat_map(|run| {
            let mut numbers = vec![0usize];
            for (i, group) in run.split(',').enumerate() {
                let last = numbers.len() - 1;
                if i > 0 && group.len() == 3 && numbers[last] > 0 {
                    numbers[last] += 3;
                } else {
                    numbers.push(group.len());
                }
            }
            numbers
        })
        .max()
        .unwrap_or(0);
    !word("nan") && !word("inf") && !word("infinity") && longest < 30
}

/// The shipped measured files.
pub fn measured_fixtures() -> Vec<Value> {
    crate::common::measured_fixture_files()
        .iter()
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect()
}

/// The fields of a measured file the cases change.
const MEASURED_PATHS: &str = "eager.layer_fwd_bwd_s eager.activation_per_layer_bytes \
    eager.activation_in_flight_bytes eager.states_bytes eager.peak_bytes eager.reserved_bytes \
    compiled.layer_fwd_bwd_s compiled.peak_bytes compiled.reserved_bytes card.memory_bytes \
    card.name format version built.layers built.held built.moe workload.card workload.config.tp \
    workload.config.gpus workload.config.gpu_tflops workload.config.gpu_memory_gb \
    workload.per_layer.fwd_bwd_s workload.layers.total software.torch date method \
    compiled_error eager";

/// The text fields of a measured file, printed back as given: "NaN" goes only where a number
/// does.
const MEASURED_TEXT: &str = "card.name format software.torch date method compiled_error";

/// A measured value: a hostile number or text, the field's own value scaled, or `None` (the
/// field removed).
fn measured_value(rng: &mut Rng, path: &str, own: &Value) -> Option<Value> {
    let number = |rng: &mut Rng, list| rng.word(list).parse::<f64>().unwrap();
    Some(match rng.below(10) {
        0..=3 => Value::from(number(
            rng,
            "0 -1 1 0.5 5e-324 1e-300 1e-7 1e15 4294967296 1e300 1e308",
        )),
        4..=5 => Value::from(own.as_f64()? * number(rng, "1e-6 0.1 0.5 2 10 1e6")),
        6 if !MEASURED_TEXT.split_whitespace().any(|t| t == path) => {
            Value::from(*rng.pick(&["NaN", "8", ""]))
        }
        6 => Value::from(*rng.pick(&["8", "", "NVIDIA H200", "NVIDIA B200"])),
        7 => Value::from(fill(20_000)),
        8 => serde_json::from_str(rng.word("null true [] {}")).unwrap(),
        _ => return None,
    })
}

/// A shipped measured file with one or two fields changed, run by `check --measured -` in
/// Markdown or JSON, English or Chinese; and the paths changed.
pub fn measured_case(rng: &mut Rng, files: &[Value]) -> (Case, Vec<String>) {
    let mut file = rng.pick(files).clone();
    let mut changed = Vec::new();
    for _ in 0..1 + rng.below(2) {
        let path = rng.word(MEASURED_PATHS);
        // The field's object, unless an earlier change made it something else.
        let (parent, last) = path.rsplit_once('.').unwrap_or(("", path));
        let at = if parent.is_empty() {
            Some(&mut file)
        } else {
            file.pointer_mut(&format!("/{}", parent.replace('.', "/")))
        };
        let Some(object) = at.and_then(Value::as_object_mut) else {
            continue;
        };
        let own = object.get(last).cloned().unwrap_or_default();
        match measured_value(rng, path, &own) {
            Some(value) => object.insert(last.to_string(), value),
            None => object.remove(last),
        };
        changed.push(path.to_string());
    }
    let json = rng.chance(50);
    let mut args = vec!["check", "--measured", "-"];
    if json {
        args.extend(["--format", "json"]);
    }
    if rng.chance(30) {
        args.extend(["--lang", "zh"]);
    }
    let shape = if json { Shape::Comparison } else { Shape::Text };
    (case(&args, file.to_string(), shape, None), changed)
}

/// Whether a measured file's refusal (`--measured: measured file, `FIELD`: …`) names a field
/// the case changed, one inside it or around it; or, for a change to the workload, the card or
/// the layers built (what the figures are held to), a figure, the workload or the layers built.
pub fn names_a_changed_path(line: &str, changed: &[String]) -> bool {
    let Some(field) = line
        .strip_prefix("--measured: measured file, `")
        .and_then(|rest| rest.split_once("`: "))
        .map(|(field, _)| field)
    else {
        return false;
    };
    let root = |p: &str| p.split('.').next().unwrap_or_default().to_string();
    changed.iter().any(|c| {
        c.starts_with(field)
            || field.starts_with(c.as_str())
            || (["workload", "built", "card"].contains(&root(c).as_str())
                && ["eager", "compiled", "workload", "built"].contains(&root(field).as_str()))
    })
}

/// A link's plan tokens as the page writes them; the keys that take a value; hostile values.
const TOKENS: &str = "tp2 tp8 pp2 pp4 z1 z3 cp2 m16 s8192 b2 full selective h100 b200 mi300x \
    cpuadam stages llama8b mixtral ep8 v2 interleaved mem141 tf500 eff0p8 anv2 aib10 ib100 pcie25 \
    host1024";
const TOKEN_KEYS: &str = "n gpn tp pp cp ep m b s z v mem nvl tf hbm pk eff anv aib pcie host ib";
const TOKEN_VALUES: &str = "0 1 3 1e300 -1 999999 4294967296 99999999999999999999 0p0000001 1p5 \
    999999p9 NaN inf 0p p5 %FF %00 1000000 10000 0p01";

/// A page link with hostile tokens and parts, run by a command that takes `--url`.
pub fn link_case(rng: &mut Rng) -> Case {
    let grid = rng.word("8 64");
    let tokens: Vec<String> = (0..1 + rng.below(4))
        .map(|_| match rng.below(10) {
            0..=3 => rng.word(TOKENS).to_string(),
            4 => fill(1_000),
            5 => rng.word(TOKEN_KEYS).to_string(),
            _ => format!("{}{}", rng.word(TOKEN_KEYS), rng.word(TOKEN_VALUES)),
        })
        .collect();
    let mut link = format!("#g{grid}={}", tokens.join("."));
    if rng.chance(30) {
        let card = match rng.below(5) {
            0 => fill(40),
            _ => rng.word("0 63 64 -1 1e300").to_string(),
        };
        link.push_str(&format!("&c{grid}={card}"));
    }
    if rng.chance(10) {
        link.push_str(rng.word("&lang=xx &embed=grid-64 &x=1 &lang=zh"));
    }
    if rng.chance(5) {
        link.push_str(&format!("&{}", fill(500)));
    }
    if rng.chance(20) {
        link = format!("https://example.org/lab/{link}");
    }
    let card = rng.below(70).to_string();
    let (args, shape): (Vec<&str>, Shape) = match rng.below(4) {
        0 => (vec!["eval", "--url", &link], Shape::Report),
        1 => (vec!["eval", "--url", &link, "--grid", grid], Shape::Report),
        2 => (vec!["groups", "--url", &link, "--card", &card], Shape::Json),
        _ => (vec!["check", "--emit", "--url", &link], Shape::Json),
    };
    case(&args, String::new(), shape, None)
}

/// Flags of a launch line that take a value (the core's names).
const LAUNCH_FLAGS: [&str; 29] = [
    n::TP,
    n::PP,
    n::CP,
    n::EP,
    n::MICRO_BATCH,
    n::GLOBAL_BATCH,
    n::SEQ_LENGTH,
    n::NUM_LAYERS,
    n::HIDDEN,
    n::FFN,
    n::HEADS,
    n::QUERY_GROUPS,
    n::VOCAB,
    n::NUM_EXPERTS,
    n::TOPK,
    n::MOE_FFN,
    n::MOE_LAYER_FREQ,
    n::RECOMPUTE_GRANULARITY,
    n::RECOMPUTE_METHOD,
    n::RECOMPUTE_NUM_LAYERS,
    n::LAYERS_PER_VIRTUAL_STAGE,
    n::ROLLOUT_GPUS,
    n::GPUS_PER_ENGINE,
    n::SAMPLES_PER_PROMPT,
    n::MAX_RESPONSE,
    n::LOG_PROBS_CHUNK,
    n::NNODES,
    n::NPROC_PER_NODE,
    n::ACTOR_NODES,
];
const LAUNCH_VALUES: &str = "1 2 4 8 16 32 64 128 2048 4096 8192 full selective uniform 0 -1 \
    1e300 5e-324 4294967296 NaN '' two $UNSET ${X:-1e300} 'unclosed ([1]*3+[0]*29) ([";

/// Llama 3 8B's shape as launch flags.
const MODEL: &str = "--num-layers 32 --hidden-size 4096 --ffn-hidden-size 14336 \
    --num-attention-heads 32 --group-query-attention --num-query-groups 8 --vocab-size 128256 \
    --swiglu --untie-embeddings-and-output-weights --bf16";

/// A Megatron-LM or slime launch line with hostile flag values, read by `--megatron`.
pub fn launch_case(rng: &mut Rng) -> Case {
    const COUNTS: &str = "1 2 8 0 1e300 4294967296";
    let mut line = match rng.below(4) {
        0 => format!(
            "torchrun --nnodes {} --nproc-per-node {} pretrain_gpt.py",
            rng.word(COUNTS),
            rng.word(COUNTS)
        ),
        1 => format!(
            "python3 train.py --actor-num-nodes {} --actor-num-gpus-per-node 8",
            rng.word(COUNTS)
        ),
        2 => format!("WORLD_SIZE={} python pretrain_gpt.py", rng.word(COUNTS)),
        _ => String::new(),
    };
    if rng.chance(85) {
        line.push(' ');
        line.push_str(MODEL);
    }
    for _ in 0..1 + rng.below(4) {
        let value = if rng.chance(8) {
            fill(2_000)
        } else {
            rng.word(LAUNCH_VALUES).to_string()
        };
        line.push_str(&format!(" {} {value}", rng.pick(&LAUNCH_FLAGS)));
    }
    let gpus = rng.word(COUNTS);
    let (args, shape): (Vec<&str>, Shape) = match rng.below(3) {
        0 => (vec!["eval", "--megatron", &line], Shape::Report),
        1 => (
            vec!["eval", "--megatron", &line, "--gpus", gpus],
            Shape::Report,
        ),
        _ => (
            vec!["groups", "--megatron", &line, "--card", "0"],
            Shape::Json,
        ),
    };
    case(&args, String::new(), shape, None)
}
