//! The parts of the lesson page, in reading order.

pub mod cluster;
pub mod counting_note;
pub mod decisions;
pub mod evolution;
pub mod intro;
pub mod one_machine;
pub mod questions;
pub mod real_configs;
pub mod search;
