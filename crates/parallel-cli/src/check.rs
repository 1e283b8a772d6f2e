//! `check` (SPEC §19): a card's workload for the measuring program, and a measured file
//! beside the lab's figures.

use std::io::{Read, Write};

use parallel_core::check::{show, show_ratio, CheckRow, Comparison, Measured};
use parallel_core::numbers::quoted_text;
use parallel_core::{Lang, Plan, PlanConfig};

use crate::args::Format;
use crate::error::{finite, CliError};
use crate::input::read_all;

/// Prints card `card`'s workload as JSON.
pub fn emit(config: &PlanConfig, card: u32, out: &mut dyn Write) -> Result<(), CliError> {
    let workload = Plan::new(config)?.workload(card)?;
    finite(&workload)?;
    serde_json::to_writer_pretty(&mut *out, &workload).map_err(std::io::Error::from)?;
    writeln!(out)?;
    Ok(())
}

/// Reads the measured file at `path` (`-`: stdin) and prints it beside the lab. A file that
/// cannot be read, or is not UTF-8 text, is bad input like any other (exit 2).
pub fn measured(
    path: &str,
    format: Format,
    lang: Lang,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let bytes = if path == "-" {
        read_all(stdin)?
    } else {
        std::fs::read(path).map_err(|e| {
            CliError::invalid(
                "--measured",
                format!("cannot read `{}`: {e}", quoted_text(path)),
            )
        })?
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        CliError::invalid(
            "--measured",
            format!("not UTF-8 text (byte {at} is not): a measured file is JSON"),
        )
    })?;
    let invalid = |e: parallel_core::check::CheckError| CliError::invalid("--measured", e);
    let comparison = Measured::read(&text)
        .map_err(invalid)?
        .compare(lang)
        .map_err(invalid)?;
    finite(&comparison)?;
    match format {
        Format::Json => {
            serde_json::to_writer(&mut *out, &comparison).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        Format::Markdown | Format::Csv => write_markdown(&comparison, lang, out)?,
    }
    Ok(())
}

fn write_markdown(c: &Comparison, lang: Lang, out: &mut dyn Write) -> Result<(), CliError> {
    let t = |zh: &'static str, en: &'static str| lang.pick(zh, en);
    writeln!(
        out,
        "{} {} · {} · {}",
        t("实测于", "Measured on"),
        c.card,
        c.software,
        c.date
    )?;
    writeln!(
        out,
        "{} {}, {} {}: {} {} / {}, {} {}\n",
        t("卡", "card"),
        c.rank,
        t("阶段", "stage"),
        c.stage,
        t("构建层数", "layers built"),
        c.built.total,
        c.stage_layers,
        t("在途微批", "micro-batches held"),
        c.held
    )?;
    writeln!(
        out,
        "| {} | {} | eager | compiled | {} | {} |",
        t("指标", "figure"),
        t("实验室", "lab"),
        t("实验室 ÷ eager", "lab ÷ eager"),
        t("实验室 ÷ compiled", "lab ÷ compiled")
    )?;
    writeln!(out, "|---|---:|---:|---:|---:|---:|")?;
    for row in &c.rows {
        let CheckRow { unit, .. } = *row;
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            row.label,
            show(unit, row.predicted),
            show(unit, row.eager),
            show(unit, row.compiled),
            show_ratio(row.ratio_eager),
            show_ratio(row.ratio_compiled)
        )?;
    }
    writeln!(
        out,
        "\n{}",
        t("差异从何而来：", "Where the differences come from:")
    )?;
    for row in &c.rows {
        writeln!(out, "- {}: {}", row.label, row.note)?;
    }
    writeln!(out, "\n{}", t("没有构建的：", "Not built:"))?;
    for part in &c.not_built {
        writeln!(out, "- {part}")?;
    }
    if let Some(why) = &c.compiled_error {
        writeln!(
            out,
            "\n{} {why}",
            t("torch.compile 未运行：", "torch.compile did not run:")
        )?;
    }
    writeln!(out, "\n{} {}", t("方法：", "Method:"), c.method)?;
    Ok(())
}
