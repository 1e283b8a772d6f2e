//! Part three of the lesson: the plans against real configurations. Llama 3 405B's three
//! published runs (DP and tokens per step computed by the core, TFLOPs and MFU quoted),
//! DeepSeek-V3's plan (memory and traffic per card computed, m = 32 assumed), and the starting
//! recipes of seed 000 (layouts; memory only where the lab knows the model).

use leptos::prelude::*;
use parallel_core::lesson::{deepseek_v3_plan, llama3_runs, recipes, PublishedRun, Recipe};
use parallel_core::{Bytes, Dim, Plan, PlanError, Report, Traffic};

use crate::components::figures::warning_zh;
use crate::components::table_scroll::TableScroll;
use crate::error_text::explain;
use crate::format;
use crate::i18n::{use_lang, Lang, T};
use parallel_core::link::Section;
use parallel_core::link::Widget;

/// Traffic per dimension in one line: "EP 214.6 GB (IB) · PP 3.8 GB (IB)".
pub fn traffic_line(lang: Lang, comm: &[Traffic]) -> String {
    if comm.is_empty() {
        return lang.pick("无", "none").to_string();
    }
    comm.iter()
        .map(|t| {
            format!(
                "{} {} ({})",
                t.dim.label(),
                format::bytes(t.bytes),
                t.link.short_name()
            )
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A rejected plan in the page's language.
fn rejected(lang: Lang, error: &PlanError) -> String {
    format!(
        "{}{}",
        lang.pick("核心拒绝了这个方案：", "The core rejects this plan: "),
        explain(lang, error)
    )
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
            out.push(match lang {
                Lang::Zh => format!("TP 在三行里都是 {tp}：正好一台机的 {node} 张卡，TP 每层都要同步激活，只能走机内 NVLink。"),
                Lang::En => format!("TP is {tp} in all three rows: exactly the {node} cards of one machine. TP synchronises activations in every layer, so it stays on NVLink inside the node."),
            });
        }
    }
    let long = rows.iter().find(|r| r.degrees.cp > 1);
    let short = long.and_then(|long| {
        rows.iter()
            .find(|r| r.degrees.cp == 1 && r.run.config.gpus == long.run.config.gpus)
    });
    if let (Some(long), Some(short)) = (long, short) {
        let same = long.tokens_per_step == short.tokens_per_step;
        let tokens = format::thousands(long.tokens_per_step as u64);
        let (cp, seq) = (
            long.degrees.cp,
            format::thousands(u64::from(long.run.config.seq_len)),
        );
        let (dp_short, dp_long) = (short.degrees.dp, long.degrees.dp);
        out.push(match (lang, same) {
            (Lang::Zh, true) => format!("序列拉到 {seq} 时加了 {cp} 路 CP，同样的卡数下 DP 从 {dp_short} 降到 {dp_long}；每步 token 仍是 {tokens}——CP 切的是一条序列，不增加 token。"),
            (Lang::En, true) => format!("At sequence length {seq} the run adds CP {cp}; on the same number of cards DP falls from {dp_short} to {dp_long}, and the tokens per step stay at {tokens}: CP splits one sequence, it adds no tokens."),
            (Lang::Zh, false) => format!("序列拉到 {seq} 时加了 {cp} 路 CP，DP 从 {dp_short} 降到 {dp_long}。"),
            (Lang::En, false) => format!("At sequence length {seq} the run adds CP {cp} and DP falls from {dp_short} to {dp_long}."),
        });
    }
    if let Some(lowest) = rows.iter().min_by_key(|r| r.run.mfu_percent) {
        let mfu = lowest.run.mfu_percent;
        let seq = format::thousands(u64::from(lowest.run.config.seq_len));
        let cp = lowest
            .cp_traffic
            .as_ref()
            .map(|t| (format::bytes(t.bytes), t.link.short_name()));
        out.push(match (lang, cp) {
            (Lang::Zh, Some((bytes, link))) => format!(
                "序列 {seq} 这一行的 MFU 最低（{mfu}%）。报告没有逐项拆开原因；按本页的账，CP 这一维每卡每步多发 {bytes} 的 K、V({link})。"
            ),
            (Lang::En, Some((bytes, link))) => format!(
                "The {seq}-token row has the lowest MFU ({mfu}%). The report does not break the cause down; by this page's counting, CP adds {bytes} of K and V per card per step ({link})."
            ),
            (Lang::Zh, None) => format!("序列 {seq} 这一行的 MFU 最低（{mfu}%）。"),
            (Lang::En, None) => format!("The {seq}-token row has the lowest MFU ({mfu}%)."),
        });
    }
    out
}

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
        .map(|(i, row)| match row {
            Ok(row) => {
                let c = &row.run.config;
                let d = row.degrees;
                let cp_cell = row.cp_traffic.as_ref().map_or_else(
                    || "—".to_string(),
                    |t| format!("{} ({})", format::bytes(t.bytes), t.link.short_name()),
                );
                view! {
                    <tr data-testid=format!("llama3-row-{i}")>
                        <th scope="row" class="num">{format::thousands(u64::from(c.gpus))}</th>
                        <td class="num">{d.tp}</td>
                        <td class="num">{d.cp}</td>
                        <td class="num">{d.pp}</td>
                        <td class="num" data-testid=format!("llama3-dp-{i}")>{d.dp}</td>
                        <td class="num">{format::thousands(u64::from(c.seq_len))}</td>
                        <td class="num">{c.micro_batches * c.micro_batch_size}</td>
                        <td class="num" data-testid=format!("llama3-tokens-{i}") data-tokens=row.tokens_per_step.to_string()>
                            {format::thousands(row.tokens_per_step as u64)}
                        </td>
                        <td class="num">{row.run.tflops_per_gpu}</td>
                        <td class="num">{format!("{}%", row.run.mfu_percent)}</td>
                        <td class="num" data-testid=format!("llama3-cp-{i}")
                            data-bytes=row.cp_traffic.as_ref().map_or(0.0, |t| t.bytes.get()).to_string()>{cp_cell}</td>
                    </tr>
                }
                .into_any()
            }
            Err(rejected_run) => {
                let (run, error) = *rejected_run;
                view! {
                <tr data-testid=format!("llama3-row-{i}")>
                    <th scope="row" class="num">{format::thousands(u64::from(run.config.gpus))}</th>
                    <td colspan="10" role="alert">{move || rejected(lang.get(), &error)}</td>
                </tr>
                }
                .into_any()
            }
        })
        .collect_view();
    let lessons = move || {
        llama_lessons(lang.get(), &computed)
            .into_iter()
            .map(|text| view! { <li>{text}</li> })
            .collect_view()
    };
    view! {
        <h3><T zh="Llama 3 405B：公开的三种配置" en="Llama 3 405B: three published configurations" /></h3>
        <p>
            <T zh="Llama 3 的报告（表 4）公开了三种 4D 并行配置，按 [TP, CP, PP, DP] 从内到外排，DP 用的是 FSDP。卡数、各维度、序列长度、每个 DP 副本的 batch 和实测数字来自报告；DP 与每步 token 由核心现算。"
               en="The Llama 3 report (its table 4) publishes three 4D-parallel configurations, ranks ordered [TP, CP, PP, DP] from the innermost out, with FSDP as the DP. GPU counts, degrees, sequence length, batch per DP replica and the measured figures come from the report; DP and tokens per step are computed by the core." />
        </p>
        <TableScroll zh="Llama 3 405B 配置表" en="Llama 3 405B configurations">
            <table class="lesson-table real-table" data-testid="table-llama3">
                <caption class="sr-only"><T zh="Llama 3 405B 的三种训练配置" en="Llama 3 405B's three training configurations" /></caption>
                <thead>
                    <tr>
                        <th scope="col" class="num"><T zh="卡数" en="GPUs" /></th>
                        <th scope="col" class="num">"TP"</th>
                        <th scope="col" class="num">"CP"</th>
                        <th scope="col" class="num">"PP"</th>
                        <th scope="col" class="num"><T zh="DP（现算）" en="DP (computed)" /></th>
                        <th scope="col" class="num"><T zh="序列长度" en="Sequence length" /></th>
                        <th scope="col" class="num"><T zh="每 DP 的 batch" en="Batch per DP" /></th>
                        <th scope="col" class="num"><T zh="每步 token（现算）" en="Tokens per step (computed)" /></th>
                        <th scope="col" class="num"><T zh="TFLOPs/卡（报告）" en="TFLOPs/GPU (report)" /></th>
                        <th scope="col" class="num"><T zh="BF16 MFU（报告）" en="BF16 MFU (report)" /></th>
                        <th scope="col" class="num"><T zh="CP 每卡每步通信（本页的账）" en="CP traffic per card per step (our count)" /></th>
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </TableScroll>
        <p class="caption">
            <T zh="每步 token = DP × 每 DP 的 batch × 序列长度（核心的 Plan::tokens_per_step）。CP 一列按本页的口径：K、V 的 all-gather，只算前向。"
               en="Tokens per step = DP × batch per DP × sequence length (the core's Plan::tokens_per_step). The CP column uses this page's counting: the all-gather of K and V, forward only." />
        </p>
        <div class="takeaways">
            <h4><T zh="这张表可以用前面的课来读" en="Reading this table with the earlier lessons" /></h4>
            <ol data-testid="llama3-lessons">{lessons}</ol>
        </div>
    }
}

