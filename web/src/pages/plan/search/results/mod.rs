//! The search's outcome as the page shows it: counts, why the first plan ranks first (one
//! sentence per [`Lead`] of the core), a sortable table of the fitting plans with a `load` button each, and, when nothing fits, the
//! nearest misses greyed with their overflow. Every figure is the core's report of the plan.

use leptos::prelude::*;
use parallel_core::link::GridId;
use parallel_core::search::Found;
use parallel_core::{PlanConfig, Schedule};

use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::table_scroll::TableScroll;

mod reasons;
/// The sentences of the results.
pub mod text;

use reasons::recompute_cell;
pub use reasons::{summary, why_first};

/// A column the table sorts by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortKey {
    /// The search's own order (under the safe share of the card first, then the step, a tie
    /// within the band to the practitioner's plan): the table's first order.
    Rank,
    /// Estimated step time.
    Step,
    /// Memory of the busiest card.
    Memory,
    /// Tokens per second per card.
    Throughput,
}

/// The schedule cell: "1F1B", "GPipe", "interleaved v = 2".
fn schedule_cell(config: &PlanConfig) -> String {
    match config.schedule {
        Schedule::OneFOneB => "1F1B".to_string(),
        Schedule::Gpipe => "GPipe".to_string(),
        Schedule::Interleaved => format!("interleaved v = {}", config.virtual_stages),
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
    use crate::kit::text::testing::assert_each_lang_uses_all;
    use parallel_core::estimate::Term;
    use parallel_core::search::search;
    use parallel_core::search::{Lead, Reason, Rival, SearchOutcome, EQUAL_TIME_SHARE};
    use parallel_core::Bytes;

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
        // Every reason, against the second and the quickest (listed or not).
        let gap = parallel_core::Seconds::new(0.01);
        let reasons = [
            Reason::UnderSafeShare {
                share: 0.7,
                rival_share: 0.85,
            },
            Reason::Quicker {
                gap,
                share: 0.03,
                over_quickest: 0.025,
                term: Term::Bubble,
                by: gap,
            },
            Reason::Quicker {
                gap,
                share: 0.03,
                over_quickest: 0.025,
                term: Term::Compute,
                by: parallel_core::Seconds::new(-0.01),
            },
            Reason::TieNoCp {
                gap,
                share: 0.002,
                rival_cp: 2,
            },
            Reason::TieFewerDimensions {
                gap,
                share: 0.002,
                dimensions: 2,
                rival_dimensions: 3,
            },
            Reason::TieSmallerPp {
                gap,
                share: 0.002,
                pp: 16,
                rival_pp: 32,
            },
            Reason::TieQuicker { gap, share: 0.002 },
            Reason::LessMemory { by: capacity },
            Reason::Enumeration,
        ];
        let every = SearchOutcome {
            why_first: reasons
                .iter()
                .zip([Rival::Second, Rival::Quickest].into_iter().cycle())
                .zip([Some(2), Some(4), None].into_iter().cycle())
                .map(|((reason, against), rank)| Lead {
                    against,
                    rank,
                    reason: *reason,
                })
                .collect(),
            ..equal.clone()
        };
        assert_each_lang_uses_all(text::ALL, |lang| {
            summary(lang, &found, capacity);
            summary(lang, &none, capacity);
            summary(lang, &only_cp, capacity);
            summary(lang, &equal, capacity);
            why_first(lang, &every);
            text::NOTHING_VALID.fill(lang, &[("considered", &"0")]);
            text::ALL_TIGHT.fill(lang, &[("safe", &"80%")]);
            text::CP_MARGIN.fill(lang, &[("share", &"85.0%"), ("safe", &"80%")]);
            text::LOAD.fill(lang, &[("cards", &8)]);
            no_grid(lang);
            let lead = text::LEAD.fill(
                lang,
                &[
                    ("safe", &format::safe_share()),
                    ("band", &format::rule_percent(EQUAL_TIME_SHARE)),
                ],
            );
            assert!(lead.contains("80%") && lead.contains("2%"), "{lead}");
        });
        let ids: Vec<&str> = why_first(Lang::En, &every)
            .iter()
            .map(|(id, _)| *id)
            .collect();
        assert_eq!(
            ids,
            [
                "under_safe_share",
                "quicker",
                "quicker",
                "tie_no_cp",
                "tie_fewer_dimensions",
                "tie_smaller_pp",
                "tie_quicker",
                "less_memory",
                "enumeration"
            ]
        );
        let lines = summary(Lang::En, &found, capacity);
        assert!(lines[0].ends_with("the table lists the 5 quickest by estimated step time."));
        assert!(
            lines[2].starts_with("The first plan splits the sequence over CP "),
            "{}",
            lines[2]
        );
        assert!(summary(Lang::Zh, &none, capacity)[0].contains("放不下"));
        assert!(why_first(Lang::En, &none).is_empty());
        // The planner's default search: TP 2 × PP 2 first; the second is alike and slower, the
        // quickest (#4) splits the sequence and is 0.2% quicker: a tie, to the plan without CP.
        assert_eq!(
            summary(Lang::En, &equal, capacity).len(),
            2,
            "no line on what CP buys under a first plan without CP"
        );
        let why: Vec<String> = why_first(Lang::En, &equal)
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        assert_eq!(
            why,
            [
                "The first plan and the second plan are alike in CP, parallel dimensions and PP, \
                 both within 2% of the quickest plan: the tie goes to the quicker, by 58.4 ms \
                 (1.4% of a step).",
                "The first plan and the quickest plan by the estimate, #4 (TP 1 × CP 2 × PP 4) \
                 are 8.9 ms apart (0.2% of a step), both within 2% of the quickest plan, closer \
                 than the estimate can tell: a tie. A tie goes to the plan that does not split \
                 the sequence: the latter runs CP 2, cutting every sequence into 2 × 2 chunks \
                 with a ring of K/V exchanges (Llama 3 ran CP 1 at 8K tokens)."
            ]
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
