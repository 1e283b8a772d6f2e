//! A measured file beside the lab's figures (SPEC §19): each figure predicted, measured eager
//! and compiled, their ratios, and what the lab does not count that explains the rest.

use serde::Serialize;

use crate::config::Recompute;
use crate::explain::Unit;
use crate::hardware::Hardware;
use crate::kernels::Kernels;
use crate::lang::Lang;
use crate::measured::Measure;
use crate::omissions::Omission;
use crate::plan::Plan;

use super::physical;
use super::problem::{problem, CheckError};
use super::read::{Figures, Measured};
use super::unbuilt::Unbuilt;
use super::workload::{Predicted, StageLayers, Workload};

/// Which figure a row compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    /// Forward + backward of one layer.
    LayerTime,
    /// Activation bytes of one layer, one micro-batch.
    ActivationPerLayer,
    /// Activation bytes of the built layers with their micro-batches in flight.
    ActivationInFlight,
    /// The built layers' model states.
    States,
    /// The allocator's peak over a step.
    Peak,
    /// The allocator's reserve at that peak.
    Reserved,
}

impl Figure {
    /// Every figure, in the order the table lists them.
    pub const ALL: [Figure; 6] = [
        Figure::LayerTime,
        Figure::ActivationPerLayer,
        Figure::ActivationInFlight,
        Figure::States,
        Figure::Peak,
        Figure::Reserved,
    ];

    /// The id used in JSON and the page's test ids.
    pub const fn id(self) -> &'static str {
        match self {
            Figure::LayerTime => "layer_time",
            Figure::ActivationPerLayer => "activation_per_layer",
            Figure::ActivationInFlight => "activation_in_flight",
            Figure::States => "states",
            Figure::Peak => "peak",
            Figure::Reserved => "reserved",
        }
    }

    /// The figure in a few words.
    pub fn label(self, lang: Lang) -> &'static str {
        let (zh, en) = match self {
            Figure::LayerTime => ("单层前向+反向", "layer forward + backward"),
            Figure::ActivationPerLayer => ("每层激活（一个微批）", "activations per layer"),
            Figure::ActivationInFlight => ("在途微批的激活", "activations in flight"),
            Figure::States => ("模型状态", "model states"),
            Figure::Peak => ("峰值（已分配）", "peak allocated"),
            Figure::Reserved => ("峰值（分配器保留）", "peak reserved"),
        };
        lang.pick(zh, en)
    }

    /// Seconds or bytes.
    pub const fn unit(self) -> Unit {
        match self {
            Figure::LayerTime => Unit::Seconds,
            _ => Unit::Bytes,
        }
    }

    /// This figure of one mode's measurements.
    fn of(self, f: &Figures) -> Option<f64> {
        match self {
            Figure::LayerTime => f.layer_fwd_bwd_s,
            Figure::ActivationPerLayer => f.activation_per_layer_bytes,
            Figure::ActivationInFlight => f.activation_in_flight_bytes,
            Figure::States => f.states_bytes,
            Figure::Peak => f.peak_bytes,
            Figure::Reserved => f.reserved_bytes,
        }
    }

    /// The lab's figure: the reserve is not counted, so the lab's peak stands beside it.
    fn predicted(self, p: &Predicted) -> Option<f64> {
        match self {
            Figure::LayerTime => p.layer_fwd_bwd_s,
            Figure::ActivationPerLayer => Some(p.activation_per_layer_bytes),
            Figure::ActivationInFlight => Some(p.activation_in_flight_bytes),
            Figure::States => Some(p.states_bytes),
            Figure::Peak | Figure::Reserved => Some(p.peak_bytes),
        }
    }
}

/// One figure: predicted, measured eager and compiled, and lab ÷ measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckRow {
    /// Which figure.
    pub figure: Figure,
    /// It in a few words, in the chosen language.
    pub label: &'static str,
    /// Seconds or bytes.
    pub unit: Unit,
    /// The lab's figure.
    pub predicted: Option<f64>,
    /// Measured, eager PyTorch.
    pub eager: Option<f64>,
    /// Measured, `torch.compile`.
    pub compiled: Option<f64>,
    /// predicted ÷ eager.
    pub ratio_eager: Option<f64>,
    /// predicted ÷ compiled.
    pub ratio_compiled: Option<f64>,
    /// What the lab does not count that explains the difference.
    pub note: String,
}

