//! Seed 000's starting recipes for 8-GPU nodes, in full: layouts and derived DP / expert DP,
//! cards per inference engine and response cap; where the lab knows the model (the anchor's
//! preset, or a config.json the user supplies) training memory with CPU Adam, rollout memory
//! and the shared peak, each with its fit, and the row's slime command; a row whose N is a
//! grid's loads into it.

use leptos::prelude::*;
use parallel_core::flags::{flags, Engine};
use parallel_core::lesson::{recipes, Recipe};
use parallel_core::link::GridId;
use parallel_core::{Bytes, ModelChoice, PlanConfig, Report, RolloutPhase};

use crate::kit::error_text::explain;
use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::own_model::ConfigPaste;
use crate::kit::table_scroll::TableScroll;
use crate::state::permalink::PageState;

/// The sentences of the recipe table.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// How the table is derived, and the assumptions of its memory figures.
        pub const NOTE: Text = Text {
            zh: "DP = N ÷ (TP·PP·CP)，专家 DP = N ÷ (EP·PP)（EP = 1 的稠密模型记 —）。\
                 这些是仓库配方的起步值，不是实测的最小卡数。本页只带着锚点 Qwen3.8-27B 的 config；\
                 其他行在模型名下粘贴或拖入它的 config.json，就算出那一行的显存。口径是配方的：\
                 训练序列 = prompt {prompt} + 回复上限、ZeRO-{zero}、CPU Adam（优化器状态在主机上）、全量重计算、\
                 log-prob 分块 {chunk}、m = {m}；每轮 {prompts} 个 prompt × {samples} 次采样，推理引擎与训练同卡：\
                 理想 offload 下一张卡要放得下两阶段中较大的那个（同卡峰值）。",
            en: "DP = N ÷ (TP·PP·CP), expert DP = N ÷ (EP·PP) (— for a dense model with EP = 1). \
                 These are a repository's starting recipes, not measured minimum card counts. The \
                 lab carries only the anchor Qwen3.8-27B's config; paste or drop a model's \
                 config.json under its name to get that row's memory. The figures are on the \
                 recipes' terms: training sequences of the {prompt}-token prompt plus the response \
                 cap, ZeRO-{zero}, CPU Adam (the optimizer states on the host), full recompute, \
                 log-prob chunks of {chunk}, m = {m}; {prompts} prompts × {samples} samples a round, \
                 the engines on the training cards: with ideal offload a card must hold the larger \
                 of the two phases (the shared peak).",
        };

        /// The paste box under a row's model name, folded.
        pub const SUPPLY: Text = Text {
            zh: "给出它的 config.json",
            en: "Supply its config.json",
        };
        /// A config read for a row.
        pub const COUNTED: Text = Text {
            zh: "已读入：{params} 个参数，这一行的显存按它来算。",
            en: "Read: {params} parameters; this row's memory is counted with it.",
        };
        /// The button that loads a row into the grid of its card count.
        pub const LOAD: Text = Text {
            zh: "放进 {gpus} 卡网格",
            en: "Load into the {gpus}-card grid",
        };
        /// A row that fills a grid but whose model the page does not know yet.
        pub const NEEDS_MODEL: Text = Text {
            zh: "先给出 config.json，再放进 {gpus} 卡网格",
            en: "Supply its config.json to load it into the {gpus}-card grid",
        };
    }
}

/// The note under the table: DP and expert DP, and the recipes' terms, read off `config`
/// (any row's plan: they share them).
fn note_text(lang: Lang, config: &PlanConfig) -> String {
    let rollout = config.rollout.unwrap_or_default();
    text::NOTE.fill(
        lang,
        &[
            ("prompt", &format::thousands(u64::from(rollout.prompt_len))),
            ("zero", &config.zero),
            (
                "chunk",
                &format::thousands(u64::from(config.log_probs_chunk)),
            ),
            ("m", &config.micro_batches),
            ("prompts", &rollout.prompts),
            ("samples", &rollout.samples_per_prompt),
        ],
    )
}

