//! Seed 000's starting recipes for 8-GPU nodes: layouts and derived DP / expert DP for each,
//! memory only where the lab knows the model.

use leptos::prelude::*;
use parallel_core::lesson::{recipes, Recipe};
use parallel_core::ModelChoice;

use crate::components::own_model::ConfigPaste;
use crate::components::table_scroll::TableScroll;
use crate::error_text::explain;
use crate::format;
use crate::i18n::{use_lang, Lang, T};

/// The sentences of the recipe table.
mod text {
    use crate::text::Text;

    /// How the table is derived, and the assumptions of its memory figures.
    pub const NOTE: Text = Text {
        zh: "DP = N ÷ (TP·PP·CP)，专家 DP = N ÷ (EP·PP)（EP = 1 的稠密模型记 —）。\
             这些是仓库配方的起步值，不是实测的最小卡数。本页只带着锚点 Qwen3.8-27B 的 config；\
             其他行在模型名下粘贴或拖入它的 config.json，就算出那一行的显存。口径是本页的假设：\
             序列 {seq}、ZeRO-{zero}、全量重计算、m = {m}；真实配方还把 Adam 放到 CPU 上，本页不计这一项。",
        en: "DP = N ÷ (TP·PP·CP), expert DP = N ÷ (EP·PP) (— for a dense model with EP = 1). \
             These are a repository's starting recipes, not measured minimum card counts. The \
             lab carries only the anchor Qwen3.8-27B's config; paste or drop a model's \
             config.json under its name to get that row's memory. The figures follow this \
             page's assumptions: sequence {seq}, ZeRO-{zero}, full recompute, m = {m}. The \
             real recipe also moves Adam to the CPU, which the page does not model.",
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

    #[cfg(test)]
    pub const ALL: &[&Text] = &[&NOTE, &SUPPLY, &COUNTED];
}

/// The note under the table: DP and expert DP, and the assumptions of the memory figures.
fn note_text(lang: Lang, seq: u32, zero: u8, micro_batches: u32) -> String {
    let seq = format::thousands(u64::from(seq));
    text::NOTE.fill(
        lang,
        &[("seq", &seq), ("zero", &zero), ("m", &micro_batches)],
    )
}

/// Whether a recipe's layout divides: DP always, expert DP only when EP > 1.
pub fn recipe_divides(recipe: &Recipe) -> bool {
    let layout = recipe.layout();
    layout.dp.is_some() && (recipe.ep <= 1 || layout.expert_dp.is_some())
}

#[component]
pub fn RecipeTable() -> impl IntoView {
    let lang = use_lang();
    // The page's assumptions are the recipes' (Recipe::plan_with): the same for every row.
    let assumptions = recipes()[3]
        .plan()
        .and_then(Result::ok)
        .map(|plan| (plan.seq_len(), plan.zero(), plan.micro_batches()));
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
            let memory = Memo::new(move |_| {
                supplied.get().map(|model| {
                    recipe.plan_with(model).map(|plan| {
                        let m = plan.memory();
                        (m.model_states, m.activations, m.total, m.fits)
                    })
                })
            });
            let memory_cells = move || match memory.get() {
                Some(Ok((states, activations, total, fits))) => view! {
                    <td class="num" data-testid="recipe-states" data-bytes=states.get().to_string()>{format::bytes(states)}</td>
                    <td class="num" data-testid="recipe-activations" data-bytes=activations.get().to_string()>{format::bytes(activations)}</td>
                    <td class="num" data-testid="recipe-total" data-bytes=total.get().to_string()>{format::bytes(total)} {if fits { " ✓" } else { " ✗" }}</td>
                }
                .into_any(),
                Some(Err(error)) => view! {
                    <td colspan="3" role="alert" data-testid="recipe-error">{move || explain(lang.get(), &error)}</td>
                }
                .into_any(),
                None => view! { <td class="num">"—"</td><td class="num">"—"</td><td class="num">"—"</td> }.into_any(),
            };
            let paste = recipe.preset.is_none().then(|| {
                let on_model = Callback::new(move |model| supplied.set(Some(model)));
                view! {
                    <ConfigPaste test_id="recipe-config" summary=text::SUPPLY counted=text::COUNTED on_model=on_model />
                }
            });
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
                    {memory_cells}
                </tr>
            }
        })
        .collect_view();
    let note = move || {
        let (seq, zero, m) = assumptions.unwrap_or_default();
        note_text(lang.get(), seq, zero, m)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::traffic_line;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        crate::text::testing::assert_all_used(text::ALL, || {
            for lang in [Lang::Zh, Lang::En] {
                note_text(lang, 4096, 3, 8);
                text::SUPPLY.get(lang);
                text::COUNTED.fill(lang, &[("params", &1)]);
            }
        });
        assert!(note_text(Lang::En, 4096, 3, 8)
            .contains("sequence 4,096, ZeRO-3, full recompute, m = 8."));
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