/// DeepSeek-V3's plan as the core evaluates it.
pub fn deepseek_plan() -> Result<Plan, PlanError> {
    Plan::new(&deepseek_v3_plan())
}

#[component]
fn DeepseekTable() -> impl IntoView {
    let lang = use_lang();
    let body = match deepseek_plan() {
        Ok(plan) => {
            let report: Report = plan.report();
            let d = plan.degrees();
            let m = report.memory;
            let comm = report.comm.clone();
            let warnings = report.warnings.clone();
            let heaviest = report.heaviest_traffic().cloned();
            let (micro_batches, pp, seq) = (plan.micro_batches(), d.pp, format::thousands(u64::from(plan.seq_len())));
            let assumption = move || match lang.get() {
                Lang::Zh => format!(
                    "表里的显存与通信是本页按公式算的，不是 DeepSeek 的实测。报告没有给出每步的 micro-batch 数，这里假设 m = {micro_batches} = 2 × PP {pp}，让流水线排满；序列长度 {seq}、全量重计算也是本页的默认值。"
                ),
                Lang::En => format!(
                    "The memory and traffic in this table are this page's formulas, not DeepSeek's measurements. The report gives no micro-batch count per step; the lab assumes m = {micro_batches} = 2 × PP {pp} so that the pipeline is full. Sequence length {seq} and full recompute are the page's defaults too."
                ),
            };
            let warning_items = move || {
                warnings
                    .iter()
                    .map(|w| {
                        let text = match lang.get() {
                            Lang::Zh => warning_zh(*w),
                            Lang::En => w.to_string(),
                        };
                        view! { <li>{text}</li> }
                    })
                    .collect_view()
            };
            let hidden = move || {
                heaviest.as_ref().map(|t| match lang.get() {
                    Lang::Zh => format!(
                        "按本页的账，这个方案最重的一维是 {}：每卡每步 {}，走 {}，按带宽要 {}。DualPipe 让它和另一批 micro-batch 的计算同时进行，藏在计算后面；字节数本身一点没少。",
                        t.dim.label(), format::bytes(t.bytes), format::link(Lang::Zh, t.link), format::seconds(t.seconds)
                    ),
                    Lang::En => format!(
                        "By this page's counting the heaviest dimension of this plan is {}: {} per card per step over {}, {} at link bandwidth. DualPipe runs it while another micro-batch computes, so it hides behind compute; the bytes themselves do not shrink.",
                        t.dim.label(), format::bytes(t.bytes), format::link(Lang::En, t.link), format::seconds(t.seconds)
                    ),
                })
            };
            view! {
                <TableScroll zh="DeepSeek-V3 方案表" en="DeepSeek-V3 plan">
                    <table class="lesson-table real-table" data-testid="table-deepseek">
                        <caption class="sr-only"><T zh="DeepSeek-V3 的并行方案，每卡数字由核心现算" en="DeepSeek-V3's parallel plan, per-card figures computed by the core" /></caption>
                        <thead>
                            <tr>
                                <th scope="col" class="num"><T zh="卡数" en="GPUs" /></th>
                                <th scope="col" class="num">"TP"</th>
                                <th scope="col" class="num">"PP"</th>
                                <th scope="col" class="num">"EP"</th>
                                <th scope="col" class="num"><T zh="DP（现算）" en="DP (computed)" /></th>
                                <th scope="col" class="num"><T zh="专家 DP（现算）" en="Expert DP (computed)" /></th>
                                <th scope="col" class="num"><T zh="每卡模型状态" en="Model states" /></th>
                                <th scope="col" class="num"><T zh="激活" en="Activations" /></th>
                                <th scope="col" class="num"><T zh="合计" en="Total" /></th>
                                <th scope="col"><T zh="每卡每步通信" en="Traffic per card per step" /></th>
                                <th scope="col" class="num"><T zh="气泡 (p−1)/m" en="Bubble (p−1)/m" /></th>
                            </tr>
                        </thead>
                        <tbody>
                            <tr data-testid="deepseek-row">
                                <th scope="row" class="num">{format::thousands(u64::from(plan.gpus()))}</th>
                                <td class="num">{d.tp}</td>
                                <td class="num">{d.pp}</td>
                                <td class="num">{d.ep}</td>
                                <td class="num" data-testid="deepseek-dp">{d.dp}</td>
                                <td class="num" data-testid="deepseek-expert-dp">{d.expert_dp.map_or_else(|| "—".to_string(), |n| n.to_string())}</td>
                                <td class="num" data-testid="deepseek-states" data-bytes=m.model_states.get().to_string()>{format::bytes(m.model_states)}</td>
                                <td class="num" data-testid="deepseek-activations" data-bytes=m.activations.get().to_string()>{format::bytes(m.activations)}</td>
                                <td class="num" data-testid="deepseek-total" data-bytes=m.total.get().to_string()>
                                    {format::bytes(m.total)} {if m.fits { " ✓" } else { " ✗" }}
                                </td>
                                <td data-testid="deepseek-comm">{move || traffic_line(lang.get(), &comm)}</td>
                                <td class="num">{format::percent(report.bubble.ratio)}</td>
                            </tr>
                        </tbody>
                    </table>
                </TableScroll>
                <p class="caption" data-testid="deepseek-assumption">{assumption}</p>
                <ul class="warnings">{warning_items}</ul>
                <div class="takeaways">
                    <h4><T zh="它说明了什么" en="What it teaches" /></h4>
                    <ol>
                        <li>{hidden}</li>
                        <li><T zh="两个团队都把训练铺到了上千张卡，切法却差得很远：并行方案不存在唯一解。模型长什么样（稠密还是 MoE、有几个 KV 头）、机内和机间的带宽差多少、序列有多长，都会改变答案，所以每种组合都该先把账算清。"
                               en="Both teams trained on thousands of cards and split their models very differently: there is no single right parallel configuration. It depends on the model's structure (dense or MoE, how many KV heads), the cluster's bandwidths (how far apart NVLink and IB are) and the sequence length, which is why every combination is worth counting first." /></li>
                    </ol>
                </div>
            }
            .into_any()
        }
        Err(error) => view! { <p class="figure-error" role="alert">{move || rejected(lang.get(), &error)}</p> }.into_any(),
    };
    view! {
        <h3><T zh="DeepSeek-V3：另一条路" en="DeepSeek-V3: another road" /></h3>
        <p>
            <T zh="DeepSeek-V3 的报告给出的做法：2,048 张 H800，流水线切 16 段，专家并行 64 路（横跨 8 个节点），外层是 ZeRO-1 的数据并行，一路张量并行都没用。专家之间的 all-to-all 和段间通信由 DualPipe 安排在计算的同时进行；显存则靠重计算、把参数的 EMA 挪到 CPU、embedding 与输出头共用一份来省。"
               en="The plan published in the DeepSeek-V3 report: 2,048 H800 GPUs, a 16-stage pipeline × 64-way expert parallelism spanning 8 nodes × ZeRO-1 data parallelism, and no tensor parallelism at all. DualPipe hides the expert all-to-all and the pipeline traffic behind computation; recomputation, an EMA kept on the CPU and an embedding shared with the output head keep memory down." />
        </p>
        {body}
    }
}

