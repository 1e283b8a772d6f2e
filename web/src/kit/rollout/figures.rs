//! One rollout card's memory beside a grid, while the plan has rollout engines (SPEC §15):
//! the engines and the sequences each holds, BF16 weights, KV cache, their total against the
//! card, and a card's peak over training and rollout with the phase that sets it. Every
//! figure is the report's `rollout`; each carries its raw value in a `data-*` attribute.

use leptos::prelude::*;
use parallel_core::explain::Figure;
use parallel_core::{Bytes, RolloutPhase, RolloutReport};

use crate::kit::explain_button::ExplainButton;
use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::state::lab::{part, GridLab};

/// The sentences of the figure.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The engines on the training cards.
        pub const ENGINES_COLOCATED: Text = Text {
            zh: "{engines} 个推理引擎，每个 {per} 张卡；同卡训推：就在这 {cards} 张训练卡上。",
            en: "{engines} inference engines of {per} cards each; colocated: on these {cards} training cards.",
        };
        /// The engines on a pool of their own.
        pub const ENGINES_SEPARATE: Text = Text {
            zh: "{engines} 个推理引擎，每个 {per} 张卡；训推分离：{gpus} 张训练卡之外另有 {pool} 张推理卡，共 {cards} 张。",
            en: "{engines} inference engines of {per} cards each; separate: {pool} rollout cards beside the {gpus} training cards, {cards} in all.",
        };
        /// The sequences of a round and one engine's share.
        pub const SEQUENCES: Text = Text {
            zh: "每轮 {sequences} 条序列，每个引擎 {per_engine} 条，每条最多 {tokens} 个 token（prompt + 回答）。",
            en: "{sequences} sequences a round, {per_engine} per engine, each up to {tokens} tokens (prompt + response).",
        };
        /// The peak of a card that trains and samples in turn.
        pub const PEAK_COLOCATED: Text = Text {
            zh: "同卡训推：一张卡先训练、再推理（两阶段之间理想地卸载），峰值 = max(训练 {training}，推理 {rollout})，由{phase}阶段决定。",
            en: "Colocated: a card trains, then samples (ideal offload between the phases), so its peak is max(training {training}, rollout {rollout}), set by the {phase} phase.",
        };
        /// The peak of a card of a separate pool.
        pub const PEAK_SEPARATE: Text = Text {
            zh: "训推分离：推理卡只做推理，峰值就是推理合计；训练卡的显存见上面的图。",
            en: "Separate pools: a rollout card only samples, so its peak is the rollout total; the training cards are in the memory figure above.",
        };
    }
}

/// What the figure shows: the report's `rollout`, the busiest training card's total and the
/// card's capacity (the report's memory), and the plan's training and rollout cards.
#[derive(Clone, Copy, PartialEq)]
struct Engines {
    report: RolloutReport,
    training: Bytes,
    capacity: Bytes,
    gpus: u32,
    pool: u32,
}

/// The phase's name in a sentence.
fn phase(lang: Lang, phase: RolloutPhase) -> &'static str {
    match phase {
        RolloutPhase::Training => lang.pick("训练", "training"),
        RolloutPhase::Rollout => lang.pick("推理", "rollout"),
    }
}

fn engines_line(lang: Lang, e: &Engines) -> String {
    let r = &e.report;
    let engines = format::thousands(u64::from(r.engines));
    let per = format::thousands(u64::from(r.gpus_per_engine));
    let cards = format::thousands(u64::from(r.cards));
    if r.colocated {
        text::ENGINES_COLOCATED.fill(
            lang,
            &[("engines", &engines), ("per", &per), ("cards", &cards)],
        )
    } else {
        let gpus = format::thousands(u64::from(e.gpus));
        let pool = format::thousands(u64::from(e.pool));
        text::ENGINES_SEPARATE.fill(
            lang,
            &[
                ("engines", &engines),
                ("per", &per),
                ("gpus", &gpus),
                ("pool", &pool),
                ("cards", &cards),
            ],
        )
    }
}

fn sequences_line(lang: Lang, r: &RolloutReport) -> String {
    text::SEQUENCES.fill(
        lang,
        &[
            ("sequences", &format::thousands(r.sequences)),
            ("per_engine", &format::thousands(r.sequences_per_engine)),
            ("tokens", &format::thousands(r.tokens_per_sequence)),
        ],
    )
}

fn peak_line(lang: Lang, e: &Engines) -> String {
    let r = &e.report;
    if r.colocated {
        text::PEAK_COLOCATED.fill(
            lang,
            &[
                ("training", &e.training),
                ("rollout", &r.total),
                ("phase", &phase(lang, r.peak_phase)),
            ],
        )
    } else {
        text::PEAK_SEPARATE.get(lang).to_string()
    }
}

/// A rollout card's verdict: fits, or over the card.
fn verdict(lang: Lang, fits: bool) -> &'static str {
    if fits {
        lang.pick("✓ 推理卡放得下", "✓ fits on a rollout card")
    } else {
        lang.pick("✗ 超出推理卡显存", "✗ over a rollout card's memory")
    }
}

