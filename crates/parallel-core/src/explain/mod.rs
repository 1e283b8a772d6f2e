//! Why a figure is what it is: for each computed figure of a plan, its formula in symbols,
//! the same formula with this plan's values, the result with its unit, and the source.
//!
//! Each figure is computed by one generic formula ([`crate::formula`]): the report evaluates
//! it as `f64`, and [`Plan::explain`] evaluates the same function as [`Worked`] to write it
//! out. The formula functions are, by figure: model states `Plan::states_total` (even split)
//! or `stage_states` (stage by stage), activations `held_even` / `stage_activations`,
//! traffic [`Plan::traffic_bytes`] and [`Plan::link_seconds`], the bubble `bubble_ratio` and
//! `bubble::share`, the estimate `tokens`, `compute`, `step`, `throughput`, the DP degree
//! `data_parallel_degree`, the offloaded optimizer's host bytes `host_per_gpu` and
//! `host_node` (SPEC §14), the rollout engines' `rollout_weights`, `rollout_kv`,
//! `rollout_total` and `rollout_peak` (SPEC §15). Nothing here restates a formula: this module names the figures,
//! picks their function and writes the result.

use serde::Serialize;

use crate::config::Accounting;
use crate::formula::{Quantity, Show, Worked};
use crate::grid::Dim;
use crate::kernels::Kernels;
use crate::numbers::thousands;
use crate::plan::{data_parallel_degree, Plan};
use crate::report::Report;
use crate::stages::busiest;
use crate::units::Bytes;

mod figure;

pub use figure::Figure;

/// The unit of a figure's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Bytes (shown in GB).
    Bytes,
    /// Seconds.
    Seconds,
    /// A ratio (shown as a percentage).
    Ratio,
    /// A count (cards, tokens).
    Count,
    /// Tokens per second per card.
    TokensPerSecond,
}

/// One figure explained.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    /// The figure's id (its test id on the page).
    pub figure: String,
    /// The formula in symbols.
    pub formula: String,
    /// The formula with this plan's values, step by step.
    pub substituted: String,
    /// The figure's value, as the report has it.
    pub result: f64,
    /// Its unit.
    pub unit: Unit,
    /// The result as shown ("55.6 GB", "12.5%", "1.94 s").
    pub shown: String,
    /// Where the formula comes from.
    pub source: &'static str,
    /// The value the written-out formula gives: `result` itself, since the report evaluates
    /// the same function.
    #[serde(skip)]
    pub worked: f64,
}

const ZERO_SOURCE: &str = "ZeRO (Rajbhandari et al. 2019) §5; SPEC §4";
const ACTIVATION_SOURCE: &str =
    "Korthikanti et al. 2022 (sequence parallelism, selective recompute); SPEC §4, §11";
const TRAFFIC_SOURCE: &str =
    "ring collectives; Megatron-LM (Shoeybi 2019) for TP, ring attention for CP, GShard for EP, ZeRO for DP; SPEC §5";
const BUBBLE_SOURCE: &str = "Narayanan et al. 2021 §2.2; SPEC §6";
const ESTIMATE_SOURCE: &str =
    "Kaplan et al. 2020 (6 FLOPs per parameter and token), Narayanan et al. 2021 §5.1; SPEC §12 (an estimate)";
const ROOFLINE_SOURCE: &str =
    "the roofline model (Williams et al. 2009): a GEMM of T_l rows does T_l FLOPs per byte of BF16 weight; SPEC §17";
const ALPHA_BETA_SOURCE: &str =
    "Hockney 1994 (α–β), ring step counts of Thakur et al. 2005; SPEC §17 (an estimate)";
const SLOWDOWN_SOURCE: &str =
    "compute from measured kernel rates ÷ the same FLOPs at the card's large-GEMM rate; SPEC §18";
const OPTIMIZER_SOURCE: &str =
    "Adam with FP32 master weights (Megatron-LM's distributed optimizer): 30 bytes read and written per parameter at the measured copy bandwidth; SPEC §18";
const NCCL_ALPHA_BETA_SOURCE: &str =
    "Hockney 1994 (α–β); α from NCCL 2.30.7's ring model (src/graph/tuning.cc: 8.4 µs a call, 3.4 µs a step over NVLink, 14 µs between nodes, × 1.4 for an all-reduce across nodes); what is sent as Megatron-Core sends it (PP the sequence-parallel shard, ÷ t; DP buckets of max(40M, 1M·D) parameters); SPEC §18";
