//! A whole page state as a link's fragment and back: [`encode`] writes what differs from the
//! lesson's start, [`decode`] reads any string, keeping what combines and naming the rest.

use super::controls::Controls;
use super::notice::{excerpt, ignored, percent_decode, Ignored, IgnoredReason};
use super::origin::Origin;
use super::parts::Parts;
use super::plan_codec::{decode_plan, encode_plan};
use super::state::{GridId, LinkState, Section, Widget};
use crate::lang::Lang;

/// The longest fragment read; the rest is ignored (with a notice).
pub const MAX_LINK_LEN: usize = 2048;

/// Writes a whole state as a fragment (without the leading `#`): only what differs from
/// [`LinkState::default`].
///
/// ```
/// use parallel_core::link::{encode, LinkState};
/// use parallel_core::Lang;
/// use parallel_core::PlanConfig;
/// let state = LinkState {
///     g64: PlanConfig { gpus: 64, tp: 8, pp: 2, zero: 1, ..PlanConfig::default() },
///     card64: Some(0),
///     lang: Lang::En,
///     ..LinkState::default()
/// };
/// assert_eq!(encode(&state), "g64=tp8.pp2.z1&c64=0&lang=en");
/// ```
pub fn encode(state: &LinkState) -> String {
    let mut parts: Vec<String> = Vec::new();
    for grid in GridId::ALL {
        let plan = state.plan(grid);
        if *plan != grid.start() {
            parts.push(format!("{}={}", grid.key(), encode_plan(plan, grid)));
        }
        if let Some(card) = state.card(grid) {
            parts.push(format!("{}={card}", grid.card_key()));
        }
    }
    if let Some(section) = state.section {
        parts.push(format!("sec={}", section.id()));
    }
    if state.lang == Lang::En {
        parts.push("lang=en".to_string());
    }
    if let Some(widget) = state.embed {
        parts.push(format!("embed={}", widget.id()));
    }
    if let Some(controls) = state.controls {
        parts.push(format!("controls={}", controls.write()));
    }
    if let Some(drawn) = state.parts {
        parts.push(format!("parts={}", drawn.write()));
    }
    if let Some(parent) = &state.parent {
        parts.push(format!("parent={parent}"));
    }
    parts.join("&")
}

