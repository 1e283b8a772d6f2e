//! Writing [`Table`]s as Markdown, CSV or JSON.
//!
//! - Markdown: a pipe table padded to the cells' display width (CJK counts double), notes as
//!   a list under it, and a `##` heading per table when there are several.
//! - CSV: one table, RFC 4180 quoting (a field with a comma, quote or line break is quoted and
//!   its quotes doubled), `\n` line ends, the headers as the first record.
//! - JSON: `{"tables": [{"id", "title", "columns": [{"key", "header"}], "rows": [{"cells":
//!   {key: text}, "data": {raw figures}}], "notes": [...]}]}`, pretty-printed.

use std::io::Write;

use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

use super::Table;
use crate::args::Format;
use crate::error::CliError;

/// Writes the tables in the chosen format.
pub fn write(tables: &[Table], format: Format, out: &mut dyn Write) -> Result<(), CliError> {
    match format {
        Format::Markdown => {
            let several = tables.len() > 1;
            for (i, table) in tables.iter().enumerate() {
                if i > 0 {
                    writeln!(out)?;
                }
                if several {
                    writeln!(out, "## {}\n", table.title)?;
                }
                write_markdown(table, out)?;
            }
            Ok(())
        }
        Format::Csv => match tables {
            [table] => write_csv(table, out),
            _ => Err(CliError::invalid(
                "--table",
                "CSV holds one table: choose it with --table",
            )),
        },
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &JsonTables(tables))
                .map_err(std::io::Error::from)?;
            writeln!(out)?;
            Ok(())
        }
    }
}

fn write_markdown(table: &Table, out: &mut dyn Write) -> Result<(), CliError> {
    let escape = |text: &str| text.replace('|', "\\|").replace(['\n', '\r'], " ");
    let header: Vec<String> = table.columns.iter().map(|c| escape(&c.header)).collect();
    let rows: Vec<Vec<String>> = table
        .rows
        .iter()
        .map(|r| r.cells.iter().map(|c| escape(c)).collect())
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .chain([&header[i]])
                .map(|c| display_width(c))
                .max()
                .unwrap_or(0)
                .max(3)
        })
        .collect();
    let line = |cells: &[String]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, &w)| format!("{c}{}", " ".repeat(w.saturating_sub(display_width(c)))))
            .collect();
        format!("| {} |", padded.join(" | "))
    };
    writeln!(out, "{}", line(&header))?;
    let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
    writeln!(out, "|-{}-|", rule.join("-|-"))?;
    for row in &rows {
        writeln!(out, "{}", line(row))?;
    }
    if !table.notes.is_empty() {
        writeln!(out)?;
        for note in &table.notes {
            writeln!(out, "- {}", escape(note))?;
        }
    }
    Ok(())
}

/// Columns a string takes in a terminal: East Asian wide characters count two.
fn display_width(text: &str) -> usize {
    text.chars()
        .map(|c| match u32::from(c) {
            0x1100..=0x115F
            | 0x2E80..=0x303E
            | 0x3041..=0xA4CF
            | 0xAC00..=0xD7A3
            | 0xF900..=0xFAFF
            | 0xFE30..=0xFE4F
            | 0xFF00..=0xFF60
            | 0xFFE0..=0xFFE6 => 2,
            _ => 1,
        })
        .sum()
}

fn write_csv(table: &Table, out: &mut dyn Write) -> Result<(), CliError> {
    let record =
        |cells: &mut dyn Iterator<Item = &str>| cells.map(csv_field).collect::<Vec<_>>().join(",");
    writeln!(
        out,
        "{}",
        record(&mut table.columns.iter().map(|c| c.header.as_str()))
    )?;
    for row in &table.rows {
        writeln!(out, "{}", record(&mut row.cells.iter().map(String::as_str)))?;
    }
    Ok(())
}

/// One CSV field, quoted when it holds a comma, a quote, a line break or edge spaces.
fn csv_field(text: &str) -> String {
    let needs_quotes =
        text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.ends_with(' ');
    if needs_quotes {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

struct JsonTables<'a>(&'a [Table]);

impl Serialize for JsonTables<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("tables", &self.0.iter().map(JsonTable).collect::<Vec<_>>())?;
        map.end()
    }
}

struct JsonTable<'a>(&'a Table);

impl Serialize for JsonTable<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let t = self.0;
        let columns: Vec<_> = t
            .columns
            .iter()
            .map(|c| Column {
                key: c.key,
                header: &c.header,
            })
            .collect();
        let rows: Vec<_> = t.rows.iter().map(|r| JsonRow(t, r)).collect();
        let mut s = serializer.serialize_struct("Table", 5)?;
        s.serialize_field("id", t.id)?;
        s.serialize_field("title", &t.title)?;
        s.serialize_field("columns", &columns)?;
        s.serialize_field("rows", &rows)?;
        s.serialize_field("notes", &t.notes)?;
        s.end()
    }
}

#[derive(Serialize)]
struct Column<'a> {
    key: &'static str,
    header: &'a str,
}

struct JsonRow<'a>(&'a Table, &'a super::Row);

impl Serialize for JsonRow<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let JsonRow(table, row) = self;
        let mut s = serializer.serialize_struct("Row", 2)?;
        s.serialize_field("cells", &Cells(table, row))?;
        s.serialize_field("data", &row.data)?;
        s.end()
    }
}

/// The cells of a row as an object keyed by column, in column order.
struct Cells<'a>(&'a Table, &'a super::Row);

impl Serialize for Cells<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Cells(table, row) = self;
        serializer.collect_map(table.columns.iter().map(|c| c.key).zip(&row.cells))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quoting() {
        for (text, field) in [
            ("55.6 GB", "55.6 GB"),
            ("16,777,216", "\"16,777,216\""),
            ("say \"hi\"", "\"say \"\"hi\"\"\""),
            ("two\nlines", "\"two\nlines\""),
            (" padded", "\" padded\""),
        ] {
            assert_eq!(csv_field(text), field);
        }
    }

    #[test]
    fn wide_characters_count_double() {
        assert_eq!(display_width("TP 8 · 全量重计算"), 7 + 10);
        assert_eq!(display_width("58.2 GB ✓"), 9);
    }
}
