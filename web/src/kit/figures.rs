//! The figures beside a grid: traffic per dimension with its collective, group, bytes, link
//! and time, the pipeline bubble, and the core's warnings (memory is [`crate::kit::memory_figure`]).
//! Each figure carries its raw value in a `data-*` attribute for the browser tests.

use leptos::prelude::*;
use parallel_core::estimate::{MEGATRON_BUCKET_PARAMS, MEGATRON_BUCKET_PARAMS_PER_RANK};
use parallel_core::explain::Figure;
use parallel_core::numbers::millions;
use parallel_core::{Dim, Report, Traffic};

use crate::kit::dim_rows::dim_rows;
use crate::kit::explain_button::ExplainButton;
use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::table_scroll::{head_cells, TableScroll};
use crate::kit::text::Text;
use crate::kit::vocab;
use crate::state::lab::{part, GridLab};

/// The sentences of the figures.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The traffic table's title with a card selected.
        pub const CARD_TRAFFIC: Text = Text {
            zh: "卡 {card} 每步发出的通信（按它自己的组与链路）",
            en: "Card {card} sends per step (its own groups and links)",
        };
        /// The traffic table's title with no card selected.
        pub const PLAN_TRAFFIC: Text = Text {
            zh: "每卡每步通信（任一组跨机即记 InfiniBand）",
            en: "Traffic per card per step (InfiniBand when any group crosses nodes)",
        };

        /// Under the traffic table: what the step-time estimate adds to its bytes.
        pub const ESTIMATE_ADDS: Text = Text {
            zh: "这张表沿用课上的口径（字节 ÷ 带宽）。步时估算在此之上再加：每步通信的延迟 α、CP 的反向（字节 ×{cp_bytes}）、全量重计算重复的 TP 调用（字节 ×{tp_bytes}），DP 按 {bucket} 分桶（ZeRO-2/3 每个 micro-batch 都要同步梯度分片，ZeRO-3 还要每次重新聚齐权重）；在有实测内核表的真实卡上按 Megatron-Core 发送：PP 每卡只发自己的序列并行分片（字节 ÷ t；关掉序列并行则发整份），DP 每桶 max({bucket_min}, {bucket_rank}·D) 个参数；各维在估算里的时间见右边的估算。",
            en: "This table keeps the lesson's accounting (bytes ÷ bandwidth). The step-time estimate adds to it: a latency α per collective step, CP's backward (bytes × {cp_bytes}), full recompute's repeated TP calls (bytes × {tp_bytes}), DP in {bucket} buckets (ZeRO-2/3 sync their gradient shard every micro-batch, ZeRO-3 also gathers the weights again each time); on a real card with measured kernel tables it sends what Megatron-Core sends: PP each card's sequence-parallel shard (bytes ÷ t; the whole tensor with sequence parallelism off), DP in buckets of max({bucket_min}, {bucket_rank}·D) parameters; each dimension's time in the estimate is listed with the estimate.",
        };

        /// Under the traffic table with CP: why the DP row's group is d·c.
        pub const DP_WITH_CP: Text = Text {
            zh: "有 CP 时，DP 行的组是 DP × CP = {dp} × {cp} = {group} 张卡：同一段序列被切到 CP 组的各卡上，它们拿着同一份权重，梯度要在这 {group} 张卡上一起平均。",
            en: "With CP, the DP row's group is DP × CP = {dp} × {cp} = {group} cards: the sequence is split over the CP group's cards, which hold the same weights, so gradients are averaged over all {group}.",
        };
    }
}

/// `text` filled with one dimension's traffic: `{dim}`, `{bytes}` per card per step, `{link}`
/// and `{time}` at the link's bandwidth.
pub fn traffic_sentence(text: &Text, lang: Lang, t: &Traffic) -> String {
    text.fill(
        lang,
        &[
            ("dim", &vocab::dim(lang, t.dim)),
            ("bytes", &format::bytes(t.bytes)),
            ("link", &vocab::link(lang, t.link)),
            ("time", &format::seconds(t.seconds)),
        ],
    )
}

/// The traffic table's title: the selected card's own traffic, or the plan's.
fn traffic_heading(lang: Lang, selected: Option<u32>) -> String {
    match selected {
        Some(card) => text::CARD_TRAFFIC.fill(lang, &[("card", &card)]),
        None => text::PLAN_TRAFFIC.get(lang).to_string(),
    }
}

