//! Reading JSON from stdin with errors that name the field at fault.
//!
//! Serde errors go through `serde_path_to_error`, so an error deep in the input reads
//! `model.hidden: invalid type ...` or `[2].config.recompute: unknown variant ...`; an error
//! with no field (malformed JSON at the top level) is attributed to `input`. The values serde
//! quotes in its messages are cut short ([`quotes_shortened`]), and so is the path, which may
//! hold a user's key: a 10 MB value gives an error of a line.

use std::io::Read;

use core::fmt;
use core::marker::PhantomData;

use parallel_core::hf::HfConfig;
use parallel_core::numbers::quotes_shortened;
use parallel_core::PlanConfig;
use serde::de::{self, DeserializeOwned, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::error::CliError;

/// Everything on stdin, as bytes checked to be UTF-8 text (the JSON parser does not check the
/// values it skips, such as a config.json's keys the counter does not read). Stdin that cannot
/// be read, or is not UTF-8, is bad input (exit 2) like any other.
pub fn read_all(stdin: &mut dyn Read) -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    stdin
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::unreadable(&e))?;
    if let Err(e) = std::str::from_utf8(&bytes) {
        let at = e.valid_up_to();
        return Err(CliError::invalid(
            "input",
            format!("not UTF-8 text (byte {at} is not): the input is JSON"),
        ));
    }
    Ok(bytes)
}

/// Parses one JSON value of type `T`, rejecting trailing data, with the field path in errors.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CliError> {
    parse_under(bytes, None)
}

/// As [`parse`], with field paths written under `prefix` (`hidden_size` →
/// `model.hf_config.hidden_size`); errors with no field stay `input`.
fn parse_under<T: DeserializeOwned>(bytes: &[u8], prefix: Option<&str>) -> Result<T, CliError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        if let Some(not_json) = not_json(e.inner()) {
            return not_json;
        }
        let path = e.path().to_string();
        // "?" stands for a key not read yet (e.g. EOF inside an object): drop it.
        let known = path.trim_end_matches('?').trim_end_matches('.');
        let message = quotes_shortened(&e.inner().to_string());
        match (known, prefix) {
            ("", _) => CliError::invalid("input", message),
            (field, None) => CliError::invalid(field, message),
            (field, Some(prefix)) => CliError::invalid(&format!("{prefix}.{field}"), message),
        }
    })?;
    de.end().map_err(|e| {
        not_json(&e).unwrap_or_else(|| CliError::invalid("input", quotes_shortened(&e.to_string())))
    })?;
    Ok(value)
}

/// The error for input that is not (one whole) JSON value, saying so and where; `None` for
/// JSON that parsed but does not fit the type (those name their field).
fn not_json(e: &serde_json::Error) -> Option<CliError> {
    use serde_json::error::Category;
    let what = match e.classify() {
        Category::Syntax => "not JSON",
        Category::Eof => "not JSON: it ends early",
        Category::Io | Category::Data => return None,
    };
    // serde_json's text ends with " at line L column C": say the place first, then what broke.
    let text = quotes_shortened(&e.to_string());
    let cause = text.split(" at line ").next().unwrap_or(&text);
    Some(CliError::invalid(
        "input",
        format!("{what} (line {}, column {}: {cause})", e.line(), e.column()),
    ))
}

/// A Hugging Face `config.json` (a JSON object); errors name the key as
/// `model.hf_config.<key>`, as the core's checks do.
pub fn parse_hf_config(bytes: &[u8]) -> Result<HfConfig, CliError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(CliError::invalid(
            "input",
            "empty: expected a config.json object on stdin",
        ));
    }
    parse_under::<Object<HfConfig>>(bytes, Some("model.hf_config")).map(|o| o.0)
}