/// Whether a recipe's layout divides: DP always, expert DP only when EP > 1.
pub fn recipe_divides(recipe: &Recipe) -> bool {
    let layout = recipe.layout();
    layout.dp.is_some() && (recipe.ep <= 1 || layout.expert_dp.is_some())
}

/// A figure's cell: its bytes as data, shown with a fit mark.
fn bytes_cell(test_id: &'static str, bytes: Bytes, fits: Option<bool>) -> impl IntoView {
    let mark = fits.map(|fits| if fits { " ✓" } else { " ✗" });
    view! {
        <td class="num" data-testid=test_id data-bytes=format::raw_bytes(bytes)
            data-fits=fits.map(|f| f.to_string())>
            {format::bytes(bytes)}{mark}
        </td>
    }
}

/// One row's figures, from its report: training with CPU Adam, rollout, the shared peak.
fn memory_cells(lang: Signal<Lang>, report: &Report) -> impl IntoView + use<> {
    let m = report.memory;
    let peak = report.rollout.map(|r| {
        let phase = r.peak_phase;
        view! {
            <td class="num" data-testid="recipe-peak" data-bytes=format::raw_bytes(r.peak)
                data-fits=(r.peak <= m.capacity).to_string() data-phase=phase.as_str()>
                {format::bytes(r.peak)}{if r.peak <= m.capacity { " ✓" } else { " ✗" }}
                " ("{move || match phase {
                    RolloutPhase::Training => lang.get().pick("训练", "training"),
                    RolloutPhase::Rollout => lang.get().pick("推理", "rollout"),
                }}")"
            </td>
        }
    });
    view! {
        {bytes_cell("recipe-states", m.model_states, None)}
        {bytes_cell("recipe-activations", m.activations, None)}
        {bytes_cell("recipe-total", m.total, Some(m.fits))}
        {report.rollout.map(|r| bytes_cell("recipe-rollout", r.total, Some(r.fits)))}
        {peak}
    }
}

