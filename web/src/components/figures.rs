//! The figures beside a grid: per-card memory against the card, traffic per dimension with
//! its collective, group, bytes, link and time, the pipeline bubble, and the core's warnings.
//! Each figure carries its raw value in a `data-*` attribute for the browser tests.

use leptos::prelude::*;
use parallel_core::explain::Figure;
use parallel_core::{Bytes, Dim, Memory, Report, Traffic};

use crate::components::explain::explain_button;
use crate::components::table_scroll::{head_cells, table_scroll_markup};
use crate::format::{self, escape_markup};
use crate::i18n::{use_lang, Lang};
use crate::lab::{part, GridLab};
use crate::live::{live, Fill, Root};
use crate::vocab;

/// The sentences of the figures.
mod text {
    use crate::text::Text;

    /// The memory bar, read out (its `aria-label`).
    pub const MEMORY_BAR: Text = Text {
        zh: "模型状态 {states} + 激活 {activations} = {total} / {capacity}",
        en: "model states {states} + activations {activations} = {total} / {capacity}",
    };
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

    /// The memory figure's title with the lesson's even split.
    pub const MEMORY_EVEN: Text = Text {
        zh: "每卡显存（最忙的卡：第一段流水线）",
        en: "Memory per card (the busiest: first pipeline stage)",
    };
    /// The memory figure's title stage by stage: the busiest stage, named.
    pub const MEMORY_BUSIEST: Text = Text {
        zh: "每卡显存（按段计：最忙的是第 {stage} 段）",
        en: "Memory per card (stage by stage: the busiest is stage {stage})",
    };

    /// An MoE model's model states, split: the routed experts and the dense rest.
    pub const EXPERT_SPLIT: Text = Text {
        zh: "其中路由专家 {experts}，稠密部分 {dense}",
        en: "of which routed experts {experts}, dense part {dense}",
    };

    #[cfg(test)]
    pub const ALL: &[&Text] = &[
        &MEMORY_BAR,
        &CARD_TRAFFIC,
        &PLAN_TRAFFIC,
        &MEMORY_EVEN,
        &MEMORY_BUSIEST,
        &EXPERT_SPLIT,
    ];
}