/// One row of the traffic table: the row of `dim`, kept while the plan has that dimension. Its
/// figures come from a memo of the row alone, so a slider's move writes the text and the
/// attributes that changed and rebuilds no row.
fn traffic_row(dim: Dim, traffic: Signal<Vec<Traffic>>, lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let row = Memo::new(move |_| traffic.with(|rows| rows.iter().find(|t| t.dim == dim).copied()));
    // Every figure of the row is one kind of closure (see `MemoryFigure`).
    let show = move |read: fn(&Traffic, Lang) -> String| {
        move || row.with(|t| t.as_ref().map(|t| read(t, lang.get())).unwrap_or_default())
    };
    let id = dim.as_str();
    view! {
        <tr
            data-testid=format!("traffic-{id}")
            data-bytes=show(|t, _| t.bytes.get().to_string())
            data-link=show(|t, _| t.link.as_str().to_string())
            data-group-size=show(|t, _| t.group_size.to_string())
            data-collective=show(|t, _| t.collective.as_str().to_string())
            class=show(|t, _| format!("traffic-row link-{}", t.link.as_str()))
        >
            <th scope="row">
                <span class=format!("swatch swatch-{id}") aria-hidden="true"></span>
                {move || vocab::dim_traffic(lang.get(), dim)}
            </th>
            <td class="num">{show(|t, _| format::bytes(t.bytes))}</td>
            <td class=show(|t, _| format!("link link-{}", t.link.as_str()))>
                {show(|t, lang| vocab::link(lang, t.link).to_string())}
            </td>
            <td class="num">{show(|t, _| format::seconds(t.seconds))}</td>
            <td>{show(|t, lang| vocab::collective(lang, t.collective).to_string())}</td>
            <td class="num">{show(|t, _| t.group_size.to_string())}</td>
            <td class="why">
                <ExplainButton figure=Figure::Traffic(dim) lab=lab />
                " "
                <ExplainButton figure=Figure::TrafficTime(dim) lab=lab />
            </td>
        </tr>
    }
}

/// The traffic table's column heads: the bytes and their link first, so that a phone shows
/// them without scrolling the table; then the time, and how they are sent.
const TRAFFIC_HEADS: &[(&str, &str, bool)] = &[
    ("维度", "Dimension", false),
    ("每卡每步", "Bytes / card / step", false),
    ("链路", "Link", false),
    ("按带宽的时间", "Time at link bandwidth", false),
    ("集体通信", "Collective", false),
    ("组大小", "Group", false),
    ("怎么算（字节 / 时间）", "Why (bytes / time)", false),
];

/// Traffic per dimension: of the selected card's own groups, or plan-wide when none is. The
/// rows are keyed by their dimension (`dim_rows`): one is added or removed only when the
/// dimensions with traffic change.
#[component]
pub fn TrafficTable(
    #[prop(into)] traffic: Signal<Vec<Traffic>>,
    #[prop(into)] selected: Signal<Option<u32>>,
    /// The grid whose figures the explanations open on.
    lab: GridLab,
) -> impl IntoView {
    let lang = use_lang();
    let dims = part(move || traffic.with(|rows| rows.iter().map(|t| t.dim).collect::<Vec<Dim>>()));
    // With CP, the DP row's group is every card holding the same weights: d·c of them.
    let dp_group = part(move || {
        let cp = lab.plan.with(|p| p.degrees().cp);
        let dp = lab.report.with(|r| r.dp);
        let group =
            traffic.with(|rows| rows.iter().find(|t| t.dim == Dim::Dp).map(|t| t.group_size));
        group.filter(|_| cp > 1).map(|group| (dp, cp, group))
    });
    let empty = move || {
        dims.with(Vec::is_empty).then(|| {
            view! {
                <tr><td colspan="7" class="empty">
                    <T zh="这个方案没有卡间通信（每一维都是 1）。" en="No traffic between cards: every degree is 1." />
                </td></tr>
            }
        })
    };
    view! {
        <div class="figure traffic-figure" data-testid="traffic-table">
            <h3 class="figure-title">{move || traffic_heading(lang.get(), selected.get())}</h3>
            <TableScroll zh="每卡通信表" en="Traffic table">
                <table class="traffic">
                    <thead><tr>{head_cells(TRAFFIC_HEADS)}</tr></thead>
                    <tbody>
                        {empty}
                        {dim_rows(dims, move |dim| traffic_row(dim, traffic, lab))}
                    </tbody>
                </table>
            </TableScroll>
            {move || dp_group.get().map(|(dp, cp, group)| view! {
                <p class="secondary" data-testid="traffic-dp-group">
                    {move || dp_with_cp(lang.get(), dp, cp, group)}
                </p>
            })}
            <p class="secondary" data-testid="traffic-estimate-note">
                {move || estimate_adds(lang.get())}
            </p>
        </div>
    }
}

/// Why the DP row's group is larger than DP with CP: the core's d, c and group, side by side.
fn dp_with_cp(lang: Lang, dp: u32, cp: u32, group: u32) -> String {
    text::DP_WITH_CP.fill(lang, &[("dp", &dp), ("cp", &cp), ("group", &group)])
}

