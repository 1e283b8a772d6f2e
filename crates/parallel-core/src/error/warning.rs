//! [`Warning`]: a soft problem of a plan, shown beside a result that is still computed.

use core::fmt;

use serde::{Serialize, Serializer};

use crate::config::Field;

/// A soft problem: the plan is still evaluated, the page shows it beside the result.
#[derive(Clone, Copy, Debug, PartialEq)]
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
    /// e > 1 and t > 1 with sequence parallelism off: Megatron-Core runs it but warns "When
    /// using expert parallelism and tensor parallelism for training, sequence parallelism must
    /// be used" (megatron/core/model_parallel_config.py, `__post_init__`; SPEC §22).
    ExpertsWithoutSequenceParallel {
        /// TP degree.
        tp: u32,
        /// EP degree.
        ep: u32,
    },
    /// With the optimizer on the host, the busiest node's offloaded states (16·Ψ_o per card)
    /// outgrow its host memory (SPEC §14).
    HostMemoryOver {
        /// The busiest node's host bytes, in GB.
        per_node_gb: f64,
        /// Host memory per node, GB.
        host_memory_gb: f64,
    },
}

impl Warning {
    /// The `PlanConfig` field the warning is about.
    pub fn field(&self) -> Field {
        match self {
            Warning::TpAcrossNodes { .. } => Field::Tp,
            Warning::LayersNotDivisible { .. } => Field::Pp,
            Warning::ZigzagPadding { .. } => Field::SeqLen,
            Warning::HostMemoryOver { .. } => Field::HostMemoryGb,
            Warning::ExpertsWithoutSequenceParallel { .. } => Field::SequenceParallel,
        }
    }

    /// The chunks the zigzag layout cuts the sequence into, 2·CP (each rank holds one early and
    /// one late chunk), for [`Warning::ZigzagPadding`]; `None` for the other warnings.
    ///
    /// ```
    /// use parallel_core::Warning;
    /// let padding = Warning::ZigzagPadding { seq_len: 4_100, cp: 4 };
    /// assert_eq!(padding.zigzag_chunks(), Some(8));
    /// assert!(padding.to_string().contains("2·CP = 8 chunks"));
    /// assert_eq!(Warning::LayersNotDivisible { layers: 64, pp: 3 }.zigzag_chunks(), None);
    /// ```
    pub fn zigzag_chunks(&self) -> Option<u64> {
        match *self {
            Warning::ZigzagPadding { cp, .. } => Some(2 * u64::from(cp)),
            _ => None,
        }
    }
}

/// L/p, the layers of an average stage when p does not divide L (SPEC §2's warning).
///
/// ```
/// assert_eq!(parallel_core::average_layers(64, 3), 64.0 / 3.0);
/// ```
pub fn average_layers(layers: u32, pp: u32) -> f64 {
    f64::from(layers) / f64::from(pp.max(1))
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
                average_layers(layers, pp)
            ),
            Warning::ZigzagPadding { seq_len, .. } => write!(
                f,
                "seq_len: {seq_len} tokens do not divide into 2·CP = {} chunks; zigzag needs padding",
                self.zigzag_chunks().unwrap_or_default()
            ),
            Warning::ExpertsWithoutSequenceParallel { tp, ep } => write!(
                f,
                "sequence_parallel: EP {ep} with TP {tp} and sequence parallelism off; Megatron-Core runs it but warns that expert and tensor parallelism together need sequence parallelism"
            ),
            Warning::HostMemoryOver {
                per_node_gb,
                host_memory_gb,
            } => write!(
                f,
                "host_memory_gb: a node's offloaded optimizer states take {per_node_gb:.1} GB, more than its {host_memory_gb} GB of host memory"
            ),
        }
    }
}

impl Serialize for Warning {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
