use super::*;
use crate::config::PlanConfig;
use crate::model::{ModelChoice, Preset};
use crate::schedule::{simulate_schedule, OpKind, ScheduleView};

/// The peak number of model-chunk forwards a stage holds before their backward, from the
/// simulated timeline, in whole-stage equivalents (÷ v).
fn simulated_peak(view: ScheduleView, p: u32, m: u32, v: u32) -> Vec<f64> {
    let timeline = simulate_schedule(view, p, m, v).unwrap();
    (0..p)
        .map(|stage| {
            // (tick, +1 when a forward starts, −1 when a backward ends); releases first.
            let mut events: Vec<(u32, i32)> = Vec::new();
            for op in timeline.ops.iter().filter(|op| op.stage == stage) {
                match op.kind {
                    OpKind::Forward => events.push((op.start, 1)),
                    OpKind::Backward => events.push((op.start + op.ticks, -1)),
                    OpKind::Weight => {}
                }
            }
            events.sort();
            let (mut held, mut peak) = (0i32, 0i32);
            for (_, change) in events {
                held += change;
                peak = peak.max(held);
            }
            f64::from(peak) / f64::from(v)
        })
        .collect()
}

fn plan(pp: u32, m: u32, schedule: crate::config::Schedule, v: u32) -> Plan {
    Plan::new(&PlanConfig {
        gpus: pp,
        pp,
        micro_batches: m,
        schedule,
        virtual_stages: v,
        model: ModelChoice::Preset(Preset::Llama3_405b),
        ..PlanConfig::default()
    })
    .unwrap()
}

/// The stage loop's shortcuts (layers and in-flight worked out inline, runs of equal
/// middle stages reused) give what the per-stage functions give, stage by stage.
#[test]
fn the_stage_loop_agrees_with_the_per_stage_functions() {
    use crate::config::Recompute;
    for preset in [Preset::Qwen38_27b, Preset::Llama3_405b, Preset::Mixtral8x7b] {
        for (pp, m, schedule, v) in [
            (1, 8, Schedule::OneFOneB, 1),
            (8, 3, Schedule::OneFOneB, 1),
            (16, 64, Schedule::Gpipe, 1),
            (4, 8, Schedule::Interleaved, 2),
            (32, 5, Schedule::OneFOneB, 1),
        ] {
            let Ok(plan) = Plan::new(&PlanConfig {
                model: ModelChoice::Preset(preset),
                gpus: 64,
                pp,
                micro_batches: m,
                schedule,
                virtual_stages: v,
                recompute: Recompute::None,
                ..PlanConfig::default()
            }) else {
                continue;
            };
            for s in plan.memory_by_stage() {
                let i = s.stage;
                assert_eq!(s.layers, plan.stage_layers(i));
                // The loop reuses middle stages' figures: they are the stage's own
                // formulas to the bit.
                let states: f64 = plan.stage_states(i);
                let activations: f64 = plan.stage_activations(i);
                assert_eq!(
                    s.model_states.get().to_bits(),
                    states.to_bits(),
                    "{preset:?} pp {pp} stage {i}"
                );
                assert_eq!(
                    s.activations.get().to_bits(),
                    activations.to_bits(),
                    "{preset:?} pp {pp} stage {i}"
                );
            }
        }
    }
}

#[test]
fn in_flight_per_stage_agrees_with_the_simulator() {
    use crate::config::Schedule;
    let mut checked = 0;
    for p in 1..=16u32 {
        for m in 1..=64u32 {
            for (view, schedule) in [
                (ScheduleView::Gpipe, Schedule::Gpipe),
                (ScheduleView::OneFOneB, Schedule::OneFOneB),
            ] {
                if u64::from(p) * u64::from(m) > crate::schedule::MAX_TIMELINE_SLOTS {
                    continue;
                }
                let plan = plan(p, m, schedule, 1);
                let want = simulated_peak(view, p, m, 1);
                let got: Vec<f64> = (0..p).map(|i| plan.stage_in_flight(i)).collect();
                assert_eq!(got, want, "{schedule} p {p} m {m}");
                checked += 1;
            }
            for v in 2..=4u32 {
                // Interleaved: p > 1, m a multiple of p, 126 layers divisible by p·v.
                if p == 1 || m % p != 0 || 126 % (p * v) != 0 {
                    continue;
                }
                if u64::from(p) * u64::from(m) * u64::from(v) > crate::schedule::MAX_TIMELINE_SLOTS
                {
                    continue;
                }
                let plan = plan(p, m, Schedule::Interleaved, v);
                let want = simulated_peak(ScheduleView::Interleaved, p, m, v);
                let got: Vec<f64> = (0..p).map(|i| plan.stage_in_flight(i)).collect();
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert!(
                        (g - w).abs() < 1e-9,
                        "interleaved p {p} m {m} v {v} stage {i}: {g} vs {w}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn layers_sum_to_the_model_and_the_remainder_skips_stage_zero() {
    for pp in 1..=16 {
        let plan = plan(pp, pp, crate::config::Schedule::OneFOneB, 1);
        let layers: Vec<u32> = (0..pp).map(|i| plan.stage_layers(i)).collect();
        assert_eq!(layers.iter().sum::<u32>(), 126, "pp {pp}");
        let low = *layers.iter().min().unwrap();
        assert_eq!(layers[0], low, "stage 0 takes no extra layer (pp {pp})");
        assert!(layers.iter().all(|&l| l == low || l == low + 1));
    }
}
