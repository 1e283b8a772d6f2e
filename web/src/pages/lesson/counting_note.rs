//! "How these numbers are counted": the rules of SPEC §4–§6 in the page's words, what they
//! leave out, and the units. The formulas are shown as text; they are computed only in
//! `parallel-core`. Bandwidths and card size are read from the core's defaults; what is left
//! out is the core's list (`parallel_core::omissions`), topic by topic.

use leptos::prelude::*;
use parallel_core::omissions::{Omission, Topic};
use parallel_core::{PlanConfig, GB};

use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::lesson_section::LessonSection;
use crate::kit::table_scroll::TableScroll;
use crate::pages::lesson::intro::OmissionList;
use parallel_core::link::Section;

/// The list of what a topic's figures leave out, under its "Not counted" line.
fn not_counted(topic: Topic, test_id: &'static str) -> impl IntoView {
    view! {
        <p class="ignored"><strong><T zh="没算的：" en="Not counted:" /></strong></p>
        <OmissionList items=topic.omissions().collect() class="left-out ignored" test_id=test_id />
    }
}

/// The sentences of the note that carry the core's defaults.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// How time is counted, with the two bandwidths.
        pub const LINKS: Text = Text {
            zh: "时间 = 字节 ÷ 链路带宽。机内 NVLink 每卡 {nvlink} GB/s，跨机 InfiniBand 每卡 {ib} \
                 GB/s。一个组的卡都在同一台机里就走 NVLink，否则走 IB；不选卡时，\
                 某一维只要有一个组跨机，就整行记 IB。",
            en: "Time = bytes ÷ link bandwidth. NVLink inside a machine gives {nvlink} GB/s per \
                 GPU, InfiniBand across machines {ib} GB/s per GPU. A group whose cards share a \
                 machine talks over NVLink, otherwise over IB; with no card selected, a dimension \
                 is marked IB as soon as any of its groups crosses machines.",
        };
        /// The units, with the card size.
        pub const UNITS: Text = Text {
            zh: "GB = {gb} 字节（十进制），显示一位小数；写 GiB、MiB 的地方按 2³⁰、2²⁰ 字节。\
                 一张卡按 {card} 计。激活和通信的张量都按 BF16（2 字节）。",
            en: "GB = {gb} bytes (decimal), shown with one decimal; where GiB or MiB is written it \
                 means 2³⁰ or 2²⁰ bytes. A card holds {card}. Activations and communicated tensors \
                 are BF16 (2 bytes).",
        };
    }
}

/// The link line: "NVLink 160 GB/s per GPU (inside a machine), InfiniBand 50 GB/s per GPU …".
fn links_line(lang: Lang, config: &PlanConfig) -> String {
    let (nv, ib) = (
        format!("{:.0}", config.nvlink_gbps),
        format!("{:.0}", config.ib_gbps),
    );
    text::LINKS.fill(lang, &[("nvlink", &nv), ("ib", &ib)])
}

/// The units line, with the card size from the core's default config.
fn units_line(lang: Lang, config: &PlanConfig) -> String {
    let card = format::bytes(parallel_core::Bytes::from_gb(config.gpu_memory_gb));
    let gb = format::thousands(GB as u64);
    text::UNITS.fill(lang, &[("gb", &gb), ("card", &card)])
}

