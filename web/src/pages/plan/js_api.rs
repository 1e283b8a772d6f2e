//! The lab's JavaScript API for course authors. The planner (`plan.html`, not the other entry
//! points) exports, on `window.wasmBindings` (Trunk's loader puts the module's exports
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
//! line the CLI prints (for a value of the wrong type, without the CLI's line and column in
//! its JSON text; and a negative count reads "floating point `-1.0`", as JS numbers are).
//!
//! An embedded widget is driven by `postMessage` instead (`pages::embed::message`).

use serde::Serialize;
use wasm_bindgen::prelude::*;

/// A value as a plain JS object with JSON's types: the CLI's JSON (serde_json, see
/// `kit::format::json_text`) parsed by the browser, so an export returns what the CLI prints.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(
        &serde_json::to_string(value).map_err(|e| JsValue::from_str(&e.to_string()))?,
    )
}

/// The four exports. Only the planner's build has them (the `js-api` feature, on by default):
/// the lesson, the RL page and `embed.html` leave it out (`data-cargo-no-default-features`), so
/// they need not carry the search or the reports' serialization; an embedded widget is driven
/// by `postMessage`.
mod exports {
    use parallel_core::hf::HfConfig;
    use parallel_core::{evaluate as evaluate_plan, Plan, PlanConfig};
    use wasm_bindgen::prelude::*;

    use super::to_js;

    /// `value` read as a `T`. An error names the field at fault as the CLI's do, under
    /// `under` when it is not empty (`tp: invalid type: string "8", expected u32`,
    /// `model.hf_config.hidden_size: …`), or `whole` when no one field is at fault.
    fn read<T: serde::de::DeserializeOwned>(
        value: JsValue,
        under: &str,
        whole: &str,
    ) -> Result<T, JsValue> {
        serde_wasm_bindgen::from_value(value.clone()).map_err(|e| {
            let path = culprit(&value, |trial| {
                serde_wasm_bindgen::from_value::<T>(trial).is_err()
            });
            let at = match (path.join("."), under) {
                (field, _) if field.is_empty() => whole.to_string(),
                (field, "") => field,
                (field, under) => format!("{under}.{field}"),
            };
            // serde-wasm-bindgen's errors are JS `Error`s, written "Error: …".
            let message = e.to_string();
            let message = message.strip_prefix("Error: ").unwrap_or(&message);
            JsValue::from_str(&format!("{at}: {message}"))
        })
    }

    /// The path to the field of `root` whose value alone fails: each key of an object is tried
    /// alone (`{tp: "8"}`, then `{model: {layers: -1}}` one level down), and the first that
    /// `fails` is followed into its value while that is an object. Every field of a config
    /// has a default, so a field alone fails only when its own value is wrong. (The same as
    /// `serde_path_to_error` would say, without a second copy of every `Deserialize` impl in
    /// the wasm.)
    fn culprit(root: &JsValue, fails: impl Fn(JsValue) -> bool) -> Vec<String> {
        let mut path: Vec<String> = Vec::new();
        let mut at = root.clone();
        while let Some(object) = at.dyn_ref::<js_sys::Object>().filter(|_| !at.is_array()) {
            let found = js_sys::Object::keys(object).iter().find_map(|key| {
                let value = js_sys::Reflect::get(&at, &key).ok()?;
                let name = key.as_string()?;
                // The key alone, at the depth of `path`: {p1: {p2: {key: value}}}.
                let mut trial = one_key(&name, &value);
                for outer in path.iter().rev() {
                    trial = one_key(outer, &trial);
                }
                fails(trial).then_some((name, value))
            });
            let Some((name, value)) = found else { break };
            path.push(name);
            at = value;
        }
        path
    }

    /// `{key: value}`.
    fn one_key(key: &str, value: &JsValue) -> JsValue {
        let object = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&object, &JsValue::from_str(key), value);
        object.into()
    }

    /// A plan from a plain object; `undefined` and `null` are the default plan.
    fn config_of(value: JsValue) -> Result<PlanConfig, JsValue> {
        if value.is_undefined() || value.is_null() {
            return Ok(PlanConfig::default());
        }
        read(value, "", "config")
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
        let config: HfConfig = read(hf_config, "model.hf_config", "model.hf_config")?;
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
