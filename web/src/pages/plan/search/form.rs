//! The search panel's inputs, read into the one `PlanConfig` the core searches. No views here:
//! the model and the card are typed selects ([`models`], [`cards`]); every number field is
//! parsed by [`crate::kit::input`], and a bad one is named.

use parallel_core::hardware::Hardware;
use parallel_core::{ModelChoice, PlanConfig, Preset};

use crate::kit::choices::Choices;
use crate::kit::controls::card_options;
use crate::kit::input::{parse_number, parse_whole, InputError};

/// The model select's options: the presets by name, spelled by their ids.
pub fn models() -> Choices<Preset> {
    Choices::named(&Preset::ALL, Preset::id, |p| (p.name(), p.name()))
}

/// The card select's options: the grid's card picker's, spelled by their config words.
pub fn cards() -> Choices<Hardware> {
    Choices {
        list: card_options(),
        id: Hardware::as_str,
    }
}

/// One input of the panel: its test id (also its element id), its names, an example, and
/// how its text reads.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// `search-gpus`, …: the element id and the test hook.
    pub id: &'static str,
    /// The label in Chinese.
    pub zh: &'static str,
    /// The label in English.
    pub en: &'static str,
    /// The unit shown after the box.
    pub unit: &'static str,
    /// A value to show as the placeholder and in messages.
    pub example: &'static str,
    /// The field's value from its text.
    pub read: fn(&str) -> Result<f64, InputError>,
    /// Whether the text reads (for the field's own message).
    pub check: fn(&str) -> Result<(), InputError>,
}

/// The most cards the panel searches: 2¹⁴, Llama 3 405B's 16,384-card cluster (the search runs
/// in a Web Worker, `super::worker`, so its length never holds up the page).
pub const MAX_GPUS: u32 = 16_384;

/// A positive number, at most `max`.
fn positive(text: &str, max: f64, units: &[&str]) -> Result<f64, InputError> {
    let value = parse_number(text, units)?;
    if value < 0.0 {
        Err(InputError::Negative)
    } else if value == 0.0 {
        Err(InputError::NotPositive)
    } else if value > max {
        Err(InputError::TooLarge(crate::kit::format::thousands(
            max as u64,
        )))
    } else {
        Ok(value)
    }
}

fn gpus(t: &str) -> Result<f64, InputError> {
    parse_whole(t, 1, MAX_GPUS).map(f64::from)
}
fn per_node(t: &str) -> Result<f64, InputError> {
    parse_whole(t, 1, 64).map(f64::from)
}
fn seq(t: &str) -> Result<f64, InputError> {
    parse_whole(t, 128, 1 << 20).map(f64::from)
}
fn batch(t: &str) -> Result<f64, InputError> {
    parse_whole(t, 1, 1 << 16).map(f64::from)
}
fn memory(t: &str) -> Result<f64, InputError> {
    positive(t, 100_000.0, &["gb", "g"])
}
fn bandwidth(t: &str) -> Result<f64, InputError> {
    positive(t, 100_000.0, &["gb/s", "gbps"])
}
fn tflops(t: &str) -> Result<f64, InputError> {
    positive(t, 100_000.0, &["tflop/s", "tflops"])
}

/// The panel's number fields, in the order they are shown.
pub const FIELDS: [Field; 8] = [
    Field {
        id: "search-gpus",
        zh: "卡数 N",
        en: "Cards N",
        unit: "",
        example: "64",
        read: gpus,
        check: |t| gpus(t).map(|_| ()),
    },
    Field {
        id: "search-gpn",
        zh: "每节点卡数",
        en: "Cards per node",
        unit: "",
        example: "8",
        read: per_node,
        check: |t| per_node(t).map(|_| ()),
    },
    Field {
        id: "search-seq",
        zh: "序列长度 s",
        en: "Sequence length s",
        unit: "tokens",
        example: "4096",
        read: seq,
        check: |t| seq(t).map(|_| ()),
    },
    Field {
        id: "search-batch",
        zh: "全局批（每步序列数）",
        en: "Global batch (sequences per step)",
        unit: "",
        example: "256",
        read: batch,
        check: |t| batch(t).map(|_| ()),
    },
    Field {
        id: "search-memory",
        zh: "每卡显存",
        en: "Card memory",
        unit: "GB",
        example: "80",
        read: memory,
        check: |t| memory(t).map(|_| ()),
    },
    Field {
        id: "search-nvlink",
        zh: "NVLink 带宽",
        en: "NVLink bandwidth",
        unit: "GB/s",
        example: "160",
        read: bandwidth,
        check: |t| bandwidth(t).map(|_| ()),
    },
    Field {
        id: "search-ib",
        zh: "InfiniBand 带宽",
        en: "InfiniBand bandwidth",
        unit: "GB/s",
        example: "50",
        read: bandwidth,
        check: |t| bandwidth(t).map(|_| ()),
    },
    Field {
        id: "search-tflops",
        zh: "每卡有效算力",
        en: "Effective compute per card",
        unit: "TFLOP/s",
        example: "400",
        read: tflops,
        check: |t| tflops(t).map(|_| ()),
    },
];