const MFU_SOURCE: &str = "PaLM (Chowdhery et al. 2022) appendix B; SPEC §17";
const ROLLOUT_SOURCE: &str =
    "GQA (Ainslie et al. 2023) and MLA (DeepSeek-V2, 2024) KV caches; seed 000's RL recipes; SPEC §15";
const ROUTING_SOURCE: &str =
    "Switch Transformer (Fedus et al. 2022) §2.2 for the capacity; Wang et al. 2024 (arXiv 2408.15664) for measured loads; Korthikanti et al. 2022 §4.1 for an expert's activations; SPEC §20";
const OFFLOAD_SOURCE: &str =
    "ZeRO-Offload (Ren et al. 2021): FP32 master weights, Adam moments and gradients on the host; SPEC §14";

/// The formula in symbols: "name = …", then the named quantities it went through, outermost
/// first.
/// The bytes a card's tensors hold, model states + activations, as the two named figures.
fn allocated(m: &crate::memory::Memory) -> Worked {
    Worked::var("model states", m.model_states.get(), Show::Bytes)
        + Worked::var("activations", m.activations.get(), Show::Bytes)
}

fn in_symbols(name: &str, worked: &Worked) -> String {
    let mut text = format!("{name} = {}", worked.symbols());
    for definition in worked.definitions().iter().rev() {
        text.push_str("; ");
        text.push_str(&definition.in_symbols());
    }
    text
}

/// The formula with the plan's values: the named quantities first, innermost first, then
/// "name = … = shown".
fn worked_out(name: &str, worked: &Worked, shown: &str) -> String {
    let mut text = String::new();
    for definition in worked.definitions() {
        text.push_str(&definition.worked());
        text.push_str("; ");
    }
    text.push_str(&format!("{name} = {} = {shown}", worked.substituted()));
    text
}

