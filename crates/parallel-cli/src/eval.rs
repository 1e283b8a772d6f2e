//! `parallel-lab eval`, `groups` and `model`: one config on stdin, one JSON line out; and
//! `defaults`, which reads nothing.

use std::io::Write;

use parallel_core::hardware::Hardware;
use parallel_core::hf::HfConfig;
use parallel_core::link::{GridId, Slider};
use parallel_core::{Plan, PlanConfig, Preset, RolloutPhase};

use crate::error::{finite, CliError};

/// The SPEC §10 report of a config: `{"dp", "memory", "comm", "bubble", "warnings",
/// "estimate"}`. With a card, `comm` carries that card's own links (the page's view of a
/// selected card); bytes and group sizes are the same for every card. With `explain`, the
/// report gains `"explain": [{"figure", "formula", "substituted", "result", "unit", "shown",
/// "source"}…]`, one entry per figure (`parallel_core::explain`). Under uneven expert routing
/// (SPEC §20) or uneven sequences (§25) with `--card`, `"cards_memory": [{"card", "total", "fits", "tight"}…]` gives every
/// card's own memory (the hot expert's cards hold more than the others of their stage), with
/// its `"runtime"` bytes when the runtime terms are counted (SPEC §24). A plan read from a launch
/// command (`--megatron`) adds `"launch": {"engine", "ignored", "not_modelled", "notes"}`.
pub fn eval(
    config: &PlanConfig,
    card: Option<u32>,
    explain: bool,
    launch: Option<serde_json::Value>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let plan = Plan::new(config)?;
    let mut report = plan.report();
    // Under uneven routing the cards differ within a stage (SPEC §20): with a card named, every
    // card's own memory as the grid shows it.
    let cards = (card.is_some() && (plan.uneven() || plan.uneven_sequences())).then(|| {
        plan.cards_memory(&report)
            .iter()
            .enumerate()
            .map(|(card, m)| {
                let mut entry = serde_json::json!({"card": card, "total": m.total, "fits": m.fits, "tight": m.tight});
                if m.runtime.get() > 0.0 {
                    entry["runtime"] = serde_json::json!(m.runtime);
                }
                entry
            })
            .collect::<Vec<_>>()
    });
    if let Some(card) = card {
        report.comm = plan.traffic_for_card(card)?;
    }
    if !explain && launch.is_none() && cards.is_none() {
        return write_json_line(&report, out);
    }
    // Checked before `to_value`, which would turn a NaN into a `null` no check can tell.
    finite(&report)?;
    let mut value = serde_json::to_value(&report).map_err(std::io::Error::from)?;
    if let Some(object) = value.as_object_mut() {
        if explain {
            let explanations = plan.explain_all(&report);
            finite(&explanations)?;
            let explained = serde_json::to_value(explanations).map_err(std::io::Error::from)?;
            object.insert("explain".to_string(), explained);
        }
        if let Some(launch) = launch {
            object.insert("launch".to_string(), launch);
        }
        if let Some(cards) = cards {
            object.insert("cards_memory".to_string(), serde_json::Value::from(cards));
        }
    }
    write_json_line(&value, out)
}

/// The TP, CP, PP, DP (and, for MoE models, EP) groups of one card; in the rollout phase, its
/// engine (`{"engine": [...]}`), the card being numbered in the rollout pool.
pub fn groups(
    config: &PlanConfig,
    card: u32,
    phase: RolloutPhase,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let groups = Plan::new(config)?.groups_in(phase, card)?.ok_or_else(|| {
        CliError::invalid(
            "--phase",
            "rollout needs a `rollout` object in the config (SPEC §15): a training-only plan has no engines",
        )
    })?;
    write_json_line(&groups, out)
}

/// `parallel-lab model`: the inline model a `config.json` stands for, with `params`,
/// `active_params` and `notes` (SPEC §13).
pub fn model(config: &HfConfig, out: &mut dyn Write) -> Result<(), CliError> {
    write_json_line(&config.to_model()?, out)
}

/// `parallel-lab defaults`: `{"config": {...}, "presets": [{"id", "name"}...], "hardware":
/// [{"id", "name", "config"}...], "sliders": {"8": [RANGE...], "64": [...]}, "routing":
/// {"skews": [{"id", "skew", "source"}...], "capacity_factors": [{"id", "factor"}...]}}`
/// (the page's choices of uneven routing, SPEC §20), the
/// `PlanConfig` every omitted field falls back to (an empty input is this plan),
/// [`Preset::ALL`] in its order, each card preset with the default plan on it, and each
/// grid's sliders with the values they offer (`{"field", "min", "max", "powers_of_two",
/// "zero"}`, [`Slider::range`]), so that tools driving the page need not copy any of them.
pub fn defaults(out: &mut dyn Write) -> Result<(), CliError> {
    let presets: Vec<_> = Preset::ALL
        .iter()
        .map(|p| serde_json::json!({"id": p.id(), "name": p.name()}))
        .collect();
    let hardware: Vec<_> = Hardware::ALL
        .iter()
        .map(|h| serde_json::json!({"id": h.as_str(), "name": h.name(), "config": PlanConfig::on(*h)}))
        .collect();
    let sliders: serde_json::Map<String, serde_json::Value> = GridId::ALL
        .iter()
        .map(|g| {
            let ranges: Vec<_> = Slider::ALL.iter().map(|s| s.range(g.gpus())).collect();
            (g.gpus().to_string(), serde_json::json!(ranges))
        })
        .collect();
    let skews: Vec<_> = parallel_core::routing::MEASURED_SKEWS
        .iter()
        .map(|m| serde_json::json!({"id": m.id, "skew": m.skew, "source": m.source}))
        .collect();
    let capacity_factors: Vec<_> = parallel_core::routing::CAPACITY_FACTORS
        .iter()
        .map(|c| serde_json::json!({"id": c.id, "factor": c.factor}))
        .collect();
    write_json_line(
        &serde_json::json!({
            "config": PlanConfig::default(),
            "presets": presets,
            "hardware": hardware,
            "sliders": sliders,
            "routing": {"skews": skews, "capacity_factors": capacity_factors},
        }),
        out,
    )
}

/// Writes a value as compact JSON followed by a newline, once every number in it is finite
/// ([`finite`]: else nothing is written and the error names where).
pub fn write_json_line(value: &impl serde::Serialize, out: &mut dyn Write) -> Result<(), CliError> {
    finite(value)?;
    serde_json::to_writer(&mut *out, value).map_err(std::io::Error::from)?;
    out.write_all(b"\n")?;
    Ok(())
}
