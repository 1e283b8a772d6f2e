//! The search's outcome as the page shows it: counts, why the first plan beats the second, a
//! sortable table of the fitting plans with a `load` button each, and, when nothing fits, the
//! nearest misses greyed with their overflow. Every figure is the core's report of the plan.

use leptos::prelude::*;
use parallel_core::estimate::Term;
use parallel_core::link::GridId;
use parallel_core::search::{Ahead, Found, SearchOutcome, EQUAL_TIME_SHARE};
use parallel_core::{Bytes, PlanConfig, Recompute, Schedule};

use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::table_scroll::TableScroll;

/// The sentences of the results.
pub mod text;

/// A column the table sorts by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortKey {
    /// The search's own order (under the safe share of the card first, then the step, the plan without
    /// CP first at equal time): the table's first order.
    Rank,
    /// Estimated step time.
    Step,
    /// Memory of the busiest card.
    Memory,
    /// Tokens per second per card.
    Throughput,
}

/// The name of a term of the step.
fn term_name(lang: Lang, term: Term) -> &'static str {
    match term {
        Term::Compute => lang.pick("计算", "compute"),
        Term::Bubble => lang.pick("气泡", "the bubble"),
        Term::ExposedComm => lang.pick("未被掩盖的通信", "exposed communication"),
        Term::Optimizer => lang.pick("优化器更新", "the optimizer step"),
    }
}

/// The first lines above the table: counts, and why the first plan leads.
pub fn summary(lang: Lang, outcome: &SearchOutcome, capacity: Bytes) -> Vec<String> {
    let count = |n: u64| format::thousands(n);
    if outcome.valid == 0 {
        return vec![text::NOTHING_VALID.fill(lang, &[("considered", &count(outcome.considered))])];
    }
    if outcome.fitting == 0 {
        return vec![text::NOTHING_FITS.fill(
            lang,
            &[
                ("considered", &count(outcome.considered)),
                ("valid", &count(outcome.valid)),
                ("capacity", &capacity),
            ],
        )];
    }
    let mut lines = vec![text::COUNTS.fill(
        lang,
        &[
            ("considered", &count(outcome.considered)),
            ("valid", &count(outcome.valid)),
            ("fitting", &count(outcome.fitting)),
            ("shown", &outcome.plans.len()),
        ],
    )];
    lines.push(if outcome.comfortable == 0 {
        text::ALL_TIGHT.fill(lang, &[("safe", &format::safe_share())])
    } else {
        text::MARGIN_RULE.fill(
            lang,
            &[
                ("comfortable", &count(outcome.comfortable)),
                ("safe", &format::safe_share()),
            ],
        )
    });
    if let Some(ahead) = outcome.why_first() {
        lines.push(match ahead {
            Ahead::Quicker { gap, term, by } => {
                let by = if by.get() >= 0.0 {
                    lang.pick("少 ", "less by ").to_string() + &format::seconds(by)
                } else {
                    lang.pick("反而多 ", "more by ").to_string() + &format::seconds(by.abs())
                };
                text::AHEAD_TIME.fill(
                    lang,
                    &[
                        ("gap", &format::seconds(gap)),
                        ("term", &term_name(lang, term)),
                        ("by", &by),
                    ],
                )
            }
            Ahead::LessMemory { by } => text::AHEAD_MEMORY.fill(lang, &[("by", &by)]),
            Ahead::Margin => text::AHEAD_MARGIN.fill(lang, &[("safe", &format::safe_share())]),
            Ahead::WithoutCp { gap, share, cp } => text::AHEAD_WITHOUT_CP.fill(
                lang,
                &[
                    ("cp", &cp),
                    ("gap", &format::seconds(gap)),
                    ("share", &format::percent(share)),
                    ("band", &format::percent(EQUAL_TIME_SHARE)),
                ],
            ),
            Ahead::Tie => text::AHEAD_TIE.get(lang).to_string(),
        });
    }
    if let Some(line) = cp_line(lang, outcome) {
        lines.push(line);
    }
    lines
}

