//! The step-time estimate (SPEC §17) against hand-computed cases: the roofline (dense, MoE,
//! thin CP shards), α–β collectives (TP with and without full recompute, CP's backward, PP,
//! DP buckets over NVLink and over the network), the bubble, the exposed DP time and MFU.

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::{
    evaluate, Dim, Field, ModelChoice, Plan, PlanConfig, PlanError, Preset, Recompute, Report,
};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1e-12)
}

/// The anchor: P = 27,781,427,952, L = 64, F = 16 full-attention layers, a = 24 heads of 256,
/// 4 KV heads.
const ANCHOR_P: f64 = 27_781_427_952.0;
/// Its P_mm, the parameters a token meets in a matrix product (Megatron's count): P less the
/// untied input embedding V·h = 248,320·5,120 and the norms (2·64 + 1)·5,120.
const ANCHOR_P_MM: f64 = ANCHOR_P - 248_320.0 * 5120.0 - 129.0 * 5120.0;
const ANCHOR_ATTENTION_PER_TOKEN_PER_S: f64 = 6.0 * 16.0 * 24.0 * 256.0;
/// ⌈2·Ψ/50 MB⌉ for the anchor's Ψ = P (t = p = 1): 55,562,855,904 bytes in 1,112 buckets.
const ANCHOR_BUCKETS: f64 = 1112.0;
const NVLINK: f64 = 160e9;
const IB: f64 = 50e9;

/// The estimate's data-parallel time of a plan (`Plan::comm_times` over its report's rows).
fn dp_time(plan: &Plan, report: &Report) -> parallel_core::estimate::CommTime {
    let times = plan.comm_times(&report.comm);
    *times.iter().find(|t| t.dim == Dim::Dp).unwrap()
}

fn row(report: &Report, dim: Dim) -> (f64, u32) {
    let t = report.comm.iter().find(|t| t.dim == dim).unwrap();
    (t.bytes.get(), t.group_size)
}

#[test]
fn dense_full_recompute_dp_in_buckets_hidden() {
    // The lesson's 8 cards, DP 8, ZeRO-3, full recompute, m = 8, b = 1, s = 4096.
    let r = evaluate(&PlanConfig::lesson_8_gpus()).unwrap();
    let tokens = 8.0 * 8.0 * 1.0 * 4096.0;
    // R = 400/3.35 = 119.4 FLOPs per byte < T_l = 4096 tokens: the GEMMs run at full rate.
    let flops =
        (6.0 * ANCHOR_P_MM + ANCHOR_ATTENTION_PER_TOKEN_PER_S * 4096.0) * tokens * 4.0 / 3.0;
    let compute = flops / (8.0 * 400e12);
    let e = r.estimate;
    assert_eq!(e.roofline_factor, 1.0);
    assert!(close(e.flops_per_step, flops));
    assert!(
        close(e.compute_s.get(), compute),
        "{} vs {compute}",
        e.compute_s.get()
    );
    assert!(close(compute, 17.637_062_905_692_16));
    // ZeRO-3, for each of the m = 8 micro-batches: a reduce-scatter of g·Ψ and two
    // all-gathers of 2·Ψ, 1,112 buckets each, 7 steps each over NVLink at 1 µs (23.4 ms of
    // α), and the table's 145.9 GB at 160 GB/s.
    let (bytes, n) = row(&r, Dim::Dp);
    assert_eq!(n, 8);
    let dp = 8.0 * (3.0 * ANCHOR_BUCKETS * 7.0 * 1e-6 + bytes / NVLINK);
    let plan = Plan::new(&PlanConfig::lesson_8_gpus()).unwrap();
    let dp_time = dp_time(&plan, &r);
    assert!(close(dp_time.seconds.get(), dp), "{dp_time:?} vs {dp}");
    assert!(close(
        dp_time.latency.get(),
        8.0 * 3.0 * ANCHOR_BUCKETS * 7.0 * 1e-6
    ));
    assert!(dp < 2.0 / 3.0 * compute, "hidden behind the backward pass");
    assert_eq!(e.exposed_comm_s.get(), 0.0);
    assert_eq!(e.latency_s.get(), 0.0);
    assert_eq!(e.bubble_s.get(), 0.0);
    assert!(close(e.step_s.get(), compute));
    assert!(close(e.tokens_per_s_per_gpu, tokens / (compute * 8.0)));
    // MFU counts the model's FLOPs (no recompute) against the lesson card's 989 peak.
    assert!(close(e.mfu, flops * 3.0 / 4.0 / (8.0 * 989e12 * compute)));
}

