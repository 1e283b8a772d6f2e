use super::*;
use crate::hardware::Hardware;
use crate::lang::Lang;
use crate::model::{ModelChoice, Preset};
use crate::{Plan, PlanConfig, Recompute};

fn plan(config: PlanConfig) -> Plan {
    Plan::new(&config).unwrap()
}

/// A measured file for `w` whose every figure is the lab's own, times `scale`, on a card
/// whose memory holds them (the whole stage is built, more than one H200 holds).
fn file_of(w: &Workload, scale: f64) -> String {
    let p = w.predicted;
    let figures = serde_json::json!({
        "layer_fwd_bwd_s": p.layer_fwd_bwd_s.map(|s| s * scale),
        "activation_per_layer_bytes": p.activation_per_layer_bytes * scale,
        "activation_in_flight_bytes": p.activation_in_flight_bytes * scale,
        "states_bytes": p.states_bytes * scale,
        "peak_bytes": p.peak_bytes * scale,
        "reserved_bytes": p.peak_bytes * scale * 1.05,
    });
    serde_json::json!({
        "format": MEASURED_FORMAT,
        "version": CHECK_VERSION,
        "workload": w,
        "card": {"name": "NVIDIA H200", "memory_bytes": (p.peak_bytes * scale * 1.05).max(150e9)},
        "software": {"torch": "2.11.0", "cuda": "13.0"},
        "date": "2026-12-04",
        "method": "test",
        "built": {"layers": w.layers.total, "moe": w.layers.moe,
                  "full_attention": w.layers.full_attention, "held": w.held()},
        "eager": figures,
        "compiled": figures,
    })
    .to_string()
}

/// `text` read as a measured file and compared with the lab's figures, in `lang`.
fn compared(text: &str, lang: Lang) -> Comparison {
    Measured::read(text).unwrap().compare(lang).unwrap()
}

#[test]
fn a_card_runs_its_own_shapes() {
    let p = plan(PlanConfig {
        model: ModelChoice::Preset(Preset::Llama3_70b),
        gpus: 64,
        tp: 8,
        pp: 4,
        cp: 2,
        ..PlanConfig::on(Hardware::H200)
    });
    let w = p.workload(63).unwrap();
    assert_eq!(w.coords.pp, 3);
    assert_eq!((w.layer.heads, w.layer.kv_heads, w.layer.ffn), (8, 1, 3584));
    assert_eq!((w.tokens.queries, w.layers.total), (p.seq_len() / 2, 20));
    assert_eq!(w.in_flight, p.stage_in_flight(3));
    assert!(w.not_built.contains(&Unbuilt::Traffic));
    assert!(w.not_built.contains(&Unbuilt::SequenceParallel));
    let (per_layer, _) = p.activation_per_layer();
    assert_eq!(w.per_layer.activation_bytes, per_layer.get());
    assert_eq!(w.per_layer.states_bytes_per_param, 16.0);
    assert!(p.workload(64).is_err());
}

#[test]
fn moe_experts_get_their_tokens() {
    let p = plan(PlanConfig {
        model: ModelChoice::Preset(Preset::Mixtral8x7b),
        gpus: 16,
        tp: 2,
        ep: 8,
        ..PlanConfig::on(Hardware::H200)
    });
    let w = p.workload(0).unwrap();
    let e = w.layer.experts.clone().unwrap();
    assert_eq!((e.experts, e.local), (8, 1));
    // T_l·top_k·e/experts = s·b·2·8/8.
    let t_l = f64::from(p.seq_len() * p.micro_batch_size());
    assert_eq!(f64::from(e.tokens), t_l * 2.0);
}

#[test]
fn the_lab_own_figures_compare_at_one() {
    let p = plan(PlanConfig {
        model: ModelChoice::Preset(Preset::Llama3_8b),
        gpus: 8,
        tp: 2,
        pp: 2,
        ..PlanConfig::on(Hardware::H200)
    });
    let w = p.workload(0).unwrap();
    let c = compared(&file_of(&w, 1.0), Lang::En);
    assert!(c.card_known);
    assert_eq!(c.rows.len(), Figure::ALL.len());
    for row in &c.rows {
        let want = if row.figure == Figure::Reserved {
            1.0 / 1.05
        } else {
            1.0
        };
        let r = row.ratio_eager.unwrap();
        assert!((r - want).abs() < 1e-9, "{:?}: {r}", row.figure);
        assert!(!row.note.is_empty());
    }
    // Twice the lab's figures read as a ratio of one half.
    let c = compared(&file_of(&w, 2.0), Lang::Zh);
    assert!((c.rows[0].ratio_compiled.unwrap() - 0.5).abs() < 1e-9);
}

#[test]
fn an_unknown_card_compares_memory_only() {
    let w = plan(PlanConfig::on(Hardware::H200)).workload(0).unwrap();
    let text = file_of(&w, 1.0).replace("NVIDIA H200", "NVIDIA GeForce RTX 4090");
    let c = compared(&text, Lang::En);
    assert!(!c.card_known);
    assert!(c.rows[0].note.contains("RTX 4090"));
}

