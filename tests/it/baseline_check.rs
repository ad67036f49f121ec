//! `check` and the baseline's provenance, through the binary: the line in every report format
//! from a fetch's record, `[inputs] baseline-commit`, the sidecar's ir_metadata, or unknown;
//! `[baseline] max-age-days`, `max-commits-behind` and `on-missing`.

use crate::support;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use support::cli::{assert_contains, assert_exit, json, rag_gate, write};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

/// A folder with `baseline/baseline.jsonl` (the example's), a gate file `gate.toml` with
/// `extra` appended, and, when given, `baseline/rag-gate-baseline.json`.
fn setup(extra: &str, record: Option<Value>) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("baseline")).unwrap();
    std::fs::copy(
        examples().join("baseline.jsonl"),
        dir.path().join("baseline/baseline.jsonl"),
    )
    .unwrap();
    if let Some(r) = record {
        write(dir.path(), "baseline/rag-gate-baseline.json", r.to_string());
    }
    let gate = format!(
        "[inputs]\nbaseline = \"baseline/baseline.jsonl\"\ncandidate = {:?}\nqueries = {:?}\n{extra}\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.2\n",
        examples().join("candidate.jsonl"),
        examples().join("queries.jsonl"),
    );
    let path = write(dir.path(), "gate.toml", gate);
    (dir, path)
}

fn fetched(behind: usize) -> Value {
    json!({
        "provenance-format": 1, "repository": "octo/repo", "workflow": "eval.yml",
        "branch": "main", "artifact": "baseline", "merge-base": "0".repeat(40),
        "found": {"commit": "abc1234".to_string() + &"0".repeat(33), "commits-behind": behind,
                  "run-id": 123456, "run-date": "2026-11-28T10:00:00Z",
                  "files": ["baseline.jsonl"]}
    })
}

fn check(gate: &Path, extra: &[&str]) -> std::process::Output {
    rag_gate()
        .arg("check")
        .arg(gate)
        .args(["--resamples", "200"])
        .args(extra)
        .env("RAG_GATE_TODAY", "2026-12-01")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_OUTPUT")
        .output()
        .unwrap()
}

const LINE: &str =
    "baseline: main@abc1234 (run 123456, 3 days old, 2 commits behind the merge-base)";

#[test]
fn a_fetched_baseline_is_named_in_text_markdown_json_and_html() {
    let (dir, gate) = setup("", Some(fetched(2)));
    let (md, js, html) = (
        dir.path().join("r.md"),
        dir.path().join("r.json"),
        dir.path().join("r.html"),
    );
    let out = check(
        &gate,
        &[
            "--export-markdown",
            md.to_str().unwrap(),
            "--export-json",
            js.to_str().unwrap(),
            "--export-html",
            html.to_str().unwrap(),
        ],
    );
    assert_exit(&out, 0);
    assert_contains(&String::from_utf8_lossy(&out.stdout), LINE);
    // Markdown keeps `@` from mentioning anyone (a word joiner after it).
    let md = std::fs::read_to_string(&md)
        .unwrap()
        .replace("@&#8288;", "@");
    assert_contains(&md, LINE);
    assert_contains(&std::fs::read_to_string(&html).unwrap(), LINE);
    let report = json(&std::fs::read(&js).unwrap());
    let b = &report["baseline"];
    assert_eq!(b["line"], LINE.strip_prefix("baseline: ").unwrap());
    assert_eq!(b["source"], "fetch");
    assert_eq!(b["run_id"], 123456);
    assert_eq!(b["age_days"], 3);
    assert_eq!(b["commits_behind"], 2);
    assert_eq!(b["workflow"], "eval.yml");
}

#[test]
fn at_the_merge_base_and_today_read_so() {
    let (_dir, gate) = setup("", Some(fetched(0)));
    let out = check(&gate, &["--today", "2026-11-28"]);
    assert_exit(&out, 0);
    assert_contains(
        &String::from_utf8_lossy(&out.stdout),
        "baseline: main@abc1234 (run 123456, from today, at the merge-base)",
    );
}

#[test]
fn max_age_days_and_max_commits_behind_fail_with_the_key() {
    let (_dir, gate) = setup("[baseline]\nmax-age-days = 2\n", Some(fetched(2)));
    let out = check(&gate, &[]);
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_contains(&err, "gate.toml:");
    assert_contains(&err, "[baseline] max-age-days: the baseline main@abc1234 (run 123456, 3 days old, 2 commits behind the merge-base) is 3 days old, more than max-age-days = 2; re-run eval.yml on main");

    let (_dir, gate) = setup("[baseline]\nmax-commits-behind = 1\n", Some(fetched(2)));
    let out = check(&gate, &[]);
    assert_exit(&out, 2);
    assert_contains(
        &String::from_utf8_lossy(&out.stderr),
        "is 2 commits behind the merge-base, more than max-commits-behind = 1",
    );

    // Within both limits it runs.
    let (_dir, gate) = setup(
        "[baseline]\nmax-age-days = 3\nmax-commits-behind = 2\n",
        Some(fetched(2)),
    );
    assert_exit(&check(&gate, &[]), 0);
}

