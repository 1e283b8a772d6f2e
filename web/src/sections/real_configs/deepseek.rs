//! DeepSeek-V3's published plan (PP 16 × EP 64 × ZeRO-1 DP on 2,048 GPUs): memory and traffic
//! per card computed by the core, m = 32 assumed.

use leptos::prelude::*;
use parallel_core::lesson::deepseek_v3_plan;
use parallel_core::{Plan, PlanError, Report, Traffic};

use crate::components::figures::warning_text;
use crate::components::table_scroll::{head_cells, table_scroll_markup};
use crate::error_text::rejected;
use crate::format::{self, escape_markup, traffic_line};
use crate::i18n::Lang;
use crate::live::markup_block;
use crate::vocab;

/// The sentences beside the DeepSeek-V3 table.
mod text {
    use crate::text::Text;

    /// What the table computes and what it assumes (m, the sequence).
    pub const ASSUMPTION: Text = Text {
        zh: "表里的显存与通信是本页按公式算的，不是 DeepSeek 的实测。报告没有给出每步的 \
             micro-batch 数，这里假设 m = {m} = 2 × PP {pp}，让流水线排满；序列长度 {seq}、\
             全量重计算也是本页的默认值。",
        en: "The memory and traffic in this table are this page's formulas, not DeepSeek's \
             measurements. The report gives no micro-batch count per step; the lab assumes m = \
             {m} = 2 × PP {pp} so that the pipeline is full. Sequence length {seq} and full \
             recompute are the page's defaults too.",
    };
    /// The plan's heaviest dimension, and what DualPipe does with it.
    pub const HEAVIEST: Text = Text {
        zh: "按本页的账，这个方案最重的一维是 {dim}：每卡每步 {bytes}，走 {link}，按带宽要 \
             {time}。DualPipe 让它和另一批 micro-batch 的计算同时进行，藏在计算后面；\
             字节数本身一点没少。",
        en: "By this page's counting the heaviest dimension of this plan is {dim}: {bytes} per \
             card per step over {link}, {time} at link bandwidth. DualPipe runs it while \
             another micro-batch computes, so it hides behind compute; the bytes themselves do \
             not shrink.",
    };

    #[cfg(test)]
    pub const ALL: &[&Text] = &[&ASSUMPTION, &HEAVIEST];
}

/// What the table computes and what it assumes.
fn assumption_text(lang: Lang, micro_batches: u32, pp: u32, seq: &str) -> String {
    text::ASSUMPTION.fill(lang, &[("m", &micro_batches), ("pp", &pp), ("seq", &seq)])
}

/// The heaviest dimension's bytes, link and time, hidden behind compute by DualPipe.
fn heaviest_note(lang: Lang, t: &Traffic) -> String {
    text::HEAVIEST.fill(
        lang,
        &[
            ("dim", &vocab::dim(lang, t.dim)),
            ("bytes", &format::bytes(t.bytes)),
            ("link", &vocab::link(lang, t.link)),
            ("time", &format::seconds(t.seconds)),
        ],
    )
}

pub fn deepseek_plan() -> Result<Plan, PlanError> {
    Plan::new(&deepseek_v3_plan())
}

/// DeepSeek-V3's published plan: its memory, traffic and bubble per card computed by the core
/// (m assumed), and what it teaches.
#[component]
pub fn DeepseekTable() -> impl IntoView {
    markup_block(deepseek_markup)
}

