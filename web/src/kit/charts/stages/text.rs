//! The sentences of the stage chart: its legend, bar names, caption and capacity line, and
//! its summary and note.

use crate::kit::text::{text_table, Text};

text_table! {
    /// The lower part of each bar, in the legend.
    pub(super) const STATES: Text = Text {
        zh: "模型状态",
        en: "model states",
    };
    /// The upper part of each bar, in the legend.
    pub(super) const ACTIVATIONS: Text = Text {
        zh: "激活",
        en: "activations",
    };
    /// The top of each bar when the runtime terms are counted, in the legend.
    pub(super) const RUNTIME: Text = Text {
        zh: "运行时",
        en: "runtime",
    };
    /// A bar's name under it.
    pub(super) const STAGE: Text = Text {
        zh: "第 {stage} 段",
        en: "stage {stage}",
    };
    /// The x axis, when the bars are too narrow for their names and carry numbers only.
    pub(super) const STAGE_AXIS: Text = Text {
        zh: "流水线段（编号）",
        en: "pipeline stage",
    };
    /// The caption above the chart.
    pub(super) const CAPTION: Text = Text {
        zh: "最大 ÷ 最小 = {imbalance}，最忙的是第 {busiest} 段",
        en: "max ÷ min = {imbalance}, busiest: stage {busiest}",
    };
    /// The capacity line's label.
    pub(super) const CAPACITY: Text = Text {
        zh: "单卡显存 {capacity}",
        en: "card capacity {capacity}",
    };
    /// One bar of the summary.
    pub(super) const BAR: Text = Text {
        zh: "第 {stage} 段 {total}（模型状态 {states} + 激活 {activations}）",
        en: "stage {stage} {total} (model states {states} + activations {activations})",
    };
    /// The chart in one sentence (`aria-label`); `bars` lists the bars above.
    pub(super) const SUMMARY: Text = Text {
        zh: "各流水线段的每卡显存：{bars}；单卡显存 {capacity}；最大 ÷ 最小 = {imbalance}，\
             最忙的是第 {busiest} 段。",
        en: "Memory per card by pipeline stage: {bars}. Card capacity {capacity}; max ÷ min = \
             {imbalance}, busiest: stage {busiest}.",
    };
    /// The chart in one sentence when it has too many stages to list.
    pub(super) const SUMMARY_MANY: Text = Text {
        zh: "{count} 个流水线段的每卡显存：最忙的是第 {busiest} 段，{total}（模型状态 {states} \
             + 激活 {activations}）；单卡显存 {capacity}；最大 ÷ 最小 = {imbalance}。",
        en: "Memory per card over {count} pipeline stages: the busiest is stage {busiest}, \
             {total} (model states {states} + activations {activations}). Card capacity \
             {capacity}; max ÷ min = {imbalance}.",
    };
    /// The note shown instead of the chart when p = 1 (and its summary).
    pub(super) const ONE_STAGE: Text = Text {
        zh: "PP = 1：只有一个流水线段，每张卡的显存都一样：{total}（模型状态 {states} + 激活 \
             {activations}），单卡显存 {capacity}。",
        en: "PP = 1: there is one pipeline stage only, so every card holds the same memory: \
             {total} (model states {states} + activations {activations}), card capacity \
             {capacity}.",
    };
    /// Under the chart while the headline uses the lesson's even split: why the two differ.
    pub(super) const AGAINST_EVEN: Text = Text {
        zh: "这张图按段记：每段记它自己的层和它同时在途的 micro-batch，嵌入层的参数在第一段，输出层的参数和一个 micro-batch 的 FP32 logits 在最后一段。旁边的总数用的是课上的均分记法（每张卡 P/p 个参数、L/p 层，按第一段的在途数，不记 logits），所以两边的数不一样；在“显存怎么记”里选“按段计”，总数就是这里最忙的一段。",
        en: "This chart counts stage by stage: each stage its own layers and its micro-batches in flight, the embedding's parameters on the first stage, the output head's and one micro-batch's FP32 logits on the last. The total beside it uses the lesson's even split (P/p parameters and L/p layers a card, the first stage's in-flight count, no logits), so the two differ; pick \"by stage\" under memory accounting and the total becomes the busiest stage here.",
    };
    /// Under the chart while the headline counts by stage too.
    pub(super) const AS_HEADLINE: Text = Text {
        zh: "按段记：每段记它自己的层和它同时在途的 micro-batch，嵌入层的参数在第一段，输出层的参数和一个 micro-batch 的 FP32 logits 在最后一段；旁边的总数就是最忙的那一段。",
        en: "Stage by stage: each stage its own layers and its micro-batches in flight, the embedding's parameters on the first stage, the output head's and one micro-batch's FP32 logits on the last; the total beside it is the busiest stage.",
    };
    /// A series without stages (the core never gives one).
    pub(super) const NOTHING: Text = Text {
        zh: "没有可画的流水线段。",
        en: "No pipeline stage to draw.",
    };
}
