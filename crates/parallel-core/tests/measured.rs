//! The H200 measurement (SPEC §18): the numbers the core carries against the files they were
//! copied from (`data/h200-2026-12-04/`), and the lab's single-card figures against them.

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::kernels::{
    Pass, H200_ATTENTION, H200_COPY_TBPS, H200_GEMM, H200_GEMM_8192_TFLOPS,
};
use parallel_core::measured::data::{Held, ACTIVATIONS, LAYERS, STEPS, STEP_VOCAB};
use parallel_core::measured::{measured_rows, Measure, MeasuredRow};
use parallel_core::Lang;
use serde_json::Value;

fn file(name: &str) -> Value {
    let path = format!("{}/data/h200-2026-12-04/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn rows(name: &str) -> Vec<Value> {
    file(name)["rows"].as_array().unwrap().clone()
}

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} in {v}"))
}

/// Equal to the precision the core copied (4 decimals of a millisecond, 0.1 TFLOP/s).
fn same(a: f64, b: f64, precision: f64) -> bool {
    (a - b).abs() <= precision / 2.0 + 1e-12
}

#[test]
fn the_gemm_grid_is_the_measured_one() {
    let grid = file("gemm_grid.json");
    assert_eq!(grid["complete"], Value::Bool(true));
    let all = grid["rows"].as_array().unwrap();
    assert_eq!(all.len(), 8 * 7 * 7);
    for r in all {
        let (m, n, k) = (num(r, "M"), num(r, "N"), num(r, "K"));
        for (pass, key) in [
            (Pass::Forward, "fwd"),
            (Pass::Dgrad, "dgrad"),
            (Pass::Wgrad, "wgrad"),
        ] {
            let core = H200_GEMM.rate(pass, m, n, k);
            assert!(
                same(core, num(r, key), 1e-4),
                "{m}×{n}×{k} {key}: {core} vs {r}"
            );
        }
    }
    let card = file("card.json");
    assert!(same(
        H200_GEMM_8192_TFLOPS,
        num(&card, "gemm_8192_tflops"),
        0.01
    ));
    assert!(same(
        H200_COPY_TBPS,
        num(&card, "copy_tbps_read_plus_write"),
        0.001
    ));
}

#[test]
fn the_attention_table_is_the_measured_one() {
    let flash: Vec<_> = rows("attn.json")
        .into_iter()
        .filter(|r| r["backend"] == "flash")
        .collect();
    assert_eq!(flash.len(), H200_ATTENTION.full.len());
    for (r, &(length, rate)) in flash.iter().zip(H200_ATTENTION.full) {
        assert_eq!(num(r, "seq"), length);
        assert!(same(rate, num(r, "fwd_bwd_tflops"), 0.1), "{r}");
        let rows_a_call = num(r, "seq") * num(r, "heads") * num(r, "batch");
        assert!(rows_a_call >= H200_ATTENTION.full_rows);
    }
    let layers = rows("layer.json");
    assert_eq!(layers.len(), H200_ATTENTION.partial.len());
    for r in &layers {
        let (s, a, h) = (num(r, "seq"), num(r, "heads"), num(r, "hidden"));
        let flops = 3.5 * 4.0 * a * (h / a) * s * s / 2.0;
        let rate = flops / num(r, "attn_ms") / 1e9;
        let point = H200_ATTENTION
            .partial
            .iter()
            .find(|p| p.0 == s && p.1 == a)
            .unwrap_or_else(|| panic!("no point for {r}"));
        assert!(same(point.2, rate, 0.1), "{r}: {point:?} vs {rate}");
    }
}

