//! The words of each [`Omission`]: its title and its reason, Chinese first. Every claim here is
//! checked by the item's witness (`tests/omissions/witness/`) or follows from the formula it
//! names.

use super::list::Omission;

/// (中文, English) title: what is left out, as a noun phrase.
pub(super) const fn title(item: Omission) -> (&'static str, &'static str) {
    match item {
        Omission::EvenSplit => (
            "默认口径下各段流水线的差别",
            "Differences between pipeline stages, in the default accounting",
        ),
        Omission::OutputActivations => (
            "嵌入层的激活，以及 logits 的梯度和 BF16 副本",
            "Embedding activations, and the logits' gradient and BF16 copy",
        ),
        Omission::ActivationConstants => (
            "激活随层结构的变化",
            "How activations change with the shape of a layer",
        ),
        Omission::ExpertTensorParallel => (
            "专家内部的张量并行",
            "Tensor parallelism inside the experts",
        ),
        Omission::Buffers => (
            "临时缓冲、通信桶和显存碎片",
            "Temporary buffers, communication buckets and fragmentation",
        ),
        Omission::LinearAttentionState => (
            "推理引擎里线性注意力层的状态",
            "The state of linear-attention layers in the rollout engines",
        ),
        Omission::ExpertBalance => (
            "专家并行的负载不均、容量因子和 all-to-all 延迟",
            "Load imbalance, capacity factor and all-to-all latency of expert parallelism",
        ),
        Omission::Latency => (
            "通信表里每条消息的延迟",
            "Latency of each message, in the traffic table",
        ),
        Omission::Overlap => (
            "通信与计算的重叠（DP 藏在反向传播后面的部分除外）",
            "Overlap of communication with compute, except DP's behind the backward pass",
        ),
        Omission::RecomputeTraffic => (
            "通信表里重计算重跑前向时的通信",
            "The traffic of recomputation's repeated forward pass, in the traffic table",
        ),
        Omission::CpBackward => (
            "通信表里 CP 的反向通信",
            "CP's backward traffic, in the traffic table",
        ),
        Omission::PipelineMessages => (
            "段间消息在 TP 组内的切分",
            "Splitting stage-to-stage messages over the TP group",
        ),
        Omission::KernelEfficiency => (
            "课程卡上，算子效率随矩阵形状的变化",
            "On the lesson's card, how kernel efficiency changes with matrix shape",
        ),
        Omission::StageTime => (
            "各段流水线用时的差别",
            "Pipeline stages that take different times",
        ),
        Omission::OutsideTheStep => (
            "前向、反向和通信之外的时间",
            "Time outside forward, backward and communication",
        ),
        Omission::CpuUpdate => (
            "CPU Adam 时 CPU 自己做更新的时间",
            "The CPU's own Adam update time, with the optimizer on the host",
        ),
    }
}