/// What the estimate adds to the traffic table's bytes, its factors from the core's constants.
fn estimate_adds(lang: Lang) -> String {
    let [_, tp_bytes, cp_bytes, bucket, _] = format::estimate_factors();
    text::ESTIMATE_ADDS.fill(
        lang,
        &[
            ("cp_bytes", &cp_bytes),
            ("tp_bytes", &tp_bytes),
            ("bucket", &bucket),
            ("bucket_min", &millions(MEGATRON_BUCKET_PARAMS)),
            ("bucket_rank", &millions(MEGATRON_BUCKET_PARAMS_PER_RANK)),
        ],
    )
}

/// The pipeline bubble: (p−1)/m and its share of the step.
#[component]
pub fn BubbleFigure(
    #[prop(into)] report: Signal<Report>,
    /// The grid whose figures the explanations open on.
    lab: GridLab,
) -> impl IntoView {
    let bubble = part(move || report.with(|r| (r.bubble.ratio, r.bubble.share)));
    let ratio = move || bubble.get().0;
    let share = move || bubble.get().1;
    view! {
        <div class="figure bubble-figure">
            <h3 class="figure-title"><T zh="流水线气泡" en="Pipeline bubble" /></h3>
            <p>
                <span class="big" data-testid="bubble" data-ratio=move || ratio().to_string()>
                    {move || if ratio() == 0.0 { "—".to_string() } else { format::percent(ratio()) }}
                </span>
                <span class="caption"><T zh=" 空等 ÷ 计算 = (p−1)/m" en=" idle ÷ compute = (p−1)/m" /></span>
                " "
                <ExplainButton figure=Figure::BubbleRatio lab=lab />
            </p>
            <p class="secondary">
                <span data-testid="bubble-share" data-share=move || share().to_string()>
                    <T zh="占整步时间 " en="Share of the step " />
                    {move || format::percent(share())}
                </span>
                " "
                <ExplainButton figure=Figure::BubbleShare lab=lab />
            </p>
        </div>
    }
}

/// The core's warnings for a still-valid plan, in the page's language.
#[component]
pub fn Warnings(#[prop(into)] report: Signal<Report>) -> impl IntoView {
    let lang = use_lang();
    // The warnings' text: the list is drawn again only when it changes.
    let texts = part(move || {
        let lang = lang.get();
        report.with(|r| {
            r.warnings
                .iter()
                .map(|&w| warning_text(lang, w))
                .collect::<Vec<_>>()
        })
    });
    move || {
        texts.with(|texts| {
            (!texts.is_empty()).then(|| {
                let items = texts
                    .iter()
                    .map(|text| view! { <li>{text.clone()}</li> })
                    .collect_view();
                view! { <ul class="warnings" data-testid="warnings">{items}</ul> }
            })
        })
    }
}

/// A warning in `lang`: English is the core's `Display`, Chinese is built from its numbers.
pub fn warning_text(lang: Lang, warning: parallel_core::Warning) -> String {
    match lang {
        Lang::En => warning.to_string(),
        Lang::Zh => warning_zh(warning),
    }
}

/// The Chinese text of a warning, built from its numbers.
pub fn warning_zh(warning: parallel_core::Warning) -> String {
    use parallel_core::Warning;
    match warning {
        Warning::TpAcrossNodes { tp, gpus_per_node } => format!(
            "TP {tp} 超过一台机的 {gpus_per_node} 张卡：TP 组跨机，它的 all-reduce 走 InfiniBand。"
        ),
        Warning::LayersNotDivisible { layers, pp } => format!(
            "{layers} 层不能被 PP {pp} 整除：每段按平均 {:.2} 层计。",
            parallel_core::average_layers(layers, pp)
        ),
        Warning::ZigzagPadding { seq_len, .. } => format!(
            "序列长度 {seq_len} 不能切成 2·CP = {} 块：zigzag 需要补齐。",
            warning.zigzag_chunks().unwrap_or_default()
        ),
        Warning::ExpertsWithoutSequenceParallel { tp, ep } => format!(
            "EP {ep} 配 TP {tp} 却关了序列并行：Megatron-Core 照样能跑，但会警告专家并行和张量并行一起用时要开序列并行。"
        ),
        Warning::HostMemoryOver {
            per_node_gb,
            host_memory_gb,
        } => format!(
            "一台机上卸载的优化器状态占 {per_node_gb:.1} GB，超过它的 {host_memory_gb} GB 主机内存。"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        assert_each_lang_uses_all(text::ALL, |lang| {
            traffic_heading(lang, Some(3));
            traffic_heading(lang, None);
            estimate_adds(lang);
            dp_with_cp(lang, 1, 8, 8);
        });
        assert!(estimate_adds(Lang::En).contains("(bytes × 3/2), DP in 50 MB buckets"));
        assert_eq!(
            traffic_heading(Lang::En, Some(3)),
            "Card 3 sends per step (its own groups and links)"
        );
        assert_eq!(
            traffic_heading(Lang::Zh, Some(0)),
            "卡 0 每步发出的通信（按它自己的组与链路）"
        );
    }
}
