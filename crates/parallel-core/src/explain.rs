//! Why a figure is what it is: for each computed figure of a plan, its formula in symbols,
//! the same formula with this plan's values, the result with its unit, and the source.
//!
//! [`Plan::explain`] builds an explanation from the same intermediate quantities the report
//! uses (the ZeRO ledger's shard Ψ and group D, the per-layer activation bytes, the traffic
//! terms) and takes its `result` from the report itself, so the number on screen and the
//! number in its explanation are one number. A test over random plans checks that the
//! substituted terms multiply out to that result.

use core::fmt::Write as _;

use serde::Serialize;

use crate::config::{Accounting, Recompute, Schedule};
use crate::estimate::{blocking_and_hidden, BACKWARD_SHARE, FULL_RECOMPUTE_FACTOR};
use crate::grid::Dim;
use crate::numbers::thousands;
use crate::plan::Plan;
use crate::report::Report;
use crate::stages::busiest;
use crate::units::{Bytes, Seconds};

/// A figure the page shows and can explain. Its [`Figure::id`] is the figure's test id on the
/// page (`explain-<id>` is its button).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Figure {
    /// Model states of the busiest card.
    ModelStates,
    /// Activations of the busiest card.
    Activations,
    /// Model states + activations.
    Total,
    /// Data-parallel degree d.
    Dp,
    /// Bytes one card sends per step for a dimension.
    Traffic(Dim),
    /// Seconds of that traffic at its link's bandwidth.
    TrafficTime(Dim),
    /// Bubble ratio (p−1)/(v·m).
    BubbleRatio,
    /// The bubble's share of the step.
    BubbleShare,
    /// Tokens per step T.
    TokensPerStep,
    /// Estimated step time.
    StepTime,
    /// Estimated compute time.
    Compute,
    /// Estimated tokens per second per card.
    Throughput,
}

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
    /// The value the substituted terms multiply out to (equal to `result`; checked by tests).
    #[serde(skip)]
    pub worked: f64,
}

impl Figure {
    /// The figure's id, its test id on the page: `mem-states`, `traffic-tp`,
    /// `traffic-tp-time`, `bubble`, `estimate-step`, …
    pub fn id(&self) -> String {
        match self {
            Figure::ModelStates => "mem-states".into(),
            Figure::Activations => "mem-activations".into(),
            Figure::Total => "mem-total".into(),
            Figure::Dp => "derived-dp".into(),
            Figure::Traffic(dim) => format!("traffic-{}", dim.as_str()),
            Figure::TrafficTime(dim) => format!("traffic-{}-time", dim.as_str()),
            Figure::BubbleRatio => "bubble".into(),
            Figure::BubbleShare => "bubble-share".into(),
            Figure::TokensPerStep => "estimate-tokens".into(),
            Figure::StepTime => "estimate-step".into(),
            Figure::Compute => "estimate-compute".into(),
            Figure::Throughput => "estimate-throughput".into(),
        }
    }

    /// The figure of an id, if it is one.
    pub fn from_id(id: &str) -> Option<Figure> {
        const DIMS: [Dim; 6] = [Dim::Tp, Dim::Cp, Dim::Ep, Dim::Pp, Dim::Dp, Dim::Edp];
        let fixed = [
            Figure::ModelStates,
            Figure::Activations,
            Figure::Total,
            Figure::Dp,
            Figure::BubbleRatio,
            Figure::BubbleShare,
            Figure::TokensPerStep,
            Figure::StepTime,
            Figure::Compute,
            Figure::Throughput,
        ];
        fixed
            .into_iter()
            .chain(DIMS.into_iter().map(Figure::Traffic))
            .chain(DIMS.into_iter().map(Figure::TrafficTime))
            .find(|f| f.id() == id)
    }
}

/// A number as the explanations write it: whole numbers with separators, others with four
/// significant digits.
fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        thousands(x)
    } else if x.abs() >= 1000.0 {
        thousands(x.round())
    } else {
        let digits = (3 - x.abs().log10().floor() as i32).clamp(0, 8) as usize;
        format!("{x:.digits$}")
    }
}

