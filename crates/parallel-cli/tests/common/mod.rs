//! What the CLI's integration tests share: running the binary on a stdin, reading its JSON or
//! its one error line, and reading the tables it prints (Markdown, CSV).
#![allow(clippy::unwrap_used, clippy::panic, dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// The lesson's 64-GPU plan: TP 8 × PP 2 × DP 4 with ZeRO-1.
pub const LESSON_64_ZERO1: &str = r#"{"gpus":64,"tp":8,"pp":2,"zero":1}"#;

/// Runs the binary with `args`, feeding `stdin`.
pub fn run(args: &[&str], stdin: &str) -> Output {
    let args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
    run_bytes(&args, stdin.as_bytes())
}

/// Runs the binary with arguments and stdin of any bytes (not UTF-8, 10 MB …).
pub fn run_bytes(args: &[std::ffi::OsString], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parallel-lab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    // Written from a thread: the binary may answer before reading it all (a usage error), and
    // a large stdin must not block the reading of its output.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Runs a command that must succeed and returns its stdout.
pub fn stdout_of(args: &[&str], stdin: &str) -> String {
    let out = run(args, stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} <<< {stdin}: {stderr}");
    assert!(stderr.is_empty(), "{args:?}: unexpected stderr {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// Runs a command that must succeed (with nothing on stderr) and reads its stdout as JSON.
pub fn json_of(args: &[&str], stdin: &str) -> Value {
    serde_json::from_str(&stdout_of(args, stdin)).unwrap()
}

/// Runs a command that must fail on its input: exit 2, nothing on stdout, one line on stderr.
/// Returns that line without the `parallel-lab: error: ` prefix.
pub fn error_line(args: &[&str], stdin: &str) -> String {
    let out = run(args, stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let context = format!("{args:?} <<< {stdin}: {stderr}");
    assert_eq!(out.status.code(), Some(2), "{context}");
    assert!(out.stdout.is_empty(), "{context}");
    assert_eq!(stderr.lines().count(), 1, "{context}");
    assert!(!stderr.contains("panicked"), "{context}");
    stderr
        .strip_prefix("parallel-lab: error: ")
        .and_then(|line| line.strip_suffix('\n'))
        .unwrap_or_else(|| panic!("{context}: not one `parallel-lab: error: ` line"))
        .to_string()
}

/// Asserts that `text`, what `what` printed, holds each of `parts`.
pub fn assert_holds(what: &str, text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "{what} lacks {part}");
    }
}

/// Asserts that `--help` holds each of `parts`.
pub fn assert_help_holds(parts: &[&str]) {
    assert_holds("help", &stdout_of(&["--help"], ""), parts);
}

/// The keys of a row of a report's `comm`, sorted.
pub const COMM_ROW_KEYS: [&str; 6] = [
    "bytes",
    "collective",
    "dim",
    "group_size",
    "link",
    "seconds",
];

/// An object's keys, sorted.
pub fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    k.sort();
    k
}

/// A JSON array's items.
pub fn items(v: &Value) -> &[Value] {
    v.as_array().unwrap()
}

/// A JSON array of strings.
pub fn strings(v: &Value) -> Vec<&str> {
    items(v).iter().map(|s| s.as_str().unwrap()).collect()
}

/// A JSON string, owned.
pub fn text(v: &Value) -> String {
    v.as_str().unwrap().to_string()
}

/// A JSON number.
pub fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

/// Bytes as the tables show them: GB with one decimal.
pub fn gb(bytes: &Value) -> String {
    format!("{:.1}", bytes.as_f64().unwrap() / 1e9)
}

/// The cells of a Markdown pipe table's body rows.
pub fn markdown_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|-"))
        .skip(1)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// Parses RFC 4180 CSV (quoted fields, doubled quotes, line breaks inside quotes).
pub fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let (mut record, mut field) = (Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(
        !quoted && field.is_empty() && record.is_empty(),
        "CSV ends mid-record"
    );
    records
}

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The shipped measured files, `tests/fixtures/check/*.measured.json`, sorted by name.
pub fn measured_fixture_files() -> Vec<PathBuf> {
    let dir = repo_root().join("tests/fixtures/check");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".measured.json"))
        .collect();
    files.sort();
    files
}
