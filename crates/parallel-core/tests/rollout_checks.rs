//! Rollout engines (SPEC §15) checked and carried: the new errors in table order, the figures'
//! explanations, and links that carry the engines and ignore what they cannot use.

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::engines;
use parallel_core::explain::Figure;
use parallel_core::link::{decode_plan, encode_plan, GridId, IgnoredReason};
use parallel_core::{
    Field, ModelChoice, Plan, PlanConfig, PlanError, Preset, Rollout, RolloutField,
};

#[test]
fn the_new_errors_name_their_field_in_table_order() {
    let err = |rollout: Rollout| Plan::new(&engines(rollout)).unwrap_err();
    let d = Rollout::default();
    let below = |field| PlanError::BelowOne { field };
    let cases = [
        (
            Rollout {
                gpus_per_engine: 0,
                prompts: 0,
                ..d
            },
            below(Field::InRollout(RolloutField::GpusPerEngine)),
        ),
        (
            Rollout {
                rollout_gpus: (1 << 20) + 1,
                prompts: 0,
                ..d
            },
            PlanError::AtMost {
                field: Field::InRollout(RolloutField::RolloutGpus),
                max: 1 << 20,
                got: (1 << 20) + 1,
            },
        ),
        (
            Rollout {
                prompts: 0,
                samples_per_prompt: 0,
                ..d
            },
            below(Field::InRollout(RolloutField::Prompts)),
        ),
        (
            Rollout {
                samples_per_prompt: 0,
                prompt_len: 0,
                ..d
            },
            below(Field::InRollout(RolloutField::SamplesPerPrompt)),
        ),
        (
            Rollout {
                prompt_len: 0,
                response_len: 0,
                ..d
            },
            below(Field::InRollout(RolloutField::PromptLen)),
        ),
        (
            Rollout {
                response_len: 0,
                gpus_per_engine: 3,
                ..d
            },
            below(Field::InRollout(RolloutField::ResponseLen)),
        ),
        (
            Rollout {
                gpus_per_engine: 3,
                response_len: u32::MAX,
                ..d
            },
            PlanError::RolloutPool {
                pool: 8,
                gpus_per_engine: 3,
                colocated: true,
            },
        ),
        (
            Rollout {
                rollout_gpus: 12,
                ..d
            },
            PlanError::RolloutPool {
                pool: 12,
                gpus_per_engine: 8,
                colocated: false,
            },
        ),
        (
            Rollout {
                gpus_per_engine: 16,
                ..d
            },
            PlanError::RolloutPool {
                pool: 8,
                gpus_per_engine: 16,
                colocated: true,
            },
        ),
        (
            Rollout {
                response_len: 1 << 26,
                kv_bytes: 3,
                ..d
            },
            PlanError::RolloutTooLong {
                prompt_len: 2048,
                response_len: 1 << 26,
                max: 1 << 26,
            },
        ),
        (Rollout { kv_bytes: 0, ..d }, PlanError::KvBytes { got: 0 }),
        (Rollout { kv_bytes: 8, ..d }, PlanError::KvBytes { got: 8 }),
    ];
    for (rollout, expected) in cases {
        assert_eq!(err(rollout), expected, "{rollout:?}");
    }
    assert_eq!(
        err(Rollout {
            rollout_gpus: 12,
            ..d
        })
        .to_string(),
        "rollout.gpus_per_engine: the rollout pool of 12 cards does not split into engines of 8 cards"
    );
    assert_eq!(
        PlanError::KvBytes { got: 3 }.field(),
        Field::InRollout(RolloutField::KvBytes)
    );
    assert_eq!(
        err(Rollout {
            response_len: 1 << 26,
            ..d
        })
        .field(),
        Field::InRollout(RolloutField::ResponseLen)
    );
    // After §2's checks: a training error comes first.
    let both = Plan::new(&PlanConfig {
        tp: 3,
        ..engines(Rollout { kv_bytes: 3, ..d })
    })
    .unwrap_err();
    assert_eq!(both.field(), Field::Gpus);
    // The largest sequence accepted: 2^26 tokens.
    assert!(Plan::new(&engines(Rollout {
        prompt_len: 1,
        response_len: (1 << 26) - 1,
        ..d
    }))
    .is_ok());
}

