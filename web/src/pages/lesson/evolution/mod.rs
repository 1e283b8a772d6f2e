//! The lesson's evolution map of parallelism: each generation, what it solved, where it got
//! stuck and the number that shows it. Our numbers come from
//! [`EvolutionFigures::compute`](parallel_core::evolution::EvolutionFigures::compute) and the
//! core's plans; published ones (GPU hours, TFLOPS of a paper, MFU) are quoted with their source.

use leptos::prelude::*;
use parallel_core::evolution::{EvolutionFigures, DEEPSEEK_V3_GPU_HOURS, EFFECTIVE_FLOPS};
use parallel_core::lesson::deepseek_v3_plan;
use parallel_core::numbers;
use parallel_core::{causal_pairs, Bytes, CpLayout, Plan, PlanConfig, Preset};

use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang};
use crate::kit::lesson_section::LessonSection;
use crate::kit::real_configs::llama::{llama_rows, LlamaRow};
use parallel_core::link::Section;

/// The map's sentences: each generation's era, title, what it solved and where it got stuck,
/// Chinese and English side by side, with the numbers as named parameters.
mod text;

/// One generation of the map, in one language.
#[derive(Clone, Debug, PartialEq)]
pub struct Generation {
    /// Stable id (test hook `evolution-<key>`).
    pub key: &'static str,
    /// When, and the paper or system it is known by.
    pub era: String,
    /// Its name.
    pub title: String,
    /// What it solved.
    pub solved: String,
    /// Where it got stuck.
    pub stuck: String,
}

/// Everything the map quotes besides [`EvolutionFigures`], read from the core.
#[derive(Clone, Debug, PartialEq)]
pub struct MapInputs {
    /// The computed figures.
    pub figures: EvolutionFigures,
    /// An 80 GB card.
    pub card: Bytes,
    /// NVLink and InfiniBand per GPU, GB/s.
    pub nvlink_gbps: f64,
    /// InfiniBand per GPU, GB/s.
    pub ib_gbps: f64,
    /// Causal pairs of 16 tokens on CP 4, zigzag.
    pub zigzag_pairs: Vec<u64>,
    /// KV heads of the anchor.
    pub anchor_kv_heads: u32,
    /// DeepSeek-V3's PP and EP degrees.
    pub deepseek_pp_ep: (u32, u32),
    /// Llama 3 405B's largest run without CP.
    pub llama: Option<LlamaRow>,
}

impl MapInputs {
    /// Reads every input from the core.
    pub fn compute() -> Result<MapInputs, parallel_core::PlanError> {
        let defaults = PlanConfig::default();
        let deepseek = deepseek_v3_plan();
        let llama = llama_rows()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|r| r.degrees.cp == 1)
            .max_by_key(|r| r.run.config.gpus);
        Ok(MapInputs {
            figures: EvolutionFigures::compute()?,
            card: Plan::default().capacity(),
            nvlink_gbps: defaults.nvlink_gbps,
            ib_gbps: defaults.ib_gbps,
            zigzag_pairs: causal_pairs(16, 4, CpLayout::Zigzag)?,
            anchor_kv_heads: Preset::Qwen38_27b.model().kv_heads,
            deepseek_pp_ep: (deepseek.pp, deepseek.ep),
            llama,
        })
    }
}

fn gb(bytes: Bytes) -> String {
    format::bytes(bytes)
}

/// "1/3" for a unit fraction, otherwise two decimals.
fn fraction(x: f64) -> String {
    if x > 0.0 {
        let n = (1.0 / x).round();
        if n >= 1.0 && (x * n - 1.0).abs() < 1e-9 {
            return format!("1/{n}");
        }
    }
    format!("{x:.2}")
}

fn pairs(values: &[u64]) -> String {
    values
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" : ")
}

