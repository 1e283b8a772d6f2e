//! Where a link lands: `assets/landing.js`, inlined into every entry point, applies the first
//! step of the core's rule ([`parallel_core::link::landing`]: a link naming a widget goes to
//! `embed.html`) before the wasm loads; each entry point's wasm applies the rest
//! ([`crate::pages::land`]). This module's test runs that script, as every entry point, under
//! Node.js against the core over random links.

/// The script every entry point inlines (the file Trunk reads).
#[cfg(all(test, not(target_arch = "wasm32")))]
const LANDING_JS: &str = include_str!("../../../assets/landing.js");

/// The seed of the test, read or drawn and printed as the core's and the CLI's tests do.
#[cfg(not(target_arch = "wasm32"))]
#[path = "../../../crates/parallel-core/tests/common/seed.rs"]
#[cfg(test)]
mod seed;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::seed::seed;
    use super::LANDING_JS;
    use parallel_core::link::{landing, names_widget, Entry, Widget, MAX_LINK_LEN};
    use parallel_core::SplitMix;
    use std::io::Write;
    use std::process::{Command, Stdio};

    /// Runs landing.js once per (fragment, entry) in one Node.js VM context with a stand-in
    /// `location` and `<html>`, and returns where each run sent the page (`None`: it stayed).
    fn run_script(cases: &[(String, Entry)]) -> Vec<Option<String>> {
        const DRIVER: &str = r#"
            const vm = require('node:vm');
            const fs = require('node:fs');
            const [script, cases] = JSON.parse(fs.readFileSync(0, 'utf8'));
            const compiled = new vm.Script(script);
            const context = vm.createContext({ TextEncoder, TextDecoder });
            const out = [];
            for (const [fragment, entry] of cases) {
              let sent = null;
              context.location = { hash: fragment === '' ? '' : '#' + fragment, replace: (url) => { sent = url; } };
              context.document = { documentElement: {
                getAttribute: (name) => (name === 'data-entry' ? entry : null),
                setAttribute() {},
                classList: { add() {}, remove() {} },
              } };
              compiled.runInContext(context);
              out.push(sent);
            }
            process.stdout.write(JSON.stringify(out));
        "#;
        let cases: Vec<(&str, &str)> = cases
            .iter()
            .map(|(fragment, entry)| (fragment.as_str(), entry.id()))
            .collect();
        let input = serde_json::to_string(&(LANDING_JS, cases)).expect("JSON");
        let mut child = Command::new("node")
            .arg("-e")
            .arg(DRIVER)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node (Node.js) on PATH: scripts/setup.sh installs it");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write to node");
        let output = child.wait_with_output().expect("node ran");
        assert!(output.status.success(), "node failed: {output:?}");
        serde_json::from_slice(&output.stdout).expect("node printed a JSON array")
    }

    /// Where the rule's first step sends a link opened at `entry` before any wasm loads:
    /// a page sends a link naming a widget to `embed.html`; `None` when it stays.
    fn expected(fragment: &str, entry: Entry) -> Option<String> {
        let hash = if fragment.is_empty() {
            String::new()
        } else {
            format!("#{fragment}")
        };
        (entry != Entry::Embed && names_widget(fragment))
            .then(|| format!("{}{hash}", Entry::Embed.file()))
    }

    /// The core's seeded [`SplitMix`], so a failure is replayed by its seed.
    struct Rng(SplitMix);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            (self.0.next_u64() % n as u64) as usize
        }
    }

    /// Pieces links are made of: the keys and separators the rule reads, percent escapes
    /// (valid, broken, of separators and of white space), the white space where Rust's and
    /// JavaScript's trims differ, invalid UTF-8, multi-byte text, every widget and near misses.
    const PIECES: &[&str] = &[
        "embed",
        "embed=",
        "=",
        "&",
        ";",
        "#",
        "?",
        "%",
        "%2",
        "%3D",
        "%3d",
        "%26",
        "%3B",
        "%23",
        "%65mbed",
        "%20",
        " ",
        "\t",
        "\n",
        "\u{b}",
        "\u{85}",
        "%C2%85",
        "\u{feff}",
        "%EF%BB%BF",
        "\u{3000}",
        "%E3%80%80",
        "\u{a0}",
        "\u{200b}",
        "%FF",
        "%C3",
        "%C3%A9",
        "%zz",
        "%00",
        "GRID-64",
        "grid-",
        "grid-6",
        "64",
        "x",
        "lang=en",
        "lang=xx",
        "g64=tp8.pp2",
        "c64=0",
        "card=1e309",
        "sec=part-two",
        "<script>alert(1)</script>",
        "javascript:",
        "é",
        "中",
        "😀",
        "embed =",
        " embed",
        "embed%3Dgrid-64",
        "\u{fffd}",
    ];

    /// White space and escapes of it around a value, where the two trims could differ.
    const PADS: &[&str] = &[
        "", "", "", " ", "%20", "\t", "\u{85}", "%C2%85", "\u{feff}", "\u{3000}", "\u{a0}", "%0A",
    ];
    const KEYS: &[&str] = &[
        "embed", "embed", "embed", "%65mbed", " embed", "embed%20", "Embed", "lang", "g64", "sec",
    ];
    const SEPARATORS: &[&str] = &["&", "&", ";", "&&", "#", "?", "%26"];

    fn pick<'a>(rng: &mut Rng, from: &[&'a str]) -> &'a str {
        from[rng.below(from.len())]
    }

    /// A link: parts joined by separators, each a `key=value` (a widget or a near miss,
    /// padded) or loose pieces; sometimes a long run of text first, across the length limit.
    fn random_link(rng: &mut Rng) -> String {
        let mut link = String::new();
        if rng.below(12) == 0 {
            let fill = pick(rng, &["x", "中", "é", "😀"]);
            let target = MAX_LINK_LEN - 24 + rng.below(48);
            while link.len() < target {
                link.push_str(fill);
            }
            link.push('&');
        }
        for part in 0..rng.below(5) {
            if part > 0 {
                link.push_str(pick(rng, SEPARATORS));
            }
            if rng.below(2) == 0 {
                link.push_str(pick(rng, KEYS));
                link.push_str(pick(rng, PADS));
                link.push_str(if rng.below(8) == 0 { "%3D" } else { "=" });
                link.push_str(pick(rng, PADS));
                if rng.below(4) > 0 {
                    link.push_str(Widget::ALL[rng.below(Widget::ALL.len())].id());
                }
                for _ in 0..rng.below(3).saturating_sub(1) {
                    link.push_str(pick(rng, PIECES));
                }
                link.push_str(pick(rng, PADS));
            } else {
                for _ in 0..1 + rng.below(6) {
                    link.push_str(pick(rng, PIECES));
                }
            }
        }
        link
    }

    #[test]
    fn landing_js_sends_every_link_where_the_core_does() {
        let seed = seed("LANDING_SEED", "landing fuzz");
        let mut rng = Rng(SplitMix::new(seed));
        let mut links: Vec<String> = Widget::ALL
            .iter()
            .flat_map(|w| {
                [
                    format!("embed={}", w.id()),
                    format!("g64=tp8&embed=%20{}%20&lang=en", w.id()),
                    format!("embed={}x", w.id()),
                ]
            })
            .chain(
                [
                    "",
                    "embed",
                    "embed=",
                    "embed=nonsense",
                    "card=1e309&lang=xx&embed=nonsense",
                ]
                .map(String::from),
            )
            .collect();
        links.extend((0..6000).map(|_| random_link(&mut rng)));
        let cases: Vec<(String, Entry)> = links
            .iter()
            .flat_map(|link| Entry::ALL.map(|entry| (link.clone(), entry)))
            .collect();
        let sent = run_script(&cases);
        assert_eq!(sent.len(), cases.len());
        let mut embeds = 0;
        for ((fragment, entry), sent) in cases.iter().zip(&sent) {
            assert_eq!(
                sent,
                &expected(fragment, *entry),
                "seed {seed}: landing.js and link::landing disagree on {fragment:?} opened at {}",
                entry.file()
            );
            // Followed, the redirect stays where it arrives, by the script and by the whole
            // rule: at most one.
            if sent.is_some() {
                assert_eq!(
                    expected(fragment, Entry::Embed),
                    None,
                    "seed {seed}: {fragment:?} bounces"
                );
                assert_eq!(
                    landing(fragment, Entry::Embed),
                    Entry::Embed,
                    "seed {seed}: {fragment:?} moves on from embed.html"
                );
                embeds += 1;
            }
        }
        // The generator reaches both outcomes, not one only.
        assert!(
            embeds > 100,
            "seed {seed}: only {embeds} links named a widget"
        );
    }

    #[test]
    fn the_script_lists_the_cores_widgets() {
        let list = LANDING_JS
            .split_once("var WIDGETS = [")
            .and_then(|(_, rest)| rest.split_once(']'))
            .map(|(list, _)| list)
            .expect("landing.js declares WIDGETS");
        let ids: Vec<&str> = list
            .split(',')
            .map(|s| s.trim().trim_matches('\''))
            .collect();
        let core: Vec<&str> = Widget::ALL.iter().map(|w| w.id()).collect();
        assert_eq!(ids, core);
    }
}
