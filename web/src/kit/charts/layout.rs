//! Layout shared by the charts: the design grid and its scale, text styles, axis ticks, the
//! legend row and labels placed in pixels. Nothing here computes a figure of the lesson; it
//! only decides where things go.

use std::fmt::Display;
use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::palette;

/// Width and height of the design grid every chart is laid out on (16:9).
pub const DESIGN: (f64, f64) = (640.0, 360.0);

/// The smallest area a chart is drawn on, in pixels; below it `draw` returns an error.
const MIN_PIXELS: (u32, u32) = (64, 36);

/// Plotters' errors, as the text the page shows.
pub fn fail<E: Display>(error: E) -> String {
    error.to_string()
}

/// Design units → pixels of the area drawn on.
#[derive(Clone, Copy, Debug)]
pub struct Scale(f64);

impl Scale {
    /// The scale of `area`, or an error when it is too small to hold a chart.
    pub fn of<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>) -> Result<Scale, String> {
        let (w, h) = area.dim_in_pixel();
        if w < MIN_PIXELS.0 || h < MIN_PIXELS.1 {
            return Err(format!("the chart area is too small ({w}×{h} pixels)"));
        }
        Ok(Scale(
            (f64::from(w) / DESIGN.0).min(f64::from(h) / DESIGN.1),
        ))
    }

    /// A length in pixels.
    pub fn px(self, design: f64) -> i32 {
        (design * self.0).round() as i32
    }

    /// A line width in pixels, at least 1.
    pub fn stroke(self, design: f64) -> u32 {
        (design * self.0).round().max(1.0) as u32
    }

    /// A text style of `size` design units.
    pub fn text(self, size: f64, color: &RGBColor) -> TextStyle<'static> {
        (FontFamily::SansSerif, size * self.0)
            .into_font()
            .color(color)
    }

    /// A bold text style of `size` design units.
    pub fn bold(self, size: f64, color: &RGBColor) -> TextStyle<'static> {
        (FontFamily::SansSerif, size * self.0, FontStyle::Bold)
            .into_font()
            .color(color)
    }
}

/// Anchors a text style: `h` and `v` say which point of the text sits on its coordinate.
pub fn anchored(style: TextStyle<'static>, h: HPos, v: VPos) -> TextStyle<'static> {
    style.pos(Pos::new(h, v))
}

/// Where a label goes: a pixel position in backend coordinates (as returned by
/// `ChartContext::backend_coord`), shifted by `(dx, dy)` pixels, and which point of the text
/// sits there.
#[derive(Clone, Copy)]
pub struct Place {
    /// The anchor point in backend pixels.
    pub at: (i32, i32),
    /// A shift in pixels.
    pub shift: (i32, i32),
    /// The text's horizontal anchor.
    pub h: HPos,
    /// The text's vertical anchor.
    pub v: VPos,
}

/// Draws `text` on `area` at `place`; with `halo`, on a patch of paper so that lines under it
/// do not cross it.
pub fn label<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    place: Place,
    style: TextStyle<'static>,
    halo: bool,
) -> Result<(), String> {
    let base = area.get_base_pixel();
    let x = place.at.0 - base.0 + place.shift.0;
    let y = place.at.1 - base.1 + place.shift.1;
    let style = anchored(style, place.h, place.v);
    if halo {
        let (w, h) = area.estimate_text_size(text, &style).map_err(fail)?;
        let (w, h) = (w as i32, h as i32);
        let x0 = match place.h {
            HPos::Left => x,
            HPos::Center => x - w / 2,
            HPos::Right => x - w,
        };
        let y0 = match place.v {
            VPos::Top => y,
            VPos::Center => y - h / 2,
            VPos::Bottom => y - h,
        };
        let pad = (h / 6).max(1);
        area.draw(&Rectangle::new(
            [(x0 - pad, y0 - pad), (x0 + w + pad, y0 + h + pad)],
            palette::PAPER.mix(0.85).filled(),
        ))
        .map_err(fail)?;
    }
    area.draw(&Text::new(text, (x, y), style)).map_err(fail)
}

/// How a legend entry is drawn.
#[derive(Clone, Copy, Debug)]
pub enum Mark {
    /// A filled square.
    Swatch(RGBColor),
    /// A solid line.
    Line(RGBColor),
    /// A dashed line.
    Dashed(RGBColor),
    /// A dot.
    Dot(RGBColor),
}

