//! Uneven expert routing on a MoE plan (SPEC §20): the tokens each EP rank receives, what the
//! rank holding the hottest expert keeps beyond an even split, the all-to-all it makes the
//! others wait for, its extra compute and the tokens a capacity factor drops. Every figure is
//! the report's `routing`; this module only formats it.

use leptos::prelude::*;
use parallel_core::explain::Figure;
use parallel_core::numbers::{percent, quoted, thousands};
use parallel_core::routing::{
    CapacityChoice, MeasuredSkew, RoutingReport, CAPACITY_FACTORS, MEASURED_SKEWS,
};
use parallel_core::Field;

use crate::kit::choices::Choices;
use crate::kit::controls::choice::{Choice, Options};
use crate::kit::explain_button::ExplainButton;
use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::text::Text;
use crate::state::lab::{part, GridLab};

/// The sentences of the figure.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// What the skew and the capacity mean for the ranks.
        pub const LOADS: Text = Text {
            zh: "最热的专家拿到均匀分配的 {skew} 倍 token（{capacity}）。握着它的 EP rank 0 的卡（网格上标 ▲）每层每个 micro-batch 收到 {hot} 个 token 槽，其余每卡 {cold}；均匀时每卡 {even}。",
            en: "The hottest expert receives {skew} × an even split's tokens ({capacity}). The cards of EP rank 0, which hold it (marked ▲ on the grid), receive {hot} token-slots per layer and micro-batch, every other card {cold}; {even} each when even.",
        };
        /// Dropless.
        pub const DROPLESS: Text = Text {
            zh: "不丢 token，Megatron-LM 的默认",
            en: "dropless, Megatron-LM's default",
        };
        /// With a capacity factor.
        pub const CAPACITY: Text = Text {
            zh: "容量因子 {cf}：每个专家最多收均匀分配的 {cf} 倍，多出的丢掉",
            en: "capacity factor {cf}: an expert keeps at most {cf} × an even split and drops the rest",
        };
        /// Dropped tokens.
        pub const DROPPED: Text = Text {
            zh: "丢掉 {share} 的 token 槽，每步 {slots} 个（所有 MoE 层合计），它们只走残差连接。",
            en: "{share} of the token-slots dropped, {slots} per step over every MoE layer; they pass on through the residual connection only.",
        };
        /// The wait.
        pub const WAIT: Text = Text {
            zh: "每步路由专家的计算：均匀时 {even}，最忙的 rank {busiest}；其余 rank 都等它，这一步多了 {added}。",
            en: "Routed experts' compute per step: {even} when even, {busiest} on the busiest rank; every other rank waits for it, adding {added} to the step.",
        };
    }
}

/// The loads sentence of `r`.
fn loads_line(lang: Lang, r: &RoutingReport) -> String {
    let capacity = match r.capacity_factor {
        Some(cf) => text::CAPACITY.fill(lang, &[("cf", &quoted(cf))]),
        None => text::DROPLESS.fill(lang, &[]),
    };
    text::LOADS.fill(
        lang,
        &[
            ("skew", &quoted(r.skew)),
            ("capacity", &capacity),
            ("hot", &thousands(r.tokens_hot)),
            ("cold", &thousands(r.tokens_cold)),
            ("even", &thousands(r.tokens_even)),
        ],
    )
}

fn dropped_line(lang: Lang, r: &RoutingReport) -> String {
    text::DROPPED.fill(
        lang,
        &[
            ("share", &percent(r.dropped_share)),
            ("slots", &thousands(r.dropped_per_step)),
        ],
    )
}

fn wait_line(lang: Lang, r: &RoutingReport) -> String {
    text::WAIT.fill(
        lang,
        &[
            ("even", &format::seconds(r.expert_s_even)),
            ("busiest", &format::seconds(r.expert_s_busiest)),
            ("added", &format::seconds(r.added_s)),
        ],
    )
}

/// The option a value off the offered ones shows (from a link or a config): choosing it
/// changes nothing.
const ANOTHER: (&str, &str) = ("另一个值（来自链接）", "another value (from a link)");

/// The measured loads, then "another value".
fn skew_choices() -> Choices<Option<MeasuredSkew>> {
    let values: Vec<Option<MeasuredSkew>> =
        MEASURED_SKEWS.into_iter().map(Some).chain([None]).collect();
    Choices::named(
        &values,
        |m| m.map_or("other", |m| m.id),
        |m| m.map_or(ANOTHER, |m| (m.run_zh, m.run_en)),
    )
}