#[test]
fn dense_selective_tp_and_pp_alpha_beta_block_and_the_bubble_adds() {
    // TP 2 × PP 4 on 8 cards, selective recompute, m = 8: DP 1.
    let config = PlanConfig {
        tp: 2,
        pp: 4,
        recompute: Recompute::Selective,
        ..PlanConfig::default()
    };
    let r = evaluate(&config).unwrap();
    let tokens = 8.0 * 4096.0;
    let compute =
        (6.0 * ANCHOR_P_MM + ANCHOR_ATTENTION_PER_TOKEN_PER_S * 4096.0) * tokens / (8.0 * 400e12);
    // TP: m·(L/p)·4 = 8·16·4 = 512 all-reduces of 2(t−1) = 2 steps at 1 µs.
    let tp = 512.0 * 2.0 * 1e-6 + row(&r, Dim::Tp).0 / NVLINK;
    // PP: m·2 = 16 sends of one step.
    let pp = 16.0 * 1e-6 + row(&r, Dim::Pp).0 / NVLINK;
    let e = r.estimate;
    assert!(close(e.compute_s.get(), compute));
    assert!(
        close(e.bubble_s.get(), compute * 3.0 / 8.0),
        "bubble (p−1)/m = 3/8"
    );
    assert!(close(e.exposed_comm_s.get(), tp + pp));
    assert!(close(e.latency_s.get(), 512.0 * 2.0 * 1e-6 + 16.0 * 1e-6));
    assert!(close(e.step_s.get(), compute * (1.0 + 3.0 / 8.0) + tp + pp));
}

#[test]
fn full_recompute_repeats_tp_s_forward_calls() {
    // TP 8 on 8 cards, full recompute: 6 calls per layer, TP bytes × 3/2.
    let r = evaluate(&PlanConfig {
        tp: 8,
        ..PlanConfig::default()
    })
    .unwrap();
    let calls = 8.0 * 64.0 * 6.0;
    let tp = calls * 14.0 * 1e-6 + 1.5 * row(&r, Dim::Tp).0 / NVLINK;
    assert!(close(r.estimate.exposed_comm_s.get(), tp));
    assert!(close(r.estimate.latency_s.get(), calls * 14.0 * 1e-6));
}

#[test]
fn cp_pays_its_backward_and_thin_shards_hit_the_roofline() {
    // CP 8 on 8 cards at s = 512: T_l = 64 tokens a card, under the ridge R = 400/3.35.
    let r = evaluate(&PlanConfig {
        cp: 8,
        seq_len: 512,
        recompute: Recompute::None,
        ..PlanConfig::default()
    })
    .unwrap();
    let ridge = 400.0 / 3.35;
    let factor = ridge / 64.0;
    let tokens = 8.0 * 512.0; // d = 1
    let compute = (6.0 * ANCHOR_P_MM * tokens * factor
        + ANCHOR_ATTENTION_PER_TOKEN_PER_S * 512.0 * tokens)
        / (8.0 * 400e12);
    let e = r.estimate;
    assert!(close(e.roofline_factor, factor));
    assert!(close(e.compute_s.get(), compute));
    // CP: m·F·2 = 8·16·2 = 256 calls of c − 1 = 7 steps; bytes × 2 for dK, dV.
    let (bytes, n) = row(&r, Dim::Cp);
    assert_eq!(n, 8);
    let cp = 256.0 * 7.0 * 1e-6 + 2.0 * bytes / NVLINK;
    // The CP group shares the weights: DP over D = d·c = 8, ZeRO-0, one all-reduce in 1,112
    // buckets of 2(n−1) = 14 steps; with so little compute most of it is exposed.
    let dp = ANCHOR_BUCKETS * 14.0 * 1e-6 + row(&r, Dim::Dp).0 / NVLINK;
    let unhidden = (dp - 2.0 / 3.0 * compute).max(0.0);
    assert!(unhidden > 0.0);
    assert!(close(e.exposed_comm_s.get(), cp + unhidden));
}

