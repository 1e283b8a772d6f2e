//! The lab's links: a whole page state in a short, readable URL fragment, and back.
//!
//! ```text
//! #g64=tp8.pp2.z1.m32&c64=0&lang=en
//! ```
//!
//! - `g8` / `g64`: a grid's plan, as the fields that differ from that grid's base config
//!   (the neutral defaults of SPEC §2 with N = 8 or 64), joined by dots. Absent: the grid
//!   starts where the lesson starts. Numbers are a key and digits (`tp8`, `m32`, `s131072`,
//!   `z1`; a decimal point is written `p`: `mem94p5`); values that are words stand alone
//!   (`selective`, `interleaved`, `fp32`, `llama`).
//! - `c8` / `c64`: the selected card; `sec`: the open section; `lang`: `zh` or `en`;
//!   `embed`: the widget shown alone (embed mode); `controls`: the controls an embedded grid
//!   shows (`tp,pp,m`; absent: the lesson's); `parts`: the parts it draws (`grid,traffic`;
//!   absent: the grid and its figures); `parent`: the course page's [`Origin`] an embedded
//!   widget takes messages from (`parent=https://course.example.org`; absent: the window that
//!   frames it, whatever its origin).
//!
//! Decoding never fails: whatever does not parse, is out of range or does not combine with the
//! rest is ignored, named in an [`Ignored`] notice, and left at its default. Tokens are
//! applied in the order of the config table, each kept only if the plan stays valid, so
//! `g8=tp3.pp2` keeps PP 2 and reports TP 3. The grids' sizes are fixed (8 cards in one node,
//! 64 in 8 nodes) and TP stays within a node, as on the page.

mod change;
mod controls;
mod fragment;
mod landing;
mod message;
mod model_token;
mod notice;
mod origin;
mod parts;
mod plan_codec;
mod rollout_token;
mod sliders;
mod state;
mod word_set;

pub use controls::{Control, Controls};
pub use fragment::{decode, encode, MAX_LINK_LEN};
pub use landing::{for_page, landing, landing_of, names_widget, Entry};
pub use message::{
    read_plan, read_set, PlanObject, Refusal, RefusalReason, ERROR, HEIGHT, MAX_PLAN_LEN, SET,
};
pub use notice::{Ignored, IgnoredReason};
pub use origin::{Origin, OriginError};
pub use parts::{Part, Parts};
pub use plan_codec::{decode_plan, encode_plan};
pub use sliders::{Range, Slider, GRID_MAX_CHUNKS, GRID_MAX_DEGREE};
pub use state::{GridId, LinkState, Section, Widget};