#[test]
fn the_measured_rows_are_the_files() {
    let layers = rows("layer.json");
    assert_eq!(layers.len(), LAYERS.len());
    for (r, l) in layers.iter().zip(LAYERS) {
        assert_eq!(r["shape"], l.shape.name);
        assert_eq!(num(r, "seq"), f64::from(l.seq));
        assert_eq!(num(r, "hidden"), f64::from(l.shape.hidden));
        assert_eq!(num(r, "heads"), f64::from(l.shape.heads));
        assert_eq!(num(r, "kv_heads"), f64::from(l.shape.kv_heads));
        assert_eq!(num(r, "ffn"), f64::from(l.shape.ffn));
        assert!(same(l.eager_ms, num(r, "eager_fwd_bwd_ms"), 1e-4));
        assert!(same(l.gemm_ms, num(r, "gemm_ms"), 1e-4));
        assert!(same(l.attn_ms, num(r, "attn_ms"), 1e-4));
        match l.compiled_ms {
            Some(ms) => assert!(same(ms, num(r, "compiled_fwd_bwd_ms"), 1e-4)),
            None => assert!(r.get("compiled_fwd_bwd_ms").is_none()),
        }
    }
    let steps = rows("step.json");
    let others = rows("step2.json");
    assert_eq!(steps.len(), STEPS.len());
    for (r, s) in steps.iter().zip(STEPS) {
        assert_eq!(num(r, "hidden"), f64::from(s.shape.hidden));
        assert_eq!(num(r, "layers"), f64::from(s.layers));
        assert_eq!(
            (num(r, "seq"), num(r, "batch")),
            (f64::from(s.seq), f64::from(s.batch))
        );
        assert_eq!(num(r, "vocab"), f64::from(STEP_VOCAB));
        assert!(same(s.eager_ms, num(r, "step_ms"), 1e-4));
        let mode = |m: &str| {
            others
                .iter()
                .find(|o| o["label"] == r["label"] && o["mode"] == m)
        };
        assert!(same(
            s.compiled_ms,
            num(mode("compiled").unwrap(), "step_ms"),
            1e-4
        ));
        match (s.recompute_ms, mode("full_recompute")) {
            (Some(ms), Some(o)) => assert!(same(ms, num(o, "step_ms"), 1e-4)),
            (None, None) => {}
            other => panic!("{other:?}"),
        }
    }
    let acts = rows("acts.json");
    let memory = rows("memory.json");
    for a in ACTIVATIONS {
        let found = match a.held {
            Held::Eager | Held::Compiled => acts.iter().find(|r| {
                r["shape"] == a.shape.name
                    && r["mode"]
                        == if a.held == Held::Eager {
                            "eager"
                        } else {
                            "compiled"
                        }
            }),
            Held::FullRecompute => memory.iter().find(|r| {
                r["shape"] == a.shape.name
                    && r["full_recompute"] == Value::Bool(true)
                    && num(r, "seq") == f64::from(a.seq)
            }),
        }
        .unwrap_or_else(|| panic!("{a:?}"));
        assert_eq!(num(found, "seq"), f64::from(a.seq));
        assert_eq!(num(found, "activation_bytes_per_layer"), a.bytes);
    }
}

fn of(rows: &[MeasuredRow], measure: Measure) -> Vec<&MeasuredRow> {
    rows.iter().filter(|r| r.measure == measure).collect()
}

#[test]
fn layers_lie_between_the_floor_and_the_eager_layer() {
    let rows = measured_rows(Lang::En).unwrap();
    for r in of(&rows, Measure::LayerEager) {
        let floor = r.floor.unwrap();
        println!(
            "{}: lab {:.3} ms, floor {:.3}, eager {:.3} (lab ÷ eager {:.2})",
            r.label,
            r.lab * 1e3,
            floor * 1e3,
            r.measured * 1e3,
            r.ratio
        );
        assert!(floor <= r.lab && r.lab <= r.measured, "{}", r.label);
    }
    let compiled = of(&rows, Measure::LayerCompiled);
    assert_eq!(compiled.len(), 2);
    for r in compiled {
        println!("{}: lab ÷ compiled {:.3}", r.label, r.ratio);
        assert!((0.85..=1.15).contains(&r.ratio), "{}: {}", r.label, r.ratio);
    }
}

#[test]
fn steps_lie_within_the_measured_band() {
    let rows = measured_rows(Lang::En).unwrap();
    let eager = of(&rows, Measure::StepEager);
    let compiled = of(&rows, Measure::StepCompiled);
    assert_eq!((eager.len(), compiled.len()), (3, 3));
    for (e, c) in eager.iter().zip(&compiled) {
        assert_eq!(e.lab, c.lab);
        println!(
            "{}: lab {:.1} ms, compiled {:.1}, eager {:.1}",
            e.label,
            e.lab * 1e3,
            c.measured * 1e3,
            e.measured * 1e3
        );
        assert!(
            0.9 * c.measured <= e.lab && e.lab <= 1.1 * e.measured,
            "{}",
            e.label
        );
    }
    // Full recompute: the measured steps cost 1.21–1.23× eager; the lab's costs what its own
    // recomputed forward adds (the attention forward at the fwd+bwd rate), within 4 points.
    for r in of(&rows, Measure::StepRecompute) {
        let plain = eager
            .iter()
            .find(|e| e.id.replace("eager", "recompute") == r.id)
            .unwrap();
        let (lab, measured) = (r.lab / plain.lab, r.measured / plain.measured);
        println!("{}: lab ×{lab:.3}, measured ×{measured:.3}", r.label);
        assert!(lab >= measured && lab - measured <= 0.05, "{}", r.label);
    }
}

#[test]
fn activations_compare_as_the_note_says() {
    let rows = measured_rows(Lang::En).unwrap();
    for r in of(&rows, Measure::ActivationRecompute) {
        assert_eq!(r.ratio, 1.0, "{}", r.label);
    }
    for r in of(&rows, Measure::ActivationCompiled) {
        assert!((0.9..=1.0).contains(&r.ratio), "{}: {}", r.label, r.ratio);
    }
    for r in of(&rows, Measure::ActivationEager) {
        assert!((0.6..0.7).contains(&r.ratio), "{}: {}", r.label, r.ratio);
    }
}
