//! The default interval of a median / p95 gate against an independent computation:
//! scipy's Harrell–Davis quantiles and a brute-force jackknife (`calibration/scipy_harrell_davis.py`,
//! output committed in `tests/data/stats/scipy_harrell_davis.json`). The library's estimate,
//! standard error and bounds, and the report's (`check --format json`), must match to 1e-9 of the
//! data's scale; the interval has no Monte-Carlo error, so any seed and resample count give it.

use crate::support;

use rag_gate::resample::estimate::{estimate, Input};
use rag_gate::stats::harrell_davis;
use rag_gate::stats::interval::IntervalMethod;
use rag_gate::stats::paired_quantile::{members, singletons};
use rag_gate::stats::statistic::Statistic;
use support::{GateFile, TestContext};

fn refs() -> support::scipy::Reference {
    support::scipy::reference(include_str!("../data/stats/scipy_harrell_davis.json"))
}

fn close(got: f64, want: f64, scale: f64, what: &str) {
    assert!(
        (got - want).abs() <= 1e-9 * scale.max(1.0),
        "{what}: rust {got} vs scipy {want}"
    );
}

fn scale(case: &support::scipy::Case) -> f64 {
    case.base
        .iter()
        .chain(&case.cand)
        .fold(0.0f64, |m, v| m.max(v.abs()))
}

fn statistic(p: f64) -> Statistic {
    if p == 0.5 {
        Statistic::Median
    } else {
        Statistic::P95
    }
}

#[test]
fn the_jackknife_t_interval_matches_scipy_and_brute_force() {
    let refs = refs();
    assert_eq!(refs.cases.len(), 6);
    for case in &refs.cases {
        let name = case.name.as_str();
        let p = case.json["p"].as_f64().unwrap();
        let s = scale(case);
        let units = match case.groups() {
            Some((of, g)) => members(of, g),
            None => singletons(case.base.len()),
        };
        let j = harrell_davis::paired_difference(&case.base, &case.cand, &units, p);
        close(
            j.estimate(),
            case.json["estimate"].as_f64().unwrap(),
            s,
            name,
        );
        close(j.se, case.json["se"].as_f64().unwrap(), s, name);
        assert_eq!(j.df, case.json["df"].as_f64().unwrap(), "{name}");
        let want_sides = ["hd_baseline", "hd_candidate"].map(|k| case.json[k].as_f64().unwrap());
        for (k, side) in [&case.base, &case.cand].into_iter().enumerate() {
            close(harrell_davis::quantile(side, p), want_sides[k], s, name);
            close(j.sides[k], want_sides[k], s, name);
        }
        if let Some(sd) = case.json["hdquantiles_sd"].as_f64() {
            close(j.se, sd, s, "hdquantiles_sd");
        }
        // The resample stage's estimate: the same numbers under any seed and resample count.
        for (seed, resamples) in [(1, 200), (99, 5_000)] {
            let e = estimate(
                &Input {
                    base: &case.base,
                    cand: &case.cand,
                    deltas: &case.deltas,
                    groups: case.groups(),
                    statistic: statistic(p),
                    method: IntervalMethod::BootstrapT,
                    confidence: refs.confidence,
                    resamples,
                    seed,
                    names: ["reference", name],
                    tie_epsilon: rag_gate::config::DEFAULT_TIE_EPSILON,
                    cand_runs: &[],
                    few_groups_below: 0.0,
                },
                &[],
                None,
            );
            close(e.estimate, case.json["estimate"].as_f64().unwrap(), s, name);
            for (got, want) in e.sides.iter().zip(want_sides) {
                close(*got, want, s, name);
            }
            let want = case.floats("bounds");
            for (k, want) in want.iter().enumerate() {
                close(e.interval.bounds[k], *want, s, name);
                assert_eq!(e.interval.mc_se[k], 0.0, "{name}");
            }
            assert!(!e.rerun);
        }
    }
}

#[test]
fn percentile_and_bca_keep_the_type_7_bootstrap() {
    use rag_gate::stats::statistic::QuantileEstimator;
    for m in [IntervalMethod::Percentile, IntervalMethod::Bca] {
        assert_eq!(QuantileEstimator::for_method(m), QuantileEstimator::Type7);
    }
    assert_eq!(
        QuantileEstimator::for_method(IntervalMethod::ExpandedPercentile),
        QuantileEstimator::HarrellDavis
    );
    // Under `percentile` the sides are type 7 quantiles and the point estimate their difference.
    let refs = refs();
    let case = &refs.cases[0];
    let e = estimate(
        &Input {
            base: &case.base,
            cand: &case.cand,
            deltas: &case.deltas,
            groups: None,
            statistic: Statistic::Median,
            method: IntervalMethod::Percentile,
            confidence: 0.95,
            resamples: 500,
            seed: 3,
            names: ["reference", "all"],
            tie_epsilon: rag_gate::config::DEFAULT_TIE_EPSILON,
            cand_runs: &[],
            few_groups_below: 0.0,
        },
        &[],
        None,
    );
    let t7 = |x: &[f64]| rag_gate::stats::quantile::quantile_unsorted(&mut x.to_vec(), 0.5);
    assert_eq!(e.sides, [t7(&case.base), t7(&case.cand)]);
    assert_eq!(e.estimate, t7(&case.cand) - t7(&case.base));
}

