//! The memory chart's tests: its series and its drawing, natively.

use super::*;
use crate::charts::test_support::{has_cjk, svg};
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
    let (ok, en) = svg((640, 360), |area| draw(area, &series, Lang::En));
    ok.unwrap();
    assert!(en.contains("ZeRO-3") && en.contains("58.2 GB") && en.contains("current"));
    assert!(!has_cjk(&en), "English chart holds Chinese text");
    assert!(!has_cjk(&summary(&series, Lang::En)));
    let (ok, zh) = svg((1280, 720), |area| draw(area, &series, Lang::Zh));
    ok.unwrap();
    assert!(zh.contains("当前") && zh.contains("优化器状态"));
    assert!(summary(&series, Lang::Zh).contains("放得下"));
}

#[test]
fn every_sentence_is_filled_with_its_names() {
    // ZeRO-1 on 8 cards: ZeRO-0 does not fit, the current stage does not either, 3 fits.
    let over = memory_series(&plan(PlanConfig {
        zero: 1,
        ..PlanConfig::lesson_8_gpus()
    }));
    let fits = memory_series(&plan(PlanConfig::lesson_8_gpus()));
    crate::text::testing::assert_all_used(text::ALL, || {
        for lang in [Lang::Zh, Lang::En] {
            for data in [&over, &fits] {
                summary(data, lang);
                let _ = svg((640, 360), |area| draw(area, data, lang));
            }
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
