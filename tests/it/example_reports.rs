//! The shipped example's reports, byte for byte: `check gates/prod.toml` in every format must
//! print exactly the committed files (made by an earlier binary, before the code was split into
//! stages, so a refactor that changes a byte fails here). A change of rule or
//! wording that is meant to change them updates these files in the same commit, and says why.

use crate::support;

use support::cli::{exit, rag_gate};

fn report(format: &str) -> String {
    let out = exit(
        rag_gate().current_dir(env!("CARGO_MANIFEST_DIR")).args([
            "check",
            "gates/prod.toml",
            "--format",
            format,
        ]),
        1,
    );
    String::from_utf8(out.stdout).unwrap()
}

fn expected(name: &str) -> String {
    let path = format!(
        "{}/tests/data/example-reports/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_example_text_report_is_byte_identical() {
    assert_eq!(report("text"), expected("report.txt"));
}

#[test]
fn the_example_markdown_report_is_byte_identical() {
    assert_eq!(report("markdown"), expected("report.md"));
}

#[test]
fn the_example_json_report_is_byte_identical() {
    assert_eq!(report("json"), expected("report.json"));
}
