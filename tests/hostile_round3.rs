//! Hostile input, round 3 (issue 24), through the binary: a fork must not choose its own slices,
//! protocol, noise or verdict, and nothing untrusted reaches a log line or a file unescaped.
//! Every case id is a row of docs/hostile.md ("Round 3"); `every_round3_case_is_documented`
//! keeps the two in step both ways. Cases tested elsewhere name their test in `ELSEWHERE`.

mod support;

use std::path::Path;

use support::cli::hostile_doc_rows;

/// The cases of this file.
const CASES: &[&str] = &[];

/// Cases whose test is not in this file: (case, file that tests it, text that file must hold).
const ELSEWHERE: &[(&str, &str, &str)] = &[(
    "fork-status-trusted",
    "scripts/validate-action.sh",
    "fork part 2 sets the status `rag-gate (trusted)`",
)];

#[test]
fn every_round3_case_is_documented() {
    let rows = hostile_doc_rows("Round 3");
    let known: Vec<&str> = CASES
        .iter()
        .copied()
        .chain(ELSEWHERE.iter().map(|e| e.0))
        .collect();
    let missing: Vec<&&str> = known
        .iter()
        .filter(|id| !rows.iter().any(|r| r == *id))
        .collect();
    assert!(
        missing.is_empty(),
        "not in docs/hostile.md, Round 3: {missing:?}"
    );
    for id in &rows {
        assert!(
            known.contains(&id.as_str()),
            "docs/hostile.md row {id:?} has no test"
        );
    }
    for (id, file, text) in ELSEWHERE {
        let body = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
            .unwrap_or_default();
        assert!(
            body.contains(text),
            "{id}: {file} no longer tests it ({text:?})"
        );
    }
}