/// The memory bar in words: model states + activations = total / capacity.
fn memory_label(lang: Lang, m: &Memory) -> String {
    text::MEMORY_BAR.fill(
        lang,
        &[
            ("states", &m.model_states),
            ("activations", &m.activations),
            ("total", &m.total),
            ("capacity", &m.capacity),
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

/// An MoE model's model states split into the routed experts and the dense rest (both the
/// core's figures).
fn expert_split(lang: Lang, experts: Bytes, dense: Bytes) -> String {
    text::EXPERT_SPLIT.fill(lang, &[("experts", &experts), ("dense", &dense)])
}

/// The memory figure's title: the even split's first stage, or the busiest stage by number.
fn memory_title(lang: Lang, busiest: Option<u32>) -> String {
    match busiest {
        None => text::MEMORY_EVEN.get(lang).to_string(),
        Some(stage) => text::MEMORY_BUSIEST.fill(lang, &[("stage", &stage)]),
    }
}

/// The memory figure's markup: its words in `lang`, its figures in slots (with the routed
/// experts' line when `split`).
fn memory_markup(lang: Lang, split: bool, gpus: u32) -> String {
    let why = |figure| explain_button(lang, figure, gpus);
    let experts = if split {
        "<dd class=\"memory-split\" data-testid=\"mem-experts\" data-slot=\"experts\"></dd>"
    } else {
        ""
    };
    format!(
        "<h3 class=\"figure-title\" data-testid=\"memory-title\" data-slot=\"title\"></h3>\
         <div class=\"memory-bar\" role=\"img\" data-slot=\"bar\">\
         <span class=\"bar-states\" data-slot=\"bar-states\"></span>\
         <span class=\"bar-activations\" data-slot=\"bar-activations\"></span>\
         <span class=\"bar-capacity\" data-slot=\"bar-capacity\"></span></div>\
         <dl class=\"memory-numbers\">\
         <div><dt>{} {}</dt><dd data-testid=\"mem-states\" data-slot=\"states\"></dd>{experts}</div>\
         <div><dt>{} {}</dt><dd data-testid=\"mem-activations\" data-slot=\"activations\"></dd></div>\
         <div class=\"memory-total\"><dt>{} {}</dt><dd data-testid=\"mem-total\" data-slot=\"total\">\
         <span data-slot=\"total-text\"></span> <strong class=\"fit-verdict\" data-slot=\"verdict\"></strong></dd></div>\
         </dl>",
        lang.pick("模型状态", "Model states"),
        why(Figure::ModelStates),
        lang.pick("激活", "Activations"),
        why(Figure::Activations),
        lang.pick("合计", "Total"),
        why(Figure::Total),
    )
}

/// What the memory figure shows of `m`.
fn memory_fills(
    lang: Lang,
    m: &Memory,
    busiest: Option<u32>,
    experts: Option<(Bytes, Bytes)>,
) -> Vec<Fill> {
    let scale = m.total.get().max(m.capacity.get());
    let share = |part: f64| format!("{:.2}%", 100.0 * part / scale);
    let raw = |b: Bytes| Some(b.get().to_string());
    let class = if m.fits {
        "figure memory-figure"
    } else {
        "figure memory-figure over"
    };
    let mut fills = vec![
        Fill::attr("", "class", Some(class.to_string())),
        Fill::attr(
            "title",
            "data-busiest-stage",
            busiest.map(|s| s.to_string()),
        ),
        Fill::text("title", memory_title(lang, busiest)),
        Fill::attr("bar", "aria-label", Some(memory_label(lang, m))),
        Fill::style("bar-states", "width", share(m.model_states.get())),
        Fill::style("bar-activations", "width", share(m.activations.get())),
        Fill::style("bar-capacity", "left", share(m.capacity.get())),
        Fill::attr("states", "data-bytes", raw(m.model_states)),
        Fill::text("states", format::bytes(m.model_states)),
        Fill::attr("activations", "data-bytes", raw(m.activations)),
        Fill::text("activations", format::bytes(m.activations)),
        Fill::attr("total", "data-bytes", raw(m.total)),
        Fill::attr("total", "data-fits", Some(m.fits.to_string())),
        Fill::text(
            "total-text",
            format!("{} / {}", format::bytes(m.total), format::bytes(m.capacity)),
        ),
        Fill::text(
            "verdict",
            if m.fits {
                lang.pick("✓ 放得下", "✓ fits")
            } else {
                lang.pick("✗ 放不下", "✗ does not fit")
            },
        ),
    ];
    if let Some((e, dense)) = experts {
        fills.push(Fill::attr("experts", "data-bytes", raw(e)));
        fills.push(Fill::text("experts", expert_split(lang, e, dense)));
    }
    fills
}

/// Model states + activations of the busiest card against its capacity. `busiest` names the
/// stage when memory is accounted stage by stage.
#[component]
pub fn MemoryFigure(
    #[prop(into)] memory: Signal<Memory>,
    #[prop(into)] busiest: Signal<Option<u32>>,
    /// The routed experts' and the dense part's model states of the card shown (MoE models), if any.
    #[prop(into)]
    experts: Signal<Option<(Bytes, Bytes)>>,
    /// The grid whose figures the explanations open on.
    lab: GridLab,
) -> impl IntoView {
    let lang = use_lang();
    let gpus = lab.config.with_untracked(|c| c.gpus);
    let template = part(move || memory_markup(lang.get(), experts.with(Option::is_some), gpus));
    let fills =
        part(move || memory.with(|m| memory_fills(lang.get(), m, busiest.get(), experts.get())));
    live(
        Root::Div,
        "figure memory-figure",
        template,
        fills,
        Some(lab),
    )
}

/// The traffic table's markup: its words in `lang`, a row for each of `dims` with its figures
/// in slots.
fn traffic_markup(lang: Lang, dims: &[Dim], gpus: u32) -> String {
    let heads = head_cells(
        lang,
        &[
            ("维度", "Dimension", false),
            ("集体通信", "Collective", false),
            ("组大小", "Group", false),
            ("每卡每步", "Bytes / card / step", false),
            ("链路", "Link", false),
            ("按带宽的时间", "Time at link bandwidth", false),
            ("怎么算（字节 / 时间）", "Why (bytes / time)", false),
        ],
    );
    let rows = if dims.is_empty() {
        format!(
            "<tr><td colspan=\"7\" class=\"empty\">{}</td></tr>",
            lang.pick(
                "这个方案没有卡间通信（每一维都是 1）。",
                "No traffic between cards: every degree is 1."
            )
        )
    } else {
        dims.iter()
            .map(|&dim| {
                let id = dim.as_str();
                format!(
                    "<tr data-testid=\"traffic-{id}\" data-slot=\"row-{id}\">\
                     <th scope=\"row\"><span class=\"swatch swatch-{id}\" aria-hidden=\"true\"></span>{}</th>\
                     <td data-slot=\"collective-{id}\"></td><td class=\"num\" data-slot=\"size-{id}\"></td>\
                     <td class=\"num\" data-slot=\"bytes-{id}\"></td><td data-slot=\"link-{id}\"></td>\
                     <td class=\"num\" data-slot=\"time-{id}\"></td><td class=\"why\">{} {}</td></tr>",
                    vocab::dim_traffic(lang, dim),
                    explain_button(lang, Figure::Traffic(dim), gpus),
                    explain_button(lang, Figure::TrafficTime(dim), gpus),
                )
            })
            .collect()
    };
    let table = format!(
        "<table class=\"traffic\"><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>"
    );
    format!(
        "<h3 class=\"figure-title\" data-slot=\"heading\"></h3>{}",
        table_scroll_markup(lang, "每卡通信表", "Traffic table", &table)
    )
}

/// What the traffic table shows: its heading and each row's figures.
fn traffic_fills(lang: Lang, rows: &[Traffic], selected: Option<u32>) -> Vec<Fill> {
    let mut fills = vec![Fill::text("heading", traffic_heading(lang, selected))];
    for t in rows {
        let id = t.dim.as_str();
        let link = t.link.as_str();
        let row = format!("row-{id}");
        fills.extend([
            Fill::attr(row.clone(), "data-bytes", Some(t.bytes.get().to_string())),
            Fill::attr(row.clone(), "data-link", Some(link.to_string())),
            Fill::attr(
                row.clone(),
                "data-group-size",
                Some(t.group_size.to_string()),
            ),
            Fill::attr(
                row.clone(),
                "data-collective",
                Some(t.collective.as_str().to_string()),
            ),
            Fill::attr(row, "class", Some(format!("traffic-row link-{link}"))),
            Fill::text(
                format!("collective-{id}"),
                vocab::collective(lang, t.collective),
            ),
            Fill::text(format!("size-{id}"), t.group_size.to_string()),
            Fill::text(format!("bytes-{id}"), format::bytes(t.bytes)),
            Fill::attr(
                format!("link-{id}"),
                "class",
                Some(format!("link link-{link}")),
            ),
            Fill::text(format!("link-{id}"), vocab::link(lang, t.link)),
            Fill::text(format!("time-{id}"), format::seconds(t.seconds)),
        ]);
    }
    fills
}

/// Traffic per dimension: of the selected card's own groups, or plan-wide when none is. The
/// rows are drawn again only when the dimensions with traffic change; a slider move rewrites
/// the figures that changed.
#[component]
pub fn TrafficTable(
    #[prop(into)] traffic: Signal<Vec<Traffic>>,
    #[prop(into)] selected: Signal<Option<u32>>,
    /// The grid whose figures the explanations open on.
    lab: GridLab,
) -> impl IntoView {
    let lang = use_lang();
    let gpus = lab.config.with_untracked(|c| c.gpus);
    let dims = part(move || traffic.with(|rows| rows.iter().map(|t| t.dim).collect::<Vec<Dim>>()));
    let template = part(move || dims.with(|dims| traffic_markup(lang.get(), dims, gpus)));
    let fills = part(move || traffic.with(|rows| traffic_fills(lang.get(), rows, selected.get())));
    live(
        Root::Div,
        "figure traffic-figure",
        template,
        fills,
        Some(lab),
    )
}

/// The bubble figure's markup.
fn bubble_markup(lang: Lang, gpus: u32) -> String {
    format!(
        "<h3 class=\"figure-title\">{}</h3>\
         <p><span class=\"big\" data-testid=\"bubble\" data-slot=\"ratio\"></span>\
         <span class=\"caption\">{}</span> {}</p>\
         <p class=\"secondary\"><span data-testid=\"bubble-share\" data-slot=\"share\">{}<span data-slot=\"share-text\"></span></span> {}</p>",
        lang.pick("流水线气泡", "Pipeline bubble"),
        lang.pick(" 空等 ÷ 计算 = (p−1)/m", " idle ÷ compute = (p−1)/m"),
        explain_button(lang, Figure::BubbleRatio, gpus),
        lang.pick("占整步时间 ", "Share of the step "),
        explain_button(lang, Figure::BubbleShare, gpus),
    )
}

/// The pipeline bubble: (p−1)/m and its share of the step.
#[component]
pub fn BubbleFigure(
    #[prop(into)] report: Signal<Report>,
    /// The grid whose figures the explanations open on.
    lab: GridLab,
) -> impl IntoView {
    let lang = use_lang();
    let gpus = lab.config.with_untracked(|c| c.gpus);
    let template = part(move || bubble_markup(lang.get(), gpus));
    let fills = part(move || {
        let (ratio, share) = report.with(|r| (r.bubble.ratio, r.bubble.share));
        vec![
            Fill::attr("ratio", "data-ratio", Some(ratio.to_string())),
            Fill::text(
                "ratio",
                if ratio == 0.0 {
                    "—".to_string()
                } else {
                    format::percent(ratio)
                },
            ),
            Fill::attr("share", "data-share", Some(share.to_string())),
            Fill::text("share-text", format::percent(share)),
        ]
    });
    live(
        Root::Div,
        "figure bubble-figure",
        template,
        fills,
        Some(lab),
    )
}

/// The core's warnings for a still-valid plan, in the page's language.
#[component]
pub fn Warnings(#[prop(into)] report: Signal<Report>) -> impl IntoView {
    let lang = use_lang();
    let template = part(move || {
        let lang = lang.get();
        report.with(|r| {
            if r.warnings.is_empty() {
                return String::new();
            }
            let items: String = r
                .warnings
                .iter()
                .map(|&w| format!("<li>{}</li>", escape_markup(&warning_text(lang, w))))
                .collect();
            format!("<ul class=\"warnings\" data-testid=\"warnings\">{items}</ul>")
        })
    });
    live(
        Root::Div,
        "warnings-block",
        template,
        Signal::stored(Vec::new()),
        None,
    )
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
            f64::from(layers) / f64::from(pp)
        ),
        Warning::ZigzagPadding { seq_len, cp } => format!(
            "序列长度 {seq_len} 不能切成 2·CP = {} 块：zigzag 需要补齐。",
            2 * u64::from(cp)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::testing::assert_all_used;
    use parallel_core::{evaluate, PlanConfig};

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let memory = evaluate(&PlanConfig::lesson_8_gpus()).unwrap().memory;
        assert_all_used(text::ALL, || {
            for lang in [Lang::Zh, Lang::En] {
                memory_label(lang, &memory);
                traffic_heading(lang, Some(3));
                traffic_heading(lang, None);
                memory_title(lang, None);
                memory_title(lang, Some(7));
                expert_split(lang, Bytes::new(2e9), Bytes::new(5e9));
            }
        });
        assert_eq!(
            memory_title(Lang::Zh, Some(7)),
            "每卡显存（按段计：最忙的是第 7 段）"
        );
        assert_eq!(
            memory_label(Lang::Zh, &memory),
            "模型状态 55.6 GB + 激活 2.7 GB = 58.2 GB / 80.0 GB"
        );
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
