//! The memory chart's tests: its series and its drawing, natively.

use super::*;
use crate::kit::charts::test_support::{assert_said, svg, Said};
use crate::kit::text::testing::assert_each_lang_uses_all;
use parallel_core::{lesson, InlineModel, ModelChoice};

fn plan(config: PlanConfig) -> Plan {
    Plan::new(&config).unwrap()
}

#[test]
fn lesson_start_has_the_four_zero_stages() {
    let series = memory_series(&plan(PlanConfig::lesson_8_gpus()));
    let states: Vec<String> = series
        .bars
        .iter()
        .map(|b| b.states.total().to_string())
        .collect();
    assert_eq!(states, ["444.5 GB", "152.8 GB", "104.2 GB", "55.6 GB"]);
    assert_eq!(
        series.bars.iter().map(|b| b.zero).collect::<Vec<_>>(),
        [0, 1, 2, 3]
    );
    assert_eq!(series.current_zero, 3);
    assert_eq!(series.capacity.to_string(), "80.0 GB");
    // Activations do not depend on ZeRO; the current bar is the plan's own memory.
    assert!(series
        .bars
        .iter()
        .all(|b| b.activations.to_string() == "2.7 GB"));
    assert_eq!(series.bars[3].total.to_string(), "58.2 GB");
    assert_eq!(
        series.bars.iter().map(|b| b.fits).collect::<Vec<_>>(),
        [false, false, false, true]
    );
}

#[test]
fn variants_are_the_core_s_plans() {
    let config = PlanConfig {
        gpus: 64,
        tp: 8,
        pp: 2,
        zero: 1,
        ..PlanConfig::default()
    };
    let series = memory_series(&plan(config.clone()));
    for bar in &series.bars {
        let expected = plan(PlanConfig {
            zero: bar.zero,
            ..config.clone()
        });
        assert_eq!(bar.states, expected.model_states());
        assert_eq!(bar.total, expected.memory().total);
    }
    assert_eq!(series.current_zero, 1);
}

#[test]
fn configs_round_trip_for_presets_and_inline_models() {
    // SPEC §8's inline example, and one counted from its shape (no `params`).
    let example = InlineModel {
        params: Some(7_500_000_000),
        hidden: Some(4096),
        layers: Some(32),
        heads: Some(32),
        kv_heads: Some(32),
        head_dim: Some(128),
        ffn: Some(16_384),
        vocab: Some(32_000),
        ..InlineModel::default()
    };
    let counted = InlineModel {
        params: None,
        kv_heads: None,
        head_dim: None,
        ..example.clone()
    };
    let inline = |model: InlineModel| PlanConfig {
        model: ModelChoice::Inline(model),
        zero: 2,
        ..PlanConfig::default()
    };
    let configs = [
        PlanConfig::lesson_8_gpus(),
        PlanConfig::lesson_64_gpus(),
        PlanConfig {
            gpu_memory_gb: 141.0,
            nvlink_gbps: 450.0,
            ib_gbps: 25.0,
            ..PlanConfig::default()
        },
        lesson::deepseek_v3_plan(),
        inline(example),
        inline(counted),
    ];
    for config in configs {
        let p = plan(config);
        assert_eq!(memory_series(&p).bars.len(), 4);
    }
}

#[test]
fn draws_in_both_languages() {
    let series = memory_series(&plan(PlanConfig::lesson_8_gpus()));
    let said = Said {
        en: &["ZeRO-3", "58.2 GB", "current"],
        zh: &["当前", "优化器状态"],
        zh_summary: &["放得下"],
    };
    assert_said(|a, d, l| draw(a, d, l), summary, &series, said);
}

#[test]
fn every_sentence_is_filled_with_its_names() {
    // ZeRO-1 on 8 cards: ZeRO-0 does not fit, the current stage does not either, 3 fits.
    let over = memory_series(&plan(PlanConfig {
        zero: 1,
        ..PlanConfig::lesson_8_gpus()
    }));
    let fits = memory_series(&plan(PlanConfig::lesson_8_gpus()));
    assert_each_lang_uses_all(text::ALL, |lang| {
        for data in [&over, &fits] {
            summary(data, lang);
            let _ = svg((640, 360), |area| draw(area, data, lang));
        }
    });
    assert!(summary(&fits, Lang::En).ends_with(
        "ZeRO-2 106.9 GB (does not fit), ZeRO-3 58.2 GB (fits, current). Card capacity 80.0 GB."
    ));
    assert!(summary(&over, Lang::Zh).contains("ZeRO-1 155.5 GB（放不下，当前），"));
}

