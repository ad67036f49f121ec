//! Property tests of the whole analysis (through the library, in process) and of the bootstrap:
//! - permuting the lines of any input changes nothing in the JSON report;
//! - swapping baseline and candidate negates every delta and every CI bound, swaps the means and
//!   wins ↔ losses (the bootstrap draws the same indices, so its distribution is negated exactly;
//!   the percentile interpolation is not antisymmetric in floating point, so the bounds agree to
//!   1e-12, not bit for bit — see `bootstrap_of_negated_deltas_is_exactly_negated`);
//! - wins + ties + losses = n for every comparison;
//! - a constant delta gives a zero-width interval at that value;
//! - the interval contains the sample mean delta.

use std::path::Path;

use clap::Parser;
use proptest::prelude::*;
use rag_gate::stats::bootstrap::{bootstrap_means, Units};
use rag_gate::stats::streams::stream_key;
use serde_json::Value;

/// One query: id, group, language, baseline and candidate values of two metrics.
#[derive(Debug, Clone)]
struct Q {
    id: String,
    group: u8,
    lang: &'static str,
    b: [f64; 2],
    c: [f64; 2],
}

fn query_strategy() -> impl Strategy<Value = Vec<Q>> {
    // Values on a dyadic grid keep the sums exact, so every property can be checked exactly
    // where it should hold exactly.
    let one = (
        0u8..6,
        prop::sample::select(vec!["en", "ko", "fr"]),
        [0u32..=64, 0u32..=64],
        [0u32..=64, 0u32..=64],
    );
    prop::collection::vec(one, 1..40).prop_map(|v| {
        v.into_iter()
            .enumerate()
            .map(|(i, (group, lang, b, c))| Q {
                id: format!("q{i}"),
                group,
                lang,
                b: b.map(|k| f64::from(k) / 64.0),
                c: c.map(|k| f64::from(k) / 64.0),
            })
            .collect()
    })
}

fn metric_lines(qs: &[Q], cand: bool) -> Vec<String> {
    qs.iter()
        .map(|q| {
            let v = if cand { q.c } else { q.b };
            format!(
                "{{\"query_id\":\"{}\",\"ndcg@10\":{},\"latency_ms\":{}}}",
                q.id,
                v[0],
                v[1] * 100.0
            )
        })
        .collect()
}

fn query_lines(qs: &[Q]) -> Vec<String> {
    qs.iter()
        .map(|q| {
            format!(
                "{{\"query_id\":\"{}\",\"group\":\"g{}\",\"slices\":{{\"lang\":\"{}\"}}}}",
                q.id, q.group, q.lang
            )
        })
        .collect()
}

fn write(dir: &Path, name: &str, lines: &[String]) {
    std::fs::write(dir.join(name), lines.join("\n") + "\n").unwrap();
}

/// `rag-gate compare b c --queries q --by lang --format json` in process; the parsed report.
fn compare(dir: &Path, b: &str, c: &str, unit: &str) -> Value {
    let p = |n: &str| dir.join(n).display().to_string();
    let args = [
        "rag-gate".to_string(),
        "compare".into(),
        p(b),
        p(c),
        "--queries".into(),
        p("q.jsonl"),
        "--by".into(),
        "lang".into(),
        "--unit".into(),
        unit.into(),
        "--resamples".into(),
        "300".into(),
        "--format".into(),
        "json".into(),
        // The properties are about the maths, read as higher-is-better for both columns.
        "--higher-is-better".into(),
        "latency_ms".into(),
    ];
    let out = rag_gate::run(rag_gate::cli::Cli::parse_from(args)).expect("valid input");
    assert_eq!(out.exit_code, 0);
    serde_json::from_str(&out.stdout).unwrap()
}