/// A measured file beside the lab.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// The card measured, as PyTorch names it.
    pub card: String,
    /// The preset the lab's time is predicted for: the measured card when the lab knows it,
    /// else the plan's.
    pub predicted_for: Hardware,
    /// Whether the lab has kernel rates for the measured card (else time is not compared).
    pub card_known: bool,
    /// "PyTorch 2.11.0+cu130, CUDA 13.0".
    pub software: String,
    /// When.
    pub date: String,
    /// How.
    pub method: String,
    /// The plan's card (rank) and its stage.
    pub rank: u32,
    /// Its pipeline stage.
    pub stage: u32,
    /// The layers built.
    pub built: StageLayers,
    /// The stage's layers.
    pub stage_layers: u32,
    /// Micro-batches held in flight.
    pub held: u32,
    /// Every figure.
    pub rows: Vec<CheckRow>,
    /// What was not built, each in a sentence.
    pub not_built: Vec<&'static str>,
    /// Why `torch.compile` did not run, when it did not.
    pub compiled_error: Option<String>,
}

/// The preset a PyTorch device name stands for ("NVIDIA H200", "NVIDIA H100 80GB HBM3",
/// "NVIDIA A100-SXM4-80GB", "AMD Instinct MI300X"); `None` for a card the lab has no preset of.
pub fn preset_of_device(name: &str) -> Option<Hardware> {
    let name = name.to_ascii_uppercase();
    [
        ("H200", Hardware::H200),
        ("H100", Hardware::H100),
        ("A100", Hardware::A100),
        ("B200", Hardware::B200),
        ("MI300X", Hardware::Mi300x),
    ]
    .into_iter()
    .find(|(key, _)| name.contains(key))
    .map(|(_, hw)| hw)
}

/// A figure as the comparison shows it: seconds as "12.9 ms"; bytes in GB from 1 GB up, in MB
/// (three figures) below, so a layer's few megabytes do not read "0.0 GB"; "–" when absent.
///
/// ```
/// use parallel_core::{check::show, explain::Unit};
/// assert_eq!(show(Unit::Bytes, Some(16_777_216.0)), "16.8 MB");
/// assert_eq!(show(Unit::Bytes, Some(864_584_704.0)), "865 MB");
/// assert_eq!(show(Unit::Bytes, Some(14.0e9)), "14.0 GB");
/// assert_eq!(show(Unit::Seconds, Some(0.0129)), "12.9 ms");
/// assert_eq!(show(Unit::Seconds, None), "–");
/// ```
pub fn show(unit: Unit, value: Option<f64>) -> String {
    match (unit, value) {
        (_, None) => "–".to_owned(),
        (Unit::Seconds, Some(s)) => crate::units::Seconds::new(s).to_string(),
        (_, Some(b)) if b >= 1e9 => crate::units::Bytes::new(b).to_string(),
        (_, Some(b)) => {
            let mb = b / 1e6;
            let decimals = if mb >= 100.0 {
                0
            } else if mb >= 10.0 {
                1
            } else {
                2
            };
            format!("{mb:.decimals$} MB")
        }
    }
}

/// A ratio as "0.66×"; "–" when absent.
pub fn show_ratio(value: Option<f64>) -> String {
    value.map_or_else(|| "–".to_owned(), |r| format!("{r:.2}×"))
}

fn ratio(predicted: Option<f64>, measured: Option<f64>) -> Option<f64> {
    match (predicted, measured) {
        (Some(p), Some(m)) if m > 0.0 => Some(p / m),
        _ => None,
    }
}

/// The note of a figure: the measured table's sentences for layers and activations, the
/// omissions list's for the allocator.
fn note(figure: Figure, lab: &Workload, lang: Lang, card: Option<&str>) -> String {
    let pick = |(zh, en): (&'static str, &'static str)| lang.pick(zh, en);
    let modes = |eager: Measure, compiled: Measure| {
        let (e, c) = (pick(eager.note()), pick(compiled.note()));
        lang.pick(&format!("{e}{c}"), &format!("{e} {c}"))
            .to_owned()
    };
    match figure {
        Figure::LayerTime => match card {
            Some(card) => pick((
                "实验室没有这张卡的内核速率，时间按计划的卡预测：这里只比内存。",
                "The lab has no kernel rates for this card, so the time is predicted for the \
                 plan's card: compare the memory here, not the time.",
            ))
            .replace("这张卡", card)
            .replace("this card", card),
            None => modes(Measure::LayerEager, Measure::LayerCompiled),
        },
        Figure::ActivationPerLayer | Figure::ActivationInFlight => {
            let mut text = activation_note(lab, lang);
            if lab.not_built.contains(&Unbuilt::SequenceParallel) {
                text = format!("{} {text}", Unbuilt::SequenceParallel.text(lang));
            }
            text
        }
        Figure::States => pick((
            "程序按实验室的账本持有状态：BF16 权重 2、梯度 g、Adam 的 FP32 主权重与两个矩 12（每参数字节）；\
             余下是分配器按块取整，以及 TP 时复制的 KV 头与各卡完整的 RMSNorm 权重。",
            "The program holds the states by the lab's ledger: BF16 weights 2, gradients g, \
             Adam's FP32 master weights and two moments 12 (bytes a parameter); the rest is the \
             allocator's rounding to blocks, and under TP the replicated KV heads and each \
             card's whole RMSNorm weights.",
        ))
        .to_owned(),
        Figure::Peak => format!(
            "{} {}",
            pick((
                "峰值出现在反向或优化器更新的中途，含实验室不计的临时张量。",
                "The peak falls inside the backward or the optimizer step, with temporaries the \
                 lab does not count.",
            )),
            Omission::Buffers.reason(lang)
        ),
        Figure::Reserved => format!(
            "{} {}",
            pick((
                "保留的还包括缓存分配器留着未用的块；实验室的峰值不计这些。",
                "The reserve also holds the caching allocator's unused blocks; the lab's peak \
                 counts none of them.",
            )),
            Omission::Buffers.reason(lang)
        ),
    }
}