#[test]
fn dp_buckets_over_the_network_are_exposed_when_the_backward_is_short() {
    // 16 cards on 2 nodes, ZeRO-0, s = 1024, m = 1, no recompute: one all-reduce of g·Ψ in
    // 1,112 buckets, 2(n−1) = 30 steps each at 5 µs over InfiniBand.
    let r = evaluate(&PlanConfig {
        gpus: 16,
        seq_len: 1024,
        micro_batches: 1,
        recompute: Recompute::None,
        ..PlanConfig::default()
    })
    .unwrap();
    let tokens = 16.0 * 1024.0;
    let compute =
        (6.0 * ANCHOR_P_MM + ANCHOR_ATTENTION_PER_TOKEN_PER_S * 1024.0) * tokens / (16.0 * 400e12);
    let (bytes, n) = row(&r, Dim::Dp);
    assert_eq!(n, 16);
    let alpha = ANCHOR_BUCKETS * 30.0 * 5e-6;
    let dp = alpha + bytes / IB;
    let e = r.estimate;
    let unhidden = dp - 2.0 / 3.0 * compute;
    assert!(unhidden > 0.0);
    assert!(close(e.exposed_comm_s.get(), unhidden));
    assert!(close(e.latency_s.get(), unhidden * alpha / dp));
    assert!(close(e.step_s.get(), compute + unhidden));
}

/// ZeRO-1, 2 and 3 on 16 cards over two nodes (DP 16 over InfiniBand), m = 4, s = 1024, no
/// recompute: what each sends for data parallelism in a step, by hand.
#[test]
fn zero_2_and_3_sync_every_micro_batch() {
    let ring = 15.0 / 16.0;
    // g = 2: g·Ψ = 2·Ψ = 55,562,855,904 bytes, 1,112 buckets; 15 steps a call at 5 µs.
    let (grads, params) = (2.0 * ANCHOR_P, 2.0 * ANCHOR_P);
    let cases = [
        // ZeRO-1: the full gradients accumulate; one reduce-scatter and one all-gather a step.
        (1, ring * (grads + params), 2.0 * ANCHOR_BUCKETS),
        // ZeRO-2: the gradient shard is reduce-scattered after each of the 4 backwards.
        (2, ring * (4.0 * grads + params), 5.0 * ANCHOR_BUCKETS),
        // ZeRO-3: and the weights are gathered for each forward and each backward.
        (
            3,
            ring * 4.0 * (grads + 2.0 * params),
            12.0 * ANCHOR_BUCKETS,
        ),
    ];
    for (zero, sent, calls) in cases {
        let config = PlanConfig {
            gpus: 16,
            seq_len: 1024,
            micro_batches: 4,
            zero,
            recompute: Recompute::None,
            ..PlanConfig::default()
        };
        let r = evaluate(&config).unwrap();
        let (table_bytes, n) = row(&r, Dim::Dp);
        assert_eq!(n, 16);
        // The traffic table keeps the lesson's once-a-step accounting.
        assert!(close(
            table_bytes,
            ring * (grads + params * if zero == 3 { 2.0 } else { 1.0 })
        ));
        let time = dp_time(&Plan::new(&config).unwrap(), &r);
        let alpha = calls * 15.0 * 5e-6;
        assert!(close(time.latency.get(), alpha), "ZeRO-{zero}: {time:?}");
        assert!(
            close(time.seconds.get(), alpha + sent / IB),
            "ZeRO-{zero}: {time:?}"
        );
    }
}

