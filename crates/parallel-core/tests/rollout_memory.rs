//! Rollout engines' memory (SPEC §15), by hand: the anchor's recipe row, DeepSeek-V3's latent
//! cache, KV heads replicated when an engine is wider than them, a separate pool, a
//! training-only plan, and the chunked log-probabilities.

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::engines;
use parallel_core::{
    evaluate, Accounting, ModelChoice, OptimizerOffload, Plan, PlanConfig, Preset, Rollout,
    RolloutPhase, RolloutReport,
};

/// The anchor's parameters (qwen3.8-27b, dense; 16 of 64 layers full attention, 4 KV heads of
/// 256).
const P: f64 = 27_781_427_952.0;

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
            "tight",
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
