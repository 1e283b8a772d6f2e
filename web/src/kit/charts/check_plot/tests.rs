//! The check plot's tests: its series against the comparison's rows, and where its drawing puts
//! each point (natively, on the SVG backend): above the diagonal where the lab says more.

use super::*;
use crate::kit::charts::test_support::{has_cjk, svg};
use crate::kit::text::testing::assert_all_used;
use parallel_core::check::CheckRow;
use parallel_core::check::StageLayers;
use parallel_core::hardware::Hardware;

/// A row of `figure` with the lab's `predicted` and the measured `eager` and `compiled`.
fn row(figure: Figure, predicted: f64, eager: Option<f64>, compiled: Option<f64>) -> CheckRow {
    CheckRow {
        figure,
        label: figure.label(Lang::En),
        unit: figure.unit(),
        predicted: Some(predicted),
        eager,
        compiled,
        ratio_eager: eager.map(|m| predicted / m),
        ratio_compiled: compiled.map(|m| predicted / m),
        note: String::new(),
    }
}

fn comparison(rows: Vec<CheckRow>) -> Comparison {
    let layers = StageLayers {
        total: 16,
        moe: 0,
        full_attention: 16,
    };
    Comparison {
        card: "NVIDIA H200".into(),
        predicted_for: Hardware::H200,
        card_known: true,
        software: "PyTorch 2.11.0, CUDA 13.0".into(),
        date: "2026-12-04".into(),
        method: "test".into(),
        rank: 0,
        stage: 0,
        built: layers,
        stage_layers: 16,
        held: 2,
        rows,
        not_built: Vec::new(),
        compiled_error: None,
    }
}

fn sample() -> Comparison {
    comparison(vec![
        // The lab faster than measured (below the diagonal), then slower (above).
        row(Figure::LayerTime, 0.010, Some(0.020), Some(0.005)),
        // Two figures where the lab and the measurement agree: on the diagonal.
        row(Figure::ActivationPerLayer, 0.5e9, Some(0.5e9), None),
        row(Figure::ActivationInFlight, 4e9, Some(4e9), None),
        row(Figure::Peak, 40e9, Some(20e9), Some(80e9)),
        // No measurement: no point.
        row(Figure::States, 10e9, None, None),
    ])
}

#[test]
fn every_measured_figure_beside_a_lab_figure_is_a_point_with_the_core_s_ratio() {
    let c = sample();
    let data = check_series(&c);
    let got: Vec<(Figure, Mode)> = data.points.iter().map(|p| (p.figure, p.mode)).collect();
    assert_eq!(
        got,
        [
            (Figure::LayerTime, Mode::Eager),
            (Figure::LayerTime, Mode::Compiled),
            (Figure::ActivationPerLayer, Mode::Eager),
            (Figure::ActivationInFlight, Mode::Eager),
            (Figure::Peak, Mode::Eager),
            (Figure::Peak, Mode::Compiled),
        ]
    );
    for p in &data.points {
        let r = c.rows.iter().find(|r| r.figure == p.figure).unwrap();
        let (measured, ratio) = match p.mode {
            Mode::Eager => (r.eager, r.ratio_eager),
            Mode::Compiled => (r.compiled, r.ratio_compiled),
        };
        assert_eq!((Some(p.measured), Some(p.ratio)), (measured, ratio));
        assert_eq!(Some(p.predicted), r.predicted);
    }
    let json: serde_json::Value = serde_json::from_str(&data.json()).unwrap();
    assert_eq!(json.as_array().unwrap().len(), data.points.len());
    assert_eq!(json[1]["figure"], "layer_time");
    assert_eq!(json[1]["mode"], "compiled");
    assert_eq!(json[1]["ratio"].as_f64().unwrap(), 2.0);
    // A zero or missing figure has no place on a log axis.
    let odd = comparison(vec![row(Figure::Peak, 1e9, Some(0.0), None)]);
    assert!(check_series(&odd).points.is_empty());
}

/// Which side of the line through `a` and `b` (pixels, y down) `p` lies on: > 0 above it.
fn above(a: (i32, i32), b: (i32, i32), p: (i32, i32)) -> i64 {
    let (ax, ay, bx, by, px, py) = (
        i64::from(a.0),
        i64::from(a.1),
        i64::from(b.0),
        i64::from(b.1),
        i64::from(p.0),
        i64::from(p.1),
    );
    (bx - ax) * (ay - py) - (by - ay) * (ax - px)
}

