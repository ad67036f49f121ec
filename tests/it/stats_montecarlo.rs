//! Monte-Carlo honesty: a bound within 3 Monte-Carlo standard errors of a threshold is re-run
//! with 10× the resamples on a derived stream; a bound far from every threshold is not.

use rag_gate::resample::estimate::{estimate, BoundCheck, Estimate, Input};
use rag_gate::resample::{CLOSE_CALL_SE, RERUN_FACTOR};
use rag_gate::stats::interval::IntervalMethod;
use rag_gate::stats::statistic::Statistic;

fn run(deltas: &[f64], checks: &[BoundCheck]) -> Estimate {
    let base = vec![0.5; deltas.len()];
    let cand: Vec<f64> = deltas.iter().map(|d| 0.5 + d).collect();
    estimate(
        &Input {
            base: &base,
            cand: &cand,
            deltas,
            groups: None,
            statistic: Statistic::Mean,
            method: IntervalMethod::Percentile,
            confidence: 0.95,
            resamples: 1000,
            seed: 17,
            names: ["ndcg@10", "all"],
            tie_epsilon: rag_gate::config::DEFAULT_TIE_EPSILON,
            cand_runs: &[],
            few_groups_below: 0.0,
        },
        checks,
        None,
    )
}

#[test]
fn a_close_call_is_rerun_with_ten_times_the_resamples() {
    let deltas: Vec<f64> = (0..150)
        .map(|i| ((i * 29 % 61) as f64 - 28.0) / 200.0)
        .collect();
    let plain = run(&deltas, &[]);
    assert!(!plain.rerun);
    assert_eq!(plain.resamples_used, 1000);
    let [lo, _] = plain.interval.bounds;
    let se = plain.interval.mc_se[0];
    assert!(se > 0.0);

    // Threshold one MC standard error from the low bound: a close call.
    let close = run(
        &deltas,
        &[BoundCheck {
            bound: 0,
            threshold: lo + se,
        }],
    );
    assert!(close.rerun);
    assert_eq!(close.resamples_used, 1000 * RERUN_FACTOR);
    // More resamples, smaller MC error; same point estimate; deterministic.
    assert!(close.interval.mc_se[0] < se);
    assert_eq!(close.estimate, plain.estimate);
    let again = run(
        &deltas,
        &[BoundCheck {
            bound: 0,
            threshold: lo + se,
        }],
    );
    assert_eq!(again.interval.bounds, close.interval.bounds);

    // Far from the threshold (10 SE): decided on the first run.
    let far = run(
        &deltas,
        &[BoundCheck {
            bound: 0,
            threshold: lo - 10.0 * CLOSE_CALL_SE * se,
        }],
    );
    assert!(!far.rerun);
    assert_eq!(far.interval.bounds, plain.interval.bounds);
}
