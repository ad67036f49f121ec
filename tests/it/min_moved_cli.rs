//! `[slices] min-moved` through the binary: a `max-drop` that would pass on a change
//! carried by 1–3 moved queries is "not judged" in the headline's words (the rule, how many
//! moved, how many it needs, what to change), which fails the build on `all`; a no-op (every
//! delta exactly 0) passes; a clear drop on 10 moved queries fails; a clear improvement passes;
//! the absolute bar of the same gate stays shown as passed; the key is in --dump-config and a
//! bad value is exit 2 naming it. A sample where no query moved passes as a no-op only when
//! zero moves among its queries bound an unseen drop within the margin; otherwise it is not
//! judged, with the bound and the queries that would prove the no-op.

use crate::support;

use std::path::Path;

use support::cli::{assert_contains, json, rag_gate, run_in, warnings, write, Out};

/// 40 queries; the candidate moves the first `moved` of them by `by` (the rest exactly equal).
fn data(dir: &Path, moved: usize, by: f64) {
    data_of(dir, 40, moved, by);
}

/// As [`data`], with `n` queries.
fn data_of(dir: &Path, n: usize, moved: usize, by: f64) {
    let (mut b, mut c) = (String::new(), String::new());
    for i in 0..n {
        let x = 0.4 + 0.01 * (i % 7) as f64;
        let y = if i < moved { x + by } else { x };
        b.push_str(&format!("{{\"query_id\": \"q{i}\", \"ndcg@10\": {x}}}\n"));
        c.push_str(&format!("{{\"query_id\": \"q{i}\", \"ndcg@10\": {y}}}\n"));
    }
    write(dir, "b.jsonl", b);
    write(dir, "c.jsonl", c);
}

fn check(dir: &Path, slices: &str, extra: &[&str]) -> Out {
    write(
        dir,
        "gate.toml",
        format!(
            "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[bootstrap]\nresamples = 500\n[slices]\n{slices}\n[[gate]]\nmetric = \"ndcg@10\"\nmin-mean = 0.1\nmax-drop = 0.01\n"
        ),
    );
    run_in(
        rag_gate()
            .args(["check", "gate.toml", "--format", "json"])
            .args(extra),
        dir,
    )
}

fn gate<'a>(report: &'a serde_json::Value, rule: &str) -> &'a serde_json::Value {
    report["gates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["rule"] == rule)
        .unwrap()
}

#[test]
fn a_small_drop_carried_by_three_moved_queries_is_not_judged() {
    let dir = tempfile::tempdir().unwrap();
    data(dir.path(), 3, -0.005);
    let o = check(dir.path(), "", &[]);
    assert_eq!(o.code, Some(1), "{}{}", o.stdout, o.stderr);
    let r = json(o.stdout.as_bytes());
    let drop = gate(&r, "max-drop");
    assert_eq!(drop["status"], "too-small", "{drop}");
    assert_eq!(drop["passed"], false);
    assert_eq!(drop["decided_by"], "not judged: too few moved (min-moved)");
    assert_contains(
        r["headline"].as_str().unwrap(),
        "FAIL: ndcg@10 on all not judged: max-drop would pass on only 3 queries moved (delta beyond tie-epsilon), and needs at least 8; add queries the change touches, or set [slices] min-moved lower (min-mean passed)",
    );
    // The absolute bar of the same gate on the same slice is still a pass.
    assert_eq!(gate(&r, "min-mean")["status"], "pass");
    // A min-moved of the gate file's own is the one the headline names.
    let o = check(dir.path(), "min-moved = 5", &[]);
    assert_eq!(o.code, Some(1), "{}", o.stdout);
    assert_contains(
        json(o.stdout.as_bytes())["headline"].as_str().unwrap(),
        "max-drop would pass on only 3 queries moved (delta beyond tie-epsilon), and needs at least 5;",
    );
    // Lowered on purpose, the same change is judged (and passes).
    let o = check(dir.path(), "min-moved = 3", &[]);
    assert_eq!(o.code, Some(0), "{}", o.stdout);
    assert_eq!(
        gate(&json(o.stdout.as_bytes()), "max-drop")["status"],
        "pass"
    );
}