#[test]
fn each_point_lies_above_the_diagonal_exactly_when_the_lab_says_more() {
    let data = check_series(&sample());
    let (ok, out) = svg((640, 360), |area| {
        let at = draw_points(area, &data, Lang::En)?;
        assert_eq!(at.len(), data.points.len());
        let place = |f: Figure, m: Mode| at.iter().find(|(g, n, _)| (*g, *n) == (f, m)).unwrap().2;
        // Time on the left panel, memory on the right.
        let time = place(Figure::LayerTime, Mode::Eager);
        let (on_a, on_b) = (
            place(Figure::ActivationPerLayer, Mode::Eager),
            place(Figure::ActivationInFlight, Mode::Eager),
        );
        assert!(time.0 < 320 && on_a.0 > 320, "{at:?}");
        // The diagonal runs at about 45° (a square panel): up about as far as it goes across.
        let (across, up) = (on_b.0 - on_a.0, on_a.1 - on_b.1);
        assert!(across > 0 && (across - up).abs() * 10 <= across, "{at:?}");
        // 40 GB against 20 GB measured lies above it, against 80 GB below it.
        assert!(
            above(on_a, on_b, place(Figure::Peak, Mode::Eager)) > 0,
            "{at:?}"
        );
        assert!(
            above(on_a, on_b, place(Figure::Peak, Mode::Compiled)) < 0,
            "{at:?}"
        );
        // Time: the same lab figure against twice and half of it, level, twice to the right.
        let (fast, slow) = (time, place(Figure::LayerTime, Mode::Compiled));
        assert!(fast.0 > slow.0 && fast.1 == slow.1, "{fast:?} {slow:?}");
        Ok(())
    });
    ok.unwrap();
    assert!(
        out.contains("Layer time") && out.contains("Memory"),
        "{out}"
    );
    assert!(out.contains("(GB)") && out.contains("(ms)"));
}

#[test]
fn every_figure_has_its_panel() {
    for figure in Figure::ALL {
        let panel = Panel::of(figure.unit());
        let expected = if figure == Figure::LayerTime {
            Panel::Time
        } else {
            Panel::Memory
        };
        assert_eq!(panel, Some(expected), "{figure:?}");
    }
    for unit in [Unit::Ratio, Unit::Count, Unit::TokensPerSecond] {
        assert_eq!(
            Panel::of(unit),
            None,
            "{unit:?} is no figure of a measured file"
        );
    }
    // So no row of a comparison is left out of the chart for its unit.
    let every = check_series(&comparison(
        Figure::ALL
            .iter()
            .map(|&f| row(f, 2.0, Some(1.0), Some(4.0)))
            .collect(),
    ));
    assert_eq!(every.points.len(), 2 * Figure::ALL.len());
}

#[test]
fn one_unit_takes_the_whole_chart_and_none_says_so() {
    let memory = check_series(&comparison(vec![
        row(Figure::States, 20e9, Some(20e9), None),
        row(Figure::Peak, 100e9, Some(200e9), None),
    ]));
    let (ok, out) = svg((640, 360), |area| {
        let at = draw_points(area, &memory, Lang::En)?;
        // One square panel in the middle: the points on both sides of the middle.
        assert!(at[0].2 .0 < 320 && at[1].2 .0 > 320, "{at:?}");
        Ok(())
    });
    ok.unwrap();
    assert!(!out.contains("(ms)"), "no time panel");
    let empty = CheckSeries::default();
    let (ok, out) = svg((640, 360), |area| draw(area, &empty, Lang::Zh));
    ok.unwrap();
    assert!(out.contains("没有"), "{out}");
}

#[test]
fn the_summary_reads_in_each_language() {
    let data = check_series(&sample());
    assert_all_used(text::ALL, || {
        let en = summary(&data, Lang::En);
        assert!(!has_cjk(&en), "{en}");
        assert!(
            en.contains("6 points") && en.contains("0.50×") && en.contains("2.00×"),
            "{en}"
        );
        assert!(has_cjk(&summary(&data, Lang::Zh)));
        assert!(!has_cjk(&summary(&CheckSeries::default(), Lang::En)));
        summary(&CheckSeries::default(), Lang::Zh);
    });
    // No CJK in the English drawing.
    let (ok, out) = svg((640, 360), |area| draw(area, &data, Lang::En));
    ok.unwrap();
    assert!(!has_cjk(&out));
}
