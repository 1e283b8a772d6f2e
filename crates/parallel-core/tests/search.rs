//! The plan search (SPEC §12): what it returns is valid, fits, is sorted and evaluates to
//! what it printed; the lesson's fitting 8-GPU plans are among its plans with the lesson's
//! memory; more memory never removes a plan; a model that fits nowhere says so.

#![allow(clippy::unwrap_used, clippy::panic)]

use std::collections::BTreeSet;

use parallel_core::lesson::eight_gpu_plans;
use parallel_core::search::{
    equally_quick, reason, search, Found, Reason, Rival, Search, EQUAL_TIME_SHARE,
};
use parallel_core::{evaluate, Accounting, Field, ModelChoice, PlanConfig, Preset};
use proptest::prelude::*;

fn key(c: &PlanConfig) -> String {
    format!(
        "t{} p{} c{} e{} b{} m{} z{} {} {} v{}",
        c.tp,
        c.pp,
        c.cp,
        c.ep,
        c.micro_batch_size,
        c.micro_batches,
        c.zero,
        c.recompute,
        c.schedule,
        c.virtual_stages
    )
}

fn check_outcome(base: &PlanConfig, top: usize) -> parallel_core::search::SearchOutcome {
    let found = search(base, top).unwrap();
    assert!(found.fitting <= found.valid && found.valid <= found.considered);
    assert_eq!(found.plans.len() as u64, found.fitting.min(top as u64));
    for plan in &found.plans {
        // Valid, fits, and `eval` of its config is exactly the report printed.
        let again = evaluate(&plan.config).unwrap();
        assert_eq!(again, plan.report, "{}", key(&plan.config));
        assert!(plan.report.memory.fits);
        let c = &plan.config;
        assert_eq!(
            u64::from(plan.report.dp) * u64::from(c.micro_batches) * u64::from(c.micro_batch_size),
            u64::from(base.global_batch.unwrap()),
            "d·m·b = global batch"
        );
        assert!(c.tp <= base.gpus_per_node);
        assert_eq!(c.model, base.model);
    }
    // Under 80% of the card first (Fujii et al. 2024); on each side the tie (steps within
    // EQUAL_TIME_SHARE of the side's quickest) first by practice (no CP, fewer dimensions,
    // smaller PP), then by step; the rest by step, fewer stages, less memory (`search::rank`).
    // The quickest of the first side is the outcome's; of the other, known when all are listed.
    let all = found.plans.len() as u64 == found.fitting;
    let quickest = |tight: bool| -> Option<f64> {
        match found.plans.first() {
            Some(first) if first.report.memory.tight == tight => {
                found.quickest_step().map(|s| s.get())
            }
            _ if all => found
                .plans
                .iter()
                .filter(|p| p.report.memory.tight == tight)
                .map(|p| p.report.estimate.step_s.get())
                .reduce(f64::min),
            _ => None,
        }
    };
    if let Some(q) = &found.quickest {
        assert!(
            q.report.estimate.step_s < found.plans[0].report.estimate.step_s
                || q.practice() > found.plans[0].practice()
        );
    }
    for pair in found.plans.windows(2) {
        let (a, b) = (&pair[0].report, &pair[1].report);
        assert!(
            a.memory.tight <= b.memory.tight,
            "a tight plan before a comfortable one"
        );
        let why = reason(
            &pair[0],
            &pair[1],
            quickest(a.memory.tight).map_or(a.estimate.step_s, parallel_core::Seconds::new),
        );
        if a.memory.tight != b.memory.tight {
            assert!(matches!(why, Reason::UnderSafeShare { .. }), "{why:?}");
            continue;
        }
        let (sa, sb) = (a.estimate.step_s.get(), b.estimate.step_s.get());
        let Some(q) = quickest(a.memory.tight) else {
            continue;
        };
        match (equally_quick(q, sa), equally_quick(q, sb)) {
            (true, true) => {
                let (pa, pb) = (pair[0].practice(), pair[1].practice());
                assert!(pa <= pb, "{pa:?} after {pb:?}");
                assert!(pa < pb || sa < sb || (sa == sb && a.memory.total <= b.memory.total));
                assert!(
                    !matches!(why, Reason::Quicker { .. } | Reason::UnderSafeShare { .. }),
                    "{why:?}"
                );
            }
            // A plan outside the band never goes before a quicker one, nor before the band.
            (true, false) => assert!(sa < sb),
            (false, true) => panic!("{} s outside the band before {} s inside", sa, sb),
            (false, false) => assert!(
                sa < sb
                    || (sa == sb
                        && (pair[0].config.pp < pair[1].config.pp
                            || (pair[0].config.pp == pair[1].config.pp
                                && a.memory.total <= b.memory.total)))
            ),
        }
        match why {
            Reason::Quicker {
                gap,
                share,
                over_quickest,
                ..
            } => {
                assert!(gap.get() > 0.0 && share > 0.0 && over_quickest > EQUAL_TIME_SHARE);
            }
            Reason::TieQuicker { gap, share } => {
                assert!(gap.get() > 0.0 && share <= EQUAL_TIME_SHARE);
            }
            Reason::TieNoCp { share, .. }
            | Reason::TieFewerDimensions { share, .. }
            | Reason::TieSmallerPp { share, .. } => assert!(share <= EQUAL_TIME_SHARE),
            Reason::LessMemory { by } => assert!(by.get() > 0.0),
            Reason::UnderSafeShare { .. } => panic!("the same side"),
            Reason::Enumeration => {}
        }
    }
    let comfortable = found
        .plans
        .iter()
        .filter(|p| !p.report.memory.tight)
        .count() as u64;
    if found.plans.len() as u64 == found.fitting {
        assert_eq!(found.comfortable, comfortable);
    }
    for miss in &found.near_misses {
        assert!(!miss.report.memory.fits);
        assert_eq!(evaluate(&miss.config).unwrap(), miss.report);
    }
    found
}

