//! Llama 3 405B's three published runs: DP and tokens per step computed by the core, TFLOPs
//! and MFU quoted from the report, and what the table teaches.

use leptos::prelude::*;
use parallel_core::lesson::{llama3_runs, PublishedRun};
use parallel_core::{Dim, Plan, PlanError, Traffic};

use crate::kit::error_text::rejected;
use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::table_scroll::{head_cells, table_intro, TableScroll};

/// The lessons of the table, Chinese and English side by side.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// TP is the same in every row: one machine.
        pub const TP_IN_A_NODE: Text = Text {
            zh: "TP 在三行里都是 {tp}：正好一台机的 {node} 张卡，TP 每层都要同步激活，只能走机内 \
                 NVLink。",
            en: "TP is {tp} in all three rows: exactly the {node} cards of one machine. TP \
                 synchronises activations in every layer, so it stays on NVLink inside the node.",
        };
        /// The long-sequence row trades DP for CP at equal tokens per step.
        pub const CP_SAME_TOKENS: Text = Text {
            zh: "序列拉到 {seq} 时加了 {cp} 路 CP，同样的卡数下 DP 从 {dp_short} 降到 {dp_long}；\
                 每步 token 仍是 {tokens}——CP 切的是一条序列，不增加 token。",
            en: "At sequence length {seq} the run adds CP {cp}; on the same number of cards DP \
                 falls from {dp_short} to {dp_long}, and the tokens per step stay at {tokens}: CP \
                 splits one sequence, it adds no tokens.",
        };
        /// The same, when the tokens per step differ.
        pub const CP_FOR_DP: Text = Text {
            zh: "序列拉到 {seq} 时加了 {cp} 路 CP，DP 从 {dp_short} 降到 {dp_long}。",
            en: "At sequence length {seq} the run adds CP {cp} and DP falls from {dp_short} to \
                 {dp_long}.",
        };
        /// The lowest MFU, with the CP traffic of its row.
        pub const LOWEST_MFU_CP: Text = Text {
            zh: "序列 {seq} 这一行的 MFU 最低（{mfu}%）。报告没有逐项拆开原因；按本页的账，CP \
                 这一维每卡每步多发 {bytes} 的 K、V（{link}）。",
            en: "The {seq}-token row has the lowest MFU ({mfu}%). The report does not break the \
                 cause down; by this page's counting, CP adds {bytes} of K and V per card per step \
                 ({link}).",
        };
        /// The lowest MFU, in a row without CP traffic.
        pub const LOWEST_MFU: Text = Text {
            zh: "序列 {seq} 这一行的 MFU 最低（{mfu}%）。",
            en: "The {seq}-token row has the lowest MFU ({mfu}%).",
        };
    }
}

/// One Llama 3 405B run with what the core makes of it.
#[derive(Clone, Debug, PartialEq)]
pub struct LlamaRow {
    /// The published run (config, TFLOPs/GPU, MFU).
    pub run: PublishedRun,
    /// Degrees as the core derives them (DP = N/(TP·CP·PP)).
    pub degrees: parallel_core::Degrees,
    /// d · m · b · s, from [`Plan::tokens_per_step`].
    pub tokens_per_step: f64,
    /// CP's all-gather per card per step, when CP > 1.
    pub cp_traffic: Option<Traffic>,
}

/// The three published runs, each checked by the core (an error stays an error, per row).
pub fn llama_rows() -> Vec<Result<LlamaRow, Box<(PublishedRun, PlanError)>>> {
    llama3_runs()
        .into_iter()
        .map(|run| match Plan::new(&run.config) {
            Ok(plan) => Ok(LlamaRow {
                degrees: plan.degrees(),
                tokens_per_step: plan.tokens_per_step(),
                cp_traffic: plan.traffic().into_iter().find(|t| t.dim == Dim::Cp),
                run,
            }),
            Err(error) => Err(Box::new((run, error))),
        })
        .collect()
}

