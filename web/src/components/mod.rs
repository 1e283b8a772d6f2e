//! Reusable pieces of the page. Each receives derived signals (or a `GridLab`, for controls)
//! and formats what the core computed.

pub mod choices;
pub mod controls;
pub mod cp_layouts;
pub mod device_grid;
pub mod dim_rows;
pub mod estimate;
pub mod explain;
pub mod explain_button;
pub mod figures;
pub mod gpu_check;
pub mod grid_section;
pub mod kit;
pub mod lesson_table;
pub mod model_card;
pub mod offload;
pub mod own_model;
pub mod popover;
pub mod prediction;
pub mod rollout;
pub mod run_it;
pub mod schedule_view;
pub mod share;
pub mod table_scroll;
pub mod tasks;
