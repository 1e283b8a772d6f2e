//! The page's JavaScript API for course authors. The built page (`index.html`, not
//! `embed.html`) exports, on `window.wasmBindings` (Trunk's loader puts the module's exports
//! there):
//!
//! - `evaluate(config)`: the report of a plan, the CLI's `eval` JSON as a plain object;
//! - `groups(config, card)`: one card's groups, the CLI's `groups --card`;
//! - `countParams(hfConfig)`: a Hugging Face `config.json` object counted, the CLI's `model`;
//! - `search(config, top)`: every plan of the config's model, cluster and `global_batch`
//!   ranked by estimated step time, the CLI's `search --top K` (top 20 when absent).
//!
//! Configs are plain objects with the CLI's field names (`PlanConfig`'s serde form); `undefined`
//! or `null` is the default plan. A rejected input throws a string naming the field, the same
//! line the CLI prints. And an embedded widget takes `postMessage({type: "parallel-lab:set",
//! plan})` from its parent page ([`apply_set_message`]), validated like a link.

use parallel_core::link::{decode_plan, encode_plan, GridId};
use parallel_core::PlanConfig;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::lab::GridLab;

/// A value as a plain JS object with JSON's types (numbers, not BigInts; objects, not Maps).
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsValue::from_str(&e.to_string()))
}

/// A value as JSON text with the CLI's field names (a `data-*` attribute a reader or a test
/// can copy into `parallel-lab`); empty if it cannot be written.
pub fn json_text<T: Serialize>(value: &T) -> String {
    to_js(value)
        .ok()
        .and_then(|v| js_sys::JSON::stringify(&v).ok())
        .and_then(|s| s.as_string())
        .unwrap_or_default()
}

/// The four exports. Only the page's own build has them (the `js-api` feature, on by default):
/// `embed.html` leaves it out (`data-cargo-no-default-features`), as an embedded widget is
/// driven by `postMessage` and need not carry the search or the reports' serialization.
#[cfg(feature = "js-api")]
mod exports {
    use parallel_core::hf::HfConfig;
    use parallel_core::{evaluate as evaluate_plan, Plan, PlanConfig};
    use wasm_bindgen::prelude::*;

    use super::to_js;

    /// A plan from a plain object; `undefined` and `null` are the default plan.
    fn config_of(value: JsValue) -> Result<PlanConfig, JsValue> {
        if value.is_undefined() || value.is_null() {
            return Ok(PlanConfig::default());
        }
        serde_wasm_bindgen::from_value(value)
            .map_err(|e| JsValue::from_str(&format!("config: {e}")))
    }

    /// `evaluate(config)`: the CLI's `eval` report of a plan.
    #[wasm_bindgen(js_name = evaluate)]
    pub fn evaluate_js(config: JsValue) -> Result<JsValue, JsValue> {
        let config = config_of(config)?;
        let report = evaluate_plan(&config).map_err(|e| JsValue::from_str(&e.to_string()))?;
        to_js(&report)
    }

    /// `groups(config, card)`: the CLI's `groups --card` of one card.
    #[wasm_bindgen(js_name = groups)]
    pub fn groups_js(config: JsValue, card: u32) -> Result<JsValue, JsValue> {
        let config = config_of(config)?;
        let plan = Plan::new(&config).map_err(|e| JsValue::from_str(&e.to_string()))?;
        let groups = plan
            .grid()
            .groups(card)
            .map_err(|e| JsValue::from_str(&e.to_string()))?;
        to_js(&groups)
    }

    /// `countParams(hfConfig)`: a Hugging Face `config.json` counted, the CLI's `model` output.
    #[wasm_bindgen(js_name = countParams)]
    pub fn count_params_js(hf_config: JsValue) -> Result<JsValue, JsValue> {
        let config: HfConfig = serde_wasm_bindgen::from_value(hf_config)
            .map_err(|e| JsValue::from_str(&format!("model.hf_config: {e}")))?;
        let model = config
            .to_model()
            .map_err(|e| JsValue::from_str(&e.to_string()))?;
        to_js(&model)
    }

    /// `search(config, top)`: the CLI's `search --top K` (K = 20 when `top` is absent).
    #[wasm_bindgen(js_name = search)]
    pub fn search_js(config: JsValue, top: Option<u32>) -> Result<JsValue, JsValue> {
        let config = config_of(config)?;
        let top = top.map_or(parallel_core::search::DEFAULT_TOP, |k| k.max(1) as usize);
        let found = parallel_core::search::search(&config, top)
            .map_err(|e| JsValue::from_str(&e.to_string()))?;
        to_js(&found)
    }
}

/// What a `parallel-lab:set` message asks of a grid, as a link's plan tokens: a string is
/// taken as written (`"tp4.pp2"`), an object (`{tp: 4, pp: 2}`, the CLI's field names) is
/// written as tokens first. Either way the tokens are then read exactly as a link's are, so a
/// message can do no more than a link can. `None` when the plan is neither.
pub fn set_tokens(plan: &JsValue, grid: GridId) -> Option<String> {
    if let Some(text) = plan.as_string() {
        return Some(text);
    }
    if !plan.is_object() {
        return None;
    }
    // The grid's size is fixed: an object without `gpus` means this grid's.
    let object = plan.clone();
    if js_sys::Reflect::get(&object, &"gpus".into()).is_ok_and(|v| v.is_undefined()) {
        let _ = js_sys::Reflect::set(&object, &"gpus".into(), &grid.gpus().into());
    }
    let config: PlanConfig = serde_wasm_bindgen::from_value(object).ok()?;
    Some(encode_plan(&config, grid))
}

/// Applies a `parallel-lab:set` message to a grid: the plan decoded leniently, as from a link,
/// with the parts it could not use returned as notices.
pub fn apply_set_message(
    lab: GridLab,
    grid: GridId,
    plan: &JsValue,
) -> Vec<parallel_core::link::Ignored> {
    let Some(tokens) = set_tokens(plan, grid) else {
        return vec![parallel_core::link::Ignored {
            part: "plan".to_string(),
            reason: parallel_core::link::IgnoredReason::Malformed,
        }];
    };
    let (config, notices) = decode_plan(&tokens, grid);
    lab.load(config);
    notices
}