/// Whether a recipe's layout divides: DP always, expert DP only when EP > 1.
pub fn recipe_divides(recipe: &Recipe) -> bool {
    let layout = recipe.layout();
    layout.dp.is_some() && (recipe.ep <= 1 || layout.expert_dp.is_some())
}

#[component]
fn RecipeTable() -> impl IntoView {
    let lang = use_lang();
    let mut assumptions: Option<(u32, u8, u32)> = None;
    let rows = recipes()
        .into_iter()
        .map(|recipe| {
            let layout = recipe.layout();
            let divides = recipe_divides(&recipe);
            let count = move |n: Option<u32>| match n {
                Some(n) => n.to_string(),
                None => lang.get().pick("不能整除", "does not divide").to_string(),
            };
            let expert_dp = move || if recipe.ep > 1 { count(layout.expert_dp) } else { "—".to_string() };
            let memory: Option<Result<(Bytes, Bytes, Bytes, bool), PlanError>> = recipe.plan().map(|checked| {
                checked.map(|plan| {
                    assumptions = Some((plan.seq_len(), plan.zero(), plan.micro_batches()));
                    let m = plan.memory();
                    (m.model_states, m.activations, m.total, m.fits)
                })
            });
            let memory_cells = match memory {
                Some(Ok((states, activations, total, fits))) => view! {
                    <td class="num" data-testid="recipe-states" data-bytes=states.get().to_string()>{format::bytes(states)}</td>
                    <td class="num">{format::bytes(activations)}</td>
                    <td class="num">{format::bytes(total)} {if fits { " ✓" } else { " ✗" }}</td>
                }
                .into_any(),
                Some(Err(error)) => view! {
                    <td colspan="3" role="alert">
                        {move || match lang.get() {
                            Lang::Zh => format!("核心拒绝了这个配方（字段 {}）。", error.field()),
                            Lang::En => error.to_string(),
                        }}
                    </td>
                }
                .into_any(),
                None => view! { <td class="num">"—"</td><td class="num">"—"</td><td class="num">"—"</td> }.into_any(),
            };
            view! {
                <tr data-testid=format!("recipe-{}", recipe.model) data-divides=divides.to_string()>
                    <th scope="row">{recipe.model}</th>
                    <td class="num">{format::thousands(u64::from(recipe.gpus))}</td>
                    <td class="num">{recipe.tp}</td>
                    <td class="num">{recipe.pp}</td>
                    <td class="num">{recipe.cp}</td>
                    <td class="num">{recipe.ep}</td>
                    <td class="num">{move || count(layout.dp)}</td>
                    <td class="num">{expert_dp}</td>
                    <td>{move || if divides { lang.get().pick("✓ 整除", "✓ divides") } else { lang.get().pick("✗ 不整除", "✗ does not divide") }}</td>
                    {memory_cells}
                </tr>
            }
        })
        .collect_view();
    let note = move || {
        let (seq, zero, m) = assumptions.unwrap_or_default();
        let seq = format::thousands(u64::from(seq));
        match lang.get() {
            Lang::Zh => format!(
                "DP = N ÷ (TP·PP·CP)，专家 DP = N ÷ (EP·PP)（EP = 1 的稠密模型记 —）。这些是仓库配方的起步值，不是实测的最小卡数。只有锚点 Qwen3.8-27B 的 config 在本页里，所以只有它算显存，口径是本页的假设：序列 {seq}、ZeRO-{zero}、全量重计算、m = {m}；真实配方还把 Adam 放到 CPU 上，本页不计这一项。"
            ),
            Lang::En => format!(
                "DP = N ÷ (TP·PP·CP), expert DP = N ÷ (EP·PP) (— for a dense model with EP = 1). These are a repository's starting recipes, not measured minimum card counts. Only the anchor Qwen3.8-27B has its config in this lab, so only its row gets memory figures, under this page's assumptions: sequence {seq}, ZeRO-{zero}, full recompute, m = {m}. The real recipe also moves Adam to the CPU, which the page does not model."
            ),
        }
    };
    view! {
        <h3><T zh="起步配方：每节点 8 卡" en="Starting recipes for 8-GPU nodes" /></h3>
        <TableScroll zh="起步配方表" en="Starting recipes">
            <table class="lesson-table real-table" data-testid="table-recipes">
                <caption class="sr-only"><T zh="四个模型的起步并行配方" en="Starting parallel recipes for four models" /></caption>
                <thead>
                    <tr>
                        <th scope="col"><T zh="模型" en="Model" /></th>
                        <th scope="col" class="num"><T zh="训练卡数" en="GPUs" /></th>
                        <th scope="col" class="num">"TP"</th>
                        <th scope="col" class="num">"PP"</th>
                        <th scope="col" class="num">"CP"</th>
                        <th scope="col" class="num">"EP"</th>
                        <th scope="col" class="num"><T zh="DP（推出）" en="DP (derived)" /></th>
                        <th scope="col" class="num"><T zh="专家 DP（推出）" en="Expert DP (derived)" /></th>
                        <th scope="col"><T zh="能否整除" en="Divides?" /></th>
                        <th scope="col" class="num"><T zh="每卡模型状态" en="Model states" /></th>
                        <th scope="col" class="num"><T zh="激活" en="Activations" /></th>
                        <th scope="col" class="num"><T zh="合计" en="Total" /></th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </TableScroll>
        <p class="caption">{note}</p>
    }
}

