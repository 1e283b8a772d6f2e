//! The words of seed 003's questions and of the lab's answers, in both languages, with the
//! names the answers fill in.

use crate::kit::text::Text;

pub(super) const DP_ASK: Text = Text {
    zh: "数据并行能减少单卡显存吗？",
    en: "Does data parallelism reduce the memory of one card?",
};
pub(super) const DP_ANSWER: Text = Text {
    zh: "不能。DP 8、ZeRO-0 时每卡模型状态是 {states}：每张卡都存一整份权重、梯度和 Adam 状态，和单卡训练一样。DP 换来的是吞吐；要省显存得靠切分，同样 8 张卡换成 ZeRO-3 就降到 {zero3}。",
    en: "No. With DP 8 and ZeRO-0 each card holds {states} of model states: a whole copy of weights, gradients and Adam states, as on a single card. DP buys throughput; memory needs sharding: the same 8 cards with ZeRO-3 hold {zero3}.",
};
pub(super) const TP_ASK: Text = Text {
    zh: "张量并行怎样切权重？TP 8 时每卡还剩多少？",
    en: "How does tensor parallelism split the weights? What is left per card at TP 8?",
};
pub(super) const TP_ANSWER: Text = Text {
    zh: "TP 把每层的矩阵按列、按行切成 8 份，每卡只存 1/8：模型状态从单卡的 {one} 变成 {states}。代价是每层都要 all-reduce 激活，每卡每步 {tp}，只能放在 NVLink 里。",
    en: "TP cuts every layer's matrices by columns and rows into 8 pieces and each card keeps 1/8: model states go from {one} on one card to {states}. The price is an all-reduce of activations in every layer, {tp} per card per step, which only NVLink carries.",
};
pub(super) const PP_ASK: Text = Text {
    zh: "流水线并行为什么能省显存？它切的是什么？",
    en: "Why does pipeline parallelism save memory? What does it split?",
};
pub(super) const PP_ANSWER: Text = Text {
    zh: "PP 切的是层数：8 段流水线每段 L/8 层，模型状态是 {states}，和 TP 8 一样落在 1/8 上。但它只在切点传激活：每卡每步 {pp}，而 TP 8 要传 {tp}。",
    en: "PP splits the depth: 8 stages of L/8 layers each, model states {states}, the same 1/8 as TP 8. But it only passes activations at the cuts: {pp} per card per step, where TP 8 sends {tp}.",
};
pub(super) const SCHEDULE_ASK: Text = Text {
    zh: "1F1B 调度比 GPipe 省显存在哪里？",
    en: "Where does the 1F1B schedule save memory over GPipe?",
};
pub(super) const SCHEDULE_ANSWER: Text = Text {
    zh: "看激活：1F1B 下第一段最多同时存 min(m, p) = {in_flight} 个 micro-batch 的激活，是 {activations}；换成 GPipe 要存全部 m = {m} 个，是 {gpipe}。气泡两者一样，都是 {bubble}。",
    en: "Look at activations: under 1F1B the first stage keeps at most min(m, p) = {in_flight} micro-batches, {activations}; GPipe keeps all m = {m}, {gpipe}. The bubble is the same, {bubble}.",
};
pub(super) const SP_ASK: Text = Text {
    zh: "序列并行主要省哪部分显存？和谁一起用？",
    en: "Which memory does sequence parallelism save, and with what is it used?",
};
pub(super) const SP_ANSWER: Text = Text {
    zh: "省的是激活。本页把 TP 与序列并行一起算：LayerNorm、Dropout 这些按序列切开，每层激活整体除以 t。TP 8 时激活是 {activations}，TP 1 时是 {one}。",
    en: "Activations. The lab counts TP together with sequence parallelism: LayerNorm and dropout are split along the sequence too, so every layer's activations divide by t. At TP 8 activations are {activations}; at TP 1 they are {one}.",
};
pub(super) const STAGES_ASK: Text = Text {
    zh: "用 PP 时各卡的显存一样吗？",
    en: "With PP, does every card hold the same memory?",
};
pub(super) const STAGES_ANSWER: Text = Text {
    zh: "不一样。按段计时最忙的是第 {stage} 段，合计 {total}；最轻的段 {least}，最重 ÷ 最轻 = {ratio}。第一段存最多在途的 micro-batch，最后一段多了输出头和 logits；调整办法是给首尾段少分几层。",
    en: "No. Stage by stage the busiest is stage {stage} with {total}; the lightest holds {least}, a ratio of {ratio}. The first stage keeps the most micro-batches in flight and the last adds the output head and the logits; the fix is fewer layers on the end stages.",
};
pub(super) const TIGHT_ASK: Text = Text {
    zh: "为什么用了 TP 和 PP，单卡显存还是紧？",
    en: "Why is a card still tight after TP and PP?",
};
pub(super) const TIGHT_ANSWER: Text = Text {
    zh: "因为激活随序列变长：32K 序列、选择性重计算下，TP 8 × PP 2 每卡模型状态只有 {states}，激活却有 {activations}，合计 {total}。TP、PP 切开了参数，激活还要靠重计算或 CP。",
    en: "Because activations grow with the sequence: at 32K tokens with selective recompute, TP 8 × PP 2 leaves only {states} of model states per card, but {activations} of activations, {total} in all. TP and PP split the parameters; activations need recomputation or CP.",
};
pub(super) const MICRO_ASK: Text = Text {
    zh: "micro-batch 对显存有什么影响？",
    en: "How do micro-batches affect memory?",
};
pub(super) const MICRO_ANSWER: Text = Text {
    zh: "1F1B 下 micro-batch 的个数 m 不改变激活：m = 32 时仍是 {activations}，气泡却降到 {bubble}。每个 micro-batch 的序列数 b 才放大激活：b = 2 时是 {b2}。",
    en: "Under 1F1B the number of micro-batches m does not change activations: at m = 32 they are still {activations}, while the bubble falls to {bubble}. The sequences per micro-batch b do scale them: {b2} at b = 2.",
};
pub(super) const ZERO3_ASK: Text = Text {
    zh: "用了 ZeRO-3 还需要 TP 吗？",
    en: "With ZeRO-3, is TP still needed?",
};
pub(super) const ZERO3_ANSWER: Text = Text {
    zh: "ZeRO-3 只切模型状态，不切激活。64 卡 TP 8 × DP 8 + ZeRO-3 时每卡激活 {activations}；只用 ZeRO-3（DP 64）模型状态更小，但激活是 {zero3_activations}，每卡每步还要传 {zero3_dp}。TP 切激活，ZeRO 切状态，两者互补。",
    en: "ZeRO-3 shards model states, not activations. On 64 cards TP 8 × DP 8 with ZeRO-3 leaves {activations} of activations per card; ZeRO-3 alone (DP 64) has smaller states but {zero3_activations} of activations and sends {zero3_dp} per card per step. TP splits activations, ZeRO splits states: they complement each other.",
};
pub(super) const BUBBLE_ASK: Text = Text {
    zh: "流水线气泡对显存有影响吗？",
    en: "Does the pipeline bubble affect memory?",
};
pub(super) const BUBBLE_ANSWER: Text = Text {
    zh: "气泡是空等的时间，不占显存：PP 8、m = 8 时气泡是 {bubble}，激活 {activations}。把 m 加到 32，气泡降到 {bubble32}，1F1B 下激活不变（{activations32}）。",
    en: "The bubble is idle time, not memory: at PP 8 and m = 8 the bubble is {bubble} with {activations} of activations. Raise m to 32 and the bubble falls to {bubble32} while 1F1B keeps activations at {activations32}.",
};
pub(super) const CHOOSE_ASK: Text = Text {
    zh: "给定模型和硬件，怎样选并行度？",
    en: "How do you choose the parallel degrees for a model and a cluster?",
};
pub(super) const CHOOSE_ANSWER: Text = Text {
    zh: "先让它放得下，再让它快：TP 放在节点内（≤ 8），PP 跨节点，DP 吃掉剩下的卡，ZeRO 和重计算补显存。这套 TP {tp} × PP {pp} × DP {dp}、ZeRO-{zero} 合计 {total}，估算每步 {step}；下面的搜索把所有方案排了序。",
    en: "First make it fit, then make it fast: TP inside a node (≤ 8), PP across nodes, DP takes the remaining cards, ZeRO and recomputation make up memory. This plan, TP {tp} × PP {pp} × DP {dp} with ZeRO-{zero}, holds {total} and takes an estimated {step} a step; the search below ranks every plan.",
};