/// (中文, English) reason: what the lab counts of it, what it leaves out, and what follows.
pub(super) const fn reason(item: Omission) -> (&'static str, &'static str) {
    match item {
        Omission::EvenSplit => (
            "「课上的均分」是默认口径，课上的数都按它算。它只看第一段：每段 L/p 层（除不尽时取平均），\
             参数按 P/(TP·PP) 平摊，嵌入和输出头不单独放，logits 不计。把「显存怎么记」换成「按段计」，\
             每段就分到 ⌊L/p⌋ 层，余下的层从第 1 段起各加一层；嵌入放在第 0 段，输出头放在最后一段；\
             每段按自己在途的 micro-batch 数计激活，最后一段再加一个 micro-batch 的 FP32 logits；\
             每张卡显示自己那一段。两种口径都不能自己指定每段放几层。",
            "The lesson's even split is the default, behind every figure of the lesson. It counts \
             the first stage only: L/p layers a stage (an average when p does not divide L), the \
             parameters spread evenly as P/(TP·PP), no embedding or output head of its own and no \
             logits. Switch memory accounting to \"by stage\" and each stage gets ⌊L/p⌋ layers, \
             the remainder adding one to stages 1, 2 …; the embedding sits on stage 0 and the \
             output head on the last stage, each stage counts its own micro-batches in flight, the \
             last one adds the FP32 logits of one micro-batch, and every card shows its own stage. \
             Neither accounting lets you choose how many layers a stage holds.",
        ),
        Omission::OutputActivations => (
            "「按段计」只在最后一段加一份 FP32 logits（一个 micro-batch，4·s′·b·V/t）；第 0 段不为嵌入层\
             另加激活，logits 的梯度、转成 FP32 之前的 BF16 logits 和交叉熵的中间结果都不计。\
             默认的均分连这份 logits 也不计。",
            "\"By stage\" adds one copy of FP32 logits to the last stage (one micro-batch, \
             4·s′·b·V/t); stage 0 gets no activations for the embedding, and the logits' \
             gradient, the BF16 logits before their cast to FP32 and the cross-entropy's \
             intermediates are not counted. The default even split counts not even those logits.",
        ),
        Omission::ActivationConstants => (
            "每层的激活用 Korthikanti et al. 2022 的常数：34·s′·b·h/t，不重计算时每个全注意力层再加 \
             5·a·s′·s·b/t。这两个常数是按 FFN 宽 4h、多头注意力的 GPT 层推出来的，这里不论 FFN 多宽、\
             是否 GQA、是不是线性注意力层都照用；MoE 层也按稠密 MLP 计。",
            "Activations per layer use the constants of Korthikanti et al. 2022: 34·s′·b·h/t, \
             plus 5·a·s′·s·b/t for each full-attention layer without recompute. They were derived \
             for a GPT layer with a 4h FFN and multi-head attention; the lab applies them whatever \
             the FFN width, with GQA and to linear-attention layers alike, and counts an MoE layer \
             like a dense MLP.",
        ),
        Omission::ExpertTensorParallel => (
            "专家不按 TP 切（相当于 Megatron 的 --expert-tensor-parallel-size 1）：每张卡存 \
             P_routed/(EP·PP) 的专家参数，TP 再大也不变；TP 只切稠密部分。",
            "Experts are not split by TP (Megatron's --expert-tensor-parallel-size 1): each card \
             holds P_routed/(EP·PP) of expert parameters however large TP is; TP splits only the \
             dense part.",
        ),
        Omission::Buffers => (
            "默认一张卡的显存只算模型状态加激活。打开“运行时显存”后再加三项：CUDA 上下文、\
             Megatron 的序列并行聚齐缓冲和分配器的预留（前后两项在一张 H200 上实测）。\
             即便打开，NCCL 自己的通信缓冲、算子的工作区、ZeRO-3 临时聚齐的整层参数也不算，\
             所以真实的卡仍要留余量，这里放得下的计划未必真跑得起来。",
            "By default a card's memory is its model states plus its activations. Switch on \
             \"runtime memory\" and three terms join them: the CUDA context, Megatron's \
             sequence-parallel gather buffer and the allocator's reserve (the first and last \
             measured on one H200). Even then NCCL's own buffers, kernel workspaces and ZeRO-3's \
             gathered full-layer parameters are not counted, so a real card still needs \
             headroom, and a plan shown as fitting may still not run.",
        ),
        Omission::LinearAttentionState => (
            "推理引擎的 KV cache 只按全注意力层算：每个 token 每层存 K 和 V（MLA 存潜向量）。\
             线性注意力层（如锚点模型 64 层里的 48 层）不随 token 增长，只为每条序列保留一份固定大小的\
             状态，这份状态不计；序列越多、线性层越多，真实的推理显存比这里多得越多。",
            "The rollout engines' KV cache counts the full-attention layers only: K and V per token \
             and layer (the latent with MLA). Linear-attention layers (48 of the anchor's 64) do not \
             grow with the tokens; they keep one fixed-size state per sequence, and that state is not \
             counted, so with more sequences and more linear layers a real engine holds more than \
             shown here.",
        ),
        Omission::ExpertBalance => (
            "两个网格都能选 MoE 模型，选了就会出现 EP 滑块。算进去的有：路由专家的参数（按 EP 切开，\
             在专家数据并行组里按 ZeRO 记账）、all-to-all 的字节 m·(M/p)·4·((e−1)/e)·(s·b/(c·t))·k·h·2、\
             专家 DP 的梯度通信，以及估算里按激活参数算的 FLOPs。路由按完全均衡算：每个 token 恰好去 k 个\
             专家，每个专家分到的 token 一样多，没有容量因子带来的填充或丢弃，也没有过热的专家。\
             all-to-all 的延迟不计，MoE 层的激活按稠密层计。",
            "Both grids take MoE models, with an EP slider. Counted: the routed experts' \
             parameters split over EP and kept by ZeRO's ledger in the expert-data-parallel group; \
             the all-to-all bytes m·(M/p)·4·((e−1)/e)·(s·b/(c·t))·k·h·2; expert-DP gradient \
             traffic; the estimate's FLOPs from the active parameters. Routing is taken as \
             perfectly balanced: every token goes to exactly k experts and every expert gets the \
             same share, with no capacity-factor padding, no dropped tokens and no hot experts. \
             The all-to-all's latency is not counted, and MoE layers' activations count like \
             dense ones.",
        ),
        Omission::Latency => (
            "通信表沿用课上的算法：时间 = 字节 ÷ 链路带宽，集合通信的每一步都没有固定开销。步时估算则按 α–β \
             模型给每一步加上链路延迟 α（NVLink 默认 1 µs，网络 5 µs），所以表里发很多小消息的维度\
             （层数多时的 TP、切得很细的 CP）比估算里快。",
            "The traffic table keeps the lesson's accounting: time is bytes ÷ link bandwidth, with \
             no fixed cost for a collective's steps. The step-time estimate adds a latency α per \
             step (α–β; 1 µs over NVLink, 5 µs over the network by default), so in the table the \
             dimensions that send many small messages (TP over many layers, a finely split CP) \
             look faster than in the estimate.",
        ),
        Omission::Overlap => (
            "通信表里每一维的时间都按不重叠算，是上限，不是实际耗时。步时估算只让 DP 和专家 DP 的通信\
             藏在反向传播后面（计算时间的 {backward}），TP、CP、EP、PP 的时间（含延迟）整段算在关键路径上；\
             TP 与计算的重叠（异步 TP）、CP 环形注意力的重叠都不计。",
            "Each dimension's time in the traffic table assumes no overlap: an upper bound, not a \
             measured duration. The step-time estimate lets only DP and expert-DP traffic hide \
             behind the backward pass ({backward} of compute); TP, CP, EP and PP time, latency included, \
             sits whole on the critical path: no async TP, no overlap of ring attention.",
        ),
        Omission::RecomputeTraffic => (
            "全量重计算在反向时把每层的前向再跑一遍。通信表按课上的口径只记一次；步时估算则算上\
             它的计算量（FLOPs ×{recompute}）和 TP 重复的 2 次前向 all-reduce（TP 字节 ×{tp_bytes}，每层 6 次调用），\
             但 EP 的 all-to-all 不重复，选择性重计算重算的注意力也不加 FLOPs。",
            "Full recompute runs each layer's forward again during the backward pass. The traffic \
             table counts its traffic once, as the lesson does; the step-time estimate counts its \
             compute (FLOPs × {recompute}) and TP's two repeated forward all-reduces (TP bytes × {tp_bytes}, 6 \
             calls a layer), but not EP's all-to-all again, and selective recompute's recomputed \
             attention adds no FLOPs.",
        ),
        Omission::CpBackward => (
            "通信表里 CP 只算前向对 K、V 的 all-gather（全注意力层，m·(F/p)·((c−1)/c)·2·kv·head_dim·s·b·2）；\
             反向对 dK、dV 的 reduce-scatter（字节数与前向相同）不计，表里 CP 的通信约是实际的一半。\
             步时估算把它算上（CP 字节 ×{cp_bytes}，每层 2 次调用）。",
            "In the traffic table CP counts only the forward all-gather of K and V (full-attention \
             layers, m·(F/p)·((c−1)/c)·2·kv·head_dim·s·b·2); the backward reduce-scatter of dK \
             and dV, as many bytes again, is left out, so the table's CP traffic is about half of \
             what it sends. The step-time estimate counts it (CP bytes × {cp_bytes}, 2 calls a layer).",
        ),
        Omission::PipelineMessages => (
            "PP 每个 micro-batch 传一份完整的激活 x = 2·s′·b·h（反向再传回一份梯度），不除以 TP：\
             Megatron 把段间消息在 TP 组内切开再聚齐的做法没有建模，所以 TP > 1 时 PP 的字节偏多。",
            "PP sends one whole activation x = 2·s′·b·h per micro-batch (and its gradient back), \
             not divided by TP: Megatron's scatter and gather of stage-to-stage messages over the \
             TP group is not modelled, so with TP > 1 PP's bytes are an overcount.",
        ),
        Omission::KernelEfficiency => (
            "课程卡（lesson）的计算时间 = FLOPs ÷ (N × 每卡有效算力 400 TFLOP/s)，只在每卡每个 micro-batch \
             的 token 数低于屋顶线拐点 R = 算力 ÷ 显存带宽 时按 R/T_l 放慢：TP 切得再细、矩阵再窄也不另外掉速。\
             真实卡（h200 等）按一张 H200 上实测的内核速率计：每个矩阵乘按它在卡上的形状、注意力按块长、\
             访存型内核按拷贝带宽；这些表本身不计内核之间的重叠与启动开销的隐藏。",
            "On the lesson's card, compute is FLOPs ÷ (N × its effective 400 TFLOP/s), slowed by \
             R/T_l only where a card's tokens per micro-batch fall under the roofline's ridge \
             R = rate ÷ HBM bandwidth: a finer TP split or a narrower matrix loses nothing more. \
             The real cards (h200 and the others) use kernel rates measured on one H200: each GEMM \
             at its shape on the card, attention by chunk length, memory-bound kernels at the copy \
             bandwidth; the tables themselves do not count kernels overlapping or launches hidden \
             behind the previous kernel.",
        ),
        Omission::StageTime => (
            "气泡 = 计算 × (p−1)/(v·m)，默认每段用时相同。除不尽时多出来的那层、嵌入和输出头在首尾两段\
             多花的时间都不进步时；「按段计」只改显存，不改估算。",
            "The bubble is compute × (p−1)/(v·m), taking every stage to need the same time. The \
             extra layer of some stages when p does not divide L, and the embedding's and output \
             head's time on the first and last stage, do not enter the step time; \"by stage\" \
             changes memory, not the estimate.",
        ),
        Omission::OutsideTheStep => (
            "一步 = 计算 + 气泡 + 没藏住的通信（真实卡再加优化器更新）。课程卡不计优化器更新；\
             梯度裁剪、数据加载和检查点在哪张卡上都不计；ZeRO 阶段只改变通信和优化器分片，不改变计算时间。",
            "A step is compute + bubble + the communication not hidden (+ the optimizer update on \
             the real cards). On the lesson's card the optimizer update is not counted; gradient \
             clipping, data loading and checkpoints are counted on no card; the ZeRO stage changes \
             the traffic and the optimizer's shard, not the compute time.",
        ),
        Omission::CpuUpdate => (
            "把优化器放到主机上（optimizer_offload = \"cpu\"）时，显存少了每个参数 12 字节，主机每张卡\
             多了 16·Ψ_o 字节，PCIe 上每步多了 6·Ψ_o 字节（梯度下去 4、权重回来 2），这段时间按 PCIe \
             带宽全部算进一步里。CPU 在主机上跑 Adam 本身的时间不计，也不算它与 GPU 计算的重叠：\
             估算里的一步与主机 CPU 的快慢无关。",
            "With the optimizer on the host (optimizer_offload = \"cpu\") the card sheds 12 bytes a \
             parameter, the host holds 16·Ψ_o bytes a card, and PCIe carries 6·Ψ_o bytes a step \
             (4 down for the gradients, 2 up for the weights), all of it added to the step at the \
             PCIe bandwidth. The CPU's own Adam update on the host is not counted, nor any overlap \
             of it with the GPUs' work: the estimated step does not depend on the host's CPU.",
        ),
    }
}
