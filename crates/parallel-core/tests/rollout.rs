//! Rollout engines (SPEC §15), by hand: the anchor's recipe row, DeepSeek-V3's latent cache,
//! KV heads replicated when an engine is wider than them, a separate pool, the chunked
//! log-probabilities, the new errors in table order, the figures' explanations, links, and
//! random plans, on which nothing panics and the report says what the formulas say.

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::explain::Figure;
use parallel_core::link::{decode_plan, encode_plan, GridId, IgnoredReason};
use parallel_core::{
    evaluate, Accounting, ModelChoice, OptimizerOffload, Plan, PlanConfig, PlanError, Preset,
    Rollout, RolloutPhase, RolloutReport,
};
use proptest::prelude::*;

/// The anchor's parameters (qwen3.8-27b, dense; 16 of 64 layers full attention, 4 KV heads of
/// 256).
const P: f64 = 27_781_427_952.0;

fn engines(rollout: Rollout) -> PlanConfig {
    PlanConfig {
        rollout: Some(rollout),
        ..PlanConfig::default()
    }
}

fn rollout_of(config: &PlanConfig) -> RolloutReport {
    evaluate(config).unwrap().rollout.expect("a rollout block")
}

#[test]
fn the_anchor_s_recipe_row() {
    // Seed 000's recipe for Qwen3.8-27B: 32 cards, engines of 2, 8 prompts × 8 samples,
    // a 131,072-token response cap, CPU Adam, full recompute, log-prob chunks of 1,024,
    // colocated.
    let config = PlanConfig {
        gpus: 32,
        optimizer_offload: OptimizerOffload::Cpu,
        log_probs_chunk: 1024,
        ..engines(Rollout {
            gpus_per_engine: 2,
            ..Rollout::default()
        })
    };
    let report = evaluate(&config).unwrap();
    let r = report.rollout.unwrap();
    assert_eq!(
        (
            r.engines,
            r.gpus_per_engine,
            r.sequences,
            r.sequences_per_engine
        ),
        (16, 2, 64, 4)
    );
    assert_eq!(r.tokens_per_sequence, 2048 + 131_072);
    // 2·P/2 = P bytes; KV: 4 sequences · 133,120 tokens · 16 layers · (2·(4/2)·256·2) bytes.
    assert_eq!(r.weights.get(), P);
    assert_eq!(r.kv_cache.get(), 4.0 * 133_120.0 * 16.0 * 2048.0);
    assert_eq!(r.kv_cache.get(), 17_448_304_640.0);
    assert_eq!(
        (
            r.weights.to_string(),
            r.kv_cache.to_string(),
            r.total.to_string()
        ),
        ("27.8 GB".into(), "17.4 GB".into(), "45.2 GB".into())
    );
    assert!(r.fits && r.colocated);
    assert_eq!(r.cards, 32);
    // Colocated: the peak is the larger phase; DP 32 with the optimizer on the host keeps
    // (2 + 2)·P = 111.1 GB of training states, more than the engines' 45.2 GB.
    assert!(report.memory.total > r.total);
    assert_eq!(r.peak, report.memory.total);
    assert_eq!(r.peak_phase, RolloutPhase::Training);
}

#[test]
fn deepseek_v3_caches_its_latent_whole_on_every_card() {
    let deepseek = |e: u32| PlanConfig {
        model: ModelChoice::Preset(Preset::DeepseekV3),
        gpus: 64,
        ..engines(Rollout {
            gpus_per_engine: e,
            ..Rollout::default()
        })
    };
    for e in [8, 16, 32, 64] {
        let r = rollout_of(&deepseek(e));
        let engines = 64 / e;
        assert_eq!(r.engines, engines);
        let n_e = 64_u32.div_ceil(engines);
        assert_eq!(r.sequences_per_engine, u64::from(n_e));
        // k = (512 + 64)·2 bytes per layer and token, whatever E: the latent is not split.
        let k = (512.0 + 64.0) * 2.0;
        assert_eq!(
            r.kv_cache.get(),
            f64::from(n_e) * 133_120.0 * 61.0 * k,
            "E = {e}"
        );
        assert_eq!(r.weights.get(), 2.0 * 671e9 / f64::from(e));
    }
    // 64 cards in one engine: 64 sequences of 133,120 tokens on each card.
    let one = rollout_of(&deepseek(64));
    assert_eq!(one.kv_cache.get(), 598_694_952_960.0);
    assert!(!one.fits);
}

#[test]
fn kv_heads_split_over_the_engine_until_each_card_has_one() {
    // The anchor has 4 KV heads: E = 1, 2, 4 split them; E = 8 replicates one per card.
    let k = |e: u32| {
        let r = rollout_of(&engines(Rollout {
            gpus_per_engine: e,
            ..Rollout::default()
        }));
        r.kv_cache.get() / (r.sequences_per_engine as f64 * 133_120.0 * 16.0)
    };
    assert_eq!(k(1), 2.0 * 4.0 * 256.0 * 2.0);
    assert_eq!(k(2), 2.0 * 2.0 * 256.0 * 2.0);
    assert_eq!(k(4), 2.0 * 256.0 * 2.0);
    assert_eq!(k(8), 2.0 * 256.0 * 2.0);
    // FP8 halves it.
    let fp8 = rollout_of(&engines(Rollout {
        kv_bytes: 1,
        ..Rollout::default()
    }));
    assert_eq!(fp8.kv_cache.get(), 64.0 * 133_120.0 * 16.0 * 512.0);
}

