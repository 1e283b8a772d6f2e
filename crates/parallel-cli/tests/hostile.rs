//! Hostile input fuzzed through the built binary (issue 50): card specs (every real field of a
//! config and the counts beside it, given 0, negatives, NaN as text, 1e300, 5e-324, 20,000
//! characters …), measured files (the shipped ones with their fields mutated), page links and
//! Megatron-LM / slime launch lines. Every run must:
//! - not panic, and exit 0 or 2, nothing else;
//! - print no number that is not finite: a report's figures are JSON numbers (never the `null`
//!   serde_json writes for NaN), the bubble's share and the MFU within [0, 1], and no "NaN",
//!   "inf" or 30-digit number in any output;
//! - keep stderr under 1 KB, quoting at most 80 characters of any value;
//! - when it exits 2, print one line naming a field of its input (or the flag it came by): the
//!   field itself when it was the only one changed and was given text.
//!
//! Seeded: each kind prints its seed, and `PARALLEL_LAB_SEED=N cargo test -p parallel-cli
//! --test hostile -- --nocapture` replays it. Bounded: [`RUNS`] runs of each kind (about 10 s
//! in all on 2 cores, a debug build), each kind stopping after [`BUDGET`] anyway, so that the
//! four never take a minute on 2 cores, however slow the machine.
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;
#[path = "hostile/inputs.rs"]
mod inputs;
#[path = "../../parallel-core/tests/common/seed.rs"]
mod seed;

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::time::{Duration, Instant};

use serde_json::Value;

use common::run_bytes;
use inputs::{Case, Rng, Shape, FILL};
use seed::seed;

/// Runs of each kind.
const RUNS: usize = 1500;
/// The most wall time one kind may take, whatever the machine.
const BUDGET: Duration = Duration::from_secs(25);

/// One fuzzed kind of input: its seed, its runs so far, the fields its errors may name.
struct Fuzz {
    kind: &'static str,
    seed: u64,
    started: Instant,
    runs: usize,
    /// Runs that exited 0, answered with a result held finite.
    answered: usize,
    fields: BTreeSet<String>,
}

impl Fuzz {
    /// A kind whose errors may name a config field or one of `names`, and its random source.
    fn new(kind: &'static str, names: &[&str]) -> (Fuzz, Rng) {
        let seed = seed("PARALLEL_LAB_SEED", &format!("hostile {kind}"));
        // Each kind draws its own sequence from the one seed printed.
        let salt = kind
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
        let mut fields = inputs::config_keys();
        fields.extend(names.iter().map(|f| f.to_string()));
        let fuzz = Fuzz {
            kind,
            seed,
            started: Instant::now(),
            runs: 0,
            answered: 0,
            fields,
        };
        (fuzz, Rng::new(seed ^ salt))
    }

    /// Whether another run fits the kind's runs and time.
    fn more(&self) -> bool {
        self.runs < RUNS && self.started.elapsed() < BUDGET
    }

    /// Runs a case and holds it to the module's rules. An error's field must be the case's
    /// `must_name` when it has one; else one `named` accepts, given the field, the whole line
    /// and whether the field is a config field or one of the kind's names.
    fn run(&mut self, case: &Case, named: impl Fn(&str, &str, bool) -> bool) {
        self.runs += 1;
        let args: Vec<OsString> = case.args.iter().map(OsString::from).collect();
        let out = run_bytes(&args, case.stdin.as_bytes());
        let short: Vec<String> = case
            .args
            .iter()
            .map(|a| a.chars().take(200).collect())
            .collect();
        let input: String = case.stdin.chars().take(600).collect();
        let what = format!(
            "{} run {} (PARALLEL_LAB_SEED={}): {short:?} <<< {input}",
            self.kind, self.runs, self.seed
        );
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        assert!(
            out.stderr.len() < 1024,
            "{what}: {} bytes of stderr",
            out.stderr.len()
        );
        assert!(
            !stderr.contains(&FILL.to_string().repeat(81)),
            "{what}: {stderr}"
        );
        match out.status.code() {
            Some(0) => {
                self.answered += 1;
                assert!(stderr.is_empty(), "{what}: {stderr}");
                let text = String::from_utf8(out.stdout).unwrap();
                finite_output(&text, case.shape, &what);
            }
            Some(2) => {
                assert!(out.stdout.is_empty(), "{what}");
                assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
                let line = stderr
                    .strip_prefix("parallel-lab: error: ")
                    .unwrap_or_else(|| panic!("{what}: {stderr}"));
                let field = line.split(": ").next().unwrap_or_default();
                let ok = match &case.must_name {
                    Some(key) => field == key,
                    None => named(field, line, self.known(field)),
                };
                assert!(ok, "{what}: does not name the field at fault: {stderr}");
            }
            code => panic!("{what}: exit {code:?}: {stderr}"),
        }
    }

