//! The lesson's evolution map of parallelism: each generation, what it solved, where it got
//! stuck and the number that shows it. Our numbers come from
//! [`EvolutionFigures::compute`](parallel_core::evolution::EvolutionFigures::compute) and the
//! core's plans; published ones (GPU hours, TFLOPS of a paper, MFU) are quoted with their source.

use leptos::prelude::*;
use parallel_core::evolution::{EvolutionFigures, DEEPSEEK_V3_GPU_HOURS, EFFECTIVE_FLOPS};
use parallel_core::lesson::deepseek_v3_plan;
use parallel_core::{causal_pairs, Bytes, CpLayout, Plan, PlanConfig, Preset};

use crate::format;
use crate::i18n::{use_lang, Lang, T};
use crate::sections::real_configs::llama::{llama_rows, LlamaRow};
use parallel_core::link::Section;

/// The map's sentences: each generation's era, title, what it solved and where it got stuck,
/// Chinese and English side by side, with the numbers as named parameters.
mod text {
    use crate::text::Text;

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
}

/// One generation of the map, in one language.
#[derive(Clone, Debug, PartialEq)]
pub struct Generation {
    /// Stable id (test hook `evolution-<key>`).
    pub key: &'static str,
    /// When, and the paper or system it is known by.
    pub era: String,
    /// Its name.
    pub title: String,
    /// What it solved.
    pub solved: String,
    /// Where it got stuck.
    pub stuck: String,
}

/// Everything the map quotes besides [`EvolutionFigures`], read from the core.
#[derive(Clone, Debug, PartialEq)]
pub struct MapInputs {
    /// The computed figures.
    pub figures: EvolutionFigures,
    /// An 80 GB card.
    pub card: Bytes,
    /// NVLink and InfiniBand per GPU, GB/s.
    pub nvlink_gbps: f64,
    /// InfiniBand per GPU, GB/s.
    pub ib_gbps: f64,
    /// Causal pairs of 16 tokens on CP 4, zigzag.
    pub zigzag_pairs: Vec<u64>,
    /// KV heads of the anchor.
    pub anchor_kv_heads: u32,
    /// DeepSeek-V3's PP and EP degrees.
    pub deepseek_pp_ep: (u32, u32),
    /// Llama 3 405B's largest run without CP.
    pub llama: Option<LlamaRow>,
}

impl MapInputs {
    /// Reads every input from the core.
    pub fn compute() -> Result<MapInputs, parallel_core::PlanError> {
        let defaults = PlanConfig::default();
        let deepseek = deepseek_v3_plan();
        let llama = llama_rows()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|r| r.degrees.cp == 1)
            .max_by_key(|r| r.run.config.gpus);
        Ok(MapInputs {
            figures: EvolutionFigures::compute()?,
            card: Plan::default().capacity(),
            nvlink_gbps: defaults.nvlink_gbps,
            ib_gbps: defaults.ib_gbps,
            zigzag_pairs: causal_pairs(16, 4, CpLayout::Zigzag)?,
            anchor_kv_heads: Preset::Qwen38_27b.model().kv_heads,
            deepseek_pp_ep: (deepseek.pp, deepseek.ep),
            llama,
        })
    }
}

fn gb(bytes: Bytes) -> String {
    format::bytes(bytes)
}

/// "1/3" for a unit fraction, otherwise two decimals.
fn fraction(x: f64) -> String {
    if x > 0.0 {
        let n = (1.0 / x).round();
        if n >= 1.0 && (x * n - 1.0).abs() < 1e-9 {
            return format!("1/{n}");
        }
    }
    format!("{x:.2}")
}

fn pairs(values: &[u64]) -> String {
    values
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" : ")
}

