//! The shared kit every page is built from: the grid and its controls, the figures and charts,
//! the explanations, the published tables more than one page shows, and the text (both
//! languages, formatting, error sentences). Each piece receives derived signals (or a
//! `GridLab`, for controls) and formats what the core computed. A page imports the kit, never
//! another page.

pub mod charts;
pub mod choices;
pub mod controls;
pub mod device_grid;
pub mod dim_rows;
pub mod embed_picker;
pub mod error_text;
pub mod estimate;
pub mod explain;
pub mod explain_button;
pub mod fields;
pub mod figures;
pub mod first_screen;
pub mod format;
pub mod gpu_check;
pub mod grid_kit;
pub mod grid_section;
pub mod header;
pub mod i18n;
pub mod input;
pub mod kits;
pub mod lesson_section;
pub mod lesson_table;
pub mod memory_figure;
pub mod model_card;
pub mod own_model;
pub mod popover;
pub mod prose;
pub mod real_configs;
pub mod rollout;
pub mod routing;
pub mod run_it;
pub mod schedule_view;
pub mod share;
pub mod table_scroll;
pub mod text;
pub mod tolerance;
pub mod vocab;
