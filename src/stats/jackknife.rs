//! Leave-one-unit-out (jackknife) values of the paired statistics, for the BCa acceleration
//! (Efron & Tibshirani 1993, §11.2 and §14.3), in O(n) rather than n recomputations.
//!
//! - Mean, query unit: θ₍ᵢ₎ = (n·x̄ − xᵢ)/(n − 1).
//! - Mean, group unit (leave one group out): θ₍g₎ = (S − S_g)/(N − N_g), S the total delta and
//!   N the number of queries, S_g and N_g the group's.
//! - Quantile difference (median, p95): both sides are sorted once; removing a unit's members
//!   shifts the order statistics, so the k-th remaining value is found by stepping over the
//!   removed ranks (O(members) per unit, O(n log n) in all).

use super::bootstrap::Units;
use super::paired_quantile::PairedSample;
use super::quantile::Ranked;

/// Jackknife values of the mean delta; None with fewer than two units (no acceleration).
pub fn mean(units: Units<'_>) -> Option<Vec<f64>> {
    match units {
        Units::Queries(x) if x.len() >= 2 => {
            let n = x.len() as f64;
            let total: f64 = x.iter().sum();
            Some(x.iter().map(|&v| (total - v) / (n - 1.0)).collect())
        }
        Units::Groups { sums, sizes } if sums.len() >= 2 => {
            let s: f64 = sums.iter().sum();
            let n: f64 = sizes.iter().sum();
            Some(
                sums.iter()
                    .zip(sizes)
                    .map(|(&sg, &ng)| (s - sg) / (n - ng))
                    .collect(),
            )
        }
        _ => None,
    }
}

/// Jackknife values of q(candidate) − q(baseline); None with fewer than two units.
pub fn quantile_diff(s: &PairedSample<'_>, p: f64) -> Option<Vec<f64>> {
    if s.units.len() < 2 {
        return None;
    }
    let (b, c) = (Ranked::new(s.base), Ranked::new(s.cand));
    let mut rb = Vec::new();
    let mut rc = Vec::new();
    Some(
        s.units
            .iter()
            .map(|members| {
                rb.clear();
                rc.clear();
                rb.extend(members.iter().map(|&i| b.rank[i as usize]));
                rc.extend(members.iter().map(|&i| c.rank[i as usize]));
                rb.sort_unstable();
                rc.sort_unstable();
                c.quantile_without(&rc, p) - b.quantile_without(&rb, p)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::quantile::quantile_unsorted;

    #[test]
    fn closed_form_mean_equals_recomputation() {
        let x = [0.3, -0.1, 0.7, 0.0, 0.25];
        let j = mean(Units::Queries(&x)).unwrap();
        for (i, t) in j.iter().enumerate() {
            let rest: Vec<f64> = (0..5).filter(|&k| k != i).map(|k| x[k]).collect();
            assert!((t - rest.iter().sum::<f64>() / 4.0).abs() < 1e-15);
        }
        // Groups {0,1}, {2}, {3,4}: leaving out group 0 leaves (0.7 + 0 + 0.25)/3.
        let (sums, sizes) = ([0.2, 0.7, 0.25], [2.0, 1.0, 2.0]);
        let g = mean(Units::Groups {
            sums: &sums,
            sizes: &sizes,
        })
        .unwrap();
        assert!((g[0] - 0.95 / 3.0).abs() < 1e-15);
        assert!((g[2] - 0.9 / 3.0).abs() < 1e-15);
        assert!(mean(Units::Queries(&[1.0])).is_none());
    }

    #[test]
    fn quantile_jackknife_equals_recomputation() {
        let base = [5.0, 1.0, 4.0, 4.0, 9.0, 2.0, 7.0];
        let cand = [6.0, 1.5, 3.0, 8.0, 9.5, 2.0, 0.5];
        let units: Vec<Vec<u32>> = vec![vec![0, 3], vec![1], vec![2, 4, 6], vec![5]];
        let s = PairedSample {
            base: &base,
            cand: &cand,
            units: &units,
        };
        for p in [0.5, 0.95, 0.3] {
            let j = quantile_diff(&s, p).unwrap();
            for (u, t) in units.iter().zip(&j) {
                let keep = |x: &[f64]| -> Vec<f64> {
                    (0..7)
                        .filter(|i| !u.contains(&(*i as u32)))
                        .map(|i| x[i])
                        .collect()
                };
                let want =
                    quantile_unsorted(&mut keep(&cand), p) - quantile_unsorted(&mut keep(&base), p);
                assert!((t - want).abs() < 1e-12, "p={p} unit {u:?}: {t} vs {want}");
            }
        }
    }
}