/// When the first plan splits the sequence (CP > 1): the quickest plan without CP and the term
/// it loses on, in figures, or that none fits.
fn cp_line(lang: Lang, outcome: &SearchOutcome) -> Option<String> {
    let first = outcome.plans.first()?;
    let cp = first.config.cp;
    if cp == 1 {
        return None;
    }
    let Some(without) = &outcome.without_cp else {
        return Some(text::ONLY_WITH_CP.fill(lang, &[("cp", &cp)]));
    };
    let c = &without.config;
    let plan = format!(
        "TP {} × PP {}, ZeRO-{}, {}",
        c.tp,
        c.pp,
        c.zero,
        recompute_cell(lang, c.recompute)
    );
    let step = without.report.estimate.step_s;
    let gap = outcome.cp_gap()?;
    let (term, by) = match outcome.why_cp()? {
        Ahead::Quicker { term, by, .. } => (term_name(lang, term).to_string(), format::seconds(by)),
        Ahead::Margin => (
            lang.pick("显存余量", "the memory margin").to_string(),
            text::AHEAD_MARGIN.fill(lang, &[("safe", &format::safe_share())]),
        ),
        Ahead::LessMemory { by } => (lang.pick("显存", "memory").to_string(), by.to_string()),
        Ahead::Tie | Ahead::WithoutCp { .. } => return None,
    };
    Some(text::WITHOUT_CP.fill(
        lang,
        &[
            ("cp", &cp),
            ("plan", &plan),
            ("step", &format::seconds(step)),
            ("gap", &format::seconds(gap)),
            ("term", &term),
            ("by", &by),
        ],
    ))
}

/// The schedule cell: "1F1B", "GPipe", "interleaved v = 2".
fn schedule_cell(config: &PlanConfig) -> String {
    match config.schedule {
        Schedule::OneFOneB => "1F1B".to_string(),
        Schedule::Gpipe => "GPipe".to_string(),
        Schedule::Interleaved => format!("interleaved v = {}", config.virtual_stages),
    }
}

fn recompute_cell(lang: Lang, recompute: Recompute) -> &'static str {
    match recompute {
        Recompute::Full => lang.pick("全量", "full"),
        Recompute::Selective => lang.pick("选择性", "selective"),
        Recompute::None => lang.pick("不重算", "none"),
    }
}

/// Why a row cannot be loaded, with the grids' sizes and their sliders' ranges from the core.
fn no_grid(lang: Lang) -> String {
    use parallel_core::link::{Slider, GRID_MAX_CHUNKS};
    let [small, large] = GridId::ALL.map(GridId::gpus);
    let range = |slider: Slider| slider.range(small);
    let seq = range(Slider::SeqLen);
    text::NO_GRID.fill(
        lang,
        &[
            ("small", &small),
            ("large", &large),
            ("node", &GridId::Eight.base().gpus_per_node),
            ("tp", &range(Slider::Tp).max),
            ("degree", &range(Slider::Pp).max.min(range(Slider::Cp).max)),
            ("m", &range(Slider::MicroBatches).max),
            ("v", &GRID_MAX_CHUNKS),
            ("seq_min", &format::thousands(u64::from(seq.min))),
            ("seq_max", &format::thousands(u64::from(seq.max))),
        ],
    )
}

/// Rows sorted by `key` (ascending, or descending when `descending`); the search's rank is
/// kept with each row.
pub fn sorted(plans: &[Found], key: SortKey, descending: bool) -> Vec<(usize, Found)> {
    let mut rows: Vec<(usize, Found)> = plans.iter().cloned().enumerate().collect();
    let value = |(rank, f): &(usize, Found)| match key {
        SortKey::Rank => *rank as f64,
        SortKey::Step => f.report.estimate.step_s.get(),
        SortKey::Memory => f.report.memory.total.get(),
        SortKey::Throughput => f.report.estimate.tokens_per_s_per_gpu,
    };
    rows.sort_by(|a, b| {
        let order = value(a).total_cmp(&value(b)).then(a.0.cmp(&b.0));
        if descending {
            order.reverse()
        } else {
            order
        }
    });
    rows
}

