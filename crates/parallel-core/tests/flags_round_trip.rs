//! Launch flags (SPEC §16): flags → read back → the same plan, and flags again byte for byte,
//! over random valid plans: every degree, rank order, schedule (GPipe reads back as 1F1B, the
//! one schedule Megatron-LM lacks), ZeRO stage, recompute, precision, offload, dense, MoE, MLA
//! and linear-attention models (presets and inline), and slime's rollout engines.
//! proptest prints the failing case and keeps its seed in `flags_round_trip.proptest-regressions`.

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::strategies;
use parallel_core::flags::{flags, launch_order, read_launch, Engine};
use parallel_core::{
    InlineModel, LinearAttention, ModelChoice, OptimizerOffload, Plan, PlanConfig, Rollout,
    Schedule,
};
use proptest::prelude::*;

fn inline_model() -> impl Strategy<Value = ModelChoice> {
    (
        (
            prop::sample::select(vec![8u32, 16, 32]),
            0u32..=3,
            2u32..=48,
            any::<bool>(),
        ),
        (
            prop::option::of((
                prop::sample::select(vec![8u32, 16, 64]),
                1u32..=8,
                0u32..=2,
                0u32..=48,
            )),
            prop::option::of(0u32..=48),
        ),
        (
            // MLA: kv_lora_rank, qk_rope_head_dim, q_lora_rank, nope and value head dims.
            prop::option::of((
                prop::sample::select(vec![32u32, 512]),
                prop::sample::select(vec![32u32, 64]),
                prop::option::of(prop::sample::select(vec![384u32, 1536])),
                prop::sample::select(vec![64u32, 128]),
                prop::sample::select(vec![64u32, 128]),
            )),
            // Linear attention: key heads, value heads per key head, key and value dims,
            // kernel.
            (
                prop::sample::select(vec![4u32, 8, 16]),
                1u32..=3,
                prop::sample::select(vec![64u32, 128]),
                prop::sample::select(vec![64u32, 128]),
                prop::sample::select(vec![2u32, 4]),
            ),
        ),
    )
        .prop_map(
            |((heads, kv_shift, layers, tied), (moe, full), (mla, la))| {
                let kv = if mla.is_some() {
                    heads
                } else {
                    heads >> kv_shift
                };
                let full = full.map(|f| f.min(layers)).filter(|f| *f != layers);
                let d = LinearAttention::QWEN3_NEXT;
                let linear =
                    |v: u32, default: u32| Some(v).filter(|v| full.is_some() && *v != default);
                let (key_heads, per_key, key_dim, value_dim, kernel) = la;
                let moe_layers = moe.map(|(_, _, _, m)| m.clamp(1, layers));
                let all_moe = moe_layers == Some(layers);
                ModelChoice::Inline(InlineModel {
                    hidden: Some(heads * 64),
                    layers: Some(layers),
                    heads: Some(heads),
                    kv_heads: Some(kv).filter(|k| *k != heads),
                    full_attention_layers: full,
                    ffn: if all_moe { None } else { Some(heads * 64 * 3) },
                    vocab: Some(32_000),
                    tied_embeddings: tied,
                    moe_layers,
                    experts: moe.map(|(e, _, _, _)| e),
                    top_k: moe.map(|(e, k, _, _)| k.min(e)),
                    expert_ffn: moe.map(|_| 512),
                    shared_experts: moe.and_then(|(_, _, s, _)| Some(s).filter(|s| *s > 0)),
                    kv_lora_rank: mla.map(|m| m.0),
                    qk_rope_head_dim: mla.map(|m| m.1),
                    q_lora_rank: mla.and_then(|m| m.2),
                    qk_nope_head_dim: mla.map(|m| m.3).filter(|d| *d != 64),
                    v_head_dim: mla.map(|m| m.4).filter(|d| *d != 64),
                    linear_num_key_heads: linear(key_heads, d.key_heads),
                    linear_num_value_heads: linear(key_heads * per_key, d.value_heads),
                    linear_key_head_dim: linear(key_dim, d.key_head_dim),
                    linear_value_head_dim: linear(value_dim, d.value_head_dim),
                    linear_conv_kernel_dim: linear(kernel, d.conv_kernel),
                    ..InlineModel::default()
                })
            },
        )
}

fn model() -> impl Strategy<Value = ModelChoice> {
    prop_oneof![
        strategies::preset().prop_map(ModelChoice::Preset),
        inline_model(),
    ]
}

fn rollout() -> impl Strategy<Value = Option<Rollout>> {
    prop::option::of(
        (
            0u32..=3,
            any::<bool>(),
            1u32..=16,
            1u32..=16,
            1u32..=4096,
            1u32..=65_536,
        )
            .prop_map(
                |(e_log, split, prompts, samples, prompt_len, response_len)| Rollout {
                    gpus_per_engine: 1 << e_log,
                    rollout_gpus: if split { 16 } else { 0 },
                    prompts,
                    samples_per_prompt: samples,
                    prompt_len,
                    response_len,
                    kv_bytes: 2,
                },
            ),
    )
}