#[test]
fn a_separate_pool_counts_its_own_cards_and_its_own_peak() {
    let config = PlanConfig {
        zero: 3,
        ..engines(Rollout {
            rollout_gpus: 32,
            prompts: 16,
            samples_per_prompt: 4,
            prompt_len: 1024,
            response_len: 7168,
            ..Rollout::default()
        })
    };
    let report = evaluate(&config).unwrap();
    let r = report.rollout.unwrap();
    assert_eq!(
        (r.engines, r.sequences, r.sequences_per_engine),
        (4, 64, 16)
    );
    assert_eq!((r.colocated, r.cards), (false, 8 + 32));
    assert_eq!(r.tokens_per_sequence, 8192);
    // E = 8 > 4 KV heads: one head a card.
    assert_eq!(r.kv_cache.get(), 16.0 * 8192.0 * 16.0 * 1024.0);
    assert_eq!(r.weights.get(), 2.0 * P / 8.0);
    assert_eq!(r.peak, r.total);
    assert_eq!(r.peak_phase, RolloutPhase::Rollout);
    // Uneven: 65 sequences over 4 engines, 17 on the fullest.
    let uneven = rollout_of(&PlanConfig {
        rollout: Some(Rollout {
            prompts: 13,
            samples_per_prompt: 5,
            ..config.rollout.unwrap()
        }),
        ..config
    });
    assert_eq!((uneven.sequences, uneven.sequences_per_engine), (65, 17));
}

#[test]
fn a_training_only_plan_has_no_rollout_block() {
    let report = evaluate(&PlanConfig::default()).unwrap();
    assert!(report.rollout.is_none());
    let json = serde_json::to_value(&report).unwrap();
    assert!(json.get("rollout").is_none());
    let with = serde_json::to_value(evaluate(&engines(Rollout::default())).unwrap()).unwrap();
    let mut keys: Vec<&String> = with["rollout"].as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "cards",
            "colocated",
            "engines",
            "fits",
            "gpus_per_engine",
            "kv_cache",
            "peak",
            "peak_phase",
            "sequences",
            "sequences_per_engine",
            "tokens_per_sequence",
            "total",
            "weights"
        ]
    );
    // Eight cards of DP with the whole ledger: training is the larger phase.
    assert_eq!(with["rollout"]["peak_phase"], "training");
}

