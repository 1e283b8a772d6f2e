//! Every question answered from its plan, in both languages, with no figure missing.

use parallel_core::{Plan, Report};

use super::data::{Question, BEYOND};
use super::questions;
use super::words as text;
use crate::kit::i18n::Lang;

fn by_id(id: &str) -> Question {
    questions().into_iter().find(|q| q.id == id).unwrap()
}

#[test]
fn every_question_is_answered_from_its_plan_in_both_languages() {
    crate::kit::text::testing::assert_all_used(text::ALL, || {
        for q in questions() {
            let plan = Plan::new(&q.plan()).unwrap();
            assert_eq!(plan.gpus(), q.grid.gpus(), "{}", q.id);
            let report = plan.report();
            for lang in [Lang::Zh, Lang::En] {
                q.ask.get(lang);
                text::YOUR_PREDICTION.fill(lang, &[("guess", &"50 GB")]);
                let answer = q.answer(lang, &plan, &report);
                assert!(!answer.contains('—'), "{}: {answer}", q.id);
                // The inference answer's other verdict: a rollout card that fits.
                if let Some(rollout) = report.rollout {
                    let fits = Report {
                        rollout: Some(parallel_core::RolloutReport {
                            fits: true,
                            ..rollout
                        }),
                        ..report.clone()
                    };
                    q.answer(lang, &plan, &fits);
                }
            }
        }
    });
    // The first question; seed 003's inference question: the anchor's weights and KV cache on
    // the same cards (1 engine of 8, 64 sequences of 133,120 tokens) beside its training
    // states; and seed 003's questions the lab answered with text before issue 52, each now
    // with the figures that move: its own arithmetic's model at TP 4; ZeRO 0 to 3 side by
    // side; the hottest expert's card.
    let figures: [(&str, &[&str]); 6] = [
        (questions()[0].id, &["444.5 GB", "55.6 GB"]),
        (
            "inference-memory",
            &[
                "55.6 GB",
                "6.9 GB a card",
                "64 sequences of 133,120 tokens takes 139.6 GB",
                "over a card's 80.0 GB",
            ],
        ),
        (
            "tp4-7b",
            &["(8.0B parameters)", "16.1 GB on one card, 4.0 GB a card"],
        ),
        (
            "dp-zero",
            &[
                "ZeRO-0 55.6 GB, ZeRO-1 19.1 GB, ZeRO-2 13.0 GB, ZeRO-3 6.9 GB",
                "12.2 GB at ZeRO-0 and 12.2 GB at ZeRO-2",
                "18.2 GB",
            ],
        ),
        ("imbalance", &["1.937 times", "against 8,192 when even"]),
        (
            "largest-models",
            &["Llama 3 405B · 8,192 H100 · TP 8 × PP 16 × DP 64 · 8K"],
        ),
    ];
    for (id, wanted) in figures {
        let q = by_id(id);
        let plan = Plan::new(&q.plan()).unwrap();
        let answer = q.answer(Lang::En, &plan, &plan.report());
        for figure in wanted {
            assert!(answer.contains(figure), "{id}: no {figure:?} in {answer}");
        }
    }
    for t in BEYOND {
        assert!(!t.zh.is_empty() && !t.en.is_empty());
    }
}
