//! The lesson's printed figures (SPEC §9 and the 64-GPU table of seed 001), to the decimal
//! the lesson prints them with. These are the first numbers a student checks.

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::lesson::{eight_gpu_plans, llama3_runs, sixty_four_gpu_plans, LessonPlan};
use parallel_core::{evaluate, Link, Plan, PlanConfig, Report};

/// One expected row: states, activations, total (GB, one decimal), fits, per-dimension
/// traffic ("dim GB link"), bubble ratio as a percent with one decimal ("—" for none).
struct Row {
    states: &'static str,
    activations: &'static str,
    total: &'static str,
    fits: bool,
    comm: &'static [&'static str],
    bubble: &'static str,
}

fn describe_comm(report: &Report) -> Vec<String> {
    report
        .comm
        .iter()
        .map(|t| {
            let link = match t.link {
                Link::NvLink => "nvlink",
                Link::InfiniBand => "ib",
                Link::Pcie => "pcie",
            };
            format!("{} {} {link}", t.dim, t.bytes)
        })
        .collect()
}

/// Each of the lesson's plans against its row of the printed table.
fn check_table(plans: &[LessonPlan], rows: &[Row]) {
    assert_eq!(plans.len(), rows.len());
    for (plan, row) in plans.iter().zip(rows) {
        check(plan.id, &plan.config, row);
    }
}

fn check(label: &str, config: &PlanConfig, want: &Row) {
    let report = evaluate(config).unwrap_or_else(|e| panic!("{label}: {e}"));
    let m = &report.memory;
    assert_eq!(m.model_states.to_string(), want.states, "{label}: states");
    assert_eq!(
        m.activations.to_string(),
        want.activations,
        "{label}: activations"
    );
    assert_eq!(m.total.to_string(), want.total, "{label}: total");
    assert_eq!(m.fits, want.fits, "{label}: fits");
    assert_eq!(describe_comm(&report), want.comm, "{label}: comm");
    let bubble = if report.bubble.ratio == 0.0 {
        "—".to_string()
    } else {
        format!("{:.1}%", report.bubble.ratio * 100.0)
    };
    assert_eq!(bubble, want.bubble, "{label}: bubble");
}

#[test]
fn eight_gpu_table_matches_spec_section_9() {
    let rows = [
        Row {
            states: "55.6 GB",
            activations: "2.7 GB",
            total: "58.2 GB",
            fits: true,
            comm: &["dp 145.9 GB nvlink"],
            bubble: "—",
        },
        Row {
            states: "55.6 GB",
            activations: "45.6 GB",
            total: "101.2 GB",
            fits: false,
            comm: &["dp 145.9 GB nvlink"],
            bubble: "—",
        },
        Row {
            states: "55.6 GB",
            activations: "5.7 GB",
            total: "61.3 GB",
            fits: true,
            comm: &["tp 150.3 GB nvlink"],
            bubble: "—",
        },
        Row {
            states: "55.6 GB",
            activations: "1.3 GB",
            total: "56.9 GB",
            fits: true,
            comm: &["tp 21.5 GB nvlink", "pp 0.7 GB nvlink"],
            bubble: "37.5%",
        },
    ];
    check_table(&eight_gpu_plans(), &rows);
}

#[test]
fn sixty_four_gpu_table_matches_the_lesson() {
    let rows = [
        Row {
            states: "6.9 GB",
            activations: "0.3 GB",
            total: "7.3 GB",
            fits: true,
            comm: &["tp 18.8 GB nvlink", "pp 0.7 GB ib"],
            bubble: "87.5%",
        },
        Row {
            states: "6.9 GB",
            activations: "0.3 GB",
            total: "7.3 GB",
            fits: true,
            comm: &["tp 75.2 GB nvlink", "pp 2.7 GB ib"],
            bubble: "21.9%",
        },
        Row {
            states: "12.2 GB",
            activations: "0.3 GB",
            total: "12.5 GB",
            fits: true,
            comm: &["tp 75.2 GB nvlink", "pp 0.7 GB ib", "dp 5.2 GB ib"],
            bubble: "12.5%",
        },
    ];
    check_table(&sixty_four_gpu_plans(), &rows);
}

#[test]
fn zero_chain_on_eight_gpus() {
    let chain: Vec<String> = (0..=3)
        .map(|zero| {
            let r = evaluate(&PlanConfig {
                zero,
                ..PlanConfig::default()
            })
            .expect("valid");
            r.memory.model_states.to_string()
        })
        .collect();
    assert_eq!(chain, ["444.5 GB", "152.8 GB", "104.2 GB", "55.6 GB"]);
}

