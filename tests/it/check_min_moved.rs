//! `[slices] min-moved` through the binary: accepted, dumped and checked (a bad value is exit 2
//! naming the key), but it no longer decides a check: a `max-drop` on a change carried by 1–3
//! moved queries is judged on its interval like any other (a pass says so, and the warning
//! names the key as ignored); a no-op is untouched at any size; a drop the interval shows fails
//! however few queries carry it; a clear gain passes.

use crate::support;

use support::output::{assert_contains, warnings};
use support::{GateFile, TestContext};

/// 40 queries; the candidate moves the first `moved` of them by `by` (the rest exactly equal).
fn data(ctx: &TestContext, moved: usize, by: f64) {
    data_of(ctx, 40, moved, by);
}

/// As [`data`], with `n` queries.
fn data_of(ctx: &TestContext, n: usize, moved: usize, by: f64) {
    let (mut b, mut c) = (String::new(), String::new());
    for i in 0..n {
        let x = 0.4 + 0.01 * (i % 7) as f64;
        let y = if i < moved { x + by } else { x };
        b.push_str(&format!("{{\"query_id\": \"q{i}\", \"ndcg@10\": {x}}}\n"));
        c.push_str(&format!("{{\"query_id\": \"q{i}\", \"ndcg@10\": {y}}}\n"));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
}

/// ndcg@10 gated on a mean of 0.1 and a 0.01 drop, with `slices` in `[slices]`.
fn min_moved(slices: &str) -> GateFile {
    GateFile::new("b.jsonl", "c.jsonl")
        .resamples(500)
        .table("slices", slices)
        .gate("ndcg@10", "min-mean = 0.1\nmax-drop = 0.01")
}

fn result<'a>(report: &'a serde_json::Value, rule: &str) -> &'a serde_json::Value {
    report["gates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["rule"] == rule)
        .unwrap()
}

#[test]
fn a_small_drop_carried_by_three_moved_queries_is_judged_on_its_interval() {
    let ctx = TestContext::new();
    data(&ctx, 3, -0.005);
    ctx.gate(min_moved("min-moved = 8"));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(0), "{}{}", o.stdout, o.stderr);
    let r = o.json();
    assert_eq!(result(&r, "max-drop")["status"], "pass");
    assert_eq!(result(&r, "min-mean")["status"], "pass");
    assert!(
        warnings(&r)
            .iter()
            .any(|w| w.contains("[slices] min-moved no longer decides a check")),
        "{r}"
    );
}

#[test]
fn a_no_op_is_untouched_at_any_size() {
    // 367 or 40 queries with no move: untouched either way (the old no-op reach is gone).
    let ctx = TestContext::new();
    for n in [40, 367] {
        data_of(&ctx, n, 0, 0.0);
        ctx.gate(min_moved(""));
        let o = ctx.check_json(&[]);
        assert_eq!(o.code, Some(0), "{}{}", o.stdout, o.stderr);
        let r = o.json();
        assert_eq!(result(&r, "max-drop")["status"], "untouched");
        assert_contains(
            r["headline"].as_str().unwrap(),
            &format!("UNTOUCHED: unchanged on all {n} queries"),
        );
    }
}

#[test]
fn compare_no_longer_warns_about_min_moved() {
    let ctx = TestContext::new();
    data(&ctx, 3, -0.005);
    let w = warnings(&compare(&ctx, &[]));
    assert!(!w.iter().any(|w| w.contains("min-moved")), "{w:?}");
}

#[test]
fn a_clear_drop_on_ten_moved_queries_fails_and_a_clear_gain_passes() {
    let ctx = TestContext::new();
    data(&ctx, 10, -0.3);
    ctx.gate(min_moved(""));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(1), "{}", o.stdout);
    let r = o.json();
    assert_eq!(result(&r, "max-drop")["status"], "fail");
    assert_contains(
        r["headline"].as_str().unwrap(),
        "FAIL: ndcg@10 dropped 0.0750",
    );
    data(&ctx, 12, 0.2);
    ctx.gate(min_moved(""));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(0), "{}", o.stdout);
    assert_eq!(result(&o.json(), "max-drop")["status"], "pass");
}

#[test]
fn a_drop_on_few_moved_queries_that_fails_stays_a_failure() {
    // Not judged replaces a pass only: the interval of 3 large drops already shows the harm.
    let ctx = TestContext::new();
    data(&ctx, 3, -0.3);
    ctx.gate(min_moved(""));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(1));
    assert_eq!(result(&o.json(), "max-drop")["status"], "fail");
}

#[test]
fn min_moved_is_dumped_and_a_bad_value_names_the_key() {
    let ctx = TestContext::new();
    data(&ctx, 0, 0.0);
    ctx.gate(min_moved(""));
    let o = ctx.check(&["--dump-config"]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert_contains(&o.stdout, "min-moved = 8");
    ctx.gate(min_moved("min-moved = 0"));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(2));
    assert_contains(&o.stderr, "gate.toml:7:13");
    assert_contains(&o.stderr, "[slices] min-moved must be ≥ 1");
}

/// `rag-gate compare` on the same data, its JSON report.
fn compare(ctx: &TestContext, extra: &[&str]) -> serde_json::Value {
    let args = ["compare", "b.jsonl", "c.jsonl", "--format", "json"];
    let args: Vec<&str> = args.iter().chain(extra).copied().collect();
    ctx.run(&args).expect(0).json()
}