/// What the Llama 3 table teaches, read from its computed rows: TP stays inside a node; the
/// long-sequence row trades DP for CP at equal tokens per step; the lowest MFU and its CP traffic.
pub fn llama_lessons(lang: Lang, rows: &[LlamaRow]) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(first) = rows.first() {
        let tp = first.degrees.tp;
        if rows.iter().all(|r| r.degrees.tp == tp) {
            let node = first.run.config.gpus_per_node;
            out.push(text::TP_IN_A_NODE.fill(lang, &[("tp", &tp), ("node", &node)]));
        }
    }
    let long = rows.iter().find(|r| r.degrees.cp > 1);
    let short = long.and_then(|long| {
        rows.iter()
            .find(|r| r.degrees.cp == 1 && r.run.config.gpus == long.run.config.gpus)
    });
    if let (Some(long), Some(short)) = (long, short) {
        let tokens = format::thousands(long.tokens_per_step as u64);
        let (cp, seq) = (
            long.degrees.cp,
            format::thousands(u64::from(long.run.config.seq_len)),
        );
        let (dp_short, dp_long) = (short.degrees.dp, long.degrees.dp);
        out.push(if long.tokens_per_step == short.tokens_per_step {
            text::CP_SAME_TOKENS.fill(
                lang,
                &[
                    ("seq", &seq),
                    ("cp", &cp),
                    ("dp_short", &dp_short),
                    ("dp_long", &dp_long),
                    ("tokens", &tokens),
                ],
            )
        } else {
            text::CP_FOR_DP.fill(
                lang,
                &[
                    ("seq", &seq),
                    ("cp", &cp),
                    ("dp_short", &dp_short),
                    ("dp_long", &dp_long),
                ],
            )
        });
    }
    if let Some(lowest) = rows.iter().min_by_key(|r| r.run.mfu_percent) {
        let mfu = lowest.run.mfu_percent;
        let seq = format::thousands(u64::from(lowest.run.config.seq_len));
        out.push(match &lowest.cp_traffic {
            Some(t) => text::LOWEST_MFU_CP.fill(
                lang,
                &[
                    ("seq", &seq),
                    ("mfu", &mfu),
                    ("bytes", &format::bytes(t.bytes)),
                    ("link", &t.link.short_name()),
                ],
            ),
            None => text::LOWEST_MFU.fill(lang, &[("seq", &seq), ("mfu", &mfu)]),
        });
    }
    out
}

/// The Llama 3 table's column heads.
const HEADS: &[(&str, &str, bool)] = &[
    ("卡数", "GPUs", true),
    ("TP", "TP", true),
    ("CP", "CP", true),
    ("PP", "PP", true),
    ("DP（现算）", "DP (computed)", true),
    ("序列长度", "Sequence length", true),
    ("每 DP 的 batch", "Batch per DP", true),
    ("每步 token（现算）", "Tokens per step (computed)", true),
    ("TFLOPs/卡（报告）", "TFLOPs/GPU (report)", true),
    ("BF16 MFU（报告）", "BF16 MFU (report)", true),
    (
        "CP 每卡每步通信（本页的账）",
        "CP traffic per card per step (our count)",
        true,
    ),
];

/// A numeric cell.
fn num(value: String) -> impl IntoView {
    view! { <td class="num">{value}</td> }
}

/// Row `i` of the table: the run as the core computes it, or why the core rejects it.
fn llama_row(i: usize, row: Result<LlamaRow, Box<(PublishedRun, PlanError)>>) -> AnyView {
    let gpus = |gpus: u32| format::thousands(u64::from(gpus));
    match row {
        Ok(row) => {
            let c = &row.run.config;
            let d = row.degrees;
            let cp_cell = row.cp_traffic.as_ref().map_or_else(
                || "—".to_string(),
                |t| format!("{} ({})", format::bytes(t.bytes), t.link.short_name()),
            );
            let cp_bytes = row.cp_traffic.as_ref().map_or(0.0, |t| t.bytes.get());
            view! {
                <tr data-testid=format!("llama3-row-{i}")>
                    <th scope="row" class="num">{gpus(c.gpus)}</th>
                    {num(d.tp.to_string())}
                    {num(d.cp.to_string())}
                    {num(d.pp.to_string())}
                    <td class="num" data-testid=format!("llama3-dp-{i}")>{d.dp}</td>
                    {num(format::thousands(u64::from(c.seq_len)))}
                    {num((c.micro_batches * c.micro_batch_size).to_string())}
                    <td class="num" data-testid=format!("llama3-tokens-{i}") data-tokens=row.tokens_per_step.to_string()>
                        {format::thousands(row.tokens_per_step as u64)}
                    </td>
                    {num(row.run.tflops_per_gpu.to_string())}
                    {num(format!("{}%", row.run.mfu_percent))}
                    <td class="num" data-testid=format!("llama3-cp-{i}") data-bytes=cp_bytes.to_string()>{cp_cell}</td>
                </tr>
            }
            .into_any()
        }
        Err(rejected_run) => {
            let (run, error) = *rejected_run;
            let lang = use_lang();
            view! {
                <tr data-testid=format!("llama3-row-{i}")>
                    <th scope="row" class="num">{gpus(run.config.gpus)}</th>
                    <td colspan="10" role="alert">{move || rejected(lang.get(), &error)}</td>
                </tr>
            }
            .into_any()
        }
    }
}

