//! The panel's pure parts, natively: the workload file is the core's workload as the CLI writes
//! it, a measured file reads into the comparison the table shows, cells are written as the
//! CLI's table writes them, and a refused file names its field in both languages.

use parallel_core::check::{CheckError, Figure, Measured, Workload, MEASURED_FORMAT};
use parallel_core::hardware::Hardware;
use parallel_core::{Plan, PlanConfig};

use super::comparison::{built, measured_on, method};
use super::load::{read, Refused};
use super::text;
use super::workload::{command, file_name, json_of, workload_text};
use crate::kit::i18n::Lang;
use crate::kit::text::testing::assert_each_lang_uses_all;
use parallel_core::lang::has_cjk;

fn plan() -> Plan {
    Plan::new(&PlanConfig {
        gpus: 8,
        tp: 2,
        pp: 2,
        ..PlanConfig::on(Hardware::H200)
    })
    .unwrap()
}

/// A measured file for `w` whose figures are the lab's times `scale`, compiled or not, on a
/// card whose memory holds them (the whole stage is built, more than one H200 holds).
fn measured_file(w: &Workload, scale: f64, compiled: bool) -> String {
    let p = w.predicted;
    let figures = serde_json::json!({
        "layer_fwd_bwd_s": p.layer_fwd_bwd_s.map(|s| s * scale),
        "activation_per_layer_bytes": p.activation_per_layer_bytes * scale,
        "activation_in_flight_bytes": p.activation_in_flight_bytes * scale,
        "states_bytes": p.states_bytes * scale,
        "peak_bytes": p.peak_bytes * scale,
        "reserved_bytes": p.peak_bytes * scale * 1.1,
    });
    let mut file = serde_json::json!({
        "format": MEASURED_FORMAT,
        "version": 1,
        "workload": w,
        "card": {"name": "NVIDIA H200", "memory_bytes": (p.peak_bytes * scale * 1.1).max(150e9)},
        "software": {"torch": "2.11.0", "cuda": "13.0"},
        "date": "2026-12-04",
        "method": "test",
        "built": {"layers": w.layers.total, "moe": w.layers.moe,
                  "full_attention": w.layers.full_attention, "held": w.held()},
        "eager": figures,
    });
    if compiled {
        file["compiled"] = figures;
    } else {
        file["compiled_error"] = "no triton".into();
    }
    file.to_string()
}

#[test]
fn the_workload_file_is_the_core_s_workload_as_pretty_json() {
    let plan = plan();
    for card in [0, 5, 7] {
        let text = workload_text(&plan, card).unwrap();
        assert!(text.ends_with("}\n"), "{text}");
        let back: Workload = serde_json::from_str(&text).unwrap();
        assert_eq!(back, plan.workload(card).unwrap());
        assert_eq!(text, json_of(&back));
        assert!(text.contains("\n  \"format\": \"parallel-lab/workload\""));
    }
    assert!(workload_text(&plan, 8).is_err(), "card 8 of 8");
    assert_eq!(file_name(5), "workload-card-5.json");
    assert_eq!(command(5), "python3 check.py workload-card-5.json");
}

#[test]
fn a_measured_file_reads_into_every_row_in_both_languages() {
    let w = plan().workload(0).unwrap();
    for compiled in [true, false] {
        let measured = read(&measured_file(&w, 2.0, compiled)).unwrap();
        for lang in [Lang::Zh, Lang::En] {
            let c = measured.compare(lang).unwrap();
            let ids: Vec<Figure> = c.rows.iter().map(|r| r.figure).collect();
            assert_eq!(ids, Figure::ALL, "one row per figure, in order");
            let half = c.rows[0].ratio_eager.unwrap();
            assert!((half - 0.5).abs() < 1e-9, "{half}");
            assert_eq!(c.rows[0].ratio_compiled.is_some(), compiled);
            assert_eq!(c.compiled_error.is_none(), compiled);
            let lines = [measured_on(&c, lang), built(&c, lang), method(&c, lang)];
            assert!(lines[0].contains("NVIDIA H200") && lines[0].contains("2026-12-04"));
            assert!(lines[1].contains(&c.held.to_string()));
            if lang == Lang::En {
                for line in &lines {
                    assert!(!has_cjk(line), "{line}");
                }
                assert_eq!(
                    lines[1],
                    format!(
                        "card 0, stage 0: layers built {0} / {0}, micro-batches held {1}",
                        c.stage_layers, c.held
                    )
                );
            }
        }
    }
}

#[test]
fn a_refused_file_names_its_field_in_both_languages() {
    let w = plan().workload(0).unwrap();
    let good: serde_json::Value = serde_json::from_str(&measured_file(&w, 1.0, true)).unwrap();
    let mut bad = good.clone();
    bad["eager"]["peak_bytes"] = "big".into();
    let workload = serde_json::to_string(&w).unwrap();
    let cases = [
        ("not json".to_owned(), ""),
        ("{}".to_owned(), "format"),
        (workload, "format"),
        (bad.to_string(), "eager.peak_bytes"),
    ];
    for (file, field) in cases {
        let Err(refused) = read(&file) else {
            panic!("{file} read")
        };
        let Refused::File(error) = &refused else {
            panic!("{refused:?}")
        };
        assert_eq!(refused.field(), field);
        assert_eq!(refused.text(Lang::En), error.to_string());
        let zh = refused.text(Lang::Zh);
        assert!(zh.contains(field) && zh.contains(&error.problem_zh), "{zh}");
        assert!(has_cjk(&zh));
    }
    let unreadable = Refused::Unreadable;
    assert_eq!(unreadable.field(), "");
    assert!(!has_cjk(&unreadable.text(Lang::En)));
    assert!(has_cjk(&unreadable.text(Lang::Zh)));
    // The core's message for a foreign file, as the page shows it in English.
    let error: CheckError = Measured::read("{}").unwrap_err();
    assert!(Refused::File(error).text(Lang::En).contains("`format`"));
}

#[test]
fn every_sentence_is_filled_with_its_names() {
    let w = plan().workload(0).unwrap();
    let c = read(&measured_file(&w, 1.0, false))
        .unwrap()
        .compare(Lang::En)
        .unwrap();
    assert_each_lang_uses_all(text::ALL, |lang| {
        for t in [
            &text::SUMMARY,
            &text::STEP_DOWNLOAD,
            &text::SCRIPT,
            &text::STEP_RUN,
            &text::COPY,
            &text::COPIED,
            &text::COPY_REFUSED,
            &text::STEP_LOAD,
            &text::FILE,
            &text::PASTE,
            &text::COMPARE,
            &text::UNREADABLE,
            &text::NOTES,
            &text::NOT_BUILT,
            &text::TABLE,
            &text::SHOW_KNOWN,
            &text::TO_PLANNER,
            &text::PLANNER,
        ] {
            t.get(lang);
        }
        text::KNOWN.fill(lang, &[("card", &"NVIDIA H200"), ("date", &"2026-12-04")]);
        text::CARD.fill(
            lang,
            &[("card", &0), ("stage", &0), ("layers", &16), ("held", &2)],
        );
        text::DOWNLOAD.fill(lang, &[("file", &file_name(0))]);
        text::COMPILED_ERROR.fill(lang, &[("why", &"no triton")]);
        measured_on(&c, lang);
        built(&c, lang);
        method(&c, lang);
    });
}
