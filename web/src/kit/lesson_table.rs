//! The lesson's comparison tables, computed live from the core (one row per lesson plan);
//! a row's button loads that plan into the grid above.

use leptos::prelude::*;
use parallel_core::evaluate;
use parallel_core::lesson::LessonPlan;

use crate::kit::format;
use crate::kit::i18n::{use_lang, T};
use crate::kit::table_scroll::TableScroll;
use crate::state::lab::GridLab;
/// A live table of lesson plans.
#[component]
pub fn LessonTable(test_id: &'static str, plans: Vec<LessonPlan>, lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let rows = plans
        .into_iter()
        .map(|plan| {
            let id = plan.id;
            let config = plan.config.clone();
            let report = evaluate(&plan.config);
            let loaded = {
                let config = config.clone();
                Memo::new(move |_| lab.config.with(|c| *c == config))
            };
            let cells = move || {
                let lang = lang.get();
                match &report {
                    Err(error) => view! { <td colspan="6">{error.to_string()}</td> }.into_any(),
                    Ok(r) => {
                        let m = r.memory;
                        let comm = format::traffic_line(lang, &r.comm);
                        let bubble = if r.bubble.ratio == 0.0 { "—".to_string() } else { format::percent(r.bubble.ratio) };
                        view! {
                            <td class="num" data-testid=format!("{id}-states") data-bytes=m.model_states.get().to_string()>{format::bytes(m.model_states)}</td>
                            <td class="num" data-testid=format!("{id}-activations") data-bytes=m.activations.get().to_string()>{format::bytes(m.activations)}</td>
                            <td class="num" data-testid=format!("{id}-total") data-bytes=m.total.get().to_string()>
                                {format::bytes(m.total)} {if m.fits { " ✓" } else { " ✗" }}
                            </td>
                            <td data-testid=format!("{id}-comm")>{comm}</td>
                            <td class="num" data-testid=format!("{id}-bubble") data-ratio=r.bubble.ratio.to_string()>{bubble}</td>
                        }
                        .into_any()
                    }
                }
            };
            view! {
                <tr data-testid=format!("row-{id}") class:loaded=loaded>
                    <th scope="row">{move || lang.get().pick(plan.label_zh, plan.label_en)}</th>
                    {cells}
                    <td>
                        <button type="button" class="small" on:click=move |_| lab.load_into_view(config.clone())>
                            {move || if loaded.get() { lang.get().pick("在网格里", "in the grid") } else { lang.get().pick("放进网格", "load") }}
                        </button>
                    </td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <TableScroll zh="方案对照表" en="Plan table">
            <table class="lesson-table" data-testid=test_id>
                <thead>
                    <tr>
                        <th scope="col"><T zh="方案" en="Plan" /></th>
                        <th scope="col"><T zh="每卡模型状态" en="Model states" /></th>
                        <th scope="col"><T zh="激活" en="Activations" /></th>
                        <th scope="col"><T zh="合计" en="Total" /></th>
                        <th scope="col"><T zh="每步每卡通信" en="Traffic per card per step" /></th>
                        <th scope="col"><T zh="气泡 (p−1)/m" en="Bubble (p−1)/m" /></th>
                        <th scope="col"><span class="sr-only"><T zh="操作" en="Action" /></span></th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </TableScroll>
    }
}