/// A plan config: empty input (or only whitespace) means every default, like `{}`.
pub fn parse_config(bytes: &[u8]) -> Result<PlanConfig, CliError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        Ok(PlanConfig::default())
    } else {
        parse::<Object<PlanConfig>>(bytes).map(|o| o.0)
    }
}

/// A struct that must be written as a JSON object.
///
/// Serde's derived `Deserialize` also takes a struct from an array of its fields in order,
/// so `[1]` would parse as a config whose `model` is `1`; this wrapper only takes objects.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Object<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjectVisitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
            type Value = T;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map))
            }
        }

        deserializer
            .deserialize_map(ObjectVisitor(PhantomData))
            .map(Object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(input: &str) -> String {
        match parse_config(input.as_bytes()) {
            Ok(config) => format!("parsed: {config:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn empty_input_is_the_default_config() {
        for input in ["", "  \n", "{}"] {
            assert_eq!(
                parse_config(input.as_bytes()).ok(),
                Some(PlanConfig::default())
            );
        }
    }

    #[test]
    fn errors_start_with_the_field() {
        for (input, start) in [
            (
                r#"{"recompute":"most"}"#,
                "recompute: unknown variant `most`",
            ),
            (r#"{"model":"gpt"}"#, "model: unknown preset"),
            (r#"{"tp":-1}"#, "tp: invalid value"),
            (r#"{"model":{"hidden":"x"}}"#, "model.hidden: invalid type"),
            (
                "[1]",
                "input: invalid type: sequence, expected a JSON object",
            ),
            ("null", "input: invalid type: null, expected a JSON object"),
            (
                r#"{"model":{"hidden":1,"layers":[]}}"#,
                "model.layers: invalid type",
            ),
        ] {
            let message = error_of(input);
            assert!(message.starts_with(start), "{input}: {message}");
        }
        assert!(error_of(r#"{"tp_size":3}"#).contains("unknown field `tp_size`"));
    }

    #[test]
    fn input_that_is_not_json_says_so_and_where() {
        for (input, message) in [
            (
                "not json",
                "input: not JSON (line 1, column 2: expected ident)",
            ),
            (
                "gpus: 8",
                "input: not JSON (line 1, column 1: expected value)",
            ),
            (
                "{\"gpus\": 8,\n \"tp\": x}",
                "input: not JSON (line 2, column 8: expected value)",
            ),
            (
                r#"{"gpus":8"#,
                "input: not JSON: it ends early (line 1, column 9: EOF while parsing an object)",
            ),
            (
                r#"{} {}"#,
                "input: not JSON (line 1, column 4: trailing characters)",
            ),
        ] {
            assert_eq!(error_of(input), message, "{input}");
        }
    }

    #[test]
    fn config_json_errors_name_the_key_under_hf_config() {
        let error_of = |input: &str| match parse_hf_config(input.as_bytes()) {
            Ok(config) => format!("parsed: {config:?}"),
            Err(e) => e.to_string(),
        };
        for (input, start) in [
            (
                r#"{"hidden_size":"4096"}"#,
                "model.hf_config.hidden_size: invalid type",
            ),
            (
                r#"{"architectures":"LlamaForCausalLM"}"#,
                "model.hf_config.architectures: invalid type",
            ),
            (
                r#"{"mlp_only_layers":[1,-1]}"#,
                "model.hf_config.mlp_only_layers[1]: invalid value",
            ),
            ("", "input: empty"),
            ("[]", "input: invalid type"),
            (
                r#"{"hidden_size":1"#,
                "input: not JSON: it ends early (line 1, column 16: EOF while parsing an object)",
            ),
        ] {
            let message = error_of(input);
            assert!(message.starts_with(start), "{input}: {message}");
        }
        // Keys the counter does not read are ignored.
        assert_eq!(
            parse_hf_config(br#"{"rope_theta": 500000.0, "hidden_size": 8}"#).ok(),
            Some(HfConfig {
                hidden_size: Some(8),
                ..HfConfig::default()
            })
        );
    }
}