fn comparisons(r: &Value) -> &Vec<Value> {
    r["comparisons"].as_array().unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn permuting_input_lines_changes_nothing(
        (qs, pb, pc, pq) in query_strategy().prop_flat_map(|qs| {
            let n = qs.len();
            let idx: Vec<usize> = (0..n).collect();
            (Just(qs), Just(idx.clone()).prop_shuffle(), Just(idx.clone()).prop_shuffle(), Just(idx).prop_shuffle())
        }),
        unit in prop::sample::select(vec!["query", "group"]),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let (b, c, q) = (metric_lines(&qs, false), metric_lines(&qs, true), query_lines(&qs));
        write(dir.path(), "b.jsonl", &b);
        write(dir.path(), "c.jsonl", &c);
        write(dir.path(), "q.jsonl", &q);
        let before = compare(dir.path(), "b.jsonl", "c.jsonl", unit);
        let perm = |v: &[String], p: &[usize]| p.iter().map(|&i| v[i].clone()).collect::<Vec<_>>();
        write(dir.path(), "b2.jsonl", &perm(&b, &pb));
        write(dir.path(), "c2.jsonl", &perm(&c, &pc));
        write(dir.path(), "q.jsonl", &perm(&q, &pq));
        let mut after = compare(dir.path(), "b2.jsonl", "c2.jsonl", unit);
        // The input paths are reported as given; everything else must be identical.
        after["inputs"] = before["inputs"].clone();
        prop_assert_eq!(before, after);
    }

    #[test]
    fn swapping_sides_negates_deltas_and_intervals(qs in query_strategy(), unit in prop::sample::select(vec!["query", "group"])) {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "b.jsonl", &metric_lines(&qs, false));
        write(dir.path(), "c.jsonl", &metric_lines(&qs, true));
        write(dir.path(), "q.jsonl", &query_lines(&qs));
        let fwd = compare(dir.path(), "b.jsonl", "c.jsonl", unit);
        let rev = compare(dir.path(), "c.jsonl", "b.jsonl", unit);
        let (a, z) = (comparisons(&fwd), comparisons(&rev));
        prop_assert_eq!(a.len(), z.len());
        for (x, y) in a.iter().zip(z) {
            prop_assert_eq!(&x["metric"], &y["metric"]);
            prop_assert_eq!(&x["slice"], &y["slice"]);
            prop_assert_eq!(f(&x["delta"]), -f(&y["delta"]), "delta of {}", x["slice"]);
            prop_assert_eq!(f(&x["baseline_mean"]), f(&y["candidate_mean"]));
            prop_assert_eq!(&x["wins"], &y["losses"]);
            prop_assert_eq!(&x["ties"], &y["ties"]);
            let (lo, hi) = (f(&x["ci"][0]), f(&x["ci"][1]));
            let (lo2, hi2) = (f(&y["ci"][0]), f(&y["ci"][1]));
            let tol = 1e-12 * (1.0 + lo.abs().max(hi.abs()));
            prop_assert!((lo + hi2).abs() <= tol && (hi + lo2).abs() <= tol, "[{lo}, {hi}] vs [{lo2}, {hi2}]");
        }
    }

    #[test]
    fn win_tie_loss_add_up_and_the_interval_holds_the_mean(qs in query_strategy()) {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "b.jsonl", &metric_lines(&qs, false));
        write(dir.path(), "c.jsonl", &metric_lines(&qs, true));
        write(dir.path(), "q.jsonl", &query_lines(&qs));
        let r = compare(dir.path(), "b.jsonl", "c.jsonl", "query");
        for c in comparisons(&r) {
            let n = c["n"].as_u64().unwrap();
            let sum = c["wins"].as_u64().unwrap() + c["ties"].as_u64().unwrap() + c["losses"].as_u64().unwrap();
            prop_assert_eq!(sum, n, "{}", c);
            let (lo, hi, d) = (f(&c["ci"][0]), f(&c["ci"][1]), f(&c["delta"]));
            prop_assert!(lo <= hi);
            prop_assert!(lo - 1e-12 <= d && d <= hi + 1e-12, "delta {d} outside [{lo}, {hi}]");
        }
        prop_assert_eq!(r["pairing"]["paired"].as_u64().unwrap() as usize, qs.len());
    }

    #[test]
    fn a_constant_delta_gives_the_point_as_its_interval(
        qs in query_strategy(),
        shift in -32i32..=32,
        unit in prop::sample::select(vec!["query", "group"]),
    ) {
        // Candidate = baseline + shift/64 on an unbounded metric (so no value leaves [0, 1]).
        let step = f64::from(shift) / 64.0;
        let qs: Vec<Q> = qs.into_iter().map(|mut q| { q.c = [q.b[0], q.b[1] + step]; q }).collect();
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "b.jsonl", &metric_lines(&qs, false));
        write(dir.path(), "c.jsonl", &metric_lines(&qs, true));
        write(dir.path(), "q.jsonl", &query_lines(&qs));
        let r = compare(dir.path(), "b.jsonl", "c.jsonl", unit);
        // Every unit on one value (nothing moved on ndcg@10, every latency moved alike): no
        // spread, so the interval is the point; nothing moved reads untouched.
        for c in comparisons(&r).iter().filter(|c| c["metric"] == "latency_ms") {
            let (lo, hi, d) = (f(&c["ci"][0]), f(&c["ci"][1]), f(&c["delta"]));
            prop_assert!((d - step * 100.0).abs() <= 1e-9, "delta {} for a shift of {}", d, step * 100.0);
            prop_assert!((lo - d).abs() <= 1e-9 * (1.0 + d.abs()), "{}", c);
            prop_assert!((hi - d).abs() <= 1e-9 * (1.0 + d.abs()), "{}", c);
            prop_assert_eq!(c["untouched"].as_bool(), Some(shift == 0));
        }
        for c in comparisons(&r).iter().filter(|c| c["metric"] == "ndcg@10") {
            prop_assert_eq!(f(&c["ci"][0]), 0.0, "{}", c);
            prop_assert_eq!(f(&c["ci"][1]), 0.0, "{}", c);
            prop_assert_eq!(c["untouched"].as_bool(), Some(true));
            prop_assert_eq!(c["ties"].as_u64(), c["n"].as_u64());
        }
    }

    #[test]
    fn bootstrap_of_negated_deltas_is_exactly_negated(
        d in prop::collection::vec(-1.0f64..1.0, 1..60),
        seed in any::<u64>(),
        resamples in 1usize..700,
    ) {
        let key = stream_key(seed, &["bootstrap", "m", "all"]);
        let neg: Vec<f64> = d.iter().map(|x| -x).collect();
        let a = bootstrap_means(Units::Queries(&d), resamples, key);
        let b = bootstrap_means(Units::Queries(&neg), resamples, key);
        for (x, y) in a.iter().zip(&b) {
            prop_assert_eq!(*x, -*y);
        }
    }
}
