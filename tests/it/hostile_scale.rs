//! Adversarial numbers of slices and groups, at sizes a test can afford (bench/scale/ runs the big
//! ones): the results are the documented ones, nothing crashes, nothing takes long.
//! - one query per group: the cluster bootstrap is the query bootstrap, number for number;
//! - one group holding every query: nothing to resample, the interval is the mean delta (zero
//!   width), so a `max-drop` gate judges the point estimate;
//! - thousands of slices of one query each: each slice's interval is its own delta (zero width); gated
//!   slices under `min-queries` are "too small", never silently passed.

use crate::support;

use serde_json::Value;
use support::output::{comparison, comparisons};
use support::{GateFile, TestContext};

/// `n` queries; `group(i)` names query i's group; `tag(i)` its `s` slice value.
fn write_data(
    ctx: &TestContext,
    n: usize,
    group: impl Fn(usize) -> String,
    tag: impl Fn(usize) -> String,
) {
    let (mut b, mut c, mut q) = (String::new(), String::new(), String::new());
    for i in 0..n {
        let v = ((i * 7919) % 1000) as f64 / 2000.0 + 0.25;
        let d = (((i * 31) % 11) as f64 - 5.0) / 100.0;
        b.push_str(&format!("{{\"query_id\":\"q{i}\",\"ndcg@10\":{v}}}\n"));
        c.push_str(&format!(
            "{{\"query_id\":\"q{i}\",\"ndcg@10\":{}}}\n",
            v + d
        ));
        q.push_str(&format!(
            "{{\"query_id\":\"q{i}\",\"group\":\"{}\",\"slices\":{{\"s\":\"{}\"}}}}\n",
            group(i),
            tag(i)
        ));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
    ctx.write("q.jsonl", q);
}

/// ndcg@10 on the critical slices, `unit`, slices `by`, `extra` in `[slices]`.
fn by_slice(unit: &str, by: &str, extra: &str) -> GateFile {
    GateFile::new("b.jsonl", "c.jsonl")
        .queries("q.jsonl")
        .table("bootstrap", &format!("resamples = 1000\nunit = \"{unit}\""))
        .table("slices", &format!("by = [{by}]\nmin-queries = 30\n{extra}"))
        .gate("ndcg@10", "max-drop = 0.05\nslices = \"critical\"")
}

/// Runs check with the JSON report; (exit code, report). How its time grows with the number
/// of slices is measured by bench/hostile/slices.sh, not here.
fn run_check(ctx: &TestContext, gate: GateFile) -> (i32, Value) {
    ctx.gate(gate);
    ctx.check_json(&[]).verdict_json()
}

#[test]
fn one_query_per_group_is_the_query_bootstrap() {
    let ctx = TestContext::new();
    write_data(&ctx, 3000, |i| format!("g{i}"), |i| format!("v{}", i % 4));
    let (_, by_group) = run_check(&ctx, by_slice("group", "\"s\"", ""));
    let (_, by_query) = run_check(&ctx, by_slice("query", "\"s\"", ""));
    let (cg, cq) = (comparisons(&by_group), comparisons(&by_query));
    assert_eq!(cg.len(), 5);
    for (g, q) in cg.iter().zip(cq) {
        assert_eq!(g["groups"], g["n"], "every query is its own group");
        assert_eq!(g["ci"], q["ci"], "slice {}", g["slice"]);
        assert_eq!(g["delta"], q["delta"]);
    }
}

#[test]
fn one_group_of_all_queries_gives_the_interval_of_one_unit() {
    let ctx = TestContext::new();
    write_data(
        &ctx,
        3000,
        |_| "everything".into(),
        |i| format!("v{}", i % 4),
    );
    let (_, r) = run_check(&ctx, by_slice("group", "\"s\"", ""));
    for c in comparisons(&r) {
        // One unit has no spread: the interval is the point (and min-groups leaves its gates
        // not judged; what one unit cannot see is the resolution the report states).
        assert_eq!(c["groups"], 1);
        let [lo, hi, d] = [&c["ci"][0], &c["ci"][1], &c["delta"]].map(|v| v.as_f64().unwrap());
        assert!(lo == d && hi == d, "{c}");
    }
}

#[test]
fn thousands_of_slices_of_one_query_each() {
    let ctx = TestContext::new();
    // 10,000 in bench/scale/run.sh; 500 here keeps the debug-build test short (the bootstrap
    // engine is unoptimised in a debug build: about 7 ms per one-query slice).
    let n = 500;
    write_data(
        &ctx,
        n,
        |i| format!("g{}", i / 10),
        |i| format!("only-q{i}"),
    );
    // Every slice critical: n + 1 gated slices, each but `all` too small to judge.
    let critical: Vec<String> = (0..n).map(|i| format!("\"s=only-q{i}\"")).collect();
    // `on-small-slice = "warn"`: the verdict then rests on `all` alone (the default fails).
    let extra = format!(
        "critical = [{}]\non-small-slice = \"warn\"",
        critical.join(", ")
    );
    let (code, r) = run_check(&ctx, by_slice("query", "\"s\"", &extra));
    let comps = comparisons(&r);
    assert_eq!(comps.len(), n + 1);
    for c in comps.iter().filter(|c| c["slice"] != "all") {
        assert_eq!(c["n"], 1);
        // One query has no spread: the interval is the point (its gates are too small).
        let [lo, hi, d] = [&c["ci"][0], &c["ci"][1], &c["delta"]].map(|v| v.as_f64().unwrap());
        assert!(lo == d && hi == d, "{c}");
    }
    let gates = r["gates"].as_array().unwrap();
    assert_eq!(gates.len(), n + 1);
    let too_small = gates.iter().filter(|g| g["status"] == "too-small").count();
    // A one-query slice whose query did not move is untouched; every other is too small.
    let untouched = comps
        .iter()
        .filter(|c| c["slice"] != "all" && c["delta"] == 0.0)
        .count();
    assert!(untouched > 0);
    assert_eq!(
        too_small + untouched,
        n,
        "every one-query slice is too small to judge or untouched"
    );
    let all = gates.iter().find(|g| g["slice"] == "all").unwrap();
    assert_ne!(all["status"], "too-small");
    assert_eq!(code, if all["passed"] == true { 0 } else { 1 });
    assert!(comparison(&r, "ndcg@10", "all")["n"] == n);
}
