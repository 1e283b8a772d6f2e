//! Optimizer offload, "CPU Adam" (SPEC §14), by hand: what stays on the card for ZeRO 0–3,
//! dense and MoE; the host bytes per card and per node; the PCIe row; the estimate's extra
//! term; the new fields' errors in table order; and random plans, on which turning offload on
//! never raises a card's memory and the report says what the formulas say.

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::strategies;
use parallel_core::{
    evaluate, Accounting, Dim, Field, Link, ModelChoice, OptimizerOffload, Plan, PlanConfig,
    Preset, Report, Warning,
};
use proptest::prelude::*;

/// The anchor's parameters (qwen3.8-27b, dense).
const P: f64 = 27_781_427_952.0;

fn cpu(config: PlanConfig) -> PlanConfig {
    PlanConfig {
        optimizer_offload: OptimizerOffload::Cpu,
        ..config
    }
}

/// `a` and `b` agree to 1e-12 of their size (the formulas group their products their own
/// way).
fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()),
        "{what}: {a} vs {b}"
    );
}

fn offload_row(report: &Report) -> &parallel_core::traffic::Traffic {
    report
        .comm
        .iter()
        .find(|t| t.dim == Dim::Offload)
        .expect("an offload row")
}

/// One plan of §14 by hand: the card's states, the optimizer shard Ψ_o (for the host and
/// PCIe figures) and the cards on a node.
struct Case {
    config: PlanConfig,
    states: f64,
    psi_o: f64,
    cards_per_node: f64,
}

fn check(case: &Case) {
    let label = format!("{:?}", (case.config.zero, &case.config.model));
    let on = evaluate(&case.config).unwrap();
    let off = evaluate(&PlanConfig {
        optimizer_offload: OptimizerOffload::None,
        ..case.config.clone()
    })
    .unwrap();
    close(on.memory.model_states.get(), case.states, &label);
    // The card lost exactly the 12-byte part, which the host holds with a gradient copy.
    close(
        off.memory.model_states.get() - on.memory.model_states.get(),
        12.0 * case.psi_o,
        &label,
    );
    let host = on.memory.host.expect("a host block");
    close(host.per_gpu.get(), 16.0 * case.psi_o, &label);
    close(
        host.per_node.get(),
        case.cards_per_node * 16.0 * case.psi_o,
        &label,
    );
    assert_eq!(host.capacity.get(), case.config.host_memory_gb * 1e9);
    assert_eq!(host.fits, host.per_node <= host.capacity);
    let row = offload_row(&on);
    assert_eq!(
        (row.collective.as_str(), row.group_size, row.link),
        ("d2h+h2d", 1, Link::Pcie)
    );
    close(row.bytes.get(), 6.0 * case.psi_o, &label);
    close(
        row.seconds.get(),
        6.0 * case.psi_o / (case.config.pcie_gbps * 1e9),
        &label,
    );
    assert_eq!(on.comm.last().map(|t| t.dim), Some(Dim::Offload));
    // The estimate: the same compute, the PCIe seconds exposed on top.
    assert_eq!(on.estimate.compute_s, off.estimate.compute_s);
    close(
        on.estimate.exposed_comm_s.get(),
        off.estimate.exposed_comm_s.get() + row.seconds.get(),
        &label,
    );
    close(
        on.estimate.step_s.get(),
        off.estimate.step_s.get() + row.seconds.get(),
        &label,
    );
    assert!(off.memory.host.is_none() && off.comm.iter().all(|t| t.dim != Dim::Offload));
    // Over the host's memory is a warning, not an error.
    let over = on
        .warnings
        .iter()
        .any(|w| matches!(w, Warning::HostMemoryOver { .. }));
    assert_eq!(over, !host.fits, "{label}");
}

#[test]
fn dense_zero_0_to_3_by_hand() {
    // The lesson's 8 cards, one node, g = 2: D = 8, Ψ = P.
    let d = 8.0;
    let cases = [
        (0, 4.0 * P, P),
        (1, 4.0 * P, P / d),
        (2, 2.0 * P + 2.0 * P / d, P / d),
        (3, 4.0 * P / d, P / d),
    ];
    for (zero, states, psi_o) in cases {
        check(&Case {
            config: cpu(PlanConfig {
                zero,
                ..PlanConfig::default()
            }),
            states,
            psi_o,
            cards_per_node: 8.0,
        });
    }
    // ZeRO-0 offloads all 16·P of 8 cards: 3,556 GB, over the node's 2,048 GB.
    let r = evaluate(&cpu(PlanConfig::default())).unwrap();
    let host = r.memory.host.unwrap();
    assert_eq!(
        (host.per_gpu.to_string(), host.per_node.to_string()),
        ("444.5 GB".into(), "3556.0 GB".into())
    );
    assert!(!host.fits);
    assert_eq!(
        r.warnings[0].to_string(),
        "host_memory_gb: a node's offloaded optimizer states take 3556.0 GB, more than its 2048 GB of host memory"
    );
    // seed 000's 18 bytes: g = 4 stays on the card, the host keeps its 16.
    let fp32 = PlanConfig {
        zero: 1,
        precision: parallel_core::Precision::Fp32Grads,
        ..PlanConfig::default()
    };
    check(&Case {
        config: cpu(fp32),
        states: 6.0 * P,
        psi_o: P / d,
        cards_per_node: 8.0,
    });
}