#[component]
pub fn RecipeTable() -> impl IntoView {
    let lang = use_lang();
    let page = use_context::<PageState>();
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
            // The row's model: its preset, or a config the user supplies under its name.
            let supplied = RwSignal::new(recipe.preset.map(ModelChoice::Preset));
            let outcome = Memo::new(move |_| {
                supplied.get().map(|model| recipe.plan_with(model).map(|plan| (plan.report(), plan.config().clone())))
            });
            let figures = move || match outcome.get() {
                Some(Ok((report, _))) => memory_cells(lang, &report).into_any(),
                Some(Err(error)) => view! {
                    <td colspan="5" role="alert" data-testid="recipe-error">{move || explain(lang.get(), &error)}</td>
                }
                .into_any(),
                None => view! { <td class="num">"—"</td><td class="num">"—"</td><td class="num">"—"</td><td class="num">"—"</td><td class="num">"—"</td> }.into_any(),
            };
            let paste = recipe.preset.is_none().then(|| {
                let on_model = Callback::new(move |model| supplied.set(Some(model)));
                view! {
                    <ConfigPaste test_id="recipe-config" summary=text::SUPPLY counted=text::COUNTED on_model=on_model />
                }
            });
            // The row's slime command (SPEC §16), once its model is known and the plan holds.
            let command = move || match outcome.get() {
                Some(Ok((_, config))) => flags(&config, Engine::Slime).ok().map(|out| view! {
                    <details class="recipe-command">
                        <summary>{move || lang.get().pick("slime 命令", "slime command")}</summary>
                        <pre class="command" data-testid="recipe-command">{out.shell()}</pre>
                    </details>
                }),
                _ => None,
            };
            // A row whose N is a grid's loads into that grid, once its model is known.
            let load = move || {
                let (page, grid) = (page?, recipe.grid()?);
                let gpus = grid.gpus();
                Some(match outcome.get() {
                    Some(Ok((_, config))) => {
                        let lab = if grid == GridId::Eight { page.lab8 } else { page.lab64 };
                        view! {
                            <button type="button" class="small" data-testid="recipe-load"
                                on:click=move |_| {
                                    lab.selected.set(None);
                                    lab.load(config.clone());
                                    crate::state::scroll::bring_into_view(format!("[data-testid=\"section-{gpus}\"]"));
                                }>
                                {move || text::LOAD.fill(lang.get(), &[("gpus", &gpus)])}
                            </button>
                        }
                        .into_any()
                    }
                    _ => view! {
                        <span class="muted" data-testid="recipe-load-needs">{move || text::NEEDS_MODEL.fill(lang.get(), &[("gpus", &gpus)])}</span>
                    }
                    .into_any(),
                })
            };
            view! {
                <tr data-testid=format!("recipe-{}", recipe.model) data-divides=divides.to_string()>
                    <th scope="row">{recipe.model}{paste}</th>
                    <td class="num">{format::thousands(u64::from(recipe.gpus))}</td>
                    <td class="num">{recipe.tp}</td>
                    <td class="num">{recipe.pp}</td>
                    <td class="num">{recipe.cp}</td>
                    <td class="num">{recipe.ep}</td>
                    <td class="num">{move || count(layout.dp)}</td>
                    <td class="num">{expert_dp}</td>
                    <td>{move || if divides { lang.get().pick("✓ 整除", "✓ divides") } else { lang.get().pick("✗ 不整除", "✗ does not divide") }}</td>
                    <td class="num" data-testid="recipe-engine">{recipe.gpus_per_engine}</td>
                    <td class="num" data-testid="recipe-response">{format::thousands(u64::from(recipe.response_len))}</td>
                    {figures}
                    <td>{load}{command}</td>
                </tr>
            }
        })
        .collect_view();
    // The recipes' terms are the same for every row: read them off one row's plan.
    let terms = recipes()[3].config_with(ModelChoice::default());
    let note = move || note_text(lang.get(), &terms);
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
                        <th scope="col" class="num"><T zh="每个推理引擎卡数" en="Cards per engine" /></th>
                        <th scope="col" class="num"><T zh="回复上限" en="Response cap" /></th>
                        <th scope="col" class="num"><T zh="每卡模型状态（CPU Adam）" en="Model states (CPU Adam)" /></th>
                        <th scope="col" class="num"><T zh="激活" en="Activations" /></th>
                        <th scope="col" class="num"><T zh="训练合计" en="Training total" /></th>
                        <th scope="col" class="num"><T zh="推理每卡" en="Rollout per card" /></th>
                        <th scope="col" class="num"><T zh="同卡峰值" en="Shared peak" /></th>
                        <th scope="col"><T zh="网格" en="Grid" /></th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </TableScroll>
        <p class="caption">{note}</p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::format::traffic_line;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        assert_each_lang_uses_all(text::ALL, |lang| {
            note_text(lang, &recipes()[3].config_with(ModelChoice::default()));
            text::SUPPLY.get(lang);
            text::COUNTED.fill(lang, &[("params", &1)]);
            text::LOAD.fill(lang, &[("gpus", &8)]);
            text::NEEDS_MODEL.fill(lang, &[("gpus", &64)]);
        });
        let note = note_text(Lang::En, &recipes()[3].config_with(ModelChoice::default()));
        assert!(
            note.contains("2,048-token prompt")
                && note.contains("log-prob chunks of 1,024, m = 8; 8 prompts × 8 samples"),
            "{note}"
        );
    }

    #[test]
    fn recipes_divide_and_traffic_reads_in_one_line() {
        assert!(recipes().iter().all(recipe_divides));
        let odd = Recipe {
            gpus: 12,
            ..recipes()[0]
        };
        assert!(!recipe_divides(&odd));
        let plan = super::super::deepseek::deepseek_plan().expect("published plan");
        let line = traffic_line(Lang::En, &plan.traffic());
        assert!(line.starts_with("EP 214.6 GB (IB)"), "{line}");
        assert_eq!(plan.degrees().expert_dp, Some(2));
        assert_eq!(traffic_line(Lang::Zh, &[]), "无");
    }
}
