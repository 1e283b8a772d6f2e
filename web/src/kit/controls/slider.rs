//! The sliders of a grid: TP, PP, CP, micro-batches and sequence length (and EP for MoE
//! models), each over the values the core takes on its own; the sequence length moves over
//! powers of two. The rollout panel (`components::rollout`) builds its own from the same
//! [`SliderSpec`].

use leptos::prelude::*;
use parallel_core::link::{self, Control, Range};
use parallel_core::{Field, PlanConfig};

use super::ids::test_id;
use crate::kit::error_text::explain;
use crate::kit::format;
use crate::kit::i18n::use_lang;
use crate::state::lab::GridLab;

/// A slider: the core's [`link::Slider`] (which reads and sets the plan) with its values on this
/// grid ([`Range`], the one source the CLI's `defaults` and the browser tests read too), its
/// test id and its label; the sequence-length slider moves over powers of two.
#[derive(Clone, Copy)]
pub(crate) struct SliderSpec {
    pub(crate) slider: link::Slider,
    /// Its values on this grid.
    pub(crate) range: Range,
    pub(crate) test_id: &'static str,
    pub(crate) label_zh: &'static str,
    pub(crate) label_en: &'static str,
    /// The words for 0, one position before `min`'s (中文, English): "the whole micro-batch"
    /// for an unset chunk. Set exactly where the range has `zero`.
    pub(crate) zero: Option<(&'static str, &'static str)>,
}

impl SliderSpec {
    /// `slider` on a grid of `gpus` cards, with its test id and label.
    pub(crate) const fn new(
        slider: link::Slider,
        gpus: u32,
        test_id: &'static str,
        label_zh: &'static str,
        label_en: &'static str,
    ) -> SliderSpec {
        SliderSpec {
            slider,
            range: slider.range(gpus),
            test_id,
            label_zh,
            label_en,
            zero: None,
        }
    }

    /// The config field it sets (where its errors are shown).
    pub(crate) fn field(&self) -> Field {
        self.slider.field()
    }

    /// Its value in a plan.
    pub(crate) fn get(&self, c: &PlanConfig) -> u32 {
        self.slider.get(c)
    }

    /// The input's range of positions: the values themselves, or their log2 (one more at the
    /// left for a slider whose first value is 0).
    pub(crate) fn positions(&self) -> (u32, u32) {
        let (low, high) = if self.range.powers_of_two {
            (self.range.min.max(1).ilog2(), self.range.max.max(1).ilog2())
        } else {
            (self.range.min, self.range.max)
        };
        (low.saturating_sub(u32::from(self.range.zero)), high)
    }

    /// The position that shows `value` (values off the slider's grid take the one below).
    pub(crate) fn position_of(&self, value: u32) -> u32 {
        let (low, high) = self.positions();
        if value == 0 && self.range.zero {
            return low;
        }
        let position = if self.range.powers_of_two {
            value.max(1).ilog2()
        } else {
            value
        };
        position.clamp(low + u32::from(self.range.zero), high)
    }

    /// The value at a position the input reports (a string, as the DOM gives it). A position
    /// outside the range, or not a number, is held to the nearest end: the slider never sets
    /// a value it does not show.
    pub(crate) fn value_at(&self, raw: &str) -> u32 {
        let (low, high) = self.positions();
        let position = raw.trim().parse::<u32>().unwrap_or(low).clamp(low, high);
        if self.range.zero && position == low {
            0
        } else if self.range.powers_of_two {
            1u32 << position.min(31)
        } else {
            position
        }
    }
}

/// A range input over a [`SliderSpec`]'s positions, its value in the label and
/// `aria-valuetext`, and the core's reason under it when it was moved last and the plan is
/// refused.
#[component]
pub(crate) fn Slider(spec: SliderSpec, lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    // This slider's own value: moving another control does not run this one's views again.
    let value = Memo::new(move |_| lab.config.with(|c| spec.get(c)));
    let start = spec.position_of(value.get_untracked()).to_string();
    let value = move || value.get();
    let shown = move || match spec.zero {
        Some((zh, en)) if value() == 0 => lang.get().pick(zh, en).to_string(),
        _ => format::thousands(u64::from(value())),
    };
    let on_input = move |event: leptos::ev::Event| {
        let value = spec.value_at(&event_target_value(&event));
        lab.edit(spec.field(), |c| spec.slider.set(c, value));
    };
    // PageUp and PageDown jump between powers of two on a slider over whole numbers (the
    // core's `Range::page`); elsewhere the browser's own step stands.
    let on_key = move |event: leptos::ev::KeyboardEvent| {
        let up = match event.key().as_str() {
            "PageUp" => true,
            "PageDown" => false,
            _ => return,
        };
        if let Some(next) = spec.range.page(value(), up) {
            event.prevent_default();
            lab.edit(spec.field(), |c| spec.slider.set(c, next));
        }
    };
    let error = move || lab.error_for(spec.field()).map(|e| explain(lang.get(), &e));
    let id = format!("{}-{}", spec.test_id, lab.config.with_untracked(|c| c.gpus));
    view! {
        <div class="control" class:invalid=move || error().is_some()>
            <label for=id.clone()>
                <span class="control-name">{move || lang.get().pick(spec.label_zh, spec.label_en)}</span>
                <output class="control-value">{shown}</output>
            </label>
            <input
                id=id
                type="range"
                data-testid=spec.test_id
                min=spec.positions().0
                max=spec.positions().1
                step="1"
                // The attribute for the first screen rendered as HTML (properties are not);
                // the property follows the plan.
                value=start
                prop:value=move || spec.position_of(value()).to_string()
                aria-valuetext=shown
                on:input=on_input
                on:keydown=on_key
            />
            {move || error().map(|message| view! { <p class="control-error" role="alert">{message}</p> })}
        </div>
    }
}