#[test]
fn dense_on_64_cards_by_hand() {
    // TP 8 × PP 2 × DP 4: Ψ = P/16, D = 4; a node is one TP group; PCIe at 25 GB/s.
    let psi = P / 16.0;
    for (zero, states, psi_o) in [
        (0, 4.0 * psi, psi),
        (1, 4.0 * psi, psi / 4.0),
        (2, 2.0 * psi + 2.0 * psi / 4.0, psi / 4.0),
        (3, 4.0 * psi / 4.0, psi / 4.0),
    ] {
        check(&Case {
            config: cpu(PlanConfig {
                gpus: 64,
                tp: 8,
                pp: 2,
                zero,
                pcie_gbps: 25.0,
                ..PlanConfig::default()
            }),
            states,
            psi_o,
            cards_per_node: 8.0,
        });
    }
}

#[test]
fn moe_zero_0_to_3_by_hand() {
    // Mixtral 8x7B on 32 cards, EP 4 × PP 2 × DP 16: the dense part Ψ_d = (P − P_routed)/2
    // over D = 16, the experts Ψ_e = P_routed/(4·2) over E = 32/(4·2) = 4.
    let model = Preset::Mixtral8x7b.model();
    let routed = model.routed_params();
    let psi_d = (model.params - routed) / 2.0;
    let psi_e = routed / 8.0;
    let (d, e) = (16.0, 4.0);
    for (zero, states, psi_o) in [
        (0, 4.0 * psi_d + 4.0 * psi_e, psi_d + psi_e),
        (1, 4.0 * psi_d + 4.0 * psi_e, psi_d / d + psi_e / e),
        (
            2,
            2.0 * psi_d + 2.0 * psi_d / d + 2.0 * psi_e + 2.0 * psi_e / e,
            psi_d / d + psi_e / e,
        ),
        (3, 4.0 * psi_d / d + 4.0 * psi_e / e, psi_d / d + psi_e / e),
    ] {
        check(&Case {
            config: cpu(PlanConfig {
                model: ModelChoice::Preset(Preset::Mixtral8x7b),
                gpus: 32,
                pp: 2,
                ep: 4,
                zero,
                ..PlanConfig::default()
            }),
            states,
            psi_o,
            cards_per_node: 8.0,
        });
    }
}

#[test]
fn by_stage_each_stage_offloads_its_own_shard() {
    // The anchor on 64 cards, PP 16 × DP 4, ZeRO-1, stage by stage: cards 0–7 hold stages
    // 0–7 (the embedding on stage 0), cards 8–15 stages 8–15 (the head on stage 15).
    let config = cpu(PlanConfig {
        gpus: 64,
        pp: 16,
        zero: 1,
        accounting: Accounting::Stages,
        ..PlanConfig::default()
    });
    let plan = Plan::new(&config).unwrap();
    let report = plan.report();
    let d = 4.0;
    let host_of = |stage: u32| 16.0 * plan.stage_shards(stage).0 / d;
    let node = |stages: core::ops::Range<u32>| stages.map(host_of).sum::<f64>();
    let host = report.memory.host.unwrap();
    close(host.per_node.get(), node(0..8).max(node(8..16)), "per node");
    let busiest = report.busiest_stage.unwrap();
    close(host.per_gpu.get(), host_of(busiest), "per card");
    for entry in &report.by_stage {
        let psi_i = plan.stage_shards(entry.stage).0;
        close(entry.model_states.get(), 4.0 * psi_i, "stage states");
    }
    // With TP 8 × PP 8 a node is one stage's TP group.
    let tp8 = Plan::new(&PlanConfig {
        tp: 8,
        pp: 8,
        ..config
    })
    .unwrap();
    let host = tp8.report().memory.host.unwrap();
    let largest = (0..8)
        .map(|i| 8.0 * 16.0 * tp8.stage_shards(i).0)
        .fold(0.0, f64::max);
    close(host.per_node.get(), largest, "TP 8 nodes");
}

