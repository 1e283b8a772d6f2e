//! Memory stage by stage (SPEC §11): the sanity identities, hand-computed stage tables for the
//! anchor, the report's headline in both accountings, and the lesson's numbers unchanged in
//! "even".

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::{
    evaluate, Accounting, InlineModel, ModelChoice, Plan, PlanConfig, Recompute, Schedule,
};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1.0 + 1e-12 * b.abs()
}

/// The anchor: P = 27,781,427,952, h = 5120, L = 64, V = 248,320, untied. V·h = 1,271,398,400;
/// the body B = P − 2·V·h = 25,238,631,152.
#[test]
fn anchor_tp8_pp8_stage_table_by_hand() {
    let plan = Plan::new(&PlanConfig::lesson_64_gpus()).unwrap(); // TP 8 × PP 8, ZeRO-0, full
    let stages = plan.memory_by_stage();
    // Stage 0: Ψ = (V·h + 8/64·B)/8 = 553,278,411.75; ZeRO-0 16·Ψ = 8,852,454,588.
    // Stages 1–6: Ψ = (8/64·B)/8 = 394,353,611.75; 16·Ψ = 6,309,657,788. Stage 7 holds the head.
    let states = [
        8_852_454_588.0,
        6_309_657_788.0,
        6_309_657_788.0,
        6_309_657_788.0,
        6_309_657_788.0,
        6_309_657_788.0,
        6_309_657_788.0,
        8_852_454_588.0,
    ];
    // Activations: 2·s·b·h/t = 2·4096·5120/8 = 5,242,880 per layer, × 8 layers = 41,943,040,
    // × min(m, p − i) = 8 − i in flight; stage 7 adds the logits 4·4096·248,320/8 = 508,559,360.
    let activations: Vec<f64> = (0..8u32)
        .map(|i| 41_943_040.0 * f64::from(8 - i) + if i == 7 { 508_559_360.0 } else { 0.0 })
        .collect();
    for (i, s) in stages.iter().enumerate() {
        assert_eq!(s.stage, i as u32);
        assert_eq!(s.layers, 8);
        assert!(
            close(s.model_states.get(), states[i]),
            "stage {i} states {}",
            s.model_states.get()
        );
        assert!(
            close(s.activations.get(), activations[i]),
            "stage {i} activations {}",
            s.activations.get()
        );
        assert!(close(s.total.get(), states[i] + activations[i]));
        assert!(s.fits);
    }
    assert_eq!(
        plan.busiest_stage(),
        7,
        "the logits outweigh stage 0's seven extra micro-batches"
    );
}

#[test]
fn anchor_tp8_pp2_zero1_stage_table_by_hand() {
    let config = PlanConfig::lesson_64_zero1();
    let plan = Plan::new(&config).unwrap();
    let stages = plan.memory_by_stage();
    // Each stage: 32 layers, Ψ = (V·h + 32/64·B)/8 = 1,736,339,247; D = 4; ZeRO-1:
    // (2 + 2)·Ψ + 12·Ψ/4 = 7·Ψ = 12,154,374,729 on both (stage 0 the embedding, stage 1 the head).
    // Activations: 5,242,880 × 32 = 167,772,160 per micro-batch; stage 0 holds min(8, 2) = 2,
    // stage 1 holds 1 plus the logits 508,559,360.
    let want = [
        (12_154_374_729.0, 335_544_320.0),
        (12_154_374_729.0, 676_331_520.0),
    ];
    assert_eq!(stages.len(), 2);
    for (s, (states, activations)) in stages.iter().zip(want) {
        assert_eq!(s.layers, 32);
        assert!(close(s.model_states.get(), states), "{s:?}");
        assert!(close(s.activations.get(), activations), "{s:?}");
    }
    // The report: "even" keeps the lesson's 12.2 GB headline; "stages" names stage 1.
    let even = evaluate(&config).unwrap();
    assert_eq!(even.memory.model_states.to_string(), "12.2 GB");
    assert_eq!(even.busiest_stage, None);
    assert_eq!(even.by_stage, stages);
    let by_stage = evaluate(&PlanConfig {
        accounting: Accounting::Stages,
        ..config
    })
    .unwrap();
    assert_eq!(by_stage.busiest_stage, Some(1));
    assert_eq!(by_stage.memory.total, stages[1].total);
}