/// The control each of [`slider_specs`]' sliders is, in the same order.
pub(super) const SLIDER_CONTROLS: [Control; 5] = [
    Control::Tp,
    Control::Pp,
    Control::Cp,
    Control::MicroBatches,
    Control::Seq,
];

/// A grid's five sliders in page order: the core's slider, its test id, its label (中文,
/// English).
#[rustfmt::skip]
const GRID_SLIDERS: [(link::Slider, &str, &str, &str); 5] = [
    (link::Slider::Tp, test_id(Control::Tp), "TP 张量并行", "TP tensor parallel"),
    (link::Slider::Pp, test_id(Control::Pp), "PP 流水线并行", "PP pipeline parallel"),
    (link::Slider::Cp, test_id(Control::Cp), "CP 上下文并行", "CP context parallel"),
    (link::Slider::MicroBatches, test_id(Control::MicroBatches), "每步 micro-batch 数 m", "Micro-batches per step m"),
    (link::Slider::SeqLen, test_id(Control::Seq), "序列长度 s", "Sequence length s"),
];

/// The five sliders of a grid of `gpus` cards, in page order.
pub(super) fn slider_specs(gpus: u32) -> [SliderSpec; 5] {
    GRID_SLIDERS.map(|(slider, test_id, label_zh, label_en)| {
        SliderSpec::new(slider, gpus, test_id, label_zh, label_en)
    })
}

/// The expert-parallel slider, for MoE models: e over powers of two up to the grid's N.
pub(super) fn ep_spec(gpus: u32) -> SliderSpec {
    SliderSpec::new(
        link::Slider::Ep,
        gpus,
        test_id(Control::Ep),
        "EP 专家并行",
        "EP expert parallel",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use parallel_core::Plan;

    #[test]
    fn every_position_shows_a_value_in_range_and_back() {
        for spec in slider_specs(8) {
            let (low, high) = spec.positions();
            assert!(low <= high, "{}", spec.field());
            for position in low..=high {
                let value = spec.value_at(&position.to_string());
                assert!(
                    (spec.range.min..=spec.range.max).contains(&value),
                    "{} at {position}: {value}",
                    spec.field()
                );
                assert_eq!(
                    spec.position_of(value),
                    position,
                    "{} round trip",
                    spec.field()
                );
            }
            assert_eq!(
                spec.value_at(&low.to_string()),
                spec.range.min,
                "{} left end",
                spec.field()
            );
            assert_eq!(
                spec.value_at(&high.to_string()),
                spec.range.max,
                "{} right end",
                spec.field()
            );
        }
    }

    #[test]
    fn positions_outside_the_range_hold_to_its_ends() {
        for spec in slider_specs(8) {
            let (low, high) = spec.positions();
            for raw in ["0", "", "x", "-3"] {
                assert_eq!(
                    spec.value_at(raw),
                    spec.value_at(&low.to_string()),
                    "{} {raw:?}",
                    spec.field()
                );
            }
            for raw in [high + 1, 1024, 131_072, u32::MAX] {
                assert_eq!(
                    spec.value_at(&raw.to_string()),
                    spec.range.max,
                    "{} {raw}",
                    spec.field()
                );
            }
        }
    }

    #[test]
    fn the_sequence_slider_reaches_1024_to_131072_and_the_core_takes_each() {
        let spec = slider_specs(8)[4];
        assert_eq!(spec.field(), Field::SeqLen);
        let (low, high) = spec.positions();
        let values: Vec<u32> = (low..=high)
            .map(|p| spec.value_at(&p.to_string()))
            .collect();
        assert_eq!(
            values,
            [1024, 2048, 4096, 8192, 16_384, 32_768, 65_536, 131_072]
        );
        for seq_len in values {
            for start in [PlanConfig::lesson_8_gpus(), PlanConfig::lesson_64_gpus()] {
                let mut config = start;
                spec.slider.set(&mut config, seq_len);
                assert!(Plan::new(&config).is_ok(), "s = {seq_len}");
            }
        }
    }
}
