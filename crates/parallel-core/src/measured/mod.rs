//! Measured on a real card (SPEC §18, issue 35): the H200's single-card figures beside the
//! lab's for the same shapes: six layer times (eager, and compiled where measured), three
//! steps (eager, compiled, and full recompute where measured) and the activation bytes of a
//! layer (eager, compiled, full recompute), each with lab ÷ measured and what explains the
//! rest.
//!
//! The measured numbers are copied from their files ([`data`]); the lab's come from the same
//! code as every other plan ([`Plan::layer_kernels`], [`Plan::estimate`],
//! [`Plan::activation_per_layer`]) on a one-card plan of the same shape on the `h200` preset.

pub mod data;

use serde::Serialize;

use crate::config::{PlanConfig, Recompute};
use crate::error::PlanError;
use crate::explain::Unit;
use crate::hardware::Hardware;
use crate::lang::Lang;
use crate::model::{InlineModel, ModelChoice};
use crate::plan::Plan;

use data::{Held, Shape, ACTIVATIONS, LAYERS, STEPS, STEP_VOCAB};

/// Where the measurements come from, as the tables cite them.
pub const SOURCE: &str = "one H200 SXM, PyTorch 2.11.0 + CUDA 13.0, 2026-12-04";

/// Which figure a row compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// One layer's forward + backward, eager PyTorch.
    LayerEager,
    /// One layer's forward + backward, `torch.compile`.
    LayerCompiled,
    /// A whole step, eager.
    StepEager,
    /// A whole step, `torch.compile`.
    StepCompiled,
    /// A whole step with every layer checkpointed.
    StepRecompute,
    /// A layer's activation bytes, eager.
    ActivationEager,
    /// A layer's activation bytes, `torch.compile`.
    ActivationCompiled,
    /// A layer's activation bytes under full recompute.
    ActivationRecompute,
}

impl Measure {
    /// The figure in a few words (Chinese, English).
    fn words(self) -> (&'static str, &'static str) {
        match self {
            Measure::LayerEager => ("单层前向+反向（eager）", "layer fwd+bwd (eager)"),
            Measure::LayerCompiled => ("单层前向+反向（compile）", "layer fwd+bwd (compiled)"),
            Measure::StepEager => ("整步（eager）", "step (eager)"),
            Measure::StepCompiled => ("整步（compile）", "step (compiled)"),
            Measure::StepRecompute => ("整步（全量重计算）", "step (full recompute)"),
            Measure::ActivationEager => ("每层激活（eager）", "activations per layer (eager)"),
            Measure::ActivationCompiled => {
                ("每层激活（compile）", "activations per layer (compiled)")
            }
            Measure::ActivationRecompute => (
                "每层激活（全量重计算）",
                "activations per layer (full recompute)",
            ),
        }
    }

