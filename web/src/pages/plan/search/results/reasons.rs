//! The search's outcome in words: the counts and the plan without CP beside a first plan that
//! splits the sequence ([`summary`]), and why the first plan ranks first, one sentence per
//! [`Lead`] of the core ([`why_first`]).

use parallel_core::estimate::Term;
use parallel_core::search::{Lead, Reason, Rival, SearchOutcome, EQUAL_TIME_SHARE};
use parallel_core::{Bytes, PlanConfig, Recompute};

use super::text;
use crate::kit::format;
use crate::kit::i18n::Lang;

/// The name of a term of the step.
fn term_name(lang: Lang, term: Term) -> &'static str {
    match term {
        Term::Compute => lang.pick("计算", "compute"),
        Term::Bubble => lang.pick("气泡", "the bubble"),
        Term::ExposedComm => lang.pick("未被掩盖的通信", "exposed communication"),
        Term::Optimizer => lang.pick("优化器更新", "the optimizer step"),
    }
}

/// The first lines above the table: counts, the safe share and, when the first plan splits the
/// sequence, what CP buys it.
pub fn summary(lang: Lang, outcome: &SearchOutcome, capacity: Bytes) -> Vec<String> {
    let count = |n: u64| format::thousands(n);
    if outcome.valid == 0 {
        return vec![text::NOTHING_VALID.fill(lang, &[("considered", &count(outcome.considered))])];
    }
    if outcome.fitting == 0 {
        return vec![text::NOTHING_FITS.fill(
            lang,
            &[
                ("considered", &count(outcome.considered)),
                ("valid", &count(outcome.valid)),
                ("capacity", &capacity),
            ],
        )];
    }
    let mut lines = vec![text::COUNTS.fill(
        lang,
        &[
            ("considered", &count(outcome.considered)),
            ("valid", &count(outcome.valid)),
            ("fitting", &count(outcome.fitting)),
            ("shown", &outcome.plans.len()),
        ],
    )];
    lines.push(if outcome.comfortable == 0 {
        text::ALL_TIGHT.fill(lang, &[("safe", &format::safe_share())])
    } else {
        text::MARGIN_RULE.fill(
            lang,
            &[
                ("comfortable", &count(outcome.comfortable)),
                ("safe", &format::safe_share()),
            ],
        )
    });
    if let Some(line) = cp_line(lang, outcome) {
        lines.push(line);
    }
    lines
}

/// When the first plan splits the sequence (CP > 1): the quickest plan without CP and the term
/// it loses on, in figures, or that none fits.
fn cp_line(lang: Lang, outcome: &SearchOutcome) -> Option<String> {
    let first = outcome.plans.first()?;
    let cp = first.config.cp;
    if cp == 1 {
        return None;
    }
    let Some(without) = &outcome.without_cp else {
        return Some(text::ONLY_WITH_CP.fill(lang, &[("cp", &cp)]));
    };
    let c = &without.config;
    let plan = format!(
        "TP {} × PP {}, ZeRO-{}, {}",
        c.tp,
        c.pp,
        c.zero,
        recompute_cell(lang, c.recompute)
    );
    let step = without.report.estimate.step_s;
    let gap = outcome.cp_gap()?;
    let (term, by) = match outcome.why_cp()? {
        Reason::Quicker { term, by, .. } => {
            (term_name(lang, term).to_string(), format::seconds(by))
        }
        Reason::UnderSafeShare { rival_share, .. } => (
            lang.pick("显存余量", "the memory margin").to_string(),
            text::CP_MARGIN.fill(
                lang,
                &[
                    ("share", &format::percent(rival_share)),
                    ("safe", &format::safe_share()),
                ],
            ),
        ),
        _ => return None,
    };
    Some(text::WITHOUT_CP.fill(
        lang,
        &[
            ("cp", &cp),
            ("plan", &plan),
            ("step", &format::seconds(step)),
            ("gap", &format::seconds(gap)),
            ("term", &term),
            ("by", &by),
        ],
    ))
}

/// One sentence per reason the first plan ranks first ([`SearchOutcome::why_first`]), each with
/// its reason's id.
pub fn why_first(lang: Lang, outcome: &SearchOutcome) -> Vec<(&'static str, String)> {
    outcome
        .why_first
        .iter()
        .map(|lead| (lead.reason.id(), why(lang, outcome, lead)))
        .collect()
}

