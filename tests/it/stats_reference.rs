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

use crate::support;

use rag_gate::resample::estimate::{estimate, Input};
use rag_gate::stats::interval::IntervalMethod;
use rag_gate::stats::statistic::Statistic;

const RESAMPLES: usize = 20_000;

#[test]
fn percentile_and_bca_match_scipy_within_monte_carlo_error() {
    let refs = support::scipy::reference(include_str!("../data/stats/scipy_reference.json"));
    let b_scipy = refs.resamples;
    assert_eq!(refs.cases.len(), 4);
    for case in &refs.cases {
        let name = case.name.as_str();
        let (base, cand, deltas) = (&case.base, &case.cand, &case.deltas);
        let groups = case.groups();
        let statistic = match case.json["statistic"].as_str().unwrap() {
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
                    base,
                    cand,
                    deltas,
                    groups,
                    statistic,
                    method,
                    confidence: refs.confidence,
                    resamples: RESAMPLES,
                    seed: 5,
                    names: ["reference", name],
                    tie_epsilon: rag_gate::config::DEFAULT_TIE_EPSILON,
                    cand_runs: &[],
                    few_groups_below: 0.0,
                },
                &[],
                None,
            );
            let want = case.floats(key);
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
