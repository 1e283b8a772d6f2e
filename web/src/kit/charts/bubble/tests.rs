//! The bubble chart's tests: its series and its drawing, natively.

use super::*;
use crate::kit::charts::test_support::{assert_said, svg, Said};
use crate::kit::text::testing::assert_each_lang_uses_all;
use parallel_core::{PlanConfig, Schedule};

fn series(config: PlanConfig) -> BubbleSeries {
    bubble_series(&Plan::new(&config).unwrap())
}

/// TP 2 × PP 4 on 8 cards, m = 8: a 37.5% bubble.
fn tp2_pp4() -> BubbleSeries {
    series(PlanConfig {
        tp: 2,
        pp: 4,
        ..PlanConfig::default()
    })
}

/// 64 cards, TP 8 × PP 4, interleaved with v = 2.
fn interleaved() -> BubbleSeries {
    series(PlanConfig {
        gpus: 64,
        tp: 8,
        pp: 4,
        schedule: Schedule::Interleaved,
        virtual_stages: 2,
        ..PlanConfig::default()
    })
}

/// TP 2 × PP 4 on 8 cards and its chart drawn at `size` in `lang`.
fn tp2_pp4_drawn(size: (u32, u32), lang: Lang) -> (BubbleSeries, String) {
    let data = tp2_pp4();
    let (ok, out) = svg(size, |area| draw(area, &data, lang));
    ok.unwrap();
    (data, out)
}

#[test]
fn ratio_is_p_minus_one_over_m() {
    let data = tp2_pp4();
    assert_eq!((data.pp, data.virtual_stages, data.current_m), (4, 1, 8));
    assert_eq!(data.points.len(), 64);
    for (point, m) in data.points.iter().zip(1..=64u32) {
        assert_eq!(point.m, m);
        assert_eq!(point.bubble.ratio, 3.0 / f64::from(m));
        assert!((point.bubble.share - 3.0 / f64::from(m + 3)).abs() < 1e-12);
    }
    // SPEC §9: TP 2 × PP 4, m = 8: 37.5%.
    assert_eq!(format::percent(data.current.ratio), "37.5%");
    assert_eq!(data.points[7].bubble, data.current);
}

#[test]
fn interleaving_divides_by_v() {
    let data = interleaved();
    assert_eq!(data.virtual_stages, 2);
    assert_eq!(data.points[0].bubble.ratio, 1.5);
    assert_eq!(data.points[7].bubble, data.current);
    assert!(summary(&data, Lang::En).contains("p = 4, v = 2"));
}

#[test]
fn a_large_m_extends_the_range() {
    let data = series(PlanConfig {
        gpus: 64,
        tp: 8,
        pp: 8,
        micro_batches: 128,
        ..PlanConfig::default()
    });
    assert_eq!(data.points.len(), 128);
    assert_eq!(
        m_ticks(64),
        [1.0, 8.0, 16.0, 24.0, 32.0, 40.0, 48.0, 56.0, 64.0]
    );
    assert_eq!(m_ticks(128).len(), 9);
}

#[test]
fn draws_in_both_languages_with_the_current_m() {
    let said = Said {
        en: &["current m = 8", "37.5%", "27.3%", "log scale", "p = 4"],
        zh: &["当前 m = 8", "对数坐标"],
        zh_summary: &["占整步"],
    };
    assert_said(|a, d, l| draw(a, d, l), summary, &tp2_pp4(), said);
}

#[test]
fn every_sentence_is_filled_with_its_names() {
    let plain = tp2_pp4();
    let interleaved = interleaved();
    assert_each_lang_uses_all(text::ALL, |lang| {
        for data in [&plain, &interleaved] {
            summary(data, lang);
            let _ = svg((640, 360), |area| draw(area, data, lang));
        }
    });
    assert_eq!(
        summary(&plain, Lang::Zh),
        "流水线气泡（p = 4）：空等 ÷ 计算从 m = 1 的 300.0% 降到 m = 64 的 4.7%，\
         占整步时间从 75.0% 降到 4.5%。当前 m = 8：空等 ÷ 计算 37.5%，占整步 27.3%。"
    );
}