/// The ten generations of the map in `lang`, every number from `inputs`.
pub fn generations(lang: Lang, inputs: &MapInputs) -> Vec<Generation> {
    let f = &inputs.figures;
    let states = gb(f.single_card_states);
    let card = gb(inputs.card);
    let times = format!("{:.1}", f.times_a_card);
    let hours = format::thousands(DEEPSEEK_V3_GPU_HOURS as u64);
    let years = format!("{:.0}", f.one_card_years);
    let (ring8, ring64) = (gb(f.ring_dp_8), gb(f.ring_dp_64));
    let naive8 = gb(f.naive_gather_8);
    let naive64 = format!(
        "{} GB",
        format::thousands(f.naive_gather_64.gb().round() as u64)
    );
    let ib_time = format::seconds(f.ring_dp_8_over_ib);
    let backward = format::seconds(f.backward_4096_tokens);
    let tflops = numbers::teras(EFFECTIVE_FLOPS);
    let (nv, ib) = (
        format!("{:.0}", inputs.nvlink_gbps),
        format!("{:.0}", inputs.ib_gbps),
    );
    let chain = f.zero_chain_8.map(gb).join(" → ");
    let factor = format!("{:.1}", f.zero3_traffic_factor);
    let (sel_dp, room, sel_tp) = (
        gb(f.selective_activations_dp8),
        gb(f.room_beside_zero3),
        gb(f.selective_activations_tp8),
    );
    let tp_bytes = gb(f.tp8_traffic_4096_tokens);
    let (bubble, share, bubble_v4) = (
        format::percent(f.bubble_p8_m32),
        format::percent(f.bubble_share_p8_m32),
        format::percent(f.bubble_p8_m32_v4),
    );
    let zb = fraction(f.zb_h1_fraction);
    let (contiguous, zigzag) = (pairs(&f.cp4_contiguous_pairs), pairs(&inputs.zigzag_pairs));
    let cp_layer = gb(f.cp8_per_layer_131k);
    let kv = inputs.anchor_kv_heads;
    let routed = numbers::billions(f.deepseek_routed_params);
    let per_card = format!("{:.0}", f.deepseek_experts_per_card);
    let ib_share = format::percent(f.ib_over_nvlink);
    let (ds_pp, ds_ep) = inputs.deepseek_pp_ep;
    let llama = inputs.llama.as_ref().map_or_else(String::new, |r| {
        let d = r.degrees;
        text::LLAMA.fill(
            lang,
            &[
                ("tp", &d.tp),
                ("cp", &d.cp),
                ("pp", &d.pp),
                ("dp", &d.dp),
                ("gpus", &format::thousands(u64::from(r.run.config.gpus))),
                ("mfu", &r.run.mfu_percent),
            ],
        )
    });
    let g = |t: &text::GenerationText, solved: Args, stuck: Args| Generation {
        key: t.key,
        era: t.era.get(lang).to_string(),
        title: t.title.get(lang).to_string(),
        solved: t.solved.fill(lang, solved),
        stuck: t.stuck.fill(lang, stuck),
    };
    vec![
        g(
            &text::SINGLE,
            &[],
            &[
                ("states", &states),
                ("times", &times),
                ("card", &card),
                ("hours", &hours),
                ("years", &years),
            ],
        ),
        g(
            &text::RING,
            &[
                ("ring8", &ring8),
                ("ring64", &ring64),
                ("naive8", &naive8),
                ("naive64", &naive64),
            ],
            &[("states", &states)],
        ),
        g(
            &text::BUCKET,
            &[],
            &[
                ("ring8", &ring8),
                ("ib", &ib),
                ("ib_time", &ib_time),
                ("backward", &backward),
                ("tflops", &tflops),
            ],
        ),
        g(
            &text::ZERO,
            &[("chain", &chain)],
            &[("factor", &factor), ("sel_dp", &sel_dp), ("room", &room)],
        ),
        g(
            &text::TENSOR,
            &[("sel_dp", &sel_dp), ("sel_tp", &sel_tp)],
            &[("tp_bytes", &tp_bytes)],
        ),
        g(
            &text::PIPELINE,
            &[],
            &[
                ("bubble", &bubble),
                ("share", &share),
                ("bubble_v4", &bubble_v4),
            ],
        ),
        g(&text::ZERO_BUBBLE, &[("zb", &zb)], &[]),
        g(
            &text::LONG_SEQUENCE,
            &[("contiguous", &contiguous), ("zigzag", &zigzag)],
            &[("cp_layer", &cp_layer), ("kv", &kv)],
        ),
        g(
            &text::EXPERTS,
            &[
                ("routed", &routed),
                ("ds_ep", &ds_ep),
                ("per_card", &per_card),
            ],
            &[("ib", &ib), ("nv", &nv), ("ib_share", &ib_share)],
        ),
        g(
            &text::COMBINED,
            &[("llama", &llama), ("ds_pp", &ds_pp), ("ds_ep", &ds_ep)],
            &[],
        ),
    ]
}

/// Named arguments of a text.
type Args<'a> = &'a [(&'a str, &'a dyn std::fmt::Display)];

/// Where the map's numbers come from, in `lang`.
pub fn sources_note(lang: Lang, inputs: &MapInputs) -> String {
    let card = gb(inputs.card);
    let tflops = numbers::teras(EFFECTIVE_FLOPS);
    let backward = format::seconds(inputs.figures.backward_4096_tokens);
    let ib = format!("{:.0}", inputs.ib_gbps);
    text::SOURCES.fill(
        lang,
        &[
            ("card", &card),
            ("tflops", &tflops),
            ("backward", &backward),
            ("ib", &ib),
        ],
    )
}

