//! Property tests of the paired statistics, through the same estimate the report uses.

use proptest::prelude::*;
use rag_gate::resample::estimate::{estimate, Estimate, Input};
use rag_gate::stats::describe::{mean, win_tie_loss};
use rag_gate::stats::interval::IntervalMethod;
use rag_gate::stats::statistic::Statistic;

fn run(
    base: &[f64],
    cand: &[f64],
    groups: Option<(&[u32], usize)>,
    statistic: Statistic,
    method: IntervalMethod,
) -> Estimate {
    let deltas: Vec<f64> = cand.iter().zip(base).map(|(c, b)| c - b).collect();
    estimate(
        &Input {
            base,
            cand,
            deltas: &deltas,
            groups,
            statistic,
            method,
            confidence: 0.95,
            resamples: 1000,
            seed: 7,
            names: ["m", "all"],
            tie_epsilon: rag_gate::config::DEFAULT_TIE_EPSILON,
            cand_runs: &[],
            few_groups_below: 0.0,
        },
        &[],
        None,
    )
}

fn pairs() -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    (2usize..40).prop_flat_map(|n| {
        (
            prop::collection::vec(0.0f64..1.0, n),
            prop::collection::vec(0.0f64..1.0, n),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn percentile_ci_contains_the_mean_delta((base, cand) in pairs()) {
        let d: Vec<f64> = cand.iter().zip(&base).map(|(c, b)| c - b).collect();
        prop_assume!(d.iter().any(|&x| (x - d[0]).abs() > 1e-9));
        let e = run(&base, &cand, None, Statistic::Mean, IntervalMethod::Percentile);
        let m = mean(&d);
        prop_assert!(e.interval.bounds[0] <= m && m <= e.interval.bounds[1], "{:?} vs {m}", e.interval.bounds);
        prop_assert!((e.estimate - m).abs() < 1e-12);
    }

    #[test]
    fn a_constant_delta_gives_the_point_as_its_interval(base in prop::collection::vec(0.0f64..1.0, 2..40), shift in -0.5f64..0.5) {
        let shift = (shift * 1024.0).round() / 1024.0; // exact in binary: every delta is equal
        let base: Vec<f64> = base.iter().map(|b| (b * 1024.0).round() / 1024.0).collect();
        let cand: Vec<f64> = base.iter().map(|b| b + shift).collect();
        let group_of: Vec<u32> = (0..base.len() as u32).map(|i| i / 3).collect();
        let g = group_of.len().div_ceil(3);
        // Every unit on one value: no spread, so the interval is the point, whatever the method
        // (what such a sample cannot see is the resolution the report states).
        for groups in [None, Some((group_of.as_slice(), g))] {
            for method in [IntervalMethod::Percentile, IntervalMethod::Bca, IntervalMethod::BootstrapT, IntervalMethod::ExpandedPercentile] {
                let e = run(&base, &cand, groups, Statistic::Mean, method);
                let [l, h] = e.interval.bounds;
                prop_assert!((l - shift).abs() < 1e-9 && (h - shift).abs() < 1e-9, "{:?} vs {shift}", e.interval.bounds);
            }
        }
    }

    #[test]
    fn swapping_sides_negates_the_estimate_and_the_interval((base, cand) in pairs()) {
        for statistic in [Statistic::Mean, Statistic::P95] {
            let a = run(&base, &cand, None, statistic, IntervalMethod::Percentile);
            let b = run(&cand, &base, None, statistic, IntervalMethod::Percentile);
            prop_assert!((a.estimate + b.estimate).abs() < 1e-12);
            prop_assert!((a.interval.bounds[0] + b.interval.bounds[1]).abs() < 1e-12, "{:?} {:?}", a.interval.bounds, b.interval.bounds);
            prop_assert!((a.interval.bounds[1] + b.interval.bounds[0]).abs() < 1e-12);
            prop_assert!((a.p_value - b.p_value).abs() < 1e-12);
        }
    }

    #[test]
    fn the_default_interval_negates_with_the_sides_and_holds_the_estimate((base, cand) in pairs()) {
        let d: Vec<f64> = cand.iter().zip(&base).map(|(c, b)| c - b).collect();
        prop_assume!(d.iter().any(|&x| (x - d[0]).abs() > 1e-6));
        let group_of: Vec<u32> = (0..base.len() as u32).map(|i| i / 2).collect();
        let g = group_of.len().div_ceil(2);
        for groups in [None, Some((group_of.as_slice(), g))] {
            let a = run(&base, &cand, groups, Statistic::Mean, IntervalMethod::BootstrapT);
            let b = run(&cand, &base, groups, Statistic::Mean, IntervalMethod::BootstrapT);
            let [lo, hi] = a.interval.bounds;
            prop_assert!(lo.is_finite() && hi.is_finite() && lo <= a.estimate && a.estimate <= hi, "{:?} {}", a.interval.bounds, a.estimate);
            prop_assert!((lo + b.interval.bounds[1]).abs() < 1e-9, "{:?} {:?}", a.interval.bounds, b.interval.bounds);
            prop_assert!((hi + b.interval.bounds[0]).abs() < 1e-9);
            prop_assert!(a.interval.mc_se.iter().all(|s| s.is_finite() && *s >= 0.0));
        }
    }

    #[test]
    fn wins_ties_and_losses_add_up((base, cand) in pairs(), eps in 0.0f64..0.3) {
        let d: Vec<f64> = cand.iter().zip(&base).map(|(c, b)| c - b).collect();
        for e in [1e-9, eps] {
            let w = win_tie_loss(&d, e);
            prop_assert_eq!(w.wins + w.ties + w.losses, d.len());
        }
        // A wider tie band only moves wins and losses into ties.
        let (narrow, wide) = (win_tie_loss(&d, 1e-9), win_tie_loss(&d, eps.max(1e-9)));
        prop_assert!(wide.ties >= narrow.ties && wide.wins <= narrow.wins && wide.losses <= narrow.losses);
    }
}
