//! `parallel-lab --help` lists what the lab does not count, from the core's one list.

use parallel_core::omissions::{Omission, Topic};
use parallel_core::Lang;

fn help() -> String {
    let mut out = Vec::new();
    parallel_cli::run(&["--help".to_string()], &mut std::io::empty(), &mut out)
        .expect("--help succeeds");
    String::from_utf8(out).expect("help is UTF-8")
}

#[test]
fn help_names_every_omission_by_topic() {
    let text = help();
    let section = text
        .split("\nNOT COUNTED")
        .nth(1)
        .expect("help has a NOT COUNTED section");
    // Up to the blank line that ends it, keeping its last line's newline.
    let section = match section.find("\n\n") {
        Some(end) => &section[..=end],
        None => section,
    };
    for item in Omission::ALL {
        let line = format!("    - {}\n", item.title(Lang::En));
        assert!(section.contains(&line), "help lacks {}: {line}", item.id());
    }
    // Topic by topic, in the core's order: each title sits under its own topic's heading.
    let mut at = 0;
    for topic in Topic::ALL {
        let heading = format!("  {}\n", topic.title(Lang::En));
        at += section[at..].find(&heading).expect("topic heading") + heading.len();
        for item in topic.omissions() {
            let line = format!("    - {}\n", item.title(Lang::En));
            assert!(
                section[at..].starts_with(&line),
                "{} out of place",
                item.id()
            );
            at += line.len();
        }
    }
    assert!(!parallel_core::lang::has_cjk(&text), "help is English");
    assert!(text.contains("EXAMPLES") && text.contains("EXIT STATUS"));
}