/// The note at the bottom of the page.
#[component]
pub fn CountingNote() -> impl IntoView {
    let lang = use_lang();
    let config = PlanConfig::default();
    let links = {
        let config = config.clone();
        move || links_line(lang.get(), &config)
    };
    let units = move || units_line(lang.get(), &config);
    view! {
        <LessonSection section=Section::CountingNote test_id=Section::CountingNote.id() class="counting-note"
            title=("这些数怎么算", "How these numbers are counted")
            lead=("页面上每个显存、通信、气泡的数都出自同一组公式；下面是它们的口径，以及刻意没算的东西。真实系统的吞吐只能实测。", "Every memory, traffic and bubble figure on this page comes from one set of formulas; here is how they count, and what they deliberately leave out. The throughput of a real system can only be measured.")>

            <h3><T zh="这一页先不碰的东西" en="What this page leaves out" /></h3>
            <OmissionList
                items=Omission::ALL.into_iter().filter(|item| item.in_intro()).collect()
                class="left-out"
                test_id="left-out-main"
            />
            <p class="note">
                <T zh="下面逐项说明每类数的口径，每项后面列出它没算的东西。" en="Below, each kind of figure with how it is counted, each followed by what it leaves out." />
            </p>

            <h3><T zh="显存：最忙的那张卡" en="Memory: the busiest card" /></h3>
            <p>
                <T zh="按 ZeRO 论文（Rajbhandari et al. 2019）的账：每个参数 BF16 权重 2 字节、BF16 梯度 2 字节、FP32 主权重与 Adam 两份动量共 12 字节，合计 16 字节（梯度若按 FP32 存就是 18 字节）。模型并行后每卡分到 Ψ = P ÷ (TP·PP)；持有同一份权重的 D = DP·CP 张卡组成 ZeRO 组。"
                   en="Following the ZeRO paper (Rajbhandari et al. 2019): per parameter, BF16 weights take 2 bytes, BF16 gradients 2, and the FP32 master weights with Adam's two moments 12, 16 bytes in all (18 when gradients are kept in FP32). After model parallelism each card holds a shard Ψ = P ÷ (TP·PP); the D = DP·CP cards that hold the same weights form the ZeRO group." />
            </p>
            <TableScroll zh="模型状态账本表" en="Model-state ledger">
                <table class="counting-table">
                    <caption><T zh="每卡模型状态（16 字节账本）" en="Model states per card (16-byte ledger)" /></caption>
                    <thead>
                        <tr>
                            <th scope="col"><T zh="ZeRO 阶段" en="ZeRO stage" /></th>
                            <th scope="col"><T zh="切开的部分" en="What is sharded" /></th>
                            <th scope="col"><T zh="每卡字节" en="Bytes per card" /></th>
                        </tr>
                    </thead>
                    <tbody>
                        <tr><th scope="row">"0"</th><td><T zh="都不切" en="nothing" /></td><td><code>"16·Ψ"</code></td></tr>
                        <tr><th scope="row">"1"</th><td><T zh="优化器状态" en="optimizer states" /></td><td><code>"4·Ψ + 12·Ψ/D"</code></td></tr>
                        <tr><th scope="row">"2"</th><td><T zh="再加梯度" en="plus gradients" /></td><td><code>"2·Ψ + 14·Ψ/D"</code></td></tr>
                        <tr><th scope="row">"3"</th><td><T zh="再加参数" en="plus parameters" /></td><td><code>"16·Ψ/D"</code></td></tr>
                    </tbody>
                </table>
            </TableScroll>
            <p>
                <T zh="激活按 Korthikanti et al. 2022 的记法（TP > 1 时默认带序列并行），每层每个 micro-batch，本地序列 s′ = s ÷ CP："
                   en="Activations follow Korthikanti et al. 2022 (with sequence parallelism whenever TP > 1, by default), per layer and per micro-batch, with the local sequence s′ = s ÷ CP:" />
            </p>
            <ul class="formula-list">
                <li><T zh="全量重计算：只留每层的输入，" en="full recompute: only each layer's input is kept, " /><code>"2·s′·b·h / t"</code></li>
                <li><T zh="选择性重计算：" en="selective recompute: " /><code>"34·s′·b·h / t"</code></li>
                <li>
                    <T zh="不重计算：" en="no recompute: " /><code>"34·s′·b·h / t"</code>
                    <T zh="，每个全注意力层再加注意力分数 " en=", plus the attention scores " /><code>"5·a·s′·s·b / t"</code>
                    <T zh="（线性注意力层不存 s × s 的分数）。" en=" for each full-attention layer (linear-attention layers keep no s × s scores)." />
                </li>
            </ul>
            <p>
                <T zh="关掉序列并行（“更多控件”里）且 TP > 1 时，LayerNorm、Dropout 前后的激活每张卡存完整一份：选择性和不重计算是 "
                   en="With sequence parallelism off (under “more controls”) and TP > 1, every card keeps the activations around LayerNorm and dropout whole: selective and no recompute keep " />
                <code>"(10 + 24/t)·s′·b·h"</code>
                <T zh="，全量重计算是 " en=", full recompute " />
                <code>"2·s′·b·h"</code>
                <T zh="（Korthikanti et al. 2022 表 2）。" en=" (Korthikanti et al. 2022, Table 2)." />
            </p>
            <p>
                <T zh="默认的「课上的均分」只看第一段流水线：L ÷ PP 层，乘以在途的 micro-batch 数——GPipe 是 m，1F1B 是 min(m, p)，interleaved 是 min(m, p)·(1 + (p−1)/(p·v))。「按段计」则逐段记账，每张卡显示自己那一段（见下面第一条）。合计 = 模型状态 + 激活，不超过卡的容量才算放得下。"
                   en="The default, the lesson's even split, looks at the first pipeline stage only: L ÷ PP layers, times the micro-batches in flight, m for GPipe, min(m, p) for 1F1B and min(m, p)·(1 + (p−1)/(p·v)) interleaved. “By stage” keeps the books stage by stage, and every card shows its own stage (see the first item below). Total = model states + activations; a plan fits when the total is within the card." />
            </p>
            {not_counted(Topic::Memory, "not-counted-memory")}

            <h3><T zh="通信：每张卡每步发出的字节" en="Traffic: bytes each card sends per step" /></h3>
            <p>
                <T zh="按 ring 集体通信算一张卡发出的字节，逐维分开记。x = 2·s′·b·h 是一个 micro-batch 的一份 BF16 激活："
                   en="Bytes one card sends under ring collectives, dimension by dimension. x = 2·s′·b·h is one BF16 activation tensor of one micro-batch:" />
            </p>
            <ul class="formula-list">
                <li>"TP · all-reduce: " <code>"m·(L/p)·4·(2(t−1)/t)·x"</code> <T zh="，每层前向 2 次、反向 2 次" en=", two per layer forward and two backward" /></li>
                <li>"CP · all-gather: " <code>"m·(F/p)·((c−1)/c)·2·kv·head_dim·s·b·2"</code> <T zh="，只算 F 个全注意力层的 K、V，只算前向；kv = max（KV 头数 ÷ t, 1）" en=", K and V of the F full-attention layers, forward only; kv = max(KV heads ÷ t, 1)" /></li>
                <li>"PP · p2p: " <code>"m·2·x"</code> <T zh="，前向传激活、反向传梯度（interleaved 再乘 v）" en=", activations forward and gradients backward (times v when interleaved)" /></li>
                <li>
                    "DP: " <code>"2·((D−1)/D)·g·Ψ"</code> <T zh="(ZeRO-0)、" en=" (ZeRO-0), " />
                    <code>"((D−1)/D)·(g+2)·Ψ"</code> <T zh="(ZeRO-1/2)、" en=" (ZeRO-1/2), " />
                    <code>"((D−1)/D)·(4+g)·Ψ"</code> <T zh="（ZeRO-3，参数 all-gather 两次）；g = 2（BF16 梯度）" en=" (ZeRO-3, parameters gathered twice); g = 2 for BF16 gradients" />
                </li>
                <li>"EP · all-to-all: " <code>"m·(M/p)·4·((e−1)/e)·(s·b/(c·t))·k·h·2"</code> <T zh="，只用于 MoE 模型：M 是 MoE 层数，k 是每个 token 选的专家数（top-k）" en=", MoE models only: M is the number of MoE layers, k the experts each token picks (top-k)" /></li>
            </ul>
            <p>{links}</p>
            <p>
                <T zh="流水线气泡 = (p−1)/m（interleaved 为 (p−1)/(v·m)），是空等时间相对计算时间的比例；它占整步的份额是 比例 ÷ （1 + 比例）。"
                   en="Pipeline bubble = (p−1)/m ((p−1)/(v·m) interleaved), idle time relative to compute time; its share of the whole step is ratio ÷ (1 + ratio)." />
            </p>
            {not_counted(Topic::Traffic, "not-counted-traffic")}

            <h3><T zh="步时：一个估算" en="Step time: an estimate" /></h3>
            <p>
                <T zh="每个网格旁的步时把三样加起来：计算（FLOPs ÷ 全部卡的有效算力）、流水线气泡、没被计算掩盖的通信。它是估算，用来比较计划，不是测量。"
                   en="The step time beside each grid adds three things: compute (FLOPs ÷ the effective throughput of all cards), the pipeline bubble, and the communication compute does not hide. It is an estimate for comparing plans, not a measurement." />
            </p>
            {not_counted(Topic::Estimate, "not-counted-estimate")}

            <h3><T zh="单位" en="Units" /></h3>
            <p>{units}</p>
        </LessonSection>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let config = PlanConfig::default();
        assert_each_lang_uses_all(text::ALL, |lang| {
            links_line(lang, &config);
            units_line(lang, &config);
        });
    }

    #[test]
    fn lines_read_the_core_defaults() {
        let config = PlanConfig::default();
        let en = links_line(Lang::En, &config);
        assert!(en.contains("160 GB/s") && en.contains("50 GB/s"), "{en}");
        let units = units_line(Lang::En, &config);
        assert!(
            units.contains("1,000,000,000 bytes") && units.contains("80.0 GB"),
            "{units}"
        );
        assert!(units_line(Lang::Zh, &config).contains("字节"));
    }
}
