//! The contributor's map stays true: every file or folder of the repository that ARCHITECTURE.md,
//! CONTRIBUTING.md and docs/development.md name in backticks (`src/verdict.rs`, `scripts/msrv.py`,
//! `tests/it/support/`) exists, so a file moved or renamed without its map fails here with the
//! page and the path. Both pages are linked from the README and docs/development.md.

use std::path::Path;

use regex::Regex;

const PAGES: &[&str] = &["ARCHITECTURE.md", "CONTRIBUTING.md", "docs/development.md"];

fn read(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn every_path_the_contributor_pages_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = Regex::new(r"`((?:src|tests|scripts|fuzz|benches|bench|calibration|docs|packaging|examples|\.ci|\.github)/[A-Za-z0-9_./-]*)`").unwrap();
    let mut missing = Vec::new();
    let mut named = 0;
    for page in PAGES {
        for c in path.captures_iter(&read(page)) {
            let rel = c[1].trim_end_matches('/');
            // A pattern (`tests/it/*.rs`, `report.{txt,md,json}`) names no single file.
            if rel.contains(['*', '{', '<']) {
                continue;
            }
            named += 1;
            if !root.join(rel).exists() {
                missing.push(format!("{page}: {rel}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "named but not in the repository:\n{}",
        missing.join("\n")
    );
    assert!(
        named > 50,
        "only {named} paths found: has the pages' form changed?"
    );
}

#[test]
fn the_contributor_pages_are_linked() {
    for (from, to) in [
        ("README.md", "ARCHITECTURE.md"),
        ("README.md", "CONTRIBUTING.md"),
        ("docs/development.md", "../ARCHITECTURE.md"),
        ("docs/development.md", "../CONTRIBUTING.md"),
        ("CONTRIBUTING.md", "ARCHITECTURE.md"),
    ] {
        assert!(
            read(from).contains(&format!("]({to}")),
            "{from} does not link {to}"
        );
    }
}
