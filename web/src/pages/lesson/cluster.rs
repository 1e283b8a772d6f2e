//! Part two of the lesson: 8 machines, 64 cards, TP kept inside a machine.

use leptos::prelude::*;
use parallel_core::lesson::sixty_four_gpu_plans;
use parallel_core::{
    stages_imbalance, stages_range, Accounting, Dim, PlanConfig, Report, Schedule,
};

use crate::kit::format;
use crate::kit::grid_kit::GridKit;
use crate::kit::grid_section::GridLabView;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::lesson_section::LessonSection;
use crate::kit::lesson_table::LessonTable;
use crate::kit::prose::{Said, Words};
use crate::kit::share::EmbedHere;
use crate::kit::vocab;
use crate::pages::lesson::tasks::{GuidedTasks, Task};
use crate::state::lab::GridLab;
use crate::state::later::{LaterPart, Piece};
use crate::state::split::split_part;
use parallel_core::link::GridId;
use parallel_core::link::Section;
use parallel_core::link::Widget;

/// The sentences of part two.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// Step ②'s reading: the bubble and its share of the step.
        pub const OBSERVE_BUBBLE: Text = Text {
            zh: "气泡 (p−1)/m = {bubble} · 占整步 {share}",
            en: "bubble (p−1)/m = {bubble} · share of the step {share}",
        };
        /// Step ③'s reading: activations per card and the CP traffic.
        pub const OBSERVE_CP: Text = Text {
            zh: "每卡激活 {activations} · CP {cp}",
            en: "activations per card {activations} · CP {cp}",
        };

        /// The stage steps' reading: the busiest and the lightest stage, and how uneven they are.
        pub const OBSERVE_STAGES: Text = Text {
            zh: "最忙：第 {busiest} 段 {most} · 最轻 {least} · 最大 ÷ 最小 = {ratio}",
            en: "busiest: stage {busiest} {most} · lightest {least} · max ÷ min = {ratio}",
        };

        /// The part's lead, with the links' bandwidths of the page's starting plan.
        pub const LEAD: Text = Text {
            zh: "同一个网格组件，画成 8 个机箱、每箱 8 张卡。机内走 NVLink（每卡 {nvlink} GB/s），跨机走 InfiniBand（每卡 {ib} GB/s）。",
            en: "The same grid, drawn as 8 machine boxes of 8 cards. Inside a machine traffic runs over NVLink ({nvlink} GB/s per card), across machines over InfiniBand ({ib} GB/s per card).",
        };
    }
}

/// The part's sentences above its grid, without figures: the page's HTML holds them
/// ([`crate::kit::prose`]).
mod prose {
    use crate::kit::prose::prose_table;

    prose_table! { part_two;
        pub const TITLE = (
            "8 台机：64 张卡，TP 不跨机",
            "Eight machines: 64 cards, TP stays inside a machine"
        );
        pub const TRY = (
            "试三件事",
            "Try three things"
        );
        pub const TASK_64_CARD0 = (
            "TP 8 × PP 2 × DP 4 · ZeRO-1，点卡 0：它的 TP 组是同一台机的 8 张卡（NVLink），流水线隔一台机（IB），DP 组也跨机（IB）。",
            "TP 8 × PP 2 × DP 4 · ZeRO-1, click card 0: its TP group is the 8 cards of its machine (NVLink), its pipeline partner is a machine away (IB), its DP group crosses machines too (IB)."
        );
        pub const TASK_64_PP8 = (
            "TP 调不过 8：网格只给到一台机。把 PP 调到 8，读气泡；再把 m 调到 32。",
            "TP cannot go past 8: the grid stops at one machine. Set PP to 8 and read the bubble, then move m to 32."
        );
        pub const TASK_64_CP8 = (
            "把 CP 调到 8、序列调到 131,072（PP 回到 1）：看每卡激活和 CP 那一行通信。",
            "Set CP to 8 and the sequence to 131,072 (PP back to 1): look at the activations per card and the CP row of the traffic."
        );
    }
}

