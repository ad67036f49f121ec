//! `check` and the baseline's provenance, through the binary: the line in every report format
//! from a fetch's record, `[inputs] baseline-commit`, the sidecar's ir_metadata, or unknown;
//! `[baseline] max-age-days`, `max-commits-behind` and `on-missing`.

use crate::support;

use serde_json::{json, Value};
use support::output::assert_contains;
use support::{repo, GateFile, TestContext};

/// A folder with `baseline/baseline.jsonl` (the example's), a gate file `gate.toml` with
/// `extra` appended, and, when given, `baseline/rag-gate-baseline.json`; `check` runs on
/// 2026-12-01 (`RAG_GATE_TODAY`).
fn example_with_record(extra: &str, record: Option<Value>) -> TestContext {
    let ctx = TestContext::new().env("RAG_GATE_TODAY", "2026-12-01");
    ctx.copy(repo("examples/baseline.jsonl"), "baseline/baseline.jsonl");
    if let Some(r) = record {
        ctx.write("baseline/rag-gate-baseline.json", r.to_string());
    }
    ctx.gate(
        GateFile::new("baseline/baseline.jsonl", repo("examples/candidate.jsonl"))
            .queries(repo("examples/queries.jsonl"))
            .resamples(200)
            .raw(extra)
            .gate("ndcg@10", "max-drop = 0.2"),
    );
    ctx
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

const LINE: &str =
    "baseline: main@abc1234 (run 123456, 3 days old, 2 commits behind the merge-base)";

#[test]
fn a_fetched_baseline_is_named_in_text_markdown_json_and_html() {
    let ctx = example_with_record("", Some(fetched(2)));
    let out = ctx
        .check(&[
            "--export-markdown",
            "r.md",
            "--export-json",
            "r.json",
            "--export-html",
            "r.html",
        ])
        .expect(0);
    assert_contains(&out.stdout, LINE);
    // Markdown keeps `@` from mentioning anyone (a word joiner after it).
    let md = ctx.read("r.md").replace("@&#8288;", "@");
    assert_contains(&md, LINE);
    assert_contains(&ctx.read("r.html"), LINE);
    let report: Value = serde_json::from_str(&ctx.read("r.json")).unwrap();
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
    let ctx = example_with_record("", Some(fetched(0)));
    let out = ctx.check(&["--today", "2026-11-28"]).expect(0);
    assert_contains(
        &out.stdout,
        "baseline: main@abc1234 (run 123456, from today, at the merge-base)",
    );
}

#[test]
fn max_age_days_and_max_commits_behind_fail_with_the_key() {
    let ctx = example_with_record("[baseline]\nmax-age-days = 2\n", Some(fetched(2)));
    let out = ctx.check(&[]).expect(2);
    let err = &out.stderr;
    assert_contains(err, "gate.toml:");
    assert_contains(err, "[baseline] max-age-days: the baseline main@abc1234 (run 123456, 3 days old, 2 commits behind the merge-base) is 3 days old, more than max-age-days = 2; re-run eval.yml on main");

    let ctx = example_with_record("[baseline]\nmax-commits-behind = 1\n", Some(fetched(2)));
    let out = ctx.check(&[]).expect(2);
    assert_contains(
        &out.stderr,
        "is 2 commits behind the merge-base, more than max-commits-behind = 1",
    );

    // Within both limits it runs.
    let ctx = example_with_record(
        "[baseline]\nmax-age-days = 3\nmax-commits-behind = 2\n",
        Some(fetched(2)),
    );
    ctx.check(&[]).expect(0);
}

#[test]
fn on_missing_warn_turns_a_broken_limit_into_a_warning() {
    let ctx = example_with_record(
        "[baseline]\nmax-age-days = 1\non-missing = \"warn\"\n",
        Some(fetched(2)),
    );
    let out = ctx.check(&["--format", "json"]).expect(0);
    let report = out.json();
    let warnings = report["warnings"].to_string();
    assert_contains(
        &warnings,
        "[baseline] max-age-days: the baseline main@abc1234",
    );
    assert_contains(&warnings, "(on-missing = \\\"warn\\\")");
}

#[test]
fn without_a_fetch_the_gate_file_commit_or_unknown() {
    let ctx = example_with_record("", None);
    // baseline-commit belongs to [inputs]: put it there.
    let gate_text = ctx.read(support::GATE).replacen(
        "[inputs]\n",
        "[inputs]\nbaseline-commit = \"ABC1234def\"\n",
        1,
    );
    ctx.gate(gate_text);
    let out = ctx.check(&[]).expect(0);
    assert_contains(
        &out.stdout,
        "baseline: abc1234 ([inputs] baseline-commit; run and age unknown)",
    );

    let ctx = example_with_record("", None);
    let out = ctx.check(&[]).expect(0);
    assert_contains(
        &out.stdout,
        "baseline: unknown (no rag-gate-baseline.json beside it from `rag-gate baseline fetch`, no [inputs] baseline-commit)",
    );
    // A limit that needs the provenance says it is unknown.
    let ctx = example_with_record("[baseline]\nmax-age-days = 7\n", None);
    let out = ctx.check(&[]).expect(2);
    assert_contains(
        &out.stderr,
        "[baseline] max-age-days: the baseline's age is unknown",
    );
}

#[test]
fn a_bad_baseline_section_names_the_key() {
    let ctx = example_with_record("[baseline]\nmax-age-days = -1\n", None);
    let out = ctx.check(&[]).expect(2);
    assert_contains(&out.stderr, "[baseline] max-age-days must be ≥ 0");
    let ctx = example_with_record("[baseline]\non-missing = \"skip\"\n", None);
    let out = ctx.check(&[]).expect(2);
    assert_contains(&out.stderr, "on-missing");
}

#[test]
fn a_fetch_that_found_nothing_fails_or_warns_as_on_missing_says() {
    let missing = json!({
        "provenance-format": 1, "repository": "octo/repo", "workflow": "eval.yml",
        "branch": "main", "artifact": "baseline", "merge-base": "0".repeat(40),
        "missing": "no successful run of eval.yml on main for 0000000"
    });
    let ctx = example_with_record("", Some(missing.clone()));
    std::fs::remove_file(ctx.join("baseline/baseline.jsonl")).unwrap();
    let out = ctx.check(&[]).expect(2);
    let err = &out.stderr;
    assert_contains(
        err,
        "rag-gate-baseline.json: no baseline: no successful run of eval.yml on main for 0000000",
    );
    assert_contains(err, "on-missing = \"fail\"");

    let ctx = example_with_record("[baseline]\non-missing = \"warn\"\n", Some(missing));
    std::fs::remove_file(ctx.join("baseline/baseline.jsonl")).unwrap();
    let out = ctx.check(&[]).expect(0);
    assert_contains(
        &out.stderr,
        "rag-gate gate: not checked: no baseline: no successful run",
    );
}

#[test]
fn the_provenance_file_is_an_input_no_output_may_overwrite() {
    let ctx = example_with_record("", Some(fetched(2)));
    let out = ctx
        .check(&["--export-json", "baseline/rag-gate-baseline.json"])
        .expect(2);
    assert_contains(&out.stderr, "provenance");
}

#[test]
fn the_workflows_gate_file_is_valid_and_requires_the_sidecars() {
    let gate = repo("examples/workflows/gate.toml");
    TestContext::new()
        .run(&["check", gate.to_str().unwrap(), "--dump-config"])
        .expect(0);
    let text = std::fs::read_to_string(&gate).unwrap();
    assert_contains(&text, "[protocol]\n# The sidecars travel");
    assert_contains(&text, "require = true");
}
