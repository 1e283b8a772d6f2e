//! The rollout engines of an RL step (SPEC §15): the panel under a grid's controls that turns
//! them on and sets them (`controls`, with its typed counts in `inputs`), and the figure of
//! one rollout card's memory beside the grid (`figures`). Every number shown is the core's
//! (the report's `rollout`); nothing is computed here.

mod controls;
mod figures;
mod inputs;
mod phase;

pub use controls::RolloutPanel;
pub use figures::RolloutFigure;