#[test]
fn moe_experts_have_their_own_roofline_and_ep_blocks() {
    // Mixtral 8x7B on 8 of the lesson's cards (SPEC §17's roofline: the card without kernel
    // tables), EP 2, s = 128, ZeRO-1, no recompute, NVLink 160 GB/s.
    let config = PlanConfig {
        model: ModelChoice::Preset(Preset::Mixtral8x7b),
        ep: 2,
        seq_len: 128,
        zero: 1,
        recompute: Recompute::None,
        ..PlanConfig::default()
    };
    let r = evaluate(&config).unwrap();
    let tflops = 400.0;
    let ridge = tflops / 3.35; // 119.4 FLOPs per byte
                               // Dense part: T_l = 128 ≥ R, factor 1. Experts: T_e = 128·top_k 2·e 2/experts 8 = 64.
    let expert_factor = ridge / 64.0;
    let routed = 32.0 * 8.0 * 3.0 * 4096.0 * 14_336.0;
    // P_mm less the routed experts: the untied input embedding 32,000·4,096, the norms
    // (2·32 + 1)·4,096 and the routers 32·4,096·8 are not products Megatron counts.
    let dense = 46_702_792_704.0 - routed - 32_000.0 * 4096.0 - 65.0 * 4096.0 - 32.0 * 4096.0 * 8.0;
    let active_routed = routed * 2.0 / 8.0;
    let tokens = 8.0 * 8.0 * 128.0;
    let attention = 6.0 * 32.0 * 32.0 * 128.0 * 128.0 * tokens;
    let compute = (6.0 * dense * tokens + 6.0 * active_routed * tokens * expert_factor + attention)
        / (8.0 * tflops * 1e12);
    let e = r.estimate;
    assert_eq!(e.roofline_factor, 1.0);
    assert!(close(e.compute_s.get(), compute));
    // EP: m·MoE layers·4 = 8·32·4 = 1,024 all-to-alls of e − 1 = 1 step.
    let ep = 1024.0 * 1e-6 + row(&r, Dim::Ep).0 / 160e9;
    let (dp_bytes, _) = row(&r, Dim::Dp);
    let (edp_bytes, _) = row(&r, Dim::Edp);
    assert!(dp_bytes > 0.0 && edp_bytes > 0.0);
    let model_flops = (6.0 * (dense + active_routed)) * tokens + attention;
    assert!(e.exposed_comm_s.get() >= ep);
    assert!(close(e.mfu, model_flops / (8.0 * 989e12 * e.step_s.get())));
}

#[test]
fn the_card_fields_must_be_in_range() {
    for bad in [0.0, -5.0, f64::NAN, f64::INFINITY] {
        for field in [Field::GpuTflops, Field::HbmTbps, Field::PeakTflops] {
            let mut c = PlanConfig::default();
            match field {
                Field::GpuTflops => c.gpu_tflops = bad,
                Field::HbmTbps => c.hbm_tbps = bad,
                _ => c.peak_tflops = bad,
            }
            let error = Plan::new(&c).unwrap_err();
            assert_eq!(error.field(), field, "{bad}");
            assert!(matches!(error, PlanError::NotPositive { .. }));
        }
    }
    for bad in [0.0, 1.01, -0.5, f64::NAN] {
        let error = Plan::new(&PlanConfig {
            matmul_efficiency: bad,
            ..PlanConfig::default()
        });
        assert_eq!(error.unwrap_err().field(), Field::MatmulEfficiency, "{bad}");
    }
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        let error = Plan::new(&PlanConfig {
            ib_latency_us: bad,
            ..PlanConfig::default()
        });
        assert_eq!(error.unwrap_err().field(), Field::IbLatencyUs, "{bad}");
        let error = Plan::new(&PlanConfig {
            nvlink_latency_us: bad,
            ..PlanConfig::default()
        });
        assert_eq!(error.unwrap_err().field(), Field::NvlinkLatencyUs, "{bad}");
    }
    assert!(Plan::new(&PlanConfig {
        ib_latency_us: 0.0,
        ..PlanConfig::default()
    })
    .is_ok());
}
