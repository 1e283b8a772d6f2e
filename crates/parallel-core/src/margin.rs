//! The memory margin that runs justify: Fujii, Watanabe and Yokota 2024 (arXiv 2411.06465)
//! ran 454 trainings on A100 and H100 cards and saw no out-of-memory failure while the
//! estimated memory stayed under 80% of the card ("when the estimated memory usage is below
//! 80% of the available GPU memory, the training never encounters out-of-memory errors").
//! A card between 80% and 100% fits by the formulas but is *tight*: buffers, fragmentation
//! and the allocator's own use are what the last fifth goes to.

use crate::units::Bytes;

/// The share of a card the estimate may fill with a margin that runs justify.
pub const SAFE_SHARE: f64 = 0.8;

/// Where [`SAFE_SHARE`] comes from.
pub const SOURCE: &str = "Fujii, Watanabe, Yokota 2024 (arXiv 2411.06465): 454 runs on A100 \
                          and H100, no out-of-memory failure below 80% of the card's memory";

/// How full a card is, for the grid's tint: total ÷ capacity held to 0…1 (a card over its
/// capacity is as full as one at it; a capacity of 0 is full).
///
/// ```
/// use parallel_core::{margin::fullness, Bytes};
/// let cap = Bytes::new(80e9);
/// assert_eq!(fullness(Bytes::new(20e9), cap), 0.25);
/// assert_eq!(fullness(Bytes::new(1e12), cap), 1.0);
/// assert_eq!(fullness(Bytes::new(1e9), Bytes::new(0.0)), 1.0);
/// ```
pub fn fullness(total: Bytes, capacity: Bytes) -> f64 {
    if capacity.get() > 0.0 {
        (total.get() / capacity.get()).clamp(0.0, 1.0)
    } else {
        1.0
    }
}

/// Whether `total` fits `capacity` but fills more than [`SAFE_SHARE`] of it.
///
/// ```
/// use parallel_core::margin::tight;
/// use parallel_core::Bytes;
/// let card = Bytes::new(80e9);
/// assert!(!tight(Bytes::new(64e9), card)); // exactly 80%: still comfortable
/// assert!(tight(Bytes::new(64.1e9), card));
/// assert!(!tight(Bytes::new(81e9), card)); // does not fit at all
/// ```
pub fn tight(total: Bytes, capacity: Bytes) -> bool {
    total.get() > SAFE_SHARE * capacity.get() && total <= capacity
}