/// Draws a row of legend entries from the top left of `area`, then `note` right-aligned.
pub fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    scale: Scale,
    entries: &[(Mark, String)],
    note: Option<&str>,
) -> Result<(), String> {
    let s = scale;
    let style = anchored(s.text(13.0, &palette::INK), HPos::Left, VPos::Center);
    let y = s.px(16.0);
    let mut x = s.px(12.0);
    for (mark, label) in entries {
        let (x0, x1) = (x, x + s.px(16.0));
        match *mark {
            Mark::Swatch(color) => area.draw(&Rectangle::new(
                [
                    (x0 + s.px(2.0), y - s.px(6.0)),
                    (x1 - s.px(2.0), y + s.px(6.0)),
                ],
                color.filled(),
            )),
            Mark::Line(color) => area.draw(&PathElement::new(
                vec![(x0, y), (x1, y)],
                color.stroke_width(s.stroke(2.5)),
            )),
            Mark::Dashed(color) => {
                let style = color.stroke_width(s.stroke(2.0));
                area.draw(&PathElement::new(vec![(x0, y), (x0 + s.px(6.0), y)], style))
                    .and_then(|()| {
                        area.draw(&PathElement::new(vec![(x1 - s.px(6.0), y), (x1, y)], style))
                    })
            }
            Mark::Dot(color) => area.draw(&Circle::new(
                (x0 + s.px(8.0), y),
                s.stroke(4.0),
                color.filled(),
            )),
        }
        .map_err(fail)?;
        let text_x = x1 + s.px(5.0);
        area.draw(&Text::new(label.as_str(), (text_x, y), style.clone()))
            .map_err(fail)?;
        let (width, _) = area.estimate_text_size(label, &style).map_err(fail)?;
        x = text_x + width as i32 + s.px(14.0);
    }
    if let Some(note) = note {
        let (w, _) = area.dim_in_pixel();
        let style = anchored(s.text(12.0, &palette::MUTED), HPos::Right, VPos::Center);
        area.draw(&Text::new(note, (w as i32 - s.px(12.0), y), style))
            .map_err(fail)?;
    }
    Ok(())
}

/// A message in the middle of `area`, for a series with nothing to draw.
pub fn message<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
) -> Result<(), String> {
    let s = Scale::of(area)?;
    area.fill(&palette::PAPER).map_err(fail)?;
    let (w, h) = area.dim_in_pixel();
    let style = anchored(s.text(15.0, &palette::MUTED), HPos::Center, VPos::Center);
    area.draw(&Text::new(text, (w as i32 / 2, h as i32 / 2), style))
        .map_err(fail)
}

/// Where `count` category bars sit on an x axis running over `slots` slots, centred.
/// Returns the axis range and each bar's centre.
pub fn category_axis(count: usize, min_slots: usize) -> (Range<f64>, Vec<f64>) {
    let slots = count.max(min_slots).max(1) as f64;
    let offset = (slots - count as f64) / 2.0;
    let centres = (0..count).map(|i| offset + i as f64 + 0.5).collect();
    (0.0..slots, centres)
}

/// A linear axis over `range` with exactly the ticks given (plotters' own f64 axis picks its
/// ticks and, wrapped in `with_key_points`, loses its label formatter).
#[derive(Clone, Debug)]
pub struct Ticked {
    /// The axis range.
    pub range: Range<f64>,
    /// Where ticks, labels and grid lines go.
    pub ticks: Vec<f64>,
}

impl Ticked {
    /// An axis over `range` with `ticks`.
    pub fn new(range: Range<f64>, ticks: Vec<f64>) -> Ticked {
        Ticked { range, ticks }
    }
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = self.range.end - self.range.start;
        let t = (value - self.range.start) / span;
        if !(span.is_finite() && span != 0.0 && t.is_finite()) {
            return limit.0;
        }
        // `as` saturates: an absurd value lands far outside, never panics.
        limit.0 + (f64::from(limit.1 - limit.0) * t).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

/// Round ticks from 0 to at least `max`: steps of 1, 2 or 5 × 10^k, about `target` of them.
/// Returns the ticks and the axis end (the last tick).
pub fn linear_ticks(max: f64, target: usize) -> (Vec<f64>, f64) {
    if !(max.is_finite() && max > 0.0) {
        return (vec![0.0, 1.0], 1.0);
    }
    let raw = max / target.max(1) as f64;
    let power = 10f64.powi(raw.log10().floor() as i32);
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|step| *step >= raw)
        .unwrap_or(10.0 * power);
    let count = (max / step).ceil() as usize;
    let ticks: Vec<f64> = (0..=count).map(|i| i as f64 * step).collect();
    let end = ticks.last().copied().unwrap_or(max);
    (ticks, end)
}

