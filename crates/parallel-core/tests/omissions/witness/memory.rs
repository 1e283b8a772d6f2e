//! The witnesses of memory's omissions.

use super::fixtures::{close, inline, plan, preset, small, small_moe, state_bytes_per_param};
use parallel_core::{Accounting, InlineModel, PlanConfig, Preset, Recompute, Rollout};

/// The even split's headline ignores the vocabulary (where the embedding and head sit, the
/// logits) and counts the average L/p = 2.5 layers; by stage, the vocabulary moves the first
/// and the last stage.
pub(super) fn even_split() -> Option<bool> {
    let config = |vocab| {
        let model = InlineModel {
            vocab: Some(vocab),
            ..small()
        };
        inline(
            model,
            PlanConfig {
                gpus: 4,
                pp: 4,
                ..PlanConfig::default()
            },
        )
    };
    let small_vocab = plan(config(32_000))?;
    let (a, b) = (small_vocab.report(), plan(config(256_000))?.report());
    let headline_same = close(a.memory.model_states.get(), b.memory.model_states.get())
        && close(a.memory.activations.get(), b.memory.activations.get());
    let (per_layer, _) = small_vocab.activation_per_layer();
    let average = close(
        a.memory.activations.get(),
        per_layer.get() * (10.0 / 4.0) * small_vocab.micro_batches_in_flight(),
    );
    let (first, last) = (a.by_stage.first()?, a.by_stage.last()?);
    let (first_b, last_b) = (b.by_stage.first()?, b.by_stage.last()?);
    let stages_move = !close(first.model_states.get(), first_b.model_states.get())
        && !close(last.activations.get(), last_b.activations.get());
    Some(headline_same && average && stages_move)
}

/// By stage, stage 0's activations are its layers' alone, and the last stage adds exactly one
/// FP32 copy of one micro-batch's logits, 4·s′·b·V/t (worked out here by hand).
pub(super) fn output_activations() -> Option<bool> {
    let config = PlanConfig {
        gpus: 8,
        tp: 2,
        pp: 4,
        micro_batch_size: 2,
        accounting: Accounting::Stages,
        ..PlanConfig::default()
    };
    let (s, b, t) = (
        f64::from(config.seq_len),
        f64::from(config.micro_batch_size),
        f64::from(config.tp),
    );
    let plan = plan(inline(small(), config))?;
    let stages = plan.memory_by_stage();
    let (per_layer, scores) = plan.activation_per_layer();
    let layers_only = |stage: u32| -> Option<f64> {
        let entry = stages.get(stage as usize)?;
        Some(per_layer.get() * f64::from(entry.layers) * plan.stage_in_flight(stage))
    };
    let last = plan.degrees().pp - 1;
    // FP32: 4 bytes a logit.
    let logits = 4.0 * s * b * f64::from(small().vocab?) / t;
    Some(
        scores.get() == 0.0
            && close(stages.first()?.activations.get(), layers_only(0)?)
            && close(
                stages.last()?.activations.get(),
                layers_only(last)? + logits,
            ),
    )
}

/// Activations do not move with the FFN width, GQA, linear attention or experts; they do
/// with the hidden size.
pub(super) fn activation_constants() -> Option<bool> {
    let activations = |model: InlineModel| -> Option<f64> {
        let config = PlanConfig {
            gpus: 8,
            tp: 2,
            recompute: Recompute::Selective,
            ..PlanConfig::default()
        };
        Some(plan(inline(model, config))?.memory().activations.get())
    };
    let base = activations(small())?;
    let variants = [
        InlineModel {
            ffn: Some(16_384),
            ..small()
        },
        InlineModel {
            kv_heads: Some(2),
            ..small()
        },
        InlineModel {
            full_attention_layers: Some(4),
            ..small()
        },
        small_moe(16, 2),
    ];
    let mut same = true;
    for model in variants {
        same &= close(activations(model)?, base);
    }
    let wider = activations(InlineModel {
        hidden: Some(2048),
        ..small()
    })?;
    Some(same && !close(wider, base))
}

/// Mixtral on 16 cards with EP 8: TP 2 halves the dense states and leaves the experts'
/// 16·P_routed/(e·p) as they are.
pub(super) fn expert_tensor_parallel() -> Option<bool> {
    let at = |tp| {
        plan(preset(
            Preset::Mixtral8x7b,
            PlanConfig {
                gpus: 16,
                ep: 8,
                tp,
                ..PlanConfig::default()
            },
        ))
    };
    let (one, two) = (at(1)?, at(2)?);
    let (experts_one, experts_two) = (one.expert_states()?.total(), two.expert_states()?.total());
    let by_hand = state_bytes_per_param() * Preset::Mixtral8x7b.model().routed_params() / 8.0;
    Some(
        close(experts_one.get(), experts_two.get())
            && close(experts_two.get(), by_hand)
            && close(
                one.dense_states().total().get(),
                2.0 * two.dense_states().total().get(),
            ),
    )
}

/// Every total is model states + activations, and ZeRO-0's states are 16·P/(t·p) exactly.
pub(super) fn buffers() -> Option<bool> {
    let configs = [
        PlanConfig::lesson_8_gpus(),
        PlanConfig::lesson_64_gpus(),
        PlanConfig {
            accounting: Accounting::Stages,
            ..PlanConfig::lesson_64_gpus()
        },
        preset(
            Preset::Mixtral8x7b,
            PlanConfig {
                gpus: 16,
                ep: 8,
                zero: 1,
                ..PlanConfig::default()
            },
        ),
    ];
    let mut sums = true;
    for config in configs {
        let report = plan(config)?.report();
        let m = report.memory;
        sums &= m.activations.get() > 0.0
            && close(m.total.get(), m.model_states.get() + m.activations.get());
        for s in &report.by_stage {
            sums &= close(s.total.get(), s.model_states.get() + s.activations.get());
        }
    }
    let four = plan(PlanConfig {
        gpus: 4,
        tp: 2,
        pp: 2,
        ..PlanConfig::default()
    })?;
    let ledger = state_bytes_per_param() * Preset::Qwen38_27b.model().params / 4.0;
    Some(sums && close(four.memory().model_states.get(), ledger))
}

/// The rollout's KV cache grows with the full-attention layers F and not with the others:
/// the same model with twice the layers but the same F caches the same bytes, while the
/// control, twice F, caches twice as much.
pub(super) fn linear_attention_state() -> Option<bool> {
    let config = |layers, full| {
        let model = InlineModel {
            layers: Some(layers),
            full_attention_layers: Some(full),
            ..small()
        };
        inline(
            model,
            PlanConfig {
                rollout: Some(Rollout::default()),
                ..PlanConfig::default()
            },
        )
    };
    let kv = |layers, full| {
        plan(config(layers, full))
            .and_then(|p| p.report().rollout)
            .map(|r| r.kv_cache.get())
    };
    let (base, more_linear, more_full) = (kv(10, 2)?, kv(20, 2)?, kv(10, 4)?);
    Some(base > 0.0 && close(base, more_linear) && close(more_full, 2.0 * base))
}