/// Part three: Llama 3, DeepSeek-V3 and the recipes.
#[component]
pub fn RealConfigs() -> impl IntoView {
    view! {
        <section class="part" id=Section::PartThree.id() data-testid="section-real" aria-labelledby="part-three-title">
            <h2 id="part-three-title"><span class="part-number">"3"</span><T zh="和真实配置对照" en="Against real configurations" /></h2>
            <p class="lead">
                <T zh="同一套公式，换成公开报告里的模型和卡数。能现算的都现算；实测的吞吐只能引用，并注明出处。"
                   en="The same formulas, now on the models and card counts of public reports. Whatever can be computed is computed; measured throughput can only be quoted, with its source." />
            </p>
            <LlamaTable />
            <crate::components::share::EmbedHere widget=Widget::Llama3 />
            <DeepseekTable />
            <RecipeTable />
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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

    #[test]
    fn recipes_divide_and_traffic_reads_in_one_line() {
        assert!(recipes().iter().all(recipe_divides));
        let odd = Recipe {
            gpus: 12,
            ..recipes()[0]
        };
        assert!(!recipe_divides(&odd));
        let plan = deepseek_plan().expect("published plan");
        let line = traffic_line(Lang::En, &plan.traffic());
        assert!(line.starts_with("EP 214.6 GB (IB)"), "{line}");
        assert_eq!(plan.degrees().expert_dp, Some(2));
        assert_eq!(traffic_line(Lang::Zh, &[]), "无");
    }
}
