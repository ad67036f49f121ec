//! One query moved among many, through `check`: the far side of the interval is the tilted
//! bound with the unseen moved queries up to ten times as far from the tie as the one seen
//! (`stats::tilt`, "One unit off the tie"), so a nondeterministic retriever that jitters one
//! query of 200 by −0.03 passes `max-drop = 0.02`; at 50 queries, where ten times Wilson's
//! bound on 1 of n reaches past the query, the bound is the query's own delta and it fails; a
//! larger move never reads a higher bound.

use crate::support;
use support::output::comparison;
use support::{GateFile, TestContext};

/// Writes two metric files of `n` queries, the candidate equal but query 7 moved by `delta`,
/// and a gate file with `max-drop = 0.02` on them; returns the check's exit code and the
/// low bound of `ndcg@10` on `all`.
fn lone_move(ctx: &TestContext, n: usize, delta: f64) -> (i32, f64) {
    let line = |i: usize, v: f64| format!("{{\"query_id\": \"q{i:04}\", \"ndcg@10\": {v}}}\n");
    let base: Vec<f64> = (0..n)
        .map(|i| 0.3 + 0.4 * ((i * 37) % 101) as f64 / 100.0)
        .collect();
    let (mut b, mut c) = (String::new(), String::new());
    for (i, v) in base.iter().enumerate() {
        b.push_str(&line(i, *v));
        c.push_str(&line(i, if i == 7 { v + delta } else { *v }));
    }
    ctx.write("base.jsonl", b);
    ctx.write("cand.jsonl", c);
    ctx.gate(
        GateFile::new("base.jsonl", "cand.jsonl")
            .resamples(2000)
            .gate("ndcg@10", "max-drop = 0.02"),
    );
    let out = ctx.check_json(&[]);
    let r = out.json();
    let low = comparison(&r, "ndcg@10", "all")["ci"][0].as_f64().unwrap();
    (out.verdict(), low)
}

#[test]
fn one_query_of_200_jittered_passes_and_its_bound_is_ten_times_the_share() {
    let ctx = TestContext::new();
    let (code, low) = lone_move(&ctx, 200, -0.03);
    assert_eq!(code, 0, "low bound {low}");
    // Wilson's bound on 1 of 200 (t on 199 df) times 10 × 0.03: about −0.0084, not −0.03.
    assert!(low < -0.008 && low > -0.009, "{low}");
}

#[test]
fn one_query_of_50_moved_past_the_margin_still_fails() {
    let ctx = TestContext::new();
    let (code, low) = lone_move(&ctx, 50, -0.03);
    assert_eq!(code, 1, "low bound {low}");
    assert!(
        (low + 0.03).abs() < 1e-9,
        "the moved query's own delta: {low}"
    );
}

#[test]
fn a_larger_lone_move_never_reads_a_higher_bound() {
    let ctx = TestContext::new();
    let mut last = 0.0;
    for delta in [-0.005, -0.01, -0.03, -0.1, -0.3, -0.5] {
        let (_, low) = lone_move(&ctx, 200, delta);
        assert!(low <= last, "{delta}: {low} above {last}");
        last = low;
    }
    // A move of −0.3 reaches the most a query can move (1): Wilson's bound on 1 of 200.
    assert!(last < -0.027 && last > -0.029, "{last}");
    let (code, _) = lone_move(&ctx, 200, -0.3);
    assert_eq!(code, 1);
}