/// Ticks of a log axis over at least `lo..hi` (both > 0): the range is snapped out to 1, 2 or
/// 5 × 10^k and spans at least one decade; the ticks are the decades inside it, with 2 and 5
/// in each decade when it spans three decades or fewer. Returns each tick with its decimals
/// for printing, and the range.
pub fn log_ticks(lo: f64, hi: f64) -> (Vec<(f64, usize)>, Range<f64>) {
    const STEPS: [f64; 4] = [1.0, 2.0, 5.0, 10.0];
    let lo = if lo.is_finite() && lo > 0.0 { lo } else { 1.0 };
    let hi = if hi.is_finite() && hi > lo {
        hi
    } else {
        lo * 10.0
    };
    let lo_exp = lo.log10().floor() as i32;
    let hi_exp = hi.log10().floor() as i32;
    let start = STEPS[..3]
        .iter()
        .rev()
        .map(|m| m * 10f64.powi(lo_exp))
        .find(|v| *v <= lo * (1.0 + 1e-9))
        .unwrap_or(10f64.powi(lo_exp));
    let end = STEPS
        .iter()
        .map(|m| m * 10f64.powi(hi_exp))
        .find(|v| *v >= hi * (1.0 - 1e-9))
        .unwrap_or(10f64.powi(hi_exp + 1))
        .max(start * 10.0);
    let with_halves = (end / start).log10() <= 3.0 + 1e-9;
    let mut ticks = Vec::new();
    for exp in lo_exp..=hi_exp + 1 {
        let decimals = usize::try_from(-exp).unwrap_or(0);
        let mantissas: &[f64] = if with_halves {
            &STEPS[..3]
        } else {
            &STEPS[..1]
        };
        for m in mantissas {
            let value = m * 10f64.powi(exp);
            if value >= start * (1.0 - 1e-9) && value <= end * (1.0 + 1e-9) {
                ticks.push((value, decimals));
            }
        }
    }
    (ticks, start..end)
}

/// A tick value with its decimals: 0.05 → "0.05", 20 → "20".
pub fn tick_text(value: f64, decimals: usize) -> String {
    format!("{value:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ticks_are_round() {
        assert_eq!(
            linear_ticks(447.2, 5),
            (vec![0.0, 100.0, 200.0, 300.0, 400.0, 500.0], 500.0)
        );
        assert_eq!(linear_ticks(0.0, 5), (vec![0.0, 1.0], 1.0));
        assert_eq!(linear_ticks(f64::NAN, 5).1, 1.0);
    }

    #[test]
    fn log_ticks_cover_the_range() {
        let text = |ticks: &[(f64, usize)]| -> Vec<String> {
            ticks.iter().map(|&(v, d)| tick_text(v, d)).collect()
        };
        // Four decades: decades only.
        let (ticks, range) = log_ticks(0.07, 450.9);
        assert_eq!(range, 0.05..500.0);
        assert_eq!(text(&ticks), ["0.1", "1", "10", "100"]);
        let (ticks, range) = log_ticks(0.03, 0.9);
        assert_eq!(range, 0.02..1.0);
        assert_eq!(text(&ticks), ["0.02", "0.05", "0.1", "0.2", "0.5", "1"]);
        // A range inside one decade still spans one.
        assert_eq!(log_ticks(2.0, 3.0).1, 2.0..20.0);
        // Nonsense in, an axis out.
        assert_eq!(log_ticks(0.0, f64::NAN).1, 1.0..10.0);
    }

    #[test]
    fn categories_are_centred() {
        assert_eq!(category_axis(2, 4), (0.0..4.0, vec![1.5, 2.5]));
        assert_eq!(
            category_axis(5, 4),
            (0.0..5.0, vec![0.5, 1.5, 2.5, 3.5, 4.5])
        );
        assert_eq!(category_axis(0, 0).0, 0.0..1.0);
    }
}
