//! The sentences of the search (its lead and its results), Chinese and English side by side.

use crate::kit::text::{text_table, Text};

text_table! {
    /// The search panel's lead: what it enumerates and how it ranks, with the safe share of a
    /// card (`safe`) and the tie band (`band`).
    pub const LEAD: Text = Text {
        zh: "给出模型、卡型、集群和全局批，页面枚举 TP、PP、CP、EP、b、m、ZeRO、重计算与调度的每一种组合，留下放得下的，把最忙的卡不到显存 {safe} 的排在前面，再按估算的每步时间排序；与最快的方案相差不到 {band} 的算平手（估算分不出），平手时按实践者会选的排：先不切分序列（不用 CP），再并行维度少的，再 PP 小的（TP 总在节点内），下面逐条说明第 1 名为什么排第一。时间是估算：真实卡上每个矩阵乘按一张 H200 实测的、它这个形状的速率，注意力按块长，访存型内核按拷贝带宽，再加优化器更新（课程卡只有一个固定算力和屋顶线）；气泡与关键路径上的通信（含每步延迟）照实计入，DP 通信只能藏在反向传播后面。搜索默认用 H100 SXM。",
        en: "Give a model, a card, a cluster and a global batch: the page enumerates every combination of TP, PP, CP, EP, b, m, ZeRO, recompute and schedule, keeps those that fit, puts those whose busiest card stays under {safe} of its memory first, and ranks by estimated step time; plans within {band} of the quickest are a tie (the estimate cannot tell them apart), and a tie goes to the plan a practitioner would run: no CP first, then fewer parallel dimensions, then the smallest PP (TP is always inside a node); below, why the first plan ranks first. The time is an estimate: on a real card each GEMM at the rate measured on an H200 for its shape, attention by chunk length, memory-bound kernels at the copy bandwidth and the optimizer step (the lesson's card has one flat rate and the roofline), plus the bubble and the communication on the critical path (latency per step included); DP traffic can hide only behind the backward pass. The search starts on the H100 SXM.",
    };

    /// Counts of the search.
    pub const COUNTS: Text = Text {
        zh: "考虑了 {considered} 套方案，其中 {valid} 套成立，{fitting} 套放得下；下表按估算的每步时间列出最快的 {shown} 套。",
        en: "{considered} plans considered, {valid} valid, {fitting} fit; the table lists the {shown} quickest by estimated step time.",
    };
    /// Nothing fits.
    pub const NOTHING_FITS: Text = Text {
        zh: "考虑了 {considered} 套方案，其中 {valid} 套成立，但没有一套放得进每卡 {capacity}：这个模型在这些卡上放不下。下面灰色的是最接近的几套和它们超出的量。",
        en: "{considered} plans considered, {valid} valid, and none fits in {capacity} per card: this model does not fit on these cards. Greyed below: the nearest plans and how far over they are.",
    };
    /// Nothing is valid at all.
    pub const NOTHING_VALID: Text = Text {
        zh: "考虑了 {considered} 套方案，没有一套成立（卡数、专家数与全局批凑不出整数的切分）。",
        en: "{considered} plans considered and none is valid (the cards, experts and global batch give no whole split).",
    };
    /// Every plan found is tight.
    pub const ALL_TIGHT: Text = Text {
        zh: "没有一套方案能把最忙的卡压到显存的 {safe} 以下：下面的方案都偏紧，公开的 454 次实测（Fujii 等 2024）只在 {safe} 以下从未爆显存。",
        en: "No plan keeps its busiest card under {safe} of its memory: every plan below is tight, and the 454 published runs (Fujii et al. 2024) never ran out of memory only below {safe}.",
    };
    /// Tight plans rank after the others.
    pub const MARGIN_RULE: Text = Text {
        zh: "其中 {comfortable} 套最忙的卡不到显存的 {safe}，排在偏紧的方案前面（Fujii 等 2024：454 次实测在 {safe} 以下从未爆显存）。",
        en: "{comfortable} of them keep the busiest card under {safe} of its memory and rank before the tight ones (Fujii et al. 2024: 454 runs never ran out of memory below {safe}).",
    };
    /// The first plan splits the sequence: what the best plan without CP loses.
    pub const WITHOUT_CP: Text = Text {
        zh: "第 1 名把序列切成 CP {cp} 份。不切序列（CP 1）最快的是 {plan}，每步 {step}，慢 {gap}；差得最多的一项是{term}（{by}）。",
        en: "The first plan splits the sequence over CP {cp}. The quickest plan without CP is {plan}, {step} a step, {gap} slower; the term that differs most is {term} ({by}).",
    };
    /// The first plan splits the sequence and no plan without CP fits.
    pub const ONLY_WITH_CP: Text = Text {
        zh: "第 1 名把序列切成 CP {cp} 份：不切序列的方案一套也放不下。",
        en: "The first plan splits the sequence over CP {cp}: no plan without CP fits.",
    };
    /// The rival the first plan is compared with: the second plan.
    pub const RIVAL_SECOND: Text = Text {
        zh: "第 2 名",
        en: "the second plan",
    };
    /// The rival: the quickest plan, listed at `rank` (`plan`: its degrees).
    pub const RIVAL_QUICKEST: Text = Text {
        zh: "估算最快的第 {rank} 名（{plan}）",
        en: "the quickest plan by the estimate, #{rank} ({plan})",
    };
    /// The rival: the quickest plan, not in the table.
    pub const RIVAL_QUICKEST_UNLISTED: Text = Text {
        zh: "估算最快的方案（{plan}，每步 {step}，不在表中）",
        en: "the quickest plan by the estimate ({plan}, {step} a step, not in the table)",
    };
    /// Why the first leads: the safe share.
    pub const WHY_UNDER_SAFE_SHARE: Text = Text {
        zh: "第 1 名最忙的卡用到显存的 {share}，不到 {safe}；{rival}用到 {rival_share}（偏紧）：留有余量的方案排在前面。",
        en: "The first plan's busiest card fills {share} of its memory, under {safe}; {rival} fills {rival_share} (tight): plans with room to spare come first.",
    };
    /// Why the first leads: quicker, beyond the band.
    pub const WHY_QUICKER: Text = Text {
        zh: "第 1 名比{rival}每步快 {gap}（{share}）；{rival}比最快的方案慢 {over}，超出估算能分辨的 {band}，不算平手。差得最多的一项是{term}（{by}）。",
        en: "The first plan is {gap} ({share}) a step quicker than {rival}, which is {over} slower than the quickest plan: beyond the {band} the estimate can tell, not a tie. The term that differs most is {term} ({by}).",
    };
    /// A tie: how far apart the two are, within the band.
    pub const WHY_TIE: Text = Text {
        zh: "第 1 名与{rival}相差 {gap}（一步的 {share}），都在最快方案的 {band} 之内，估算分不出快慢，算平手。",
        en: "The first plan and {rival} are {gap} apart ({share} of a step), both within {band} of the quickest plan, closer than the estimate can tell: a tie.",
    };
    /// The tie goes to the plan without CP.
    pub const WHY_TIE_NO_CP: Text = Text {
        zh: "平手时不切分序列的方案排在前面：后者用 CP {cp}，要把每条序列切成 2 × {cp} 块、环形交换 K/V（Llama 3 在 8K 上用 CP 1）。",
        en: "A tie goes to the plan that does not split the sequence: the latter runs CP {cp}, cutting every sequence into 2 × {cp} chunks with a ring of K/V exchanges (Llama 3 ran CP 1 at 8K tokens).",
    };
    /// The tie goes to fewer parallel dimensions.
    pub const WHY_TIE_FEWER_DIMENSIONS: Text = Text {
        zh: "平手时并行维度少的方案排在前面：{dims} 个对 {rival_dims} 个（TP、CP、PP、EP 中大于 1 的；DP 不算，模型放得下之后都靠它扩展）。",
        en: "A tie goes to the plan with fewer parallel dimensions: {dims} against {rival_dims} (TP, CP, PP and EP above 1; DP is not counted, every plan scales with it once the model fits).",
    };
    /// The tie goes to fewer pipeline stages.
    pub const WHY_TIE_SMALLER_PP: Text = Text {
        zh: "平手时流水线段数少的排在前面：PP {pp} 对 PP {rival_pp}（先用节点内的 TP，再用跨节点的 PP：Narayanan 等 2021 §3.3）。",
        en: "A tie goes to fewer pipeline stages: PP {pp} against PP {rival_pp} (TP inside a node, then PP across nodes: Narayanan et al. 2021 §3.3).",
    };
    /// The tie, between plans alike, goes to the quicker.
    pub const WHY_TIE_QUICKER: Text = Text {
        zh: "第 1 名与{rival}的 CP、并行维度数和 PP 都一样，又都在最快方案的 {band} 之内：平手时快的排在前面，快 {gap}（一步的 {share}）。",
        en: "The first plan and {rival} are alike in CP, parallel dimensions and PP, both within {band} of the quickest plan: the tie goes to the quicker, by {gap} ({share} of a step).",
    };
    /// Same time and practice: less memory.
    pub const WHY_LESS_MEMORY: Text = Text {
        zh: "第 1 名与{rival}估算时间相同，第 1 名最忙的卡少用 {by} 显存。",
        en: "The first plan and {rival} take the same estimated time; the first uses {by} less on its busiest card.",
    };
    /// Equal in everything: enumeration order.
    pub const WHY_ENUMERATION: Text = Text {
        zh: "第 1 名与{rival}的时间和显存都一样，按枚举顺序排。",
        en: "The first plan and {rival} are equal in time and memory; they are ranked in enumeration order.",
    };
    /// The margin, as the term CP buys (in [`WITHOUT_CP`]).
    pub const CP_MARGIN: Text = Text {
        zh: "它最忙的卡用到显存的 {share}，超过 {safe}",
        en: "its busiest card fills {share} of its memory, over {safe}",
    };
    /// The load button of a row.
    pub const LOAD: Text = Text {
        zh: "装入 {cards} 卡网格",
        en: "Load into the {cards}-card grid",
    };
    /// Why a row cannot be loaded.
    pub const NO_GRID: Text = Text {
        zh: "页面的网格只有 {small} 卡和 {large} 卡（每节点 {node} 卡），滑块只到 TP {tp}、PP/CP {degree}、m {m}、b 1、v {v}、序列 {seq_min}–{seq_max} 的 2 的幂：这套只能在表里看。",
        en: "The page's grids have {small} and {large} cards ({node} a node), and their controls reach TP {tp}, PP/CP {degree}, m {m}, b 1, v {v} and sequences of {seq_min}–{seq_max} in powers of two: this plan can only be read here.",
    };
}