#[test]
fn fp32_gradient_ledger_is_18_bytes_per_parameter() {
    use parallel_core::Precision;
    let p = 27_781_427_952.0;
    let states = |zero| {
        let config = PlanConfig {
            zero,
            precision: Precision::Fp32Grads,
            ..PlanConfig::default()
        };
        evaluate(&config).expect("valid").memory.model_states.get()
    };
    let d = 8.0;
    // Seed 000: M0 = 18P, M1 = 6P + 12P/D, M2 = 2P + 16P/D, M3 = 18P/D.
    let want = [
        18.0 * p,
        6.0 * p + 12.0 * p / d,
        2.0 * p + 16.0 * p / d,
        18.0 * p / d,
    ];
    for (zero, want) in (0..=3).zip(want) {
        let got = states(zero);
        assert!(
            (got - want).abs() < 1e-3 * want,
            "ZeRO-{zero}: {got} vs {want}"
        );
    }
}

#[test]
fn evolution_map_figures() {
    // Ring all-reduce of BF16 gradients without ZeRO: 97.2 GB on 8 cards, 109.4 GB on 64.
    let dp_bytes = |gpus| {
        let r = evaluate(&PlanConfig {
            gpus,
            ..PlanConfig::default()
        })
        .expect("valid");
        let dp = r
            .comm
            .iter()
            .find(|t| t.dim.as_str() == "dp")
            .expect("dp entry");
        (dp.bytes.to_string(), dp.link)
    };
    assert_eq!(dp_bytes(8), ("97.2 GB".to_string(), Link::NvLink));
    assert_eq!(dp_bytes(64), ("109.4 GB".to_string(), Link::InfiniBand));
    // ... 1.94 s over InfiniBand at 50 GB/s.
    let over_ib = parallel_core::Bytes::new(3.5 * 27_781_427_952.0)
        / parallel_core::BytesPerSec::from_gbps(50.0);
    assert_eq!(over_ib.to_string(), "1.94 s");

    // TP 8 with one micro-batch of 4,096 tokens: 18.8 GB per card.
    let tp = evaluate(&PlanConfig {
        tp: 8,
        micro_batches: 1,
        ..PlanConfig::default()
    })
    .expect("valid");
    assert_eq!(tp.comm[0].bytes.to_string(), "18.8 GB");

    // Interleaved, p = 8, m = 32, v = 4: bubble 5.5%.
    let inter = Plan::new(&PlanConfig {
        gpus: 64,
        tp: 8,
        pp: 8,
        micro_batches: 32,
        schedule: parallel_core::Schedule::Interleaved,
        virtual_stages: 4,
        ..PlanConfig::default()
    })
    .expect("valid");
    assert_eq!(format!("{:.1}%", inter.bubble().ratio * 100.0), "5.5%");

    // CP 8 at s = 131,072: K and V all-gather of 0.5 GB per full-attention layer per card.
    let cp = Plan::new(&PlanConfig {
        cp: 8,
        seq_len: 131_072,
        micro_batches: 1,
        ..PlanConfig::default()
    })
    .expect("valid");
    let cp_entry = cp
        .traffic()
        .into_iter()
        .find(|t| t.dim.as_str() == "cp")
        .expect("cp");
    let per_layer = cp_entry.bytes.get() / 16.0;
    assert_eq!(format!("{:.1}", per_layer / 1e9), "0.5");

    // The per-micro-batch activation passed between stages: 41.9 MB.
    let pp = Plan::new(&PlanConfig {
        tp: 2,
        pp: 4,
        ..PlanConfig::default()
    })
    .expect("valid");
    assert_eq!(
        format!("{:.1} MB", pp.activation_tensor().get() / 1e6),
        "41.9 MB"
    );
}

#[test]
fn full_recompute_activations_in_gib() {
    let r = evaluate(&PlanConfig::lesson_8_gpus()).expect("valid");
    assert_eq!(r.memory.activations.display_gib(), "2.5 GiB");
}

#[test]
fn llama3_tokens_per_step_are_16m() {
    let want_dp = [64, 128, 8];
    for (run, dp) in llama3_runs().iter().zip(want_dp) {
        let plan = Plan::new(&run.config).expect("valid");
        assert_eq!(plan.degrees().dp, dp);
        assert_eq!(plan.tokens_per_step(), 16_777_216.0);
    }
}