/// The ten generations of the map in `lang`, every number from `inputs`.
pub fn generations(lang: Lang, inputs: &MapInputs) -> Vec<Generation> {
    let f = &inputs.figures;
    let states = gb(f.single_card_states);
    let card = gb(inputs.card);
    let times = format!("{:.1}", f.times_a_card);
    let hours = format::thousands(DEEPSEEK_V3_GPU_HOURS as u64);
    let years = format!("{:.0}", f.one_card_years);
    let (ring8, ring64) = (gb(f.ring_dp_8), gb(f.ring_dp_64));
    let naive8 = gb(f.naive_gather_8);
    let naive64 = format!(
        "{} GB",
        format::thousands(f.naive_gather_64.gb().round() as u64)
    );
    let ib_time = format::seconds(f.ring_dp_8_over_ib);
    let backward = format::seconds(f.backward_4096_tokens);
    let tflops = format!("{:.0}", EFFECTIVE_FLOPS / 1e12);
    let (nv, ib) = (
        format!("{:.0}", inputs.nvlink_gbps),
        format!("{:.0}", inputs.ib_gbps),
    );
    let chain = f.zero_chain_8.map(gb).join(" → ");
    let factor = format!("{:.1}", f.zero3_traffic_factor);
    let (sel_dp, room, sel_tp) = (
        gb(f.selective_activations_dp8),
        gb(f.room_beside_zero3),
        gb(f.selective_activations_tp8),
    );
    let tp_bytes = gb(f.tp8_traffic_4096_tokens);
    let (bubble, share, bubble_v4) = (
        format::percent(f.bubble_p8_m32),
        format::percent(f.bubble_share_p8_m32),
        format::percent(f.bubble_p8_m32_v4),
    );
    let zb = fraction(f.zb_h1_fraction);
    let (contiguous, zigzag) = (pairs(&f.cp4_contiguous_pairs), pairs(&inputs.zigzag_pairs));
    let cp_layer = gb(f.cp8_per_layer_131k);
    let kv = inputs.anchor_kv_heads;
    let routed = format!("{:.1}B", f.deepseek_routed_params / 1e9);
    let per_card = format!("{:.0}", f.deepseek_experts_per_card);
    let ib_share = format::percent(f.ib_over_nvlink);
    let (ds_pp, ds_ep) = inputs.deepseek_pp_ep;
    let llama = inputs.llama.as_ref().map_or_else(String::new, |r| {
        let d = r.degrees;
        text::LLAMA.fill(
            lang,
            &[
                ("tp", &d.tp),
                ("cp", &d.cp),
                ("pp", &d.pp),
                ("dp", &d.dp),
                ("gpus", &format::thousands(u64::from(r.run.config.gpus))),
                ("mfu", &r.run.mfu_percent),
            ],
        )
    });
    let g = |t: &text::GenerationText, solved: Args, stuck: Args| Generation {
        key: t.key,
        era: t.era.get(lang).to_string(),
        title: t.title.get(lang).to_string(),
        solved: t.solved.fill(lang, solved),
        stuck: t.stuck.fill(lang, stuck),
    };
    vec![
        g(
            &text::SINGLE,
            &[],
            &[
                ("states", &states),
                ("times", &times),
                ("card", &card),
                ("hours", &hours),
                ("years", &years),
            ],
        ),
        g(
            &text::RING,
            &[
                ("ring8", &ring8),
                ("ring64", &ring64),
                ("naive8", &naive8),
                ("naive64", &naive64),
            ],
            &[("states", &states)],
        ),
        g(
            &text::BUCKET,
            &[],
            &[
                ("ring8", &ring8),
                ("ib", &ib),
                ("ib_time", &ib_time),
                ("backward", &backward),
                ("tflops", &tflops),
            ],
        ),
        g(
            &text::ZERO,
            &[("chain", &chain)],
            &[("factor", &factor), ("sel_dp", &sel_dp), ("room", &room)],
        ),
        g(
            &text::TENSOR,
            &[("sel_dp", &sel_dp), ("sel_tp", &sel_tp)],
            &[("tp_bytes", &tp_bytes)],
        ),
        g(
            &text::PIPELINE,
            &[],
            &[
                ("bubble", &bubble),
                ("share", &share),
                ("bubble_v4", &bubble_v4),
            ],
        ),
        g(&text::ZERO_BUBBLE, &[("zb", &zb)], &[]),
        g(
            &text::LONG_SEQUENCE,
            &[("contiguous", &contiguous), ("zigzag", &zigzag)],
            &[("cp_layer", &cp_layer), ("kv", &kv)],
        ),
        g(
            &text::EXPERTS,
            &[
                ("routed", &routed),
                ("ds_ep", &ds_ep),
                ("per_card", &per_card),
            ],
            &[("ib", &ib), ("nv", &nv), ("ib_share", &ib_share)],
        ),
        g(
            &text::COMBINED,
            &[("llama", &llama), ("ds_pp", &ds_pp), ("ds_ep", &ds_ep)],
            &[],
        ),
    ]
}

/// Named arguments of a text.
type Args<'a> = &'a [(&'a str, &'a dyn std::fmt::Display)];

/// Where the map's numbers come from, in `lang`.
pub fn sources_note(lang: Lang, inputs: &MapInputs) -> String {
    let card = gb(inputs.card);
    let tflops = format!("{:.0}", EFFECTIVE_FLOPS / 1e12);
    let backward = format::seconds(inputs.figures.backward_4096_tokens);
    let ib = format!("{:.0}", inputs.ib_gbps);
    text::SOURCES.fill(
        lang,
        &[
            ("card", &card),
            ("tflops", &tflops),
            ("backward", &backward),
            ("ib", &ib),
        ],
    )
}