/// Bytes as the explanations write them: GB (SPEC §1), or MB below 0.1 GB so that a layer's
/// few megabytes do not read "0.0 GB".
fn small_bytes(b: Bytes) -> String {
    if b.get().abs() < 1e8 {
        format!("{:.1} MB", b.get() / 1e6)
    } else {
        b.to_string()
    }
}

fn zero_formula(zero: u8, psi: &str, group: &str) -> String {
    match zero {
        0 => format!("(2 + g + 12)·{psi}"),
        1 => format!("(2 + g)·{psi} + 12·{psi}/{group}"),
        2 => format!("2·{psi} + (g + 12)·{psi}/{group}"),
        _ => format!("(2 + g + 12)·{psi}/{group}"),
    }
}

/// The ledger of §4 worked for a shard `psi` over `group`: (text, bytes).
fn ledger_worked(zero: u8, g: f64, psi: f64, group: f64) -> (String, f64) {
    let (p, d, gs) = (num(psi), num(group), num(g));
    match zero {
        0 => (format!("(2 + {gs} + 12)·{p}"), (14.0 + g) * psi),
        1 => (
            format!("(2 + {gs})·{p} + 12·{p}/{d}"),
            (2.0 + g) * psi + 12.0 * psi / group,
        ),
        2 => (
            format!("2·{p} + ({gs} + 12)·{p}/{d}"),
            2.0 * psi + (g + 12.0) * psi / group,
        ),
        _ => (format!("(2 + {gs} + 12)·{p}/{d}"), (14.0 + g) * psi / group),
    }
}

const ZERO_SOURCE: &str = "ZeRO (Rajbhandari et al. 2019) §5; SPEC §4";
const ACTIVATION_SOURCE: &str =
    "Korthikanti et al. 2022 (sequence parallelism, selective recompute); SPEC §4, §11";
const TRAFFIC_SOURCE: &str =
    "ring collectives; Megatron-LM (Shoeybi 2019) for TP, ring attention for CP, GShard for EP, ZeRO for DP; SPEC §5";
