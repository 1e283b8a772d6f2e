//! Reading a `measured.json` (SPEC §19): every field checked, every problem named by its path.

use serde_json::{Map, Value};

use crate::numbers::{quoted_text, quotes_shortened};

use super::physical;
use super::problem::{problem, CheckError};
use super::workload::{StageLayers, Workload, CHECK_VERSION, WORKLOAD_FORMAT};

/// The `format` field of a measured file.
pub const MEASURED_FORMAT: &str = "parallel-lab/measured";

/// The card the figures were measured on.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredCard {
    /// As `torch.cuda.get_device_name` says it, e.g. "NVIDIA H200".
    pub name: String,
    /// Its memory, bytes.
    pub memory_bytes: f64,
}

/// One mode's figures (eager or compiled); `None` where the program could not take one.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Figures {
    /// Forward + backward of one layer, seconds (median over repeats).
    pub layer_fwd_bwd_s: Option<f64>,
    /// Activation bytes one layer keeps for one micro-batch.
    pub activation_per_layer_bytes: Option<f64>,
    /// Activation bytes held with the built layers' micro-batches in flight.
    pub activation_in_flight_bytes: Option<f64>,
    /// The built layers' model states after an optimizer step, bytes.
    pub states_bytes: Option<f64>,
    /// The allocator's peak over a step, bytes.
    pub peak_bytes: Option<f64>,
    /// The allocator's reserve at that peak, bytes.
    pub reserved_bytes: Option<f64>,
}

impl Figures {
    /// The byte figures by their keys in the file.
    fn bytes(&self) -> [(&'static str, Option<f64>); 5] {
        [
            (
                "activation_per_layer_bytes",
                self.activation_per_layer_bytes,
            ),
            (
                "activation_in_flight_bytes",
                self.activation_in_flight_bytes,
            ),
            ("states_bytes", self.states_bytes),
            ("peak_bytes", self.peak_bytes),
            ("reserved_bytes", self.reserved_bytes),
        ]
    }

    /// Every figure of `mode` (`eager` or `compiled`) one card of `memory` bytes can measure
    /// ([`physical`]): the time inside its range, each byte figure from 1 byte to the memory.
    fn within(&self, mode: &str, memory: f64) -> Result<(), CheckError> {
        physical::layer_seconds(&format!("{mode}.layer_fwd_bwd_s"), self.layer_fwd_bwd_s)?;
        for (key, bytes) in self.bytes() {
            physical::bytes(&format!("{mode}.{key}"), bytes, memory)?;
        }
        Ok(())
    }
}

/// A measured file, read and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The workload it was measured for.
    pub workload: Workload,
    /// The card.
    pub card: MeasuredCard,
    /// PyTorch's version.
    pub torch: String,
    /// CUDA's (or ROCm's) version, as PyTorch reports it.
    pub cuda: String,
    /// When (ISO date).
    pub date: String,
    /// How, in a sentence.
    pub method: String,
    /// The layers built (fewer than the stage's when the stage does not fit).
    pub built: StageLayers,
    /// Micro-batches held in flight.
    pub held: u32,
    /// Eager PyTorch's figures.
    pub eager: Figures,
    /// `torch.compile`'s figures, when it ran.
    pub compiled: Option<Figures>,
    /// Why compiling did not run, when it did not.
    pub compiled_error: Option<String>,
}

/// Field access with paths for messages.
struct Obj<'a> {
    path: String,
    map: &'a Map<String, Value>,
}

impl<'a> Obj<'a> {
    fn of(path: &str, value: &'a Value) -> Result<Obj<'a>, CheckError> {
        match value {
            Value::Object(map) => Ok(Obj {
                path: path.to_owned(),
                map,
            }),
            other => Err(problem(
                path,
                format!("expected an object, found {}", kind(other).1),
                format!("应是一个对象，却是{}", kind(other).0),
            )),
        }
    }

    fn at(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn get(&self, key: &str) -> Result<&'a Value, CheckError> {
        self.map
            .get(key)
            .ok_or_else(|| problem(&self.at(key), "missing", "缺少"))
    }

    fn obj(&self, key: &str) -> Result<Obj<'a>, CheckError> {
        Obj::of(&self.at(key), self.get(key)?)
    }

    fn text(&self, key: &str) -> Result<String, CheckError> {
        match self.get(key)? {
            Value::String(s) => Ok(s.clone()),
            other => Err(problem(
                &self.at(key),
                format!("expected text, found {}", kind(other).1),
                format!("应是文字，却是{}", kind(other).0),
            )),
        }
    }

    /// A finite number ≥ 0, or null (a figure the program could not take).
    fn figure(&self, key: &str) -> Result<Option<f64>, CheckError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => match n.as_f64() {
                Some(x) if x.is_finite() && x >= 0.0 => Ok(Some(x)),
                _ => Err(problem(
                    &self.at(key),
                    "expected a number ≥ 0",
                    "应是 ≥ 0 的数",
                )),
            },
            Some(other) => Err(problem(
                &self.at(key),
                format!("expected a number ≥ 0, found {}", kind(other).1),
                format!("应是 ≥ 0 的数，却是{}", kind(other).0),
            )),
        }
    }

    fn count(&self, key: &str) -> Result<u32, CheckError> {
        match self.get(key)? {
            Value::Number(n) => n
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| {
                    problem(
                        &self.at(key),
                        "expected a whole number ≥ 0",
                        "应是 ≥ 0 的整数",
                    )
                }),
            other => Err(problem(
                &self.at(key),
                format!("expected a whole number ≥ 0, found {}", kind(other).1),
                format!("应是 ≥ 0 的整数，却是{}", kind(other).0),
            )),
        }
    }
}

