//! Each control's test id: the `data-testid` of the element that takes its value, written
//! once for the controls, the questions that focus them and the browser tests.

use parallel_core::link::Control;

/// The `data-testid` of the element that takes a control's value (the slider's range input,
/// the select): what a question focuses and what the browser tests move.
pub const fn test_id(control: Control) -> &'static str {
    match control {
        Control::Tp => "slider-tp",
        Control::Pp => "slider-pp",
        Control::Cp => "slider-cp",
        Control::MicroBatches => "slider-m",
        Control::Seq => "slider-seq",
        Control::Ep => "slider-ep",
        Control::Zero => "select-zero",
        Control::Recompute => "select-recompute",
        Control::Model => "select-model",
        Control::Card => "select-hardware",
        Control::Precision => "select-precision",
        Control::Schedule => "select-schedule",
        Control::Accounting => "select-accounting",
        Control::SequenceParallel => "select-sp",
        Control::RuntimeMemory => "select-runtime",
        Control::SequenceSkew => "select-seqskew",
    }
}
