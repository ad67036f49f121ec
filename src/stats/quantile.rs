//! Sample quantiles and the percentile interval, and one side sorted with each query's rank
//! (`Ranked`) for the leave-one-out quantiles.
//!
//! Quantile: linear interpolation between order statistics, h = (N − 1)·p (Hyndman & Fan 1996,
//! definition 7; numpy.percentile's default and what scipy.stats.bootstrap uses for its
//! percentile interval). Percentile interval: [q(α/2), q(1 − α/2)] with α = 1 − confidence
//! (Efron & Tibshirani 1993, §13.3).

/// The p-quantile (0 ≤ p ≤ 1) of an ascending-sorted, non-empty slice.
///
/// Panics if `sorted` is empty.
pub fn quantile_sorted(sorted: &[f64], p: f64) -> f64 {
    assert!(!sorted.is_empty(), "quantile of an empty sample");
    let h = (sorted.len() - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    let frac = h - lo as f64;
    if frac == 0.0 {
        sorted[lo]
    } else {
        sorted[lo] + frac * (sorted[hi] - sorted[lo])
    }
}

/// The p-quantile of an unsorted, non-empty slice, by selection (O(n)); reorders `x`. Equals
/// `quantile_sorted` of the sorted slice.
///
/// Panics if `x` is empty.
pub fn quantile_unsorted(x: &mut [f64], p: f64) -> f64 {
    assert!(!x.is_empty(), "quantile of an empty sample");
    let h = (x.len() - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let frac = h - lo as f64;
    let (_, at, rest) = x.select_nth_unstable_by(lo, f64::total_cmp);
    let at = *at;
    if frac == 0.0 || rest.is_empty() {
        at
    } else {
        let next = rest.iter().copied().fold(f64::INFINITY, f64::min);
        at + frac * (next - at)
    }
}

/// Sorts the bootstrap statistics in place and returns the two-sided percentile interval.
///
/// Panics if `stats` is empty.
pub fn percentile_interval(stats: &mut [f64], confidence: f64) -> [f64; 2] {
    stats.sort_unstable_by(f64::total_cmp);
    let alpha = 1.0 - confidence;
    [
        quantile_sorted(stats, alpha / 2.0),
        quantile_sorted(stats, 1.0 - alpha / 2.0),
    ]
}

/// One side sorted (ties in query order), with each query's rank: the leave-one-out values of
/// type 7 (`jackknife`) and of Harrell–Davis (`harrell_davis`) both read it.
pub(crate) struct Ranked {
    pub(crate) sorted: Vec<f64>,
    pub(crate) rank: Vec<usize>,
}

impl Ranked {
    pub(crate) fn new(x: &[f64]) -> Ranked {
        let mut order: Vec<usize> = (0..x.len()).collect();
        order.sort_by(|&a, &b| x[a].total_cmp(&x[b]).then(a.cmp(&b)));
        let mut rank = vec![0; x.len()];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        let sorted = order.iter().map(|&i| x[i]).collect();
        Ranked { sorted, rank }
    }

    /// The type-7 p-quantile of the values left after removing the ascending `removed` ranks.
    pub(crate) fn quantile_without(&self, removed: &[usize], p: f64) -> f64 {
        let m = self.sorted.len() - removed.len();
        let h = (m - 1) as f64 * p;
        let lo = h.floor() as usize;
        let frac = h - lo as f64;
        let kth = |k: usize| {
            let mut idx = k;
            for &r in removed {
                if r <= idx {
                    idx += 1;
                }
            }
            self.sorted[idx]
        };
        let x = kth(lo);
        if frac == 0.0 || lo + 1 >= m {
            x
        } else {
            x + frac * (kth(lo + 1) - x)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_numpy_linear_percentiles() {
        // numpy.percentile([1, 2, 3, 4], [25, 50, 2.5, 97.5]) = [1.75, 2.5, 1.075, 3.925]
        let x = [1.0, 2.0, 3.0, 4.0];
        for (p, want) in [(0.25, 1.75), (0.5, 2.5), (0.025, 1.075), (0.975, 3.925)] {
            assert!((quantile_sorted(&x, p) - want).abs() < 1e-12, "p={p}");
        }
        assert_eq!(quantile_sorted(&[7.0], 0.3), 7.0);
        let mut y = [4.0, 1.0, 3.0, 2.0];
        for (p, want) in [(0.25, 1.75), (0.5, 2.5), (0.025, 1.075), (0.975, 3.925)] {
            assert!((quantile_unsorted(&mut y, p) - want).abs() < 1e-12, "p={p}");
        }
    }

    #[test]
    fn interval_of_unsorted_sample() {
        let mut s: Vec<f64> = (0..=100).rev().map(f64::from).collect();
        let [lo, hi] = percentile_interval(&mut s, 0.9);
        assert!(
            (lo - 5.0).abs() < 1e-9 && (hi - 95.0).abs() < 1e-9,
            "{lo} {hi}"
        );
    }
}
