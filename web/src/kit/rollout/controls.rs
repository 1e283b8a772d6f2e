//! The rollout panel under a grid's controls: the switch that adds an RL step's inference
//! engines to the plan (off by default: the lesson's plans train only), and while on, the
//! cards per engine, the round's counts, the KV cache's bytes and where the engines run; and,
//! on or off, the chunk of tokens whose log-probabilities are taken at once.

use leptos::prelude::*;
use parallel_core::link;
use parallel_core::{Field, PlanConfig, PlanError, Rollout, RolloutField};

use super::inputs::{CountInput, POOL, ROUND};
use super::phase::PhaseChoice;
use crate::kit::choices::Choices;
use crate::kit::controls::choice::{Choice, Options};
use crate::kit::controls::slider::{Slider, SliderSpec};
use crate::kit::error_text::explain;
use crate::kit::i18n::{use_lang, T};
use crate::state::lab::GridLab;

/// Changes the rollout engines, when they are on.
fn with_rollout(c: &mut PlanConfig, edit: impl FnOnce(&mut Rollout)) {
    if let Some(r) = c.rollout.as_mut() {
        edit(r);
    }
}

/// Cards per inference engine, E, over powers of two up to the grid's N.
fn engine_spec(gpus: u32) -> SliderSpec {
    let (zh, en) = ("每个推理引擎的卡数 E", "Cards per inference engine E");
    SliderSpec::new(link::Slider::GpusPerEngine, gpus, "slider-engine", zh, en)
}

/// The tokens whose log-probabilities are computed at once: the whole micro-batch (0), or
/// chunks of the core's range ([`link::Slider::LogProbsChunk`]).
fn chunk_spec(gpus: u32) -> SliderSpec {
    let (zh, en) = ("对数概率分块（token）", "Log-probability chunk (tokens)");
    SliderSpec {
        zero: Some(("整个 micro-batch", "the whole micro-batch")),
        ..SliderSpec::new(
            link::Slider::LogProbsChunk,
            gpus,
            "slider-logprob-chunk",
            zh,
            en,
        )
    }
}

/// The KV cache's number format: the bytes per cached value its select offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KvFormat {
    /// 2 bytes: the model's own BF16 (seed 000's engines).
    Bf16,
    /// 1 byte.
    Fp8,
    /// 4 bytes.
    Fp32,
}

impl KvFormat {
    /// Every format, in the select's order.
    pub const ALL: [KvFormat; 3] = [KvFormat::Bf16, KvFormat::Fp8, KvFormat::Fp32];

    /// Bytes per cached value, as the plan holds them (`rollout.kv_bytes`, link `kv1`).
    pub const fn bytes(self) -> u32 {
        match self {
            KvFormat::Bf16 => 2,
            KvFormat::Fp8 => 1,
            KvFormat::Fp32 => 4,
        }
    }

    /// The format as its option's DOM value: "bf16", "fp8", "fp32".
    pub const fn as_str(self) -> &'static str {
        match self {
            KvFormat::Bf16 => "bf16",
            KvFormat::Fp8 => "fp8",
            KvFormat::Fp32 => "fp32",
        }
    }

    /// The format of `bytes` per cached value; others are the core's [`PlanError::KvBytes`].
    pub fn of_bytes(bytes: u32) -> Result<KvFormat, PlanError> {
        KvFormat::ALL
            .into_iter()
            .find(|f| f.bytes() == bytes)
            .ok_or(PlanError::KvBytes { got: bytes })
    }

    /// The option's words: (中文, English).
    const fn words(self) -> (&'static str, &'static str) {
        match self {
            KvFormat::Bf16 => ("2：BF16", "2: BF16"),
            KvFormat::Fp8 => ("1：FP8", "1: FP8"),
            KvFormat::Fp32 => ("4：FP32", "4: FP32"),
        }
    }
}

