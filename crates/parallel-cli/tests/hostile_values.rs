//! Issue 50 on the command line, case by case: one exit status for bad input of every kind
//! (2, whatever the command), a string where a number goes named by its field, and one line
//! under 1 KB for a value of 10 MB, its value quoted in at most 80 characters. The random
//! hostile inputs are `hostile.rs`'s.
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use std::ffi::OsString;
use std::process::{Command, Output, Stdio};

use common::{error_line, run_bytes};

/// A model's flags in a launch line (Llama 3 8B's shape), so that later flags are read.
const MODEL_FLAGS: &str = "--num-layers 32 --hidden-size 4096 --ffn-hidden-size 14336 \
    --num-attention-heads 32 --group-query-attention --num-query-groups 8 --vocab-size 128256 \
    --swiglu --untie-embeddings-and-output-weights";

/// What one hostile value is filled with: a run of it in stderr is the value echoed.
const FILL: char = 'Ж';

/// The one stderr line of a run that must refuse its input (exit 2, nothing on stdout), after
/// `parallel-lab: error: `, checked to be under 1 KB and to quote no more than 80 characters of
/// a [`FILL`]ed value.
fn refusal(out: &Output, what: &str) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let context = format!("{what}: {stderr}");
    assert_eq!(out.status.code(), Some(2), "{context}");
    assert!(out.stdout.is_empty(), "{context}");
    assert!(
        out.stderr.len() < 1024,
        "{what}: {} bytes",
        out.stderr.len()
    );
    assert!(!stderr.contains(&FILL.to_string().repeat(81)), "{context}");
    assert_eq!(stderr.lines().count(), 1, "{context}");
    stderr
        .strip_prefix("parallel-lab: error: ")
        .unwrap_or_else(|| panic!("{context}"))
        .trim_end()
        .to_owned()
}

fn args(list: &[&str]) -> Vec<OsString> {
    list.iter().map(OsString::from).collect()
}

#[test]
fn bad_input_of_every_kind_exits_2_whatever_the_command() {
    let not_utf8 = b"{\"tp\": \"\xff\xfe\"}";
    for (command, field) in [
        (&["eval"][..], "input: "),
        (&["groups", "--card", "0"], "input: "),
        (&["flags"], "input: "),
        (&["model"], "input: "),
        (&["search"], "input: "),
        (&["table", "--stdin"], "input: "),
        (&["check", "--emit"], "input: "),
        (
            &["check", "--measured", "-"],
            "input: not UTF-8 text (byte 8 is not)",
        ),
    ] {
        let line = refusal(
            &run_bytes(&args(command), not_utf8),
            &format!("{command:?}"),
        );
        assert!(line.starts_with(field), "{command:?}: {line}");
    }
    // A measured file that is not UTF-8 text.
    let file = std::env::temp_dir().join(format!("parallel-lab-utf8-{}.json", std::process::id()));
    std::fs::write(&file, not_utf8).unwrap();
    let line = refusal(
        &run_bytes(&args(&["check", "--measured", file.to_str().unwrap()]), b""),
        "a file not UTF-8",
    );
    assert!(line.starts_with("--measured: not UTF-8 text"), "{line}");
    std::fs::remove_file(&file).unwrap();
    // An argument that is not UTF-8.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        let arg = OsString::from_vec(b"--card=\xff".to_vec());
        let line = refusal(&run_bytes(&[OsString::from("eval"), arg], b""), "argument");
        assert!(
            line.starts_with("argument: `--card=\u{fffd}` is not valid UTF-8"),
            "{line}"
        );
    }
    // Stdin that cannot be read at all (a directory).
    let dir = std::fs::File::open(std::env::temp_dir()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_parallel-lab"))
        .arg("eval")
        .stdin(Stdio::from(dir))
        .output()
        .unwrap();
    assert!(refusal(&out, "a directory").starts_with("input: cannot read stdin"));
}