/// One row of plans: degrees, memory, step and its split, throughput, and the load button
/// (`on_load` with the config; disabled when no grid can show it). `miss` greys the row and
/// shows its overflow instead of a button.
#[component]
pub fn PlanRow(
    rank: usize,
    found: Found,
    miss: bool,
    on_load: Callback<PlanConfig>,
) -> impl IntoView {
    let lang = use_lang();
    let c = found.config.clone();
    let r = &found.report;
    let e = r.estimate;
    let memory = r.memory;
    let grid = GridId::for_plan(&c).map(GridId::gpus);
    let ep = if r.by_stage.iter().any(|s| s.expert_states.get() > 0.0) || c.ep > 1 {
        c.ep.to_string()
    } else {
        "—".to_string()
    };
    let schedule = schedule_cell(&c);
    let overflow = memory.over_capacity();
    let action = if miss {
        view! { <td class="num" data-testid="search-overflow" data-bytes=overflow.get().to_string()>{format!("+{overflow}")}</td> }.into_any()
    } else {
        let config = c.clone();
        view! {
            <td>
                <button type="button" class="small" data-testid="load" disabled=grid.is_none()
                    title=move || grid.is_none().then(|| no_grid(lang.get()))
                    on:click=move |_| on_load.run(config.clone())>
                    {move || match grid {
                        Some(cards) => text::LOAD.fill(lang.get(), &[("cards", &cards)]),
                        None => lang.get().pick("网格摆不出", "not on the grids").to_string(),
                    }}
                </button>
            </td>
        }
        .into_any()
    };
    view! {
        <tr data-testid=if miss { "search-miss" } else { "search-row" } class:miss=miss
            data-step-s=e.step_s.get().to_string()
            data-bytes=memory.total.get().to_string()
            data-tokens-per-s=e.tokens_per_s_per_gpu.to_string()
            data-config=crate::kit::format::json_text(&c)>
            <td class="num">{rank + 1}</td>
            <td class="num">{c.tp}</td>
            <td class="num">{c.pp}</td>
            <td class="num">{c.cp}</td>
            <td class="num">{ep}</td>
            <td class="num">{r.dp}</td>
            <td class="num">{c.micro_batch_size}</td>
            <td class="num">{c.micro_batches}</td>
            <td class="num">{c.zero}</td>
            <td>{move || recompute_cell(lang.get(), c.recompute)}</td>
            <td>{schedule}</td>
            <td class="num">{format::bytes(memory.total)}</td>
            <td class="num">{format::seconds(e.step_s)}</td>
            <td class="num secondary">{format!("{} / {} / {}", format::seconds(e.compute_s), format::seconds(e.bubble_s), format::seconds(e.exposed_comm_s))}</td>
            <td class="num">{format::thousands(e.tokens_per_s_per_gpu.round() as u64)}</td>
            {action}
        </tr>
    }
}

/// A sortable column header: a button that sorts by `key`, with `aria-sort` on the cell.
#[component]
pub fn SortHeader(
    key: SortKey,
    zh: &'static str,
    en: &'static str,
    sort: RwSignal<(SortKey, bool)>,
) -> impl IntoView {
    let lang = use_lang();
    let aria = move || {
        let (k, descending) = sort.get();
        if k != key {
            "none"
        } else if descending {
            "descending"
        } else {
            "ascending"
        }
    };
    let test_id = match key {
        SortKey::Rank => "sort-rank",
        SortKey::Step => "sort-step",
        SortKey::Memory => "sort-memory",
        SortKey::Throughput => "sort-throughput",
    };
    view! {
        <th scope="col" class="num" aria-sort=aria>
            <button type="button" class="sort" data-testid=test_id
                on:click=move |_| sort.update(|(k, descending)| {
                    if *k == key { *descending = !*descending } else { *k = key; *descending = key == SortKey::Throughput }
                })>
                {move || lang.get().pick(zh, en)}
                {move || match aria() { "ascending" => " ↑", "descending" => " ↓", _ => "" }}
            </button>
        </th>
    }
}

