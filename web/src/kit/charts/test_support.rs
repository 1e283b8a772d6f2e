//! Drawing into an SVG string, for the native tests of the charts.
use plotters::backend::SVGBackend;
use plotters::prelude::IntoDrawingArea;

use crate::kit::i18n::Lang;

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

/// What a chart says in each language: texts its English drawing (640 × 360) holds, texts its
/// Chinese drawing (1280 × 720) holds, and texts its Chinese summary holds.
pub struct Said<'a> {
    /// In the English drawing.
    pub en: &'a [&'a str],
    /// In the Chinese drawing.
    pub zh: &'a [&'a str],
    /// In the Chinese summary.
    pub zh_summary: &'a [&'a str],
}

/// Draws `data` in both languages and checks that each drawing holds what `said` lists, and
/// that neither the English drawing nor the English `summary` holds Chinese.
pub fn assert_said<S>(
    draw: impl Fn(
        &plotters::drawing::DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
        &S,
        Lang,
    ) -> Result<(), String>,
    summary: impl Fn(&S, Lang) -> String,
    data: &S,
    said: Said<'_>,
) {
    let drawn = |size, lang| {
        let (ok, out) = svg(size, |area| draw(area, data, lang));
        assert_eq!(ok, Ok(()));
        out
    };
    let en = drawn((640, 360), Lang::En);
    let zh = drawn((1280, 720), Lang::Zh);
    let zh_summary = summary(data, Lang::Zh);
    for (out, texts) in [
        (&en, said.en),
        (&zh, said.zh),
        (&zh_summary, said.zh_summary),
    ] {
        for text in texts {
            assert!(out.contains(text), "{text} missing");
        }
    }
    assert!(!has_cjk(&en), "English chart holds Chinese text");
    assert!(!has_cjk(&summary(data, Lang::En)));
}

/// The value of attribute `name` in an SVG element's text (its attributes, as [`elements`]
/// gives them).
pub fn attribute<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("{name}=\"");
    let start = element
        .match_indices(&key)
        .find(|(at, _)| *at == 0 || element[..*at].ends_with(' '))?
        .0
        + key.len();
    let end = element[start..].find('"')? + start;
    Some(&element[start..end])
}

/// Every `<tag …/>` element of the SVG text, as its attributes.
pub fn elements<'a>(svg: &'a str, tag: &str) -> Vec<&'a str> {
    svg.split(&format!("<{tag} "))
        .skip(1)
        .map(|rest| rest.split('>').next().unwrap_or(""))
        .collect()
}

/// A numeric attribute of an element; panics when it is missing (a test's failure).
pub fn number(element: &str, name: &str) -> f64 {
    attribute(element, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no number {name} in {element}"))
}

/// The colour as plotters' SVG backend writes it.
pub fn hex(color: plotters::style::RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", color.0, color.1, color.2)
}

/// The filled rectangles of `color`: (x, y, width, height) in pixels.
pub fn rects(svg: &str, color: plotters::style::RGBColor) -> Vec<(f64, f64, f64, f64)> {
    let fill = hex(color);
    elements(svg, "rect")
        .into_iter()
        .filter(|r| attribute(r, "fill") == Some(fill.as_str()))
        .map(|r| {
            (
                number(r, "x"),
                number(r, "y"),
                number(r, "width"),
                number(r, "height"),
            )
        })
        .collect()
}

/// The texts of the SVG (plotters writes each on a line of its own).
pub fn texts(svg: &str) -> Vec<&str> {
    svg.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('<'))
        .collect()
}

/// Each `<text>` element with its content: (its attributes, the text).
pub fn labelled(svg: &str) -> Vec<(&str, &str)> {
    let mut lines = svg.lines().map(str::trim);
    let mut out = Vec::new();
    while let Some(line) = lines.next() {
        if let Some(attributes) = line.strip_prefix("<text ") {
            out.push((attributes, lines.next().unwrap_or("")));
        }
    }
    out
}

/// The value axis's scale read from its tick labels (right-aligned numbers): the pixel row of
/// 0 and pixels per unit, so a test can place a value without trusting what it tests.
pub fn value_scale(svg: &str) -> (f64, f64) {
    let ticks: Vec<(f64, f64)> = labelled(svg)
        .into_iter()
        .filter(|(a, _)| attribute(a, "text-anchor") == Some("end"))
        .filter_map(|(a, t)| Some((t.parse::<f64>().ok()?, number(a, "y"))))
        .collect();
    let zero = ticks.iter().find(|(v, _)| *v == 0.0).map(|t| t.1);
    let top = ticks
        .iter()
        .copied()
        .fold(None, |best: Option<(f64, f64)>, t| match best {
            Some(b) if b.0 >= t.0 => Some(b),
            _ => Some(t),
        });
    match (zero, top) {
        (Some(zero), Some((value, y))) if value > 0.0 => (zero, (zero - y) / value),
        _ => panic!("no value axis in {ticks:?}"),
    }
}
