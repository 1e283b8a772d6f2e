//! SPEC §18 by hand: a layer's time from the measured tables (a dense MHA layer, a GQA layer
//! under TP, an MoE layer under EP and a layer under CP), the optimizer step, the borrowing
//! rule, and NCCL's ring latency against the constants of its tuning model.

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use parallel_core::estimate::{LayerKernels, MEMORY_BOUND_STEP, OPTIMIZER_BYTES_PER_PARAM};
use parallel_core::hardware::{
    Hardware, NCCL_BASE_LATENCY_US, NCCL_NET_STEP_US, NCCL_NVLINK_STEP_US, NCCL_RING_PLATEAU,
};
use parallel_core::kernels::{Kernels, Pass, H200_ATTENTION, H200_COPY_TBPS, H200_GEMM};
use parallel_core::{Dim, InlineModel, Mlp, ModelChoice, Plan, PlanConfig, Recompute};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1e-15)
}

/// Seconds of one GEMM of m tokens over its three passes at the H200 table's rates × `scale`.
fn gemm(m: f64, n: f64, k: f64, scale: f64) -> f64 {
    let seconds_per_flop: f64 = Pass::ALL
        .iter()
        .map(|&p| 1.0 / (H200_GEMM.rate(p, m, n, k) * scale * 1e12))
        .sum();
    2.0 * m * n * k * 3.0 / (3.0 / seconds_per_flop)
}

/// A dense layer's four GEMMs over `t` tokens of width `h`, in the order they run: QKV
/// (`widths[0]` wide), the attention's output projection (over `widths[1]`), MLP up
/// (`widths[2]` wide) and down (over `widths[3]`).
fn layer_gemms(t: f64, h: f64, widths: [f64; 4]) -> f64 {
    let [qkv, attention_out, up, down] = widths;
    gemm(t, qkv, h, 1.0)
        + gemm(t, h, attention_out, 1.0)
        + gemm(t, up, h, 1.0)
        + gemm(t, h, down, 1.0)
}

/// Causal attention forward + backward of one layer: 3.5·4·heads·head_dim·q·s/2 FLOPs at the
/// table's rate for chunks of `chunk` queries and `width` heads × batch.
fn attention(heads: f64, head_dim: f64, q: f64, s: f64, chunk: f64, width: f64) -> f64 {
    3.5 * 4.0 * heads * head_dim * q * s / 2.0 / (H200_ATTENTION.rate(chunk, width) * 1e12)
}

/// Seconds to move `bytes` at the H200's measured copy rate.
fn copy_seconds(bytes: f64) -> f64 {
    bytes / (H200_COPY_TBPS * 1e12)
}

/// The plan's layer against the seconds worked out by hand for its GEMMs and attention, and
/// the bytes its memory-bound kernels move; the layer.
fn check_layer(p: &Plan, gemms: f64, attention: f64, bytes: f64) -> LayerKernels {
    let layer = p.layer_kernels().unwrap();
    assert!(close(layer.gemm_s.get(), gemms), "{layer:?} vs {gemms}");
    assert!(close(layer.attention_s.get(), attention), "{layer:?}");
    assert!(
        close(layer.memory_bound_s.get(), copy_seconds(bytes)),
        "{layer:?}"
    );
    layer
}

fn model(hidden: u32, heads: u32, kv_heads: u32, ffn: u32) -> InlineModel {
    InlineModel {
        hidden: Some(hidden),
        layers: Some(1),
        heads: Some(heads),
        kv_heads: Some(kv_heads),
        ffn: Some(ffn),
        vocab: Some(32_000),
        ..InlineModel::default()
    }
}

fn plan(model: InlineModel, config: PlanConfig) -> Plan {
    Plan::new(&PlanConfig {
        model: ModelChoice::Inline(model),
        global_batch: None,
        ..config
    })
    .unwrap()
}