/// A value's kind in words (Chinese, English).
fn kind(value: &Value) -> (&'static str, &'static str) {
    match value {
        Value::Null => ("null", "null"),
        Value::Bool(_) => ("真假值", "true or false"),
        Value::Number(_) => ("一个数", "a number"),
        Value::String(_) => ("文字", "text"),
        Value::Array(_) => ("一个列表", "a list"),
        Value::Object(_) => ("一个对象", "an object"),
    }
}

fn figures(o: &Obj<'_>) -> Result<Figures, CheckError> {
    Ok(Figures {
        layer_fwd_bwd_s: o.figure("layer_fwd_bwd_s")?,
        activation_per_layer_bytes: o.figure("activation_per_layer_bytes")?,
        activation_in_flight_bytes: o.figure("activation_in_flight_bytes")?,
        states_bytes: o.figure("states_bytes")?,
        peak_bytes: o.figure("peak_bytes")?,
        reserved_bytes: o.figure("reserved_bytes")?,
    })
}

/// The file's `format` and `version` checked: a workload, another tool's JSON or a newer
/// version each get their own sentence.
fn check_format(top: &Obj<'_>) -> Result<(), CheckError> {
    let format = match top.map.get("format") {
        Some(Value::String(s)) => s.as_str(),
        _ => {
            return Err(problem(
                "format",
                format!(
                    "missing: this is not a Parallel Lab measured file (its first field reads \
                     \"format\": \"{MEASURED_FORMAT}\"); run the measuring program on a \
                     workload to make one"
                ),
                format!(
                    "缺少：这不是 Parallel Lab 的实测文件（它的第一项是 \
                     \"format\": \"{MEASURED_FORMAT}\"）；对工作负载运行测量程序就会得到一个"
                ),
            ))
        }
    };
    if format == WORKLOAD_FORMAT {
        return Err(problem(
            "format",
            "this is the workload, not the measurement: run the measuring program on it and \
             load the measured.json it writes",
            "这是工作负载，不是实测结果：先用测量程序运行它，再载入它写出的 measured.json",
        ));
    }
    if format != MEASURED_FORMAT {
        let format = quoted_text(format);
        return Err(problem(
            "format",
            format!("\"{format}\" is not a Parallel Lab measured file (\"{MEASURED_FORMAT}\")"),
            format!("\"{format}\" 不是 Parallel Lab 的实测文件（\"{MEASURED_FORMAT}\"）"),
        ));
    }
    let version = top.count("version")?;
    if version != CHECK_VERSION {
        return Err(problem(
            "version",
            format!("version {version}; this lab reads version {CHECK_VERSION}"),
            format!("版本 {version}；本实验室读的是版本 {CHECK_VERSION}"),
        ));
    }
    Ok(())
}

impl Measured {
    /// Reads a measured file's text. Every problem names its field.
    ///
    /// ```
    /// use parallel_core::check::Measured;
    /// let e = Measured::read("{\"name\": \"x\"}").unwrap_err();
    /// assert_eq!(e.field, "format");
    /// let e = Measured::read("not json").unwrap_err();
    /// assert!(e.to_string().contains("not JSON"));
    /// ```
    pub fn read(text: &str) -> Result<Measured, CheckError> {
        let value: Value =
            serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| {
                let e = quotes_shortened(&e.to_string());
                problem("", format!("not JSON ({e})"), format!("不是 JSON（{e}）"))
            })?;
        let top = Obj::of("", &value)?;
        check_format(&top)?;
        let workload: Workload =
            serde_json::from_value(top.get("workload")?.clone()).map_err(|e| {
                let e = quotes_shortened(&e.to_string());
                problem(
                    "workload",
                    format!("not a workload this lab wrote ({e})"),
                    format!("不是本实验室写出的工作负载（{e}）"),
                )
            })?;
        physical::layer_seconds("workload.per_layer.fwd_bwd_s", workload.per_layer.fwd_bwd_s)?;
        let card = top.obj("card")?;
        let memory_bytes = match card.figure("memory_bytes")? {
            Some(bytes) => physical::card_memory(bytes)?,
            None => return Err(problem("card.memory_bytes", "missing", "缺少")),
        };
        let software = top.obj("software")?;
        let built = top.obj("built")?;
        let built_layers = StageLayers {
            total: built.count("layers")?,
            moe: built.count("moe")?,
            full_attention: built.count("full_attention")?,
        };
        if built_layers.total == 0 || built_layers.total > workload.layers.total {
            let (built, stage) = (built_layers.total, workload.layers.total);
            return Err(problem(
                "built.layers",
                format!("{built} layers built, where the stage has {stage}"),
                format!("构建了 {built} 层，而这一段有 {stage} 层"),
            ));
        }
        let held = built.count("held")?;
        if held == 0 {
            return Err(problem(
                "built.held",
                "at least one micro-batch is held",
                "至少要有一个在途微批",
            ));
        }
        let eager = figures(&top.obj("eager")?)?;
        eager.within("eager", memory_bytes)?;
        let compiled = match top.map.get("compiled") {
            None | Some(Value::Null) => None,
            Some(v) => Some(figures(&Obj::of("compiled", v)?)?),
        };
        if let Some(compiled) = &compiled {
            compiled.within("compiled", memory_bytes)?;
        }
        let compiled_error = match top.map.get("compiled_error") {
            Some(Value::String(s)) => Some(s.clone()),
            _ => None,
        };
        Ok(Measured {
            card: MeasuredCard {
                name: card.text("name")?,
                memory_bytes,
            },
            torch: software.text("torch")?,
            cuda: software.text("cuda")?,
            date: top.text("date")?,
            method: top.text("method")?,
            built: built_layers,
            held,
            eager,
            compiled,
            compiled_error,
            workload,
        })
    }
}
