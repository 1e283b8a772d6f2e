//! Sequence parallelism on and off (SPEC §22): the activations of Korthikanti et al. 2022's
//! Table 2, the same traffic, Megatron-Core's warning for experts with TP and without SP, and
//! the switch through the launch flags and the link.

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::flags::{flags, read_launch, Engine};
use parallel_core::hardware::Hardware;
use parallel_core::link::{decode_plan, encode_plan, GridId};
use parallel_core::{Field, Plan, PlanConfig, Preset, Recompute, Warning};

fn plan(config: &PlanConfig) -> Plan {
    Plan::new(config).unwrap_or_else(|e| panic!("{config:?}: {e}"))
}

/// Korthikanti et al. 2022, Table 2, per layer and in units of s·b·h (the scores' 5·a·s/h
/// term apart): TP alone keeps 10 + 24/t, TP with SP 34/t; full recompute the layer's input,
/// 2 (whole) or 2/t (split by SP).
fn table_2(recompute: Recompute, t: f64, sequence_parallel: bool) -> f64 {
    match (recompute, sequence_parallel) {
        (Recompute::Full, false) => 2.0,
        (Recompute::Full, true) => 2.0 / t,
        (_, false) => 10.0 + 24.0 / t,
        (_, true) => 34.0 / t,
    }
}

#[test]
fn activations_follow_table_2_with_and_without_sequence_parallelism() {
    for preset in [Preset::Llama3_8b, Preset::Llama3_70b, Preset::Qwen38_27b] {
        for tp in [2, 4, 8] {
            for recompute in [Recompute::Full, Recompute::Selective, Recompute::None] {
                for (seq_len, cp) in [(4096, 1), (8192, 2)] {
                    for sequence_parallel in [true, false] {
                        let config = PlanConfig {
                            model: parallel_core::ModelChoice::Preset(preset),
                            gpus: 8 * cp,
                            tp,
                            cp,
                            seq_len,
                            recompute,
                            sequence_parallel,
                            ..PlanConfig::default()
                        };
                        let p = plan(&config);
                        let sbh = f64::from(seq_len / cp) * f64::from(p.model().hidden);
                        let want = table_2(recompute, f64::from(tp), sequence_parallel) * sbh;
                        let (per_layer, _) = p.activation_per_layer();
                        assert!(
                            (per_layer.get() - want).abs() <= 1e-9 * want,
                            "{preset:?} tp {tp} {recompute:?} s {seq_len} cp {cp} sp {sequence_parallel}: \
                             {} against Table 2's {want}",
                            per_layer.get()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn sequence_parallelism_changes_activations_only() {
    let on = PlanConfig {
        gpus: 64,
        tp: 8,
        pp: 2,
        micro_batches: 16,
        recompute: Recompute::Selective,
        ..PlanConfig::default()
    };
    let off = PlanConfig {
        sequence_parallel: false,
        ..on.clone()
    };
    let (a, b) = (plan(&on), plan(&off));
    assert_eq!(a.memory().model_states, b.memory().model_states);
    assert!(b.memory().activations > a.memory().activations);
    // All-gather + reduce-scatter send what the all-reduce sends (Korthikanti et al. 2022, §4.2.2).
    let bytes = |p: &Plan| {
        p.traffic()
            .iter()
            .map(|t| (t.dim, t.bytes))
            .collect::<Vec<_>>()
    };
    assert_eq!(bytes(&a), bytes(&b));
}

#[test]
fn at_tp_1_the_switch_changes_nothing() {
    for hardware in [Hardware::Lesson, Hardware::H200] {
        let on = PlanConfig {
            pp: 4,
            recompute: Recompute::Selective,
            ..PlanConfig::on(hardware)
        };
        let off = PlanConfig {
            sequence_parallel: false,
            ..on.clone()
        };
        let json = |c: &PlanConfig| serde_json::to_string(&plan(c).report()).unwrap();
        assert_eq!(json(&on), json(&off), "{hardware:?}");
    }
}

#[test]
fn without_sequence_parallelism_the_pipeline_sends_the_whole_tensor() {
    // On a card with measured kernels the estimate sends what Megatron-Core sends (SPEC §18):
    // the SP shard s/t, or the whole sequence from every card of the TP group.
    let on = PlanConfig {
        gpus: 64,
        tp: 8,
        pp: 8,
        micro_batches: 32,
        ..PlanConfig::on(Hardware::H200)
    };
    let off = PlanConfig {
        sequence_parallel: false,
        ..on.clone()
    };
    let (a, b) = (plan(&on).estimate(), plan(&off).estimate());
    assert!(
        b.exposed_comm_s.get() + b.latency_s.get() > a.exposed_comm_s.get() + a.latency_s.get(),
        "off {b:?} against on {a:?}"
    );
}

#[test]
fn experts_with_tensor_parallelism_and_without_it_warn_as_megatron_core_does() {
    let moe = PlanConfig {
        model: parallel_core::ModelChoice::Preset(Preset::Mixtral8x7b),
        gpus: 64,
        tp: 2,
        ep: 8,
        sequence_parallel: false,
        ..PlanConfig::default()
    };
    let warned = |c: &PlanConfig| {
        plan(c)
            .warnings()
            .iter()
            .filter(|w| matches!(w, Warning::ExpertsWithoutSequenceParallel { .. }))
            .count()
    };
    let warning = plan(&moe).warnings()[0];
    assert_eq!(
        warning,
        Warning::ExpertsWithoutSequenceParallel { tp: 2, ep: 8 }
    );
    assert_eq!(warning.field(), Field::SequenceParallel);
    // Megatron-Core's condition: EP above 1 and TP above 1, SP off.
    for quiet in [
        PlanConfig {
            tp: 1,
            ..moe.clone()
        },
        PlanConfig {
            ep: 1,
            ..moe.clone()
        },
        PlanConfig {
            sequence_parallel: true,
            ..moe.clone()
        },
    ] {
        assert_eq!(warned(&quiet), 0, "{quiet:?}");
    }
}

#[test]
fn the_switch_travels_through_the_launch_flags() {
    for sequence_parallel in [true, false] {
        let config = PlanConfig {
            gpus: 64,
            tp: 4,
            pp: 2,
            sequence_parallel,
            ..PlanConfig::default()
        };
        let out = flags(&config, Engine::Megatron).unwrap();
        assert_eq!(
            out.args.iter().any(|a| a == "--sequence-parallel"),
            sequence_parallel
        );
        let back = read_launch(&out.shell(), None).unwrap();
        assert_eq!(back.config, config, "sp {sequence_parallel}");
        assert!(
            !back.not_modelled.iter().any(|n| n.contains("sequence")),
            "{:?}",
            back.not_modelled
        );
    }
}

#[test]
fn the_switch_travels_through_the_link() {
    let off = PlanConfig {
        gpus: 64,
        tp: 8,
        sequence_parallel: false,
        ..GridId::SixtyFour.base()
    };
    let value = encode_plan(&off, GridId::SixtyFour);
    assert!(value.split('.').any(|t| t == "nosp"), "{value}");
    let (back, ignored) = decode_plan(&value, GridId::SixtyFour);
    assert!(ignored.is_empty(), "{ignored:?}");
    assert_eq!(back, off);
    // "sp" returns to the default.
    let (on, _) = decode_plan(&format!("{value}.sp"), GridId::SixtyFour);
    assert!(
        !on.sequence_parallel,
        "a repeated field keeps the first token"
    );
    let (on, _) = decode_plan("tp8.sp", GridId::SixtyFour);
    assert!(on.sequence_parallel);
}