/// The evolution map as an ordered list.
#[component]
pub fn EvolutionMap() -> impl IntoView {
    let lang = use_lang();
    let inputs = std::sync::Arc::new(MapInputs::compute());
    let for_sources = std::sync::Arc::clone(&inputs);
    let body = move || match &*inputs {
        Ok(inputs) => {
            let lang = lang.get();
            let (solved, stuck) = (lang.pick("解决了", "Solved"), lang.pick("卡在", "Stuck at"));
            let items = generations(lang, inputs)
                .into_iter()
                .enumerate()
                .map(|(i, g)| {
                    let title_id = format!("evolution-{}-title", g.key);
                    let labelled_by = title_id.clone();
                    view! {
                        <li class="generation" data-testid=format!("evolution-{}", g.key) aria-labelledby=labelled_by>
                            <h3 class="generation-title" id=title_id>
                                <span class="generation-index" aria-hidden="true">{i + 1}</span>
                                {g.title}
                            </h3>
                            <p class="generation-era">{g.era}</p>
                            <dl class="generation-body">
                                <div class="generation-solved"><dt>{solved}</dt><dd>{g.solved}</dd></div>
                                <div class="generation-stuck"><dt>{stuck}</dt><dd>{g.stuck}</dd></div>
                            </dl>
                        </li>
                    }
                })
                .collect_view();
            view! { <ol class="evolution" data-testid="evolution-map">{items}</ol> }.into_any()
        }
        Err(error) => {
            view! { <p role="alert" data-testid="evolution-map">{error.to_string()}</p> }.into_any()
        }
    };
    let sources = move || match &*for_sources {
        Ok(inputs) => sources_note(lang.get(), inputs),
        Err(_) => String::new(),
    };
    view! {
        <section class="part" id=Section::Evolution.id() data-testid="section-evolution" aria-labelledby="evolution-title">
            <h2 id="evolution-title"><T zh="演进地图：走完一轮" en="The evolution map, once around" /></h2>
            <p class="lead">
                <T zh="每一种新的切法，都起因于上一代撞上的某个具体数字。下面逐代列出：它解决了什么，又在哪里停住，各附一个现算或引用的数。"
                   en="Every new dimension of parallelism was forced by a real number the previous generation ran into. Each generation below says what it solved, where it got stuck, and the number that shows it." />
            </p>
            {body}
            <p class="caption" data-testid="evolution-sources">{sources}</p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use parallel_core::lang::has_cjk as han;

    #[test]
    fn ten_generations_in_both_languages() {
        let inputs = MapInputs::compute().expect("the core computes the map");
        let zh = generations(Lang::Zh, &inputs);
        let en = generations(Lang::En, &inputs);
        assert_eq!((zh.len(), en.len()), (10, 10));
        for (z, e) in zh.iter().zip(&en) {
            assert_eq!(z.key, e.key);
            for text in [&e.era, &e.title, &e.solved, &e.stuck] {
                assert!(!han(text), "Chinese in English: {text}");
            }
            assert!(han(&z.solved) && han(&z.stuck), "{z:?}");
        }
    }

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let inputs = MapInputs::compute().expect("the core computes the map");
        let without_llama = MapInputs {
            llama: None,
            ..inputs.clone()
        };
        crate::text::testing::assert_all_used(&text::all(), || {
            for lang in [Lang::Zh, Lang::En] {
                generations(lang, &inputs);
                generations(lang, &without_llama);
                sources_note(lang, &inputs);
            }
        });
    }

    #[test]
    fn the_map_quotes_our_numbers() {
        let inputs = MapInputs::compute().expect("the core computes the map");
        let all: String = generations(Lang::En, &inputs)
            .into_iter()
            .map(|g| format!("{} {}", g.solved, g.stuck))
            .collect();
        for needle in [
            "444.5 GB",
            "5.6 times",
            "2,664,000",
            "304 years",
            "97.2 GB",
            "109.4 GB",
            "388.9 GB",
            "3,500 GB",
            "1.94 s",
            "1.14 s",
            "152.8 GB",
            "1.5 times",
            "24.4 GB",
            "5.7 GB",
            "18.8 GB",
            "21.9%",
            "17.9%",
            "5.5%",
            "1/3",
            "10 : 26 : 42 : 58",
            "34 : 34 : 34 : 34",
            "0.5 GB",
            "653.9B",
            "31.2%",
            "8 × 1 × 16 × 128",
            "41%",
        ] {
            assert!(all.contains(needle), "missing {needle}");
        }
        assert!(!all.contains("1.05"));
    }

    #[test]
    fn fractions() {
        assert_eq!(fraction(1.0 / 3.0), "1/3");
        assert_eq!(fraction(0.4), "0.40");
        assert_eq!(fraction(0.0), "0.00");
    }
}
