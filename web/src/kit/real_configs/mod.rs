//! Part three of the lesson: the plans against real configurations. Llama 3 405B's three
//! published runs (DP and tokens per step computed by the core, TFLOPs and MFU quoted),
//! DeepSeek-V3's plan (memory and traffic per card computed, m = 32 assumed). The starting
//! recipes of seed 000 ([`recipes`]: layouts, engines and caps; training, rollout and the shared
//! peak where the lab knows the model, or is given it) are the RL page's.
//!
//! Rooms: [`llama`], [`deepseek`] and [`recipes`] hold one table each (the one-line traffic
//! summary is [`crate::kit::format::traffic_line`], the rejected-plan line
//! [`crate::kit::error_text::rejected`]).

pub mod deepseek;
pub mod llama;
pub mod recipes;

use leptos::prelude::*;
use parallel_core::link::{Section, Widget};

use crate::kit::lesson_section::LessonSection;

use deepseek::DeepseekTable;
use llama::LlamaTable;

#[component]
pub fn RealConfigs() -> impl IntoView {
    view! {
        <LessonSection section=Section::PartThree number="3" test_id="section-real"
            title=("和真实配置对照", "Against real configurations")
            lead=("同一套公式，换成公开报告里的模型和卡数。能现算的都现算；实测的吞吐只能引用，并注明出处。", "The same formulas, now on the models and card counts of public reports. Whatever can be computed is computed; measured throughput can only be quoted, with its source.")>
            <LlamaTable />
            <crate::kit::share::EmbedHere widget=Widget::Llama3 />
            <DeepseekTable />
        </LessonSection>
    }
}
