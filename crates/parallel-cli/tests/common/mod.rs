//! What the CLI's tests (cli.rs, offload.rs, rollout.rs) share: running the binary on a stdin
//! and reading its JSON.
#![allow(clippy::unwrap_used, dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Runs the binary with `args`, feeding `stdin`.
pub fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parallel-lab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The command may exit before reading stdin (a usage error): ignore a broken pipe here.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

/// Runs a command that must succeed and reads its stdout as JSON.
pub fn json_of(args: &[&str], stdin: &str) -> Value {
    let out = run(args, stdin);
    assert!(out.status.success(), "{args:?} <<< {stdin}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// An object's keys, sorted.
pub fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    k.sort();
    k
}

/// A JSON number.
pub fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}