/// The table of plans (fitting, or the near misses greyed).
#[component]
pub fn PlanTable(
    #[prop(into)] rows: Signal<Vec<(usize, Found)>>,
    miss: bool,
    sort: RwSignal<(SortKey, bool)>,
    on_load: Callback<PlanConfig>,
) -> impl IntoView {
    view! {
        <TableScroll zh="搜索结果" en="Search results">
            <table class="lesson-table search-table" data-testid=if miss { "search-misses" } else { "search-results" }>
                <thead>
                    <tr>
                        <SortHeader key=SortKey::Rank zh="#" en="#" sort=sort />
                        <th scope="col" class="num">"TP"</th>
                        <th scope="col" class="num">"PP"</th>
                        <th scope="col" class="num">"CP"</th>
                        <th scope="col" class="num">"EP"</th>
                        <th scope="col" class="num">"DP"</th>
                        <th scope="col" class="num">"b"</th>
                        <th scope="col" class="num">"m"</th>
                        <th scope="col" class="num">"ZeRO"</th>
                        <th scope="col"><T zh="重计算" en="Recompute" /></th>
                        <th scope="col"><T zh="调度" en="Schedule" /></th>
                        <SortHeader key=SortKey::Memory zh="最忙卡显存" en="Busiest card" sort=sort />
                        <SortHeader key=SortKey::Step zh="每步（估算）" en="Step (estimate)" sort=sort />
                        <th scope="col" class="num"><T zh="计算 / 气泡 / 通信" en="Compute / bubble / comm" /></th>
                        <SortHeader key=SortKey::Throughput zh="每卡 tokens/s" en="Tokens/s per card" sort=sort />
                        <th scope="col">{if miss { view! { <T zh="超出" en="Over by" /> } } else { view! { <T zh="网格" en="Grid" /> } }}</th>
                    </tr>
                </thead>
                <tbody>
                    {move || rows.get().into_iter().map(|(rank, found)| view! {
                        <PlanRow rank=rank found=found miss=miss on_load=on_load />
                    }).collect_view()}
                </tbody>
            </table>
        </TableScroll>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parallel_core::search::search;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let found = search(
            &PlanConfig {
                global_batch: Some(64),
                ..PlanConfig::default()
            },
            5,
        )
        .unwrap();
        let none = search(
            &PlanConfig {
                global_batch: Some(64),
                gpu_memory_gb: 10.0,
                ..PlanConfig::default()
            },
            5,
        )
        .unwrap();
        let capacity = Bytes::from_gb(80.0);
        // The first plan splits the sequence; with no plan without CP to compare, the summary
        // says that none fits.
        assert!(found.plans[0].config.cp > 1 && found.without_cp.is_some());
        let only_cp = SearchOutcome {
            without_cp: None,
            ..found.clone()
        };
        // The planner's default search: a plan with CP 2 is 0.2% quicker than the first,
        // which does not split the sequence.
        let equal = search(
            &PlanConfig {
                gpus: 64,
                global_batch: Some(256),
                ..PlanConfig::on(parallel_core::hardware::Hardware::H100)
            },
            5,
        )
        .unwrap();
        crate::kit::text::testing::assert_all_used(text::ALL, || {
            for lang in [Lang::Zh, Lang::En] {
                summary(lang, &found, capacity);
                summary(lang, &none, capacity);
                summary(lang, &only_cp, capacity);
                summary(lang, &equal, capacity);
                text::NOTHING_VALID.fill(lang, &[("considered", &"0")]);
                text::AHEAD_MEMORY.fill(lang, &[("by", &capacity)]);
                text::AHEAD_MARGIN.fill(lang, &[("safe", &"80%")]);
                text::ALL_TIGHT.fill(lang, &[("safe", &"80%")]);
                text::AHEAD_TIE.get(lang);
                text::LOAD.fill(lang, &[("cards", &8)]);
                no_grid(lang);
                let lead = text::LEAD.fill(lang, &[("safe", &format::safe_share())]);
                assert!(lead.contains("80%"), "{lead}");
            }
        });
        let lines = summary(Lang::En, &found, capacity);
        assert!(lines[0].ends_with("the table lists the 5 quickest by estimated step time."));
        assert!(lines[2].starts_with("The first plan is "), "{}", lines[2]);
        assert!(summary(Lang::Zh, &none, capacity)[0].contains("放不下"));
        let lines = summary(Lang::En, &equal, capacity);
        assert_eq!(
            lines[2],
            "The first plan does not split the sequence; the second, with CP 2, is quicker by only \
             8.9 ms (0.2% of a step), under 2.0%, which counts as equally quick: at equal time \
             the plan without CP comes first and saves the ring of K/V exchanges."
        );
        assert_eq!(
            lines.len(),
            3,
            "no line on what CP buys under a first plan without CP"
        );
    }

    #[test]
    fn rows_sort_by_each_key_and_keep_their_rank() {
        let found = search(
            &PlanConfig {
                gpus: 64,
                global_batch: Some(256),
                ..PlanConfig::default()
            },
            20,
        )
        .unwrap();
        let by_rank = sorted(&found.plans, SortKey::Rank, false);
        assert!(by_rank.iter().enumerate().all(|(i, (rank, _))| i == *rank));
        let by_step = sorted(&found.plans, SortKey::Step, false);
        assert!(by_step
            .windows(2)
            .all(|w| w[0].1.report.estimate.step_s <= w[1].1.report.estimate.step_s));
        let by_memory = sorted(&found.plans, SortKey::Memory, false);
        assert!(by_memory
            .windows(2)
            .all(|w| w[0].1.report.memory.total <= w[1].1.report.memory.total));
        let fastest = sorted(&found.plans, SortKey::Throughput, true);
        assert!(fastest.windows(2).all(|w| {
            w[0].1.report.estimate.tokens_per_s_per_gpu
                >= w[1].1.report.estimate.tokens_per_s_per_gpu
        }));
    }

    #[test]
    fn a_plan_off_the_grids_is_told_the_core_s_ranges() {
        assert_eq!(
            no_grid(Lang::En),
            "The page's grids have 8 and 64 cards (8 a node), and their controls reach TP 8, \
             PP/CP 8, m 64, b 1, v 2 and sequences of 1,024–131,072 in powers of two: this plan \
             can only be read here."
        );
        let long = PlanConfig {
            seq_len: 262_144,
            ..PlanConfig::lesson_64_gpus()
        };
        assert_eq!(GridId::for_plan(&long), None);
    }
}