/// Checks one field's text by its id (one of [`FIELDS`]).
pub fn check(id: &str, text: &str) -> Result<(), InputError> {
    FIELDS
        .iter()
        .find(|f| f.id == id)
        .map_or(Ok(()), |f| (f.check)(text))
}

/// The config to search from the model, the card preset and the fields' texts (in [`FIELDS`]
/// order; the card fields given there win over the preset's), or every field that does not
/// read, with its problem.
pub fn config_of(
    model: Preset,
    card: Hardware,
    texts: &[String; FIELDS.len()],
) -> Result<PlanConfig, Vec<(&'static str, InputError)>> {
    let mut values = [0.0; FIELDS.len()];
    let mut problems = Vec::new();
    for (i, field) in FIELDS.iter().enumerate() {
        match (field.read)(&texts[i]) {
            Ok(v) => values[i] = v,
            Err(e) => problems.push((field.id, e)),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    // A card field left as the picker wrote it is the preset's own value, to the bit.
    let written = card_texts(card);
    for (i, exact) in card_values(card).into_iter().enumerate() {
        if texts[FIRST_CARD_FIELD + i].trim() == written[i] {
            values[FIRST_CARD_FIELD + i] = exact;
        }
    }
    // Whole numbers were checked by parse_whole: the casts are exact.
    let [gpus, gpn, seq, batch, memory, nvlink, ib, tflops] = values;
    Ok(PlanConfig {
        model: ModelChoice::Preset(model),
        gpus: gpus as u32,
        gpus_per_node: gpn as u32,
        seq_len: seq as u32,
        global_batch: Some(batch as u32),
        gpu_memory_gb: memory,
        nvlink_gbps: nvlink,
        ib_gbps: ib,
        gpu_tflops: tflops,
        ..PlanConfig::on(card)
    })
}

/// The card fields' values (memory, NVLink, network, TFLOP/s) of the card `hardware`.
fn card_values(hardware: Hardware) -> [f64; 4] {
    let c = PlanConfig::on(hardware);
    [c.gpu_memory_gb, c.nvlink_gbps, c.ib_gbps, c.gpu_tflops]
}

/// The texts of the card fields for the card `hardware`, as a person writes them (at most six
/// decimals: 0.75 × 1,307.4 reads "980.55", not "980.5500000000001").
pub fn card_texts(hardware: Hardware) -> [String; 4] {
    card_values(hardware).map(|v| ((v * 1e6).round() / 1e6).to_string())
}

/// The index in [`FIELDS`] of the first card field (`search-memory`).
pub const FIRST_CARD_FIELD: usize = 4;

/// The card the search starts on: the H100 SXM. A search gives advice, and advice needs a
/// card whose kernels were measured (SPEC §18): on the lesson's card every GEMM and every
/// attention chunk runs at one flat 400 TFLOP/s, so splitting a 4,096-token sequence looks
/// free. The lesson's card stays one pick away.
pub const DEFAULT_CARD: Hardware = Hardware::H100;

/// The fields' starting texts: 64 cards of 8 a node, 4,096 tokens, 256 sequences a step,
/// and [`DEFAULT_CARD`]'s numbers.
pub fn defaults() -> [String; FIELDS.len()] {
    let base = PlanConfig::default();
    let [memory, nvlink, ib, tflops] = card_texts(DEFAULT_CARD);
    [
        "64".to_string(),
        base.gpus_per_node.to_string(),
        base.seq_len.to_string(),
        "256".to_string(),
        memory,
        nvlink,
        ib,
        tflops,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_read_as_the_lab_s_card() {
        let config = config_of(Preset::Qwen38_27b, DEFAULT_CARD, &defaults()).unwrap();
        assert_eq!(
            (config.gpus, config.gpus_per_node, config.seq_len),
            (64, 8, 4096)
        );
        assert_eq!(config.global_batch, Some(256));
        assert_eq!(config.gpu_tflops, PlanConfig::on(DEFAULT_CARD).gpu_tflops);
        let mixtral = config_of(Preset::Mixtral8x7b, DEFAULT_CARD, &defaults()).unwrap();
        assert_eq!(mixtral.model, ModelChoice::Preset(Preset::Mixtral8x7b));
        // A card preset with its own texts is the preset's plan.
        let mut texts = defaults();
        texts[FIRST_CARD_FIELD..].clone_from_slice(&card_texts(Hardware::H100));
        let h100 = config_of(Preset::Qwen38_27b, Hardware::H100, &texts).unwrap();
        assert_eq!(
            h100,
            PlanConfig {
                gpus: 64,
                global_batch: Some(256),
                ..PlanConfig::on(Hardware::H100)
            }
        );
        assert_eq!(FIELDS[FIRST_CARD_FIELD].id, "search-memory");
        // Every card's texts read back as its exact values.
        for card in Hardware::ALL {
            let mut texts = defaults();
            texts[FIRST_CARD_FIELD..].clone_from_slice(&card_texts(card));
            let config = config_of(Preset::Qwen38_27b, card, &texts).unwrap();
            assert_eq!(config.gpu_tflops, PlanConfig::on(card).gpu_tflops, "{card}");
        }
        assert_eq!(card_texts(Hardware::Mi300x)[3], "980.55");
    }

    #[test]
    fn every_model_and_card_reads_back_and_travels_through_the_link() {
        use crate::kit::choices::testing::assert_round_trips;
        use parallel_core::link::{decode_plan, encode_plan, GridId};
        assert_round_trips(&models());
        assert_round_trips(&cards());
        assert_eq!(models().values().collect::<Vec<_>>(), Preset::ALL);
        assert_eq!(cards().values().collect::<Vec<_>>(), Hardware::ALL);
        for model in models().values() {
            for card in cards().values() {
                let mut texts = defaults();
                texts[FIRST_CARD_FIELD..].clone_from_slice(&card_texts(card));
                let config = config_of(model, card, &texts).unwrap();
                assert_eq!(
                    (config.model.clone(), config.hardware),
                    (ModelChoice::Preset(model), card)
                );
                // A plan of the search loaded into a grid keeps its model and card in the link.
                let (decoded, _) =
                    decode_plan(&encode_plan(&config, GridId::SixtyFour), GridId::SixtyFour);
                assert_eq!(
                    (decoded.model, decoded.hardware, decoded.gpu_tflops),
                    (config.model, card, config.gpu_tflops),
                    "{model:?} on {card:?}"
                );
            }
        }
    }

    #[test]
    fn every_bad_field_is_named() {
        let mut texts = defaults();
        texts[0] = "0".into();
        texts[3] = "abc".into();
        texts[4] = "-80".into();
        texts[7] = "".into();
        let problems = config_of(Preset::Qwen38_27b, Hardware::Lesson, &texts).unwrap_err();
        let ids: Vec<&str> = problems.iter().map(|(id, _)| *id).collect();
        assert_eq!(
            ids,
            [
                "search-gpus",
                "search-batch",
                "search-memory",
                "search-tflops"
            ]
        );
        assert_eq!(problems[2].1, InputError::Negative);
        assert_eq!(
            check("search-gpus", "20000"),
            Err(InputError::TooLarge("16,384".to_string()))
        );
        assert_eq!(check("search-gpus", "1,024"), Ok(()));
        assert_eq!(check("search-memory", "94.5 GB"), Ok(()));
        assert_eq!(check("search-ib", "0"), Err(InputError::NotPositive));
    }
}