#[test]
fn the_lesson_s_fitting_plans_appear_with_the_lesson_s_memory() {
    let base = PlanConfig {
        global_batch: Some(64),
        ..PlanConfig::default()
    };
    let found = check_outcome(&base, usize::MAX);
    assert!(found.fitting > 0);
    let mut seen = 0;
    for lesson in eight_gpu_plans() {
        let want = evaluate(&lesson.config).unwrap();
        if !want.memory.fits {
            continue;
        }
        seen += 1;
        // Same plan, m = 64/d sequences per pipeline (the lesson's 1F1B memory does not
        // depend on m once m ≥ p).
        let c = &lesson.config;
        let m = 64 / want.dp;
        let hit = found
            .plans
            .iter()
            .find(|p| {
                let f = &p.config;
                (
                    f.tp,
                    f.pp,
                    f.cp,
                    f.zero,
                    f.recompute,
                    f.schedule,
                    f.micro_batch_size,
                ) == (c.tp, c.pp, c.cp, c.zero, c.recompute, c.schedule, 1)
                    && f.micro_batches == m
            })
            .unwrap_or_else(|| panic!("{} not found", lesson.id));
        assert_eq!(hit.report.memory, want.memory, "{}", lesson.id);
    }
    assert!(seen >= 3, "the lesson has fitting plans: {seen}");
    // And the search explains its first place.
    assert!(!found.why_first.is_empty());
}

#[test]
fn a_model_that_fits_nowhere_says_so() {
    let base = PlanConfig {
        model: ModelChoice::Preset(Preset::Llama3_405b),
        gpu_memory_gb: 40.0,
        global_batch: Some(64),
        ..PlanConfig::default()
    };
    let found = check_outcome(&base, 20);
    assert_eq!((found.fitting, found.plans.len()), (0, 0));
    assert!(found.valid > 0);
    assert!(!found.near_misses.is_empty());
    assert!(found.why_first.is_empty());
}

#[test]
fn moe_models_search_expert_parallelism_too() {
    let base = PlanConfig {
        model: ModelChoice::Preset(Preset::Mixtral8x7b),
        gpus: 64,
        global_batch: Some(128),
        ..PlanConfig::default()
    };
    let found = check_outcome(&base, 50);
    assert!(found.fitting > 0);
    let eps: BTreeSet<u32> = found.plans.iter().map(|p| p.config.ep).collect();
    assert!(eps.iter().any(|e| *e > 1), "{eps:?}");
}

#[test]
fn bad_input_names_the_field() {
    let no_batch = search(&PlanConfig::default(), 20).unwrap_err();
    assert_eq!(no_batch.field(), Field::GlobalBatch);
    let zero = search(
        &PlanConfig {
            global_batch: Some(0),
            ..PlanConfig::default()
        },
        20,
    )
    .unwrap_err();
    assert_eq!(zero.field(), Field::GlobalBatch);
    let memory = search(
        &PlanConfig {
            global_batch: Some(8),
            gpu_memory_gb: -1.0,
            ..PlanConfig::default()
        },
        20,
    )
    .unwrap_err();
    assert_eq!(memory.field(), Field::GpuMemoryGb);
}

