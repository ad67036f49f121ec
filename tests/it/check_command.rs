//! `rag-gate check` and `compare` through the binary: exit codes, messages, determinism.

use crate::support;
use support::{GateFile, Out, TestContext};

use std::path::Path;

use predicates::prelude::*;
use support::output::comparisons;

/// A small clustered data set: `n` queries in groups of 4, tagged by language, with the
/// candidate `shift` better on every query except `ko`, where it is `ko_shift`.
fn dataset(ctx: &TestContext, n: usize, shift: f64, ko_shift: f64) {
    let mut b = String::new();
    let mut c = String::new();
    let mut q = String::new();
    for i in 0..n {
        let lang = if i % 3 == 0 { "ko" } else { "en" };
        let base = 0.2 + 0.6 * ((i * 37 % 101) as f64 / 100.0);
        let d = if lang == "ko" { ko_shift } else { shift } + 0.02 * (((i * 13) % 7) as f64 - 3.0);
        let cand = (base + d).clamp(0.0, 1.0);
        b.push_str(&format!(
            "{{\"query_id\":\"q{i:03}\",\"ndcg@10\":{base},\"recall@5\":{base}}}\n"
        ));
        c.push_str(&format!(
            "{{\"query_id\":\"q{i:03}\",\"metrics\":{{\"ndcg@10\":{cand},\"recall@5\":{base}}}}}\n"
        ));
        q.push_str(&format!("{{\"query_id\":\"q{i:03}\",\"group\":\"g{}\",\"slices\":{{\"language\":\"{lang}\"}}}}\n", i / 4));
    }
    ctx.write("b.jsonl", &b);
    ctx.write("c.jsonl", &c);
    ctx.write("q.jsonl", &q);
}

const GATE: &str = r#"
[inputs]
baseline = "b.jsonl"
candidate = "c.jsonl"
queries = "q.jsonl"
[bootstrap]
resamples = 2000
unit = "group"
[slices]
by = ["language"]
critical = ["language=ko"]
[[gate]]
metric = "ndcg@10"
max-drop = 0.01
slices = "critical"
"#;

#[test]
fn the_shipped_example_fails_on_the_compliance_slice() {
    TestContext::new()
        .cwd(support::repo(""))
        .command()
        .args(["check", "gates/prod.toml"])
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("FAIL: ndcg@10 dropped")
                .and(predicate::str::contains("on risk=compliance")),
        );
}

#[test]
fn pass_is_0_and_fail_is_1() {
    let ctx = TestContext::new();
    ctx.write("gate.toml", GATE);
    dataset(&ctx, 240, 0.05, 0.04);
    ctx.command()
        .arg("check")
        .arg(ctx.path().join("gate.toml"))
        .assert()
        .code(0)
        .stdout(predicate::str::contains("PASS"));
    dataset(&ctx, 240, 0.05, -0.08);
    ctx.command()
        .arg("check")
        .arg(ctx.path().join("gate.toml"))
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("FAIL: ndcg@10 dropped")
                .and(predicate::str::contains("language=ko")),
        );
}

#[test]
fn same_seed_same_bytes_and_seed_changes_the_interval() {
    let ctx = TestContext::new();
    let gate = ctx.write("gate.toml", GATE);
    dataset(&ctx, 120, 0.01, -0.01);
    let run = |seed: &str| {
        let o = ctx
            .check_file(&gate, &["--format", "json", "--seed", seed])
            .utf8();
        o.verdict();
        o.stdout
    };
    let (a, b) = (run("17"), run("17"));
    assert_eq!(a, b);
    assert_ne!(a, run("18"));
    let json: serde_json::Value = serde_json::from_str(&a).unwrap();
    for key in [
        "schema_version",
        "verdict",
        "seed",
        "resamples",
        "confidence",
        "unit",
        "comparisons",
        "gates",
    ] {
        assert!(json.get(key).is_some(), "no {key}");
    }
    let c = &json["comparisons"][0];
    for key in [
        "metric",
        "slice",
        "n",
        "groups",
        "baseline_mean",
        "candidate_mean",
        "delta",
        "ci",
        "wins",
        "ties",
        "losses",
        "worst",
    ] {
        assert!(c.get(key).is_some(), "comparison has no {key}");
    }
    assert_eq!(json["seed"], 17);
}

