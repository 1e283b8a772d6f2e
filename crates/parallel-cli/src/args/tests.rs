//! The command line's parsing, case by case.

use super::*;

fn parse_str(line: &str) -> Result<Command, String> {
    let args: Vec<String> = line.split_whitespace().map(String::from).collect();
    parse(&args).map_err(|e| e.to_string())
}

#[test]
fn commands_and_flags() {
    let table = |format, lang, source| {
        Ok(Command::Table(TableArgs {
            format,
            lang,
            source,
        }))
    };
    let all = || Source::Lesson(LessonTable::ALL.to_vec());
    for (line, expected) in [
        ("help", Ok(Command::Help)),
        ("--help", Ok(Command::Help)),
        ("help table", Ok(Command::Help)),
        ("table -h", Ok(Command::Help)),
        (
            "eval",
            Ok(Command::Eval {
                card: None,
                link: None,
                explain: false,
                launch: None,
            }),
        ),
        (
            "eval --card 9",
            Ok(Command::Eval {
                card: Some(9),
                link: None,
                explain: false,
                launch: None,
            }),
        ),
        (
            "eval --explain",
            Ok(Command::Eval {
                card: None,
                link: None,
                explain: true,
                launch: None,
            }),
        ),
        (
            "eval --url #g8=z3 --grid 8",
            Ok(Command::Eval {
                card: None,
                link: Some(LinkArgs {
                    url: "#g8=z3".into(),
                    grid: Some(parallel_core::link::GridId::Eight),
                }),
                explain: false,
                launch: None,
            }),
        ),
        (
            "groups --card 7",
            Ok(Command::Groups {
                card: Some(7),
                link: None,
                phase: parallel_core::RolloutPhase::Training,
                launch: None,
            }),
        ),
        (
            "groups --card=7",
            Ok(Command::Groups {
                card: Some(7),
                link: None,
                phase: parallel_core::RolloutPhase::Training,
                launch: None,
            }),
        ),
        ("bench", Ok(Command::Bench { quick: false })),
        ("bench --quick", Ok(Command::Bench { quick: true })),
        ("model", Ok(Command::Model)),
        ("defaults", Ok(Command::Defaults)),
        ("table", table(Format::Markdown, Lang::En, all())),
        (
            "table --format json --lang zh --table all",
            table(Format::Json, Lang::Zh, all()),
        ),
        (
            "table --format csv --table=llama3",
            table(
                Format::Csv,
                Lang::En,
                Source::Lesson(vec![LessonTable::Llama3]),
            ),
        ),
        (
            "table --stdin",
            table(Format::Markdown, Lang::En, Source::Stdin),
        ),
    ] {
        assert_eq!(parse_str(line), expected, "{line}");
    }
}

#[test]
fn mistakes_name_the_flag() {
    for (line, start) in [
        ("", "command: missing"),
        ("evaluate", "command: unknown command `evaluate`"),
        ("eval --pretty", "--pretty: unknown flag"),
        ("eval extra", "eval: unexpected argument `extra`"),
        ("model --card 1", "--card: unknown flag for `model`"),
        ("defaults --card 1", "--card: unknown flag for `defaults`"),
        (
            "model config.json",
            "model: unexpected argument `config.json`",
        ),
        ("groups", "--card: missing"),
        ("groups --card", "--card: needs a value"),
        ("groups --card x", "--card: expected a card number"),
        ("groups --card -1", "--card: expected a card number"),
        ("table --format xml", "--format: unknown format `xml`"),
        ("table --table 9gpu", "--table: unknown table `9gpu`"),
        ("table --lang fr", "--lang: unknown language `fr`"),
        ("table --format csv", "--table: CSV holds one table"),
        ("table --stdin --table 8gpu", "--stdin:"),
    ] {
        let message = parse_str(line).err().unwrap_or_default();
        assert!(message.starts_with(start), "{line}: {message}");
    }
}
