//! Every number out is finite and meaningful (issue 50): over random hostile configs (every
//! real-valued field at its bounds, just outside them, at 0, −1, NaN, ∞, 1e300 and 5e-324; degrees,
//! batches and sequence lengths up to the core's limits; extreme inline models; every card,
//! rollout engines and optimizer offload), an accepted config's report has no NaN or ∞ anywhere
//! (`finite::non_finite`), its MFU and bubble share are in [0, 1] and its memory is not
//! negative; a refused one names a field in a message under 1 KB.
//!
//! The seed is printed; `PARALLEL_LAB_SEED=N` replays a run, `PARALLEL_LAB_CASES` sets the
//! number of configs (default 6,000).

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::seed::seed;
use parallel_core::bounds::{bound, BOUNDED};
use parallel_core::finite::non_finite;
use parallel_core::hardware::Hardware;
use parallel_core::{
    evaluate, Field, InlineModel, ModelChoice, OptimizerOffload, PlanConfig, Precision, Preset,
    Recompute, Rollout, Schedule, SplitMix, MAX_GPUS, MAX_SEQ_LEN,
};

/// The core's seeded [`SplitMix`], drawing what a hostile config is made of.
struct Rng(SplitMix);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// 1 … max, log-uniform, with the edges often.
    fn count(&mut self, max: u32) -> u32 {
        match self.below(6) {
            0 => 1,
            1 => max,
            _ => {
                let bits = self.below(u64::from(32 - max.leading_zeros())) as u32;
                (1u32 << bits).min(max) + self.below(2) as u32
            }
        }
        .clamp(1, max)
    }

    /// A hostile value for a bounded real field.
    fn real(&mut self, field: Field) -> f64 {
        let b = bound(field).unwrap();
        let lo = if b.min > 0.0 { b.min } else { 1e-6 };
        match self.below(12) {
            0 => b.min,
            1 => b.max,
            2 => b.max * 1.000_001,
            3 => b.min * 0.999_999 - f64::from(u8::from(b.min == 0.0)),
            4 => self.pick(&[0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY]),
            5 => self.pick(&[1e300, 5e-324, f64::MAX, f64::MIN_POSITIVE]),
            _ => {
                let t = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
                (lo.ln() + t * (b.max.ln() - lo.ln())).exp()
            }
        }
    }
}

fn model(rng: &mut Rng) -> ModelChoice {
    if rng.chance(0.5) {
        return ModelChoice::Preset(rng.pick(&Preset::ALL));
    }
    let field = |rng: &mut Rng, p: f64| {
        let max = u32::MAX >> rng.below(28);
        rng.chance(p).then(|| rng.count(max))
    };
    let mut m = InlineModel {
        hidden: field(rng, 1.0),
        layers: field(rng, 1.0),
        heads: field(rng, 1.0),
        kv_heads: field(rng, 0.5),
        head_dim: field(rng, 0.5),
        full_attention_layers: field(rng, 0.2),
        ffn: field(rng, 0.9),
        vocab: field(rng, 0.95),
        tied_embeddings: rng.chance(0.5),
        params: rng.chance(0.2).then(|| rng.next() >> rng.below(64)),
        ..InlineModel::default()
    };
    if rng.chance(0.3) {
        m.moe_layers = field(rng, 1.0);
        m.experts = field(rng, 1.0);
        m.top_k = field(rng, 1.0);
        m.expert_ffn = field(rng, 1.0);
        m.shared_experts = field(rng, 0.5);
    }
    if rng.chance(0.15) {
        m.kv_lora_rank = field(rng, 1.0);
        m.qk_rope_head_dim = field(rng, 1.0);
        m.q_lora_rank = field(rng, 0.5);
    }
    ModelChoice::Inline(m)
}

fn config(rng: &mut Rng) -> PlanConfig {
    let mut c = PlanConfig::on(rng.pick(&Hardware::ALL));
    c.model = model(rng);
    let (tp, pp, cp) = (rng.count(64), rng.count(128), rng.count(32));
    let dp = rng.count(1024);
    c.gpus = if rng.chance(0.8) {
        (u64::from(tp) * u64::from(pp) * u64::from(cp) * u64::from(dp)).min(u64::from(MAX_GPUS))
            as u32
    } else {
        rng.count(MAX_GPUS)
    };
    (c.tp, c.pp, c.cp) = (tp, pp, cp);
    c.ep = if rng.chance(0.5) { 1 } else { rng.count(256) };
    c.gpus_per_node = rng.pick(&[1, 4, 8, 16, 72]);
    c.micro_batches = rng.count(MAX_GPUS);
    c.micro_batch_size = rng.count(64);
    c.seq_len = rng.count(MAX_SEQ_LEN);
    c.zero = rng.below(4) as u8;
    c.recompute = rng.pick(&[Recompute::None, Recompute::Selective, Recompute::Full]);
    c.schedule = rng.pick(&[Schedule::Gpipe, Schedule::OneFOneB, Schedule::Interleaved]);
    c.virtual_stages = if c.schedule == Schedule::Interleaved {
        rng.count(8)
    } else {
        1
    };
    c.precision = rng.pick(&[Precision::Bf16Grads, Precision::Fp32Grads]);
    if rng.chance(0.2) {
        c.optimizer_offload = OptimizerOffload::Cpu;
    }
    if rng.chance(0.2) {
        c.rollout = Some(Rollout {
            gpus_per_engine: rng.count(64),
            rollout_gpus: if rng.chance(0.5) { 0 } else { rng.count(4096) },
            prompts: rng.count(1 << 16),
            samples_per_prompt: rng.count(1 << 10),
            prompt_len: rng.count(1 << 20),
            response_len: rng.count(1 << 20),
            kv_bytes: rng.pick(&[1, 2, 4]),
        });
    }
    for field in BOUNDED {
        if rng.chance(0.15) {
            *c.real_mut(field).unwrap() = rng.real(field);
        }
    }
    c
}

#[test]
fn every_report_is_finite_and_every_refusal_is_named() {
    let seed = seed("PARALLEL_LAB_SEED", "finite reports");
    let cases: u32 = std::env::var("PARALLEL_LAB_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6000);
    println!("finite reports: {cases} configs");
    let mut rng = Rng(SplitMix::new(seed));
    let (mut accepted, mut refused) = (0, 0);
    for i in 0..cases {
        let c = config(&mut rng);
        match evaluate(&c) {
            Ok(report) => {
                accepted += 1;
                let bad = non_finite(&report);
                assert!(
                    bad.is_empty(),
                    "seed {seed} case {i}: {bad:?} not finite\n{c:?}"
                );
                let e = &report.estimate;
                assert!(
                    (0.0..=1.0).contains(&e.mfu),
                    "seed {seed} case {i}: MFU {}\n{c:?}",
                    e.mfu
                );
                let share = report.bubble.share;
                assert!(
                    (0.0..=1.0).contains(&share),
                    "seed {seed} case {i}: bubble {share}\n{c:?}"
                );
                assert!(
                    report.memory.total.get() >= 0.0,
                    "seed {seed} case {i}\n{c:?}"
                );
            }
            Err(err) => {
                refused += 1;
                let text = err.to_string();
                assert!(
                    text.len() < 1024,
                    "seed {seed} case {i}: {} bytes",
                    text.len()
                );
                assert!(
                    text.starts_with(&err.field().key()),
                    "seed {seed} case {i}: {text:?} does not start with {}",
                    err.field().key()
                );
            }
        }
    }
    println!("finite reports: {accepted} accepted, {refused} refused");
    assert!(
        accepted > cases / 20,
        "too few accepted configs: {accepted}"
    );
}