/// SPEC §11's sanity check: with p = 1 and untied embeddings the stage's states equal §4's and
/// its activations exceed §4's by the logits of one micro-batch only.
#[test]
fn one_stage_untied_equals_the_even_split_plus_logits() {
    for recompute in [Recompute::Full, Recompute::Selective, Recompute::None] {
        for schedule in [Schedule::Gpipe, Schedule::OneFOneB] {
            for (tp, cp, zero) in [(1, 1, 3), (8, 1, 0), (2, 4, 1), (4, 2, 2)] {
                let config = PlanConfig {
                    tp,
                    cp,
                    zero,
                    recompute,
                    schedule,
                    ..PlanConfig::default()
                };
                let plan = Plan::new(&config).unwrap();
                let even = plan.memory();
                let stage = plan.memory_by_stage()[0];
                let logits = 4.0 * 4096.0 / f64::from(cp) * 248_320.0 / f64::from(tp);
                assert!(
                    close(stage.model_states.get(), even.model_states.get()),
                    "{config:?}"
                );
                assert!(
                    close(stage.activations.get(), even.activations.get() + logits),
                    "{config:?}"
                );
            }
        }
    }
}

/// The per-stage parameters add up to P, plus the head's copy when the embeddings are tied and
/// there is more than one stage. Read back from ZeRO-0 states: 16·Ψ_i·t bytes per stage.
#[test]
fn stage_parameters_add_up_to_the_model() {
    let tied = |tied_embeddings: bool| InlineModel {
        params: Some(7_500_000_000),
        hidden: Some(4096),
        layers: Some(30),
        heads: Some(32),
        kv_heads: Some(8),
        head_dim: Some(128),
        ffn: Some(14_336),
        vocab: Some(128_256),
        tied_embeddings,
        ..InlineModel::default()
    };
    for tied_embeddings in [false, true] {
        for pp in [1u32, 2, 3, 4, 7, 8] {
            let config = PlanConfig {
                model: ModelChoice::Inline(tied(tied_embeddings)),
                gpus: pp * 2,
                tp: 2,
                pp,
                ..PlanConfig::default()
            };
            let plan = Plan::new(&config).unwrap();
            let params: f64 = plan
                .memory_by_stage()
                .iter()
                .map(|s| s.model_states.get() / 16.0 * 2.0)
                .sum();
            let head_copy = if tied_embeddings && pp > 1 {
                128_256.0 * 4096.0
            } else {
                0.0
            };
            assert!(
                close(params, 7.5e9 + head_copy),
                "tied {tied_embeddings} pp {pp}: {params}"
            );
        }
    }
}

/// The page and the lesson stay on the even split unless asked.
#[test]
fn even_is_the_default_and_keeps_the_lesson() {
    assert_eq!(PlanConfig::default().accounting, Accounting::Even);
    let report = evaluate(&PlanConfig::lesson_8_gpus()).unwrap();
    assert_eq!(report.memory.total.to_string(), "58.2 GB");
    assert_eq!(report.by_stage.len(), 1);
    let json = serde_json::to_value(&report).unwrap();
    assert!(json["memory"]["by_stage"].is_array());
    assert!(json["memory"].get("busiest_stage").is_none());
    let stages = serde_json::to_value(
        evaluate(&PlanConfig {
            accounting: Accounting::Stages,
            ..PlanConfig::lesson_64_gpus()
        })
        .unwrap(),
    )
    .unwrap();
    assert_eq!(stages["memory"]["busiest_stage"], 7);
    assert_eq!(stages["memory"]["by_stage"].as_array().unwrap().len(), 8);
}

/// The stages' expert states add up to p × the even split's (the ledger is linear in Ψ_e and
/// the stages' layer shares add up to 1); the dense rest is the states minus the experts; a
/// dense model has none.
#[test]
fn expert_states_split_each_stage() {
    use parallel_core::Preset;
    for (pp, zero) in [(1, 0), (2, 1), (4, 3), (8, 2)] {
        let plan = Plan::new(&PlanConfig {
            model: ModelChoice::Preset(Preset::Mixtral8x7b),
            gpus: 64,
            tp: 2,
            pp,
            ep: 8,
            zero,
            ..PlanConfig::default()
        })
        .unwrap();
        let stages = plan.memory_by_stage();
        let even = plan.expert_states().unwrap().total().get();
        let sum: f64 = stages.iter().map(|s| s.expert_states.get()).sum();
        assert!(
            close(sum, f64::from(pp) * even),
            "pp {pp}: {sum} vs {pp} × {even}"
        );
        for s in &stages {
            assert!(s.expert_states.get() > 0.0 && s.expert_states < s.model_states);
            assert!(close(
                s.dense_states().get() + s.expert_states.get(),
                s.model_states.get()
            ));
        }
        if pp == 1 {
            assert!(close(stages[0].expert_states.get(), even));
        }
    }
    let dense = Plan::new(&PlanConfig::lesson_64_gpus()).unwrap();
    assert!(dense
        .memory_by_stage()
        .iter()
        .all(|s| s.expert_states.get() == 0.0));
}
