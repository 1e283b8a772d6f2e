//! Which controls an embedded grid shows (`controls=tp,pp,m`): a teacher ticks them in the
//! embed dialog and the snippet's link carries them. Without the key a widget shows the
//! lesson's controls ([`Controls::LESSON`]).

/// One control of a grid, as a teacher can pick it for an embed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Control {
    /// Tensor parallelism.
    Tp,
    /// Pipeline parallelism.
    Pp,
    /// Context parallelism.
    Cp,
    /// Micro-batches per step.
    MicroBatches,
    /// Sequence length.
    Seq,
    /// ZeRO stage.
    Zero,
    /// Activation recomputation.
    Recompute,
    /// The model.
    Model,
    /// The card.
    Card,
    /// Expert parallelism (MoE models only).
    Ep,
    /// Bytes per gradient.
    Precision,
    /// The pipeline schedule.
    Schedule,
    /// Memory accounting (even, or by stage).
    Accounting,
    /// Sequence parallelism, on or off (SPEC §22).
    SequenceParallel,
    /// The runtime memory terms, counted or not (SPEC §24).
    RuntimeMemory,
    /// The longest micro-batch over s: sequences of uneven length (SPEC §25).
    SequenceSkew,
}

impl Control {
    /// Every control, in the order a grid shows them.
    pub const ALL: [Control; 16] = [
        Control::Tp,
        Control::Pp,
        Control::Cp,
        Control::MicroBatches,
        Control::Seq,
        Control::Zero,
        Control::Recompute,
        Control::Model,
        Control::Card,
        Control::Ep,
        Control::Precision,
        Control::Schedule,
        Control::Accounting,
        Control::SequenceParallel,
        Control::RuntimeMemory,
        Control::SequenceSkew,
    ];

    /// Its word in a link.
    pub const fn id(self) -> &'static str {
        match self {
            Control::Tp => "tp",
            Control::Pp => "pp",
            Control::Cp => "cp",
            Control::MicroBatches => "m",
            Control::Seq => "seq",
            Control::Zero => "zero",
            Control::Recompute => "recompute",
            Control::Model => "model",
            Control::Card => "card",
            Control::Ep => "ep",
            Control::Precision => "precision",
            Control::Schedule => "schedule",
            Control::Accounting => "accounting",
            Control::SequenceParallel => "sp",
            Control::RuntimeMemory => "runtime",
            Control::SequenceSkew => "seqskew",
        }
    }

    /// The control of a link word.
    pub fn from_id(id: &str) -> Option<Control> {
        Control::ALL.into_iter().find(|c| c.id() == id)
    }

    const fn bit(self) -> u32 {
        1 << self as u32
    }
}

super::word_set::word_set! {
    /// A set of controls.
    ///
    /// ```
    /// use parallel_core::link::{Control, Controls};
    /// let set = Controls::NONE.with(Control::Tp, true).with(Control::MicroBatches, true);
    /// assert_eq!(set.write(), "tp,m");
    /// assert_eq!(Controls::read("m, tp"), Ok(set));
    /// assert_eq!(Controls::read("none"), Ok(Controls::NONE));
    /// assert_eq!(Controls::read("tp,xyz"), Err("xyz".to_string()));
    /// ```
    Controls of Control, "tp,m"
}

impl Controls {
    /// The lesson's controls: TP, PP, CP, m, the sequence, ZeRO and recompute.
    pub const LESSON: Controls = Controls(
        Control::Tp.bit()
            | Control::Pp.bit()
            | Control::Cp.bit()
            | Control::MicroBatches.bit()
            | Control::Seq.bit()
            | Control::Zero.bit()
            | Control::Recompute.bit(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_set_reads_back() {
        for bits in 0..(1u32 << Control::ALL.len()) {
            let set = Controls(bits);
            assert_eq!(Controls::read(&set.write()), Ok(set), "{bits:b}");
        }
        for control in Control::ALL {
            assert_eq!(Control::from_id(control.id()), Some(control));
        }
    }

    #[test]
    fn words_that_are_no_control_are_named() {
        assert_eq!(Controls::read(""), Err(String::new()));
        assert_eq!(Controls::read("tp,,pp"), Err(String::new()));
        assert_eq!(Controls::read("TP"), Err("TP".to_string()));
        assert!(
            Controls::LESSON.contains(Control::Seq) && !Controls::LESSON.contains(Control::Model)
        );
    }
}