/// The capacity factors, then "another value".
fn capacity_choices() -> Choices<Option<CapacityChoice>> {
    let values: Vec<Option<CapacityChoice>> = CAPACITY_FACTORS
        .into_iter()
        .map(Some)
        .chain([None])
        .collect();
    Choices::named(
        &values,
        |c| c.map_or("other", |c| c.id),
        |c| c.map_or(ANOTHER, |c| (c.zh, c.en)),
    )
}

/// The two controls of uneven routing (`select-skew`, `select-capacity`), for MoE models.
#[component]
pub fn RoutingControls(lab: GridLab) -> impl IntoView {
    let skew = Options {
        choices: skew_choices(),
        get: |c| MeasuredSkew::of(c.routing_skew),
        set: |c, m| {
            if let Some(m) = m {
                c.routing_skew = m.skew;
            }
        },
    };
    let capacity = Options {
        choices: capacity_choices(),
        get: |c| CapacityChoice::of(c.capacity_factor),
        set: |c, choice| {
            if let Some(choice) = choice {
                c.capacity_factor = choice.factor;
            }
        },
    };
    view! {
        <Choice lab=lab field=Field::RoutingSkew test_id="select-skew" options=skew
            label_zh="最热专家的负载（实测，Wang 等 2024）"
            label_en="The hottest expert's load (measured, Wang et al. 2024)" />
        <Choice lab=lab field=Field::CapacityFactor test_id="select-capacity" options=capacity
            label_zh="专家容量因子"
            label_en="Expert capacity factor" />
    }
}

/// One row: a name, the hot (or busiest) figure and the even one, in `data-hot`/`data-even`.
#[component]
fn Row(
    test_id: &'static str,
    name: Text,
    hot: Signal<String>,
    even: Signal<String>,
    shown: Signal<String>,
) -> impl IntoView {
    view! {
        <div>
            <dt><T zh=name.zh en=name.en /></dt>
            <dd data-testid=test_id data-hot=hot data-even=even>{shown}</dd>
        </div>
    }
}