/// The plan's table and its reading as markup, in `lang`.
fn deepseek_markup(lang: Lang) -> String {
    let intro = format!(
        "<h3>{}</h3><p>{}</p>",
        lang.pick("DeepSeek-V3：另一条路", "DeepSeek-V3: another road"),
        lang.pick(
            "DeepSeek-V3 的报告给出的做法：2,048 张 H800，流水线切 16 段，专家并行 64 路（横跨 8 个节点），外层是 ZeRO-1 的数据并行，一路张量并行都没用。专家之间的 all-to-all 和段间通信由 DualPipe 安排在计算的同时进行；显存则靠重计算、把参数的 EMA 挪到 CPU、embedding 与输出头共用一份来省。",
            "The plan published in the DeepSeek-V3 report: 2,048 H800 GPUs, a 16-stage pipeline × 64-way expert parallelism spanning 8 nodes × ZeRO-1 data parallelism, and no tensor parallelism at all. DualPipe hides the expert all-to-all and the pipeline traffic behind computation; recomputation, an EMA kept on the CPU and an embedding shared with the output head keep memory down."
        ),
    );
    let plan = match deepseek_plan() {
        Ok(plan) => plan,
        Err(error) => {
            return format!(
                "{intro}<p class=\"figure-error\" role=\"alert\">{}</p>",
                escape_markup(&rejected(lang, &error))
            )
        }
    };
    let report: Report = plan.report();
    let d = plan.degrees();
    let m = report.memory;
    let heads = head_cells(
        lang,
        &[
            ("卡数", "GPUs", true),
            ("TP", "TP", true),
            ("PP", "PP", true),
            ("EP", "EP", true),
            ("DP（现算）", "DP (computed)", true),
            ("专家 DP（现算）", "Expert DP (computed)", true),
            ("每卡模型状态", "Model states", true),
            ("激活", "Activations", true),
            ("合计", "Total", true),
            ("每卡每步通信", "Traffic per card per step", false),
            ("气泡 (p−1)/m", "Bubble (p−1)/m", true),
        ],
    );
    let bytes_cell = |id: &str, b: parallel_core::Bytes, extra: &str| {
        format!(
            "<td class=\"num\" data-testid=\"deepseek-{id}\" data-bytes=\"{}\">{}{extra}</td>",
            b.get(),
            format::bytes(b)
        )
    };
    let row = format!(
        "<tr data-testid=\"deepseek-row\"><th scope=\"row\" class=\"num\">{}</th>\
         <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
         <td class=\"num\" data-testid=\"deepseek-dp\">{}</td>\
         <td class=\"num\" data-testid=\"deepseek-expert-dp\">{}</td>{}{}{}\
         <td data-testid=\"deepseek-comm\">{}</td><td class=\"num\">{}</td></tr>",
        format::thousands(u64::from(plan.gpus())),
        d.tp,
        d.pp,
        d.ep,
        d.dp,
        d.expert_dp
            .map_or_else(|| "—".to_string(), |n| n.to_string()),
        bytes_cell("states", m.model_states, ""),
        bytes_cell("activations", m.activations, ""),
        bytes_cell("total", m.total, if m.fits { " ✓" } else { " ✗" }),
        escape_markup(&traffic_line(lang, &report.comm)),
        format::percent(report.bubble.ratio),
    );
    let table = format!(
        "<table class=\"lesson-table real-table\" data-testid=\"table-deepseek\">\
         <caption class=\"sr-only\">{}</caption><thead><tr>{heads}</tr></thead><tbody>{row}</tbody></table>",
        lang.pick(
            "DeepSeek-V3 的并行方案，每卡数字由核心现算",
            "DeepSeek-V3's parallel plan, per-card figures computed by the core"
        ),
    );
    let seq = format::thousands(u64::from(plan.seq_len()));
    let warnings: String = report
        .warnings
        .iter()
        .map(|&w| format!("<li>{}</li>", escape_markup(&warning_text(lang, w))))
        .collect();
    let hidden = report
        .heaviest_traffic()
        .map(|t| heaviest_note(lang, t))
        .unwrap_or_default();
    format!(
        "{intro}{}<p class=\"caption\" data-testid=\"deepseek-assumption\">{}</p>\
         <ul class=\"warnings\">{warnings}</ul>\
         <div class=\"takeaways\"><h4>{}</h4><ol><li>{}</li><li>{}</li></ol></div>",
        table_scroll_markup(lang, "DeepSeek-V3 方案表", "DeepSeek-V3 plan", &table),
        escape_markup(&assumption_text(lang, plan.micro_batches(), d.pp, &seq)),
        lang.pick("它说明了什么", "What it teaches"),
        escape_markup(&hidden),
        lang.pick(
            "两个团队都把训练铺到了上千张卡，切法却差得很远：并行方案不存在唯一解。模型长什么样（稠密还是 MoE、有几个 KV 头）、机内和机间的带宽差多少、序列有多长，都会改变答案，所以每种组合都该先把账算清。",
            "Both teams trained on thousands of cards and split their models very differently: there is no single right parallel configuration. It depends on the model's structure (dense or MoE, how many KV heads), the cluster's bandwidths (how far apart NVLink and IB are) and the sequence length, which is why every combination is worth counting first."
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let plan = deepseek_plan().expect("published plan");
        let report = plan.report();
        let heaviest = report.heaviest_traffic().expect("traffic");
        crate::text::testing::assert_all_used(text::ALL, || {
            for lang in [Lang::Zh, Lang::En] {
                assumption_text(lang, 32, 16, "4,096");
                heaviest_note(lang, heaviest);
            }
        });
        assert!(assumption_text(Lang::Zh, 32, 16, "4,096").contains("m = 32 = 2 × PP 16"));
        assert!(heaviest_note(Lang::En, heaviest)
            .starts_with("By this page's counting the heaviest dimension of this plan is EP: "));
    }

    #[test]
    fn the_markup_shows_the_plan_as_the_core_computes_it() {
        let plan = deepseek_plan().expect("published plan");
        let report = plan.report();
        for lang in [Lang::Zh, Lang::En] {
            let markup = deepseek_markup(lang);
            let dp = format!("data-testid=\"deepseek-dp\">{}</td>", plan.degrees().dp);
            assert!(markup.contains(&dp), "{dp}");
            let states = format!(
                "data-testid=\"deepseek-states\" data-bytes=\"{}\">{}</td>",
                report.memory.model_states.get(),
                format::bytes(report.memory.model_states)
            );
            assert!(markup.contains(&states), "{states}");
            for tag in ["tr", "td", "th", "table", "div", "p", "ol", "li", "ul"] {
                assert_eq!(
                    markup.matches(&format!("<{tag}>")).count()
                        + markup.matches(&format!("<{tag} ")).count(),
                    markup.matches(&format!("</{tag}>")).count(),
                    "<{tag}> opened and closed alike"
                );
            }
        }
        assert!(
            !deepseek_markup(Lang::En).contains(|c: char| ('\u{4e00}'..='\u{9fff}').contains(&c))
        );
    }
}