    /// What explains the rest of the ratio (Chinese, English).
    pub(crate) fn note(self) -> (&'static str, &'static str) {
        match self {
            Measure::LayerEager => (
                "eager 的 RMSNorm、RoPE、SiLU 各拆成多个未融合的小内核（RMSNorm 先升到 FP32，\
                 只跑到几百 GB/s），实验室按融合后每个张量读写一次、以拷贝带宽计。",
                "Eager PyTorch runs RMSNorm, rotary and SiLU as several unfused kernels each \
                 (RMSNorm upcasts to FP32 and reaches a few hundred GB/s); the lab counts them \
                 fused, each tensor read and written once at the copy bandwidth.",
            ),
            Measure::LayerCompiled => (
                "compile 把访存型内核融合成实验室假设的样子；剩下的差距来自表里每个 GEMM 单独计时\
                 （含一次启动开销），而层内的 GEMM 首尾相接。",
                "torch.compile fuses the memory-bound kernels as the lab assumes; what remains is \
                 that the table times each GEMM alone, launch included, while a layer runs them \
                 back to back.",
            ),
            Measure::StepEager => (
                "除层内的未融合内核外，实测还含嵌入层的反向和 bf16 的 fused AdamW（每参数读写 \
                 14 字节，实验室按 Megatron 的 FP32 主权重计 30 字节）。",
                "Besides the layers' unfused kernels, the measured step has the embedding's \
                 backward, and a bf16 fused AdamW (14 bytes per parameter, where the lab counts \
                 Megatron's FP32 master weights at 30).",
            ),
            Measure::StepCompiled => (
                "compile 后的模型接近融合后的栈；实验室的输出头与损失按 GEMM 表和拷贝带宽计。",
                "The compiled model is the nearer stand-in for a fused stack; the lab's output \
                 head and loss are costed from the GEMM table and the copy bandwidth.",
            ),
            Measure::StepRecompute => (
                "实验室把重算的注意力前向按前向+反向的速率计，而单独的前向更快；\
                 所以实验室的重计算比实测多几个百分点。",
                "The lab costs the recomputed attention forward at the forward + backward rate, \
                 while a forward alone runs faster, so the lab's recompute costs a few points \
                 more than measured.",
            ),
            Measure::ActivationEager => (
                "eager 多存了 RMSNorm 的 FP32 升格和 RoPE 的临时张量；实验室按 Megatron 融合内核\
                 （Korthikanti 等，flash 注意力不存分数）计 34·s·b·h。",
                "Eager PyTorch also keeps RMSNorm's FP32 upcasts and rotary temporaries; the lab \
                 counts Megatron's fused kernels (Korthikanti et al., no scores kept with flash \
                 attention), 34·s·b·h.",
            ),
            Measure::ActivationCompiled => (
                "compile 融合后存下的与实验室的 34·s·b·h 相近；余下是 Llama 的层（SwiGLU、无 dropout）\
                 与 Korthikanti 等计数的 GPT 层之差。",
                "Compiled, the layer keeps close to the lab's 34·s·b·h; the rest is the difference \
                 between Llama's layer (SwiGLU, no dropout) and the GPT layer Korthikanti et al. \
                 counted.",
            ),
            Measure::ActivationRecompute => (
                "全量重计算只存每层的输入 2·s·b·h，与实验室一致。",
                "Full recompute keeps each layer's input, 2·s·b·h, as the lab counts.",
            ),
        }
    }
}

/// One measured figure beside the lab's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeasuredRow {
    /// Stable id, e.g. `"layer-llama3-8b-2048-compiled"`.
    pub id: String,
    /// Which figure.
    pub measure: Measure,
    /// The row in a few words, in the chosen language.
    pub label: String,
    /// The one-card plan the lab evaluates.
    pub config: PlanConfig,
    /// Seconds or bytes.
    pub unit: Unit,
    /// The measured figure (seconds or bytes).
    pub measured: f64,
    /// The lab's figure.
    pub lab: f64,
    /// lab ÷ measured.
    pub ratio: f64,
    /// For a layer: its GEMMs plus its attention timed alone, the measured floor (seconds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub floor: Option<f64>,
    /// What explains the rest, in the chosen language.
    pub note: &'static str,
}

/// A one-card plan of `layers` layers of `shape` on the H200 at `seq` tokens, `batch`
/// sequences a step.
fn one_card(shape: Shape, layers: u32, seq: u32, batch: u32, recompute: Recompute) -> PlanConfig {
    let model = ModelChoice::Inline(InlineModel {
        hidden: Some(shape.hidden),
        layers: Some(layers),
        heads: Some(shape.heads),
        kv_heads: Some(shape.kv_heads),
        ffn: Some(shape.ffn),
        vocab: Some(STEP_VOCAB),
        ..InlineModel::default()
    });
    PlanConfig {
        model,
        gpus: 1,
        gpus_per_node: 1,
        micro_batches: 1,
        micro_batch_size: batch,
        seq_len: seq,
        zero: 0,
        recompute,
        global_batch: None,
        ..PlanConfig::on(Hardware::H200)
    }
}

/// The shape's name as people write it.
fn shape_words(shape: Shape) -> &'static str {
    match shape.name {
        "llama3-8b" => "Llama 3 8B",
        "llama3-70b" => "Llama 3 70B",
        _ => "h 2,048",
    }
}