/// The KV select's options. The plan's format is `None` when its bytes are none of them (a
/// pasted config): the core refuses that plan ([`PlanError::KvBytes`]), and the select shows
/// no option rather than another one. (Without engines it is `None` too; the select is hidden.)
fn kv_options() -> Options<Option<KvFormat>> {
    let list = KvFormat::ALL
        .into_iter()
        .map(|f| {
            let (zh, en) = f.words();
            (Some(f), zh, en)
        })
        .collect();
    Options {
        choices: Choices {
            list,
            id: |f| f.map_or("", KvFormat::as_str),
        },
        get: |c| c.rollout.and_then(|r| KvFormat::of_bytes(r.kv_bytes).ok()),
        // Every option is a format: `None` is offered by none.
        set: |c, format| {
            if let Some(format) = format {
                with_rollout(c, |r| r.kv_bytes = format.bytes());
            }
        },
    }
}

/// Where the engines run (a separate pool or not) as its option's DOM value.
fn pool_id(separate: bool) -> &'static str {
    if separate {
        "separate"
    } else {
        "colocated"
    }
}

/// Where the engines run: on the training cards or on a separate pool, which starts as large
/// as the training cards.
fn pool_options() -> Options<bool> {
    let words = |separate| {
        if separate {
            (
                "训推分离（另一池推理卡）",
                "separate (a pool of rollout cards)",
            )
        } else {
            (
                "同卡训推（训练卡轮流推理）",
                "colocated (the training cards take turns)",
            )
        }
    };
    Options {
        choices: Choices::named(&[false, true], pool_id, words),
        get: |c| c.rollout.is_some_and(|r| !r.colocated()),
        set: |c, separate| {
            let pool = if separate { c.gpus } else { 0 };
            with_rollout(c, |r| r.rollout_gpus = pool);
        },
    }
}

/// The switch "rollout engines": `rollout` set to seed 000's default engines when on, none
/// when off.
#[component]
fn RolloutSwitch(lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let error = move || {
        lab.error_for(Field::Rollout)
            .map(|e| explain(lang.get(), &e))
    };
    let on = Memo::new(move |_| lab.config.with(|c| c.rollout.is_some()));
    let id = format!("toggle-rollout-{}", lab.config.with_untracked(|c| c.gpus));
    let on_change = move |event: leptos::ev::Event| {
        let rollout = event_target_checked(&event).then(Rollout::default);
        lab.edit(Field::Rollout, |c| c.rollout = rollout);
    };
    view! {
        <div class="control control-switch" class:invalid=move || error().is_some()>
            <input type="checkbox" role="switch" id=id.clone() data-testid="toggle-rollout"
                prop:checked=move || on.get() on:change=on_change />
            <label for=id>
                <span class="control-name">
                    <T zh="加上推理引擎（RL 的采样）" en="Add rollout engines (the RL step's sampling)" />
                </span>
            </label>
            <p class="control-note">
                <T zh="强化学习的一步还要采样：推理引擎放一份 BF16 权重和所采序列的 KV cache。"
                   en="An RL step also samples: the inference engines hold BF16 weights and the KV cache of the sequences they sample." />
            </p>
            {move || error().map(|message| view! { <p class="control-error" role="alert">{message}</p> })}
        </div>
    }
}