const BUBBLE_SOURCE: &str = "Narayanan et al. 2021 §2.2; SPEC §6";
const ESTIMATE_SOURCE: &str =
    "Kaplan et al. 2020 (6 FLOPs per parameter and token), Narayanan et al. 2021 §5.1; SPEC §12 (an estimate)";

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
    /// assert_eq!(e.formula, "Ψ = P/(t·p), D = d·c; states = (2 + g + 12)·Ψ/D");
    /// assert_eq!(e.result, report.memory.model_states.get());
    /// assert_eq!(e.shown, "55.6 GB");
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn explain(&self, figure: Figure, report: &Report) -> Option<Explanation> {
        let bytes = |v: Bytes| (v.get(), Unit::Bytes, v.to_string());
        let (formula, substituted, worked, (result, unit, shown), source) = match figure {
            Figure::ModelStates => {
                let (f, s, w) = self.explain_states(report);
                (f, s, w, bytes(report.memory.model_states), ZERO_SOURCE)
            }
            Figure::Activations => {
                let (f, s, w) = self.explain_activations(report);
                (f, s, w, bytes(report.memory.activations), ACTIVATION_SOURCE)
            }
            Figure::Total => {
                let m = report.memory;
                (
                    "total = model states + activations ≤ capacity".to_string(),
                    format!(
                        "{} + {} = {} (capacity {})",
                        m.model_states, m.activations, m.total, m.capacity
                    ),
                    m.model_states.get() + m.activations.get(),
                    bytes(m.total),
                    "SPEC §4",
                )
            }
            Figure::Dp => {
                let d = self.degrees();
                let dp =
                    f64::from(self.gpus()) / (f64::from(d.tp) * f64::from(d.pp) * f64::from(d.cp));
                (
                    "d = N/(t·p·c)".to_string(),
                    format!(
                        "{}/({}·{}·{}) = {}",
                        self.gpus(),
                        d.tp,
                        d.pp,
                        d.cp,
                        report.dp
                    ),
                    dp,
                    (f64::from(report.dp), Unit::Count, report.dp.to_string()),
                    "SPEC §3",
                )
            }
            Figure::Traffic(dim) => {
                let row = report.comm.iter().find(|t| t.dim == dim)?;
                let (f, s, w) = self.explain_traffic(dim)?;
                (f, s, w, bytes(row.bytes), TRAFFIC_SOURCE)
            }
            Figure::TrafficTime(dim) => {
                let row = report.comm.iter().find(|t| t.dim == dim)?;
                let bandwidth = self.bandwidth(row.link);
                (
                    "time = bytes/bandwidth of the link".to_string(),
                    format!(
                        "{}/{} ({}) = {}",
                        row.bytes,
                        bandwidth,
                        row.link.short_name(),
                        row.seconds
                    ),
                    row.bytes.get() / bandwidth.get(),
                    (row.seconds.get(), Unit::Seconds, row.seconds.to_string()),
                    "SPEC §1, §5",
                )
            }
            Figure::BubbleRatio => {
                let (p, m, v) = self.bubble_terms();
                let r = report.bubble.ratio;
                (
                    "bubble = (p − 1)/(v·m)".to_string(),
                    format!("({p} − 1)/({v}·{m}) = {}", crate::numbers::percent(r)),
                    f64::from(p.saturating_sub(1)) / (f64::from(v) * f64::from(m)),
                    (r, Unit::Ratio, crate::numbers::percent(r)),
                    BUBBLE_SOURCE,
                )
            }
            Figure::BubbleShare => {
                let r = report.bubble.ratio;
                let share = report.bubble.share;
                (
                    "share = bubble/(1 + bubble)".to_string(),
                    format!(
                        "{}/(1 + {}) = {}",
                        num(r),
                        num(r),
                        crate::numbers::percent(share)
                    ),
                    r / (1.0 + r),
                    (share, Unit::Ratio, crate::numbers::percent(share)),
                    BUBBLE_SOURCE,
                )
            }
            Figure::TokensPerStep => {
                let d = self.degrees();
                let t = report.estimate.tokens_per_step;
                (
                    "T = d·m·b·s".to_string(),
                    format!(
                        "{}·{}·{}·{} = {}",
                        d.dp,
                        self.micro_batches(),
                        self.micro_batch_size(),
                        num(f64::from(self.seq_len())),
                        num(t)
                    ),
                    f64::from(d.dp)
                        * f64::from(self.micro_batches())
                        * f64::from(self.micro_batch_size())
                        * f64::from(self.seq_len()),
                    (t, Unit::Count, num(t)),
                    "SPEC §12",
                )
            }
            Figure::Compute => {
                let (f, s, w) = self.explain_compute(report);
                let c = report.estimate.compute_s;
                (
                    f,
                    s,
                    w,
                    (c.get(), Unit::Seconds, c.to_string()),
                    ESTIMATE_SOURCE,
                )
            }
            Figure::StepTime => {
                let (f, s, w) = self.explain_step(report);
                let step = report.estimate.step_s;
                (
                    f,
                    s,
                    w,
                    (step.get(), Unit::Seconds, step.to_string()),
                    ESTIMATE_SOURCE,
                )
            }
            Figure::Throughput => {
                let e = report.estimate;
                let n = f64::from(self.gpus());
                (
                    "tokens/s per card = T/(step·N)".to_string(),
                    format!(
                        "{}/({}·{}) = {}",
                        num(e.tokens_per_step),
                        e.step_s,
                        self.gpus(),
                        num(e.tokens_per_s_per_gpu)
                    ),
                    e.tokens_per_step / (e.step_s.get() * n),
                    (
                        e.tokens_per_s_per_gpu,
                        Unit::TokensPerSecond,
                        thousands(e.tokens_per_s_per_gpu.round()),
                    ),
                    ESTIMATE_SOURCE,
                )
            }
        };
        Some(Explanation {
            figure: figure.id(),
            formula,
            substituted,
            result,
            unit,
            shown,
            source,
            worked,
        })
    }

    /// Every figure of the report explained, in page order.
    pub fn explain_all(&self, report: &Report) -> Vec<Explanation> {
        let mut figures = vec![
            Figure::Dp,
            Figure::ModelStates,
            Figure::Activations,
            Figure::Total,
        ];
        for row in &report.comm {
            figures.push(Figure::Traffic(row.dim));
            figures.push(Figure::TrafficTime(row.dim));
        }
        figures.extend([
            Figure::BubbleRatio,
            Figure::BubbleShare,
            Figure::TokensPerStep,
            Figure::Compute,
            Figure::StepTime,
            Figure::Throughput,
        ]);
        figures
            .into_iter()
            .filter_map(|f| self.explain(f, report))
            .collect()
    }

    /// (p, m, v) of the bubble: v counts only when interleaved.
    fn bubble_terms(&self) -> (u32, u32, u32) {
        let v = match self.schedule() {
            Schedule::Interleaved => self.virtual_stages(),
            Schedule::Gpipe | Schedule::OneFOneB => 1,
        };
        (self.degrees().pp, self.micro_batches(), v)
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

    fn explain_states(&self, report: &Report) -> (String, String, f64) {
        let d = self.degrees();
        let g = self.precision().grad_bytes();
        let zero = self.zero();
        let group = f64::from(d.weight_group());
        let edp = f64::from(d.expert_dp.unwrap_or(1));
        let moe = self.model().routed_params() > 0.0;
        let (psi, expert_psi, psi_formula, expert_formula) = match self.headline_stage(report) {
            None => {
                let routed = self.model().routed_params();
                let t_p = f64::from(d.tp) * f64::from(d.pp);
                (
                    (self.model().params - routed) / t_p,
                    routed / (f64::from(d.ep) * f64::from(d.pp)),
                    if moe {
                        "Ψ = (P − P_routed)/(t·p)"
                    } else {
                        "Ψ = P/(t·p)"
                    },
                    "Ψ_e = P_routed/(e·p)",
                )
            }
            Some(stage) => {
                let (psi, expert_psi) = self.stage_shards(stage);
                (
                    psi,
                    expert_psi,
                    "Ψ = Ψ_i, stage i's shard (embedding, head, L_i layers)/t",
                    "Ψ_e = Ψ_e,i = (L_i/L)·P_routed/e",
                )
            }
        };
        let mut formula = format!(
            "{psi_formula}, D = d·c; states = {}",
            zero_formula(zero, "Ψ", "D")
        );
        let (dense_text, dense) = ledger_worked(zero, g, psi, group);
        let mut substituted = format!(
            "g = {}, Ψ = {}, D = {}: {dense_text}",
            num(g),
            num(psi),
            num(group)
        );
        let mut worked = dense;
        if moe {
            let (expert_text, experts) = ledger_worked(zero, g, expert_psi, edp);
            let _ = write!(
                formula,
                " + {} ({expert_formula}, E = N/(e·p))",
                zero_formula(zero, "Ψ_e", "E")
            );
            let _ = write!(
                substituted,
                " + [Ψ_e = {}, E = {}: {expert_text}]",
                num(expert_psi),
                num(edp)
            );
            worked += experts;
        }
        if let Some(stage) = self.headline_stage(report) {
            let _ = write!(substituted, " (stage {stage})");
        }
        let _ = write!(substituted, " = {}", Bytes::new(worked));
        (formula, substituted, worked)
    }

    fn explain_activations(&self, report: &Report) -> (String, String, f64) {
        let d = self.degrees();
        let model = self.model();
        let s_local = f64::from(self.seq_len()) / f64::from(d.cp);
        let b = f64::from(self.micro_batch_size());
        let (k, score_text) = match self.recompute() {
            Recompute::Full => (2.0, ""),
            Recompute::Selective => (34.0, ""),
            Recompute::None => (34.0, " + 5·a·s'·s·b/t per full-attention layer"),
        };
        let (per_layer, scores) = self.activation_per_layer();
        let (layers, full_attention, in_flight, logits, stage_note) =
            match self.headline_stage(report) {
                None => (
                    f64::from(model.layers) / f64::from(d.pp),
                    f64::from(model.full_attention_layers) / f64::from(d.pp),
                    self.micro_batches_in_flight(),
                    0.0,
                    String::new(),
                ),
                Some(stage) => {
                    let layers = f64::from(self.stage_layers(stage));
                    let share = layers / f64::from(model.layers);
                    let logits = if stage == d.pp - 1 {
                        self.stage_logits().get()
                    } else {
                        0.0
                    };
                    (
                        layers,
                        f64::from(model.full_attention_layers) * share,
                        self.stage_in_flight(stage),
                        logits,
                        format!(" (stage {stage})"),
                    )
                }
            };
        let formula = format!(
            "per layer = {k}·s'·b·h/t{score_text}, s' = s/c; activations = per layer × layers on the stage × micro-batches in flight{}",
            if logits > 0.0 { " + FP32 logits 4·s'·b·V/t" } else { "" }
        );
        let worked =
            (per_layer.get() * layers + scores.get() * full_attention) * in_flight + logits;
        let mut substituted = format!(
            "{k}·{}·{}·{}/{} = {} per layer × {} layers",
            num(s_local),
            num(b),
            num(f64::from(model.hidden)),
            d.tp,
            small_bytes(per_layer),
            num(layers)
        );
        if scores.get() > 0.0 {
            let _ = write!(
                substituted,
                " + {} × {} full-attention layers",
                scores,
                num(full_attention)
            );
        }
        let _ = write!(substituted, ", × {} in flight", num(in_flight));
        if logits > 0.0 {
            let _ = write!(substituted, " + {}", small_bytes(Bytes::new(logits)));
        }
        let _ = write!(substituted, "{stage_note} = {}", Bytes::new(worked));
        (formula, substituted, worked)
    }

    fn explain_traffic(&self, dim: Dim) -> Option<(String, String, f64)> {
        let d = self.degrees();
        let model = self.model();
        let (t, p, c) = (f64::from(d.tp), f64::from(d.pp), f64::from(d.cp));
        let m = f64::from(self.micro_batches());
        let s = f64::from(self.seq_len());
        let b = f64::from(self.micro_batch_size());
        let x = self.activation_tensor().get();
        let ring = |k: f64| (k - 1.0) / k;
        let g = self.precision().grad_bytes();
        Some(match dim {
            Dim::Tp => {
                let layers = f64::from(model.layers) / p;
                let w = x * m * layers * 4.0 * 2.0 * ring(t);
                (
                    "m·(L/p)·4·2·((t−1)/t)·x, x = 2·s'·b·h".to_string(),
                    format!(
                        "{}·{}·4·2·({}/{})·{} = {}",
                        num(m),
                        num(layers),
                        d.tp - 1,
                        d.tp,
                        Bytes::new(x),
                        Bytes::new(w)
                    ),
                    w,
                )
            }
            Dim::Cp => {
                let full = f64::from(model.full_attention_layers) / p;
                let kv_local = (f64::from(model.kv_heads) / t).max(1.0);
                let kv = 2.0 * kv_local * f64::from(model.head_dim) * s * b * 2.0;
                let w = m * full * ring(c) * kv;
                (
                    "m·(F/p)·((c−1)/c)·2·kv_local·head_dim·s·b·2, kv_local = max(kv_heads/t, 1)"
                        .to_string(),
                    format!(
                        "{}·{}·({}/{})·2·{}·{}·{}·{}·2 = {}",
                        num(m),
                        num(full),
                        d.cp - 1,
                        d.cp,
                        num(kv_local),
                        model.head_dim,
                        num(s),
                        num(b),
                        Bytes::new(w)
                    ),
                    w,
                )
            }
            Dim::Ep => {
                let moe = model.moe?;
                let e = f64::from(d.ep);
                let tokens = s * b / (c * t);
                let w = m
                    * (f64::from(moe.moe_layers) / p)
                    * 4.0
                    * ring(e)
                    * tokens
                    * f64::from(moe.top_k)
                    * f64::from(model.hidden)
                    * 2.0;
                (
                    "m·(MoE layers/p)·4·((e−1)/e)·(s·b/(c·t))·top_k·h·2".to_string(),
                    format!(
                        "{}·{}·4·({}/{})·{}·{}·{}·2 = {}",
                        num(m),
                        num(f64::from(moe.moe_layers) / p),
                        d.ep - 1,
                        d.ep,
                        num(tokens),
                        moe.top_k,
                        model.hidden,
                        Bytes::new(w)
                    ),
                    w,
                )
            }
            Dim::Pp => {
                let (_, _, v) = self.bubble_terms();
                let w = x * m * 2.0 * f64::from(v);
                (
                    "m·2·x (× v when interleaved), x = 2·s'·b·h".to_string(),
                    format!(
                        "{}·2·{}·{} = {}",
                        num(m),
                        small_bytes(Bytes::new(x)),
                        v,
                        Bytes::new(w)
                    ),
                    w,
                )
            }
            Dim::Dp | Dim::Edp => {
                let (psi, group, name) = if dim == Dim::Dp {
                    (
                        (model.params - model.routed_params()) / (t * p),
                        f64::from(d.weight_group()),
                        "Ψ over D = d·c",
                    )
                } else {
                    (
                        model.routed_params() / (f64::from(d.ep) * p),
                        f64::from(d.expert_dp.unwrap_or(1)),
                        "Ψ_e over E = N/(e·p)",
                    )
                };
                let (per_param, text) = match self.zero() {
                    0 => (2.0 * g, "2·g"),
                    1 | 2 => (g + 2.0, "(g + 2)"),
                    _ => (4.0 + g, "(4 + g)"),
                };
                let w = ring(group) * per_param * psi;
                (
                    format!("((D−1)/D)·{text}·Ψ, {name} (ZeRO-{})", self.zero()),
                    format!(
                        "({}/{})·{}·{} = {}",
                        num(group - 1.0),
                        num(group),
                        num(per_param),
                        num(psi),
                        Bytes::new(w)
                    ),
                    w,
                )
            }
        })
    }

    fn explain_compute(&self, report: &Report) -> (String, String, f64) {
        let model = self.model();
        let e = report.estimate;
        let recompute = if self.recompute() == Recompute::Full {
            FULL_RECOMPUTE_FACTOR
        } else {
            1.0
        };
        let tflops = self.config().gpu_tflops;
        let attention = 6.0
            * f64::from(model.full_attention_layers)
            * f64::from(model.heads)
            * f64::from(model.head_dim)
            * f64::from(self.seq_len());
        let flops = (6.0 * model.active_params() + attention) * e.tokens_per_step * recompute;
        let worked = flops / (f64::from(self.gpus()) * tflops * 1e12);
        (
            "compute = (6·P_act + 6·F·a·head_dim·s)·T (× 4/3 with full recompute) / (N·TFLOP/s·10¹²)".to_string(),
            format!(
                "(6·{} + 6·{}·{}·{}·{})·{}{} / ({}·{}·10¹²) = {}",
                num(model.active_params()),
                model.full_attention_layers,
                model.heads,
                model.head_dim,
                num(f64::from(self.seq_len())),
                num(e.tokens_per_step),
                if recompute > 1.0 { "·4/3" } else { "" },
                self.gpus(),
                num(tflops),
                Seconds::new(worked)
            ),
            worked,
        )
    }

    fn explain_step(&self, report: &Report) -> (String, String, f64) {
        let e = report.estimate;
        // The estimate uses the plan's own links (Plan::traffic), whatever card is selected.
        let (blocking, hidden) = blocking_and_hidden(&self.traffic());
        let compute = e.compute_s.get();
        let exposed = blocking + (hidden - BACKWARD_SHARE * compute).max(0.0);
        let bubble = compute * report.bubble.ratio;
        let worked = compute + bubble + exposed;
        (
            "step = compute·(1 + bubble) + tp + cp + ep + pp + max(0, dp + edp − (2/3)·compute)"
                .to_string(),
            format!(
                "{}·(1 + {}) + {} + max(0, {} − (2/3)·{}) = {}",
                Seconds::new(compute),
                num(report.bubble.ratio),
                Seconds::new(blocking),
                Seconds::new(hidden),
                Seconds::new(compute),
                Seconds::new(worked)
            ),
            worked,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ModelChoice, PlanConfig, Preset};
    use proptest::prelude::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    fn check(config: &PlanConfig) {
        let Ok(plan) = Plan::new(config) else { return };
        let report = plan.report();
        for e in plan.explain_all(&report) {
            assert!(
                close(e.worked, e.result),
                "{}: worked {} vs {} ({})",
                e.figure,
                e.worked,
                e.result,
                e.substituted
            );
            assert!(!e.formula.is_empty() && !e.substituted.is_empty() && !e.shown.is_empty());
            assert_eq!(
                Figure::from_id(&e.figure).map(|f| f.id()),
                Some(e.figure.clone())
            );
        }
    }

    #[test]
    fn the_lesson_s_figures_explain_themselves() {
        let plan = Plan::new(&PlanConfig::lesson_8_gpus()).unwrap();
        let report = plan.report();
        let dp = plan.explain(Figure::Traffic(Dim::Dp), &report).unwrap();
        assert_eq!(dp.shown, "145.9 GB");
        assert!(
            dp.substituted
                .starts_with("(7/8)·6·27,781,427,952 = 145.9 GB"),
            "{}",
            dp.substituted
        );
        let states = plan.explain(Figure::ModelStates, &report).unwrap();
        assert_eq!(
            states.substituted,
            "g = 2, Ψ = 27,781,427,952, D = 8: (2 + 2 + 12)·27,781,427,952/8 = 55.6 GB"
        );
        assert!(
            plan.explain(Figure::Traffic(Dim::Tp), &report).is_none(),
            "no TP traffic with t = 1"
        );
        check(&PlanConfig::lesson_64_gpus());
        check(&PlanConfig {
            accounting: Accounting::Stages,
            ..PlanConfig::lesson_64_gpus()
        });
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        /// Every explanation's terms multiply out to the figure the report shows.
        #[test]
        fn explanations_work_out_to_the_report(
            preset in prop::sample::select(Preset::ALL.to_vec()),
            n_exp in 3u32..8,
            (t, p, c, e) in (0u32..4, 0u32..4, 0u32..3, 0u32..4),
            m in 1u32..40,
            b in 1u32..3,
            s_exp in 10u32..16,
            zero in 0u8..4,
            recompute in prop::sample::select(vec![Recompute::None, Recompute::Selective, Recompute::Full]),
            schedule in prop::sample::select(vec![Schedule::Gpipe, Schedule::OneFOneB, Schedule::Interleaved]),
            stages in any::<bool>(),
        ) {
            check(&PlanConfig {
                model: ModelChoice::Preset(preset),
                gpus: 1 << n_exp,
                tp: 1 << t,
                pp: 1 << p,
                cp: 1 << c,
                ep: 1 << e,
                micro_batches: m,
                micro_batch_size: b,
                seq_len: 1 << s_exp,
                zero,
                recompute,
                schedule,
                virtual_stages: if schedule == Schedule::Interleaved { 2 } else { 1 },
                accounting: if stages { Accounting::Stages } else { Accounting::Even },
                ..PlanConfig::default()
            });
        }
    }
}