/// Every measured figure with the lab's beside it, in `lang`: layers, steps, activations.
///
/// ```
/// use parallel_core::{measured::{measured_rows, Measure}, Lang};
/// let rows = measured_rows(Lang::En)?;
/// assert_eq!(rows.iter().filter(|r| r.measure == Measure::LayerEager).count(), 6);
/// assert_eq!(rows.iter().filter(|r| r.measure == Measure::StepEager).count(), 3);
/// # Ok::<(), parallel_core::PlanError>(())
/// ```
pub fn measured_rows(lang: Lang) -> Result<Vec<MeasuredRow>, PlanError> {
    let pick = |(zh, en): (&'static str, &'static str)| lang.pick(zh, en);
    let mut rows = Vec::new();
    let mut push = |measure: Measure,
                    key: String,
                    what: String,
                    config: PlanConfig,
                    unit,
                    measured: f64,
                    lab: f64,
                    floor| {
        rows.push(MeasuredRow {
            id: key,
            measure,
            label: format!("{what}, {}", pick(measure.words())),
            config,
            unit,
            measured,
            lab,
            ratio: lab / measured,
            floor,
            note: pick(measure.note()),
        });
    };
    for layer in LAYERS {
        let config = one_card(layer.shape, 1, layer.seq, 1, Recompute::None);
        let lab = Plan::new(&config)?
            .layer_kernels()
            .map_or(f64::NAN, |l| l.total_s.get());
        let what = format!("{}, s {}", shape_words(layer.shape), thousands(layer.seq));
        let key = |mode: &str| format!("layer-{}-{}-{mode}", layer.shape.name, layer.seq);
        let floor = Some((layer.gemm_ms + layer.attn_ms) / 1e3);
        push(
            Measure::LayerEager,
            key("eager"),
            what.clone(),
            config.clone(),
            Unit::Seconds,
            layer.eager_ms / 1e3,
            lab,
            floor,
        );
        if let Some(compiled) = layer.compiled_ms {
            push(
                Measure::LayerCompiled,
                key("compiled"),
                what,
                config,
                Unit::Seconds,
                compiled / 1e3,
                lab,
                floor,
            );
        }
    }
    for step in STEPS {
        let config = one_card(
            step.shape,
            step.layers,
            step.seq,
            step.batch,
            Recompute::None,
        );
        let lab = Plan::new(&config)?.estimate().step_s.get();
        let what = format!(
            "{} × {}, s {}, b {}",
            shape_words(step.shape),
            step.layers,
            thousands(step.seq),
            step.batch
        );
        let key = |mode: &str| format!("step-{}-{}-{mode}", step.shape.name, step.layers);
        push(
            Measure::StepEager,
            key("eager"),
            what.clone(),
            config.clone(),
            Unit::Seconds,
            step.eager_ms / 1e3,
            lab,
            None,
        );
        push(
            Measure::StepCompiled,
            key("compiled"),
            what.clone(),
            config,
            Unit::Seconds,
            step.compiled_ms / 1e3,
            lab,
            None,
        );
        if let Some(recompute) = step.recompute_ms {
            let config = one_card(
                step.shape,
                step.layers,
                step.seq,
                step.batch,
                Recompute::Full,
            );
            let lab = Plan::new(&config)?.estimate().step_s.get();
            push(
                Measure::StepRecompute,
                key("recompute"),
                what,
                config,
                Unit::Seconds,
                recompute / 1e3,
                lab,
                None,
            );
        }
    }
    for act in ACTIVATIONS {
        let (measure, recompute, mode) = match act.held {
            Held::Eager => (Measure::ActivationEager, Recompute::Selective, "eager"),
            Held::Compiled => (
                Measure::ActivationCompiled,
                Recompute::Selective,
                "compiled",
            ),
            Held::FullRecompute => (Measure::ActivationRecompute, Recompute::Full, "recompute"),
        };
        let config = one_card(act.shape, 1, act.seq, 1, recompute);
        let lab = Plan::new(&config)?.activation_per_layer().0.get();
        let what = format!("{}, s {}", shape_words(act.shape), thousands(act.seq));
        let key = format!("activations-{}-{}-{mode}", act.shape.name, act.seq);
        push(
            measure,
            key,
            what,
            config,
            Unit::Bytes,
            act.bytes,
            lab,
            None,
        );
    }
    Ok(rows)
}

/// A whole number with thousands separators.
fn thousands(x: u32) -> String {
    crate::numbers::thousands(f64::from(x))
}
