//! What a gate file can pass, told before its verdict: a `fail-if-significant-drop` that
//! cannot fire because of the resamples (the sign-flip test's resample floor, not the data)
//! says so and names the resamples that lift it; a gate file whose margins make a no-op PR
//! unlikely to pass its many comparisons warns with the chance and what would let it pass.

use crate::support;

use serde_json::Value;
use support::output::{assert_contains, warnings};
use support::{example_with_cards, GateFile, TestContext};

const METRICS: [&str; 3] = ["ndcg@10", "recall@10", "mrr"];

/// 20 topics of `per` queries each, three metrics; the candidate is the baseline plus a
/// symmetric wobble of amplitude `wobble` (six of every seven queries move, the mean barely).
fn data(ctx: &TestContext, per: usize, wobble: f64) {
    let (mut b, mut c) = (String::new(), String::new());
    for q in 0..20 * per {
        let topic = q % 20;
        let (mut bm, mut cm) = (Vec::new(), Vec::new());
        for (k, m) in METRICS.iter().enumerate() {
            let x = 0.3 + 0.4 * (((q + 11 * k) * 37 % 101) as f64 / 101.0);
            let w = wobble * (((q / 20 + k) * 13 % 7) as f64 - 3.0) / 3.0;
            bm.push(format!("\"{m}\": {x}"));
            cm.push(format!("\"{m}\": {}", x + w));
        }
        let tags = format!("\"slices\": {{\"topic\": \"t{topic}\"}}");
        b.push_str(&format!(
            "{{\"query_id\": \"q{q}\", {tags}, {}}}\n",
            bm.join(", ")
        ));
        c.push_str(&format!(
            "{{\"query_id\": \"q{q}\", {tags}, {}}}\n",
            cm.join(", ")
        ));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
}

/// A gate on each metric over `all` and the 20 topics (63 comparisons), with `rule`.
fn every_topic(resamples: usize, rule: &str) -> GateFile {
    let critical: Vec<String> = (0..20).map(|t| format!("\"topic=t{t}\"")).collect();
    let mut gate = GateFile::new("b.jsonl", "c.jsonl")
        .resamples(resamples)
        .table(
            "slices",
            &format!(
                "by = [\"topic\"]\ncritical = [{}]\non-small-slice = \"warn\"",
                critical.join(", ")
            ),
        );
    for m in METRICS {
        gate = gate.gate(m, &format!("slices = \"critical\"\n{rule}"));
    }
    gate
}

#[test]
fn a_resample_floor_is_named_with_the_resamples_that_lift_it() {
    // Holm over 63 comparisons needs p < 0.05/63 = 0.000794; 1000 resamples cannot go below
    // 1/1001 = 0.000999, however many queries moved (680 on all).
    let ctx = TestContext::new();
    data(&ctx, 40, 0.02);
    ctx.gate(every_topic(1000, "fail-if-significant-drop = 0.0"));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(1), "{}{}", o.stdout, o.stderr);
    let r = o.json();
    let headline = r["headline"].as_str().unwrap();
    assert_contains(
        headline,
        "on all: fail-if-significant-drop cannot fire at 1000 resamples, the sign-flip test's resample floor 1/(1000 + 1) is above Holm's p < 0.000794 over 63 comparisons (680 queries moved (delta beyond tie-epsilon)); set [bootstrap] resamples to 1260 or more",
    );
    assert!(!headline.contains("add queries"), "{headline}");
    let g = &r["gates"][0];
    assert_eq!(g["status"], "too-small", "{g}");
    assert_eq!(
        g["decided_by"],
        "not judged: too few resamples for the sign-flip test"
    );
    assert_contains(
        g["detail"].as_str().unwrap(),
        "the resample floor, not the data",
    );
    // The resamples it names lift the floor: every check is judged and passes.
    ctx.gate(every_topic(1260, "fail-if-significant-drop = 0.0"));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(0), "{}{}", o.stdout, o.stderr);
    let r = o.json();
    assert!(
        r["gates"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["status"] == "pass"),
        "{}",
        r["headline"]
    );
}

/// The shipped example's quality gate and a run-level latency gate `max-increase = "10%"` on
/// cards of these latency measurements: the report.
fn welch_check(ctx: &TestContext, base: &[f64], cand: &[f64]) -> Value {
    let card = |ms: &[f64]| {
        format!(
            "{{\"model\": {{\"id\": \"m\"}}, \"conditions\": {{\"hardware\": \"h\"}}, \"metrics\": {{\"query-latency-ms\": {ms:?}}}}}"
        )
    };
    ctx.write("b.card.json", card(base));
    ctx.write("c.card.json", card(cand));
    ctx.gate(example_with_cards().gate("query-latency-ms", "max-increase = \"10%\""));
    ctx.check_json(&[]).verdict_json().1
}

/// The measurements a side the Welch warning says would let a no-op pass.
fn measurements_named(w: &str) -> usize {
    let rest = &w[w.find("judging; about ").expect(w) + "judging; about ".len()..];
    rest.split(' ').next().unwrap().parse().expect(w)
}

