//! The page's opening: what kind of lab this is (computed, not measured, with a link to what it
//! leaves out in the counting note) and the anchor model every grid is filled with. Its figures
//! come from the core's preset and ledger; nothing here multiplies. [`OmissionList`] draws the
//! core's list of what the lab leaves out (`parallel_core::omissions`) for the counting note.

use leptos::prelude::*;
use parallel_core::omissions::Omission;
use parallel_core::{ModelStates, PlanConfig, Preset};

use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang};
use crate::kit::lesson_section::LessonSection;
use crate::kit::prose::{Prose, Said};
use parallel_core::link::Section;

/// The sentences of the opening.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The anchor's shape, from its preset.
        pub const ANCHOR_SHAPE: Text = Text {
            zh: "隐藏维度 {hidden}，{layers} 层（其中 {full} 层全注意力、{linear} 层线性注意力），\
                 {heads} 个注意力头、{kv_heads} 个 KV 头，每头 {head_dim} 维，FFN {ffn}，词表 \
                 {vocab}。",
            en: "Hidden size {hidden}, {layers} layers ({full} with full attention, {linear} with \
                 linear attention), {heads} attention heads and {kv_heads} KV heads of {head_dim} \
                 dimensions, FFN {ffn}, vocabulary {vocab}.",
        };
    }
}

/// The opening's sentences without figures: the page's HTML holds them
/// ([`crate::kit::prose`]).
mod prose {
    use crate::kit::prose::prose_table;

    prose_table! { intro;
        pub const TITLE = ("这是一堂计算实验", "A lab of computation, not of training");
        pub const LEAD = (
            "前面几课各自切开了一维：数据、张量、流水线、序列、专家。这一页把它们放到同一批卡上组合：每一步先写下你的预测，再在设备网格里核对每卡显存、每一维通信走哪条链路、流水线气泡多大，最后拿 Llama 3 与 DeepSeek-V3 公开的配置来对照。",
            "Earlier lessons each cut one dimension: data, tensors, pipeline stages, sequences, experts. This page combines them on one set of cards: write down a prediction, then check it in the device grid (memory per card, the link each dimension's traffic takes, the pipeline bubble), and at the end hold the plans against the published configurations of Llama 3 and DeepSeek-V3."
        );
        pub const LIMITS = (
            "这里没有真实的多卡训练：每个数都按公式现算，凡是实测数字都引用公开报告并注明出处。",
            "Every figure is computed, not run on a cluster; measured ones cite their source."
        );
        pub const LEFT_OUT = ("它没算什么、每个数怎么算，见页底。", "What it leaves out");
        pub const ANCHOR = ("锚点模型：Qwen3.8-27B", "The anchor model: Qwen3.8-27B");
        pub const PARAMS = ("参数量（官方计数）", "Parameters (official count)");
        pub const STATES = ("一张卡要存的模型状态", "Model states on a single card");
        pub const SIXTEEN_BYTES = (
            "每个参数 16 字节：BF16 权重 2、BF16 梯度 2、FP32 主权重与 Adam 的两份动量共 12。单这一项就比一张 80 GB 的卡大好几倍，所以必须切。",
            "Sixteen bytes per parameter: BF16 weights 2, BF16 gradients 2, and 12 for the FP32 master copy and Adam's two moments. That alone is several times an 80 GB card, so the model has to be split."
        );
        pub const CONTENTS = ("本页内容", "On this page");
        pub const PART_ONE = ("一、一台机：8 张卡", "1. One machine: 8 cards");
        pub const PART_TWO = ("二、8 台机：64 张卡", "2. Eight machines: 64 cards");
        pub const PART_THREE = ("三、和真实配置对照", "3. Against real configurations");
        pub const PART_FOUR = ("四、为项目拍板", "4. Decide for the project");
        pub const EVOLUTION = ("演进地图", "The evolution map");
        pub const COUNTING_NOTE = ("这些数怎么算", "How these numbers are counted");
    }
}

/// A section's line in the page's table of contents; the intro has none.
fn contents_line(section: Section) -> Option<Prose> {
    match section {
        Section::Intro => None,
        Section::PartOne => Some(prose::PART_ONE),
        Section::PartTwo => Some(prose::PART_TWO),
        Section::PartThree => Some(prose::PART_THREE),
        Section::PartFour => Some(prose::PART_FOUR),
        Section::Evolution => Some(prose::EVOLUTION),
        Section::CountingNote => Some(prose::COUNTING_NOTE),
    }
}

/// The anchor's shape in one line, from its preset.
fn anchor_shape(lang: Lang) -> String {
    let m = Preset::Qwen38_27b.model();
    let linear = m.linear_attention_layers();
    text::ANCHOR_SHAPE.fill(
        lang,
        &[
            ("hidden", &m.hidden),
            ("layers", &m.layers),
            ("full", &m.full_attention_layers),
            ("linear", &linear),
            ("heads", &m.heads),
            ("kv_heads", &m.kv_heads),
            ("head_dim", &m.head_dim),
            ("ffn", &format::thousands(u64::from(m.ffn))),
            ("vocab", &format::thousands(u64::from(m.vocab))),
        ],
    )
}

/// Between an omission's title and its reason: a full-width colon in Chinese.
fn title_separator(lang: Lang) -> &'static str {
    lang.pick("：", ": ")
}