/// The activation rows' note: the measured table's sentences for the recompute mode, with
/// the experts' activations the lab's constants leave out, and the scores flash attention
/// never stores.
fn activation_note(lab: &Workload, lang: Lang) -> String {
    let pick = |(zh, en): (&'static str, &'static str)| lang.pick(zh, en);
    if lab.recompute == Recompute::Full {
        return pick(Measure::ActivationRecompute.note()).to_owned();
    }
    let (e, c) = (
        pick(Measure::ActivationEager.note()),
        pick(Measure::ActivationCompiled.note()),
    );
    let mut text = lang
        .pick(&format!("{e}{c}"), &format!("{e} {c}"))
        .to_owned();
    if lab.layer.experts.is_some() {
        text.push(' ');
        text.push_str(&Omission::ActivationConstants.reason(lang));
    }
    if lab.recompute == Recompute::None {
        text.push(' ');
        text.push_str(pick((
            "不重计算时实验室还计入注意力分数 5·a·s'·s·b/t，而 flash 注意力不存分数。",
            "With nothing recomputed the lab also counts attention scores, 5·a·s'·s·b/t, \
             which flash attention never stores.",
        )));
    }
    text
}

impl Measured {
    /// This measurement beside the lab's figures for the same layers (SPEC §19). The time is
    /// predicted for the measured card when the lab knows it ([`preset_of_device`]), from the
    /// plan in the file, so a file made by another version of the lab compares with this
    /// one's figures.
    pub fn compare(&self, lang: Lang) -> Result<Comparison, CheckError> {
        let w = &self.workload;
        let card_preset = preset_of_device(&self.card.name);
        let config = match card_preset {
            Some(hw) => w.config.clone().use_card(hw),
            None => w.config.clone(),
        };
        let card_known = card_preset.is_some_and(|_| Kernels::of(&config).is_some());
        let plan = Plan::new(&config)
            .map_err(|e| problem("workload.config", e.to_string(), e.to_string()))?;
        let lab = plan
            .workload(w.card)
            .map_err(|e| problem("workload.card", e.to_string(), e.to_string()))?;
        let mut predicted = lab.predicted_for(self.built.total, self.held);
        let states = predicted.states_bytes;
        for (mode, f) in [
            ("eager", Some(&self.eager)),
            ("compiled", self.compiled.as_ref()),
        ] {
            let Some(f) = f else { continue };
            physical::holds_states(&format!("{mode}.peak_bytes"), f.peak_bytes, states)?;
            physical::holds_states(&format!("{mode}.reserved_bytes"), f.reserved_bytes, states)?;
        }
        if !card_known {
            predicted.layer_fwd_bwd_s = w.per_layer.fwd_bwd_s;
        }
        let unknown = (!card_known).then_some(self.card.name.as_str());
        let rows = Figure::ALL
            .into_iter()
            .map(|figure| {
                let p = figure.predicted(&predicted);
                let eager = figure.of(&self.eager);
                let compiled = self.compiled.as_ref().and_then(|c| figure.of(c));
                CheckRow {
                    figure,
                    label: figure.label(lang),
                    unit: figure.unit(),
                    predicted: p,
                    eager,
                    compiled,
                    ratio_eager: ratio(p, eager),
                    ratio_compiled: ratio(p, compiled),
                    note: note(figure, &lab, lang, unknown),
                }
            })
            .collect();
        Ok(Comparison {
            card: self.card.name.clone(),
            predicted_for: config.hardware,
            card_known,
            software: format!("PyTorch {}, CUDA {}", self.torch, self.cuda),
            date: self.date.clone(),
            method: self.method.clone(),
            rank: w.card,
            stage: w.coords.pp,
            built: self.built,
            stage_layers: w.layers.total,
            held: self.held,
            rows,
            not_built: lab.not_built.iter().map(|u| u.text(lang)).collect(),
            compiled_error: self.compiled_error.clone(),
        })
    }
}