#[test]
fn the_new_fields_fail_in_table_order_naming_the_field() {
    let error = |json: &str| {
        let config: PlanConfig = serde_json::from_str(json).unwrap();
        Plan::new(&config).unwrap_err()
    };
    let cases = [
        (r#"{"pcie_gbps": 0}"#, "pcie_gbps"),
        (r#"{"pcie_gbps": -3}"#, "pcie_gbps"),
        (r#"{"host_memory_gb": 0}"#, "host_memory_gb"),
        // Field checks in table order: the latencies, then pcie_gbps, then host_memory_gb.
        (r#"{"ib_latency_us": -1, "pcie_gbps": 0}"#, "ib_latency_us"),
        (r#"{"pcie_gbps": 0, "host_memory_gb": 0}"#, "pcie_gbps"),
        (
            r#"{"host_memory_gb": -1, "gpus": 8, "tp": 3}"#,
            "host_memory_gb",
        ),
        (r#"{"gpu_memory_gb": 0, "pcie_gbps": 0}"#, "gpu_memory_gb"),
    ];
    for (json, field) in cases {
        let e = error(json);
        assert_eq!(e.field().to_string(), field, "{json}: {e}");
        assert!(e.to_string().starts_with(&format!("{field}: ")), "{e}");
    }
    let config = PlanConfig {
        host_memory_gb: f64::INFINITY,
        ..PlanConfig::default()
    };
    assert_eq!(Plan::new(&config).unwrap_err().field(), Field::HostMemoryGb);
    let config = PlanConfig {
        pcie_gbps: f64::NAN,
        ..PlanConfig::default()
    };
    assert_eq!(Plan::new(&config).unwrap_err().field(), Field::PcieGbps);
    // An unknown value names the valid ones.
    let e = serde_json::from_str::<PlanConfig>(r#"{"optimizer_offload": "nvme"}"#).unwrap_err();
    assert!(
        e.to_string()
            .contains("unknown variant `nvme`, expected `none` or `cpu`"),
        "{e}"
    );
}

#[test]
fn with_the_optimizer_on_the_card_nothing_changes() {
    let plain = evaluate(&PlanConfig::lesson_64_gpus()).unwrap();
    let fields = evaluate(&PlanConfig {
        pcie_gbps: 7.0,
        host_memory_gb: 16.0,
        ..PlanConfig::lesson_64_gpus()
    })
    .unwrap();
    assert_eq!(plain, fields);
    let json = serde_json::to_value(&plain).unwrap();
    assert!(json["memory"].get("host").is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Offload on never raises a card's memory, never panics, and the report says what §14
    /// says: the card lost 12·Ψ_o, the host holds 16·Ψ_o a card, PCIe carries 6·Ψ_o.
    #[test]
    fn offload_never_raises_a_card_s_memory(
        grid in strategies::power_of_two_grid(),
        m in 1u32..20,
        zero in 0u8..4,
        recompute in strategies::recompute(),
        stages in any::<bool>(),
        gpus_per_node in prop::sample::select(vec![1u32, 4, 6, 8]),
        pcie_gbps in 0.5f64..200.0,
        host_memory_gb in 1.0f64..4096.0,
    ) {
        let config = PlanConfig {
            gpus_per_node,
            micro_batches: m,
            zero,
            recompute,
            accounting: if stages { Accounting::Stages } else { Accounting::Even },
            pcie_gbps,
            host_memory_gb,
            ..grid
        };
        let Ok(off) = Plan::new(&config) else { return Ok(()) };
        let on = Plan::new(&cpu(config.clone())).unwrap();
        let (r_off, r_on) = (off.report(), on.report());
        prop_assert!(r_on.memory.total <= r_off.memory.total);
        for (a, b) in r_on.by_stage.iter().zip(&r_off.by_stage) {
            prop_assert!(a.total <= b.total && a.model_states <= b.model_states);
        }
        for (a, b) in on.cards_memory(&r_on).iter().zip(&off.cards_memory(&r_off)) {
            prop_assert!(a.total <= b.total);
        }
        let host = r_on.memory.host.unwrap();
        prop_assert!(host.per_gpu.get() > 0.0 && host.per_node >= host.per_gpu);
        let row = offload_row(&r_on);
        prop_assert!(row.bytes.get() > 0.0 && row.seconds.get().is_finite());
        if !stages {
            let psi_o = on.optimizer_shard_params();
            close(host.per_gpu.get(), 16.0 * psi_o, "host");
            let cards = f64::from(gpus_per_node.min(config.gpus));
            close(host.per_node.get(), cards * host.per_gpu.get(), "node");
            close(row.bytes.get(), 6.0 * psi_o, "pcie");
            close(
                r_off.memory.model_states.get() - r_on.memory.model_states.get(),
                12.0 * psi_o,
                "on the card",
            );
        }
        prop_assert!(r_on.estimate.step_s >= r_off.estimate.step_s);
    }
}
