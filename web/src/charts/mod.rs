//! Charts drawn with plotters on `<canvas>`: memory per card under ZeRO 0–3, traffic per card
//! per dimension, and the pipeline bubble against m.
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

mod bubble;
pub(crate) mod canvas;
mod layout;
mod memory;
mod schedule;
pub mod stages;
mod traffic;

pub use bubble::{bubble_series, BubbleChart, BubblePoint, BubbleSeries};
pub use memory::{memory_series, MemoryBar, MemoryChart, MemorySeries};
pub use schedule::ScheduleChart;
pub use stages::StageChart;
pub use traffic::{traffic_series, TrafficBar, TrafficChart, TrafficSeries};

/// Drawing functions, one per chart, generic over the plotters backend.
pub mod draw {
    pub use super::bubble::draw as bubble;
    pub use super::memory::draw as memory;
    pub use super::traffic::draw as traffic;
}

/// The page's palette as plotters colours (the same values as `assets/style.css`).
pub mod palette {
    use parallel_core::{Dim, Link};
    use plotters::style::RGBColor;

    /// Text.
    pub const INK: RGBColor = RGBColor(0x1d, 0x23, 0x2b);
    /// Secondary text and axes.
    pub const MUTED: RGBColor = RGBColor(0x5f, 0x6b, 0x78);
    /// Grid lines.
    pub const GRID: RGBColor = RGBColor(0xe0, 0xdd, 0xd5);
    /// Background of a figure.
    pub const PAPER: RGBColor = RGBColor(0xff, 0xff, 0xff);
    /// Something that does not fit.
    pub const BAD: RGBColor = RGBColor(0xc9, 0x2a, 0x2a);

    /// Tensor parallel.
    pub const TP: RGBColor = RGBColor(0x4c, 0x6e, 0xf5);
    /// Context parallel.
    pub const CP: RGBColor = RGBColor(0x12, 0xb8, 0x86);
    /// Pipeline parallel.
    pub const PP: RGBColor = RGBColor(0xf0, 0x8c, 0x00);
    /// Data parallel.
    pub const DP: RGBColor = RGBColor(0xae, 0x3e, 0xc9);
    /// Expert parallel.
    pub const EP: RGBColor = RGBColor(0xe6, 0x49, 0x80);
    /// Expert data parallel.
    pub const EDP: RGBColor = RGBColor(0x86, 0x2e, 0x9c);

    /// NVLink (inside a node).
    pub const NVLINK: RGBColor = RGBColor(0x3b, 0x5b, 0xdb);
    /// InfiniBand (across nodes).
    pub const IB: RGBColor = RGBColor(0xe8, 0x59, 0x0c);

    /// BF16 weights.
    pub const WEIGHTS: RGBColor = RGBColor(0x6c, 0x8e, 0xbf);
    /// Gradients.
    pub const GRADIENTS: RGBColor = RGBColor(0x82, 0xb2, 0x9a);
    /// FP32 master weights and Adam moments.
    pub const OPTIMIZER: RGBColor = RGBColor(0xe0, 0xb5, 0x5b);
    /// Saved activations.
    pub const ACTIVATIONS: RGBColor = RGBColor(0xb0, 0x7a, 0xa1);

    /// The colour of a parallel dimension.
    pub fn dim(dim: Dim) -> RGBColor {
        match dim {
            Dim::Tp => TP,
            Dim::Cp => CP,
            Dim::Ep => EP,
            Dim::Pp => PP,
            Dim::Dp => DP,
            Dim::Edp => EDP,
        }
    }

    /// The colour of a link.
    pub fn link(link: Link) -> RGBColor {
        match link {
            Link::NvLink => NVLINK,
            Link::InfiniBand => IB,
        }
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Drawing into an SVG string, for the native tests.
    use plotters::backend::SVGBackend;
    use plotters::prelude::IntoDrawingArea;

    /// Draws with `paint` on an SVG of `size` and returns the outcome and the SVG text.
    pub fn svg(
        size: (u32, u32),
        paint: impl FnOnce(
            &plotters::drawing::DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
        ) -> Result<(), String>,
    ) -> (Result<(), String>, String) {
        let mut out = String::new();
        let outcome = {
            let area = SVGBackend::with_string(&mut out, size).into_drawing_area();
            let drawn = paint(&area);
            drawn.and_then(|()| area.present().map_err(|e| e.to_string()))
        };
        (outcome, out)
    }

    /// Whether `text` holds a CJK character (the English page must hold none).
    pub use parallel_core::lang::has_cjk;
}