/// A list of things the lab does not count, each its title in bold and its reason, in the
/// page's language; the words are the core's. Each item carries its id as `data-omission`.
#[component]
pub fn OmissionList(
    /// The items, in the order shown.
    items: Vec<Omission>,
    /// The list's class.
    class: &'static str,
    /// The list's test id.
    test_id: &'static str,
) -> impl IntoView {
    let lang = use_lang();
    let rows = items
        .into_iter()
        .map(|item| {
            view! {
                <li data-omission=item.id()>
                    <strong>{move || item.title(lang.get())}</strong>
                    {move || title_separator(lang.get())}
                    {move || item.reason(lang.get())}
                </li>
            }
        })
        .collect_view();
    view! { <ul class=class data-testid=test_id>{rows}</ul> }
}

/// The opening section: the lab, its limits, the anchor.
#[component]
pub fn Intro() -> impl IntoView {
    let lang = use_lang();
    let anchor = Preset::Qwen38_27b.model();
    let grad_bytes = PlanConfig::default().precision.grad_bytes();
    // 16 bytes × P on one card: the core's ZeRO ledger with no sharding.
    let states = ModelStates::ledger(anchor.params, 1.0, 0, grad_bytes).total();
    let params = format::thousands(anchor.params as u64);
    let params_text = params.clone();
    let params_attr = params.clone();
    let shape = move || anchor_shape(lang.get());
    let page = use_context::<crate::state::permalink::PageState>();
    let later = use_context::<crate::state::later::LaterParts>();
    let contents = Section::ALL
        .into_iter()
        .filter_map(|section| contents_line(section).map(|line| (section, line)))
        .map(|(section, line)| {
            let go = move |event: leptos::ev::MouseEvent| {
                if let Some(page) = page {
                    event.prevent_default();
                    crate::state::permalink::go_to(page.section, section, later);
                }
            };
            let href = format!("#{}", section.id());
            view! { <li><a href=href on:click=go><Said prose=line /></a></li> }
        })
        .collect_view();
    view! {
        <LessonSection section=Section::Intro test_id="section-intro" class="intro"
            title=prose::TITLE lead=prose::LEAD>
            <p data-testid="intro-limits">
                <Said prose=prose::LIMITS />
                " "
                <a href=format!("#{}", Section::CountingNote.id()) on:click=move |event: leptos::ev::MouseEvent| {
                    if let Some(page) = page {
                        event.prevent_default();
                        crate::state::permalink::go_to(page.section, Section::CountingNote, later);
                    }
                }>
                    <Said prose=prose::LEFT_OUT />
                </a>
            </p>

            <div class="anchor-card" data-testid="anchor">
                <h3><Said prose=prose::ANCHOR /></h3>
                <dl class="anchor-figures">
                    <div>
                        <dt><Said prose=prose::PARAMS /></dt>
                        <dd data-testid="anchor-params" data-params=params_attr>{params}</dd>
                    </div>
                    <div>
                        <dt><Said prose=prose::STATES /></dt>
                        <dd data-testid="anchor-states" data-bytes=states.get().to_string()>
                            "16 × " {params_text} " B = " <strong>{format::bytes(states)}</strong>
                        </dd>
                    </div>
                </dl>
                <p class="caption">{shape}</p>
                <p class="note">
                    <Said prose=prose::SIXTEEN_BYTES />
                </p>
            </div>

            <nav class="contents" aria-labelledby="contents-title">
                <h3 id="contents-title" class="sr-only"><Said prose=prose::CONTENTS /></h3>
                <ul>{contents}</ul>
            </nav>
        </LessonSection>
    }
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
        assert_each_lang_uses_all(text::ALL, anchor_shape);
    }

    #[test]
    fn anchor_shape_reads_the_preset() {
        let zh = anchor_shape(Lang::Zh);
        assert!(zh.contains("16 层全注意力"), "{zh}");
        assert!(zh.contains("48 层线性注意力"), "{zh}");
        let en = anchor_shape(Lang::En);
        assert!(en.contains("vocabulary 248,320"), "{en}");
        assert!(!parallel_core::lang::has_cjk(&en), "{en}");
    }

    #[test]
    fn the_intro_names_what_the_old_text_got_wrong() {
        // The opening's list is a part of the core's: expert parallelism and the stages are
        // among it, now as what they leave out, not as absent from the grids.
        let intro: Vec<Omission> = Omission::ALL.into_iter().filter(|o| o.in_intro()).collect();
        assert!(intro.contains(&Omission::ExpertBalance) && intro.contains(&Omission::EvenSplit));
        assert!(intro.len() < Omission::ALL.len());
        for lang in [Lang::Zh, Lang::En] {
            let text: String = intro.iter().map(|o| o.reason(lang)).collect();
            assert!(!text.contains("not in the grids") && !text.contains("网格里没有"));
        }
        assert_eq!(title_separator(Lang::Zh), "：");
    }

    #[test]
    fn one_card_needs_sixteen_bytes_per_parameter() {
        let p = Preset::Qwen38_27b.model().params;
        assert_eq!(format::thousands(p as u64), "27,781,427,952");
        assert_eq!(
            format::bytes(ModelStates::ledger(p, 1.0, 0, 2.0).total()),
            "444.5 GB"
        );
    }
}
