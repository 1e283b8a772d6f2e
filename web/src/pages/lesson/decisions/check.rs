//! The judging of part four, without any view: what the student answered, what the core
//! computes for the student's own plan, and which lines pass.

use parallel_core::traffic::heaviest;
use parallel_core::{
    Bytes, Dim, Link, Memory, Plan, PlanConfig, PlanError, Recompute, Report, TpBench, Traffic,
};

use crate::kit::input::{parse_gb, parse_percent, parse_whole, InputError};
use crate::kit::tolerance::close_enough;

/// The largest figure in GB a field accepts: far above any card or step on this page.
pub const MAX_GB: f64 = 100_000.0;
/// The largest number of micro-batches per step the form accepts.
pub const MAX_MICRO_BATCHES: u32 = 1024;
/// The bubble threshold when the student leaves it empty: 10% ((p−1)/m).
pub const DEFAULT_BUBBLE_THRESHOLD: f64 = 0.10;

/// Whether a typed GB figure matches the core's by the page's one rule
/// ([`crate::kit::tolerance`]).
pub fn matches_gb(typed_gb: f64, computed: Bytes) -> bool {
    close_enough(typed_gb, computed.gb())
}

/// Whether `dim` is a heaviest dimension of `comm` (ties count for every tied dimension).
pub fn is_heaviest(comm: &[Traffic], dim: Dim) -> bool {
    match (heaviest(comm), comm.iter().find(|t| t.dim == dim)) {
        (Some(top), Some(mine)) => mine.bytes.get() >= top.bytes.get(),
        _ => false,
    }
}

/// Whether a TP bench difference is at rounding level against the output's scale (the core's
/// [`TpBench::is_rounding_level`]).
pub fn is_rounding_level(diff: f64, output_max_abs: f64) -> bool {
    TpBench::is_rounding_level(diff, output_max_abs)
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
            .map(|&gb| matches_gb(gb, memory.model_states));
        let activations = self
            .activations
            .as_ref()
            .ok()
            .map(|&gb| matches_gb(gb, memory.activations));
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
    /// Its bytes match the core's within the page's tolerance.
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
            threshold: parse_percent(&answer.threshold, DEFAULT_BUBBLE_THRESHOLD),
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
            bytes: matches_gb(bytes, top.bytes),
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

/// "56.3 MiB": one decimal in mebibytes (the lesson's notation for small models).
pub fn mib(bytes: Bytes) -> String {
    format!("{:.1} MiB", bytes.mib())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::format;

    #[test]
    fn gb_matching_follows_the_one_rule() {
        let b = Bytes::new(55_562_855_904.0);
        assert!(matches_gb(55.6, b));
        assert!(
            matches_gb(56.0, b),
            "the opening prediction's rule: 56 for 55.6"
        );
        assert!(matches_gb(53.0, b));
        assert!(!matches_gb(52.0, b));
        assert!(!matches_gb(59.0, b));
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
        let (states, capacity, times) = parallel_core::lesson::small_model_states();
        assert_eq!(mib(states), "56.3 MiB");
        assert_eq!(format::bytes(capacity), "80.0 GB");
        assert_eq!(times.floor(), 1355.0);
    }
}
