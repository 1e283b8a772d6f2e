//! What one card can physically measure (issue 50): a measured file's card and figures inside
//! the ranges a real run stays in, each refusal naming its field, its value (quoted in a few
//! characters, [`quoted`]) and the range. Without them a step of 0 s prints "–", one of
//! 5e-324 s an infinite ratio, and a peak of 10^308 bytes a 309-digit number.
//!
//! - The card's memory: inside [`bound`]`(gpu_memory_gb)`, the range of every card the lab knows.
//! - A layer's time: inside [`MEASURED_LAYER_SECONDS`].
//! - Every byte figure: at least 1 byte (an allocator's counter that measured something) and at
//!   most the card's memory (no allocation passes it).
//! - The peak and the reserve: at least [`MEASURED_PEAK_STATES_SHARE`] of the lab's model states
//!   for the layers built (checked by [`Measured::compare`](super::Measured::compare), which
//!   builds the plan).
//!
//! Each check takes one figure and the field's path, and is called by the reader and the
//! comparison for every figure of both modes.

use crate::bounds::{bound, MEASURED_LAYER_SECONDS, MEASURED_PEAK_STATES_SHARE};
use crate::config::Field;
use crate::lang::Lang;
use crate::numbers::quoted;

use super::problem::{problem, CheckError};

/// The card's memory in bytes, if a card the lab's bounds allow (`card.memory_bytes`).
pub(super) fn card_memory(bytes: f64) -> Result<f64, CheckError> {
    match bound(Field::GpuMemoryGb) {
        Some(b) if !b.holds(bytes / 1e9) => {
            let (got, gb) = (quoted(bytes), quoted(bytes / 1e9));
            Err(problem(
                "card.memory_bytes",
                format!("{got} bytes = {gb} GB: {}", b.reason(Lang::En, bytes / 1e9)),
                format!("{got} 字节 = {gb} GB：{}", b.reason(Lang::Zh, bytes / 1e9)),
            ))
        }
        _ => Ok(bytes),
    }
}

/// A layer's time at `field`, if inside [`MEASURED_LAYER_SECONDS`].
pub(super) fn layer_seconds(field: &str, seconds: Option<f64>) -> Result<(), CheckError> {
    let [min, max] = MEASURED_LAYER_SECONDS;
    match seconds {
        Some(s) if !(min..=max).contains(&s) => Err(problem(
            field,
            format!(
                "must be between {} and {} s (1 µs to a day): a GPU kernel's launch alone takes \
                 microseconds, and the program times its passes in minutes (got {})",
                quoted(min),
                quoted(max),
                quoted(s)
            ),
            format!(
                "必须在 {} 到 {} 秒之间（1 微秒到一天）：单是启动一个 GPU 内核就要几微秒，而测量程序\
                 几分钟内就测完（现在是 {}）",
                quoted(min),
                quoted(max),
                quoted(s)
            ),
        )),
        _ => Ok(()),
    }
}

/// A byte figure at `field`, if from 1 byte (an allocator's counter that measured something)
/// to `memory`, the card's (no allocation passes it).
pub(super) fn bytes(field: &str, bytes: Option<f64>, memory: f64) -> Result<(), CheckError> {
    match bytes {
        Some(b) if !(1.0..=memory).contains(&b) => {
            let (got, memory) = (quoted(b), quoted(memory));
            Err(problem(
                field,
                format!(
                    "must be between 1 byte and the card's memory, {memory} bytes \
                     (card.memory_bytes): no allocation passes it (got {got})"
                ),
                format!(
                    "必须在 1 字节到这张卡的显存 {memory} 字节（card.memory_bytes）之间：\
                     没有哪次分配能超过它（现在是 {got}）"
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// A peak (or the reserve at it) at `field`, if at least [`MEASURED_PEAK_STATES_SHARE`] of
/// `states`, the lab's model states for the layers built.
pub(super) fn holds_states(field: &str, bytes: Option<f64>, states: f64) -> Result<(), CheckError> {
    let floor = states * MEASURED_PEAK_STATES_SHARE;
    match bytes {
        Some(b) if b < floor => {
            let (got, states, floor) = (quoted(b), quoted(states), quoted(floor));
            Err(problem(
                field,
                format!(
                    "must be at least {floor} bytes: the card holds the built layers' model \
                     states through its step, {states} bytes as the lab counts them, and the \
                     lab is not off by half (got {got})"
                ),
                format!(
                    "必须至少 {floor} 字节：这张卡整步都持有已构建各层的模型状态，按实验室的算法是 \
                     {states} 字节，实验室不会差一半（现在是 {got}）"
                ),
            ))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impossible_figures_are_named_with_their_value_and_range() {
        let field = "eager.layer_fwd_bwd_s";
        assert_eq!(layer_seconds(field, Some(0.01)), Ok(()));
        assert_eq!(layer_seconds(field, None), Ok(()));
        assert_eq!(
            layer_seconds(field, Some(MEASURED_LAYER_SECONDS[0])),
            Ok(())
        );
        for (seconds, shown) in [
            (0.0, "got 0)"),
            (5e-324, "got 5e-324)"),
            (1e308, "got 1e308)"),
        ] {
            let e = layer_seconds(field, Some(seconds)).unwrap_err();
            assert_eq!(e.field, field);
            assert!(e.problem.ends_with(shown), "{e}");
            assert!(e.problem.len() < 200, "{e}");
        }
        let memory = 80e9;
        for b in [1.0, 1e6, memory] {
            assert_eq!(bytes("eager.peak_bytes", Some(b), memory), Ok(()));
        }
        for b in [0.0, 5e-324, 1e308, memory + 1.0] {
            let e = bytes("eager.peak_bytes", Some(b), memory).unwrap_err();
            assert_eq!(e.field, "eager.peak_bytes", "{b}");
        }
    }

    #[test]
    fn a_peak_below_the_states_and_a_card_of_one_byte_are_refused() {
        let e = holds_states("compiled.peak_bytes", Some(1.0), 1e15).unwrap_err();
        assert_eq!(e.field, "compiled.peak_bytes");
        assert!(e.problem.contains("1e15 bytes as the lab counts"), "{e}");
        assert!(holds_states("eager.peak_bytes", Some(2e9), 2e9).is_ok());
        assert!(holds_states("eager.peak_bytes", None, 2e9).is_ok());
        let e = card_memory(1.0).unwrap_err();
        assert_eq!(e.field, "card.memory_bytes");
        assert!(
            e.problem
                .starts_with("1 bytes = 1e-9 GB: must be between 8 and 1,920 GB"),
            "{e}"
        );
        assert!(
            crate::lang::has_cjk(&e.text(Lang::Zh)),
            "{}",
            e.text(Lang::Zh)
        );
        assert_eq!(card_memory(150_109_880_320.0), Ok(150_109_880_320.0));
    }
}