/// The comparisons of the JSON report of `check GATE`.
fn comparisons_of(ctx: &TestContext, gate: &Path) -> Vec<serde_json::Value> {
    comparisons(&ctx.check_file(gate, &["--format", "json"]).verdict_json().1).clone()
}

#[test]
fn adding_a_slice_does_not_change_another_slices_numbers() {
    let ctx = TestContext::new();
    dataset(&ctx, 120, 0.01, -0.01);
    let gate1 = ctx.write("g1.toml", GATE);
    let gate2 = ctx.write("g2.toml", GATE.replace("by = [\"language\"]", "by = []"));
    let with = comparisons_of(&ctx, &gate1);
    let without = comparisons_of(&ctx, &gate2);
    assert!(with.len() > without.len());
    for c in &without {
        assert!(with.contains(c), "{c} changed when a slice was added");
    }
}

#[test]
fn adding_a_metric_does_not_change_another_metrics_numbers() {
    // The mean metrics of a slice share its index and sign streams; each must still get
    // exactly the numbers it gets alone.
    let ctx = TestContext::new();
    dataset(&ctx, 120, 0.01, -0.01);
    let both = ctx.write(
        "both.toml",
        format!("{GATE}[report]\nmetrics = [\"ndcg@10\", \"recall@5\"]\n"),
    );
    let alone = ctx.write(
        "alone.toml",
        format!("{GATE}[report]\nmetrics = [\"ndcg@10\"]\n"),
    );
    let with = comparisons_of(&ctx, &both);
    let without = comparisons_of(&ctx, &alone);
    assert_eq!(with.len(), 2 * without.len());
    for c in &without {
        assert_eq!(c["metric"], "ndcg@10");
        assert!(with.contains(c), "{c} changed when a metric was added");
    }
}

#[test]
fn output_file_is_written_and_dump_config_shows_defaults() {
    let ctx = TestContext::new();
    let gate = ctx.write("gate.toml", GATE);
    dataset(&ctx, 120, 0.02, 0.02);
    let out = ctx.path().join("report.json");
    ctx.command()
        .arg("check")
        .arg(&gate)
        .args(["--format", "json", "-o"])
        .arg(&out)
        .assert()
        .code(0);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["verdict"], "pass");
    ctx.command()
        .arg("check")
        .arg(&gate)
        .arg("--dump-config")
        .assert()
        .code(0)
        .stdout(
            predicate::str::contains("confidence = 0.95")
                .and(predicate::str::contains("min-queries = 30")),
        );
}

#[test]
fn compare_runs_without_a_gate_file() {
    let ctx = TestContext::new();
    dataset(&ctx, 120, 0.02, -0.05);
    ctx.command()
        .args([
            "compare",
            "b.jsonl",
            "c.jsonl",
            "--queries",
            "q.jsonl",
            "--by",
            "language",
            "--metric",
            "ndcg@10",
            "--resamples",
            "500",
        ])
        .assert()
        .code(0)
        .stdout(
            predicate::str::contains("language=ko")
                .and(predicate::str::contains("ndcg@10"))
                .and(predicate::str::contains(
                    "no gates; 3 comparisons (metric × slice)",
                )),
        );
}

