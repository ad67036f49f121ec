//! A critical slice below `min-queries` is judged on its interval by default (`on-small-slice =
//! "judge"`), with a warning naming its size: a pull request that changes nothing on it passes
//! and a drop on it fails. `on-small-slice = "fail"` fails it unjudged, saying why and what would
//! be needed; `"warn"` keeps the warning. A slice's size comes from the trusted
//! side (the baseline and the queries file): a candidate that leaves queries out under
//! `missing = "intersect"` cannot shrink a critical slice below `min-queries` to escape it.

use crate::support;
use support::output::assert_contains;
use support::{GateFile, TestContext};

/// 60 queries, 8 of them in `risk=legal` (so below the default `min-queries` 30 when small),
/// or `legal` of them; the candidate is a little worse on average (−0.001, give or take 0.001).
fn files(ctx: &TestContext, legal: usize, dropped_from_candidate: usize) {
    let mut b = String::new();
    let mut c = String::new();
    let mut q = String::new();
    for i in 0..60 {
        let v = 0.3 + (i % 7) as f64 / 20.0;
        b.push_str(&format!("{{\"query_id\": \"q{i}\", \"ndcg@10\": {v}}}\n"));
        let risk = if i < legal { "legal" } else { "standard" };
        q.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"slices\": {{\"risk\": \"{risk}\"}}}}\n"
        ));
        if i >= dropped_from_candidate {
            c.push_str(&format!(
                "{{\"query_id\": \"q{i}\", \"ndcg@10\": {}}}\n",
                v - 0.001 + 0.0005 * ((i * 3 % 5) as f64 - 2.0)
            ));
        }
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
    ctx.write("q.jsonl", q);
}

/// The critical slice `risk=legal` gated on a 0.05 drop; `inputs` and `slices` are added to
/// those tables.
fn gate_file(inputs: &str, slices: &str) -> GateFile {
    GateFile::new("b.jsonl", "c.jsonl")
        .queries("q.jsonl")
        .inputs_raw(inputs)
        .resamples(200)
        .table(
            "slices",
            &format!("critical = [\"risk=legal\"]\nmin-moved = 1\n{slices}"),
        )
        .gate("ndcg@10", "max-drop = 0.05\nslices = \"critical\"")
}

#[test]
fn a_too_small_critical_slice_is_judged_on_its_interval_by_default_and_warns() {
    let ctx = TestContext::new();
    files(&ctx, 8, 0);
    ctx.gate(gate_file("", ""));
    let o = ctx.check(&[]).expect(0);
    assert_contains(&o.stdout, "PASS");
    assert_contains(
        &o.stdout,
        "on risk=legal, max-drop: judged on 8 queries, fewer than min-queries 30: the interval decided",
    );
    assert!(!o.stdout.contains("not judged"), "{}", o.stdout);
}

#[test]
fn a_critical_slice_of_one_query_has_no_interval_and_is_undecided() {
    // One legal query, moved by about −0.002: no interval exists on one query, so the check
    // is undecided on the sample (inconclusive above a drop of half the margin), never said to
    // be judged on its interval.
    let ctx = TestContext::new();
    files(&ctx, 1, 0);
    ctx.gate(gate_file("", ""));
    let o = ctx.check(&[]).expect(0);
    assert_contains(&o.stdout, "1 query: no interval on fewer than 2");
    assert_contains(&o.stdout, "too small: 1 query");
    assert!(!o.stdout.contains("judged on 1 query"), "{}", o.stdout);
}

#[test]
fn a_drop_on_a_too_small_critical_slice_fails_by_default() {
    // The 8 legal queries lose 0.2 each: the slice's interval lies below −0.05.
    let ctx = TestContext::new();
    files(&ctx, 8, 0);
    let worse: String = ctx
        .read("c.jsonl")
        .lines()
        .enumerate()
        .map(|(i, line)| {
            if i < 8 {
                let v = 0.3 + (i % 7) as f64 / 20.0;
                format!("{{\"query_id\": \"q{i}\", \"ndcg@10\": {}}}\n", v - 0.2)
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    ctx.write("c.jsonl", worse);
    ctx.gate(gate_file("", ""));
    let o = ctx.check(&[]).expect(1);
    assert_contains(&o.stdout, "FAIL");
    assert_contains(&o.stdout, "judged on 8 queries, fewer than min-queries 30");
}

#[test]
fn a_too_small_critical_slice_fails_under_on_small_slice_fail_and_says_what_is_needed() {
    let ctx = TestContext::new();
    files(&ctx, 8, 0);
    ctx.gate(gate_file("", "on-small-slice = \"fail\""));
    let o = ctx.check(&[]).expect(1);
    assert_contains(&o.stdout, "FAIL");
    assert_contains(&o.stdout, "8 queries < min-queries 30");
    assert_contains(
        &o.stdout,
        "give the slice enough queries, or set on-small-slice = \"warn\"",
    );
}

#[test]
fn on_small_slice_warn_keeps_the_warning() {
    let ctx = TestContext::new();
    files(&ctx, 8, 0);
    ctx.gate(gate_file("", "on-small-slice = \"warn\""));
    let o = ctx.check(&[]).expect(0);
    assert_contains(
        &o.stdout,
        "a warning (on-small-slice = \"warn\"), not a pass",
    );
}

#[test]
fn a_fork_cannot_shrink_a_critical_slice_out_of_judgement() {
    // 30 legal queries in the baseline and the queries file (= min-queries: judged); the
    // candidate leaves 5 of them out under missing = "intersect", so 25 would be paired.
    let ctx = TestContext::new();
    files(&ctx, 30, 0);
    ctx.gate(gate_file("missing = \"intersect\"", ""));
    ctx.check(&[]).expect(0);
    files(&ctx, 30, 5);
    ctx.gate(gate_file(
        "missing = \"intersect\"",
        "on-small-slice = \"warn\"",
    ));
    // Even with on-small-slice = "warn" the shrunk slice fails the build.
    let o = ctx.check(&[]).expect(1);
    assert_contains(
        &o.stdout,
        "the baseline and queries file give the slice 30 queries (≥ min-queries 30) but the candidate lacks 5 of them",
    );
    // And under the default, where a slice below min-queries is judged, it is not judged on
    // the 25 the candidate left: it fails.
    ctx.gate(gate_file("missing = \"intersect\"", ""));
    let o = ctx.check(&[]).expect(1);
    assert_contains(
        &o.stdout,
        "not judged, 25 queries < min-queries 30; the baseline and queries file give the slice 30 queries (≥ min-queries 30) but the candidate lacks 5 of them",
    );
}
