//! The sentences of the search (its lead and its results), Chinese and English side by side.

use crate::kit::text::Text;

/// The search panel's lead: what it enumerates and how it ranks, with the safe share of a
/// card (`safe`).
pub const LEAD: Text = Text {
    zh: "给出模型、卡型、集群和全局批，页面枚举 TP、PP、CP、EP、b、m、ZeRO、重计算与调度的每一种组合，留下放得下的，把最忙的卡不到显存 {safe} 的排在前面，再按估算的每步时间排序（估算差得比它能分辨的还小时，不切分序列的方案排在前面，下面的说明给出差多少；时间相同时先用节点内的 TP，再用跨节点的 PP）。时间是估算：真实卡上每个矩阵乘按一张 H200 实测的、它这个形状的速率，注意力按块长，访存型内核按拷贝带宽，再加优化器更新（课程卡只有一个固定算力和屋顶线）；气泡与关键路径上的通信（含每步延迟）照实计入，DP 通信只能藏在反向传播后面。搜索默认用 H100 SXM。",
    en: "Give a model, a card, a cluster and a global batch: the page enumerates every combination of TP, PP, CP, EP, b, m, ZeRO, recompute and schedule, keeps those that fit, puts those whose busiest card stays under {safe} of its memory first, and ranks by estimated step time (a plan that does not split the sequence first when the gap is smaller than the estimate can tell, by how much said below; at equal time, TP inside a node before PP across nodes). The time is an estimate: on a real card each GEMM at the rate measured on an H200 for its shape, attention by chunk length, memory-bound kernels at the copy bandwidth and the optimizer step (the lesson's card has one flat rate and the roofline), plus the bubble and the communication on the critical path (latency per step included); DP traffic can hide only behind the backward pass. The search starts on the H100 SXM.",
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
/// Why the first beats the second on time.
pub const AHEAD_TIME: Text = Text {
    zh: "第 1 名比第 2 名每步快 {gap}，差得最多的一项是{term}（{by}）。",
    en: "The first plan is {gap} a step quicker than the second; the term that differs most is {term} ({by}).",
};
/// Why the first beats the second on memory.
pub const AHEAD_MEMORY: Text = Text {
    zh: "第 1、2 名估算时间相同，第 1 名最忙的卡少用 {by} 显存。",
    en: "The first two plans take the same estimated time; the first uses {by} less on its busiest card.",
};
/// Why the first beats the second: the margin.
pub const AHEAD_MARGIN: Text = Text {
    zh: "第 1 名最忙的卡不到显存的 {safe}，第 2 名超过 {safe}（偏紧）：留有余量的方案排在前面。",
    en: "The first plan's busiest card stays under {safe} of its memory and the second's does not (tight): plans with room to spare come first.",
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
/// Why the first beats the second: equally quick, and it does not split the sequence.
pub const AHEAD_WITHOUT_CP: Text = Text {
    zh: "第 1 名不切分序列；第 2 名用 CP {cp}，只快 {gap}（一步的 {share}），不到 {band}，算作一样快：一样快时，不切分序列的方案排在前面，省掉 K/V 的环形交换。",
    en: "The first plan does not split the sequence; the second, with CP {cp}, is quicker by only {gap} ({share} of a step), under {band}, which counts as equally quick: at equal time the plan without CP comes first and saves the ring of K/V exchanges.",
};
/// A tie.
pub const AHEAD_TIE: Text = Text {
    zh: "第 1、2 名的时间和显存都一样，按枚举顺序排。",
    en: "The first two plans are equal in time and memory; they are ranked in enumeration order.",
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

#[cfg(test)]
pub const ALL: &[&Text] = &[
    &LEAD,
    &COUNTS,
    &NOTHING_FITS,
    &NOTHING_VALID,
    &AHEAD_TIME,
    &AHEAD_MEMORY,
    &AHEAD_MARGIN,
    &ALL_TIGHT,
    &MARGIN_RULE,
    &AHEAD_TIE,
    &AHEAD_WITHOUT_CP,
    &WITHOUT_CP,
    &ONLY_WITH_CP,
    &LOAD,
    &NO_GRID,
];