pub(super) const INFERENCE_ASK: Text = Text {
    zh: "并行策略对推理时显存的优化与训练时有何不同？",
    en: "How does parallelism save memory at inference, compared with training?",
};
pub(super) const INFERENCE_ANSWER: Text = Text {
    zh: "训练时每卡：模型状态 {states}（BF16 权重、梯度、FP32 主权重和 Adam 的两个矩，ZeRO-{zero} 切成 {dp} 份）+ 激活 {activations} = {train}。推理时同一个模型、同样 {gpus} 张卡（每个引擎 {engine} 张卡）：没有梯度和优化器，BF16 权重每卡只要 {weights}；可 {seqs} 条各 {tokens} token 的序列的 KV cache 每卡要 {kv}，合计 {total}{verdict}。训练靠切分状态（ZeRO、TP、PP）和重计算省显存；推理的大头是 KV cache，要管的是 KV 精度、并发、回复长度和引擎卡数。",
    en: "Training, per card: model states {states} (BF16 weights, gradients, FP32 master weights and Adam's two moments, ZeRO-{zero} split {dp} ways) + activations {activations} = {train}. Inference with the same model on the same {gpus} cards ({engine} cards an engine): no gradients, no optimizer, so the BF16 weights take only {weights} a card; but the KV cache of {seqs} sequences of {tokens} tokens takes {kv} a card, {total} in all{verdict}. Training saves memory by splitting states (ZeRO, TP, PP) and by recomputing; at inference the KV cache dominates, and what helps is its precision, the concurrency, the response length and the cards per engine.",
};
pub(super) const INFERENCE_FITS: Text = Text {
    zh: "，放得下",
    en: ", which fits",
};
pub(super) const INFERENCE_OVER: Text = Text {
    zh: "，超过一张卡的 {capacity}",
    en: ", over a card's {capacity}",
};

#[cfg(test)]
pub(super) const ALL: &[&Text] = &[
    &DP_ASK,
    &DP_ANSWER,
    &TP_ASK,
    &TP_ANSWER,
    &PP_ASK,
    &PP_ANSWER,
    &SCHEDULE_ASK,
    &SCHEDULE_ANSWER,
    &SP_ASK,
    &SP_ANSWER,
    &STAGES_ASK,
    &STAGES_ANSWER,
    &TIGHT_ASK,
    &TIGHT_ANSWER,
    &MICRO_ASK,
    &MICRO_ANSWER,
    &ZERO3_ASK,
    &ZERO3_ANSWER,
    &BUBBLE_ASK,
    &BUBBLE_ANSWER,
    &CHOOSE_ASK,
    &CHOOSE_ANSWER,
    &INFERENCE_ASK,
    &INFERENCE_ANSWER,
    &INFERENCE_FITS,
    &INFERENCE_OVER,
];
