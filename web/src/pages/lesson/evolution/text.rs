//! The evolution map's sentences, Chinese and English side by side (see `crate::kit::text`).

use crate::kit::text::Text;

/// One generation in both languages.
pub struct GenerationText {
    /// Stable id (test hook `evolution-<key>`).
    pub key: &'static str,
    /// When, and the paper or system it is known by.
    pub era: Text,
    /// Its name.
    pub title: Text,
    /// What it solved.
    pub solved: Text,
    /// Where it got stuck.
    pub stuck: Text,
}

/// One card: where the previous chapter ended.
pub const SINGLE: GenerationText = GenerationText {
    key: "single",
    era: Text {
        zh: "起点 · 上一章的结论",
        en: "Starting point · where the previous chapter ended",
    },
    title: Text {
        zh: "一张卡",
        en: "One card",
    },
    solved: Text {
        zh: "一步训练的所有计算和数据都在一张卡里，卡与卡之间无需交换任何东西。",
        en: "Everything a training step needs sits on one card; nothing has to be \
             communicated.",
    },
    stuck: Text {
        zh: "锚点的模型状态 16 字节 × 参数量 = {states}，相当于 {times} 张 {card} 的卡。\
             即使装得下，速度也远远不够：DeepSeek-V3 报告里预训练花了 {hours} H800 GPU 小时，\
             只用一张卡得跑大约 {years} 年。",
        en: "The anchor's model states, 16 bytes × parameters = {states}, are {times} \
             times the {card} a card holds. Even if they fit it would be far too slow: \
             DeepSeek-V3's report puts its pre-training at {hours} H800 GPU hours, roughly \
             {years} years on a single card.",
    },
};
/// Data parallelism with ring all-reduce.
pub const RING: GenerationText = GenerationText {
    key: "ring",
    era: Text {
        zh: "第一代 · ring 源自高性能计算（2009），2017–2018 年进入深度学习",
        en: "Generation 1 · the ring comes from HPC (2009), deep learning adopted it in \
             2017–2018",
    },
    title: Text {
        zh: "数据并行 + ring all-reduce",
        en: "Data parallelism + ring all-reduce",
    },
    solved: Text {
        zh: "每张卡各持一份完整模型、各处理 1/N 的数据，每步结束时把梯度求和。用 ring 求和，\
             每张卡收发的量只有梯度的约 2(N−1)/N 倍：锚点 8 卡每卡 {ring8}，64 卡 {ring64}；\
             若全部汇总到 0 号卡，那一张卡要收 {naive8},64 卡时 {naive64}。",
        en: "Each card holds the whole model and computes on 1/N of the data; gradients \
             are summed every step. A ring makes each card send about 2(N−1)/N times the \
             gradients: for the anchor {ring8} per card on 8 cards, {ring64} on 64. \
             Gathering everything on card 0 instead would pour {naive8} into that one \
             card, {naive64} on 64 cards.",
    },
    stuck: Text {
        zh: "它治的只是「慢」：每张卡照样得装下全部 {states}。",
        en: "It only fixes speed: every card still has to hold all {states}.",
    },
};
/// Buckets: synchronising during backward.
pub const BUCKET: GenerationText = GenerationText {
    key: "bucket",
    era: Text {
        zh: "第一代 · 工程 · PyTorch DDP（Li et al. 2020）",
        en: "Generation 1 · engineering · PyTorch DDP (Li et al. 2020)",
    },
    title: Text {
        zh: "分桶：边反向边同步",
        en: "Buckets: synchronise during backward",
    },
    solved: Text {
        zh: "反向是一层一层产出梯度的；攒满一个桶（PyTorch 默认 25 MiB）就先发出去，\
             让通信藏进后面几层的反向计算里。",
        en: "Backward produces gradients layer by layer; as soon as a bucket fills (25 MiB \
             by PyTorch's default) it is sent, so communication hides behind the backward \
             pass of the remaining layers.",
    },
    stuck: Text {
        zh: "DP 每步的通信量是固定的：锚点 8 卡每卡 {ring8}，按 IB {ib} GB/s 要 {ib_time}；\
             而每卡 4,096 个 token 的反向按我们的估算只要约 {backward}（按 4 × 参数量 × \
             token 数 FLOPs、有效算力 {tflops} TFLOPS 推算）。token 太少，通信就藏不住。",
        en: "DP's traffic per step is fixed: {ring8} per card on 8 cards for the anchor, \
             {ib_time} over IB at {ib} GB/s, while the backward pass of 4,096 tokens per \
             card takes only about {backward} by our estimate (4 × parameters × tokens \
             FLOPs at an effective {tflops} TFLOPS). With too few tokens the communication \
             cannot hide.",
    },
};
/// ZeRO and FSDP.
pub const ZERO: GenerationText = GenerationText {
    key: "zero",
    era: Text {
        zh: "第二代 · ZeRO（Rajbhandari et al. 2019）· PyTorch FSDP（2023）",
        en: "Generation 2 · ZeRO (Rajbhandari et al. 2019) · PyTorch FSDP (2023)",
    },
    title: Text {
        zh: "ZeRO-1 / 2 / 3 · FSDP",
        en: "ZeRO-1 / 2 / 3 · FSDP",
    },
    solved: Text {
        zh: "不再每卡存一整份：8 卡上依次切开优化器状态、梯度、参数，每卡模型状态 {chain}。",
        en: "Stop keeping a full copy on every card: on 8 cards, sharding optimizer states, \
             then gradients, then parameters takes the model states per card {chain}.",
    },
    stuck: Text {
        zh: "参数也切开之后，每步得额外把它们 all-gather 回来，通信量涨到普通 DP 的 {factor} \
             倍；激活也没被切：s = 4,096 时选择性重计算要 {sel_dp}，装不进剩下的 {room}。",
        en: "Sharding the parameters adds an all-gather every step, so traffic grows to \
             {factor} times plain DP's; activations are not sharded at all: selective \
             recompute at s = 4,096 needs {sel_dp}, more than the {room} that are left.",
    },
};
/// Tensor parallelism.
pub const TENSOR: GenerationText = GenerationText {
    key: "tensor",
    era: Text {
        zh: "第三代 · Megatron-LM（Shoeybi et al. 2019）",
        en: "Generation 3 · Megatron-LM (Shoeybi et al. 2019)",
    },
    title: Text {
        zh: "张量并行：在层内切矩阵",
        en: "Tensor parallelism: split the matrices inside a layer",
    },
    solved: Text {
        zh: "前一个矩阵沿列拆开、后一个沿行拆开，每个 MLP 只在末尾做一次 all-reduce；TP 8 \
             配上序列并行，激活从 {sel_dp} 降到 {sel_tp}。",
        en: "The first matrix is split by columns, the second by rows, and an MLP needs one \
             all-reduce; TP 8 with sequence parallelism takes activations from {sel_dp} down \
             to {sel_tp}.",
    },
    stuck: Text {
        zh: "每层前向同步 2 次、反向 2 次：每 4,096 个 token 每卡要发 {tp_bytes}，\
             每层都要等它，只能留在机内。ZeRO 论文测过跨两台 DGX-2 的张量并行：每卡约 5 \
             TFLOPS，不到峰值的 5%。",
        en: "Two synchronisations forward and two backward in every layer: each card sends \
             {tp_bytes} per 4,096 tokens and every layer waits for it, so TP stays inside a \
             machine. The ZeRO paper measured tensor parallelism across two DGX-2 nodes at \
             about 5 TFLOPS per GPU, under 5% of peak.",
    },
};
/// Pipeline parallelism.
pub const PIPELINE: GenerationText = GenerationText {
    key: "pipeline",
    era: Text {
        zh: "第四代 · 2018–2021",
        en: "Generation 4 · 2018–2021",
    },
    title: Text {
        zh: "流水线并行：GPipe → 1F1B → interleaved",
        en: "Pipeline parallelism: GPipe → 1F1B → interleaved",
    },
    solved: Text {
        zh: "按层分段，跨机传的只有段边界上的激活；一批数据拆成若干 micro-batch \
             依次流过各段；1F1B 让第一段同时挂着的激活从 m 份降到 p 份；interleaved \
             再把气泡缩小到 1/v。",
        en: "Split by layers so that only the activations between stages cross machines; \
             cut the batch into micro-batches to fill the pipeline; 1F1B keeps p \
             micro-batches in flight on the first stage instead of m; interleaving divides \
             the bubble by v.",
    },
    stuck: Text {
        zh: "流水线两端总有卡在空等：p = 8、m = 32 时气泡 (p−1)/m = {bubble}（占整步 \
             {share}）；interleaved v = 4 也还剩 {bubble_v4}。",
        en: "The ends of the pipeline must idle: with p = 8 and m = 32 the bubble (p−1)/m is \
             {bubble} ({share} of the step), and interleaved with v = 4 still leaves \
             {bubble_v4}.",
    },
};
/// Zero-bubble schedules and DualPipe.
pub const ZERO_BUBBLE: GenerationText = GenerationText {
    key: "zero-bubble",
    era: Text {
        zh: "2023–2024 · Zero Bubble（Qi et al. 2023）· DualPipe（DeepSeek-V3，2024）",
        en: "2023–2024 · Zero Bubble (Qi et al. 2023) · DualPipe (DeepSeek-V3, 2024)",
    },
    title: Text {
        zh: "零气泡调度 · DualPipe",
        en: "Zero-bubble schedules · DualPipe",
    },
    solved: Text {
        zh: "把反向拆成对输入求导 B 与对权重求导 W，拿 W 去填空泡：F = B = W 时 ZB-H1 \
             的气泡只有 1F1B 的 {zb}（本页的调度模拟器算出）；DualPipe 让 micro-batch \
             从流水线两端同时进入，一批在通信（all-to-all）时另一批在计算。",
        en: "Backward is split into B (gradients for the input) and W (gradients for the \
             weights), and W fills the idle slots: with F = B = W, ZB-H1's bubble is {zb} \
             of 1F1B's (counted by this page's schedule simulator). DualPipe feeds \
             micro-batches from both ends and hides the all-to-all behind another batch's \
             computation.",
    },
    stuck: Text {
        zh: "DualPipe 得多存一份参数，调度也难写得多；通信并没有变少，只是不再挡在计算前面。",
        en: "DualPipe keeps a second copy of the parameters and its schedule is harder; the \
             communication is hidden, not reduced.",
    },
};
/// Sequence and context parallelism.
pub const LONG_SEQUENCE: GenerationText = GenerationText {
    key: "long-sequence",
    era: Text {
        zh: "岔路 · 长序列 · 2021–2023：序列并行、Ring Attention、Ulysses",
        en: "Side road · long sequences · 2021–2023: sequence parallelism, Ring Attention, \
             Ulysses",
    },
    title: Text {
        zh: "序列并行 / 上下文并行",
        en: "Sequence / context parallelism",
    },
    solved: Text {
        zh: "128K 的序列沿长度切给多张卡；zigzag 把头尾两块配成一对，16 个 token、4 \
             张卡时因果负载从 {contiguous} 变成 {zigzag}。",
        en: "A 128K-token sequence is cut along its length across cards; zigzag pairs a \
             chunk from the head with one from the tail, so for 16 tokens on 4 cards the \
             causal load {contiguous} becomes {zigzag}.",
    },
    stuck: Text {
        zh: "每个全注意力层，卡与卡之间都要交换 K、V；以锚点在 8 卡上跑 s = 131,072 为例，\
             每层每卡发 {cp_layer}；Ulysses 改按头切，可锚点只有 {kv} 个 KV 头。",
        en: "Every full-attention layer exchanges K and V between cards: {cp_layer} per \
             layer per card for the anchor at s = 131,072 on 8 cards. Ulysses splits by \
             heads instead, but the anchor has only {kv} KV heads.",
    },
};
/// Expert parallelism.
pub const EXPERTS: GenerationText = GenerationText {
    key: "experts",
    era: Text {
        zh: "岔路 · MoE · GShard(2020)→ DeepSeek-V3(2024)",
        en: "Side road · MoE · GShard (2020) → DeepSeek-V3 (2024)",
    },
    title: Text {
        zh: "专家并行 + all-to-all",
        en: "Expert parallelism + all-to-all",
    },
    solved: Text {
        zh: "DeepSeek-V3 的 {routed} 路由专家参数分到 {ds_ep} 张卡，每卡每层 {per_card} \
             个专家；按其报告，每个 token 最多发往 4 个节点。",
        en: "DeepSeek-V3's {routed} routed expert parameters are spread over {ds_ep} \
             cards, {per_card} experts per card per layer; per its report, each token goes \
             to at most 4 nodes.",
    },
    stuck: Text {
        zh: "跨节点的 IB（每卡 {ib} GB/s）只有 NVLink（{nv} GB/s）的 {ib_share}；\
             报告称跨节点专家并行的计算与通信约为 1 : 1；\
             热门专家所在的卡会拖慢全体（下一章讲 MoE 本身）。",
        en: "InfiniBand between nodes ({ib} GB/s per card) is only {ib_share} of NVLink \
             ({nv} GB/s); the report puts compute and communication of cross-node expert \
             parallelism at about 1 : 1; cards holding popular experts hold everyone back \
             (the next chapter is about MoE itself).",
    },
};
/// Combinations: 3D, 4D, 5D parallelism; `llama` is Llama 3's run or nothing.
pub const COMBINED: GenerationText = GenerationText {
    key: "combined",
    era: Text {
        zh: "2021 起 · Narayanan et al. 2021；Llama 3；DeepSeek-V3 · 你在这里",
        en: "Since 2021 · Narayanan et al. 2021; Llama 3; DeepSeek-V3 · you are here",
    },
    title: Text {
        zh: "组合：3D / 4D / 5D 并行",
        en: "Combinations: 3D / 4D / 5D parallelism",
    },
    solved: Text {
        zh: "{llama}DeepSeek-V3：PP {ds_pp} × EP {ds_ep} × ZeRO-1 DP，不用 TP。",
        en: "{llama}DeepSeek-V3 with PP {ds_pp} × EP {ds_ep} × ZeRO-1 DP and no TP.",
    },
    stuck: Text {
        zh: "没有万能的配置：每种组合都得先算清每卡显存、每一维通信走哪条链路、\
             气泡多大——正是这一页做的事。",
        en: "There is no universal configuration: for each combination, memory per card, the \
             link of every dimension and the bubble have to be counted first, which is what \
             this page does.",
    },
};