#[test]
fn a_string_where_a_number_goes_is_named_by_its_field() {
    for (stdin, field) in [
        (r#"{"tp":"8"}"#, "tp: invalid type: string \"8\""),
        (
            r#"{"gpu_tflops":"NaN"}"#,
            "gpu_tflops: invalid type: string \"NaN\"",
        ),
        (r#"{"model":{"hidden":"8"}}"#, "model.hidden: invalid type"),
        (
            r#"{"rollout":{"prompts":"8"}}"#,
            "rollout.prompts: invalid type",
        ),
    ] {
        let line = error_line(&["eval"], stdin);
        assert!(line.starts_with(field), "{stdin}: {line}");
    }
}

#[test]
fn one_huge_value_gives_one_short_line_naming_its_field() {
    // 10 MB on stdin; 100 KB in an argument (one argument may not pass 128 KB on Linux).
    let huge = FILL.to_string().repeat(5_000_000);
    let long = FILL.to_string().repeat(50_000);
    let hf = |key: &str, value: &str| format!(r#"{{"{key}": {value}}}"#);
    let stdin_cases: Vec<(&[&str], String, &str)> = vec![
        (
            &["eval"],
            format!(r#"{{"tp":"{huge}"}}"#),
            "tp: invalid type: string \"ЖЖ",
        ),
        (
            &["eval"],
            format!(r#"{{"recompute":"{huge}"}}"#),
            "recompute: unknown variant `Ж",
        ),
        (
            &["eval"],
            format!(r#"{{"model":"{huge}"}}"#),
            "model: unknown preset \"Ж",
        ),
        (&["eval"], format!(r#"{{"{huge}":1}}"#), "ЖЖЖ"),
        (
            &["eval"],
            format!(r#"{{"rollout":{{"{huge}":1}}}}"#),
            "rollout.ЖЖ",
        ),
        (
            &["eval"],
            format!(r#"{{"model":{{"hf_config":{{}},"{huge}":1}}}}"#),
            "model: `Ж",
        ),
        (
            &["model"],
            hf("architectures", &format!(r#"["{huge}"]"#)),
            "model.hf_config.architectures: `Ж",
        ),
        (
            &["model"],
            format!(r#"{{"architectures":["LlamaForCausalLM"],"model_type":"{huge}"}}"#),
            "model.hf_config.model_type: `Ж",
        ),
        (
            &["table", "--stdin"],
            format!(r#"[{{"label":"a","{huge}":1}}]"#),
            "[0].ЖЖ",
        ),
        (&["eval"], format!("{{\"tp\": 1 {huge}"), "input: not JSON"),
    ];
    for (command, stdin, start) in stdin_cases {
        let what = format!(
            "{command:?} <<< {}",
            stdin.chars().take(40).collect::<String>()
        );
        let line = refusal(&run_bytes(&args(command), stdin.as_bytes()), &what);
        assert!(line.starts_with(start), "{what}: {line}");
    }
    let arg_cases: Vec<(Vec<String>, &str)> = vec![
        (vec![long.clone()], "command: unknown command `Ж"),
        (vec!["eval".into(), format!("--{long}")], "--ЖЖ"),
        (
            vec!["eval".into(), long.clone()],
            "eval: unexpected argument `Ж",
        ),
        (
            vec!["groups".into(), "--card".into(), long.clone()],
            "--card: expected",
        ),
        (
            vec!["table".into(), "--table".into(), long.clone()],
            "--table: unknown table `Ж",
        ),
        (
            vec!["flags".into(), "--engine".into(), long.clone()],
            "--engine: unknown engine `Ж",
        ),
        (
            vec!["eval".into(), "--url".into(), format!("#g8=tp{long}")],
            "--url: ",
        ),
        (
            vec![
                "eval".into(),
                "--megatron".into(),
                format!("--tensor-model-parallel-size {long}"),
            ],
            "--tensor-model-parallel-size: `Ж",
        ),
        (
            vec![
                "eval".into(),
                "--megatron".into(),
                format!("{MODEL_FLAGS} --recompute-granularity {long}"),
            ],
            "--recompute-granularity: `Ж",
        ),
        (
            vec!["check".into(), "--measured".into(), format!("/{long}")],
            "--measured: cannot read `/Ж",
        ),
    ];
    for (command, start) in arg_cases {
        let short: Vec<String> = command
            .iter()
            .map(|a| a.chars().take(40).collect())
            .collect();
        let what = format!("{short:?}");
        let out = run_bytes(&command.iter().map(OsString::from).collect::<Vec<_>>(), b"");
        let line = refusal(&out, &what);
        assert!(line.starts_with(start), "{what}: {line}");
    }
}

/// Found by `hostile.rs`: a launch line on no cards with a global batch divided by zero.
#[test]
fn a_launch_line_on_no_cards_names_gpus() {
    let line = format!("WORLD_SIZE=0 python pretrain_gpt.py {MODEL_FLAGS} --global-batch-size 16");
    let out = run_bytes(&args(&["eval", "--megatron", &line]), b"");
    assert_eq!(
        refusal(&out, "WORLD_SIZE=0"),
        "gpus: must be at least 1 (got 0)"
    );
}