/// Llama 3 405B's three published runs: DP, tokens per step and CP traffic computed by the core,
/// throughput and MFU quoted from the report, and what the table teaches.
#[component]
pub fn LlamaTable() -> impl IntoView {
    let lang = use_lang();
    let rows = llama_rows();
    let computed: Vec<LlamaRow> = rows
        .iter()
        .filter_map(|r| r.as_ref().ok().cloned())
        .collect();
    let body = rows
        .into_iter()
        .enumerate()
        .map(|(i, row)| llama_row(i, row))
        .collect_view();
    let lessons = move || {
        llama_lessons(lang.get(), &computed)
            .into_iter()
            .map(|text| view! { <li>{text}</li> })
            .collect_view()
    };
    view! {
        {table_intro(
            ("Llama 3 405B：公开的三种配置", "Llama 3 405B: three published configurations"),
            (
                "Llama 3 的报告（表 4）公开了三种 4D 并行配置，按 [TP, CP, PP, DP] 从内到外排，DP 用的是 FSDP。卡数、各维度、序列长度、每个 DP 副本的 batch 和实测数字来自报告；DP 与每步 token 由核心现算。",
                "The Llama 3 report (its table 4) publishes three 4D-parallel configurations, ranks ordered [TP, CP, PP, DP] from the innermost out, with FSDP as the DP. GPU counts, degrees, sequence length, batch per DP replica and the measured figures come from the report; DP and tokens per step are computed by the core.",
            ),
        )}
        <TableScroll zh="Llama 3 405B 配置表" en="Llama 3 405B configurations">
            <table class="lesson-table real-table" data-testid="table-llama3">
                <caption class="sr-only">
                    <T zh="Llama 3 405B 的三种训练配置" en="Llama 3 405B's three training configurations" />
                </caption>
                <thead><tr>{head_cells(HEADS)}</tr></thead>
                <tbody>{body}</tbody>
            </table>
        </TableScroll>
        <p class="caption">
            <T
                zh="每步 token = DP × 每 DP 的 batch × 序列长度（核心的 Plan::tokens_per_step）。CP 一列按本页的口径：K、V 的 all-gather，只算前向。"
                en="Tokens per step = DP × batch per DP × sequence length (the core's Plan::tokens_per_step). The CP column uses this page's counting: the all-gather of K and V, forward only."
            />
        </p>
        <div class="takeaways">
            <h4><T zh="这张表可以用前面的课来读" en="Reading this table with the earlier lessons" /></h4>
            <ol data-testid="llama3-lessons">{lessons}</ol>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;
    use parallel_core::Link;

    fn computed() -> Vec<LlamaRow> {
        llama_rows()
            .into_iter()
            .map(|r| r.map_err(|rejected| rejected.1).expect("published run"))
            .collect()
    }

    #[test]
    fn llama_rows_are_computed_by_the_core() {
        let rows = computed();
        let dp: Vec<u32> = rows.iter().map(|r| r.degrees.dp).collect();
        assert_eq!(dp, [64, 128, 8]);
        assert!(rows
            .iter()
            .all(|r| format::thousands(r.tokens_per_step as u64) == "16,777,216"));
        assert!(rows[0].cp_traffic.is_none());
        assert_eq!(
            rows[2].cp_traffic.as_ref().map(|t| t.link),
            Some(Link::InfiniBand)
        );
    }

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let rows = computed();
        let mut other = rows.clone();
        for row in &mut other {
            row.cp_traffic = None;
        }
        other[1].tokens_per_step += 1.0;
        assert_each_lang_uses_all(text::ALL, |lang| {
            llama_lessons(lang, &rows);
            llama_lessons(lang, &other);
        });
    }

    #[test]
    fn llama_lessons_name_the_table_figures() {
        let rows = computed();
        let en = llama_lessons(Lang::En, &rows);
        assert_eq!(en.len(), 3, "{en:?}");
        assert!(en[0].contains("TP is 8"), "{}", en[0]);
        assert!(
            en[1].contains("from 128 to 8") && en[1].contains("16,777,216"),
            "{}",
            en[1]
        );
        assert!(en[2].contains("(38%)") && en[2].contains("GB"), "{}", en[2]);
        let zh = llama_lessons(Lang::Zh, &rows);
        assert!(zh[1].contains("从 128 降到 8"), "{}", zh[1]);
    }
}