/// Reads a link (a whole URL, a fragment with or without `#`, or a query string) into a
/// state. Never fails: the notices say what was ignored and why.
///
/// ```
/// use parallel_core::link::decode;
/// use parallel_core::Lang;
/// let (state, ignored) = decode("https://example.org/lab/#g64=tp8.pp2.z1&c64=0&lang=en&x=<b>");
/// assert_eq!((state.g64.tp, state.g64.pp, state.g64.zero, state.card64), (8, 2, 1, Some(0)));
/// assert_eq!(state.lang, Lang::En);
/// assert_eq!(ignored.len(), 1);
/// assert_eq!(ignored[0].to_string(), "\"x=<b>\": unknown key");
/// ```
pub fn decode(link: &str) -> (LinkState, Vec<Ignored>) {
    let mut state = LinkState::default();
    let mut notices = Vec::new();
    let fragment = match link.find('#') {
        Some(i) => &link[i + 1..],
        None => match link.find('?') {
            Some(i) => &link[i + 1..],
            None => link,
        },
    };
    let fragment = if fragment.len() > MAX_LINK_LEN {
        let mut cut = MAX_LINK_LEN;
        while !fragment.is_char_boundary(cut) {
            cut -= 1;
        }
        notices.push(ignored(&fragment[cut..], IgnoredReason::TooLong));
        &fragment[..cut]
    } else {
        fragment
    };
    let mut seen: Vec<String> = Vec::new();
    for part in fragment.split(['&', ';']) {
        if part.is_empty() {
            continue;
        }
        let decoded = percent_decode(part);
        let (key, value) = match decoded.split_once('=') {
            Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
            None => (decoded.trim().to_string(), String::new()),
        };
        if seen.contains(&key) {
            notices.push(ignored(&decoded, IgnoredReason::Repeated));
            continue;
        }
        seen.push(key.clone());
        match key.as_str() {
            "g8" | "g64" => {
                let grid = if key == "g8" {
                    GridId::Eight
                } else {
                    GridId::SixtyFour
                };
                let (plan, mut ignored_tokens) = decode_plan(&value, grid);
                match grid {
                    GridId::Eight => state.g8 = plan,
                    GridId::SixtyFour => state.g64 = plan,
                }
                for notice in &mut ignored_tokens {
                    notice.part = excerpt(&format!("{key}: {}", notice.part));
                }
                notices.extend(ignored_tokens);
            }
            "c8" | "c64" => {
                let grid = if key == "c8" {
                    GridId::Eight
                } else {
                    GridId::SixtyFour
                };
                match value.parse::<u32>() {
                    Ok(card) if card < grid.gpus() => match grid {
                        GridId::Eight => state.card8 = Some(card),
                        GridId::SixtyFour => state.card64 = Some(card),
                    },
                    Ok(_) => notices.push(ignored(&decoded, IgnoredReason::OutOfRange)),
                    Err(_) => notices.push(ignored(&decoded, IgnoredReason::Malformed)),
                }
            }
            "sec" => match Section::from_id(&value) {
                Some(section) => state.section = Some(section),
                None => notices.push(ignored(&decoded, IgnoredReason::Malformed)),
            },
            "lang" => match Lang::from_code(&value) {
                Some(lang) => state.lang = lang,
                None => notices.push(ignored(&decoded, IgnoredReason::Malformed)),
            },
            "controls" => match Controls::read(&value) {
                Ok(controls) => state.controls = Some(controls),
                Err(_) => notices.push(ignored(&decoded, IgnoredReason::Malformed)),
            },
            "parts" => match Parts::read(&value) {
                Ok(drawn) => state.parts = Some(drawn),
                Err(_) => notices.push(ignored(&decoded, IgnoredReason::Malformed)),
            },
            "parent" => match Origin::parse(&value) {
                Ok(origin) => state.parent = Some(origin),
                Err(_) => notices.push(ignored(&decoded, IgnoredReason::Malformed)),
            },
            "embed" => match Widget::from_id(&value) {
                Some(widget) => state.embed = Some(widget),
                None => notices.push(ignored(&decoded, IgnoredReason::Malformed)),
            },
            _ => notices.push(ignored(&decoded, IgnoredReason::UnknownKey)),
        }
    }
    (state, notices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{PlanConfig, Precision, RankOrder, Recompute, Schedule};
    use crate::link::notice::EXCERPT;
    use crate::model::{ModelChoice, Preset};
    use crate::plan::Plan;

    #[test]
    fn empty_link_is_the_lesson_start() {
        let (state, notices) = decode("");
        assert_eq!(state, LinkState::default());
        assert!(notices.is_empty());
        assert_eq!(encode(&state), "");
    }

    #[test]
    fn words_and_floats_round_trip() {
        let plan = PlanConfig {
            gpus: 64,
            tp: 4,
            pp: 4,
            micro_batches: 16,
            schedule: Schedule::Interleaved,
            virtual_stages: 3,
            recompute: Recompute::Selective,
            precision: Precision::Fp32Grads,
            gpu_memory_gb: 94.5,
            order: RankOrder::TpCpDpPp,
            model: ModelChoice::Preset(Preset::Llama3_405b),
            ..PlanConfig::default()
        };
        // Llama's 126 layers (or 128) do not split into 4·3 chunks: the link keeps what
        // combines.
        let (partial, notices) =
            decode_plan(&encode_plan(&plan, GridId::SixtyFour), GridId::SixtyFour);
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(
            (partial.schedule, partial.virtual_stages),
            (Schedule::Interleaved, 1)
        );
        let plan = PlanConfig {
            model: ModelChoice::Preset(Preset::Qwen38_27b),
            virtual_stages: 2,
            ..plan
        };
        let value = encode_plan(&plan, GridId::SixtyFour);
        assert_eq!(
            value,
            "tp4.pp4.m16.selective.interleaved.v2.fp32.mem94p5.tpcpdppp"
        );
        let (back, notices) = decode_plan(&value, GridId::SixtyFour);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(back, plan);
    }

    #[test]
    fn fixed_shape_and_tp_cap() {
        let (plan, notices) = decode_plan("n16.gpn4.tp16.pp2", GridId::SixtyFour);
        assert_eq!(
            (plan.gpus, plan.gpus_per_node, plan.tp, plan.pp),
            (64, 8, 1, 2)
        );
        assert!(notices.iter().all(|n| n.reason == IgnoredReason::Fixed));
        assert_eq!(notices.len(), 3);
    }

    #[test]
    fn an_embed_names_its_course_page_by_origin() {
        let (state, notices) =
            decode("g64=tp8&embed=grid-64&parent=https://Course.Example.org:443");
        assert!(notices.is_empty(), "{notices:?}");
        let parent = state.parent.clone().unwrap();
        assert_eq!(parent.as_str(), "https://course.example.org");
        assert_eq!(
            encode(&state),
            "g64=tp8&embed=grid-64&parent=https://course.example.org"
        );
        // Percent-encoded as a URL may carry it.
        let (state, _) = decode("embed=grid-8&parent=http%3A%2F%2F127.0.0.1%3A9000");
        assert_eq!(state.parent.unwrap().as_str(), "http://127.0.0.1:9000");
        // What is not an origin is named and left out, as any part of a link.
        for bad in [
            "parent=course.example.org",
            "parent=https://x.org/week1",
            "parent=",
            "parent=https://x.org\"><b>",
        ] {
            let (state, notices) = decode(&format!("embed=grid-8&{bad}"));
            assert_eq!(state.parent, None, "{bad}");
            assert_eq!(notices.len(), 1, "{bad}");
            assert_eq!(notices[0].reason, IgnoredReason::Malformed);
        }
    }

    #[test]
    fn hostile_input_is_named_and_harmless() {
        let long = "a".repeat(100_000);
        for link in [
            "#g8=tp99999999999999999999",
            "#g8=tp-1.pp%ZZ.zNaN",
            "#g8=%FF%FE%00",
            "#<script>alert(1)</script>",
            "#g64=tp8&g64=tp1",
            "#c64=64&c8=-1&lang=fr&sec=../../etc&embed=javascript:alert(1)",
            long.as_str(),
        ] {
            let (state, notices) = decode(link);
            assert!(!notices.is_empty(), "{link:.40}");
            assert!(Plan::new(&state.g8).is_ok() && Plan::new(&state.g64).is_ok());
            for n in &notices {
                assert!(n.part.chars().count() <= EXCERPT + 1, "{n}");
                assert!(!n.part.chars().any(char::is_control));
            }
        }
    }
}