/// Llama 3 405B's largest run without CP, opening the last generation's `llama`.
pub const LLAMA: Text = Text {
    zh: "Llama 3 405B：[TP, CP, PP, DP] = {tp} × {cp} × {pp} × {dp}，{gpus} 张 H100，BF16 \
         MFU {mfu}%（其报告表 4）；",
    en: "Llama 3 405B with [TP, CP, PP, DP] = {tp} × {cp} × {pp} × {dp} on {gpus} H100s at \
         {mfu}% BF16 MFU (its report, table 4); ",
};

/// Where the map's numbers come from.
pub const SOURCES: Text = Text {
    zh: "数字口径：锚点与 DeepSeek-V3 的数由核心按它们的 config 现算（GB = 10⁹ 字节，卡按 \
         {card} 计）。「分桶」一代的时间是推算：反向按 4 × 参数量 × token 数 FLOPs、\
         有效算力 {tflops} TFLOPS 估计（所以是 {backward}），IB 按 {ib} GB/s。5 TFLOPS \
         引自 ZeRO 论文 §1；GPU 小时、并行配置、每个 token 最多 4 个节点与 1 : 1 \
         的计算通信比引自 DeepSeek-V3 报告 §1、§3.1–3.2;Llama 3 的配置与 MFU 引自其报告表 \
         4;25 MiB 是 PyTorch DDP 的默认桶大小。我们没有自己的多卡实测。",
    en: "How these are counted: the anchor's and DeepSeek-V3's figures are computed by the \
         core from their configs (GB = 10⁹ bytes, {card} cards). The bucketing \
         generation's times are estimates: backward as 4 × parameters × tokens FLOPs at an \
         effective {tflops} TFLOPS (hence {backward}), IB at {ib} GB/s. The 5 TFLOPS are \
         quoted from the ZeRO paper, §1; GPU hours, the parallel layout, the 4-node limit \
         per token and the 1 : 1 compute-to-communication ratio from the DeepSeek-V3 \
         report, §1 and §3.1–3.2; Llama 3's configuration and MFU from its report, table \
         4; 25 MiB is PyTorch DDP's default bucket size. We have no multi-GPU measurements \
         of our own.",
};

/// Every text of the map.
#[cfg(test)]
pub fn all() -> Vec<&'static Text> {
    [
        &SINGLE,
        &RING,
        &BUCKET,
        &ZERO,
        &TENSOR,
        &PIPELINE,
        &ZERO_BUBBLE,
        &LONG_SEQUENCE,
        &EXPERTS,
        &COMBINED,
    ]
    .into_iter()
    .flat_map(|g| [&g.era, &g.title, &g.solved, &g.stuck])
    .chain([&LLAMA, &SOURCES])
    .collect()
}
