//! Seed 003's questions that the lab answers with numbers, as one typed table: each with the
//! grid and plan that demonstrate it, the figure its answer cites, and its answer as a sentence
//! whose every figure is named ([`Value`]) and read from the plan's live report (or, where the
//! answer compares, from the core's report of one other plan). No views.

use parallel_core::explain::Figure;
use parallel_core::link::{Control, GridId};
use parallel_core::{stages_imbalance, stages_range, Bytes, Dim, Plan, PlanConfig, Report};

use super::words as text;
use crate::kit::format;
use crate::kit::i18n::Lang;
use crate::kit::text::Text;

/// A figure an answer quotes, read from a plan and its report.
#[derive(Clone, Copy, Debug)]
pub(super) enum Value {
    /// Model states of the busiest card.
    States,
    /// Activations of the busiest card.
    Activations,
    /// Model states + activations.
    Total,
    /// The bubble ratio (p−1)/(v·m), as a percent.
    Bubble,
    /// Bytes a card sends per step in a dimension ("0" where it sends none).
    Traffic(Dim),
    /// Micro-batches in flight on the first stage.
    InFlight,
    /// Micro-batches per step, m.
    MicroBatches,
    /// The busiest pipeline stage.
    BusiestStage,
    /// The least memory of a stage.
    LeastStage,
    /// The busiest stage's memory over the least's, two decimals.
    StageRatio,
    /// The TP, PP and DP degrees, and the ZeRO stage.
    Tp,
    Pp,
    Dp,
    Zero,
    /// The plan's cards, N.
    Gpus,
    /// The estimated step time.
    Step,
    /// The rollout engines (SPEC §15): cards per engine, BF16 weights per card, sequences,
    /// tokens per sequence, KV cache per card, weights + KV cache.
    EngineGpus,
    RolloutWeights,
    Sequences,
    TokensPerSequence,
    KvCache,
    RolloutTotal,
    /// Whether a rollout card fits, as the end of a sentence.
    RolloutVerdict,
    /// The model's parameters ("8.0B").
    Params,
    /// BF16 weights of one card (`ModelStates::weights`).
    Weights,
    /// The time a card's traffic in a dimension takes on its link.
    TrafficTime(Dim),
    /// The link a dimension's traffic runs on ("NVLink", "InfiniBand").
    Link(Dim),
    /// The routed experts one card holds, E/e (`ExpertLoads::per_rank`).
    ExpertsPerCard,
    /// The routing skew ρ, the hottest expert's load over an even one.
    Skew,
    /// Tokens the card with the hottest expert receives, and an even card's (SPEC §20).
    HotTokens,
    EvenTokens,
    /// What the hottest card holds beyond the others, and what the step waits for it.
    RoutingExcess,
    RoutingWait,
    /// The runtime terms of the busiest card (SPEC §24): their total, the CUDA context and
    /// the allocator's reserve ("—" while they are not counted).
    Runtime,
    RuntimeContext,
    RuntimeReserve,
    /// The published run the plan writes, in a few words.
    Run,
}

