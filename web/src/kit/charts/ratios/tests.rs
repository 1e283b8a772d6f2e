//! The ratio chart's tests: its series against the core's rows, and where its drawing puts
//! each point (natively, on the SVG backend).

use super::*;
use crate::kit::charts::palette::{MEASURED, RUN};
use crate::kit::charts::test_support::{assert_said, attribute, elements, hex, number, svg, Said};
use crate::kit::text::testing::assert_each_lang_uses_all;
use parallel_core::measured::measured_rows;
use parallel_core::runs::run_rows;

fn core_series() -> RatioSeries {
    ratio_series(
        &run_rows(Lang::En).unwrap(),
        &measured_rows(Lang::En).unwrap(),
    )
}

/// A series of `(kind, ratio)` points, ids `p0`, `p1`, ….
fn series(points: &[(Kind, f64)]) -> RatioSeries {
    RatioSeries {
        points: points
            .iter()
            .enumerate()
            .map(|(i, &(kind, ratio))| RatioPoint {
                id: format!("p{i}"),
                kind,
                ratio,
            })
            .collect(),
    }
}

/// Draws `data` on an SVG of `size`: the points' places and the SVG text.
fn drawn(data: &RatioSeries, size: (u32, u32), lang: Lang) -> (Vec<Option<(i32, i32)>>, String) {
    let mut at = Vec::new();
    let (ok, out) = svg(size, |area| {
        at = draw_points(area, data, lang)?;
        Ok(())
    });
    ok.unwrap();
    (at, out)
}