#[test]
fn a_no_op_on_too_few_queries_is_not_judged_and_says_how_many_would_prove_it() {
    // No query of 40 moved: that bounds the share a change could have moved unseen to
    // 1 − 0.025^(1/40) = 8.8%, a drop of up to 0.0881 on ndcg's range 1, over the margin 0.01.
    let dir = tempfile::tempdir().unwrap();
    data(dir.path(), 0, 0.0);
    let o = check(dir.path(), "", &[]);
    assert_eq!(o.code, Some(1), "{}{}", o.stdout, o.stderr);
    let r = json(o.stdout.as_bytes());
    let drop = gate(&r, "max-drop");
    assert_eq!(drop["status"], "too-small", "{drop}");
    assert_eq!(
        drop["decided_by"],
        "not judged: nothing moved, too few to prove a no-op"
    );
    assert_contains(
        r["headline"].as_str().unwrap(),
        "FAIL: ndcg@10 on all not judged for max-drop: no query moved (delta beyond tie-epsilon) among 40 queries, which leaves up to 8.8% of them movable unseen (one-sided 97.5% bound) and so a drop of up to 0.0881 on the metric's range [0, 1], over the margin 0.0100; 368 queries would prove a no-op (min-mean passed)",
    );
    assert_eq!(gate(&r, "min-mean")["status"], "pass");
    // The interval is the unseen share's, ∓0.0881 around the zero delta.
    let c = &r["comparisons"][0];
    assert!((c["ci"][0].as_f64().unwrap() + 0.0881).abs() < 1e-4, "{c}");
    assert!((c["ci"][1].as_f64().unwrap() - 0.0881).abs() < 1e-4, "{c}");
    // A margin the bound fits in (0.0881 ≤ 0.1): the same no-op passes.
    let text = std::fs::read_to_string(dir.path().join("gate.toml")).unwrap();
    write(
        dir.path(),
        "gate.toml",
        text.replace("max-drop = 0.01", "max-drop = 0.1"),
    );
    let o = run_in(
        rag_gate().args(["check", "gate.toml", "--format", "json"]),
        dir.path(),
    );
    assert_eq!(o.code, Some(0), "{}{}", o.stdout, o.stderr);
    assert_eq!(
        gate(&json(o.stdout.as_bytes()), "max-drop")["status"],
        "pass"
    );
}

#[test]
fn a_no_op_on_enough_queries_passes_with_the_default_settings() {
    // 368 queries with no move bound an unseen drop to 0.00998 ≤ 0.01: a proven no-op.
    let dir = tempfile::tempdir().unwrap();
    data_of(dir.path(), 368, 0, 0.0);
    let o = check(dir.path(), "", &[]);
    assert_eq!(o.code, Some(0), "{}{}", o.stdout, o.stderr);
    let r = json(o.stdout.as_bytes());
    assert_eq!(gate(&r, "max-drop")["status"], "pass");
    assert_contains(
        r["headline"].as_str().unwrap(),
        "PASS: 2 of 2 checks passed",
    );
    // One query fewer does not.
    data_of(dir.path(), 367, 0, 0.0);
    let o = check(dir.path(), "", &[]);
    assert_eq!(o.code, Some(1), "{}{}", o.stdout, o.stderr);
    assert_contains(
        json(o.stdout.as_bytes())["headline"].as_str().unwrap(),
        "among 367 queries",
    );
}

#[test]
fn a_clear_drop_on_ten_moved_queries_fails_and_a_clear_gain_passes() {
    let dir = tempfile::tempdir().unwrap();
    data(dir.path(), 10, -0.3);
    let o = check(dir.path(), "", &[]);
    assert_eq!(o.code, Some(1), "{}", o.stdout);
    let r = json(o.stdout.as_bytes());
    assert_eq!(gate(&r, "max-drop")["status"], "fail");
    assert_contains(
        r["headline"].as_str().unwrap(),
        "FAIL: ndcg@10 dropped 0.0750",
    );
    data(dir.path(), 12, 0.2);
    let o = check(dir.path(), "", &[]);
    assert_eq!(o.code, Some(0), "{}", o.stdout);
    assert_eq!(
        gate(&json(o.stdout.as_bytes()), "max-drop")["status"],
        "pass"
    );
}

#[test]
fn a_drop_on_few_moved_queries_that_fails_stays_a_failure() {
    // Not judged replaces a pass only: the interval of 3 large drops already shows the harm.
    let dir = tempfile::tempdir().unwrap();
    data(dir.path(), 3, -0.3);
    let o = check(dir.path(), "", &[]);
    assert_eq!(o.code, Some(1));
    assert_eq!(
        gate(&json(o.stdout.as_bytes()), "max-drop")["status"],
        "fail"
    );
}

