//! DeepSeek-V3's published plan (PP 16 × EP 64 × ZeRO-1 DP on 2,048 GPUs): memory and traffic
//! per card computed by the core, m = 32 assumed.

use leptos::prelude::*;
use parallel_core::lesson::deepseek_v3_plan;
use parallel_core::{Bytes, Plan, PlanError, Report, Traffic};

use crate::kit::error_text::rejected;
use crate::kit::figures::{traffic_sentence, warning_text};
use crate::kit::format::{self, traffic_line};
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::table_scroll::{head_cells, table_intro, TableScroll};

/// The sentences beside the DeepSeek-V3 table.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
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
    }
}

/// What the table computes and what it assumes.
fn assumption_text(lang: Lang, micro_batches: u32, pp: u32, seq: &str) -> String {
    text::ASSUMPTION.fill(lang, &[("m", &micro_batches), ("pp", &pp), ("seq", &seq)])
}

/// The heaviest dimension's bytes, link and time, hidden behind compute by DualPipe.
fn heaviest_note(lang: Lang, t: &Traffic) -> String {
    traffic_sentence(&text::HEAVIEST, lang, t)
}

pub fn deepseek_plan() -> Result<Plan, PlanError> {
    Plan::new(&deepseek_v3_plan())
}

/// The DeepSeek-V3 table's column heads.
const HEADS: &[(&str, &str, bool)] = &[
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
];

/// A numeric cell.
fn num(value: String) -> impl IntoView {
    view! { <td class="num">{value}</td> }
}

/// A cell of bytes, `deepseek-<id>`, its number in `data-bytes` and `mark` after its text.
fn bytes_cell(id: &str, b: Bytes, mark: &'static str) -> impl IntoView {
    view! {
        <td class="num" data-testid=format!("deepseek-{id}") data-bytes=b.get().to_string()>
            {format::bytes(b)}{mark}
        </td>
    }
}

/// The plan's table, what it assumes and what it teaches, as the core computes the plan.
fn deepseek_figures(plan: Plan) -> impl IntoView {
    let lang = use_lang();
    let report: Report = plan.report();
    let d = plan.degrees();
    let m = report.memory;
    let expert_dp = d
        .expert_dp
        .map_or_else(|| "—".to_string(), |n| n.to_string());
    let seq = format::thousands(u64::from(plan.seq_len()));
    let micro_batches = plan.micro_batches();
    let comm = report.comm.clone();
    let warnings = report.warnings.clone();
    let heaviest = report.heaviest_traffic().copied();
    view! {
        <TableScroll zh="DeepSeek-V3 方案表" en="DeepSeek-V3 plan">
            <table class="lesson-table real-table" data-testid="table-deepseek">
                <caption class="sr-only">
                    <T zh="DeepSeek-V3 的并行方案，每卡数字由核心现算"
                       en="DeepSeek-V3's parallel plan, per-card figures computed by the core" />
                </caption>
                <thead><tr>{head_cells(HEADS)}</tr></thead>
                <tbody>
                    <tr data-testid="deepseek-row">
                        <th scope="row" class="num">{format::thousands(u64::from(plan.gpus()))}</th>
                        {num(d.tp.to_string())}
                        {num(d.pp.to_string())}
                        {num(d.ep.to_string())}
                        <td class="num" data-testid="deepseek-dp">{d.dp}</td>
                        <td class="num" data-testid="deepseek-expert-dp">{expert_dp}</td>
                        {bytes_cell("states", m.model_states, "")}
                        {bytes_cell("activations", m.activations, "")}
                        {bytes_cell("total", m.total, if m.fits { " ✓" } else { " ✗" })}
                        <td data-testid="deepseek-comm">{move || traffic_line(lang.get(), &comm)}</td>
                        {num(format::percent(report.bubble.ratio))}
                    </tr>
                </tbody>
            </table>
        </TableScroll>
        <p class="caption" data-testid="deepseek-assumption">
            {move || assumption_text(lang.get(), micro_batches, d.pp, &seq)}
        </p>
        <ul class="warnings">
            {move || {
                let lang = lang.get();
                warnings
                    .iter()
                    .map(|&w| view! { <li>{warning_text(lang, w)}</li> })
                    .collect_view()
            }}
        </ul>
        <div class="takeaways">
            <h4><T zh="它说明了什么" en="What it teaches" /></h4>
            <ol>
                <li>{move || heaviest.as_ref().map(|t| heaviest_note(lang.get(), t)).unwrap_or_default()}</li>
                <li>
                    <T
                        zh="两个团队都把训练铺到了上千张卡，切法却差得很远：并行方案不存在唯一解。模型长什么样（稠密还是 MoE、有几个 KV 头）、机内和机间的带宽差多少、序列有多长，都会改变答案，所以每种组合都该先把账算清。"
                        en="Both teams trained on thousands of cards and split their models very differently: there is no single right parallel configuration. It depends on the model's structure (dense or MoE, how many KV heads), the cluster's bandwidths (how far apart NVLink and IB are) and the sequence length, which is why every combination is worth counting first."
                    />
                </li>
            </ol>
        </div>
    }
}

/// DeepSeek-V3's published plan: its memory, traffic and bubble per card computed by the core
/// (m assumed), and what it teaches; why the core rejects it, if it does.
#[component]
pub fn DeepseekTable() -> impl IntoView {
    let lang = use_lang();
    let figures = match deepseek_plan() {
        Ok(plan) => deepseek_figures(plan).into_any(),
        Err(error) => view! {
            <p class="figure-error" role="alert">{move || rejected(lang.get(), &error)}</p>
        }
        .into_any(),
    };
    view! {
        {table_intro(
            ("DeepSeek-V3：另一条路", "DeepSeek-V3: another road"),
            (
                "DeepSeek-V3 的报告给出的做法：2,048 张 H800，流水线切 16 段，专家并行 64 路（横跨 8 个节点），外层是 ZeRO-1 的数据并行，一路张量并行都没用。专家之间的 all-to-all 和段间通信由 DualPipe 安排在计算的同时进行；显存则靠重计算、把参数的 EMA 挪到 CPU、embedding 与输出头共用一份来省。",
                "The plan published in the DeepSeek-V3 report: 2,048 H800 GPUs, a 16-stage pipeline × 64-way expert parallelism spanning 8 nodes × ZeRO-1 data parallelism, and no tensor parallelism at all. DualPipe hides the expert all-to-all and the pipeline traffic behind computation; recomputation, an EMA kept on the CPU and an embedding shared with the output head keep memory down.",
            ),
        )}
        {figures}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let plan = deepseek_plan().expect("published plan");
        let report = plan.report();
        let heaviest = report.heaviest_traffic().expect("traffic");
        assert_each_lang_uses_all(text::ALL, |lang| {
            assumption_text(lang, 32, 16, "4,096");
            heaviest_note(lang, heaviest);
        });
        assert!(assumption_text(Lang::Zh, 32, 16, "4,096").contains("m = 32 = 2 × PP 16"));
        assert!(heaviest_note(Lang::En, heaviest)
            .starts_with("By this page's counting the heaviest dimension of this plan is EP: "));
    }
}