#[test]
fn one_stage_has_no_bubble_and_nothing_panics() {
    let data = series(PlanConfig::lesson_8_gpus());
    assert_eq!(data.pp, 1);
    assert!(data.points.iter().all(|p| p.bubble.ratio == 0.0));
    let (ok, en) = svg((640, 360), |area| draw(area, &data, Lang::En));
    ok.unwrap();
    assert!(en.contains("no bubble"));
    assert_eq!(summary(&data, Lang::Zh), no_bubble_text(Lang::Zh));

    let good = tp2_pp4();
    let empty = BubbleSeries {
        points: vec![],
        ..good.clone()
    };
    assert!(svg((640, 360), |area| draw(area, &empty, Lang::En))
        .0
        .is_ok());
    let odd = BubbleSeries {
        current_m: 5000,
        ..good.clone()
    };
    assert!(svg((640, 360), |area| draw(area, &odd, Lang::En)).0.is_ok());
    let nan = BubbleSeries {
        current: Bubble {
            ratio: f64::NAN,
            share: f64::NAN,
        },
        ..good.clone()
    };
    assert!(svg((640, 360), |area| draw(area, &nan, Lang::Zh)).0.is_ok());
    assert!(svg((0, 0), |area| draw(area, &good, Lang::En)).0.is_err());
    assert!(svg((64, 36), |area| draw(area, &good, Lang::En)).0.is_ok());
}

/// What the SVG draws: the current m's two points at their percents on the log axis (read
/// from its labels), the ratio above the share, and the share's curve falling as m grows.
#[test]
fn the_current_points_sit_at_their_percents_and_the_curve_falls() {
    use crate::kit::charts::palette::{INK, PP};
    use crate::kit::charts::test_support::{attribute, elements, hex, labelled, number};
    let (data, en) = tp2_pp4_drawn((1280, 720), Lang::En);
    // The log axis: (log10 of the percent, pixel row) of each "N%" label.
    let ticks: Vec<(f64, f64)> = labelled(&en)
        .into_iter()
        .filter(|(a, _)| attribute(a, "text-anchor") == Some("end"))
        .filter_map(|(a, t)| {
            Some((
                t.strip_suffix('%')?.parse::<f64>().ok()?.log10(),
                number(a, "y"),
            ))
        })
        .collect();
    assert!(ticks.len() >= 3, "{ticks:?}");
    let (low, high) = (ticks[0], ticks[ticks.len() - 1]);
    let row =
        |percent: f64| low.1 + (percent.log10() - low.0) * (high.1 - low.1) / (high.0 - low.0);
    let circle = |color| {
        let fill = hex(color);
        elements(&en, "circle")
            .into_iter()
            .filter(|c| attribute(c, "fill") == Some(fill.as_str()))
            .map(|c| (number(c, "cx"), number(c, "cy")))
            .collect::<Vec<_>>()
    };
    let ratio = circle(INK);
    assert_eq!(ratio.len(), 1, "{ratio:?}");
    assert!(
        (ratio[0].1 - row(data.current.ratio * 100.0)).abs() <= 1.5,
        "{ratio:?}"
    );
    // The share's point: the one of its colour inside the plot (the legend's sits in the top).
    let share: Vec<_> = circle(PP)
        .into_iter()
        .filter(|c| (c.0 - ratio[0].0).abs() < 0.5)
        .collect();
    assert_eq!(share.len(), 1);
    assert!(
        (share[0].1 - row(data.current.share * 100.0)).abs() <= 1.5,
        "{share:?}"
    );
    assert!(
        share[0].1 > ratio[0].1,
        "the share (27.3%) lies below the ratio (37.5%)"
    );
    // The share's curve: its points' rows grow (the curve falls) from left to right.
    let stroke = hex(PP);
    let curve = elements(&en, "polyline")
        .into_iter()
        .filter(|p| attribute(p, "stroke") == Some(stroke.as_str()))
        .filter_map(|p| attribute(p, "points"))
        .max_by_key(|points| points.len())
        .unwrap_or_default();
    let rows: Vec<f64> = curve
        .split_whitespace()
        .filter_map(|xy| xy.split(',').nth(1)?.parse().ok())
        .collect();
    assert!(
        rows.len() > 10 && rows.windows(2).all(|w| w[1] >= w[0]),
        "{rows:?}"
    );
}