#[test]
fn foreign_and_malformed_files_name_the_field() {
    let w = plan(PlanConfig::on(Hardware::H200)).workload(0).unwrap();
    let good: serde_json::Value = serde_json::from_str(&file_of(&w, 1.0)).unwrap();
    let broken = |path: &[&str], value: serde_json::Value| {
        let mut v = good.clone();
        let mut at = &mut v;
        for key in &path[..path.len() - 1] {
            at = at.get_mut(*key).unwrap();
        }
        let last = path[path.len() - 1];
        if value.is_null() {
            at.as_object_mut().unwrap().remove(last);
        } else {
            at[last] = value;
        }
        Measured::read(&v.to_string()).unwrap_err()
    };
    let field = |e: CheckError| e.field;
    assert_eq!(field(broken(&["format"], "x".into())), "format");
    assert_eq!(field(broken(&["format"], WORKLOAD_FORMAT.into())), "format");
    assert_eq!(field(broken(&["version"], 9.into())), "version");
    assert_eq!(
        field(broken(&["eager", "peak_bytes"], "big".into())),
        "eager.peak_bytes"
    );
    assert_eq!(
        field(broken(&["eager", "states_bytes"], (-1).into())),
        "eager.states_bytes"
    );
    assert_eq!(
        field(broken(&["card", "name"], serde_json::Value::Null)),
        "card.name"
    );
    assert_eq!(
        field(broken(&["built", "layers"], 0.into())),
        "built.layers"
    );
    assert_eq!(field(broken(&["built", "held"], 0.into())), "built.held");
    assert_eq!(
        field(broken(&["workload", "config"], "x".into())),
        "workload"
    );
    assert_eq!(field(broken(&["compiled"], 3.into())), "compiled");
    // The workload itself, loaded by mistake.
    let e = Measured::read(&serde_json::to_string(&w).unwrap()).unwrap_err();
    assert!(e.problem.contains("workload"), "{e}");
    for text in ["", "[]", "null", "{", "\u{feff}{}"] {
        assert!(Measured::read(text).is_err(), "{text:?}");
    }
}

/// Issue 50's impossible measurements: each refused by its field, the value quoted short.
#[test]
fn impossible_measurements_are_refused_by_their_field() {
    let w = plan(PlanConfig::on(Hardware::H200)).workload(0).unwrap();
    let good: serde_json::Value = serde_json::from_str(&file_of(&w, 1.0)).unwrap();
    let refusal = |path: &[&str], value: serde_json::Value| {
        let mut v = good.clone();
        let mut at = &mut v;
        for key in path {
            at = &mut at[*key];
        }
        *at = value;
        match Measured::read(&v.to_string()) {
            Ok(m) => m.compare(Lang::En).unwrap_err(),
            Err(e) => e,
        }
    };
    for (path, value, shown) in [
        (&["eager", "layer_fwd_bwd_s"][..], 0.0, "(got 0)"),
        (&["eager", "layer_fwd_bwd_s"], 5e-324, "(got 5e-324)"),
        (&["compiled", "layer_fwd_bwd_s"], 1e308, "(got 1e308)"),
        (
            &["workload", "per_layer", "fwd_bwd_s"],
            5e-324,
            "(got 5e-324)",
        ),
        (&["eager", "peak_bytes"], 1e308, "(got 1e308)"),
        (&["eager", "activation_per_layer_bytes"], 0.0, "(got 0)"),
        (&["eager", "peak_bytes"], 1.0, "(got 1)"),
        (&["compiled", "reserved_bytes"], 1.0, "(got 1)"),
        (&["card", "memory_bytes"], 1.0, "(got 1e-9)"),
        (&["card", "memory_bytes"], 1e300, "(got 1e291)"),
    ] {
        let e = refusal(path, value.into());
        assert_eq!(e.field, path.join("."), "{e}");
        assert!(e.problem.ends_with(shown), "{e}");
        assert!(e.to_string().len() < 400, "{e}");
        assert!(
            crate::lang::has_cjk(&e.text(Lang::Zh)),
            "{}",
            e.text(Lang::Zh)
        );
    }
    assert_eq!(
        refusal(&["card", "memory_bytes"], serde_json::Value::Null).field,
        "card.memory_bytes"
    );
    // A foreign format's name is quoted short, however long.
    let e = refusal(&["format"], "f".repeat(100_000).into());
    assert!(e.problem.len() < 200, "{}", e.problem.len());
}

#[test]
fn full_recompute_is_named_as_such() {
    let w = plan(PlanConfig {
        recompute: Recompute::Full,
        ..PlanConfig::on(Hardware::H200)
    })
    .workload(0)
    .unwrap();
    let c = compared(&file_of(&w, 1.0), Lang::En);
    assert!(c.rows[1].note.contains("2·s·b·h"));
}

#[test]
fn fewer_layers_scale_the_totals() {
    let w = plan(PlanConfig::on(Hardware::H200)).workload(0).unwrap();
    let half = w.layers.first(w.layers.total / 2);
    let p = w.predicted_for(half.total, 1);
    let per = w.per_layer.activation_bytes;
    assert_eq!(p.activation_in_flight_bytes, per * f64::from(half.total));
    assert!(half.full_attention <= half.total && half.moe <= half.total);
}

#[test]
fn every_shipped_measurement_reads_and_compares() {
    let known = known();
    assert_eq!(known.len(), 10);
    for k in &known {
        let c = k.measured.compare(Lang::En).unwrap();
        assert!(c.card_known, "{}", k.name);
        // Each checks the card it was made for.
        assert!(measured_for(&k.measured.workload)
            .iter()
            .any(|m| m.name == k.name));
    }
}

#[test]
fn a_card_of_another_shape_has_no_measurement() {
    let p = plan(PlanConfig {
        gpus: 64,
        tp: 8,
        pp: 8,
        ..PlanConfig::on(Hardware::H200)
    });
    assert_eq!(measured_for(&p.workload(0).unwrap()).len(), 1);
    // Card 8 is on stage 1: another stage of the same shapes, but the file measured stage 0's
    // eight micro-batches in flight; stage 1 holds seven.
    assert!(measured_for(&p.workload(8).unwrap()).is_empty());
    // The same plan on H100s: another card.
    let h100 = plan(p.config().clone().use_card(Hardware::H100));
    assert!(measured_for(&h100.workload(0).unwrap()).is_empty());
}
