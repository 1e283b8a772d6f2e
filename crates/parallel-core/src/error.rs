//! The one error type of the crate, [`PlanError`], and the soft problems, [`Warning`].

use core::fmt;

use serde::{Serialize, Serializer};

/// Why a configuration was rejected: the field at fault and the reason, in plain words.
///
/// `Display` gives one line, `"<field>: <reason>"`, which the CLI prints as is and the page
/// shows beside the control of that field.
///
/// # Example
/// ```
/// use parallel_core::{evaluate, PlanConfig};
/// let err = evaluate(&PlanConfig { gpus: 8, tp: 3, ..PlanConfig::default() }).unwrap_err();
/// assert_eq!(err.field(), "gpus");
/// assert!(err.to_string().starts_with("gpus: 8 GPUs do not divide by tp·pp·cp = 3"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanError {
    field: &'static str,
    reason: String,
}

impl PlanError {
    /// An error about `field` (its `PlanConfig` name, `model.<name>` inside an inline model).
    pub fn new(field: &'static str, reason: impl Into<String>) -> PlanError {
        PlanError {
            field,
            reason: reason.into(),
        }
    }

    /// The `PlanConfig` field at fault, e.g. `"tp"` or `"model.hidden"`.
    pub fn field(&self) -> &'static str {
        self.field
    }

    /// The reason, without the field name.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

impl std::error::Error for PlanError {}

/// A soft problem: the plan is still evaluated, the page shows it beside the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Warning {
    /// t > gpus_per_node: the TP group crosses nodes and its all-reduce runs over InfiniBand.
    TpAcrossNodes {
        /// TP degree.
        tp: u32,
        /// GPUs that share NVLink.
        gpus_per_node: u32,
    },
    /// L is not a multiple of p: layer counts per stage are real averages L/p.
    LayersNotDivisible {
        /// Model layers L.
        layers: u32,
        /// Pipeline degree p.
        pp: u32,
    },
    /// s is not a multiple of 2c: the zigzag layout pads the sequence.
    ZigzagPadding {
        /// Sequence length s.
        seq_len: u32,
        /// Context-parallel degree c.
        cp: u32,
    },
}

impl Warning {
    /// The `PlanConfig` field the warning is about.
    pub fn field(&self) -> &'static str {
        match self {
            Warning::TpAcrossNodes { .. } => "tp",
            Warning::LayersNotDivisible { .. } => "pp",
            Warning::ZigzagPadding { .. } => "seq_len",
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Warning::TpAcrossNodes { tp, gpus_per_node } => write!(
                f,
                "tp: TP {tp} is larger than a node of {gpus_per_node} GPUs, so its all-reduce crosses InfiniBand"
            ),
            Warning::LayersNotDivisible { layers, pp } => write!(
                f,
                "pp: {layers} layers do not divide by PP {pp}; per-stage figures use the average {:.2} layers",
                f64::from(layers) / f64::from(pp)
            ),
            Warning::ZigzagPadding { seq_len, cp } => write!(
                f,
                "seq_len: {seq_len} tokens do not divide into 2·CP = {} chunks; zigzag needs padding",
                2 * u64::from(cp)
            ),
        }
    }
}

impl Serialize for Warning {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