#[test]
fn the_report_carries_the_same_interval() {
    let refs = refs();
    let case = refs
        .cases
        .iter()
        .find(|c| c.name == "ties-n150-p95")
        .unwrap();
    let ctx = TestContext::new();
    let rows = |v: &[f64]| -> String {
        v.iter()
            .enumerate()
            .map(|(i, x)| format!("{{\"query_id\":\"q{i}\",\"latency_ms\":{x}}}\n"))
            .collect()
    };
    ctx.write("b.jsonl", rows(&case.base));
    ctx.write("c.jsonl", rows(&case.cand));
    ctx.gate(GateFile::new("b.jsonl", "c.jsonl").resamples(300).gate(
        "latency_ms",
        "statistic = \"p95\"\nhigher-is-better = false\nmax-drop = 40",
    ));
    let report = ctx.check_json(&[]).expect(0).json();
    let c = report["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["statistic"] == "p95")
        .unwrap();
    let s = scale(case);
    close(
        c["estimate"].as_f64().unwrap(),
        case.json["estimate"].as_f64().unwrap(),
        s,
        "report",
    );
    close(
        c["baseline_value"].as_f64().unwrap(),
        case.json["hd_baseline"].as_f64().unwrap(),
        s,
        "report",
    );
    close(
        c["candidate_value"].as_f64().unwrap(),
        case.json["hd_candidate"].as_f64().unwrap(),
        s,
        "report",
    );
    let want = case.floats("bounds");
    for k in 0..2 {
        close(c["ci"][k].as_f64().unwrap(), want[k], s, "report");
    }
}

/// A p95 on fewer than 100 queries rests on its top 1–4 values (its interval misses 4–5% per side
/// at 30–50 queries): check does not judge it, says why, and on `all` the build fails; the
/// median of the same queries is judged.
#[test]
fn a_p95_on_too_few_queries_is_not_judged() {
    let ctx = TestContext::new();
    let rows = |shift: f64| -> String {
        (0..60)
            .map(|i| {
                let v = 100.0 + ((i * 37) % 60) as f64 + shift * ((i % 3) as f64);
                format!("{{\"query_id\":\"q{i}\",\"latency_ms\":{v}}}\n")
            })
            .collect()
    };
    ctx.write("b.jsonl", rows(0.0));
    ctx.write("c.jsonl", rows(0.5));
    let run = |statistic: &str| {
        ctx.gate(GateFile::new("b.jsonl", "c.jsonl").gate(
            "latency_ms",
            &format!("statistic = \"{statistic}\"\nhigher-is-better = false\nmax-drop = 50"),
        ));
        ctx.check_json(&[]).verdict_json()
    };
    let (code, report) = run("p95");
    assert_eq!(code, 1);
    let g = &report["gates"][0];
    assert_eq!(g["status"], "too-small", "{g}");
    assert_eq!(g["decided_by"], "not judged: too small for its quantile");
    let detail = g["detail"].as_str().unwrap();
    assert!(
        detail.contains("60 queries < 100, the fewest a p95 is judged on (5 beyond its quantile)"),
        "{detail}"
    );
    let headline = report["headline"].as_str().unwrap();
    assert!(headline.contains("not judged"), "{headline}");
    let (code, report) = run("median");
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["gates"][0]["status"], "pass");
}

/// Pooled attempts (a re-run of a median or p95 gate): the candidate's runs stacked, against
/// scipy's Harrell–Davis quantiles and a brute-force cluster jackknife
/// (`calibration/scipy_harrell_davis_stacked.py`, output committed in
/// `tests/data/stats/scipy_harrell_davis_stacked.json`).
#[test]
fn the_stacked_runs_interval_matches_scipy_and_brute_force() {
    let refs: serde_json::Value = serde_json::from_str(include_str!(
        "../data/stats/scipy_harrell_davis_stacked.json"
    ))
    .unwrap();
    let floats = |v: &serde_json::Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let cases = refs["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 5);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let p = case["p"].as_f64().unwrap();
        let base = floats(&case["baseline"]);
        let runs: Vec<Vec<f64>> = case["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(floats)
            .collect();
        let units = match case["group_of"].as_array() {
            Some(g) => {
                let of: Vec<u32> = g.iter().map(|v| v.as_u64().unwrap() as u32).collect();
                let groups = *of.iter().max().unwrap() as usize + 1;
                members(&of, groups)
            }
            None => singletons(base.len()),
        };
        let s = base
            .iter()
            .chain(runs.iter().flatten())
            .fold(0.0f64, |m, v| m.max(v.abs()));
        let j = harrell_davis::pooled_difference(&base, &runs, &units, p);
        close(j.sides[0], case["hd_baseline"].as_f64().unwrap(), s, name);
        close(j.sides[1], case["hd_candidate"].as_f64().unwrap(), s, name);
        close(j.estimate(), case["estimate"].as_f64().unwrap(), s, name);
        close(j.se, case["se"].as_f64().unwrap(), s, name);
        assert_eq!(j.df, case["df"].as_f64().unwrap(), "{name}");
        let want = floats(&case["bounds"]);
        let got = j.interval(0.95);
        close(got[0], want[0], s, name);
        close(got[1], want[1], s, name);
    }
}