fn plan() -> impl Strategy<Value = PlanConfig> {
    (
        (0u32..=3, 0u32..=3, 0u32..=2, 0u32..=2, 0u32..=2),
        (
            prop::sample::select(vec![1u32, 2, 4, 8]),
            1u32..=16,
            1u32..=2,
            0u8..=3,
        ),
        (
            strategies::recompute(),
            strategies::schedule(),
            1u32..=3,
            strategies::rank_order(),
            strategies::precision(),
            any::<bool>(),
        ),
        model(),
        rollout(),
        prop::sample::select(vec![0u32, 1024]),
    )
        .prop_map(
            |(
                (t, p, c, d, e),
                (per_node, m, b, zero),
                (recompute, schedule, v, order, precision, cpu),
                model,
                rollout,
                chunk,
            )| {
                let (tp, pp, cp, dp) = (1 << t, 1 << p, 1 << c, 1 << d);
                let gpus = tp * pp * cp * dp;
                let is_moe = model.resolve().is_ok_and(|m| m.is_moe());
                PlanConfig {
                    model,
                    gpus: gpus.max(per_node) / per_node * per_node,
                    gpus_per_node: per_node.min(gpus),
                    tp,
                    pp,
                    cp,
                    ep: if is_moe { 1 << e } else { 1 },
                    micro_batches: m * pp,
                    micro_batch_size: b,
                    seq_len: 4096,
                    zero,
                    recompute,
                    schedule,
                    virtual_stages: if schedule == Schedule::Interleaved {
                        v
                    } else {
                        1
                    },
                    order,
                    precision,
                    optimizer_offload: if cpu {
                        OptimizerOffload::Cpu
                    } else {
                        OptimizerOffload::None
                    },
                    rollout,
                    log_probs_chunk: chunk,
                    ..PlanConfig::default()
                }
            },
        )
}

/// What Megatron-LM or slime can say of `config`: GPipe runs 1F1B; Megatron-LM has no rollout;
/// the order is the one the line launches (`launch_order`).
fn expressible(config: &PlanConfig, engine: Engine) -> PlanConfig {
    let mut expected = config.clone();
    expected.order = launch_order(&Plan::new(config).unwrap());
    let one_chunk = expected.schedule == Schedule::Interleaved && expected.virtual_stages == 1;
    if expected.schedule == Schedule::Gpipe || one_chunk {
        expected.schedule = Schedule::OneFOneB;
    }
    if engine == Engine::Megatron {
        expected.rollout = None;
        expected.log_probs_chunk = 0;
    }
    expected
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn flags_read_back_into_the_same_plan(config in plan(), slime in any::<bool>()) {
        let engine = if slime { Engine::Slime } else { Engine::Megatron };
        // Plans the lab or the engine refuses have no command: nothing to read back.
        let Ok(first) = flags(&config, engine) else { return Ok(()) };
        let text = first.shell();
        let read = read_launch(&text, None).unwrap_or_else(|e| panic!("{e}\n{text}"));
        prop_assert_eq!(&read.config, &expressible(&config, engine), "{}", text);
        prop_assert!(read.ignored.is_empty(), "{:?}", read.ignored);
        let again = flags(&read.config, engine).unwrap();
        prop_assert_eq!(again.shell(), text);
        prop_assert_eq!(again.args, first.args);
    }

    /// Whatever is pasted, the reader answers with a plan or an error, never a panic.
    #[test]
    fn any_text_reads_without_panic(text in "(--[a-z-]{1,12}|[0-9$'\"\\\\ \\n()=*+\\[\\],{}a-z]{1,6}| ){0,40}") {
        let _ = read_launch(&text, Some(8));
    }
}

#[test]
fn the_random_plans_reach_every_kind() {
    // The generator's plans pass often enough that every kind is covered: a fixed sample.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut moe, mut interleaved, mut rollout, mut zero3, mut passed) = (0, 0, 0, 0, 0);
    for _ in 0..2000 {
        let config = plan().new_tree(&mut runner).unwrap().current();
        if flags(&config, Engine::Slime).is_ok() {
            passed += 1;
            moe += usize::from(config.model.resolve().unwrap().is_moe());
            interleaved += usize::from(config.schedule == Schedule::Interleaved);
            rollout += usize::from(config.rollout.is_some());
            zero3 += usize::from(config.zero == 3);
        }
    }
    assert!(
        passed > 200 && moe > 20 && interleaved > 20 && rollout > 20 && zero3 > 20,
        "{passed} {moe} {interleaved} {rollout} {zero3}"
    );
}