#[test]
fn the_rollout_figures_explain_themselves() {
    let config = PlanConfig {
        gpus: 32,
        ..engines(Rollout {
            gpus_per_engine: 2,
            ..Rollout::default()
        })
    };
    let plan = Plan::new(&config).unwrap();
    let report = plan.report();
    let r = report.rollout.unwrap();
    let kv = plan.explain(Figure::RolloutKv, &report).unwrap();
    assert_eq!(kv.figure, "rollout-kv");
    assert_eq!(kv.result, r.kv_cache.get());
    assert_eq!(kv.worked.to_bits(), kv.result.to_bits());
    assert_eq!(kv.shown, "17.4 GB");
    assert_eq!(
        kv.formula,
        "KV cache = n_e·T_seq·F·k; k = 2·max(kv_heads/E, 1)·head_dim·kv_bytes; \
         T_seq = prompt_len + response_len; n_e = ⌈n/engines⌉; engines = N/E; n = prompts·samples"
    );
    for (figure, value) in [
        (Figure::RolloutWeights, r.weights),
        (Figure::RolloutTotal, r.total),
        (Figure::RolloutPeak, r.peak),
    ] {
        let e = plan.explain(figure, &report).unwrap();
        assert_eq!(e.result, value.get(), "{}", e.figure);
        assert_eq!(e.worked.to_bits(), e.result.to_bits(), "{}", e.figure);
        assert_eq!(Figure::from_id(&e.figure), Some(figure));
    }
    let all: Vec<String> = plan
        .explain_all(&report)
        .into_iter()
        .map(|e| e.figure)
        .collect();
    for id in [
        "rollout-weights",
        "rollout-kv",
        "rollout-total",
        "rollout-peak",
    ] {
        assert!(all.iter().any(|f| f == id), "{id} in {all:?}");
    }
    // A training-only plan has none of them.
    let plain = Plan::new(&PlanConfig::default()).unwrap();
    assert!(plain.explain(Figure::RolloutKv, &plain.report()).is_none());
    // DeepSeek-V3's cache is written as the latent.
    let deepseek = Plan::new(&PlanConfig {
        model: ModelChoice::Preset(Preset::DeepseekV3),
        gpus: 64,
        ..engines(Rollout::default())
    })
    .unwrap();
    let e = deepseek
        .explain(Figure::RolloutKv, &deepseek.report())
        .unwrap();
    assert!(
        e.formula
            .contains("k = (kv_lora_rank + qk_rope_head_dim)·kv_bytes"),
        "{}",
        e.formula
    );
}

#[test]
fn links_carry_the_engines_and_ignore_what_they_cannot_use() {
    let recipe = PlanConfig {
        log_probs_chunk: 1024,
        ..engines(Rollout {
            gpus_per_engine: 2,
            rollout_gpus: 32,
            prompts: 16,
            samples_per_prompt: 4,
            prompt_len: 1024,
            response_len: 262_144,
            kv_bytes: 1,
        })
    };
    let link = encode_plan(&recipe, GridId::Eight);
    assert_eq!(link, "eng2.rpool32.np16.ns4.pl1024.rl262144.kv1.lpc1024");
    assert_eq!(decode_plan(&link, GridId::Eight), (recipe, vec![]));
    let default = engines(Rollout::default());
    assert_eq!(encode_plan(&default, GridId::Eight), "rollout");
    assert_eq!(decode_plan("rollout", GridId::Eight), (default, vec![]));
    // Fields that only fit together are read together: a pool of 12 in engines of 3.
    let (config, ignored) = decode_plan("rpool12.eng3", GridId::Eight);
    assert!(ignored.is_empty(), "{ignored:?}");
    assert_eq!(
        config.rollout.map(|r| (r.rollout_gpus, r.gpus_per_engine)),
        Some((12, 3))
    );
    // What cannot be used is named and left out; the rest is kept.
    let (config, ignored) = decode_plan("eng3.kv3.np0.rlx.lpc.eng2.ns2", GridId::Eight);
    let reasons: Vec<(&str, &IgnoredReason)> = ignored
        .iter()
        .map(|i| (i.part.as_str(), &i.reason))
        .collect();
    assert_eq!(reasons.len(), 6, "{reasons:?}");
    assert_eq!(reasons[0].0, "rlx");
    assert_eq!(reasons[1], ("lpc", &IgnoredReason::Malformed));
    assert_eq!(reasons[2], ("eng2", &IgnoredReason::Repeated));
    assert!(matches!(reasons[3], ("eng3", IgnoredReason::Invalid(_))));
    assert!(matches!(reasons[4], ("np0", IgnoredReason::Invalid(_))));
    assert!(matches!(reasons[5], ("kv3", IgnoredReason::Invalid(_))));
    assert_eq!(
        config.rollout,
        Some(Rollout {
            samples_per_prompt: 2,
            ..Rollout::default()
        })
    );
    assert!(Plan::new(&config).is_ok());
    // Too large a number is out of range, never a panic.
    let (_, ignored) = decode_plan("rl99999999999", GridId::SixtyFour);
    assert_eq!(ignored[0].reason, IgnoredReason::OutOfRange);
}