/// The routing figure (`routing-figure`), shown for MoE models: loads, memory, traffic,
/// compute and drops, each hot against even.
#[component]
pub fn RoutingFigure(lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let routing = part(move || lab.report.with(|r| r.routing));
    let show = move |read: fn(&RoutingReport, Lang) -> String| {
        Signal::derive(move || {
            routing.with(|r| r.as_ref().map(|r| read(r, lang.get())).unwrap_or_default())
        })
    };
    let pair = move |hot: fn(&RoutingReport) -> String, even: fn(&RoutingReport) -> String| {
        (
            Signal::derive(move || routing.with(|r| r.as_ref().map(hot).unwrap_or_default())),
            Signal::derive(move || routing.with(|r| r.as_ref().map(even).unwrap_or_default())),
        )
    };
    let (tokens_hot, tokens_even) =
        pair(|r| r.tokens_hot.to_string(), |r| r.tokens_even.to_string());
    let (act_hot, act_even) = pair(
        |r| format::raw_bytes(r.expert_activations_hot),
        |r| format::raw_bytes(r.expert_activations_even),
    );
    let (dispatch_hot, dispatch_even) = pair(
        |r| format::raw_bytes(r.dispatch_hot),
        |r| format::raw_bytes(r.dispatch_even),
    );
    let (a2a_hot, a2a_even) = pair(
        |r| format::raw_bytes(r.all_to_all_busiest),
        |r| format::raw_bytes(r.all_to_all_even),
    );
    let versus = move |hot: fn(&RoutingReport) -> String, even: fn(&RoutingReport) -> String| {
        Signal::derive(move || {
            routing.with(|r| {
                r.as_ref()
                    .map(|r| format!("{} · {}", hot(r), even(r)))
                    .unwrap_or_default()
            })
        })
    };
    // The explanations exist where routing is uneven (the core's `explain_all`).
    let uneven = move || lab.plan.with(|p| p.uneven());
    view! {
        <Show when=move || routing.with(Option::is_some)>
            <div class="figure routing-figure" data-testid="routing-figure">
                <h3 class="figure-title"><T zh="专家负载不均（MoE 路由）" en="Uneven expert load (MoE routing)" /></h3>
                <p data-testid="routing-loads">{show(|r, lang| loads_line(lang, r))}</p>
                <dl class="memory-numbers">
                    <Row test_id="routing-tokens" name=Text { zh: "每卡收到的 token 槽（热 · 均匀）", en: "Token-slots a card receives (hot · even)" }
                        hot=tokens_hot even=tokens_even
                        shown=versus(|r| thousands(r.tokens_hot), |r| thousands(r.tokens_even)) />
                    <Row test_id="routing-activations" name=Text { zh: "专家激活（热 · 均匀）", en: "Expert activations (hot · even)" }
                        hot=act_hot even=act_even
                        shown=versus(|r| format::bytes(r.expert_activations_hot), |r| format::bytes(r.expert_activations_even)) />
                    <Row test_id="routing-dispatch" name=Text { zh: "分发缓冲，一层（热 · 均匀）", en: "Dispatch buffers, one layer (hot · even)" }
                        hot=dispatch_hot even=dispatch_even
                        shown=versus(|r| format::bytes(r.dispatch_hot), |r| format::bytes(r.dispatch_even)) />
                    <Row test_id="routing-all-to-all" name=Text { zh: "all-to-all 字节/步（最忙 · 均匀）", en: "All-to-all bytes per step (busiest · even)" }
                        hot=a2a_hot even=a2a_even
                        shown=versus(|r| format::bytes(r.all_to_all_busiest), |r| format::bytes(r.all_to_all_even)) />
                    <div class="memory-total">
                        <dt><T zh="热卡多占的显存" en="What the hot card holds beyond even" />" "
                            {move || uneven().then(|| view! { <ExplainButton figure=Figure::RoutingExcess lab=lab /> })}</dt>
                        <dd data-testid="routing-excess" data-bytes=show(|r, _| format::raw_bytes(r.excess))>
                            {show(|r, _| format::bytes(r.excess))}
                        </dd>
                    </div>
                    <div>
                        <dt><T zh="这一步多出的时间" en="What the step gains" />" "
                            {move || uneven().then(|| view! { <ExplainButton figure=Figure::RoutingWait lab=lab /> })}</dt>
                        <dd data-testid="routing-wait" data-seconds=show(|r, _| r.added_s.get().to_string())>
                            {show(|r, _| format::seconds(r.added_s))}
                        </dd>
                    </div>
                </dl>
                <p class="secondary" data-testid="routing-compute">{show(|r, lang| wait_line(lang, r))}</p>
                <p class="secondary" data-testid="routing-dropped"
                    data-share=show(|r, _| r.dropped_share.to_string())
                    data-slots=show(|r, _| r.dropped_per_step.to_string())>
                    {show(|r, lang| dropped_line(lang, r))}
                </p>
            </div>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;
    use parallel_core::{evaluate, ModelChoice, PlanConfig, Preset};

    /// Every option reads back as itself, and sets the plan the core reads back as it.
    #[test]
    fn every_option_round_trips_through_the_plan_and_the_link() {
        crate::kit::choices::testing::assert_round_trips(&skew_choices());
        crate::kit::choices::testing::assert_round_trips(&capacity_choices());
        for m in MEASURED_SKEWS {
            for c in CAPACITY_FACTORS {
                let config = PlanConfig {
                    model: ModelChoice::Preset(Preset::Mixtral8x7b),
                    gpus: 64,
                    ep: 8,
                    routing_skew: m.skew,
                    capacity_factor: c.factor,
                    ..PlanConfig::default()
                };
                assert!(evaluate(&config).is_ok(), "{m:?} {c:?}");
                let grid = parallel_core::link::GridId::SixtyFour;
                let link = parallel_core::link::encode_plan(&config, grid);
                let (back, ignored) = parallel_core::link::decode_plan(&link, grid);
                assert!(ignored.is_empty(), "{link}: {ignored:?}");
                assert_eq!(MeasuredSkew::of(back.routing_skew), Some(m), "{link}");
                assert_eq!(CapacityChoice::of(back.capacity_factor), Some(c), "{link}");
            }
        }
    }

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let report = |skew, capacity_factor| {
            evaluate(&PlanConfig {
                model: ModelChoice::Preset(Preset::Mixtral8x7b),
                gpus: 64,
                ep: 8,
                routing_skew: skew,
                capacity_factor,
                ..PlanConfig::default()
            })
            .unwrap()
            .routing
            .unwrap()
        };
        assert_each_lang_uses_all(text::ALL, |lang| {
            for r in [report(1.0, None), report(1.72, Some(1.25))] {
                assert!(!loads_line(lang, &r).is_empty());
                assert!(!dropped_line(lang, &r).is_empty());
                assert!(!wait_line(lang, &r).is_empty());
            }
        });
    }
}