/// The rollout panel of one grid (`rollout-panel`): the switch, the engines' controls while
/// it is on, and the log-probability chunk.
#[component]
pub fn RolloutPanel(lab: GridLab) -> impl IntoView {
    let gpus = lab.config.with_untracked(|c| c.gpus);
    let on = Memo::new(move |_| lab.config.with(|c| c.rollout.is_some()));
    let separate = Memo::new(move |_| {
        lab.config
            .with(|c| c.rollout.is_some_and(|r| !r.colocated()))
    });
    view! {
        <fieldset class="rollout-panel" data-testid="rollout-panel">
            <legend><T zh="强化学习：推理引擎" en="Reinforcement learning: rollout engines" /></legend>
            <RolloutSwitch lab=lab />
            <Show when=move || on.get()>
                <Slider spec=engine_spec(gpus) lab=lab />
                {ROUND.into_iter().map(|spec| view! { <CountInput spec=spec lab=lab /> }).collect_view()}
                <Choice lab=lab field=Field::InRollout(RolloutField::KvBytes) test_id="select-kv"
                    label_zh="KV cache 每个值的字节数" label_en="KV cache bytes per value" options=kv_options() />
                <Choice lab=lab field=Field::InRollout(RolloutField::Pool) test_id="select-pool"
                    label_zh="推理放在哪" label_en="Where the engines run" options=pool_options() />
                <Show when=move || separate.get()>
                    <CountInput spec=POOL lab=lab />
                </Show>
                <PhaseChoice lab=lab />
            </Show>
            <div class="rollout-chunk">
                <Slider spec=chunk_spec(gpus) lab=lab />
                <p class="control-note">
                    <T zh="RL 要算每个采样 token 的对数概率：最后一段同时放这些 token 的 FP32 logits。分块后只放一块（“按段计”时看最后一段）。"
                       en="An RL step computes each sampled token's log-probability: the last stage holds those tokens' FP32 logits at once. Chunked, it holds one chunk (see the last stage with accounting by stage)." />
                </p>
            </div>
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::choices::testing::assert_round_trips;
    use parallel_core::link::{decode_plan, encode_plan, GridId};
    use parallel_core::Plan;

    #[test]
    fn every_engine_size_splits_both_grids_and_the_options_read_back() {
        for start in [PlanConfig::lesson_8_gpus(), PlanConfig::lesson_64_gpus()] {
            let spec = engine_spec(start.gpus);
            let mut config = PlanConfig {
                rollout: Some(Rollout::default()),
                ..start
            };
            let mut e = 1;
            while e <= config.gpus {
                spec.slider.set(&mut config, e);
                assert_eq!(spec.get(&config), e);
                assert!(Plan::new(&config).is_ok(), "E = {e} on {}", config.gpus);
                e *= 2;
            }
            let separate = |c: &PlanConfig| c.rollout.is_some_and(|r| !r.colocated());
            let kv = kv_options();
            assert_eq!((kv.choices.id)((kv.get)(&config)), "bf16");
            assert_eq!(pool_id(separate(&config)), "colocated");
            with_rollout(&mut config, |r| r.rollout_gpus = 16);
            assert_eq!(pool_id(separate(&config)), "separate");
        }
    }

    #[test]
    fn every_kv_format_round_trips_through_its_option_and_the_link() {
        let kv = kv_options();
        let choices = kv.choices.clone();
        assert_round_trips(&choices);
        assert_eq!(
            choices.values().collect::<Vec<_>>(),
            KvFormat::ALL.map(Some),
            "the select offers every format, in order"
        );
        for grid in GridId::ALL {
            for format in KvFormat::ALL {
                let mut config = PlanConfig {
                    rollout: Some(Rollout::default()),
                    ..grid.start()
                };
                (kv.set)(&mut config, choices.read(format.as_str()).ok().flatten());
                assert_eq!(config.rollout.map(|r| r.kv_bytes), Some(format.bytes()));
                assert_eq!((kv.get)(&config), Some(format));
                let (decoded, ignored) = decode_plan(&encode_plan(&config, grid), grid);
                assert!(ignored.is_empty(), "{format:?}: {ignored:?}");
                assert_eq!(decoded, config, "{format:?} on {grid:?}");
                assert_eq!(KvFormat::of_bytes(format.bytes()), Ok(format));
            }
        }
        // Bytes no format has: no option is shown, and the core says why.
        let odd = PlanConfig {
            rollout: Some(Rollout {
                kv_bytes: 3,
                ..Rollout::default()
            }),
            ..PlanConfig::default()
        };
        assert_eq!((kv.get)(&odd), None);
        assert_eq!((kv.get)(&PlanConfig::default()), None, "no engines");
        assert_eq!((kv.choices.id)(None), "");
        assert_eq!(KvFormat::of_bytes(3), Err(PlanError::KvBytes { got: 3 }));
    }

    #[test]
    fn the_chunk_starts_at_the_whole_micro_batch_then_doubles() {
        let values: Vec<u32> = (7..=17)
            .map(|p| chunk_spec(8).value_at(&p.to_string()))
            .collect();
        assert_eq!(values[0], 0);
        assert_eq!(
            values[1..],
            [256, 512, 1024, 2048, 4096, 8192, 16_384, 32_768, 65_536, 131_072]
        );
        for (position, value) in (7..=17).zip(values) {
            assert_eq!(chunk_spec(8).position_of(value), position);
        }
    }
}
