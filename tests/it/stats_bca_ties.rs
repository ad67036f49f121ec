//! BCa on tie-heavy data against scipy.stats.bootstrap(method="BCa"), from
//! `calibration/scipy_bca_ties.py`, output committed in `tests/data/stats/scipy_bca_ties.json`.
//! The data are multiples of 1/16, so every resample mean is exact in floating point and equal to
//! the observed mean bit for bit whenever it is equal in real arithmetic: the comparison tests the
//! mid-rank bias correction ((#< + #≤)/2B, as scipy), not the rounding. The bootstrap
//! distribution lives on a grid of 1/(16·N) (N queries), where the order-statistic Monte-Carlo
//! error can be 0 on a plateau while the BCa level still moves with ẑ₀'s noise: one grid step
//! is allowed besides 6 combined standard errors (as in `stats_reference`). That tolerance is too
//! wide to tell the mid-rank from a strict count (#{θ* < θ̂}) by the bounds alone, so the share
//! behind ẑ₀ is compared too: scipy's (its own `_percentile_of_score` on its bootstrap
//! distribution) against rag-gate's `mid_rank` on its own, within 5 binomial standard errors,
//! and on the two symmetric tie-heavy sets the strict share is checked to lie more than 8 of them
//! away (outside the band by 3).

use crate::support;

use rag_gate::resample::estimate::{estimate, Input};
use rag_gate::stats::bootstrap::{bootstrap_means, group_sums, Units};
use rag_gate::stats::interval::{mid_rank, IntervalMethod};
use rag_gate::stats::statistic::Statistic;
use rag_gate::stats::streams::stream_key;

const RESAMPLES: usize = 20_000;

#[test]
fn bca_matches_scipy_on_tie_heavy_data() {
    let refs = support::scipy::reference(include_str!("../data/stats/scipy_bca_ties.json"));
    let b_scipy = refs.resamples;
    assert_eq!(refs.cases.len(), 4);
    for case in &refs.cases {
        let name = case.name.as_str();
        let (base, cand, deltas) = (&case.base, &case.cand, &case.deltas);
        let groups = case.groups();
        let grid = 1.0 / (16.0 * deltas.len() as f64);
        // The share behind ẑ₀, from this engine's resamples of the mean.
        let (sums, sizes) = match groups {
            Some((of, g)) => group_sums(deltas, of, g),
            None => (Vec::new(), Vec::new()),
        };
        let units = match groups {
            Some(_) => Units::Groups {
                sums: &sums,
                sizes: &sizes,
            },
            None => Units::Queries(deltas),
        };
        let mut means = bootstrap_means(units, RESAMPLES, stream_key(3, &["ties", name]));
        means.sort_by(f64::total_cmp);
        let theta = deltas.iter().sum::<f64>() / deltas.len() as f64;
        let ours = mid_rank(&means, theta, 1e-12);
        let (mid, strict) = (
            case.json["z0_share"].as_f64(),
            case.json["strict_share"].as_f64(),
        );
        let (mid, strict) = (mid.unwrap(), strict.unwrap());
        let se = (mid * (1.0 - mid) * (1.0 / RESAMPLES as f64 + 1.0 / b_scipy)).sqrt();
        assert!(
            (ours - mid).abs() <= 5.0 * se,
            "{name}: mid-rank share {ours} vs scipy {mid} (se {se})"
        );
        // On the symmetric tie-heaviest sets a strict count would fail the check above.
        assert!(
            !name.starts_with("symmetric") || (strict - mid).abs() > 8.0 * se,
            "{name}: the strict share {strict} is not told apart from the mid-rank {mid}"
        );
        for (method, key) in [
            (IntervalMethod::Bca, "bca"),
            (IntervalMethod::Percentile, "percentile"),
        ] {
            let e = estimate(
                &Input {
                    base,
                    cand,
                    deltas,
                    groups,
                    statistic: Statistic::Mean,
                    method,
                    confidence: refs.confidence,
                    resamples: RESAMPLES,
                    seed: 11,
                    names: ["ties", name],
                    tie_epsilon: rag_gate::config::DEFAULT_TIE_EPSILON,
                    cand_runs: &[],
                    few_groups_below: 0.0,
                },
                &[],
                None,
            );
            for (k, want) in case.floats(key).iter().enumerate() {
                let se = e.interval.mc_se[k] * (1.0 + RESAMPLES as f64 / b_scipy).sqrt();
                let got = e.interval.bounds[k];
                assert!(
                    (got - want).abs() <= 6.0 * se + grid + 1e-12,
                    "{name} {key} bound {k}: rust {got} vs scipy {want} (MC se {se}, grid {grid})"
                );
            }
        }
    }
}