#[test]
fn a_welch_gate_with_three_measurements_at_cv_10_percent_warns_before_judging() {
    // Three measurements a side with a spread of about 10% of the mean, no true change: a
    // no-op passes a 10% max-increase about 10% of the time; about 16 a side would let it
    // pass 80% (an outside audit put a no-op pass at ~19 a side for CV 10%).
    let ctx = TestContext::new();
    let base = [100.0, 110.0, 90.0];
    let cand = [108.0, 92.0, 100.0];
    let r = welch_check(&ctx, &base, &cand);
    let w: Vec<String> = warnings(&r)
        .into_iter()
        .filter(|w| w.contains("run-level gate #2 query-latency-ms max-increase 10.0%"))
        .collect();
    assert_eq!(w.len(), 1, "{:?}", warnings(&r));
    assert_contains(
        &w[0],
        "with 3 and 3 measurements (a spread of 10.0% and 8.0% of the mean (SD over mean)) a candidate that changes nothing passes about",
    );
    let n = measurements_named(&w[0]);
    assert!((12..=30).contains(&n), "{n}: {}", w[0]);
    // With that many measurements of the same spread, no warning.
    let many = |x: &[f64; 3]| -> Vec<f64> { (0..n).map(|i| x[i % 3]).collect() };
    let r = welch_check(&ctx, &many(&base), &many(&cand));
    assert!(
        !warnings(&r).iter().any(|w| w.contains("run-level gate #2")),
        "{:?}",
        warnings(&r)
    );
}

#[test]
fn a_welch_gate_reads_the_change_of_means_the_metrics_table_shows() {
    // A noisier candidate: its geometric mean (103.9) is below its arithmetic one (106). The gate
    // reads the ratio of the arithmetic means, the change the metrics table shows (+6.0%), so
    // the two are one quantity.
    let ctx = TestContext::new();
    let r = welch_check(
        &ctx,
        &[100.0, 101.0, 99.0, 100.0, 100.0],
        &[80.0, 140.0, 100.0, 90.0, 120.0],
    );
    let g = &r["efficiency"]["gates"][0];
    let detail = g["detail"].as_str().unwrap();
    assert_contains(detail, "100 → 106: +6.0% (upper bound");
    assert!(!detail.contains("geometric"), "{detail}");
    assert_contains(
        g["decided_by"].as_str().unwrap(),
        "t interval of the ratio of means, on its log (delta method, Hsu's df)",
    );
    let m = r["efficiency"]["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["metric"] == "query-latency-ms")
        .unwrap();
    let table = m["relative_change"].as_f64().unwrap();
    assert!((table - 0.06).abs() < 1e-9, "{m}");
    assert!((g["value"].as_f64().unwrap() - table).abs() < 1e-12, "{g}");
}

#[test]
fn sixty_three_comparisons_at_tight_margins_warn_that_a_no_op_is_unlikely_to_pass() {
    // Deltas of SD 0.013 on 40 queries a slice: a slice's standard error is 0.0021, and
    // max-drop = 0.005 is about 2.4 of them; 63 such checks pass a no-op almost never.
    let ctx = TestContext::new();
    data(&ctx, 40, 0.02);
    ctx.gate(every_topic(200, "max-drop = 0.005"));
    let o = ctx.check_json(&[]);
    let r = o.json();
    let w: Vec<String> = warnings(&r)
        .into_iter()
        .filter(|w| {
            w.starts_with("a PR that moves queries with no effect on the mean is unlikely to pass")
        })
        .collect();
    assert_eq!(w.len(), 1, "{:?}", warnings(&r));
    assert_contains(
        &w[0],
        "63 max-drop / max-change checks must all pass, and from each comparison's standard error (before resampling, the comparisons taken as independent) such a change passes all of them about under 0.1% of the time; to pass one 80.0% of the time: gate #1 ndcg@10 max-drop ",
    );
    assert_contains(&w[0], "(now 0.0050); gate #2 recall@10 max-drop ");
    assert_contains(
        &w[0],
        "per slice at today's margins (the smallest gated slice has 40)",
    );
    // The margins it names let a no-op pass: at the widest one, no warning.
    let widest = w[0]
        .split(" max-drop ")
        .filter_map(|s| s.split(' ').next().unwrap().parse::<f64>().ok())
        .fold(0.0, f64::max);
    assert!(widest > 0.005 && widest < 0.02, "{widest}: {}", w[0]);
    ctx.gate(every_topic(200, &format!("max-drop = {widest}")));
    let o = ctx.check_json(&[]);
    let r = o.json();
    assert!(
        !warnings(&r).iter().any(|w| w.contains("unlikely to pass")),
        "{:?}",
        warnings(&r)
    );
    // So do the queries per slice it names.
    let per: usize = w[0]
        .split("or about ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .expect(&w[0]);
    assert!(per > 40 && per < 200, "{per}");
    data(&ctx, per, 0.02);
    ctx.gate(every_topic(200, "max-drop = 0.005"));
    let o = ctx.check_json(&[]);
    assert!(
        !warnings(&o.json())
            .iter()
            .any(|w| w.contains("unlikely to pass")),
        "{:?}",
        warnings(&o.json())
    );
}