/// Bad inputs: exit 2 and one message naming the file and line (or key).
#[test]
fn bad_inputs_exit_2_with_a_message_naming_the_place() {
    let cases: &[(&str, &str, &str, &str)] = &[
        // (file to overwrite, its content, gate-file edit, expected message fragment)
        (
            "c.jsonl",
            "{\"query_id\":\"q000\",\"ndcg@10\":0.5}\n{\"query_id\":\"q000\",\"ndcg@10\":0.5}\n",
            "",
            "c.jsonl:2: duplicate query_id \"q000\"",
        ),
        (
            "c.jsonl",
            "{\"query_id\":\"q000\",\"ndcg@10\":0.5}\n",
            "",
            "c.jsonl: lacks 119 queries that",
        ),
        ("c.jsonl", "", "", "c.jsonl: the file is empty"),
        (
            "q.jsonl",
            "{\"query_id\":\"q000\"}\n{\"query_id\":\"q000\"}\n",
            "",
            "q.jsonl:2: duplicate query_id \"q000\" (first on line 1)",
        ),
        (
            "",
            "",
            "max-drop = 0.01\nnonsense = 1\nslices = \"critical\"",
            "gate.toml:15:1: unknown field `nonsense`",
        ),
        (
            "",
            "",
            "metric = \"ndcg@10\"\nmetric = \"map\"",
            "duplicate key",
        ),
        (
            "",
            "",
            "max-drop = 0.01\n[[gate]]\nmetric = \"ndcg@100\"\nmin-mean = 0.5",
            "gate.toml:16:10: [[gate]] #2: unknown metric \"ndcg@100\": neither input has it",
        ),
        (
            "",
            "",
            "max-drop = 0.01\nslices = [\"all\", \"language=fr\"]",
            "gate.toml:15:10: [[gate]] #1 (ndcg@10): no slice \"language=fr\"",
        ),
    ];
    for (file, content, gate_edit, want) in cases {
        let ctx = TestContext::new();
        dataset(&ctx, 120, 0.0, 0.0);
        let gate = if gate_edit.is_empty() {
            GATE.to_string()
        } else {
            GATE.replace("max-drop = 0.01\nslices = \"critical\"", gate_edit)
        };
        let g = ctx.write("gate.toml", &gate);
        if !file.is_empty() {
            ctx.write(file, content);
        }
        let out = Out::of(ctx.command().arg("check").arg(&g));
        let err = out
            .stderr
            .as_str()
            .replace(&ctx.path().display().to_string(), "");
        assert_eq!(out.code, Some(2), "{want}: {err}");
        assert!(err.contains(want), "want {want:?} in:\n{err}");
        assert!(out.stdout.is_empty(), "no report on error");
    }
}

#[test]
fn group_unit_without_groups_and_missing_gate_file_are_errors() {
    let ctx = TestContext::new();
    dataset(&ctx, 60, 0.0, 0.0);
    let g = ctx.write(
        "gate.toml",
        GATE.replace("queries = \"q.jsonl\"\n", "")
            .replace("by = [\"language\"]\ncritical = [\"language=ko\"]", ""),
    );
    ctx.command()
        .arg("check")
        .arg(&g)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "unit = \"group\", but 60 queries have no group",
        ));
    ctx.command()
        .args(["check", "does/not/exist.toml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("does/not/exist.toml"));
    // A folder stands for its gate files: this one's gate.toml, with the same error.
    ctx.command()
        .arg("check")
        .arg(ctx.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "unit = \"group\", but 60 queries have no group",
        ));
    let empty = TestContext::new();
    ctx.command()
        .arg("check")
        .arg(empty.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a folder with no gate file (*.toml)",
        ));
}

/// The example of docs/development.md ("Writing an integration test").
#[test]
fn a_drop_past_the_margin_fails() {
    let ctx = TestContext::new();
    let rows = |v: f64| -> String {
        (0..40)
            .map(|i| format!("{{\"query_id\": \"q{i}\", \"ndcg@10\": {v}}}\n"))
            .collect()
    };
    ctx.write("b.jsonl", rows(0.6));
    ctx.write("c.jsonl", rows(0.5));
    ctx.gate(
        GateFile::new("b.jsonl", "c.jsonl")
            .resamples(200)
            .gate("ndcg@10", "max-drop = 0.05"),
    );
    let report = ctx.check_json(&[]).expect(1).json();
    assert_eq!(report["verdict"], "fail");
}