#[test]
fn on_missing_warn_turns_a_broken_limit_into_a_warning() {
    let (_dir, gate) = setup(
        "[baseline]\nmax-age-days = 1\non-missing = \"warn\"\n",
        Some(fetched(2)),
    );
    let out = check(&gate, &["--format", "json"]);
    assert_exit(&out, 0);
    let report = json(&out.stdout);
    let warnings = report["warnings"].to_string();
    assert_contains(
        &warnings,
        "[baseline] max-age-days: the baseline main@abc1234",
    );
    assert_contains(&warnings, "(on-missing = \\\"warn\\\")");
}

#[test]
fn without_a_fetch_the_gate_file_commit_or_unknown() {
    let (_dir, gate) = setup("baseline-commit = \"ABC1234def\"\n", None);
    let gate_text = std::fs::read_to_string(&gate).unwrap();
    // baseline-commit belongs to [inputs]: put it there.
    let gate_text = gate_text
        .replacen("baseline-commit = \"ABC1234def\"\n", "", 1)
        .replacen(
            "[inputs]\n",
            "[inputs]\nbaseline-commit = \"ABC1234def\"\n",
            1,
        );
    std::fs::write(&gate, gate_text).unwrap();
    let out = check(&gate, &[]);
    assert_exit(&out, 0);
    assert_contains(
        &String::from_utf8_lossy(&out.stdout),
        "baseline: abc1234 ([inputs] baseline-commit; run and age unknown)",
    );

    let (_dir, gate) = setup("", None);
    let out = check(&gate, &[]);
    assert_exit(&out, 0);
    assert_contains(
        &String::from_utf8_lossy(&out.stdout),
        "baseline: unknown (no rag-gate-baseline.json beside it from `rag-gate baseline fetch`, no [inputs] baseline-commit)",
    );
    // A limit that needs the provenance says it is unknown.
    let (_dir, gate) = setup("[baseline]\nmax-age-days = 7\n", None);
    let out = check(&gate, &[]);
    assert_exit(&out, 2);
    assert_contains(
        &String::from_utf8_lossy(&out.stderr),
        "[baseline] max-age-days: the baseline's age is unknown",
    );
}

#[test]
fn a_bad_baseline_section_names_the_key() {
    let (_dir, gate) = setup("[baseline]\nmax-age-days = -1\n", None);
    let out = check(&gate, &[]);
    assert_exit(&out, 2);
    assert_contains(
        &String::from_utf8_lossy(&out.stderr),
        "[baseline] max-age-days must be ≥ 0",
    );
    let (_dir, gate) = setup("[baseline]\non-missing = \"skip\"\n", None);
    let out = check(&gate, &[]);
    assert_exit(&out, 2);
    assert_contains(&String::from_utf8_lossy(&out.stderr), "on-missing");
}

#[test]
fn a_fetch_that_found_nothing_fails_or_warns_as_on_missing_says() {
    let missing = json!({
        "provenance-format": 1, "repository": "octo/repo", "workflow": "eval.yml",
        "branch": "main", "artifact": "baseline", "merge-base": "0".repeat(40),
        "missing": "no successful run of eval.yml on main for 0000000"
    });
    let (dir, gate) = setup("", Some(missing.clone()));
    std::fs::remove_file(dir.path().join("baseline/baseline.jsonl")).unwrap();
    let out = check(&gate, &[]);
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_contains(
        &err,
        "rag-gate-baseline.json: no baseline: no successful run of eval.yml on main for 0000000",
    );
    assert_contains(&err, "on-missing = \"fail\"");

    let (dir, gate) = setup("[baseline]\non-missing = \"warn\"\n", Some(missing));
    std::fs::remove_file(dir.path().join("baseline/baseline.jsonl")).unwrap();
    let out = check(&gate, &[]);
    assert_exit(&out, 0);
    assert_contains(
        &String::from_utf8_lossy(&out.stderr),
        "rag-gate gate: not checked: no baseline: no successful run",
    );
}

#[test]
fn the_provenance_file_is_an_input_no_output_may_overwrite() {
    let (dir, gate) = setup("", Some(fetched(2)));
    let record = dir.path().join("baseline/rag-gate-baseline.json");
    let out = check(&gate, &["--export-json", record.to_str().unwrap()]);
    assert_exit(&out, 2);
    assert_contains(&String::from_utf8_lossy(&out.stderr), "provenance");
}

#[test]
fn the_workflows_gate_file_is_valid_and_requires_the_sidecars() {
    let gate = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/workflows/gate.toml");
    let out = rag_gate()
        .arg("check")
        .arg(&gate)
        .arg("--dump-config")
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let text = std::fs::read_to_string(&gate).unwrap();
    assert_contains(&text, "[protocol]\n# The sidecars travel");
    assert_contains(&text, "require = true");
}
