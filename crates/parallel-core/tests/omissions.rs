//! The list of what the lab leaves out (`parallel_core::omissions`) against the lab itself and
//! against `docs/formulas.md`.
//!
//! - Every witness still holds: when one fails, the lab has come to model (part of) that item,
//!   and its text, on the page, in `--help` and in the docs, must change with it. The witnesses
//!   are this test's own modules (`omissions/witness/`), written over the core's public API: as
//!   test code they are not part of the core's API and do not show in its documentation.
//! - `docs/formulas.md` holds exactly the generated list between its two markers. To write it
//!   after changing the list: `PARALLEL_LAB_WRITE_DOCS=1 cargo test -p parallel-core --test
//!   omissions`.

#![allow(clippy::panic)]

use std::path::PathBuf;

use parallel_core::omissions::{markdown, Omission, DOCS_END, DOCS_START};
use parallel_core::Lang;

#[path = "omissions/witness/mod.rs"]
mod witness;

#[test]
fn every_omission_is_still_left_out() {
    let mut modelled = Vec::new();
    let mut refused = Vec::new();
    for item in Omission::ALL {
        let name = format!("{} ({})", item.id(), item.title(Lang::En));
        match witness::holds(item) {
            Some(true) => {}
            Some(false) => modelled.push(name),
            None => refused.push(name),
        }
    }
    assert!(
        modelled.is_empty() && refused.is_empty(),
        "the lab now models what these items say it leaves out; update their text in \
         crates/parallel-core/src/omissions/ and their witnesses in \
         crates/parallel-core/tests/omissions/witness/: {modelled:?}; the core refuses a plan \
         of these items' witnesses: {refused:?}"
    );
}

fn formulas_md() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/formulas.md")
}

/// The doc with its generated section replaced by `section`; `None` when a marker is missing.
fn with_section(doc: &str, section: &str) -> Option<String> {
    let start = doc.find(DOCS_START)? + DOCS_START.len();
    let end = start + doc[start..].find(DOCS_END)?;
    Some(format!("{}\n\n{section}\n{}", &doc[..start], &doc[end..]))
}

#[test]
fn the_docs_list_is_the_generated_one() {
    let path = formulas_md();
    let doc = std::fs::read_to_string(&path).expect("docs/formulas.md");
    let generated = markdown(Lang::En);
    let want = with_section(&doc, &generated)
        .unwrap_or_else(|| panic!("docs/formulas.md lacks {DOCS_START} … {DOCS_END}"));
    if want != doc && std::env::var_os("PARALLEL_LAB_WRITE_DOCS").is_some() {
        std::fs::write(&path, &want).expect("write docs/formulas.md");
        return;
    }
    assert!(
        want == doc,
        "docs/formulas.md's list of what is not counted differs from \
         parallel_core::omissions::markdown; run PARALLEL_LAB_WRITE_DOCS=1 cargo test -p \
         parallel-core --test omissions. Expected between the markers:\n{generated}"
    );
}

#[test]
fn the_section_splice_keeps_the_rest_of_the_doc() {
    let doc = format!("head\n{DOCS_START}\nold\n{DOCS_END}\ntail\n");
    assert_eq!(
        with_section(&doc, "new\n").as_deref(),
        Some(format!("head\n{DOCS_START}\n\nnew\n\n{DOCS_END}\ntail\n").as_str())
    );
    assert_eq!(with_section("no markers", "x"), None);
}