/// One layer of Llama 3 8B's shape (32 heads, 8 KV heads, ffn 14,336) on `config`.
fn llama3_8b_layer(config: PlanConfig) -> Plan {
    plan(model(4096, 32, 8, 14_336), config)
}

fn on_h200(gpus: u32) -> PlanConfig {
    PlanConfig {
        gpus,
        gpus_per_node: gpus.min(8),
        zero: 0,
        recompute: Recompute::None,
        micro_batches: 1,
        ..PlanConfig::on(Hardware::H200)
    }
}

#[test]
fn a_dense_mha_layer_by_hand() {
    // h 4,096, 32 heads of 128, no GQA, ffn 11,008; s 2,048 on one card.
    let p = plan(
        model(4096, 32, 32, 11_008),
        PlanConfig {
            seq_len: 2048,
            ..on_h200(1)
        },
    );
    let (h, f, t) = (4096.0, 11_008.0, 2048.0);
    let gemms = layer_gemms(t, h, [3.0 * h, h, 2.0 * f, f]);
    let attn = attention(32.0, 128.0, t, t, t, 32.0);
    let b = MEMORY_BOUND_STEP;
    let bytes = 2.0 * t * (b.hidden * h + b.rotary * (32.0 + 32.0) * 128.0 + b.ffn * f);
    let layer = check_layer(&p, gemms, attn, bytes);
    assert!(close(
        layer.total_s.get(),
        gemms + attn + copy_seconds(bytes)
    ));
}

#[test]
fn a_plain_gpt_layer_by_hand() {
    // GPT's layer (Narayanan et al. 2021): h 2,304, 24 heads, a plain 4h MLP (up, GeLU, down);
    // TP 2 on 2 cards, s 2,048: up is N = 4h/2, not 2·4h/2, and the FFN's memory-bound bytes
    // are a GeLU's.
    let p = plan(
        InlineModel {
            mlp: Mlp::Plain,
            ..model(2304, 24, 24, 4 * 2304)
        },
        PlanConfig {
            seq_len: 2048,
            tp: 2,
            ..on_h200(2)
        },
    );
    let (h, f, t) = (2304.0, 4.0 * 2304.0 / 2.0, 2048.0);
    let gemms = layer_gemms(t, h, [3.0 * h / 2.0, h / 2.0, f, f]);
    let attn = attention(12.0, 96.0, t, t, t, 12.0);
    let b = MEMORY_BOUND_STEP;
    let bytes =
        2.0 * t * (b.hidden * h + b.rotary * (24.0 + 24.0) * 96.0 + b.plain_ffn * 4.0 * h) / 2.0;
    let layer = check_layer(&p, gemms, attn, bytes);
    // The same shapes gated hold a third more MLP: its up GEMM is twice as wide.
    let gated = plan(
        model(2304, 24, 24, 4 * 2304),
        PlanConfig {
            seq_len: 2048,
            tp: 2,
            ..on_h200(2)
        },
    );
    assert!(gated.layer_kernels().unwrap().gemm_s > layer.gemm_s);
}

#[test]
fn a_gqa_layer_under_tp_by_hand() {
    // Llama 3 8B's layer (32 heads, 8 KV heads, ffn 14,336), TP 4, b 2, s 4,096: each card's
    // QKV is (32 + 16)·128/4 = 1,536 wide, its MLP 2·14,336/4 = 7,168, 8 heads × 2 sequences.
    let p = llama3_8b_layer(PlanConfig {
        tp: 4,
        seq_len: 4096,
        micro_batch_size: 2,
        ..on_h200(4)
    });
    let (h, t) = (4096.0, 8192.0);
    let gemms = layer_gemms(t, h, [1536.0, 1024.0, 7168.0, 3584.0]);
    let attn = attention(8.0, 128.0, 4096.0, 4096.0, 4096.0, 16.0) * 2.0;
    let b = MEMORY_BOUND_STEP;
    let bytes = 2.0 * t * (b.hidden * h + b.rotary * 40.0 * 128.0 + b.ffn * 14_336.0) / 4.0;
    check_layer(&p, gemms, attn, bytes);
}