    /// Whether `field` is a config field (`tp`, `model.hidden`, `[0].config.gpus`,
    /// `rollout.prompts`) or one of the kind's names.
    fn known(&self, field: &str) -> bool {
        let inner = field
            .strip_prefix("[0].config.")
            .or_else(|| field.strip_prefix("[0]."))
            .unwrap_or(field);
        let root = inner.split(['.', '[']).next().unwrap_or_default();
        self.fields.contains(inner) || self.fields.contains(root)
    }

    fn report(&self) {
        let seconds = self.started.elapsed().as_secs_f64();
        println!(
            "hostile {}: {} runs ({} answered, the rest refused) in {seconds:.1} s \
             (PARALLEL_LAB_SEED={})",
            self.kind, self.runs, self.answered, self.seed
        );
    }
}

/// A successful run's stdout: every figure finite, shares within [0, 1].
fn finite_output(text: &str, shape: Shape, what: &str) {
    if shape == Shape::Text {
        assert!(inputs::no_unreadable_number(text), "{what}: {text}");
        return;
    }
    let json: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}: {text}"));
    match shape {
        Shape::Report => finite_report(&json, what),
        Shape::Search => {
            for plan in json["plans"].as_array().unwrap() {
                finite_report(&plan["report"], what);
            }
        }
        Shape::Comparison => {
            for row in json["rows"].as_array().unwrap() {
                for (measured, ratio) in [("eager", "ratio_eager"), ("compiled", "ratio_compiled")]
                {
                    let both = row["predicted"].is_number() && row[measured].is_number();
                    assert_eq!(row[ratio].is_number(), both, "{what}: {row}");
                }
            }
        }
        Shape::Json | Shape::Text => {}
    }
}

/// A report's figures: numbers, never `null`; the bubble's share and the MFU within [0, 1].
fn finite_report(report: &Value, what: &str) {
    let number = |v: &Value, name: &str| {
        v.as_f64()
            .unwrap_or_else(|| panic!("{what}: {name} is {v}, not a number: {report}"))
    };
    for key in ["model_states", "activations", "total", "capacity"] {
        number(&report["memory"][key], key);
    }
    for dim in report["comm"].as_array().unwrap() {
        number(&dim["bytes"], "comm bytes");
        number(&dim["seconds"], "comm seconds");
    }
    for (key, value) in report["estimate"].as_object().unwrap() {
        if !value.is_object() && !value.is_array() {
            number(value, key);
        }
    }
    number(&report["bubble"]["ratio"], "bubble ratio");
    for (name, share) in [
        ("bubble share", &report["bubble"]["share"]),
        ("mfu", &report["estimate"]["mfu"]),
    ] {
        let share = number(share, name);
        assert!(
            (0.0..=1.0).contains(&share),
            "{what}: {name} {share}: {report}"
        );
    }
}

#[test]
fn hostile_card_specs_get_a_finite_answer_or_a_named_error() {
    let (mut fuzz, mut rng) = Fuzz::new("card specs", &["input", "output", "card"]);
    let keys: Vec<String> = fuzz.fields.iter().cloned().collect();
    let real = inputs::real_keys();
    assert!(real.len() >= 11, "{real:?}");
    while fuzz.more() {
        let case = inputs::config_case(&mut rng, &keys, &real);
        fuzz.run(&case, |_, _, known| known);
    }
    fuzz.report();
}

#[test]
fn hostile_measured_files_get_a_finite_comparison_or_a_named_error() {
    let (mut fuzz, mut rng) = Fuzz::new("measured files", &[]);
    let files = inputs::measured_fixtures();
    while fuzz.more() {
        let (case, changed) = inputs::measured_case(&mut rng, &files);
        fuzz.run(&case, |field, line, _| {
            field == "--measured" && inputs::names_a_changed_path(line, &changed)
        });
    }
    fuzz.report();
}

#[test]
fn hostile_links_get_a_finite_answer_or_a_named_error() {
    let (mut fuzz, mut rng) = Fuzz::new("links", &["--url", "--grid", "--card", "card", "output"]);
    while fuzz.more() {
        let case = inputs::link_case(&mut rng);
        fuzz.run(&case, |_, _, known| known);
    }
    fuzz.report();
}

#[test]
fn hostile_launch_lines_get_a_finite_answer_or_a_named_error() {
    let (mut fuzz, mut rng) = Fuzz::new("launch lines", &["command", "card", "--gpus", "output"]);
    while fuzz.more() {
        let case = inputs::launch_case(&mut rng);
        fuzz.run(&case, |field, _, known| known || field.starts_with("--"));
    }
    fuzz.report();
}