#[test]
fn degenerate_inputs_do_not_panic() {
    let empty = MemorySeries {
        bars: vec![],
        capacity: Bytes::from_gb(80.0),
        current_zero: 0,
    };
    assert!(svg((640, 360), |area| draw(area, &empty, Lang::En))
        .0
        .is_ok());
    let series = memory_series(&plan(PlanConfig::lesson_8_gpus()));
    assert!(svg((0, 0), |area| draw(area, &series, Lang::En)).0.is_err());
    assert!(svg((10, 500), |area| draw(area, &series, Lang::Zh))
        .0
        .is_err());
    let odd = MemorySeries {
        capacity: Bytes::new(f64::NAN),
        ..series.clone()
    };
    let _ = svg((640, 360), |area| draw(area, &odd, Lang::En));
    let zero = MemorySeries {
        capacity: Bytes::new(0.0),
        bars: vec![MemoryBar {
            total: Bytes::new(0.0),
            ..series.bars[0].clone()
        }],
        current_zero: 0,
    };
    assert!(svg((64, 36), |area| draw(area, &zero, Lang::En)).0.is_ok());
}

/// What the SVG draws: each ZeRO stage's bar as four stacked parts whose heights are their
/// bytes on one scale from the axis, the dashed capacity line at the capacity on that scale,
/// and each bar's total and name under it.
#[test]
fn the_bars_the_capacity_line_and_the_labels_are_the_series() {
    // A long sequence with nothing recomputed: activations as tall as the states.
    let long = PlanConfig {
        seq_len: 65_536,
        recompute: parallel_core::Recompute::None,
        ..PlanConfig::lesson_8_gpus()
    };
    for config in [PlanConfig::lesson_8_gpus(), long] {
        drawn_as_the_series(&memory_series(&plan(config)));
    }
}

fn drawn_as_the_series(series: &MemorySeries) {
    use crate::kit::charts::palette::{ACTIVATIONS, BAD, GRADIENTS, OPTIMIZER, WEIGHTS};
    use crate::kit::charts::test_support::{attribute, elements, hex, rects, texts, value_scale};
    let (ok, en) = svg((1280, 720), |area| draw(area, series, Lang::En));
    ok.unwrap();
    // The legend's swatches sit in the top 32 px; the bars below.
    let below = |color| -> Vec<(f64, f64, f64, f64)> {
        rects(&en, color)
            .into_iter()
            .filter(|r| r.1 > 32.0)
            .collect()
    };
    let parts = [WEIGHTS, GRADIENTS, OPTIMIZER, ACTIVATIONS].map(below);
    assert!(
        parts.iter().all(|p| p.len() == series.bars.len()),
        "{parts:?}"
    );
    // The scale, from the axis's labels.
    let (axis, per_gb) = value_scale(&en);
    for (i, bar) in series.bars.iter().enumerate() {
        let values = [
            bar.states.weights,
            bar.states.gradients,
            bar.states.optimizer,
            bar.activations,
        ];
        let mut base = axis;
        for (part, bytes) in parts.iter().zip(values) {
            let (x, y, width, height) = part[i];
            assert!(
                (height - bytes.gb() * per_gb).abs() <= 1.5,
                "ZeRO-{}: {height} px for {bytes}",
                bar.zero
            );
            assert!(
                (y + height - base).abs() <= 1.5,
                "ZeRO-{} parts stack",
                bar.zero
            );
            assert!((x - parts[0][i].0).abs() < 0.5 && (width - parts[0][i].2).abs() < 0.5);
            base = y;
        }
    }
    // Bars go left to right in ZeRO order.
    assert!(parts[0].windows(2).all(|w| w[0].0 < w[1].0));
    // The capacity line: dashes in the capacity's colour, all at the capacity's height.
    let bad = hex(BAD);
    let dashes: Vec<f64> = elements(&en, "polyline")
        .into_iter()
        .filter(|p| attribute(p, "stroke") == Some(bad.as_str()))
        .filter_map(|p| {
            attribute(p, "points")?
                .split([' ', ','])
                .nth(1)?
                .parse()
                .ok()
        })
        .filter(|y: &f64| *y > 32.0)
        .collect();
    assert!(dashes.len() > 10, "{dashes:?}");
    let cap = axis - series.capacity.gb() * per_gb;
    assert!(
        dashes.iter().all(|y| (y - cap).abs() <= 1.5),
        "{cap}: {dashes:?}"
    );
    // Each bar's total and stage, as the labels read.
    let words = texts(&en);
    for bar in &series.bars {
        assert!(
            words.contains(&format::bytes(bar.total).as_str()),
            "{} in {words:?}",
            bar.total
        );
        assert!(
            words
                .iter()
                .any(|w| w.starts_with(&format!("ZeRO-{}", bar.zero))),
            "{words:?}"
        );
    }
    assert!(words.contains(&"card 80.0 GB"), "{words:?}");
}