#[test]
fn a_cp_layer_runs_its_queries_in_chunks() {
    // CP 4 at s 16,384: each card has 4,096 queries against all 16,384 keys, at the rate of
    // 4,096-long chunks; its GEMMs see 4,096 tokens.
    let p = llama3_8b_layer(PlanConfig {
        cp: 4,
        seq_len: 16_384,
        ..on_h200(4)
    });
    let whole = llama3_8b_layer(PlanConfig {
        seq_len: 16_384,
        ..on_h200(1)
    });
    let attn = attention(32.0, 128.0, 4096.0, 16_384.0, 4096.0, 32.0);
    let layer = p.layer_kernels().unwrap();
    assert!(close(layer.attention_s.get(), attn));
    // A quarter of the work, at a slower rate: more than a quarter of the whole's time.
    let one = whole.layer_kernels().unwrap();
    assert!(layer.attention_s.get() > one.attention_s.get() / 4.0);
    assert!(close(
        layer.gemm_s.get(),
        layer_gemms(4096.0, 4096.0, [6144.0, 4096.0, 28_672.0, 14_336.0])
    ));
}

#[test]
fn an_moe_layer_runs_each_expert_at_its_tokens() {
    // 8 experts of ffn 2,048, top 2, one shared expert, EP 4 on 4 cards, s 4,096: each card
    // holds 2 experts, each receiving 4,096·2·4/8 = 4,096 tokens.
    let moe = InlineModel {
        moe_layers: Some(1),
        experts: Some(8),
        top_k: Some(2),
        expert_ffn: Some(2048),
        shared_experts: Some(1),
        ..model(2048, 16, 4, 8192)
    };
    let p = plan(
        moe,
        PlanConfig {
            ep: 4,
            seq_len: 4096,
            ..on_h200(4)
        },
    );
    let (h, t) = (2048.0, 4096.0);
    let qkv_o = gemm(t, (16.0 + 8.0) * 128.0, h, 1.0) + gemm(t, h, 2048.0, 1.0);
    let router = gemm(t, 8.0, h, 1.0);
    let experts = 2.0 * (gemm(4096.0, 4096.0, h, 1.0) + gemm(4096.0, h, 2048.0, 1.0));
    let shared = gemm(t, 4096.0, h, 1.0) + gemm(t, h, 2048.0, 1.0);
    let layer = p.layer_kernels().unwrap();
    assert!(
        close(layer.gemm_s.get(), qkv_o + router + experts + shared),
        "{layer:?}"
    );
    let b = MEMORY_BOUND_STEP;
    let per_token = b.hidden * h
        + b.rotary * 20.0 * 128.0
        + 2.0 * (b.ffn * 2048.0 + b.permute * h)
        + b.ffn * 2048.0;
    assert!(close(
        layer.memory_bound_s.get(),
        copy_seconds(2.0 * t * per_token)
    ));
}

#[test]
fn the_optimizer_reads_and_writes_its_shard() {
    let config = PlanConfig {
        zero: 1,
        ..PlanConfig::on(Hardware::H100)
    };
    let p = Plan::new(&config).unwrap();
    let e = p.estimate();
    let split = e.kernels.unwrap();
    // ZeRO-1 over DP 8: the card updates P/8 parameters, at the H100's copy rate 3.35·4.07/4.8.
    let params = p.model().params / 8.0;
    let copy = 3.35 * H200_COPY_TBPS / 4.8 * 1e12;
    assert!(close(
        split.optimizer_s.get(),
        OPTIMIZER_BYTES_PER_PARAM * params / copy
    ));
    assert!(close(
        e.step_s.get(),
        e.compute_s.get() + e.bubble_s.get() + e.exposed_comm_s.get() + split.optimizer_s.get()
    ));
    // With the optimizer on the host, nothing on the card.
    let offload = PlanConfig {
        optimizer_offload: parallel_core::OptimizerOffload::Cpu,
        ..config
    };
    let split = Plan::new(&offload).unwrap().estimate().kernels.unwrap();
    assert_eq!(split.optimizer_s.get(), 0.0);
}

