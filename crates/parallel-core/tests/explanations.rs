//! Every explanation works out to the report's figure, bit for bit: the lesson's figures and the
//! offloaded optimizer's by hand, then random plans.

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::strategies;
use parallel_core::explain::Figure;
use parallel_core::{Accounting, Dim, OptimizerOffload, Plan, PlanConfig, Report, Schedule};
use proptest::prelude::*;

fn check(config: &PlanConfig) {
    let Ok(plan) = Plan::new(config) else { return };
    let report = plan.report();
    for e in plan.explain_all(&report) {
        assert!(
            e.worked.to_bits() == e.result.to_bits(),
            "{}: worked {} vs {} ({})",
            e.figure,
            e.worked,
            e.result,
            e.substituted
        );
        assert!(!e.formula.is_empty() && !e.substituted.is_empty() && !e.shown.is_empty());
        assert_eq!(
            Figure::from_id(&e.figure).map(|f| f.id()),
            Some(e.figure.clone())
        );
    }
}

#[test]
fn the_lesson_s_figures_explain_themselves() {
    let plan = Plan::new(&PlanConfig::lesson_8_gpus()).unwrap();
    let report = plan.report();
    let dp = plan.explain(Figure::Traffic(Dim::Dp), &report).unwrap();
    assert_eq!(dp.shown, "145.9 GB");
    assert_eq!(
        dp.formula,
        "dp = ((D − 1)/D)·(4 + g)·Ψ; Ψ = P/(t·p); D = d·c"
    );
    assert_eq!(
        dp.substituted,
        "D = 8·1 = 8; Ψ = 27,781,427,952/(1·1) = 27,781,427,952; \
         dp = ((8 − 1)/8)·(4 + 2)·27,781,427,952 = 145.9 GB"
    );
    let states = plan.explain(Figure::ModelStates, &report).unwrap();
    assert_eq!(
        states.substituted,
        "Ψ = 27,781,427,952/(1·1) = 27,781,427,952; D = 8·1 = 8; \
         states = 2·27,781,427,952/8 + 2·27,781,427,952/8 + 12·27,781,427,952/8 = 55.6 GB"
    );
    assert!(
        plan.explain(Figure::Traffic(Dim::Tp), &report).is_none(),
        "no TP traffic with t = 1"
    );
    check(&PlanConfig::lesson_64_gpus());
    check(&PlanConfig {
        accounting: Accounting::Stages,
        ..PlanConfig::lesson_64_gpus()
    });
}

#[test]
fn the_offloaded_optimizer_explains_itself() {
    let plan = Plan::new(&PlanConfig {
        optimizer_offload: OptimizerOffload::Cpu,
        ..PlanConfig::lesson_8_gpus()
    })
    .unwrap();
    let report = plan.report();
    for (figure, formula) in [
        (
            Figure::HostPerGpu,
            "host per card = (12 + 4)·Ψ_o; Ψ_o = Ψ/D; D = d·c; Ψ = P/(t·p)",
        ),
        (
            Figure::ModelStates,
            "states = 2·Ψ/D + g·Ψ/D; D = d·c; Ψ = P/(t·p)",
        ),
        (
            Figure::Traffic(Dim::Offload),
            "offload = (4 + 2)·Ψ_o; Ψ_o = Ψ/D; D = d·c; Ψ = P/(t·p)",
        ),
        (
            Figure::CommTime(Dim::Offload),
            "offload = bytes/PCIe bandwidth",
        ),
    ] {
        let explained = plan.explain(figure, &report).unwrap();
        assert_eq!(explained.formula, formula, "{figure:?}");
    }
    let host = plan.explain(Figure::HostPerGpu, &report).unwrap();
    assert_eq!(host.shown, "55.6 GB");
    let node = plan.explain(Figure::HostPerNode, &report).unwrap();
    assert_eq!(node.shown, "444.5 GB");
    assert!(
        node.formula
            .starts_with("host per node = cards per node·(12 + 4)·Ψ_o"),
        "{}",
        node.formula
    );
    for id in [
        "mem-host",
        "mem-host-node",
        "traffic-offload",
        "traffic-offload-time",
        "estimate-offload",
    ] {
        assert!(report_has(&plan, &report, id), "{id}");
    }
    let none = Plan::new(&PlanConfig::lesson_8_gpus()).unwrap();
    let report = none.report();
    assert!(none.explain(Figure::HostPerGpu, &report).is_none());
    assert!(!report_has(&none, &report, "traffic-offload"));
    check(&PlanConfig {
        optimizer_offload: OptimizerOffload::Cpu,
        accounting: Accounting::Stages,
        ..PlanConfig::lesson_64_gpus()
    });
}

fn report_has(plan: &Plan, report: &Report, id: &str) -> bool {
    plan.explain_all(report).iter().any(|e| e.figure == id)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Every explanation's terms multiply out to the figure the report shows.
    #[test]
    fn explanations_work_out_to_the_report(
        grid in strategies::power_of_two_grid(),
        m in 1u32..40,
        b in 1u32..3,
        s_exp in 10u32..16,
        zero in 0u8..4,
        recompute in strategies::recompute(),
        schedule in strategies::schedule(),
        stages in any::<bool>(),
        offload in any::<bool>(),
        gpus_per_node in prop::sample::select(vec![4u32, 8, 6]),
    ) {
        check(&PlanConfig {
            micro_batches: m,
            micro_batch_size: b,
            seq_len: 1 << s_exp,
            zero,
            recompute,
            schedule,
            virtual_stages: if schedule == Schedule::Interleaved { 2 } else { 1 },
            accounting: if stages { Accounting::Stages } else { Accounting::Even },
            optimizer_offload: if offload { OptimizerOffload::Cpu } else { OptimizerOffload::None },
            gpus_per_node,
            ..grid
        });
    }
}
