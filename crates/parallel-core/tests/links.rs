//! Links: state → link → state is the identity for every valid state, and no string at all
//! can make the decoder panic or produce an invalid plan.
//!
//! The long fuzz run is separate: `cargo test -p parallel-core --release --test links --
//! --ignored` runs 1,000,000 arbitrary strings (`LINK_FUZZ_CASES` overrides the count).

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::strategies;
use parallel_core::hardware::Hardware;
use parallel_core::link::{
    decode, decode_plan, encode, encode_plan, Control, Controls, GridId, LinkState, Origin, Part,
    Parts, Section, Widget,
};
use parallel_core::{
    Accounting, Lang, ModelChoice, OptimizerOffload, Plan, PlanConfig, Preset, Schedule,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Any valid plan of a grid (N and node size fixed, TP within a node).
fn grid_plan(grid: GridId) -> impl Strategy<Value = PlanConfig> {
    let n = grid.gpus();
    (
        strategies::preset(),
        (0u32..=3, 0u32..=6, 0u32..=6),
        1u32..=64,
        1u32..=4,
        10u32..=17,
        0u8..=3,
        strategies::recompute(),
        strategies::schedule(),
        1u32..=4,
        strategies::precision(),
        prop::sample::select(vec![80.0, 94.5, 141.0]),
        (
            strategies::rank_order(),
            prop::sample::select(vec![Accounting::Even, Accounting::Stages]),
            prop::sample::select(vec![400.0, 312.5, 989.0]),
            prop::sample::select(Hardware::ALL.to_vec()),
            prop::sample::select(vec![0.0, 5.0, 12.5]),
            (
                prop::sample::select(vec![OptimizerOffload::None, OptimizerOffload::Cpu]),
                prop::sample::select(vec![50.0, 25.0, 63.5]),
                prop::sample::select(vec![2048.0, 512.0, 1536.25]),
                any::<bool>(),
                any::<bool>(),
                prop::sample::select(vec![1.0, 1.5, 3.0]),
            ),
        ),
    )
        .prop_map(
            move |(
                preset,
                (t, p, c),
                m,
                b,
                s,
                zero,
                recompute,
                schedule,
                v,
                precision,
                mem,
                (
                    order,
                    accounting,
                    gpu_tflops,
                    hardware,
                    ib_latency_us,
                    (
                        optimizer_offload,
                        pcie_gbps,
                        host_memory_gb,
                        sequence_parallel,
                        runtime_memory,
                        sequence_skew,
                    ),
                ),
            )| PlanConfig {
                model: ModelChoice::Preset(preset),
                gpus: n,
                tp: 1 << t,
                pp: 1 << p,
                cp: 1 << c,
                micro_batches: m,
                micro_batch_size: b,
                seq_len: 1 << s,
                zero,
                recompute,
                schedule,
                virtual_stages: if schedule == Schedule::Interleaved {
                    v
                } else {
                    1
                },
                precision,
                gpu_memory_gb: mem,
                order,
                accounting,
                gpu_tflops,
                ib_latency_us,
                optimizer_offload,
                pcie_gbps,
                host_memory_gb,
                sequence_parallel,
                runtime_memory,
                sequence_skew,
                // The card's preset, with the memory and rate above written over it.
                ..PlanConfig::on(hardware)
            },
        )
        .prop_filter("valid plans only", |c| Plan::new(c).is_ok())
}

fn link_state() -> impl Strategy<Value = LinkState> {
    (
        grid_plan(GridId::Eight),
        grid_plan(GridId::SixtyFour),
        prop::option::of(0u32..8),
        prop::option::of(0u32..64),
        prop::option::of(prop::sample::select(Section::ALL.to_vec())),
        prop::sample::select(Lang::ALL.to_vec()),
        prop::option::of(prop::sample::select(Widget::ALL.to_vec())),
        any::<bool>(),
        prop::option::of(prop::collection::vec(any::<bool>(), Control::ALL.len())),
        prop::option::of(prop::collection::vec(any::<bool>(), Part::ALL.len())),
        prop::option::of(prop::sample::select(vec![
            "https://course.example.org",
            "http://127.0.0.1:9000",
        ])),
    )
        .prop_map(
            |(g8, g64, card8, card64, section, lang, embed, start, picked, drawn, parent)| {
                LinkState {
                    g8: if start { GridId::Eight.start() } else { g8 },
                    g64,
                    card8,
                    card64,
                    section,
                    lang,
                    embed,
                    controls: picked.map(|picked| {
                        Control::ALL
                            .into_iter()
                            .zip(picked)
                            .fold(Controls::NONE, |set, (c, on)| set.with(c, on))
                    }),
                    parts: drawn.map(|drawn| {
                        Part::ALL
                            .into_iter()
                            .zip(drawn)
                            .fold(Parts::NONE, |set, (p, on)| set.with(p, on))
                    }),
                    parent: parent.and_then(|origin| Origin::parse(origin).ok()),
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn state_to_link_to_state_is_identity(state in link_state()) {
        let link = encode(&state);
        let (back, notices) = decode(&format!("https://lab.example/course/#{link}"));
        prop_assert!(notices.is_empty(), "{link}: {notices:?}");
        prop_assert_eq!(back, state);
    }

    #[test]
    fn any_string_decodes_to_a_valid_state(input in ".{0,300}") {
        check_any(&input);
    }

    #[test]
    fn link_shaped_strings_decode_to_a_valid_state(
        input in "(g8|g64|c8|c64|sec|lang|embed|x)=([a-z0-9.%-]{0,40})(&(g8|g64|c8|c64)=[a-z0-9.p-]{0,30}){0,4}"
    ) {
        check_any(&input);
    }
}

/// `config` through `grid`'s link value and back: it must come back as it went, without a
/// notice. The value.
fn plan_round_trip(config: &PlanConfig, grid: GridId) -> String {
    let value = encode_plan(config, grid);
    let (back, notices) = decode_plan(&value, grid);
    assert!(notices.is_empty(), "{value}: {notices:?}");
    assert_eq!(&back, config, "{value}");
    value
}

/// Every preset has its own link word and comes back from a link, on both grids.
#[test]
fn every_preset_round_trips_through_the_link_codec() {
    let mut values = Vec::new();
    for grid in [GridId::Eight, GridId::SixtyFour] {
        for preset in Preset::ALL {
            let plan = PlanConfig {
                model: ModelChoice::Preset(preset),
                ..grid.base()
            };
            let value = plan_round_trip(&plan, grid);
            if grid == GridId::SixtyFour {
                values.push(value);
            }
        }
    }
    let mut distinct = values.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), values.len(), "{values:?}");
}

fn check_any(input: &str) {
    let (state, notices) = decode(input);
    assert!(Plan::new(&state.g8).is_ok(), "{input:?}");
    assert!(Plan::new(&state.g64).is_ok(), "{input:?}");
    assert_eq!(state.g8.gpus, 8);
    assert_eq!(state.g64.gpus, 64);
    assert!(state.card8.is_none_or(|c| c < 8));
    assert!(state.card64.is_none_or(|c| c < 64));
    for notice in notices {
        assert!(!notice.to_string().is_empty());
    }
    let (plan, _) = decode_plan(input, GridId::SixtyFour);
    assert!(Plan::new(&plan).is_ok());
}

/// The long fuzz run (not part of the default test run).
#[test]
#[ignore = "long: run with --ignored (1,000,000 cases)"]
fn fuzz_a_million_strings() {
    let cases: u32 = std::env::var("LINK_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = prop_oneof![
        ".{0,200}",
        "(g8|g64|c8|c64|sec|lang|embed)=[a-z0-9.%p&=-]{0,80}",
        "#g(8|64)=((tp|pp|cp|m|s|z|v|n|gpn|mem|ib|nvl|ep|b|tf)[0-9p]{0,12}|full|selective|none|gpipe|1f1b|interleaved|fp32|bf16|llama|deepseek|qwen)(\\.((tp|pp|cp|m|s|z|v|mem)[0-9p]{0,12}|interleaved|selective)){0,8}",
    ];
    runner
        .run(&strategy, |input| {
            check_any(&input);
            Ok(())
        })
        .unwrap();
    println!("fuzzed {cases} inputs");
}

/// A custom model (a pasted config.json, once counted) travels in the link by its fields, in
/// one short token, and comes back equal; broken model tokens are named and change nothing.
/// The default link state with `config` as `grid`'s plan, through a link and back: the plan
/// must come back as it went, without a notice (`what` names the case). The link and what
/// came back.
fn through_a_link(grid: GridId, config: &PlanConfig, what: &str) -> (String, LinkState) {
    let mut state = LinkState::default();
    match grid {
        GridId::Eight => state.g8 = config.clone(),
        GridId::SixtyFour => state.g64 = config.clone(),
    }
    let link = encode(&state);
    let (back, notices) = decode(&link);
    assert!(notices.is_empty(), "{what}: {notices:?}");
    assert_eq!(back.plan(grid), config, "{what} on {grid:?}: {link}");
    (link, back)
}

#[test]
fn a_custom_model_round_trips_by_its_fields() {
    use parallel_core::hf::HfConfig;
    use parallel_core::link::IgnoredReason;
    for fixture in [
        "llama3-8b",
        "mixtral-8x7b",
        "qwen3-30b-a3b",
        "llama3.2-1b",
        "deepseek-v3",
    ] {
        let path = format!(
            "{}/tests/fixtures/hf/{fixture}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let hf: HfConfig = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let inline = hf.to_model().unwrap().model;
        for grid in GridId::ALL {
            let config = PlanConfig {
                model: ModelChoice::Inline(inline.clone()),
                ..grid.start()
            };
            if Plan::new(&config).is_err() {
                continue;
            }
            let (link, _) = through_a_link(grid, &config, fixture);
            assert!(link.len() < 200, "{fixture}: {link}");
        }
    }
    // GPT's plain MLP (the published runs' models) travels as `-pm` and comes back plain.
    let mut carried = 0;
    for run in parallel_core::runs::runs()
        .into_iter()
        .filter(|r| r.id.starts_with("korthikanti"))
    {
        for grid in GridId::ALL {
            let config = PlanConfig {
                model: run.config.model.clone(),
                ..grid.start()
            };
            if Plan::new(&config).is_err() {
                continue;
            }
            let (link, back) = through_a_link(grid, &config, run.id);
            assert!(link.contains("-pm"), "{}: {link}", run.id);
            let ModelChoice::Inline(model) = &back.plan(grid).model else {
                panic!("{}: an inline model", run.id);
            };
            assert_eq!(model.mlp, parallel_core::Mlp::Plain);
            carried += 1;
        }
    }
    assert!(carried > 0);
    for bad in [
        "mdl-h4096-zz9",
        "mdl-h4096-pmx",
        "mdl-hx",
        "mdl-h99999999999",
        "mdl-",
        "mdl-h4096.llama",
    ] {
        let (plan, notices) = decode_plan(bad, GridId::Eight);
        assert_eq!(plan.model, GridId::Eight.base().model, "{bad}");
        assert!(!notices.is_empty(), "{bad}");
        assert!(
            notices.iter().all(|n| n.reason != IgnoredReason::TooLong),
            "{bad}"
        );
    }
}

/// A card in a link: its preset's word, then only the fields that differ from the preset.
#[test]
fn a_card_preset_travels_as_one_word_and_explicit_fields_win() {
    let h100 = PlanConfig {
        gpus: 64,
        tp: 8,
        pp: 8,
        ..PlanConfig::on(Hardware::H100)
    };
    assert_eq!(plan_round_trip(&h100, GridId::SixtyFour), "tp8.pp8.h100");
    let tuned = PlanConfig {
        gpu_memory_gb: 96.0,
        hbm_tbps: 2.4,
        matmul_efficiency: 0.6,
        ib_latency_us: 0.0,
        ..h100.clone()
    };
    // The rate stays the preset's 741.75: it is a field of its own, not re-derived.
    assert_eq!(
        plan_round_trip(&tuned, GridId::SixtyFour),
        "tp8.pp8.h100.mem96.hbm2p4.eff0p6.aib0"
    );
    // A bad card field is ignored with a notice; the rest of the link lands.
    let (back, notices) = decode_plan("h200.eff1p5.tp4", GridId::SixtyFour);
    assert_eq!((back.hardware, back.tp), (Hardware::H200, 4));
    assert_eq!(notices.len(), 1, "{notices:?}");
}

#[test]
fn the_optimizer_offload_travels_as_a_word_and_two_numbers() {
    let offload = PlanConfig {
        zero: 1,
        optimizer_offload: OptimizerOffload::Cpu,
        pcie_gbps: 25.0,
        host_memory_gb: 512.5,
        ..PlanConfig::default()
    };
    assert_eq!(
        plan_round_trip(&offload, GridId::Eight),
        "z1.cpuadam.pcie25.host512p5"
    );
    // Back to the card: a word of its own, written only when it differs from the base.
    let (back, notices) = decode_plan("z1.cpuadam.gpuadam", GridId::Eight);
    assert_eq!(
        (back.optimizer_offload, notices.len()),
        (OptimizerOffload::Cpu, 1)
    );
    // Leniently: a bad bandwidth or host size is ignored with a notice, the rest lands.
    let (back, notices) = decode_plan("cpuadam.pcie0.host9999999.tp2", GridId::Eight);
    assert_eq!(
        (back.optimizer_offload, back.tp),
        (OptimizerOffload::Cpu, 2)
    );
    assert_eq!((back.pcie_gbps, back.host_memory_gb), (50.0, 2048.0));
    assert_eq!(notices.len(), 2, "{notices:?}");
    assert_eq!(encode_plan(&PlanConfig::default(), GridId::Eight), "");
}
