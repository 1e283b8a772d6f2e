//! The runtime terms (SPEC §24): off by default, so every figure stays the formulas' own; on,
//! every total — the headline, each stage, each card — adds the measured CUDA context,
//! Megatron-Core's sequence-parallel gather buffer and the allocator's reserve on what the
//! card's tensors hold.

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::explain::Figure;
use parallel_core::link::{decode_plan, encode_plan, GridId};
use parallel_core::runtime_memory::{CUDA_CONTEXT_BYTES, RESERVED_OVER_ALLOCATED};
use parallel_core::{Accounting, ModelChoice, Plan, PlanConfig, Preset};

fn plan(config: &PlanConfig) -> Plan {
    Plan::new(config).unwrap_or_else(|e| panic!("{config:?}: {e}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn on(config: PlanConfig) -> PlanConfig {
    PlanConfig {
        runtime_memory: true,
        ..config
    }
}

/// Dense and MoE plans, both accountings, with and without SP, with uneven routing.
fn plans() -> Vec<PlanConfig> {
    let mixtral = PlanConfig {
        model: ModelChoice::Preset(Preset::Mixtral8x7b),
        gpus: 64,
        tp: 2,
        pp: 4,
        ep: 8,
        routing_skew: 2.0,
        ..PlanConfig::default()
    };
    vec![
        PlanConfig::lesson_8_gpus(),
        PlanConfig::lesson_64_gpus(),
        PlanConfig {
            accounting: Accounting::Stages,
            ..PlanConfig::lesson_64_gpus()
        },
        PlanConfig {
            sequence_parallel: false,
            ..PlanConfig::lesson_64_gpus()
        },
        PlanConfig {
            cp: 2,
            tp: 4,
            ..PlanConfig::lesson_64_gpus()
        },
        mixtral.clone(),
        PlanConfig {
            accounting: Accounting::Stages,
            ..mixtral
        },
    ]
}

#[test]
fn off_by_default_nothing_is_added() {
    for config in plans() {
        assert!(!config.runtime_memory);
        let plan = plan(&config);
        let report = plan.report();
        assert!(report.memory.runtime.is_none());
        assert!(report.by_stage.iter().all(|s| s.runtime.get() == 0.0));
        let json = serde_json::to_value(&report).unwrap();
        assert!(json["memory"].get("runtime").is_none(), "{json}");
        assert!(!serde_json::to_string(&config)
            .unwrap()
            .contains("runtime_memory"));
    }
}

#[test]
fn the_terms_follow_their_definitions() {
    for config in plans() {
        let plan = plan(&on(config.clone()));
        let m = plan.memory();
        let r = m.runtime.unwrap();
        let held = m.model_states.get() + m.activations.get();
        let s_local = f64::from(config.seq_len) / f64::from(config.cp);
        let buffer = if config.tp > 1 && config.sequence_parallel {
            2.0 * s_local * f64::from(config.micro_batch_size) * plan.model().hidden as f64
        } else {
            0.0
        };
        assert_eq!(r.context.get(), CUDA_CONTEXT_BYTES);
        assert!(close(r.buffers.get(), buffer), "{config:?}: {r:?}");
        assert!(close(
            r.reserve.get(),
            (RESERVED_OVER_ALLOCATED - 1.0) * (held + buffer)
        ));
        assert!(close(
            r.total.get(),
            r.context.get() + r.buffers.get() + r.reserve.get()
        ));
        assert!(close(m.total.get(), held + r.total.get()));
        // The states and activations do not move; only the total does.
        let off = Plan::new(&config).unwrap().memory();
        assert_eq!(
            (off.model_states, off.activations),
            (m.model_states, m.activations)
        );
        assert!(m.total > off.total);
    }
}

#[test]
fn every_stage_and_every_card_adds_its_own_terms() {
    for config in plans() {
        let plan = plan(&on(config));
        let report = plan.report();
        for s in &report.by_stage {
            let allocated = s.model_states + s.activations;
            let own = plan.runtime_memory(allocated).unwrap();
            assert!(close(s.runtime.get(), own.total.get()), "stage {}", s.stage);
            assert!(close(s.total.get(), (allocated + own.total).get()));
            assert_eq!(s.fits, s.total <= plan.capacity());
        }
        if let Some(stage) = report.busiest_stage {
            let entry = report.by_stage[stage as usize];
            assert_eq!(report.memory.total, entry.total);
            assert!(close(
                report.memory.runtime.unwrap().total.get(),
                entry.runtime.get()
            ));
        }
        for (card, c) in plan.cards_memory(&report).iter().enumerate() {
            let allocated = c.model_states + c.activations;
            let own = plan.runtime_memory(allocated).unwrap().total;
            assert!(close(c.runtime.get(), own.get()), "card {card}: {c:?}");
            assert!(close(c.total.get(), (allocated + own).get()), "card {card}");
        }
    }
}

#[test]
fn a_cold_expert_card_reserves_less_than_the_hot_one() {
    let plan = plan(&on(plans().remove(5)));
    let cards = plan.cards_memory(&plan.report());
    let hot = (0..plan.gpus())
        .find(|&c| plan.holds_hot_expert(c))
        .unwrap();
    let cold = (0..plan.gpus())
        .find(|&c| !plan.holds_hot_expert(c))
        .unwrap();
    let (hot, cold) = (cards[hot as usize], cards[cold as usize]);
    assert!(hot.activations > cold.activations);
    assert!(hot.runtime > cold.runtime, "{hot:?} {cold:?}");
}

#[test]
fn the_explanations_give_the_report_s_figures() {
    for config in plans() {
        for runtime in [false, true] {
            let plan = plan(&PlanConfig {
                runtime_memory: runtime,
                ..config.clone()
            });
            let report = plan.report();
            let total = plan.explain(Figure::Total, &report).unwrap();
            assert!(close(total.result, report.memory.total.get()));
            assert!(close(total.worked, total.result), "{total:?}");
            match plan.explain(Figure::Runtime, &report) {
                Some(e) => {
                    assert!(runtime);
                    assert!(close(e.worked, report.memory.runtime.unwrap().total.get()));
                    assert!(e.formula.contains("context"), "{}", e.formula);
                    assert!(e.source.contains("H200"), "{}", e.source);
                }
                None => assert!(!runtime),
            }
        }
    }
}

#[test]
fn the_switch_travels_in_the_link() {
    let config = on(PlanConfig::lesson_64_gpus());
    let link = encode_plan(&config, GridId::SixtyFour);
    assert_eq!(link, "tp8.pp8.runtime");
    let (back, ignored) = decode_plan(&link, GridId::SixtyFour);
    assert!(back.runtime_memory && ignored.is_empty());
    let (back, ignored) = decode_plan("noruntime", GridId::SixtyFour);
    assert!(!back.runtime_memory && ignored.is_empty());
}

#[test]
fn a_plan_that_fits_can_stop_fitting() {
    // The 8-card lesson plan at ZeRO 3 with the card sized just above its formulas' total:
    // the runtime terms push it over.
    let base = PlanConfig {
        zero: 3,
        ..PlanConfig::lesson_8_gpus()
    };
    let formulas = plan(&base).memory().total.get();
    let tight = PlanConfig {
        gpu_memory_gb: (formulas / 1e9 + 0.5).ceil(),
        ..base
    };
    assert!(plan(&tight).memory().fits);
    assert!(!plan(&on(tight)).memory().fits);
}
