//! Part one of the lesson: one machine of 8 × 80 GB cards, s = 4,096.

use leptos::prelude::*;
use parallel_core::lesson::eight_gpu_plans;
use parallel_core::{ModelStates, PlanConfig, Preset, Recompute};

use crate::kit::format;
use crate::kit::grid_kit::GridKit;
use crate::kit::grid_section::GridLabView;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::lesson_section::LessonSection;
use crate::kit::lesson_table::LessonTable;
use crate::kit::prose::{Said, Words};
use crate::kit::share::EmbedHere;
use crate::pages::lesson::cp_layouts::CpLayouts;
use crate::pages::lesson::prediction::Prediction;
use crate::pages::lesson::tasks::{heaviest, total_line, GuidedTasks, Task};
use crate::state::lab::GridLab;
use crate::state::later::{LaterPart, Piece};
use crate::state::split::split_part;
use parallel_core::link::GridId;
use parallel_core::link::Section;
use parallel_core::link::Widget;

/// The sentences of part one.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// Step ②'s reading: the total per card, then the heaviest dimension.
        pub const OBSERVE_HEAVIEST: Text = Text {
            zh: "{total} · 最重的一维：{heaviest}",
            en: "{total} · heaviest: {heaviest}",
        };
        /// Step ③'s reading: the bubble.
        pub const OBSERVE_BUBBLE: Text = Text {
            zh: "气泡 (p−1)/m = {bubble}",
            en: "bubble (p−1)/m = {bubble}",
        };
        /// How the floor of model states on 8 cards is counted.
        pub const FLOOR: Text = Text {
            zh: "地板是 16 字节 × {params} ÷ 8 = {floor}：BF16 权重 2 + BF16 梯度 2 + FP32 \
                 主权重与两份 Adam 动量 12，每个参数 16 字节；8 张卡最多把它切成 8 份。DP + ZeRO-3、\
                 TP 8、TP 2 × PP 4 都落在这个地板上，差别在激活和通信。",
            en: "The floor is 16 bytes × {params} ÷ 8 = {floor}: BF16 weights 2 + BF16 gradients 2 \
                 + FP32 master weights and two Adam moments 12 = 16 bytes per parameter, and 8 \
                 cards can split it at most 8 ways. DP + ZeRO-3, TP 8 and TP 2 × PP 4 all land on \
                 this floor; they differ in activations and traffic.",
        };
    }
}

/// The part's sentences above its grid, without figures: the page's HTML holds them
/// ([`crate::kit::prose`]).
mod prose {
    use crate::kit::prose::prose_table;

    prose_table! { part_one;
        pub const TITLE = (
            "一台机：8 张 80 GB 的卡，序列 4,096",
            "One machine: 8 cards of 80 GB, sequence 4,096"
        );
        pub const QUESTION = (
            "8 张卡上，锚点每卡的模型状态最少能压到多少？",
            "On 8 cards, how low can the anchor's model states per card go?"
        );
        pub const HINT = (
            "提示：16 字节 × 参数量 ÷ 8。",
            "Hint: 16 bytes × parameters ÷ 8."
        );
        pub const TRY = (
            "试三件事",
            "Try three things"
        );
        pub const TASK_8_SELECTIVE = (
            "默认是 DP 8 + ZeRO-3 + 全量重计算：先读每卡合计；再把激活换成「选择性重计算」，看它怎样越过 80 GB。",
            "The start is DP 8 + ZeRO-3 + full recompute: read the total per card, then switch activations to selective recompute and watch it cross 80 GB."
        );
        pub const TASK_8_TP8 = (
            "把 TP 调到 8（DP 自动变成 1），激活仍用选择性重计算：又放得下了。读通信表，最重的一维从 DP 换成了 TP。",
            "Set TP to 8 (DP drops to 1) and keep selective recompute: it fits again. In the traffic table the heaviest dimension moves from DP to TP."
        );
        pub const TASK_8_PIPELINE = (
            "试 TP 2 × PP 4：读「流水线气泡」，再把每步 micro-batch 数 m 从 8 调到 32。",
            "Try TP 2 × PP 4: read the pipeline bubble, then move the micro-batches per step m from 8 to 32."
        );
    }
}

