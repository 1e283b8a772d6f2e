//! The questions' table: seed 003's questions in its order, each with its grid, its
//! demonstration plan, the plans its answer compares with and the figures it quotes. The
//! 8-card demonstrations start from ZeRO-0 (the lesson's 8-card start is ZeRO-3).

mod balance;
mod splits;

use super::data::Question;

/// Every question, in the order seed 003 asks them.
pub(super) fn all() -> Vec<Question> {
    splits::SPLITS.into_iter().chain(balance::BALANCE).collect()
}
