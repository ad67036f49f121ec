//! Percentile and BCa intervals against an independent implementation: scipy.stats.bootstrap
//! (paired, same method), from `calibration/scipy_reference.py`, whose output is committed in
//! `tests/data/stats/scipy_reference.json`. Agreement is required within the Monte-Carlo error
//! of both sides: 4 combined standard errors of the bound (Rust's from its own resamples,
//! scipy's scaled by √(B_rust / B_scipy)). The median's bootstrap distribution is discrete (the
//! data are rounded to 0.001 and n is odd, so every resample's median difference lies on a 0.001
//! grid): there the order-statistic MC error can be 0 on a plateau while the BCa level itself
//! moves with the resamples, so one grid step is also allowed. A BCa bound also carries the
//! Monte-Carlo noise of ẑ₀ (the share of resamples below the estimate), which the
//! order-statistic error leaves out: BCa bounds get 6 standard errors instead of 4.

use rag_gate::resample::estimate::{estimate, Input};
use rag_gate::stats::interval::IntervalMethod;
use rag_gate::stats::statistic::Statistic;
use serde_json::Value;

const RESAMPLES: usize = 20_000;

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn percentile_and_bca_match_scipy_within_monte_carlo_error() {
    let text = include_str!("data/stats/scipy_reference.json");
    let refs: Value = serde_json::from_str(text).unwrap();
    let b_scipy = refs["resamples"].as_f64().unwrap();
    let cases = refs["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 4);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let base = floats(&case["baseline"]);
        let cand = floats(&case["candidate"]);
        let deltas: Vec<f64> = cand.iter().zip(&base).map(|(c, b)| c - b).collect();
        let group_of: Option<Vec<u32>> = case["group_of"]
            .as_array()
            .map(|g| g.iter().map(|x| x.as_u64().unwrap() as u32).collect());
        let groups = group_of
            .as_ref()
            .map(|g| (g.as_slice(), *g.iter().max().unwrap() as usize + 1));
        let statistic = match case["statistic"].as_str().unwrap() {
            "mean" => Statistic::Mean,
            "median" => Statistic::Median,
            _ => Statistic::P95,
        };
        let grid = if statistic == Statistic::Median {
            0.001
        } else {
            0.0
        };
        for (method, key, z) in [
            (IntervalMethod::Percentile, "percentile", 4.0),
            (IntervalMethod::Bca, "bca", 6.0),
        ] {
            let e = estimate(
                &Input {
                    base: &base,
                    cand: &cand,
                    deltas: &deltas,
                    groups,
                    statistic,
                    method,
                    confidence: refs["confidence"].as_f64().unwrap(),
                    resamples: RESAMPLES,
                    seed: 5,
                    names: ["reference", name],
                },
                &[],
                None,
            );
            let want = floats(&case[key]);
            for (k, want) in want.iter().enumerate() {
                let se = e.interval.mc_se[k] * (1.0 + RESAMPLES as f64 / b_scipy).sqrt();
                let got = e.interval.bounds[k];
                assert!(
                    (got - want).abs() <= (z * se).max(grid) + 1e-12,
                    "{name} {key} bound {k}: rust {got} vs scipy {want} (MC se {se})"
                );
            }
        }
    }
}
