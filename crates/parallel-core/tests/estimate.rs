//! The step-time estimate (SPEC §12) against hand-computed cases: dense and MoE, with and
//! without full recompute, with DP hidden behind the backward pass and with DP exposed.

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::{evaluate, Dim, ModelChoice, Plan, PlanConfig, PlanError, Preset, Recompute};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1e-12)
}

/// The anchor: P = 27,781,427,952, F = 16 full-attention layers, a = 24 heads of 256.
const ANCHOR_P: f64 = 27_781_427_952.0;
const ANCHOR_ATTENTION_PER_TOKEN_PER_S: f64 = 6.0 * 16.0 * 24.0 * 256.0;

fn seconds_of(report: &parallel_core::Report, dim: Dim) -> f64 {
    report
        .comm
        .iter()
        .filter(|t| t.dim == dim)
        .map(|t| t.seconds.get())
        .sum()
}

#[test]
fn dense_full_recompute_dp_hidden() {
    // The lesson's 8 cards, DP 8, ZeRO-3, full recompute, m = 8, b = 1, s = 4096.
    let r = evaluate(&PlanConfig::lesson_8_gpus()).unwrap();
    let tokens = 8.0 * 8.0 * 1.0 * 4096.0;
    let flops = (6.0 * ANCHOR_P + ANCHOR_ATTENTION_PER_TOKEN_PER_S * 4096.0) * tokens * 4.0 / 3.0;
    let compute = flops / (8.0 * 400e12);
    let e = r.estimate;
    assert_eq!(e.tokens_per_step, 262_144.0);
    assert!(close(e.flops_per_step, flops));
    assert!(
        close(e.compute_s.get(), compute),
        "{} vs {compute}",
        e.compute_s.get()
    );
    assert!(close(compute, 18.470_719_413_288_96));
    // DP: 0.91 s of ZeRO-3 traffic over NVLink, under (2/3)·18.5 s of backward: all hidden.
    assert!(seconds_of(&r, Dim::Dp) < 2.0 / 3.0 * compute);
    assert_eq!(e.exposed_comm_s.get(), 0.0);
    assert_eq!(e.bubble_s.get(), 0.0);
    assert!(close(e.step_s.get(), compute));
    assert!(close(e.tokens_per_s_per_gpu, tokens / (compute * 8.0)));
}

#[test]
fn dense_selective_tp_and_pp_block_the_bubble_adds() {
    // TP 2 × PP 4 on 8 cards, selective recompute (no extra forward), m = 8: DP 1.
    let config = PlanConfig {
        tp: 2,
        pp: 4,
        recompute: Recompute::Selective,
        ..PlanConfig::default()
    };
    let r = evaluate(&config).unwrap();
    let tokens = 1.0 * 8.0 * 4096.0;
    let compute =
        (6.0 * ANCHOR_P + ANCHOR_ATTENTION_PER_TOKEN_PER_S * 4096.0) * tokens / (8.0 * 400e12);
    let tp = seconds_of(&r, Dim::Tp);
    let pp = seconds_of(&r, Dim::Pp);
    assert!(tp > 0.0 && pp > 0.0);
    let e = r.estimate;
    assert!(close(e.compute_s.get(), compute));
    assert!(
        close(e.bubble_s.get(), compute * 3.0 / 8.0),
        "bubble (p−1)/m = 3/8"
    );
    assert!(close(e.exposed_comm_s.get(), tp + pp));
    assert!(close(e.step_s.get(), compute * (1.0 + 3.0 / 8.0) + tp + pp));
}

#[test]
fn dense_dp_exposed_when_the_backward_is_short() {
    // 1,024-token sequences, m = 1: 0.57 s of compute cannot hide 0.91 s of ZeRO-3 traffic.
    let config = PlanConfig {
        zero: 3,
        seq_len: 1024,
        micro_batches: 1,
        ..PlanConfig::default()
    };
    let r = evaluate(&config).unwrap();
    let tokens = 8.0 * 1024.0;
    let compute = (6.0 * ANCHOR_P + ANCHOR_ATTENTION_PER_TOKEN_PER_S * 1024.0) * tokens * 4.0
        / 3.0
        / (8.0 * 400e12);
    let dp = seconds_of(&r, Dim::Dp);
    assert!(dp > 2.0 / 3.0 * compute);
    assert!(close(
        r.estimate.exposed_comm_s.get(),
        dp - 2.0 / 3.0 * compute
    ));
    assert!(close(
        r.estimate.step_s.get(),
        compute + dp - 2.0 / 3.0 * compute
    ));
}

#[test]
fn moe_counts_active_parameters_and_ep_blocks() {
    // Mixtral 8x7B on 64 cards, TP 4 × PP 2, EP 8, ZeRO-1, no recompute, 200 TFLOP/s.
    let config = PlanConfig {
        model: ModelChoice::Preset(Preset::Mixtral8x7b),
        gpus: 64,
        tp: 4,
        pp: 2,
        ep: 8,
        zero: 1,
        recompute: Recompute::None,
        gpu_tflops: 200.0,
        ..PlanConfig::default()
    };
    let r = evaluate(&config).unwrap();
    // Routed: 32 layers · 8 experts · 3·4096·14,336; P_act = P − routed·(1 − 2/8).
    let routed = 32.0 * 8.0 * 3.0 * 4096.0 * 14_336.0;
    let active = 46_702_792_704.0 - routed * (1.0 - 2.0 / 8.0);
    assert_eq!(active, 12_879_925_248.0);
    let tokens = 8.0 * 8.0 * 1.0 * 4096.0; // d = 64/(4·2) = 8
    let flops = (6.0 * active + 6.0 * 32.0 * 32.0 * 128.0 * 4096.0) * tokens;
    let compute = flops / (64.0 * 200e12);
    let e = r.estimate;
    assert!(close(e.flops_per_step, flops));
    assert!(close(e.compute_s.get(), compute));
    let blocking = seconds_of(&r, Dim::Tp) + seconds_of(&r, Dim::Ep) + seconds_of(&r, Dim::Pp);
    let hidden = seconds_of(&r, Dim::Dp) + seconds_of(&r, Dim::Edp);
    assert!(seconds_of(&r, Dim::Ep) > 0.0 && seconds_of(&r, Dim::Edp) > 0.0);
    let exposed = blocking + (hidden - 2.0 / 3.0 * compute).max(0.0);
    assert!(close(e.exposed_comm_s.get(), exposed));
    assert!(close(e.bubble_s.get(), compute / 8.0), "bubble (2−1)/8");
    assert!(close(e.step_s.get(), compute * 1.125 + exposed));
}

#[test]
fn the_throughput_must_be_positive() {
    for bad in [0.0, -5.0, f64::NAN, f64::INFINITY] {
        let error = Plan::new(&PlanConfig {
            gpu_tflops: bad,
            ..PlanConfig::default()
        })
        .unwrap_err();
        assert_eq!(error.field(), "gpu_tflops", "{bad}");
        assert!(matches!(error, PlanError::NotPositive { .. }));
    }
}
