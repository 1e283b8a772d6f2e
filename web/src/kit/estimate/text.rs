//! The estimate's sentences, in both languages, with named parameters.

use crate::kit::text::{text_table, Text};

text_table! {
    /// How the step is split.
    pub const SPLIT: Text = Text {
        zh: "计算 {compute} + 气泡 {bubble} + 未被掩盖的通信 {comm}",
        en: "compute {compute} + bubble {bubble} + exposed communication {comm}",
    };
    /// Throughput per card.
    pub const THROUGHPUT: Text = Text {
        zh: "每卡每秒 {tokens} 个 token（每步 {per_step} 个）",
        en: "{tokens} tokens per second per card ({per_step} per step)",
    };
    /// The latency, roofline and MFU line.
    pub const EXTRA: Text = Text {
        zh: "其中延迟 {latency} · 屋顶线 ×{roofline} · MFU {mfu}",
        en: "latency {latency} of it · roofline ×{roofline} · MFU {mfu}",
    };
    /// The same on a card with measured kernel tables (SPEC §18): the factor is the kernels'
    /// slowdown against the card's large-GEMM rate.
    pub const EXTRA_KERNELS: Text = Text {
        zh: "其中延迟 {latency} · 内核放慢 ×{roofline} · MFU {mfu}",
        en: "latency {latency} of it · kernel slowdown ×{roofline} · MFU {mfu}",
    };
    /// Compute split by kernel, and the optimizer step (SPEC §18).
    pub const KERNELS: Text = Text {
        zh: "计算中 GEMM {gemm} · 注意力 {attention} · 访存型内核 {memory}；另有优化器更新 {optimizer}",
        en: "of which GEMMs {gemm} · attention {attention} · memory-bound {memory}; optimizer {optimizer}",
    };
    /// The kernel slowdown's name in the list of explained figures.
    pub const SLOWDOWN: Text = Text {
        zh: "内核放慢倍数",
        en: "kernel slowdown",
    };
    /// One dimension's time in the estimate.
    pub const DIM_TIME: Text = Text {
        zh: "{dim} {seconds}（延迟 {latency}）",
        en: "{dim} {seconds} (latency {latency})",
    };
    /// The assumptions, at this plan's card.
    pub const ASSUMPTIONS: Text = Text {
        zh: "这是估算，不是测量。FLOPs = (6·P_mm + 6·F·a·head_dim·s)·T（P_mm：每个 token 经过矩阵乘的参数，\
             输出层只算一次，不含输入嵌入、归一化和路由器，与 Megatron-LM 的计数相同），全量重计算再 ×{recompute}。\
             计算时间 = FLOPs ÷ (N × 每卡 {tflops} TFLOP/s 的有效算力)，权重部分再乘屋顶线倍数 \
             max(1, R/T_l)：R = 有效算力 ÷ 显存带宽 {hbm} TB/s，T_l = s·b/c 是每卡每个 micro-batch 的 \
             token 数（路由专家按各自分到的 token 另算）。每次集合通信 = 步数 × α + 字节 ÷ 带宽，\
             α 为 NVLink {nvlink_us} µs、网络 {ib_us} µs；全量重计算让 TP 每层多 2 次调用（字节 ×{tp_bytes}），\
             CP 算上反向（字节 ×{cp_bytes}），DP 按 {bucket} 一桶；ZeRO-2/3 只存梯度的一份分片，\
             每个 micro-batch 反向后都要 reduce-scatter，ZeRO-3 每个 micro-batch 的前向和反向\
             还要各 all-gather 一次权重。气泡 = 计算 × (p−1)/(v·m)；TP、CP、EP、PP 在关键路径上，\
             DP 与专家 DP 只能藏在反向传播（计算的 {backward}）后面。MFU = 模型 FLOPs ÷ \
             (N × 峰值 {peak} TFLOP/s × 每步时间)。",
        en: "An estimate, not a measurement. FLOPs = (6·P_mm + 6·F·a·head_dim·s)·T (P_mm: the parameters \
             a token meets in a matrix product, the output layer once, no input embedding, norms or \
             routers, as Megatron-LM counts), × {recompute} with full recompute. Compute = FLOPs ÷ (N × an effective {tflops} TFLOP/s per card), the \
             weights' part × the roofline factor max(1, R/T_l): R = that rate ÷ the HBM's {hbm} \
             TB/s, T_l = s·b/c the tokens of a micro-batch on a card (routed experts by the tokens \
             each receives). Each collective call = steps × α + bytes ÷ bandwidth, α = \
             {nvlink_us} µs over NVLink and {ib_us} µs over the network; full recompute adds 2 TP \
             calls a layer (bytes × {tp_bytes}), CP counts its backward (bytes × {cp_bytes}), DP runs in {bucket} \
             buckets; ZeRO-2/3 keep only a shard of the gradients, so they reduce-scatter after \
             every micro-batch's backward, and ZeRO-3 gathers the weights again for every \
             micro-batch's forward and backward. Bubble = compute × (p−1)/(v·m); TP, CP, EP and \
             PP sit on the critical path, DP and expert DP hide only behind the backward pass ({backward} of compute). MFU = model \
             FLOPs ÷ (N × the {peak} TFLOP/s peak × the step).",
    };

    /// The assumptions on a card with measured kernel tables (SPEC §18); `tables` is one of
    /// the three sentences below.
    pub const ASSUMPTIONS_KERNELS: Text = Text {
        zh: "这是估算，不是测量。真实卡上的计算按内核逐个计时：每个 GEMM（QKV 与输出投影、MLP 或专家、\
             输出头）按它在每张卡上切分后的形状（token 数 × 输出 × 输入）查一张 H200 上实测的 GEMM 速率表，\
             乘上它跑的遍数（前向、求输入梯度、求权重梯度，全量重计算再加一遍前向）；注意力按每块的长度和\
             调用大小查实测的 flash 注意力速率；RMSNorm、RoPE、SiLU、残差与损失等访存型内核按读写的字节 ÷ \
             拷贝带宽 {copy} TB/s；流水线排空后再加一次优化器更新（Adam 与 FP32 主权重，每个参数读写 30 字节，\
             也按拷贝带宽）。{tables}每次集合通信按 NCCL 的环形模型：每次调用 {call_us} µs，节点内每一步 \
             {nvlink_us} µs、跨节点的每一步 {ib_us} µs（跨节点的 all-reduce 再 ×{plateau}），再加字节 ÷ 带宽；\
             全量重计算让 TP 每层多 2 次调用（字节 ×{tp_bytes}），CP 算上反向（字节 ×{cp_bytes}）；发送的内容按 \
             Megatron-Core：PP 每张卡只发自己那份序列并行分片（字节 ÷ t；关掉序列并行则发整份），DP 按每桶 max({bucket_min}, {bucket_rank}·D) 个参数分桶；\
             ZeRO-2/3 只存梯度的一份分片，每个 micro-batch 反向后都要 reduce-scatter，ZeRO-3 每个 micro-batch 的前向和反向还要各 \
             all-gather 一次权重。气泡 = 计算 × (p−1)/(v·m)；TP、CP、EP、PP 在关键路径上，DP 与专家 DP \
             只能藏在反向传播（计算的 {backward}）后面。内核放慢倍数 = 这样算出的计算时间 ÷ 同样的 FLOPs 按这张卡\
             大 GEMM 的 {tflops} TFLOP/s 算出的时间。MFU = 模型 FLOPs ÷ (N × 峰值 {peak} TFLOP/s × \
             每步时间)。",
        en: "An estimate, not a measurement. On a real card compute is timed kernel by kernel: \
             each GEMM (QKV and output projections, MLP or experts, the output head) reads the \
             GEMM rate measured on one H200 for its shape on a card after the split (tokens × \
             outputs × inputs), times the passes it runs (forward, input gradient, weight \
             gradient, and the forward again with full recompute); attention reads the measured \
             flash-attention rate for each chunk's length and call size; the memory-bound \
             kernels (RMSNorm, rotary, SiLU, residuals, the loss) move their bytes at the copy \
             bandwidth of {copy} TB/s; after the pipeline drains, one optimizer step (Adam with \
             FP32 master weights, 30 bytes read and written per parameter, also at the copy \
             bandwidth). {tables} Each collective call follows NCCL's ring model: {call_us} µs a \
             call, {nvlink_us} µs a step inside a node and {ib_us} µs a step between nodes (an \
             all-reduce across nodes × {plateau}), plus bytes ÷ bandwidth; full recompute adds 2 \
             TP calls a layer (bytes × {tp_bytes}), CP counts its backward (bytes × {cp_bytes}); what is sent follows Megatron-Core: PP sends each \
             card's sequence-parallel shard (bytes ÷ t; the whole tensor with sequence parallelism off), DP runs in buckets of max({bucket_min}, {bucket_rank}·D) parameters; ZeRO-2/3 keep only a shard of the \
             gradients, so they reduce-scatter after every micro-batch's backward, and ZeRO-3 \
             gathers the weights again for every micro-batch's forward and backward. Bubble = \
             compute × (p−1)/(v·m); TP, CP, EP and PP sit on the critical path, DP and expert DP \
             hide only behind the backward pass ({backward} of compute). Kernel slowdown = that compute \
             ÷ the same FLOPs at the card's large-GEMM rate of {tflops} TFLOP/s. MFU = model \
             FLOPs ÷ (N × the {peak} TFLOP/s peak × the step).",
    };
    /// The card's tables are the H200's own measurement.
    pub const TABLES_MEASURED: Text = Text {
        zh: "这张卡用的就是 H200 的实测表（H100 SXM 与 H200 是同一颗芯片、同样的频率）。",
        en: "This card reads the H200's measured tables as they are (the H100 SXM is the same \
             chip at the same clocks).",
    };
    /// The card borrows the H200's tables by the one rule.
    pub const TABLES_BORROWED: Text = Text {
        zh: "这张卡没有自己的实测表，按同一条规则借用 H200 的：每个形状的速率 × {tflops} ÷ {h200} \
             （本卡与 H200 的大 GEMM 速率之比），拷贝带宽 = 显存带宽 {hbm} TB/s × {h200_copy}/{h200_hbm}。",
        en: "This card has no measured tables of its own and borrows the H200's by one rule: \
             each shape's rate × {tflops} ÷ {h200} (its large-GEMM rate over the H200's), and a \
             copy bandwidth of its {hbm} TB/s HBM × {h200_copy}/{h200_hbm}.",
    };
    /// The same, with attention from FlashAttention-2's published A100 rates.
    pub const TABLES_BORROWED_ATTENTION: Text = Text {
        zh: "这张卡的 GEMM 和拷贝按同一条规则借用 H200 的实测：每个形状的速率 × {tflops} ÷ {h200}\
             （本卡与 H200 的大 GEMM 速率之比），拷贝带宽 = 显存带宽 {hbm} TB/s × {h200_copy}/{h200_hbm}；\
             注意力用 FlashAttention-2 公布的 A100 速率。",
        en: "This card's GEMMs and copies borrow the H200's measurement by one rule: each \
             shape's rate × {tflops} ÷ {h200} (its large-GEMM rate over the H200's), and a copy \
             bandwidth of its {hbm} TB/s HBM × {h200_copy}/{h200_hbm}; attention reads \
             FlashAttention-2's published A100 rates.",
    };
}