/// One rollout card's memory (`rollout-weights`, `rollout-kv`, `rollout-total`,
/// `rollout-peak`), the engines (`rollout-engines`) and the sequences per engine
/// (`rollout-seqs-per-engine`); shown only while the plan has rollout engines.
#[component]
pub fn RolloutFigure(lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let engines = part(move || {
        let report = lab.report.with(|r| {
            r.rollout
                .map(|report| (report, r.memory.total, r.memory.capacity))
        })?;
        let (gpus, pool) = lab.plan.with(|p| {
            let c = p.config();
            (c.gpus, c.rollout.map_or(0, |r| r.rollout_gpus))
        });
        let (report, training, capacity) = report;
        Some(Engines {
            report,
            training,
            capacity,
            gpus,
            pool,
        })
    });
    // Every text and attribute of the figure is one kind of closure, read while it is shown.
    let show = move |read: fn(&Engines, Lang) -> String| {
        move || engines.with(|e| e.as_ref().map(|e| read(e, lang.get())).unwrap_or_default())
    };
    view! {
        <Show when=move || engines.with(Option::is_some)>
            <div class="figure rollout-figure" data-testid="rollout-figure"
                class:over=move || engines.with(|e| e.is_some_and(|e| !e.report.fits))>
                <h3 class="figure-title"><T zh="推理引擎每卡显存（RL 采样）" en="Memory per rollout card (RL sampling)" /></h3>
                <p data-testid="rollout-engines"
                    data-count=show(|e, _| e.report.engines.to_string())
                    data-gpus-per-engine=show(|e, _| e.report.gpus_per_engine.to_string())
                    data-cards=show(|e, _| e.report.cards.to_string())
                    data-colocated=show(|e, _| e.report.colocated.to_string())>
                    {show(|e, lang| engines_line(lang, e))}
                </p>
                <p data-testid="rollout-seqs-per-engine"
                    data-count=show(|e, _| e.report.sequences_per_engine.to_string())
                    data-sequences=show(|e, _| e.report.sequences.to_string())
                    data-tokens=show(|e, _| e.report.tokens_per_sequence.to_string())>
                    {show(|e, lang| sequences_line(lang, &e.report))}
                </p>
                <dl class="memory-numbers">
                    <div>
                        <dt><T zh="BF16 权重" en="BF16 weights" />" "<ExplainButton figure=Figure::RolloutWeights lab=lab /></dt>
                        <dd data-testid="rollout-weights" data-bytes=show(|e, _| format::raw_bytes(e.report.weights))>
                            {show(|e, _| format::bytes(e.report.weights))}
                        </dd>
                    </div>
                    <div>
                        <dt><T zh="KV cache" en="KV cache" />" "<ExplainButton figure=Figure::RolloutKv lab=lab /></dt>
                        <dd data-testid="rollout-kv" data-bytes=show(|e, _| format::raw_bytes(e.report.kv_cache))>
                            {show(|e, _| format::bytes(e.report.kv_cache))}
                        </dd>
                    </div>
                    <div class="memory-total">
                        <dt><T zh="推理每卡合计" en="Total per rollout card" />" "<ExplainButton figure=Figure::RolloutTotal lab=lab /></dt>
                        <dd data-testid="rollout-total" data-bytes=show(|e, _| format::raw_bytes(e.report.total))
                            data-fits=show(|e, _| e.report.fits.to_string())>
                            {show(|e, _| format!("{} / {}", format::bytes(e.report.total), format::bytes(e.capacity)))}
                            " "
                            <strong class="fit-verdict">{show(|e, lang| verdict(lang, e.report.fits).to_string())}</strong>
                        </dd>
                    </div>
                    <div>
                        <dt><T zh="一张卡的峰值" en="A card's peak" />" "<ExplainButton figure=Figure::RolloutPeak lab=lab /></dt>
                        <dd data-testid="rollout-peak" data-bytes=show(|e, _| format::raw_bytes(e.report.peak))
                            data-phase=show(|e, _| match e.report.peak_phase {
                                RolloutPhase::Training => "training".to_string(),
                                RolloutPhase::Rollout => "rollout".to_string(),
                            })>
                            {show(|e, _| format::bytes(e.report.peak))}
                        </dd>
                    </div>
                </dl>
                <p class="secondary" data-testid="rollout-peak-phase">{show(|e, lang| peak_line(lang, e))}</p>
                <p class="secondary">
                    <T zh="KV cache 只算全注意力层；线性注意力层每条序列的固定状态没有计入。"
                       en="The KV cache counts full-attention layers only; a linear-attention layer's fixed state per sequence is not counted." />
                </p>
            </div>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;
    use parallel_core::{evaluate, PlanConfig, Rollout};

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let shown = |rollout: Rollout| {
            let config = PlanConfig {
                rollout: Some(rollout),
                ..PlanConfig::lesson_8_gpus()
            };
            let report = evaluate(&config).unwrap();
            Engines {
                report: report.rollout.unwrap(),
                training: report.memory.total,
                capacity: report.memory.capacity,
                gpus: config.gpus,
                pool: rollout.rollout_gpus,
            }
        };
        let colocated = shown(Rollout::default());
        let separate = shown(Rollout {
            rollout_gpus: 16,
            ..Rollout::default()
        });
        assert_each_lang_uses_all(text::ALL, |lang| {
            for e in [&colocated, &separate] {
                engines_line(lang, e);
                sequences_line(lang, &e.report);
                peak_line(lang, e);
                verdict(lang, e.report.fits);
            }
        });
    }
}