/// The evolution map as an ordered list.
#[component]
pub fn EvolutionMap() -> impl IntoView {
    let lang = use_lang();
    let inputs = std::sync::Arc::new(MapInputs::compute());
    let for_sources = std::sync::Arc::clone(&inputs);
    let body = move || match &*inputs {
        Ok(inputs) => {
            let lang = lang.get();
            let (solved, stuck) = (lang.pick("解决了", "Solved"), lang.pick("卡在", "Stuck at"));
            let items = generations(lang, inputs)
                .into_iter()
                .enumerate()
                .map(|(i, g)| {
                    let title_id = format!("evolution-{}-title", g.key);
                    let labelled_by = title_id.clone();
                    view! {
                        <li class="generation" data-testid=format!("evolution-{}", g.key) aria-labelledby=labelled_by>
                            <h3 class="generation-title" id=title_id>
                                <span class="generation-index" aria-hidden="true">{i + 1}</span>
                                {g.title}
                            </h3>
                            <p class="generation-era">{g.era}</p>
                            <dl class="generation-body">
                                <div class="generation-solved"><dt>{solved}</dt><dd>{g.solved}</dd></div>
                                <div class="generation-stuck"><dt>{stuck}</dt><dd>{g.stuck}</dd></div>
                            </dl>
                        </li>
                    }
                })
                .collect_view();
            view! { <ol class="evolution" data-testid="evolution-map">{items}</ol> }.into_any()
        }
        Err(error) => {
            view! { <p role="alert" data-testid="evolution-map">{error.to_string()}</p> }.into_any()
        }
    };
    let sources = move || match &*for_sources {
        Ok(inputs) => sources_note(lang.get(), inputs),
        Err(_) => String::new(),
    };
    view! {
        <LessonSection section=Section::Evolution test_id="section-evolution"
            title=("演进地图：走完一轮", "The evolution map, once around")
            lead=("每一种新的切法，都起因于上一代撞上的某个具体数字。下面逐代列出：它解决了什么，又在哪里停住，各附一个现算或引用的数。", "Every new dimension of parallelism was forced by a real number the previous generation ran into. Each generation below says what it solved, where it got stuck, and the number that shows it.")>
            {body}
            <p class="caption" data-testid="evolution-sources">{sources}</p>
        </LessonSection>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    use parallel_core::lang::has_cjk as han;

    #[test]
    fn ten_generations_in_both_languages() {
        let inputs = MapInputs::compute().expect("the core computes the map");
        let zh = generations(Lang::Zh, &inputs);
        let en = generations(Lang::En, &inputs);
        assert_eq!((zh.len(), en.len()), (10, 10));
        for (z, e) in zh.iter().zip(&en) {
            assert_eq!(z.key, e.key);
            for text in [&e.era, &e.title, &e.solved, &e.stuck] {
                assert!(!han(text), "Chinese in English: {text}");
            }
            assert!(han(&z.solved) && han(&z.stuck), "{z:?}");
        }
    }

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let inputs = MapInputs::compute().expect("the core computes the map");
        let without_llama = MapInputs {
            llama: None,
            ..inputs.clone()
        };
        assert_each_lang_uses_all(&text::all(), |lang| {
            generations(lang, &inputs);
            generations(lang, &without_llama);
            sources_note(lang, &inputs);
        });
    }

    #[test]
    fn the_map_quotes_our_numbers() {
        let inputs = MapInputs::compute().expect("the core computes the map");
        let all: String = generations(Lang::En, &inputs)
            .into_iter()
            .map(|g| format!("{} {}", g.solved, g.stuck))
            .collect();
        for needle in [
            "444.5 GB",
            "5.6 times",
            "2,664,000",
            "304 years",
            "97.2 GB",
            "109.4 GB",
            "388.9 GB",
            "3,500 GB",
            "1.94 s",
            "1.14 s",
            "152.8 GB",
            "1.5 times",
            "24.4 GB",
            "5.7 GB",
            "18.8 GB",
            "21.9%",
            "17.9%",
            "5.5%",
            "1/3",
            "10 : 26 : 42 : 58",
            "34 : 34 : 34 : 34",
            "0.5 GB",
            "653.9B",
            "31.2%",
            "8 × 1 × 16 × 128",
            "41%",
        ] {
            assert!(all.contains(needle), "missing {needle}");
        }
        assert!(!all.contains("1.05"));
    }

    #[test]
    fn fractions() {
        assert_eq!(fraction(1.0 / 3.0), "1/3");
        assert_eq!(fraction(0.4), "0.40");
        assert_eq!(fraction(0.0), "0.00");
    }
}
