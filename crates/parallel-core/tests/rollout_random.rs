//! Rollout engines (SPEC §15) on random plans: nothing panics, and the report says what the
//! formulas say.

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::engines;
use parallel_core::explain::Figure;
use parallel_core::link::{decode_plan, encode_plan, GridId};
use parallel_core::{Accounting, Field, ModelChoice, Plan, PlanConfig, Preset, Rollout};
use proptest::prelude::*;

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
                    prop_assert!(matches!(err.field(), Field::InRollout(_)), "{}", err);
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