/// "TP 1 × CP 2 × PP 4" (with EP when above 1).
fn degrees(config: &PlanConfig) -> String {
    let ep = if config.ep > 1 {
        format!(" × EP {}", config.ep)
    } else {
        String::new()
    };
    format!("TP {} × CP {} × PP {}{ep}", config.tp, config.cp, config.pp)
}

/// The sentence of one lead.
fn why(lang: Lang, outcome: &SearchOutcome, lead: &Lead) -> String {
    let rival = match (lead.against, lead.rank, &outcome.quickest) {
        (Rival::Quickest, Some(rank), Some(q)) => {
            text::RIVAL_QUICKEST.fill(lang, &[("rank", &rank), ("plan", &degrees(&q.config))])
        }
        (Rival::Quickest, None, Some(q)) => text::RIVAL_QUICKEST_UNLISTED.fill(
            lang,
            &[
                ("plan", &degrees(&q.config)),
                ("step", &format::seconds(q.report.estimate.step_s)),
            ],
        ),
        _ => text::RIVAL_SECOND.get(lang).to_string(),
    };
    let band = format::rule_percent(EQUAL_TIME_SHARE);
    let tie = |gap, share| {
        text::WHY_TIE.fill(
            lang,
            &[
                ("rival", &rival),
                ("gap", &format::seconds(gap)),
                ("share", &format::percent(share)),
                ("band", &band),
            ],
        )
    };
    match lead.reason {
        Reason::UnderSafeShare { share, rival_share } => text::WHY_UNDER_SAFE_SHARE.fill(
            lang,
            &[
                ("share", &format::percent(share)),
                ("safe", &format::safe_share()),
                ("rival", &rival),
                ("rival_share", &format::percent(rival_share)),
            ],
        ),
        Reason::Quicker {
            gap,
            share,
            over_quickest,
            term,
            by,
        } => {
            let by = if by.get() >= 0.0 {
                lang.pick("少 ", "less by ").to_string() + &format::seconds(by)
            } else {
                lang.pick("反而多 ", "more by ").to_string() + &format::seconds(by.abs())
            };
            text::WHY_QUICKER.fill(
                lang,
                &[
                    ("gap", &format::seconds(gap)),
                    ("share", &format::percent(share)),
                    ("rival", &rival),
                    ("over", &format::percent(over_quickest)),
                    ("band", &band),
                    ("term", &term_name(lang, term)),
                    ("by", &by),
                ],
            )
        }
        Reason::TieNoCp {
            gap,
            share,
            rival_cp,
        } => {
            let rule = text::WHY_TIE_NO_CP.fill(lang, &[("cp", &rival_cp)]);
            format!("{}{}{rule}", tie(gap, share), lang.pick("", " "))
        }
        Reason::TieFewerDimensions {
            gap,
            share,
            dimensions,
            rival_dimensions,
        } => {
            let rule = text::WHY_TIE_FEWER_DIMENSIONS.fill(
                lang,
                &[("dims", &dimensions), ("rival_dims", &rival_dimensions)],
            );
            format!("{}{}{rule}", tie(gap, share), lang.pick("", " "))
        }
        Reason::TieSmallerPp {
            gap,
            share,
            pp,
            rival_pp,
        } => {
            let rule = text::WHY_TIE_SMALLER_PP.fill(lang, &[("pp", &pp), ("rival_pp", &rival_pp)]);
            format!("{}{}{rule}", tie(gap, share), lang.pick("", " "))
        }
        Reason::TieQuicker { gap, share } => text::WHY_TIE_QUICKER.fill(
            lang,
            &[
                ("rival", &rival),
                ("band", &band),
                ("gap", &format::seconds(gap)),
                ("share", &format::percent(share)),
            ],
        ),
        Reason::LessMemory { by } => {
            text::WHY_LESS_MEMORY.fill(lang, &[("rival", &rival), ("by", &format::bytes(by))])
        }
        Reason::Enumeration => text::WHY_ENUMERATION.fill(lang, &[("rival", &rival)]),
    }
}

pub(super) fn recompute_cell(lang: Lang, recompute: Recompute) -> &'static str {
    match recompute {
        Recompute::Full => lang.pick("全量", "full"),
        Recompute::Selective => lang.pick("选择性", "selective"),
        Recompute::None => lang.pick("不重算", "none"),
    }
}
