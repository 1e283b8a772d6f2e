//! Part four of the lesson: the three decisions for the project, as forms whose answers are
//! checked against the core, and the acceptance line's TP bench, really run in the page.
//!
//! The student's numbers are parsed by [`crate::kit::input`]
//! and compared with what the core computes for the student's own plan; every figure shown
//! is the core's. Bad input (empty, text, negative, huge) becomes a message, never a panic.
//!
//! Rooms: [`check`] judges (no views), [`choices`] types what the selects hold, [`fields`](crate::kit::fields)
//! holds the shared form pieces, [`one`], [`two`], [`three`] are the three decisions and
//! [`bench`] the TP bench.

pub mod bench;
pub mod check;
pub mod choices;
pub mod one;
pub mod three;
pub mod two;

use leptos::prelude::*;
use parallel_core::link::Section;

use crate::kit::i18n::T;
use crate::kit::lesson_section::LessonSection;
use crate::pages::lesson::questions::Questions;
use crate::state::lab::GridLab;
use bench::TpBenchView;
use one::DecisionOneForm;
use three::DecisionThreeForm;
use two::DecisionTwoForm;

#[component]
pub fn Decisions(lab8: GridLab, lab64: GridLab) -> impl IntoView {
    view! {
        <LessonSection section=Section::PartFour number="4" test_id="section-decisions"
            title=("为项目拍板", "Decide for the project")
            lead=("三件事要拍板，每件都写成能核对的数：选好方案、写下你的数，页面用和网格相同的公式算一遍，逐项对照。", "Three decisions, each written as figures that can be checked: choose a plan, write down your numbers, and the page counts the same plan with the grid's formulas and compares line by line.")>
            <DecisionOneForm lab8=lab8 />
            <DecisionTwoForm lab64=lab64 />
            <DecisionThreeForm />
            <Questions lab8=lab8 lab64=lab64 />
            <div class="acceptance" data-testid="acceptance">
                <h3><T zh="验收" en="Acceptance" /></h3>
                <ol>
                    <li><T zh="每卡显存分项（模型状态、激活）与网格现算值一致，合计 ≤ 80 GB（第 ① 项）。"
                           en="Per-card memory, item by item (model states, activations), matches the grid's computed figures, and the total is at most 80 GB (decision ①)." /></li>
                    <li><T zh="写清通信最重的一维、它的字节数和链路（第 ② 项）。"
                           en="The heaviest dimension is named with its bytes and its link (decision ②)." /></li>
                    <li><T zh="第 3 课验算台的两个结论能复现：先列切再行切，差在舍入级；按行切，差不为 0。"
                           en="Both conclusions of lesson 3's bench reproduce: columns then rows differ only by rounding; a row split does not give the same result." /></li>
                </ol>
                <TpBenchView />
            </div>
        </LessonSection>
    }
}