#[test]
fn cards_without_tables_borrow_them_by_one_rule() {
    for hardware in Hardware::ALL {
        let config = PlanConfig::on(hardware);
        let Some(k) = Kernels::of(&config) else {
            assert_eq!(hardware, Hardware::Lesson);
            assert!(Plan::new(&config).unwrap().estimate().kernels.is_none());
            continue;
        };
        // A shape's rate is the H200's × gpu_tflops ÷ 761.84, copies at HBM × 4.07/4.8.
        let want = H200_GEMM.rate(Pass::Dgrad, 3000.0, 5000.0, 7000.0) * config.gpu_tflops / 761.84;
        assert!(close(
            k.gemm_flops_per_s(Pass::Dgrad, 3000.0, 5000.0, 7000.0) / 1e12,
            want
        ));
        assert!(close(k.copy_tbps, config.hbm_tbps * H200_COPY_TBPS / 4.8));
        let measured = matches!(hardware, Hardware::H200 | Hardware::H100);
        assert_eq!(k.gemm_scale == 1.0, measured, "{hardware}");
        assert_eq!(
            k.source().starts_with("borrowed"),
            hardware != Hardware::H200 && hardware != Hardware::H100 && hardware != Hardware::A100,
            "{hardware}"
        );
    }
}

#[test]
fn nccl_ring_latency_against_its_tuning_model() {
    // NCCL 2.30.7's ring, Simple protocol: base 8.4 µs a call, 3.4 µs a step over NVLink,
    // 14.0 µs a step between nodes, × 1.4 for an all-reduce across nodes (src/graph/tuning.cc
    // lines 151, 159, 171 and 649 @ 5067397).
    assert_eq!(
        (
            NCCL_BASE_LATENCY_US,
            NCCL_NVLINK_STEP_US,
            NCCL_NET_STEP_US,
            NCCL_RING_PLATEAU
        ),
        (8.4, 3.4, 14.0, 1.4)
    );
    let card = PlanConfig::on(Hardware::H100);
    assert_eq!((card.nvlink_latency_us, card.ib_latency_us), (3.4, 14.0));
    let us = 1e-6;
    let latency = |config: &PlanConfig, dim: Dim| {
        let p = Plan::new(config).unwrap();
        let comm = p.traffic();
        let t = p
            .comm_times(&comm)
            .into_iter()
            .find(|t| t.dim == dim)
            .unwrap();
        let calls = match dim {
            Dim::Tp => {
                4.0 * f64::from(p.model().layers) * f64::from(p.micro_batches())
                    / f64::from(p.degrees().pp)
            }
            _ => 0.0,
        };
        (t.latency.get(), calls)
    };
    // TP 8 inside a node: an all-reduce of 2·7 steps, all over NVLink.
    let tp8 = PlanConfig {
        gpus: 64,
        tp: 8,
        recompute: Recompute::Selective,
        ..card.clone()
    };
    let (seconds, calls) = latency(&tp8, Dim::Tp);
    assert!(close(seconds, calls * (8.4 + 14.0 * 3.4) * us));
    // A DP all-reduce (ZeRO-0): its latency, the nodes its groups span, and its buckets:
    // Megatron-Core's max(40M, 1M·D) parameters each on a card with kernel tables.
    let dp = |config: PlanConfig| {
        let p = Plan::new(&config).unwrap();
        let t = p
            .comm_times(&p.traffic())
            .into_iter()
            .find(|t| t.dim == Dim::Dp)
            .unwrap();
        let tp = f64::from(p.degrees().tp);
        let bucket = f64::max(40e6, 1e6 * f64::from(p.degrees().dp));
        let buckets = (p.model().params / tp / bucket).ceil();
        (t.latency.get(), p.grid().nodes_spanned(Dim::Dp), buckets)
    };
    // DP 8 across 8 nodes (TP 8): 2·7 steps, all between nodes; a ring all-reduce across
    // nodes takes × 1.4, the "plateau effect of ring".
    let (seconds, nodes, buckets) = dp(PlanConfig {
        zero: 0,
        ..tp8.clone()
    });
    assert_eq!(nodes, 8);
    assert!(close(seconds, buckets * (8.4 + 14.0 * 14.0) * 1.4 * us));
    // DP 32 over 8 nodes (TP 2, 4 members a node): 62 steps, 2·7 of them between nodes.
    let (seconds, nodes, buckets) = dp(PlanConfig {
        gpus: 64,
        tp: 2,
        zero: 0,
        ..card.clone()
    });
    assert_eq!(nodes, 8);
    assert!(close(
        seconds,
        buckets * (8.4 + 48.0 * 3.4 + 14.0 * 14.0) * 1.4 * us
    ));
    // The lesson's card keeps SPEC §17: calls·steps·α, 1 µs over NVLink.
    let lesson = PlanConfig {
        gpus: 64,
        tp: 8,
        recompute: Recompute::Selective,
        ..PlanConfig::default()
    };
    let (seconds, calls) = latency(&lesson, Dim::Tp);
    assert!(close(seconds, calls * 14.0 * 1.0 * us));
}