fn tasks() -> Vec<Task> {
    let base = PlanConfig::lesson_8_gpus;
    vec![
        Task {
            id: "8-selective",
            todo: Words::Prose(prose::TASK_8_SELECTIVE),
            start: Some(base()),
            target: PlanConfig {
                recompute: Recompute::Selective,
                ..base()
            },
            select: None,
            observe: |lang, r| total_line(lang, r),
        },
        Task {
            id: "8-tp8",
            todo: Words::Prose(prose::TASK_8_TP8),
            start: None,
            target: PlanConfig {
                tp: 8,
                recompute: Recompute::Selective,
                ..base()
            },
            select: None,
            observe: |lang, r| {
                let (total, heaviest) = (total_line(lang, r), heaviest(lang, r));
                text::OBSERVE_HEAVIEST.fill(lang, &[("total", &total), ("heaviest", &heaviest)])
            },
        },
        Task {
            id: "8-pipeline",
            todo: Words::Prose(prose::TASK_8_PIPELINE),
            start: None,
            target: PlanConfig {
                tp: 2,
                pp: 4,
                micro_batches: 32,
                ..base()
            },
            select: None,
            observe: |lang, r| {
                text::OBSERVE_BUBBLE.fill(lang, &[("bubble", &format::percent(r.bubble.ratio))])
            },
        },
    ]
}

/// The floor of model states on 8 cards: 16 bytes × P ÷ 8, whatever the split.
fn floor_explanation(lang: Lang, floor: parallel_core::Bytes) -> String {
    let params = format::thousands(Preset::Qwen38_27b.model().params as u64);
    text::FLOOR.fill(lang, &[("params", &params), ("floor", &floor)])
}

/// Part one: prediction, the 8-GPU grid, three tasks and the comparison table.
#[component]
pub fn OneMachine(lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let anchor = Preset::Qwen38_27b.model();
    let floor = ModelStates::ledger(
        anchor.params,
        8.0,
        3,
        PlanConfig::default().precision.grad_bytes(),
    )
    .total();
    let explanation = Signal::derive(move || floor_explanation(lang.get(), floor));
    view! {
        <LessonSection section=Section::PartOne number="1" test_id="section-8"
            title=prose::TITLE>
            <Prediction
                test_id="predict-8"
                question=prose::QUESTION
                hint=prose::HINT
                answer=Signal::stored(floor)
                explanation=explanation
            />
            // The steps stand right above the grid they change.
            <h3><Said prose=prose::TRY /></h3>
            <GuidedTasks tasks=tasks() lab=lab />
            <GridLabView lab=lab grid=GridId::Eight kit=GridKit::LESSON />
            <EmbedHere widget=Widget::Grid8 />
            <LaterPart piece=Piece::PartOneRest load=move || part_one_rest(lab) />
        </LessonSection>
    }
}

/// Part one after its grid: the comparison table, what to read from it and the CP layouts
/// (drawn after the first frame, from a split module: [`part_one_rest`]).
#[component]
fn PartOneRest(lab: GridLab) -> impl IntoView {
    view! {
        <p class="note"><T zh="点任意一张卡，看它的 TP 组、流水线、DP 组各是哪几张。" en="Click any card to see which cards share its TP group, its pipeline and its DP group." /></p>
        <h3><T zh="对答案：8 卡方案（与网格同一套公式现算）" en="Check: the 8-card plans (computed live with the grid's formulas)" /></h3>
        <LessonTable test_id="table-8" plans=eight_gpu_plans() lab=lab />
        <EmbedHere widget=Widget::Table8 />
        <div class="takeaways">
            <h4><T zh="读这张表要看出三件事" en="Three things to read from this table" /></h4>
            <ol>
                <li><T zh="模型状态有地板：无论怎么切，8 张卡都落在同一个数上，切法不同，省下的是同一份冗余。"
                       en="Model states have a floor: however you split, 8 cards land on the same figure; the splits remove the same redundancy." /></li>
                <li><T zh="差别在激活和通信：ZeRO 不切激活，所以选择性重计算放不下；TP 切激活，放得下，但同步的是激活、每层都要等。"
                       en="The difference is activations and traffic: ZeRO does not split activations, so selective recompute overflows; TP does, and fits, but it synchronises activations and every layer waits." /></li>
                <li><T zh="流水线在一台机里不划算：它省下的段间通信在机内并不稀缺，却带来气泡。"
                       en="A pipeline does not pay inside one machine: the traffic it saves between stages is not scarce on NVLink, and it brings a bubble." /></li>
            </ol>
        </div>
        <CpLayouts />
    }
}

split_part! { in part_one;
    /// [`PartOneRest`], from a split module of its own.
    fn part_one_rest(lab: GridLab) { view! { <PartOneRest lab=lab /> } }
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
    use crate::kit::text::testing::assert_each_lang_uses_all;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let floor = parallel_core::Bytes::from_gb(55.6);
        assert_each_lang_uses_all(text::ALL, |lang| {
            for task in tasks() {
                task.observed(lang);
            }
            floor_explanation(lang, floor);
        });
        assert!(tasks()[1].observed(Lang::Zh).contains(" · 最重的一维：TP "));
        assert!(floor_explanation(Lang::En, floor)
            .starts_with("The floor is 16 bytes × 27,781,427,952 ÷ 8 = 55.6 GB: "));
    }
}
