//! Context-parallel layouts: which token positions each rank holds, and the causal
//! query-key pairs that gives it (SPEC §7).
//!
//! Contiguous ("allgather CP"): rank r holds [r·s/c, (r+1)·s/c). Zigzag: the sequence, padded
//! to a multiple of 2c, is cut into 2c chunks and rank r holds chunks r and 2c−1−r, pairing a
//! cheap early chunk with an expensive late one. Position i attends to i + 1 positions under a
//! causal mask, so a rank's pairs are Σ (i + 1) over its (unpadded) positions.

use core::ops::Range;

use serde::{Deserialize, Serialize};

use crate::checks::at_least_one;
use crate::config::Field;
use crate::error::PlanError;

/// How a sequence is cut among the CP ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CpLayout {
    /// One contiguous block per rank.
    Contiguous,
    /// Chunks r and 2c−1−r per rank.
    Zigzag,
}

/// The token positions of every rank, as ranges of the real (unpadded) sequence.
///
/// ```
/// use parallel_core::{cp_positions, CpLayout};
/// let ranks = cp_positions(8, 2, CpLayout::Zigzag).unwrap();
/// assert_eq!(ranks[0], vec![0..2, 6..8]);
/// assert_eq!(ranks[1], vec![2..4, 4..6]);
/// ```
pub fn cp_positions(
    seq_len: u32,
    cp: u32,
    layout: CpLayout,
) -> Result<Vec<Vec<Range<u32>>>, PlanError> {
    at_least_one(cp, Field::Cp)?;
    at_least_one(seq_len, Field::SeqLen)?;
    if cp > seq_len {
        return Err(PlanError::CpAboveSeqLen { cp, seq_len });
    }
    let s = u64::from(seq_len);
    let clip = |start: u64, end: u64| -> Range<u32> {
        // Both ≤ padded length; clipping to s keeps them within u32.
        (start.min(s) as u32)..(end.min(s) as u32)
    };
    let c = u64::from(cp);
    Ok((0..c)
        .map(|r| match layout {
            CpLayout::Contiguous => {
                let chunk = s.div_ceil(c);
                vec![clip(r * chunk, (r + 1) * chunk)]
            }
            CpLayout::Zigzag => {
                let chunk = s.div_ceil(2 * c);
                let late = 2 * c - 1 - r;
                vec![
                    clip(r * chunk, (r + 1) * chunk),
                    clip(late * chunk, (late + 1) * chunk),
                ]
            }
        })
        .collect())
}

/// The rank that holds each token position 0 … s−1 (the inverse of [`cp_positions`]).
///
/// ```
/// use parallel_core::{cp_token_ranks, CpLayout};
/// assert_eq!(cp_token_ranks(8, 2, CpLayout::Contiguous).unwrap(), [0, 0, 0, 0, 1, 1, 1, 1]);
/// assert_eq!(cp_token_ranks(8, 2, CpLayout::Zigzag).unwrap(), [0, 0, 1, 1, 1, 1, 0, 0]);
/// ```
pub fn cp_token_ranks(seq_len: u32, cp: u32, layout: CpLayout) -> Result<Vec<u32>, PlanError> {
    let mut ranks = vec![0; seq_len as usize];
    for (rank, ranges) in cp_positions(seq_len, cp, layout)?.into_iter().enumerate() {
        for range in ranges {
            for position in range {
                ranks[position as usize] = rank as u32;
            }
        }
    }
    Ok(ranks)
}

/// How uneven the ranks' work is: the most pairs over the fewest (`None` when a rank has
/// none, or there are no ranks).
///
/// ```
/// use parallel_core::{causal_pairs, pair_imbalance, CpLayout};
/// assert_eq!(pair_imbalance(&causal_pairs(16, 4, CpLayout::Contiguous).unwrap()), Some(5.8));
/// assert_eq!(pair_imbalance(&causal_pairs(16, 4, CpLayout::Zigzag).unwrap()), Some(1.0));
/// ```
pub fn pair_imbalance(pairs: &[u64]) -> Option<f64> {
    let most = *pairs.iter().max()?;
    let least = *pairs.iter().min()?;
    (least > 0).then(|| most as f64 / least as f64)
}

/// Causal query-key pairs of each rank: Σ (i + 1) over its positions.
///
/// ```
/// use parallel_core::{causal_pairs, CpLayout};
/// assert_eq!(causal_pairs(8, 2, CpLayout::Contiguous).unwrap(), vec![10, 26]);
/// assert_eq!(causal_pairs(8, 2, CpLayout::Zigzag).unwrap(), vec![18, 18]);
/// assert_eq!(causal_pairs(16, 4, CpLayout::Contiguous).unwrap(), vec![10, 26, 42, 58]);
/// ```
pub fn causal_pairs(seq_len: u32, cp: u32, layout: CpLayout) -> Result<Vec<u64>, PlanError> {
    // Σ_{i=a}^{b−1} (i + 1) = (b(b+1) − a(a+1)) / 2
    let triangle = |n: u64| n * (n + 1) / 2;
    Ok(cp_positions(seq_len, cp, layout)?
        .into_iter()
        .map(|ranges| {
            ranges
                .into_iter()
                .map(|r| triangle(u64::from(r.end)) - triangle(u64::from(r.start)))
                .sum()
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zigzag_balances_every_power_of_two_split() {
        for cp in [1, 2, 4, 8, 16] {
            let pairs = causal_pairs(4096, cp, CpLayout::Zigzag).unwrap();
            assert!(pairs.windows(2).all(|w| w[0] == w[1]), "cp {cp}: {pairs:?}");
            let total: u64 = pairs.iter().sum();
            assert_eq!(total, 4096 * 4097 / 2);
        }
    }

    #[test]
    fn padding_positions_are_left_out() {
        // 10 tokens, CP 2, zigzag: padded to 12, chunks of 3; rank 0 gets 0..3 and 9..10.
        let ranks = cp_positions(10, 2, CpLayout::Zigzag).unwrap();
        assert_eq!(ranks[0], vec![0..3, 9..10]);
        assert_eq!(ranks[1], vec![3..6, 6..9]);
    }
}
