//! A `parallel-lab:set` message from the embedding page: a plan object is taken whole or
//! refused with the field at fault, a string is read as a link's plan tokens.

use parallel_core::link::{decode_plan, read_plan, GridId, Ignored, PlanObject, Refusal};
use parallel_core::PlanConfig;
use wasm_bindgen::prelude::*;

use crate::state::lab::GridLab;

/// A plan object as the course page posted it, read a field at a time with
/// serde-wasm-bindgen (already in every entry point's wasm), for the core's `link::read_plan`.
struct JsPlan(js_sys::Object);

impl PlanObject for JsPlan {
    fn keys(&self) -> Vec<String> {
        js_sys::Object::keys(&self.0)
            .iter()
            .filter_map(|key| key.as_string())
            .collect()
    }

    fn plan(&self, key: Option<&str>, gpus: u32) -> Option<PlanConfig> {
        let fields = js_sys::Object::new();
        match key {
            Some(key) => {
                let value = js_sys::Reflect::get(&self.0, &key.into()).ok()?;
                js_sys::Reflect::set(&fields, &key.into(), &value).ok()?;
            }
            None => {
                js_sys::Object::assign(&fields, &self.0);
            }
        }
        let gpus_key = JsValue::from_str("gpus");
        if js_sys::Reflect::get(&fields, &gpus_key).is_ok_and(|v| v.is_undefined()) {
            js_sys::Reflect::set(&fields, &gpus_key, &gpus.into()).ok()?;
        }
        serde_wasm_bindgen::from_value(fields.into()).ok()
    }
}

/// Applies a `parallel-lab:set` message's plan to a grid, as the core reads it: a plain object
/// whole or not at all (`link::read_plan`), a string as a link's tokens. Returns the notices of
/// what a string's tokens could not use, or the refusal that names the field at fault (then
/// nothing is applied).
pub fn apply_set_message(
    lab: GridLab,
    grid: GridId,
    plan: &JsValue,
) -> Result<Vec<Ignored>, Refusal> {
    let (config, notices) = if let Some(tokens) = plan.as_string() {
        decode_plan(&tokens, grid)
    } else {
        // A plain object only: not null, an array or a class's instance (a Date, a Map).
        let object = plan
            .dyn_ref::<js_sys::Object>()
            .filter(|object| {
                js_sys::Object::get_prototype_of(object)
                    == js_sys::Object::get_prototype_of(&js_sys::Object::new())
            })
            .ok_or(Refusal::NotAPlan)?;
        read_plan(&JsPlan(object.clone()), grid)?
    };
    lab.load(config);
    Ok(notices)
}