/// The lead's sentence: the bandwidths of the core's default plan, the lesson's links.
fn lead(lang: Lang) -> String {
    let config = PlanConfig::default();
    text::LEAD.fill(
        lang,
        &[
            ("nvlink", &format!("{:.0}", config.nvlink_gbps)),
            ("ib", &format!("{:.0}", config.ib_gbps)),
        ],
    )
}

/// What the stage steps read off the live report: the busiest stage against the lightest.
fn observe_stages(lang: Lang, r: &Report) -> String {
    let busiest = r.busiest_stage.unwrap_or(0);
    let (least, most) = stages_range(&r.by_stage).unwrap_or_default();
    let ratio = format!("{:.2}", stages_imbalance(&r.by_stage));
    text::OBSERVE_STAGES.fill(
        lang,
        &[
            ("busiest", &busiest),
            ("most", &most),
            ("least", &least),
            ("ratio", &ratio),
        ],
    )
}

/// Seed 003's question, "is memory even across pipeline stages?", as two steps.
fn stage_tasks() -> Vec<Task> {
    let base = || PlanConfig {
        accounting: Accounting::Stages,
        ..PlanConfig::lesson_64_gpus()
    };
    vec![
        Task {
            id: "64-stages",
            todo: Words::Pair(
                "先猜：TP 8 × PP 8 时哪一段最重？再把「显存怎么记」换成「按段计」：第 0 段多存嵌入和 8 个在途 micro-batch，第 7 段多存输出头和整张词表的 FP32 logits。网格里每张卡按自己的段着色。",
                "Guess first: at TP 8 × PP 8, which stage is heaviest? Then switch memory accounting to \"by stage\": stage 0 also holds the embedding and 8 micro-batches in flight, stage 7 the output head and the FP32 logits over the whole vocabulary. Each card of the grid is tinted by its own stage.",
            ),
            start: None,
            target: base(),
            select: None,
            observe: observe_stages,
        },
        Task {
            id: "64-stages-even",
            todo: Words::Pair(
                "试着拉平：换 interleaved 调度（v = 2），再试选择性重计算，读「最大 ÷ 最小」怎么变。（给首尾两段少分几层更直接，但这里没有建模。）",
                "Try to even it out: switch to the interleaved schedule (v = 2), then try selective recompute, and read how max ÷ min moves. (Giving the first and last stage fewer layers is more direct, but it is not modelled here.)",
            ),
            start: None,
            target: PlanConfig { schedule: Schedule::Interleaved, virtual_stages: 2, ..base() },
            select: None,
            observe: observe_stages,
        },
    ]
}