impl Value {
    /// The figure as the answer writes it in `lang`, from `plan` and its `report` ("—" for
    /// a rollout figure of a plan without engines).
    fn read(self, lang: Lang, plan: &Plan, report: &Report) -> String {
        let memory = &report.memory;
        let rollout = report.rollout;
        let engines = |pick: fn(&parallel_core::RolloutReport) -> String| {
            rollout.as_ref().map_or_else(|| "—".to_string(), pick)
        };
        let routing = |pick: fn(&parallel_core::routing::RoutingReport) -> String| {
            report
                .routing
                .as_ref()
                .map_or_else(|| "—".to_string(), pick)
        };
        let traffic = |dim: Dim| report.comm.iter().find(|t| t.dim == dim);
        let runtime = |pick: fn(&parallel_core::RuntimeMemory) -> Bytes| {
            memory
                .runtime
                .as_ref()
                .map_or_else(|| "—".to_string(), |r| format::bytes(pick(r)))
        };
        match self {
            Value::States => format::bytes(memory.model_states),
            Value::Activations => format::bytes(memory.activations),
            Value::Total => format::bytes(memory.total),
            Value::Bubble => format::percent(report.bubble.ratio),
            Value::Traffic(dim) => {
                traffic(dim).map_or_else(|| "0".to_string(), |t| format::bytes(t.bytes))
            }
            Value::TrafficTime(dim) => {
                traffic(dim).map_or_else(|| "0".to_string(), |t| format::seconds(t.seconds))
            }
            Value::Link(dim) => traffic(dim).map_or_else(
                || "—".to_string(),
                |t| crate::kit::vocab::link(lang, t.link).to_string(),
            ),
            Value::InFlight => plan.micro_batches_in_flight().to_string(),
            Value::MicroBatches => plan.micro_batches().to_string(),
            Value::BusiestStage => report.busiest_stage.unwrap_or(0).to_string(),
            Value::LeastStage => format::bytes(
                stages_range(&report.by_stage).map_or(Bytes::ZERO, |(least, _)| least),
            ),
            Value::StageRatio => format!("{:.2}", stages_imbalance(&report.by_stage)),
            Value::Tp => plan.degrees().tp.to_string(),
            Value::Pp => plan.degrees().pp.to_string(),
            Value::Dp => plan.degrees().dp.to_string(),
            Value::Zero => plan.zero().to_string(),
            Value::Gpus => plan.gpus().to_string(),
            Value::Step => format::seconds(report.estimate.step_s),
            Value::EngineGpus => engines(|r| r.gpus_per_engine.to_string()),
            Value::RolloutWeights => engines(|r| format::bytes(r.weights)),
            Value::Sequences => engines(|r| format::thousands(r.sequences)),
            Value::TokensPerSequence => engines(|r| format::thousands(r.tokens_per_sequence)),
            Value::KvCache => engines(|r| format::bytes(r.kv_cache)),
            Value::RolloutTotal => engines(|r| format::bytes(r.total)),
            Value::Params => parallel_core::numbers::billions(plan.model().params),
            Value::Weights => format::bytes(plan.model_states().weights),
            Value::ExpertsPerCard => plan
                .expert_loads()
                .map_or_else(|| "—".to_string(), |l| l.per_rank().to_string()),
            Value::Skew => routing(|r| parallel_core::numbers::quoted(r.skew)),
            Value::HotTokens => routing(|r| parallel_core::numbers::thousands(r.tokens_hot)),
            Value::EvenTokens => routing(|r| parallel_core::numbers::thousands(r.tokens_even)),
            Value::RoutingExcess => routing(|r| format::bytes(r.excess)),
            Value::RoutingWait => routing(|r| format::seconds(r.added_s)),
            Value::Runtime => runtime(|r| r.total),
            Value::RuntimeContext => runtime(|r| r.context),
            Value::RuntimeReserve => runtime(|r| r.reserve),
            Value::Run => parallel_core::runs::runs()
                .into_iter()
                .find(|run| run.config == *plan.config())
                .map_or_else(
                    || "—".to_string(),
                    |run| lang.pick(run.label.0, run.label.1).to_string(),
                ),
            Value::RolloutVerdict => match rollout {
                Some(r) if r.fits => text::INFERENCE_FITS.get(lang).to_string(),
                _ => text::INFERENCE_OVER.fill(lang, &[("capacity", &memory.capacity)]),
            },
        }
    }
}

/// Where an answer reads a figure: the demonstration plan, or the `i`-th plan it compares
/// with.
#[derive(Clone, Copy, Debug)]
pub(super) enum Quote {
    Demo(Value),
    Compared(usize, Value),
}

/// One question: what students ask, its demonstration (a grid and a plan on it), the figure
/// on screen its answer cites, and the answer's sentence with the figure each name quotes.
#[derive(Clone, Copy)]
pub struct Question {
    /// Its id (`question-<id>`).
    pub id: &'static str,
    /// The question as students ask it.
    pub ask: Text,
    /// The grid its demonstration uses.
    pub grid: GridId,
    /// The figure on screen the answer cites.
    pub cites: Figure,
    /// The control the student moves to check the answer (focused once the plan is set
    /// up); `None` where the answer is read, not moved.
    pub control: Option<Control>,
    /// The demonstration plan, from the grid's start ([`GridId::start`]).
    pub(super) demo: fn(PlanConfig) -> PlanConfig,
    /// The plans the answer compares with, each from the demonstration plan.
    pub(super) compared: &'static [fn(PlanConfig) -> PlanConfig],
    /// The answer's sentence.
    pub(super) answer: Text,
    /// Each name of the sentence and the figure it quotes.
    pub(super) quotes: &'static [(&'static str, Quote)],
}

impl Question {
    /// The demonstration plan.
    pub fn plan(&self) -> PlanConfig {
        (self.demo)(self.grid.start())
    }

    /// The answer in `lang`, from the demonstration's plan and live report; a figure of a
    /// compared plan the core refuses is "—".
    pub fn answer(&self, lang: Lang, plan: &Plan, report: &Report) -> String {
        let compared: Vec<Option<(Plan, Report)>> = self
            .compared
            .iter()
            .map(|change| {
                let plan = Plan::new(&change(plan.config().clone())).ok()?;
                let report = plan.report();
                Some((plan, report))
            })
            .collect();
        let values: Vec<(&str, String)> = self
            .quotes
            .iter()
            .map(|&(name, quote)| {
                let value = match quote {
                    Quote::Demo(value) => value.read(lang, plan, report),
                    Quote::Compared(i, value) => {
                        compared.get(i).and_then(Option::as_ref).map_or_else(
                            || "—".to_string(),
                            |(plan, report)| value.read(lang, plan, report),
                        )
                    }
                };
                (name, value)
            })
            .collect();
        let args: Vec<(&str, &dyn std::fmt::Display)> = values
            .iter()
            .map(|(name, value)| (*name, value as &dyn std::fmt::Display))
            .collect();
        self.answer.fill(lang, &args)
    }
}

/// Questions the lab cannot compute, one line each.
pub const BEYOND: [Text; 1] = [
    Text {
        zh: "显存碎片、通信缓冲区和框架开销：本页不计，真实占用会比这里高一些。",
        en: "Fragmentation, communication buffers and framework overhead: not counted here, so real use runs somewhat higher.",
    },
];
