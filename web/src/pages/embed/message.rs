//! A `parallel-lab:set` message from the embedding page: a plan object is taken whole or
//! refused with the field at fault, a string is read as a link's plan tokens.
//!
//! An object is read from a split module ([`crate::state::split`]): serde-wasm-bindgen and the
//! core's plan form, which nothing else in a widget needs, are fetched with the first object
//! message, not before the grid answers. Messages still take effect in the order they came.

use parallel_core::link::{decode_plan, read_plan, GridId, Ignored, PlanObject, Refusal};
use parallel_core::PlanConfig;
use wasm_bindgen::prelude::*;

use crate::state::lab::GridLab;
use crate::state::split::{split_fn, SplitFailed};

/// A plan object as the course page posted it, read a field at a time with
/// serde-wasm-bindgen, for the core's `link::read_plan`.
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

split_fn! { in set_message;
    /// A plain object, read whole or refused, as the core's `link::read_plan` reads one.
    fn read_object(object: js_sys::Object, grid: GridId) -> Result<(PlanConfig, Vec<Ignored>), Refusal> {
        read_plan(&JsPlan(object), grid)
    }
}

/// The `set` messages a grid heard, numbered as they came, and the number of the last one
/// applied (none, by default): an object read after a later message was applied is not
/// applied over it.
#[derive(Clone, Copy, Default)]
pub struct SetMessages {
    heard: leptos::prelude::StoredValue<u64>,
    applied: leptos::prelude::StoredValue<u64>,
}

impl SetMessages {
    /// Applies a `parallel-lab:set` message's plan to a grid, as the core reads it: a plain
    /// object whole or not at all (`link::read_plan`), a string as a link's tokens. `answer`
    /// gets the notices of what a string's tokens could not use, or the refusal that names the
    /// field at fault (then nothing is applied); it is not called for a plan that a later
    /// message's replaced before it was read, nor where the split module could not be fetched
    /// (a warning in the console; the next object message fetches it again).
    pub fn apply(
        self,
        lab: GridLab,
        grid: GridId,
        plan: &JsValue,
        answer: impl FnOnce(Result<Vec<Ignored>, Refusal>) + 'static,
    ) {
        use leptos::prelude::{GetValue, SetValue};
        let number = self.heard.get_value() + 1;
        self.heard.set_value(number);
        let done = move |read: Result<(PlanConfig, Vec<Ignored>), Refusal>| match read {
            // A plan a later message's replaced meanwhile is neither applied nor answered: its
            // notices would hide that message's.
            Ok((config, notices)) => {
                if self.applied.get_value() < number {
                    self.applied.set_value(number);
                    lab.load(config);
                    answer(Ok(notices));
                }
            }
            Err(refusal) => answer(Err(refusal)),
        };
        if let Some(tokens) = plan.as_string() {
            return done(Ok(decode_plan(&tokens, grid)));
        }
        // A plain object only: not null, an array or a class's instance (a Date, a Map).
        let Some(object) = plan.dyn_ref::<js_sys::Object>().filter(|object| {
            js_sys::Object::get_prototype_of(object)
                == js_sys::Object::get_prototype_of(&js_sys::Object::new())
        }) else {
            return done(Err(Refusal::NotAPlan));
        };
        let object = object.clone();
        leptos::task::spawn_local(async move {
            match read_object(object, grid).await {
                Ok(read) => done(read),
                Err(SplitFailed) => web_sys::console::warn_1(
                    &"parallel-lab: the module that reads a plan object could not be fetched"
                        .into(),
                ),
            }
        });
    }
}