mod random {
    use crate::common::strategies;
    use parallel_core::explain::Figure;
    use parallel_core::hardware::Hardware;
    use parallel_core::{ModelChoice, Plan, PlanConfig, Preset};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// On every card, over random plans of dense and MoE presets: the estimate is finite,
        /// its compute is the sum of the kernel split, the step holds the optimizer, and each
        /// new figure's explanation computes the report's value to the bit.
        #[test]
        fn kernel_estimates_are_whole_and_explained(
            hardware in prop::sample::select(Hardware::ALL.to_vec()),
            preset in prop::sample::select(vec![Preset::Llama3_8b, Preset::Mixtral8x7b,
                Preset::Qwen3_30bA3b, Preset::Llama3_70b]),
            (tp, pp, cp) in (prop::sample::select(vec![1u32, 2, 4, 8]),
                prop::sample::select(vec![1u32, 2, 4]), prop::sample::select(vec![1u32, 2, 4])),
            dp in 1u32..=4,
            seq in prop::sample::select(vec![512u32, 2048, 8192, 32768]),
            b in 1u32..=4,
            m in 1u32..=16,
            zero in 0u8..=3,
            recompute in strategies::recompute(),
        ) {
            let config = PlanConfig {
                model: ModelChoice::Preset(preset),
                gpus: tp * pp * cp * dp,
                tp, pp, cp,
                seq_len: seq,
                micro_batch_size: b,
                micro_batches: m,
                zero,
                recompute,
                ..PlanConfig::on(hardware)
            };
            let Ok(plan) = Plan::new(&config) else { return Ok(()); };
            let report = plan.report();
            let e = report.estimate;
            prop_assert!(e.step_s.get().is_finite() && e.step_s.get() > 0.0, "{config:?}");
            let Some(split) = e.kernels else {
                prop_assert_eq!(hardware, Hardware::Lesson);
                return Ok(());
            };
            let sum = split.gemm_s.get() + split.attention_s.get() + split.memory_bound_s.get();
            prop_assert!((sum - e.compute_s.get()).abs() <= 1e-9 * sum, "{config:?}");
            prop_assert!(e.step_s.get() >= e.compute_s.get() + split.optimizer_s.get());
            for figure in [Figure::KernelGemm, Figure::KernelAttention, Figure::KernelMemory,
                Figure::Optimizer, Figure::Compute, Figure::StepTime, Figure::Roofline] {
                let x = plan.explain(figure, &report).unwrap();
                prop_assert_eq!(x.worked.to_bits(), x.result.to_bits(), "{:?} {:?}", figure, config);
            }
        }
    }
}