fn tasks() -> Vec<Task> {
    let base = PlanConfig::lesson_64_gpus;
    vec![
        Task {
            id: "64-card0",
            todo: Words::Prose(prose::TASK_64_CARD0),
            start: None,
            target: PlanConfig {
                pp: 2,
                zero: 1,
                ..base()
            },
            select: Some(0),
            observe: |lang, r| {
                r.comm
                    .iter()
                    .map(|t| {
                        format!(
                            "{} {} {}",
                            vocab::dim(lang, t.dim),
                            format::bytes(t.bytes),
                            vocab::link(lang, t.link)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" · ")
            },
        },
        Task {
            id: "64-pp8",
            todo: Words::Prose(prose::TASK_64_PP8),
            start: None,
            target: PlanConfig {
                micro_batches: 32,
                ..base()
            },
            select: None,
            observe: |lang, r| {
                let (bubble, share) = (
                    format::percent(r.bubble.ratio),
                    format::percent(r.bubble.share),
                );
                text::OBSERVE_BUBBLE.fill(lang, &[("bubble", &bubble), ("share", &share)])
            },
        },
        Task {
            id: "64-cp8",
            todo: Words::Prose(prose::TASK_64_CP8),
            start: None,
            target: PlanConfig {
                pp: 1,
                cp: 8,
                seq_len: 131_072,
                ..base()
            },
            select: None,
            observe: |lang, r| {
                let cp = r.comm.iter().find(|t| t.dim == Dim::Cp);
                let cp = cp
                    .map(|t| format!("{} ({})", format::bytes(t.bytes), vocab::link(lang, t.link)))
                    .unwrap_or_default();
                text::OBSERVE_CP.fill(lang, &[("activations", &r.memory.activations), ("cp", &cp)])
            },
        },
    ]
}

/// Part two: the 64-GPU grid as 8 node boxes (drawn after the first frame), its tasks and its
/// table.
#[component]
pub fn Cluster(lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    view! {
        <LessonSection section=Section::PartTwo number="2" test_id="section-64"
            title=prose::TITLE>
            <p class="lead">{move || lead(lang.get())}</p>
            // The steps stand right above the grid they change.
            <h3><Said prose=prose::TRY /></h3>
            <GuidedTasks tasks=tasks() lab=lab />
            // Below the first screen: drawn after the first frame, by the page's own code.
            <LaterPart piece=Piece::GridSixtyFour load=move || async move {
                Ok(view! { <GridLabView lab=lab grid=GridId::SixtyFour kit=GridKit::LESSON /> }.into_any())
            } />
            <div class="embed-row">
                <EmbedHere widget=Widget::Grid64 />
                <EmbedHere widget=Widget::ChartMemory64 />
                <EmbedHere widget=Widget::ChartTraffic64 />
                <EmbedHere widget=Widget::ChartBubble64 />
            </div>
            <LaterPart piece=Piece::PartTwoRest load=move || part_two_rest(lab) />
        </LessonSection>
    }
}

/// Part two after its grid: the stage steps, the 64-card table and the takeaway (drawn after
/// the first frame, from a split module: [`part_two_rest`]).
#[component]
fn PartTwoRest(lab: GridLab) -> impl IntoView {
    view! {
        <h3><T zh="每一段的显存一样吗？" en="Is memory the same on every stage?" /></h3>
        <GuidedTasks tasks=stage_tasks() lab=lab />
        <h3><T zh="64 卡方案（现算）" en="The 64-card plans (computed live)" /></h3>
        <LessonTable test_id="table-64" plans=sixty_four_gpu_plans() lab=lab />
        <EmbedHere widget=Widget::Table64 />
        <p class="takeaway">
            <T zh="64 张卡时，每卡的模型状态轻松降到几 GB，问题变成通信走哪条链路：TP 字节最多，但它在机内；跨机的只有流水线的段间激活和 DP 的梯度同步，都比 TP 小一两个数量级。越内层的维度通信越重，越要放在带宽高的链路上。"
               en="On 64 cards the model states per card drop to a few GB, and the question becomes which link carries what: TP sends the most bytes but stays inside a machine; only the pipeline's activations and DP's gradient sync cross machines, one or two orders of magnitude smaller. The heavier a dimension's traffic, the further inside it goes, onto the faster link." />
        </p>
    }
}

split_part! { in part_two;
    /// [`PartTwoRest`], from a split module of its own.
    fn part_two_rest(lab: GridLab) { view! { <PartTwoRest lab=lab /> } }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The text is the table's outside the page's wasm only.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn the_first_screens_sentences_are_written_in_both_languages() {
        crate::kit::prose::testing::check_table(prose::PROSE);
    }
    use crate::kit::i18n::Lang;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        assert_each_lang_uses_all(text::ALL, |lang| {
            for task in tasks().into_iter().chain(stage_tasks()) {
                task.observed(lang);
            }
            let lead = lead(lang);
            assert!(
                lead.contains("160 GB/s") && lead.contains("50 GB/s"),
                "{lead}"
            );
        });
        assert_eq!(
            tasks()[1].observed(Lang::En),
            "bubble (p−1)/m = 21.9% · share of the step 17.9%"
        );
    }
}