#[test]
fn min_moved_is_dumped_and_a_bad_value_names_the_key() {
    let dir = tempfile::tempdir().unwrap();
    data(dir.path(), 0, 0.0);
    check(dir.path(), "", &[]);
    let o = run_in(
        rag_gate().args(["check", "gate.toml", "--dump-config"]),
        dir.path(),
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert_contains(&o.stdout, "min-moved = 8");
    let o = check(dir.path(), "min-moved = 0", &[]);
    assert_eq!(o.code, Some(2));
    assert_contains(&o.stderr, "gate.toml:7:13");
    assert_contains(&o.stderr, "[slices] min-moved must be ≥ 1");
}

/// `rag-gate compare` on the same data, its JSON report.
fn compare(dir: &Path, extra: &[&str]) -> serde_json::Value {
    let o = run_in(
        rag_gate()
            .args(["compare", "b.jsonl", "c.jsonl", "--format", "json"])
            .args(extra),
        dir,
    );
    assert_eq!(o.code, Some(0), "{}{}", o.stdout, o.stderr);
    json(o.stdout.as_bytes())
}

#[test]
fn compare_warns_where_check_would_not_judge_too_few_moved() {
    // 3 of 40 queries moved: check's default min-moved 8 would not judge a passing max-drop.
    let dir = tempfile::tempdir().unwrap();
    data(dir.path(), 3, -0.005);
    let w = warnings(&compare(dir.path(), &[]));
    let few: Vec<&String> = w.iter().filter(|w| w.contains("min-moved")).collect();
    assert_eq!(few.len(), 1, "{w:?}");
    assert_eq!(
        few[0],
        "1 comparison moved too few units for check to judge a max-drop or max-change pass (its default: min-moved 8), so a label of no harm would rest on these alone: ndcg@10 on all (3 queries moved (delta beyond tie-epsilon) < min-moved 8)"
    );
    // The text report carries the same warning.
    let o = run_in(
        rag_gate().args(["compare", "b.jsonl", "c.jsonl"]),
        dir.path(),
    );
    assert_eq!(o.code, Some(0));
    assert_contains(
        &o.stdout,
        "(3 queries moved (delta beyond tie-epsilon) < min-moved 8)",
    );
    // 7 moved: still too few; the count is check's.
    data(dir.path(), 7, 0.01);
    let w = warnings(&compare(dir.path(), &[]));
    assert!(
        w.iter().any(|w| w.ends_with(
            "ndcg@10 on all (7 queries moved (delta beyond tie-epsilon) < min-moved 8)"
        )),
        "{w:?}"
    );
    // 8 moved (check judges): no word.
    data(dir.path(), 8, -0.005);
    let w = warnings(&compare(dir.path(), &[]));
    assert!(!w.iter().any(|w| w.contains("min-moved")), "{w:?}");
    // Nothing moved among 40: check would not judge a pass as a no-op, and compare says so.
    data(dir.path(), 0, 0.0);
    let w = warnings(&compare(dir.path(), &[]));
    assert!(
        w.iter().any(|w| w.ends_with(
            "ndcg@10 on all (no unit moved among 40, so an unseen drop up to 0.0881 is not ruled out (margin 0.0100))"
        )),
        "{w:?}"
    );
    // Among 368 the no-op is proven: no word.
    data_of(dir.path(), 368, 0, 0.0);
    let w = warnings(&compare(dir.path(), &[]));
    assert!(!w.iter().any(|w| w.contains("min-moved")), "{w:?}");
}

#[test]
fn compare_names_a_comparison_too_small_by_size_once() {
    // 20 queries, 3 moved: below min-queries 30, which check decides first; the size warning
    // names it and the min-moved warning does not.
    let dir = tempfile::tempdir().unwrap();
    let (mut b, mut c) = (String::new(), String::new());
    for i in 0..20 {
        let x = 0.4 + 0.01 * (i % 7) as f64;
        let y = if i < 3 { x - 0.005 } else { x };
        b.push_str(&format!("{{\"query_id\": \"q{i}\", \"ndcg@10\": {x}}}\n"));
        c.push_str(&format!("{{\"query_id\": \"q{i}\", \"ndcg@10\": {y}}}\n"));
    }
    write(dir.path(), "b.jsonl", b);
    write(dir.path(), "c.jsonl", c);
    let w = warnings(&compare(dir.path(), &[]));
    assert!(
        w.iter().any(|w| w.contains("smaller than check judges")
            && w.contains("ndcg@10 on all (20 queries < min-queries 30)")),
        "{w:?}"
    );
    assert!(!w.iter().any(|w| w.contains("min-moved 8)")), "{w:?}");
}
