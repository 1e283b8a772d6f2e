//! The words of seed 003's questions and of the lab's answers, in both languages, with the
//! names the answers fill in.

use crate::kit::text::{text_table, Text};

text_table! {
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
        zh: "序列并行主要省哪部分显存？和谁一起用？Megatron-LM 里它怎样和 TP 结合来减少激活？",
        en: "Which memory does sequence parallelism save, and with what is it used? How does Megatron-LM combine it with TP to cut activations?",
    };
    pub(super) const SP_ANSWER: Text = Text {
        zh: "省的是激活，而且和 TP 一起用。TP 只切注意力和 MLP 里的大矩阵，LayerNorm、Dropout 前后的激活每张卡仍存完整的一份；序列并行把这部分也沿序列切成 t 份，于是每层激活整体除以 t。在 Megatron-LM 里，TP 每次的 all-reduce 换成沿序列的 reduce-scatter 加 all-gather，发的字节一样多，所以激活省了、通信不多。TP 8 开着序列并行，激活是 {activations}；把它关掉是 {off}；TP 1 时是 {one}。",
        en: "Activations, and it goes with TP. TP splits only the attention's and the MLP's large matrices; the activations around LayerNorm and dropout stay whole on every card. Sequence parallelism splits those along the sequence into t parts too, so every layer's activations divide by t. In Megatron-LM each of TP's all-reduces becomes a reduce-scatter and an all-gather along the sequence, which send the same bytes: the activations shrink and the traffic does not grow. At TP 8 with sequence parallelism the activations are {activations}; with it off, {off}; at TP 1, {one}.",
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

    /// The student's prediction, said again beside the answer.
    pub(super) const YOUR_PREDICTION: Text = Text {
        zh: "你的预测：{guess}。对照下面网格上读出的答案。",
        en: "Your prediction: {guess}. Check it against the answer read from the grid below.",
    };
    pub(super) const TP4_ASK: Text = Text {
        zh: "用 TP=4 训练一个 7B 模型，每张卡的权重显存大约变为多少？",
        en: "Training a 7B model at TP = 4: about how much weight memory is left on each card?",
    };
    pub(super) const TP4_ANSWER: Text = Text {
        zh: "问题里的算法：7B 参数 × 2 字节（FP16）= 14 GB，TP 4 每卡 14 ÷ 4 = 3.5 GB。网格上换成实验室里最接近的 Llama 3 8B（{params} 参数）：BF16 权重单卡 {whole}，TP 4 时每卡 {weights}。梯度和 Adam 状态跟着切成 4 份：每卡模型状态从单卡的 {whole_states} 降到 {states}。",
        en: "The question's arithmetic: 7B parameters × 2 bytes (FP16) = 14 GB, and at TP 4 each card holds 14 ÷ 4 = 3.5 GB. On the grid, with the lab's nearest model, Llama 3 8B ({params} parameters): BF16 weights of {whole} on one card, {weights} a card at TP 4. Gradients and Adam states are cut into the same 4 pieces: model states go from {whole_states} on one card to {states}.",
    };
    pub(super) const TP_TRAFFIC_ASK: Text = Text {
        zh: "为什么 TP 的通信量较大，但对显存的节省是立竿见影的？",
        en: "Why is TP's traffic large while its memory saving is immediate?",
    };
    pub(super) const TP_TRAFFIC_ANSWER: Text = Text {
        zh: "TP 切的是每一层自己的矩阵，切完每卡只剩 1/4：TP 4 时每卡模型状态 {states}。代价是每层的前向、反向都要对激活做 all-reduce：每卡每步 {tp}，走 {tp_link} 也要 {tp_time}。同一个模型用 PP 4 也能降到 {pp_states}，只在切点传 {pp}，但多了 {bubble} 的气泡；只用 DP 8（ZeRO-0）一点不省，每卡仍是 {dp_states}，每步同步梯度 {dp}。",
        en: "TP cuts every layer's own matrices, so each card keeps a quarter at once: at TP 4 a card's model states are {states}. The price is an all-reduce of activations in every layer's forward and backward pass: {tp} per card per step, {tp_time} even on {tp_link}. The same model at PP 4 also comes down to {pp_states} and sends only {pp} at the cuts, but adds a bubble of {bubble}; DP 8 alone (ZeRO-0) saves nothing, {dp_states} a card, and syncs {dp} of gradients a step.",
    };
    pub(super) const BALANCE_ASK: Text = Text {
        zh: "3D 并行中，如何平衡显存节省和通信开销？",
        en: "In 3D parallelism, how do you balance memory saved against communication?",
    };
    pub(super) const BALANCE_ANSWER: Text = Text {
        zh: "一次只动一维，看每卡显存和一步时间：从 TP 4 × PP 2 × DP 8（ZeRO-1）出发，每卡 {total}，一步 {step}。TP 加到 8（PP 1）：{tp8_total}，一步 {tp8_step}，TP 每卡每步要传 {tp8_tp}。改成 TP 2 × PP 4：{pp4_total}，一步 {pp4_step}，气泡 {pp4_bubble}。DP 上开 ZeRO-3：{z3_total}，一步 {z3_step}，DP 每步传 {z3_dp}。先用换来时间最少的那一维把模型放下，放下之后把剩下的卡留给 DP。",
        en: "Move one dimension at a time and watch a card's memory and the step time. From TP 4 × PP 2 × DP 8 (ZeRO-1): {total} a card, a step in {step}. TP up to 8 (PP 1): {tp8_total}, a step in {tp8_step}, and TP sends {tp8_tp} per card per step. TP 2 × PP 4 instead: {pp4_total}, a step in {pp4_step}, a bubble of {pp4_bubble}. ZeRO-3 on DP: {z3_total}, a step in {z3_step}, DP sending {z3_dp} a step. Fit the model with whichever dimension costs the least time, then give the remaining cards to DP.",
    };
    pub(super) const EP_ASK: Text = Text {
        zh: "专家并行（EP）如何减少 MoE 训练时的显存？",
        en: "How does expert parallelism reduce memory in MoE training?",
    };
    pub(super) const EP_ANSWER: Text = Text {
        zh: "EP 把专家分到不同的卡上：Mixtral 8x7B 每层 {all} 个专家，EP 8 时每卡只放 {experts} 个，每卡模型状态从不用 EP 时的 {states1} 降到 {states}。代价是 all-to-all：每个 token 要送到它的专家所在的卡再送回来，每卡每步 {ep}，走 {ep_link}。再加 PP 2，EP 组就跨了两台机：每卡每步 {pp_ep}，走 {pp_link}，要 {pp_time}。",
        en: "EP puts the experts on different cards: Mixtral 8x7B has {all} experts a layer, and at EP 8 each card keeps {experts}, so a card's model states fall from {states1} without EP to {states}. The price is the all-to-all: every token goes to the card of its experts and back, {ep} per card per step, on {ep_link}. Add PP 2 and the EP group spans two nodes: {pp_ep} per card per step on {pp_link}, taking {pp_time}.",
    };
    pub(super) const IMBALANCE_ASK: Text = Text {
        zh: "在分布式训练中，除了模型本身，还有什么因素会影响单卡显存均衡？",
        en:
            "In distributed training, what besides the model itself unbalances the memory of the cards?",
    };
    pub(super) const IMBALANCE_ANSWER: Text = Text {
        zh: "网格上算得出的四种，都落在具体的卡上。一是流水线的首尾段：embedding 和输出层只在第一段和最后一段（见「使用 PP 时各卡显存是否均匀」那一题）。二是专家路由不均：按实测最差的负载（最热专家 {skew} 倍于平均，Wang 等 2024），放最热专家的卡每个 micro-batch 收 {hot} 个 token，均匀时是 {even}，比别的卡多存 {excess} 激活，整步还要等它 {wait}。三是运行时显存（这里已打开，可在“运行时显存”里关掉对比）：每张卡加 {runtime}，其中 CUDA 上下文 {context}，分配器预留 {reserve}（两项都在一张 H200 上实测），再加序列并行的聚齐缓冲；预留随卡上张量的多少而变，越满的卡加得越多。四是序列长短不一：在“最长的 micro-batch”里选 2× 或 4×，第一组数据并行的卡要多存一个长 micro-batch 的激活（逐层的部分按 σ 倍、注意力分数按 σ² 倍），别的卡不变。NCCL 自己的缓冲本页不计（见下）。",
        en: "Four that the grid counts, each on the cards it lands on. First, the pipeline's ends: the embedding and the output layer sit on the first and the last stage only (see the question on whether PP spreads memory evenly). Second, uneven expert routing: at the worst measured load (the hottest expert at {skew} times the mean, Wang et al. 2024), the cards holding the hottest expert receive {hot} tokens a micro-batch against {even} when even, hold {excess} of activations more than the others, and the step waits {wait} for them. Third, runtime memory (on here; switch \"runtime memory\" off to compare): each card adds {runtime}, of which the CUDA context is {context} and the allocator's reserve {reserve} (both measured on one H200), plus the sequence-parallel gather buffer; the reserve grows with what the card's tensors hold, so fuller cards add more. Fourth, sequences of uneven length: choose 2× or 4× for \"the longest micro-batch\", and the first data-parallel replica's cards hold one long micro-batch's activations more (its per-layer bytes σ times, its attention scores σ² times); the other cards do not change. NCCL's own buffers are not counted here (below).",
    };
    pub(super) const DP_ZERO_ASK: Text = Text {
        zh: "为什么数据并行 + ZeRO 的组合在显存和通信之间找到了一个平衡点？",
        en: "Why does data parallelism with ZeRO strike a balance between memory and communication?",
    };
    pub(super) const DP_ZERO_ANSWER: Text = Text {
        zh: "在 TP 8 × DP 8 上逐级打开 ZeRO，每卡模型状态：ZeRO-0 {s0}，ZeRO-1 {s1}，ZeRO-2 {s2}，ZeRO-3 {s3}。DP 的通信到 ZeRO-2 都不变：ZeRO-0 是 {d0}，ZeRO-2 也是 {d2}（梯度 reduce-scatter 加参数 all-gather，正好是一次 all-reduce 的量）；ZeRO-3 前向、反向都要再收集参数，变成 {d3}，一步从 {step0} 到 {step3}（ZeRO 论文：1.5 倍通信）。所以 ZeRO-1/2 省显存不加通信，ZeRO-3 用多一半的通信再换一截。",
        en: "Turn ZeRO up stage by stage on TP 8 × DP 8, and a card's model states go: ZeRO-0 {s0}, ZeRO-1 {s1}, ZeRO-2 {s2}, ZeRO-3 {s3}. DP's traffic does not move up to ZeRO-2: {d0} at ZeRO-0 and {d2} at ZeRO-2 (a reduce-scatter of gradients and an all-gather of parameters are one all-reduce's bytes); ZeRO-3 gathers the parameters again in the forward and backward passes, {d3}, and a step goes from {step0} to {step3} (the ZeRO paper: 1.5 times the traffic). ZeRO-1 and 2 save memory at no extra traffic; ZeRO-3 buys more with half as much traffic again.",
    };
    pub(super) const LARGEST_ASK: Text = Text {
        zh: "在超大模型训练中，为什么通常采用 DP + TP + PP + ZeRO 的组合？",
        en: "Why do the largest models train with DP + TP + PP + ZeRO together?",
    };
    pub(super) const LARGEST_ANSWER: Text = Text {
        zh: "在 64 张卡上给 Llama 3 405B 一维一维地加：只用 DP（ZeRO-0），每卡要存 {dp_states} 的模型状态。加 ZeRO-3 切到 {z3_states}，但 DP 每步要传 {z3_dp}，一步 {z3_step}，激活还有 {z3_activations}。加机内 TP 8：激活降到 {tp_activations}，DP 流量降到 {tp_dp}，一步 {tp_step}。最后用 PP 8 跨机（网格上的方案）：切点每步只传 {pp}，走 {pp_link}，一步 {step}，但气泡 {bubble}，每卡仍要 {total}：64 张卡放不下 405B。每一维只解决一部分：ZeRO 切状态，TP 切层内（留在 NVLink），PP 切层间（跨机流量最小），DP 扩吞吐。Llama 3 的实际方案是 {run}，实验室算每卡模型状态 {run_states}。",
        en: "Add the dimensions one at a time for Llama 3 405B on 64 cards. DP alone (ZeRO-0): each card would hold {dp_states} of model states. ZeRO-3 shards them to {z3_states}, but DP then sends {z3_dp} a step, a step takes {z3_step}, and the activations are {z3_activations}. TP 8 inside each node: activations fall to {tp_activations}, DP's traffic to {tp_dp}, a step to {tp_step}. Last, PP 8 across the nodes (the plan on the grid): only {pp} a step at the cuts, on {pp_link}, a step in {step}, but a bubble of {bubble}, and a card still needs {total}: 64 cards cannot hold 405B. Each dimension solves one part: ZeRO shards the states, TP splits inside a layer (kept on NVLink), PP splits between layers (the least traffic across nodes), DP scales throughput. Llama 3's own run is {run}; the lab counts {run_states} of model states a card.",
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
}
