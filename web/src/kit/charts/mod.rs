//! Charts drawn with plotters on `<canvas>`: memory per card under ZeRO 0–3, the 3D balance
//! (memory against bytes sent, TP, PP and ZeRO moved alone), traffic per card per dimension,
//! the pipeline bubble against m, the lab ÷ real figures of the published
//! runs and of the figures measured on one H200, and a measured file's figures against the
//! lab's (`check_plot`).
//!
//! Every chart has three layers, so that the same drawing is tested natively and shown in the
//! page:
//! - a pure series function: core types in, a small series struct out (`memory_series`,
//!   `traffic_series`, `bubble_series`). Every number in it comes from `parallel_core`; the
//!   charts only pick what to show and where (variants are evaluated with `Plan::new`);
//! - `draw<DB: DrawingBackend>(area, &series, lang)`, on any plotters backend: an SVG string
//!   in the native tests, a canvas in the page. Plotters' errors become text here, once;
//! - a Leptos component that redraws its canvas whenever the series or the language changes.
//!
//! Charts are laid out on a 640 × 360 design grid (16:9) and scaled to the area they are drawn
//! on; the canvas is sized to its CSS width × `devicePixelRatio`, so text scales with the chart
//! (as the page's SVG figures do) and stays crisp. Fonts are the browser's "sans-serif": the
//! page loads nothing from outside.

mod axes;
mod balance;
mod bubble;
pub(crate) mod canvas;
mod check_plot;
mod layout;
mod memory;
pub mod palette;
mod ratios;
mod schedule;
pub mod stages;
#[cfg(test)]
pub(crate) mod test_support;
mod traffic;

pub use balance::{balance_series, BalanceChart, BalanceSeries};
pub use bubble::{bubble_series, BubbleChart, BubblePoint, BubbleSeries};
pub use check_plot::{check_series, CheckPlot, CheckPoint, CheckSeries};
pub use memory::{memory_series, MemoryBar, MemoryChart, MemorySeries};
pub use ratios::{ratio_series, RatioChart, RatioPoint, RatioSeries};
pub use schedule::ScheduleChart;
pub use stages::StageChart;
pub use traffic::{traffic_series, TrafficBar, TrafficChart, TrafficSeries};

/// Drawing functions, one per chart, generic over the plotters backend.
pub mod draw {
    pub use super::balance::draw as balance;
    pub use super::bubble::draw as bubble;
    pub use super::check_plot::draw as check;
    pub use super::memory::draw as memory;
    pub use super::ratios::draw as ratios;
    pub use super::traffic::draw as traffic;
}
