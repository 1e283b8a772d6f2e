//! What the core's split test files share: the published `config.json` fixtures read as JSON
//! and as models (hf_configs_*.rs), a default plan with rollout engines (rollout_*.rs), the
//! seed of a randomized test ([`seed`]) and proptest [`strategies`].

#![allow(clippy::unwrap_used, clippy::panic, dead_code)]

pub mod seed;
pub mod strategies;

use parallel_core::hf::{HfConfig, HfModel};
use parallel_core::{PlanConfig, Rollout};
use serde_json::Value;

/// A fixture as JSON.
pub fn fixture(name: &str) -> Value {
    let text = match name {
        "llama3-8b" => include_str!("../fixtures/hf/llama3-8b.json"),
        "llama3-70b" => include_str!("../fixtures/hf/llama3-70b.json"),
        "llama3.2-1b" => include_str!("../fixtures/hf/llama3.2-1b.json"),
        "mistral-7b" => include_str!("../fixtures/hf/mistral-7b.json"),
        "mixtral-8x7b" => include_str!("../fixtures/hf/mixtral-8x7b.json"),
        "qwen2-7b" => include_str!("../fixtures/hf/qwen2-7b.json"),
        "qwen3-8b" => include_str!("../fixtures/hf/qwen3-8b.json"),
        "qwen1.5-moe-a2.7b" => include_str!("../fixtures/hf/qwen1.5-moe-a2.7b.json"),
        "qwen3-30b-a3b" => include_str!("../fixtures/hf/qwen3-30b-a3b.json"),
        "deepseek-v3" => include_str!("../fixtures/hf/deepseek-v3.json"),
        other => panic!("no fixture {other}"),
    };
    serde_json::from_str(text).unwrap()
}

pub fn config_of(value: Value) -> HfConfig {
    serde_json::from_value(value).unwrap()
}

pub fn read(name: &str) -> HfModel {
    config_of(fixture(name))
        .to_model()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The default plan with `rollout`'s engines.
pub fn engines(rollout: Rollout) -> PlanConfig {
    PlanConfig {
        rollout: Some(rollout),
        ..PlanConfig::default()
    }
}
