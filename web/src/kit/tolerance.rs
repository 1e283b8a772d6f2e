//! The one rule every check of a typed figure follows, in the opening prediction and in part
//! four alike: a figure counts as right when it lies within [`TOLERANCE`] of the one the core
//! computes. A student who keeps three significant figures, or rounds 55.6 GB to 56, passes;
//! one who forgets a term (the gradients' 2 bytes of 16, an eighth) does not.

/// How close a typed figure must be to the core's: 5% of it.
pub const TOLERANCE: f64 = 0.05;

/// Whether `typed` lies within [`TOLERANCE`] of `computed`.
pub fn close_enough(typed: f64, computed: f64) -> bool {
    (typed - computed).abs() <= TOLERANCE * computed.abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_percent_either_way_and_no_more() {
        assert!(close_enough(56.0, 55.6));
        assert!(close_enough(55.6, 55.6));
        assert!(close_enough(52.9, 55.6));
        assert!(!close_enough(52.8, 55.6));
        assert!(close_enough(58.3, 55.6));
        assert!(!close_enough(58.4, 55.6));
        // Forgetting the gradients' 2 bytes of 16 is an eighth off: wrong.
        assert!(!close_enough(55.6 * 14.0 / 16.0, 55.6));
        assert!(close_enough(0.0, 0.0));
        assert!(!close_enough(0.1, 0.0));
    }
}