#[test]
fn log_probs_chunks_shrink_the_last_stage_s_logits() {
    let stages = |chunk: u32| {
        Plan::new(&PlanConfig {
            accounting: Accounting::Stages,
            log_probs_chunk: chunk,
            ..PlanConfig::lesson_64_gpus()
        })
        .unwrap()
        .memory_by_stage()
    };
    let (whole, chunked, wide) = (stages(0), stages(1024), stages(8192));
    let v = 248_320.0;
    // 4·s'·b·V/t → 4·min(1024, 4096)·V/t on the last stage (t = 8), nothing else moves.
    let saved = whole[7].activations.get() - chunked[7].activations.get();
    assert!(
        (saved - 4.0 * (4096.0 - 1024.0) * v / 8.0).abs() < 1.0,
        "{saved}"
    );
    assert_eq!(whole[..7], chunked[..7]);
    assert_eq!(
        (whole[7].log_probs_chunk, chunked[7].log_probs_chunk),
        (None, Some(1024.0))
    );
    // A chunk wider than the micro-batch changes nothing but the name.
    assert_eq!(wide[7].log_probs_chunk, Some(4096.0));
    assert_eq!(wide[7].activations, whole[7].activations);
    let json = serde_json::to_value(chunked[7]).unwrap();
    assert_eq!(json["log_probs_chunk"], 1024.0);
    assert!(serde_json::to_value(chunked[0])
        .unwrap()
        .get("log_probs_chunk")
        .is_none());
}

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
            below("rollout.gpus_per_engine"),
        ),
        (
            Rollout {
                rollout_gpus: (1 << 20) + 1,
                prompts: 0,
                ..d
            },
            PlanError::AtMost {
                field: "rollout.rollout_gpus",
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
            below("rollout.prompts"),
        ),
        (
            Rollout {
                samples_per_prompt: 0,
                prompt_len: 0,
                ..d
            },
            below("rollout.samples_per_prompt"),
        ),
        (
            Rollout {
                prompt_len: 0,
                response_len: 0,
                ..d
            },
            below("rollout.prompt_len"),
        ),
        (
            Rollout {
                response_len: 0,
                gpus_per_engine: 3,
                ..d
            },
            below("rollout.response_len"),
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
    assert_eq!(PlanError::KvBytes { got: 3 }.field(), "rollout.kv_bytes");
    assert_eq!(
        err(Rollout {
            response_len: 1 << 26,
            ..d
        })
        .field(),
        "rollout.response_len"
    );
    // After §2's checks: a training error comes first.
    let both = Plan::new(&PlanConfig {
        tp: 3,
        ..engines(Rollout { kv_bytes: 3, ..d })
    })
    .unwrap_err();
    assert_eq!(both.field(), "gpus");
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

fn rollout_strategy() -> impl Strategy<Value = Rollout> {
    (
        prop::sample::select(vec![0u32, 1, 2, 3, 4, 8, 16, 64]),
        prop::sample::select(vec![0u32, 8, 12, 32, 96]),
        0u32..40,
        0u32..20,
        prop::sample::select(vec![0u32, 1, 512, 2048, 1 << 25]),
        prop::sample::select(vec![0u32, 1, 4096, 131_072, 1 << 26, u32::MAX]),
        0u32..6,
    )
        .prop_map(|(e, r, np, ns, pl, rl, kv)| Rollout {
            gpus_per_engine: e,
            rollout_gpus: r,
            prompts: np,
            samples_per_prompt: ns,
            prompt_len: pl,
            response_len: rl,
            kv_bytes: kv,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Random plans with engines: either an error naming a `rollout.` field (or a training
    /// field), or a report whose `rollout` block is the formulas of SPEC §15.
    #[test]
    fn random_engines_never_panic_and_report_the_formulas(
        rollout in rollout_strategy(),
        gpus in prop::sample::select(vec![8u32, 16, 32, 64]),
        tp in prop::sample::select(vec![1u32, 2, 8]),
        model in prop::sample::select(vec![Preset::Qwen38_27b, Preset::DeepseekV3, Preset::Llama3_8b, Preset::Mixtral8x7b]),
        chunk in prop::sample::select(vec![0u32, 1, 1024, u32::MAX]),
        stages in any::<bool>(),
    ) {
        let config = PlanConfig {
            model: ModelChoice::Preset(model),
            gpus,
            tp,
            log_probs_chunk: chunk,
            accounting: if stages { Accounting::Stages } else { Accounting::Even },
            ..engines(rollout)
        };
        let plan = match Plan::new(&config) {
            Ok(plan) => plan,
            Err(err) => {
                // Training checks come first: a plan valid without engines fails on them.
                if Plan::new(&PlanConfig { rollout: None, ..config.clone() }).is_ok() {
                    prop_assert!(err.field().starts_with("rollout."), "{}", err);
                }
                return Ok(());
            }
        };
        let report = plan.report();
        let r = report.rollout.unwrap();
        let m = plan.model();
        let pool = if rollout.rollout_gpus == 0 { gpus } else { rollout.rollout_gpus };
        let e = rollout.gpus_per_engine;
        prop_assert_eq!(r.engines, pool / e);
        let n = u64::from(rollout.prompts) * u64::from(rollout.samples_per_prompt);
        prop_assert_eq!(r.sequences, n);
        prop_assert_eq!(r.sequences_per_engine, n.div_ceil(u64::from(pool / e)));
        let t_seq = u64::from(rollout.prompt_len) + u64::from(rollout.response_len);
        prop_assert_eq!(r.tokens_per_sequence, t_seq);
        let k = match m.mla {
            Some(mla) => f64::from(mla.kv_lora_rank + mla.qk_rope_head_dim) * f64::from(rollout.kv_bytes),
            None => 2.0 * (f64::from(m.kv_heads) / f64::from(e)).max(1.0) * f64::from(m.head_dim) * f64::from(rollout.kv_bytes),
        };
        let kv = r.sequences_per_engine as f64 * t_seq as f64 * f64::from(m.full_attention_layers) * k;
        prop_assert!((r.kv_cache.get() - kv).abs() <= 1e-9 * kv);
        prop_assert!((r.weights.get() - 2.0 * m.params / f64::from(e)).abs() <= 1e-6 * m.params);
        prop_assert_eq!(r.total, r.weights + r.kv_cache);
        prop_assert_eq!(r.fits, r.total <= plan.capacity());
        let peak = if r.colocated && report.memory.total > r.total { report.memory.total } else { r.total };
        prop_assert_eq!(r.peak, peak);
        prop_assert_eq!(r.cards, if r.colocated { gpus } else { gpus + pool });
        for figure in [Figure::RolloutWeights, Figure::RolloutKv, Figure::RolloutTotal, Figure::RolloutPeak] {
            let e = plan.explain(figure, &report).unwrap();
            prop_assert_eq!(e.worked.to_bits(), e.result.to_bits());
        }
        // The link carries it back.
        if gpus == 8 && tp <= 8 {
            let (back, _) = decode_plan(&encode_plan(&config, GridId::Eight), GridId::Eight);
            prop_assert_eq!(back.rollout, config.rollout);
            prop_assert_eq!(back.log_probs_chunk, config.log_probs_chunk);
        }
    }
}
