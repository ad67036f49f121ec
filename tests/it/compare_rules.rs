//! `compare` labels by `check`'s rules, through the binary: on sparse, loss-heavy samples of a
//! 0/1 metric and on identical inputs, under each guarantee, `compare --guarantee G` gives the
//! interval and label that `check` gives the same comparison under `[verdict] guarantee = G`
//! with `max-drop` at compare's margin; a comparison where nothing moved is `untouched` in both
//! (never `no change`), and compare's header states the resolution.

use crate::support;

use std::path::Path;

use serde_json::Value;
use support::cli::{rag_gate, run_in, write};
use support::output::{assert_contains, json};

/// `n` queries of hit@1 (every third a hit); `moves` set query i's candidate to the other value.
fn data(dir: &Path, n: usize, moves: &[usize]) {
    let (mut b, mut c) = (String::new(), String::new());
    for i in 0..n {
        let x: f64 = if i % 3 == 0 { 1.0 } else { 0.0 };
        let y = if moves.contains(&i) { 1.0 - x } else { x };
        b.push_str(&format!("{{\"query_id\": \"q{i}\", \"hit@1\": {x}}}\n"));
        c.push_str(&format!("{{\"query_id\": \"q{i}\", \"hit@1\": {y}}}\n"));
    }
    write(dir, "b.jsonl", b);
    write(dir, "c.jsonl", c);
}

/// The `hit@1` on `all` comparison of a JSON report.
fn all(report: &Value) -> &Value {
    report["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["metric"] == "hit@1" && c["slice"] == "all")
        .unwrap()
}

/// (check's comparison, its max-drop result, compare's comparison) under `guarantee`.
fn both(dir: &Path, guarantee: &str) -> (Value, Value, Value) {
    write(
        dir,
        "gate.toml",
        format!(
            "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[bootstrap]\nresamples = 2000\n\
             [verdict]\nguarantee = \"{guarantee}\"\n[[gate]]\nmetric = \"hit@1\"\nmax-drop = 0.01\n"
        ),
    );
    let o = run_in(
        rag_gate().args(["check", "gate.toml", "--format", "json"]),
        dir,
    );
    assert!(o.code.unwrap() < 2, "{}", o.stderr);
    let check = json(o.stdout.as_bytes());
    let o = run_in(
        rag_gate().args([
            "compare",
            "b.jsonl",
            "c.jsonl",
            "--resamples",
            "2000",
            "--guarantee",
            guarantee,
            "--format",
            "json",
        ]),
        dir,
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let compare = json(o.stdout.as_bytes());
    assert_eq!(compare["guarantee"], guarantee);
    let gate = check["gates"][0].clone();
    (all(&check).clone(), gate, all(&compare).clone())
}

#[test]
fn compare_labels_as_check_judges_on_sparse_loss_heavy_samples_and_identical_inputs() {
    let dir = tempfile::tempdir().unwrap();
    // (n, moved queries): losses (hits lost at i % 3 == 0) outnumber gains, few queries moved.
    let samples: [(usize, &[usize]); 5] = [
        (30, &[0, 3, 1]),
        (30, &[0, 3, 6, 4]),
        (50, &[0, 9]),
        (50, &[0, 3, 6, 1, 2]),
        (30, &[]),
    ];
    let mut compared = 0;
    for (n, moves) in samples {
        data(dir.path(), n, moves);
        for g in ["regular", "distribution-free"] {
            let (c, gate, k) = both(dir.path(), g);
            let what = format!("n = {n}, moved {moves:?}, {g}");
            assert_eq!(c["label"], k["label"], "{what}: {c} vs {k}");
            // A close call re-runs check's interval with more resamples (compare has no
            // threshold to be close to): equal intervals otherwise.
            if c["mc_rerun"] == false {
                assert_eq!(c["ci"], k["ci"], "{what}");
                compared += 1;
            }
            if moves.is_empty() && g == "regular" {
                assert_eq!(k["label"], "untouched", "{what}");
                assert_eq!(gate["status"], "untouched", "{what}");
            } else {
                assert_ne!(k["label"], "untouched", "{what}");
            }
            if moves.is_empty() && g == "distribution-free" {
                // Zero moves among 30 leave 1 − 0.025^(1/30) = 11.6% movable unseen at −1.
                let lo = k["ci"][0].as_f64().unwrap();
                assert!((-0.13..=-0.10).contains(&lo), "{what}: {lo}");
                assert_eq!(gate["status"], "fail", "{what}");
            }
        }
    }
    assert!(compared >= 8, "intervals compared on {compared} of 10");
}

#[test]
fn compare_states_the_resolution_and_says_what_untouched_means() {
    let dir = tempfile::tempdir().unwrap();
    data(dir.path(), 30, &[]);
    let o = run_in(
        rag_gate().args(["compare", "b.jsonl", "c.jsonl"]),
        dir.path(),
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert_contains(
        &o.stdout,
        "guarantee regular · resolution on all: a change touching fewer than 11.6% of the 30 queries can hide",
    );
    assert_contains(&o.stdout, " untouched ");
    assert_contains(
        &o.stdout,
        "untouched = no query moved (every delta within tie-epsilon)",
    );
    assert!(!o.stdout.contains("no change (±"), "{}", o.stdout);
}

#[test]
fn compare_under_distribution_free_names_a_metric_it_cannot_bound() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = String::new();
    for i in 0..30 {
        b.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"hit@1\": {}, \"latency_ms\": {}}}\n",
            i % 2,
            100 + i
        ));
    }
    write(dir.path(), "b.jsonl", &b);
    write(dir.path(), "c.jsonl", &b);
    let o = run_in(
        rag_gate().args([
            "compare",
            "b.jsonl",
            "c.jsonl",
            "--lower-is-better",
            "latency_ms",
            "--guarantee",
            "distribution-free",
        ]),
        dir.path(),
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert_contains(
        &o.stdout,
        "latency_ms: not bounded, so it keeps the regular interval",
    );
}