#[test]
fn slices_add_up_to_the_whole_search() {
    let base = PlanConfig {
        gpus: 64,
        global_batch: Some(256),
        accounting: Accounting::Stages,
        ..PlanConfig::default()
    };
    let whole = search(&base, 20).unwrap();
    let mut sliced = Search::new(&base, 20).unwrap();
    let mut slices = 0;
    while !sliced.advance(997) {
        slices += 1;
    }
    assert!(slices > 1);
    assert_eq!(sliced.outcome(), whole);
    assert_eq!(sliced.done(), sliced.total());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// More memory per card never removes a plan, and every plan returned checks out.
    #[test]
    fn more_memory_never_removes_a_plan(
        gpus in prop::sample::select(vec![8u32, 16, 32, 64]),
        batch_exp in 3u32..8,
        seq_exp in 11u32..15,
        model in prop::sample::select(vec![Preset::Qwen38_27b, Preset::Llama3_8b, Preset::Llama3_70b, Preset::Qwen3_30bA3b]),
        memory in 24.0f64..96.0,
        extra in 1.0f64..64.0,
        stages in any::<bool>(),
    ) {
        let base = PlanConfig {
            model: ModelChoice::Preset(model),
            gpus,
            seq_len: 1 << seq_exp,
            global_batch: Some(1 << batch_exp),
            gpu_memory_gb: memory,
            accounting: if stages { Accounting::Stages } else { Accounting::Even },
            ..PlanConfig::default()
        };
        let small = check_outcome(&base, usize::MAX);
        let large = check_outcome(&PlanConfig { gpu_memory_gb: memory + extra, ..base.clone() }, usize::MAX);
        prop_assert_eq!(small.considered, large.considered);
        prop_assert_eq!(small.valid, large.valid);
        let fits_large: BTreeSet<String> = large.plans.iter().map(|p| key(&p.config)).collect();
        for plan in &small.plans {
            prop_assert!(fits_large.contains(&key(&plan.config)), "{} lost with more memory", key(&plan.config));
        }
    }
}

#[test]
fn a_tally_builds_the_same_outcome_in_another_search_of_the_same_base() {
    // As the planner's Web Worker does: one search enumerates, posts its tally (here through
    // JSON), and a search of the same base on the page builds the outcome from it.
    for base in [
        PlanConfig {
            gpus: 64,
            global_batch: Some(256),
            ..PlanConfig::default()
        },
        PlanConfig {
            gpus: 32,
            model: ModelChoice::Preset(Preset::Mixtral8x7b),
            global_batch: Some(64),
            ..PlanConfig::default()
        },
    ] {
        let mut worker = Search::new(&base, 20).unwrap();
        while !worker.advance(777) {}
        let tally = worker.tally();
        let posted: parallel_core::search::Tally =
            serde_json::from_str(&serde_json::to_string(&tally).unwrap()).unwrap();
        assert_eq!(posted, tally);
        let page = Search::new(&base, 20).unwrap();
        assert_eq!(page.outcome_of(&posted), worker.outcome());
        assert_eq!(page.outcome_of(&posted), search(&base, 20).unwrap());
        // A tally of another base (indices past this enumeration) builds nothing from them.
        let foreign = parallel_core::search::Tally {
            best: vec![u64::MAX, page.total()],
            misses: vec![page.total() + 1],
            ..tally.clone()
        };
        let outcome = page.outcome_of(&foreign);
        assert!(outcome.plans.is_empty() && outcome.near_misses.is_empty());
    }
}

#[test]
fn the_first_plan_s_lead_is_the_step_difference() {
    // The planner's default search on the H100 (64 cards, 256 sequences a step): TP 2 × PP 2
    // first, alike and quicker than the second; the quickest plan (#4) splits the sequence
    // over CP 2 and is 0.2% quicker: a tie, which goes to the plan without CP.
    let base = PlanConfig {
        global_batch: Some(256),
        ..PlanConfig::on(parallel_core::hardware::Hardware::H100)
    };
    let outcome = search(&PlanConfig { gpus: 64, ..base }, 20).unwrap();
    let [first, second, ..] = outcome.plans.as_slice() else {
        panic!("two plans at least");
    };
    let step = |f: &Found| f.report.estimate.step_s.get();
    let quickest = outcome.quickest.as_ref().unwrap();
    assert_eq!(
        (first.config.tp, first.config.cp, first.config.pp),
        (2, 1, 2)
    );
    assert_eq!(quickest.config.cp, 2);
    assert!(step(quickest) < step(first) && equally_quick(step(quickest), step(first)));
    let [to_second, to_quickest] = outcome.why_first.as_slice() else {
        panic!("{:?}", outcome.why_first);
    };
    assert_eq!(
        (to_second.against, to_second.rank),
        (Rival::Second, Some(2))
    );
    assert_eq!(
        to_second.reason,
        Reason::TieQuicker {
            gap: parallel_core::Seconds::new(step(second) - step(first)),
            share: (step(second) - step(first)) / step(first),
        }
    );
    assert_eq!(
        (to_quickest.against, to_quickest.rank),
        (Rival::Quickest, Some(4))
    );
    assert_eq!(outcome.plans[3], *quickest);
    let gap = step(first) - step(quickest);
    assert_eq!(
        to_quickest.reason,
        Reason::TieNoCp {
            gap: parallel_core::Seconds::new(gap),
            share: gap / step(quickest),
            rival_cp: 2
        }
    );
    assert_eq!(outcome.cp_gap(), None);
    assert_eq!(outcome.without_cp, None);
}
