//! Quantile gates through the binary: their report lines say what the interval is of ("the
//! difference p95 of candidate − p95 of baseline", not the p95 of the per-query changes), and a
//! quantile sitting on an atom (at least 5% of each side's values equal to it, as nDCG's ceiling
//! under a p95) does not pass `max-drop`: it is not judged, with the reason.

use crate::support;

use support::output::{assert_contains, warnings};
use support::{GateFile, TestContext};

/// 200 queries of `metric`: the baseline spread over [0.3, 0.9], except every `ceiling`-th
/// query at 1.0 (none when 0); the candidate the same with a small symmetric wobble off the
/// ceiling.
fn data(ctx: &TestContext, metric: &str, ceiling: usize, scale: f64) {
    let (mut b, mut c) = (String::new(), String::new());
    for q in 0..200 {
        let at_top = ceiling > 0 && q % ceiling == 0;
        let x = if at_top {
            1.0
        } else {
            0.3 + 0.6 * ((q * 37 % 199) as f64 / 199.0)
        };
        let w = if at_top {
            0.0
        } else {
            0.01 * ((q * 13 % 7) as f64 - 3.0) / 3.0
        };
        b.push_str(&format!(
            "{{\"query_id\": \"q{q}\", \"{metric}\": {}}}\n",
            scale * x
        ));
        c.push_str(&format!(
            "{{\"query_id\": \"q{q}\", \"{metric}\": {}}}\n",
            scale * (x + w)
        ));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
}

/// One `[[gate]]` with `keys`.
fn one_gate(keys: &str) -> GateFile {
    GateFile::new("b.jsonl", "c.jsonl")
        .resamples(200)
        .gates_raw(&format!("[[gate]]\n{keys}"))
}

#[test]
fn a_p95_gate_says_it_compares_the_p95_of_each_side() {
    let ctx = TestContext::new();
    data(&ctx, "latency_ms", 0, 100.0);
    ctx.gate(one_gate("metric = \"latency_ms\"\nhigher-is-better = false\nstatistic = \"p95\"\nmax-drop = 5.0\nmax-change = 5.0"));
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 0, "{}", r["headline"]);
    let detail = |rule: &str| {
        r["gates"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["rule"] == rule)
            .unwrap()["detail"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_contains(
        &detail("max-drop"),
        "non-inferiority: the CI upper bound of the difference p95 of candidate − p95 of baseline must be ≤ +5.0000",
    );
    assert_contains(
        &detail("max-change"),
        "of the difference p95 of candidate − p95 of baseline lies inside (−5.0000, +5.0000)",
    );
    // Off an atom: no atom warning.
    assert!(
        !warnings(&r).iter().any(|w| w.contains("atom")),
        "{:?}",
        warnings(&r)
    );
}

#[test]
fn a_p95_on_the_ceiling_atom_is_inconclusive_and_says_why() {
    // Every 10th query at nDCG's ceiling 1.0 on both sides: the p95 is 1.0 on 10% of values.
    // Undecided on this sample, with an observed mean delta above −m/2: inconclusive, exit 0.
    let ctx = TestContext::new();
    data(&ctx, "ndcg@10", 10, 1.0);
    ctx.gate(one_gate(
        "metric = \"ndcg@10\"\nstatistic = \"p95\"\nmax-drop = 0.05",
    ));
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 0, "{}", r["headline"]);
    assert_eq!(r["verdict"], "inconclusive");
    let g = &r["gates"][0];
    assert_eq!(g["status"], "inconclusive", "{g}");
    assert_eq!(
        g["decided_by"],
        "inconclusive: the quantile sits on an atom"
    );
    assert_contains(
        r["headline"].as_str().unwrap(),
        "INCONCLUSIVE: gate #1 max-drop, ndcg@10 p95 on all: inconclusive, the p95 sits on an atom: 10.0% of the baseline's and 10.0% of the candidate's values equal their p95 (1.0000 and 1.0000; 5.0% or more on both sides is an atom), so the difference p95 of candidate − p95 of baseline cannot see a change in the tail beyond it",
    );
    // A median off the atom on the same data is judged (and passes).
    ctx.gate(one_gate(
        "metric = \"ndcg@10\"\nstatistic = \"median\"\nmax-drop = 0.05",
    ));
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 0, "{}", r["headline"]);
    // A rule whose pass does not claim the tail unharmed is judged, with the atom named.
    ctx.gate(one_gate(
        "metric = \"ndcg@10\"\nstatistic = \"p95\"\nfail-if-significant-drop = 0.0",
    ));
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 0, "{}", r["headline"]);
    assert!(
        warnings(&r).iter().any(|w| w.starts_with(
            "gate #1 ndcg@10 p95 on all, fail-if-significant-drop: the p95 sits on an atom"
        )),
        "{:?}",
        warnings(&r)
    );
}