#[test]
fn the_series_is_every_row_of_both_tables_in_order() {
    let runs = run_rows(Lang::Zh).unwrap();
    let measured = measured_rows(Lang::Zh).unwrap();
    let data = ratio_series(&runs, &measured);
    assert_eq!(data.points.len(), runs.len() + measured.len());
    for (point, run) in data.points.iter().zip(&runs) {
        assert_eq!((point.id.as_str(), point.kind), (run.id, Kind::Run));
        assert_eq!(point.ratio, run.ratio);
    }
    for (point, row) in data.points[runs.len()..].iter().zip(&measured) {
        assert_eq!((&point.id, point.kind), (&row.id, Kind::Measured));
        assert_eq!(point.ratio, row.ratio);
    }
    // The language changes the rows' words, never their ratios.
    assert_eq!(data, core_series());
    // `data-series` is JSON with every point as it is.
    let json: serde_json::Value = serde_json::from_str(&data.json()).unwrap();
    let items = json.as_array().unwrap();
    assert_eq!(items.len(), data.points.len());
    for (item, point) in items.iter().zip(&data.points) {
        assert_eq!(item["id"], point.id.as_str());
        assert_eq!(item["kind"], point.kind.as_str());
        assert_eq!(item["ratio"].as_f64().unwrap(), point.ratio);
    }
    let odd = series(&[(Kind::Run, f64::NAN)]).json();
    assert_eq!(odd, r#"[{"id":"p0","kind":"run","ratio":null}]"#);
}

#[test]
fn slots_leave_a_gap_between_the_tables_and_the_axis_holds_every_ratio() {
    let data = series(&[
        (Kind::Run, 1.0),
        (Kind::Run, 1.0),
        (Kind::Measured, 1.0),
        (Kind::Measured, 1.0),
    ]);
    assert_eq!(slots(&data), [0.0, 1.0, 4.0, 5.0]);
    assert_eq!(y_range(&data), (0.25, 4.0));
    assert_eq!(y_range(&series(&[(Kind::Run, 5.0)])), (0.25, 8.0));
    assert_eq!(y_range(&series(&[(Kind::Run, 0.1)])), (0.0625, 4.0));
    assert_eq!(
        y_range(&series(&[(Kind::Run, f64::NAN), (Kind::Run, -1.0)])),
        (0.25, 4.0)
    );
}

#[test]
fn each_point_is_drawn_at_its_ratio_on_the_log_axis() {
    // 1/4, 1, 2 and 4: on a log axis from 1/4 to 4, 1 sits halfway and 2 three quarters up.
    let data = series(&[
        (Kind::Run, 0.25),
        (Kind::Run, 1.0),
        (Kind::Measured, 2.0),
        (Kind::Measured, 4.0),
    ]);
    let (at, out) = drawn(&data, (640, 360), Lang::En);
    let at: Vec<(i32, i32)> = at.into_iter().map(Option::unwrap).collect();
    let (bottom, one, two, top) = (at[0].1, at[1].1, at[2].1, at[3].1);
    assert!(bottom > one && one > two && two > top, "{at:?}");
    assert!((2 * one - bottom - top).abs() <= 1, "1 halfway: {at:?}");
    assert!(
        (4 * two - bottom - 3 * top).abs() <= 2,
        "2 at three quarters: {at:?}"
    );
    // Left to right in table order, the measured figures after a gap.
    assert!(at[0].0 < at[1].0 && at[1].0 < at[2].0 && at[2].0 < at[3].0);
    assert!(at[2].0 - at[1].0 > 2 * (at[1].0 - at[0].0), "{at:?}");
    // The marks are where the chart says: dots for runs, squares for measured figures.
    let dots: Vec<(i32, i32)> = elements(&out, "circle")
        .into_iter()
        .filter(|c| attribute(c, "fill") == Some(&hex(RUN)))
        .map(|c| (number(c, "cx") as i32, number(c, "cy") as i32))
        .collect();
    assert!(dots.contains(&at[0]) && dots.contains(&at[1]), "{dots:?}");
    let squares: Vec<(i32, i32)> = elements(&out, "rect")
        .into_iter()
        .filter(|r| attribute(r, "fill") == Some(&hex(MEASURED)))
        .map(|r| {
            let (x, y) = (number(r, "x"), number(r, "y"));
            let (w, h) = (number(r, "width"), number(r, "height"));
            ((x + w / 2.0) as i32, (y + h / 2.0) as i32)
        })
        .collect();
    // The legend's swatch is one more square.
    assert_eq!(squares.len(), 3, "{squares:?}");
    assert!(
        squares.contains(&at[2]) && squares.contains(&at[3]),
        "{squares:?}"
    );
    // The line lab = reference (the ink line across the chart, not the legend's) passes
    // through the points at 1.
    let lines: Vec<Vec<(i32, i32)>> = elements(&out, "polyline")
        .into_iter()
        .filter(|l| attribute(l, "stroke") == Some(&hex(INK)))
        .map(|l| {
            attribute(l, "points")
                .unwrap()
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        })
        .collect();
    let across = lines
        .iter()
        .find(|l| l.last().unwrap().0 - l[0].0 > 300)
        .unwrap();
    assert!(
        across.iter().all(|p| p.1 == one),
        "{across:?} against {one}"
    );
}

#[test]
fn the_core_rows_lie_on_one_log_scale() {
    let data = core_series();
    let (at, _) = drawn(&data, (1280, 720), Lang::Zh);
    assert_eq!(at.len(), data.points.len());
    let points: Vec<(f64, i32)> = data
        .points
        .iter()
        .zip(&at)
        .map(|(p, at)| (p.ratio.log10(), at.unwrap().1))
        .collect();
    // y is one affine function of log(ratio): fitted through the two extremes, every point
    // lies on it within a pixel.
    let low = points
        .iter()
        .copied()
        .fold((f64::INFINITY, 0), |a, b| if b.0 < a.0 { b } else { a });
    let high = points
        .iter()
        .copied()
        .fold((f64::NEG_INFINITY, 0), |a, b| if b.0 > a.0 { b } else { a });
    let slope = f64::from(high.1 - low.1) / (high.0 - low.0);
    assert!(slope < 0.0, "higher ratios are higher up");
    for (log, y) in points {
        let want = f64::from(low.1) + slope * (log - low.0);
        assert!(
            (f64::from(y) - want).abs() <= 1.0,
            "{log}: {y} against {want}"
        );
    }
}

#[test]
fn draws_in_both_languages() {
    let said = Said {
        en: &[
            "published runs",
            "measured on one H200",
            "lab = reference",
            "±20%",
            "log scale",
        ],
        zh: &["公开实测", "一张 H200 上实测", "对数坐标"],
        zh_summary: &["公开实测"],
    };
    assert_said(|a, d, l| draw(a, d, l), summary, &core_series(), said);
}

#[test]
fn every_sentence_is_filled_with_its_names() {
    let data = series(&[
        (Kind::Run, 0.79),
        (Kind::Run, 1.1),
        (Kind::Measured, 0.66),
        (Kind::Measured, 1.0),
        (Kind::Measured, 1.25),
    ]);
    assert_each_lang_uses_all(text::ALL, |lang| {
        summary(&data, lang);
        let _ = svg((640, 360), |area| draw(area, &data, lang));
    });
    assert_eq!(
        summary(&data, Lang::En),
        "Lab ÷ reference on a log scale: 2 published runs, ratios from 0.79 to 1.10, 1 of them \
         within ±20%; 3 figures measured on one H200, from 0.66 to 1.25, 1 within ±20%."
    );
}

#[test]
fn nothing_panics() {
    let empty = series(&[]);
    let (at, out) = drawn(&empty, (640, 360), Lang::En);
    assert!(at.is_empty() && out.contains("Nothing to draw"));
    let odd = series(&[
        (Kind::Run, f64::NAN),
        (Kind::Measured, 0.0),
        (Kind::Run, 1e300),
    ]);
    let (at, _) = drawn(&odd, (640, 360), Lang::Zh);
    assert_eq!((at[0], at[1]), (None, None));
    assert!(at[2].is_some());
    assert!(summary(&empty, Lang::Zh).contains('0'));
    let good = core_series();
    assert!(svg((0, 0), |area| draw(area, &good, Lang::En)).0.is_err());
    assert!(svg((64, 36), |area| draw(area, &good, Lang::En)).0.is_ok());
}
