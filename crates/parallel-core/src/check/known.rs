//! The measurements that check the lab's own figures (SPEC §19): the measured files of the
//! cards that have been run on a real GPU, shipped with the lab, so that a plan whose card
//! has the shapes of one comes with the measurement that checks it.
//!
//! The files are `tests/fixtures/check/*.measured.json`, included as they were written: six
//! written by `scripts/gpu-check/check.py` on one H200 (PyTorch 2.11.0+cu130, 2026-12-04) and
//! four converted from the H200 measurements the kernel tables come from.

use super::read::Measured;
use super::workload::Workload;

/// The shipped measured files: (name, text).
const FILES: [(&str, &str); 10] = [
    (
        "h200-lesson-64-card0",
        include_str!("../../../../tests/fixtures/check/h200-lesson-64-card0.measured.json"),
    ),
    (
        "h200-llama3-70b-cp2-card0",
        include_str!("../../../../tests/fixtures/check/h200-llama3-70b-cp2-card0.measured.json"),
    ),
    (
        "h200-mixtral-ep8-card0",
        include_str!("../../../../tests/fixtures/check/h200-mixtral-ep8-card0.measured.json"),
    ),
    (
        "h200-llama3-8b-s4096",
        include_str!("../../../../tests/fixtures/check/h200-llama3-8b-s4096.measured.json"),
    ),
    (
        "h200-llama3-8b-s8192",
        include_str!("../../../../tests/fixtures/check/h200-llama3-8b-s8192.measured.json"),
    ),
    (
        "h200-llama3-8b-s4096-full",
        include_str!("../../../../tests/fixtures/check/h200-llama3-8b-s4096-full.measured.json"),
    ),
    (
        "shared-h200-llama3-8b-s2048",
        include_str!("../../../../tests/fixtures/check/shared-h200-llama3-8b-s2048.measured.json"),
    ),
    (
        "shared-h200-llama3-8b-s4096",
        include_str!("../../../../tests/fixtures/check/shared-h200-llama3-8b-s4096.measured.json"),
    ),
    (
        "shared-h200-llama3-8b-s8192",
        include_str!("../../../../tests/fixtures/check/shared-h200-llama3-8b-s8192.measured.json"),
    ),
    (
        "shared-h200-llama3-8b-s4096-full",
        include_str!(
            "../../../../tests/fixtures/check/shared-h200-llama3-8b-s4096-full.measured.json"
        ),
    ),
];

/// A shipped measurement: its name and the file, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Known {
    /// The file's name without `.measured.json`, e.g. `"h200-lesson-64-card0"`.
    pub name: &'static str,
    /// Its raw text, as a student would load it.
    pub text: &'static str,
    /// The file, read.
    pub measured: Measured,
}

/// Every shipped measurement, read. (A test checks each one reads, so none is dropped here.)
pub fn known() -> Vec<Known> {
    FILES
        .iter()
        .filter_map(|&(name, text)| {
            Measured::read(text).ok().map(|measured| Known {
                name,
                text,
                measured,
            })
        })
        .collect()
}

impl Workload {
    /// Whether a measurement of `other` checks this card: the same card preset, layer
    /// shapes, tokens, stage layers, recompute, gradient bytes and micro-batches held.
    pub fn same_shape(&self, other: &Workload) -> bool {
        self.config.hardware == other.config.hardware
            && self.layer == other.layer
            && self.tokens == other.tokens
            && self.layers == other.layers
            && self.recompute == other.recompute
            && self.grad_bytes == other.grad_bytes
            && self.held() == other.held()
    }
}

/// The shipped measurements that check `workload` (the H200 run first, then the converted
/// tables' source).
///
/// ```
/// use parallel_core::{check::measured_for, hardware::Hardware, Plan, PlanConfig};
/// // The lesson's 64-card plan on H200s: card 0 was measured.
/// let plan = Plan::new(&PlanConfig { gpus: 64, tp: 8, pp: 8, ..PlanConfig::on(Hardware::H200) })?;
/// assert_eq!(measured_for(&plan.workload(0)?).len(), 1);
/// // The lesson's own card has no kernel tables and was never measured.
/// let lesson = Plan::new(&PlanConfig::lesson_64_gpus())?;
/// assert!(measured_for(&lesson.workload(0)?).is_empty());
/// # Ok::<(), parallel_core::PlanError>(())
/// ```
pub fn measured_for(workload: &Workload) -> Vec<Known> {
    known()
        .into_iter()
        .filter(|k| k.measured.workload.same_shape(workload))
        .collect()
}
