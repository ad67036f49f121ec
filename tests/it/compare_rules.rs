//! `compare` labels by `check`'s rules, through the binary: on sparse, loss-heavy samples of a
//! 0/1 metric and on identical inputs, under each guarantee, `compare --guarantee G` gives the
//! interval and label that `check` gives the same comparison under `[verdict] guarantee = G`
//! with `max-drop` at compare's margin; a comparison where nothing moved is `untouched` in both
//! (never `no change`), and compare's header states the resolution.

use crate::support;

use serde_json::Value;
use support::output::assert_contains;
use support::{GateFile, TestContext};

/// `n` queries of hit@1 (every third a hit); `moves` set query i's candidate to the other value.
fn data(ctx: &TestContext, n: usize, moves: &[usize]) {
    let (mut b, mut c) = (String::new(), String::new());
    for i in 0..n {
        let x: f64 = if i % 3 == 0 { 1.0 } else { 0.0 };
        let y = if moves.contains(&i) { 1.0 - x } else { x };
        b.push_str(&format!("{{\"query_id\": \"q{i}\", \"hit@1\": {x}}}\n"));
        c.push_str(&format!("{{\"query_id\": \"q{i}\", \"hit@1\": {y}}}\n"));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
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
fn both(ctx: &TestContext, guarantee: &str) -> (Value, Value, Value) {
    ctx.gate(
        GateFile::new("b.jsonl", "c.jsonl")
            .resamples(2000)
            .table("verdict", &format!("guarantee = \"{guarantee}\""))
            .gate("hit@1", "max-drop = 0.01"),
    );
    let o = ctx.check_json(&[]);
    assert!(o.code.unwrap() < 2, "{}", o.stderr);
    let check = o.json();
    let o = ctx.run(&[
        "compare",
        "b.jsonl",
        "c.jsonl",
        "--resamples",
        "2000",
        "--guarantee",
        guarantee,
        "--format",
        "json",
    ]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let compare = o.json();
    assert_eq!(compare["guarantee"], guarantee);
    let gate = check["gates"][0].clone();
    (all(&check).clone(), gate, all(&compare).clone())
}

#[test]
fn compare_labels_as_check_judges_on_sparse_loss_heavy_samples_and_identical_inputs() {
    let ctx = TestContext::new();
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
        data(&ctx, n, moves);
        for g in ["regular", "distribution-free"] {
            let (c, gate, k) = both(&ctx, g);
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
    let ctx = TestContext::new();
    data(&ctx, 30, &[]);
    let o = ctx.run(&["compare", "b.jsonl", "c.jsonl"]);
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
    let ctx = TestContext::new();
    let mut b = String::new();
    for i in 0..30 {
        b.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"hit@1\": {}, \"latency_ms\": {}}}\n",
            i % 2,
            100 + i
        ));
    }
    ctx.write("b.jsonl", &b);
    ctx.write("c.jsonl", &b);
    let o = ctx.run(&[
        "compare",
        "b.jsonl",
        "c.jsonl",
        "--lower-is-better",
        "latency_ms",
        "--guarantee",
        "distribution-free",
    ]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert_contains(
        &o.stdout,
        "latency_ms: not bounded, so it keeps the regular interval",
    );
}