impl Plan {
    /// The explanation of `figure` for this plan and its `report` (the report the page shows;
    /// its `comm` may be a selected card's own). `None` when the figure is not part of the
    /// report (a dimension with one card, say).
    ///
    /// ```
    /// use parallel_core::explain::Figure;
    /// use parallel_core::{Plan, PlanConfig};
    /// let plan = Plan::new(&PlanConfig::lesson_8_gpus())?;
    /// let report = plan.report();
    /// let e = plan.explain(Figure::ModelStates, &report).unwrap();
    /// assert_eq!(e.formula, "states = 2·Ψ/D + g·Ψ/D + 12·Ψ/D; D = d·c; Ψ = P/(t·p)");
    /// assert_eq!(e.result, report.memory.model_states.get());
    /// assert_eq!(e.shown, "55.6 GB");
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn explain(&self, figure: Figure, report: &Report) -> Option<Explanation> {
        let bytes = |v: Bytes| (v.get(), Unit::Bytes, v.to_string());
        let seconds = |v: crate::Seconds| (v.get(), Unit::Seconds, v.to_string());
        let ratio = |r: f64| (r, Unit::Ratio, Show::Percent.write(r));
        let count = |c: f64| (c, Unit::Count, Show::Count.write(c));
        let stage = self.headline_stage(report);
        let row = |dim: Dim| report.comm.iter().find(|t| t.dim == dim);
        let e = report.estimate;
        let kernels = Kernels::of(self.config());
        let alpha_beta = if kernels.is_some() {
            NCCL_ALPHA_BETA_SOURCE
        } else {
            ALPHA_BETA_SOURCE
        };
        // The estimate uses the plan's own links (Plan::traffic), whatever card is selected.
        let own = || self.comm_times(&self.traffic());
        let (name, worked, (result, unit, shown), source): (&str, Worked, _, &'static str) =
            match figure {
                Figure::ModelStates => (
                    "states",
                    match stage {
                        None => self.states_total(),
                        Some(i) => self.stage_states(i),
                    },
                    bytes(report.memory.model_states),
                    ZERO_SOURCE,
                ),
                Figure::Activations => (
                    "activations",
                    match stage {
                        None => self.busiest_activations(self.held_even(), self.routing_excess()),
                        Some(i) => self.stage_activations(i),
                    },
                    bytes(report.memory.activations),
                    ACTIVATION_SOURCE,
                ),
                Figure::Runtime => {
                    let m = report.memory;
                    (
                        "runtime",
                        self.runtime_formula(allocated(&m)),
                        bytes(m.runtime?.total),
                        crate::runtime_memory::SOURCE,
                    )
                }
                Figure::Total => {
                    let m = report.memory;
                    let held = allocated(&m);
                    (
                        "total",
                        match m.runtime {
                            Some(_) => held.clone() + self.runtime_formula(held),
                            None => held,
                        },
                        bytes(m.total),
                        "SPEC §4, §24",
                    )
                }
                Figure::Dp => {
                    let d = self.degrees();
                    (
                        "d",
                        data_parallel_degree(self.gpus(), d.tp, d.pp, d.cp),
                        count(f64::from(report.dp)),
                        "SPEC §2",
                    )
                }
                Figure::Traffic(dim) => (
                    dim.as_str(),
                    self.traffic_bytes(dim)?,
                    bytes(row(dim)?.bytes),
                    TRAFFIC_SOURCE,
                ),
                Figure::TrafficTime(dim) => {
                    let row = row(dim)?;
                    (
                        "time",
                        self.link_seconds(row.bytes, row.link),
                        seconds(row.seconds),
                        "SPEC §1, §5",
                    )
                }
                Figure::BubbleRatio => (
                    "bubble",
                    self.bubble_ratio(),
                    ratio(report.bubble.ratio),
                    BUBBLE_SOURCE,
                ),
                Figure::BubbleShare => (
                    "share",
                    crate::bubble::share(Worked::var("bubble", report.bubble.ratio, Show::Count)),
                    ratio(report.bubble.share),
                    BUBBLE_SOURCE,
                ),
                Figure::TokensPerStep => ("T", self.tokens(), count(e.tokens_per_step), "SPEC §12"),
                Figure::Compute => (
                    "compute",
                    self.compute(),
                    seconds(e.compute_s),
                    kernels.map_or(ESTIMATE_SOURCE, |k| k.source()),
                ),
                Figure::KernelGemm | Figure::KernelAttention | Figure::KernelMemory => {
                    let k = kernels?;
                    let split = e.kernels?;
                    let times = self.kernel_times::<Worked>(&k);
                    let (name, time, value) = match figure {
                        Figure::KernelGemm => ("GEMMs", times.gemm, split.gemm_s),
                        Figure::KernelAttention => {
                            ("attention", times.attention, split.attention_s)
                        }
                        _ => ("memory-bound", times.memory, split.memory_bound_s),
                    };
                    let m = crate::formula::count_of::<Worked>("m", self.micro_batches());
                    (name, m * time, seconds(value), k.source())
                }
                Figure::Optimizer => {
                    let k = kernels?;
                    (
                        "optimizer",
                        self.optimizer_time(&k),
                        seconds(e.kernels?.optimizer_s),
                        OPTIMIZER_SOURCE,
                    )
                }
                Figure::StepTime => (
                    "step",
                    self.step(&own(), e.compute_s.get()),
                    seconds(e.step_s),
                    ESTIMATE_SOURCE,
                ),
                Figure::Throughput => (
                    "tokens/s per card",
                    self.throughput(e.step_s.get()),
                    (
                        e.tokens_per_s_per_gpu,
                        Unit::TokensPerSecond,
                        thousands(e.tokens_per_s_per_gpu.round()),
                    ),
                    ESTIMATE_SOURCE,
                ),
                Figure::CommTime(dim) => {
                    let traffic = self.traffic();
                    let row = traffic.iter().find(|t| t.dim == dim)?;
                    let time = self.comm_times(core::slice::from_ref(row))[0].seconds;
                    (
                        dim.as_str(),
                        self.comm_seconds(row),
                        seconds(time),
                        alpha_beta,
                    )
                }
                Figure::Latency => (
                    "latency",
                    self.latency(&own(), e.compute_s.get()),
                    seconds(e.latency_s),
                    alpha_beta,
                ),
                Figure::Roofline => (
                    "roofline",
                    self.roofline(),
                    (
                        e.roofline_factor,
                        Unit::Count,
                        Show::Count.write(e.roofline_factor),
                    ),
                    if kernels.is_some() {
                        SLOWDOWN_SOURCE
                    } else {
                        ROOFLINE_SOURCE
                    },
                ),
                Figure::Mfu => ("MFU", self.mfu(e.step_s.get()), ratio(e.mfu), MFU_SOURCE),
                Figure::HostPerGpu => (
                    "host per card",
                    self.host_per_gpu(stage),
                    bytes(report.memory.host?.per_gpu),
                    OFFLOAD_SOURCE,
                ),
                Figure::HostPerNode => (
                    "host per node",
                    self.host_node(),
                    bytes(report.memory.host?.per_node),
                    OFFLOAD_SOURCE,
                ),
                Figure::RolloutWeights => (
                    "rollout weights",
                    self.rollout_weights(&self.rollout_engines_spec()?),
                    bytes(report.rollout?.weights),
                    ROLLOUT_SOURCE,
                ),
                Figure::RolloutKv => (
                    "KV cache",
                    self.rollout_kv(&self.rollout_engines_spec()?),
                    bytes(report.rollout?.kv_cache),
                    ROLLOUT_SOURCE,
                ),
                Figure::RolloutTotal => (
                    "rollout total",
                    self.rollout_total(&self.rollout_engines_spec()?),
                    bytes(report.rollout?.total),
                    ROLLOUT_SOURCE,
                ),
                Figure::RolloutPeak => (
                    "peak",
                    self.rollout_peak(
                        &self.rollout_engines_spec()?,
                        Worked::var("training total", report.memory.total.get(), Show::Bytes),
                    ),
                    bytes(report.rollout?.peak),
                    ROLLOUT_SOURCE,
                ),
                Figure::RoutingExcess => (
                    "routing excess",
                    self.routing_excess(),
                    bytes(report.routing?.excess),
                    ROUTING_SOURCE,
                ),
                Figure::RoutingWait => (
                    "routing wait",
                    (self.busiest_rank::<Worked>() - Worked::lit(1.0))
                        * self.routed_expert_seconds::<Worked>()?,
                    seconds(report.routing?.added_s),
                    ROUTING_SOURCE,
                ),
            };
        Some(Explanation {
            figure: figure.id(),
            formula: in_symbols(name, &worked),
            substituted: worked_out(name, &worked, &shown),
            result,
            unit,
            shown,
            source,
            worked: worked.value(),
        })
    }

    /// Every figure of the report explained, in page order.
    pub fn explain_all(&self, report: &Report) -> Vec<Explanation> {
        let mut figures = vec![
            Figure::Dp,
            Figure::ModelStates,
            Figure::Activations,
            Figure::Runtime,
            Figure::Total,
            Figure::HostPerGpu,
            Figure::HostPerNode,
            Figure::RolloutWeights,
            Figure::RolloutKv,
            Figure::RolloutTotal,
            Figure::RolloutPeak,
        ];
        // Uneven routing's two figures, where routing is uneven (SPEC §20).
        if self.uneven() {
            figures.extend([Figure::RoutingExcess, Figure::RoutingWait]);
        }
        for row in &report.comm {
            figures.push(Figure::Traffic(row.dim));
            figures.push(Figure::TrafficTime(row.dim));
        }
        figures.extend([
            Figure::BubbleRatio,
            Figure::BubbleShare,
            Figure::TokensPerStep,
            Figure::Roofline,
            Figure::Compute,
            Figure::KernelGemm,
            Figure::KernelAttention,
            Figure::KernelMemory,
            Figure::Optimizer,
        ]);
        figures.extend(self.traffic().iter().map(|row| Figure::CommTime(row.dim)));
        figures.extend([
            Figure::Latency,
            Figure::StepTime,
            Figure::Throughput,
            Figure::Mfu,
        ]);
        figures
            .into_iter()
            .filter_map(|f| self.explain(f, report))
            .collect()
    }

    /// The stage the headline memory is: 0 with the even split, the busiest with "stages".
    fn headline_stage(&self, report: &Report) -> Option<u32> {
        match self.config().accounting {
            Accounting::Even => None,
            Accounting::Stages => Some(
                report
                    .busiest_stage
                    .unwrap_or_else(|| busiest(&report.by_stage)),
            ),
        }
    }
}
