//! Drawing into an SVG string, for the native tests of the charts.
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
