//! `--help` and its aliases, and a quick `bench` run.
#![allow(clippy::unwrap_used)]

mod common;

use common::stdout_of;

#[test]
fn help_prints_usage_with_examples() {
    for args in [&["--help"][..], &["help"], &["-h"], &["table", "--help"]] {
        let text = stdout_of(args, "");
        for part in [
            "USAGE",
            "parallel-lab eval",
            "groups --card",
            "--format",
            "EXAMPLES",
        ] {
            assert!(text.contains(part), "{args:?} lacks {part}");
        }
    }
}

#[test]
fn bench_smoke_run() {
    let text = stdout_of(&["bench", "--quick"], "");
    for part in [
        "ns per evaluation",
        "219,648 plans tried, 219,648 valid",
        "ns per plan",
    ] {
        assert!(text.contains(part), "bench output lacks {part}:\n{text}");
    }
}
