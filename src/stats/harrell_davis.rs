//! The Harrell–Davis quantile and the jackknife t interval of a paired difference of quantiles,
//! q(candidate) − q(baseline), for `median` / `p95` gates.
//!
//! - Estimate: the Harrell–Davis quantile Σⱼ wⱼ·x₍ⱼ₎, wⱼ = I_{j/n}(a, b) − I_{(j−1)/n}(a, b)
//!   with a = p(n + 1), b = (1 − p)(n + 1) and I the regularized incomplete beta function
//!   (Harrell & Davis 1982, "A new distribution-free quantile estimator", Biometrika 69:635). It
//!   is the expectation of the ((n + 1)p)-th order statistic, a smooth L-estimator: every order
//!   statistic near the quantile counts, not the one or two type 7 reads.
//! - Standard error: the jackknife (Efron & Tibshirani 1993, ch. 11; Harrell & Davis used it for
//!   their estimator). Query unit: leave one query out of both sides (the pairing stays), exact,
//!   in O(n) after sorting (removing one value shifts the order statistics above it down one
//!   place, so each leave-one-out estimate is a prefix sum plus a suffix sum). Group unit: the
//!   linearised jackknife, each group's value the sum of its queries' pseudo-value deviations
//!   dᵢ = (n − 1)(θ̂ − θ̂₍ᵢ₎), se² = G/(G − 1) · Σ_g (Σ_{i∈g} dᵢ − n_g·d̄)² / n² (a CR1 sandwich
//!   on the empirical influence values; with single queries it is the jackknife's own),
//!   computed with the group sums scaled by the largest, so no square overflows.
//! - Interval: θ̂ ± t_{1−α/2, G−1} · se.
//!
//! Why: the percentile interval of the paired type 7 difference over-covers (98–100% at 95%,
//! n = 30–1000, when the sides share most of their variation, as a baseline and a candidate on
//! the same queries do): a resample's bagged type 7 difference is centred nearer the truth than
//! the estimate and spread wider than it. The Harrell–Davis difference averages the local
//! differences of neighbouring order statistics, and the jackknife of a smooth L-estimator is
//! consistent (where it is not for a single order statistic), so the interval has the spread of
//! its own estimate (calibration/results.txt, numpy replay: 30 of the 32 judged cells in band,
//! the other two 0.1–0.2 points over; the percentile interval: 12 of 32; a p95 on fewer than 100
//! queries is not judged).
//!
//! - Pooled attempts (`pooled_difference`): k runs of the candidate on the same n queries (a
//!   re-run's earlier attempts) are one sample of k·n values from the distribution one run's
//!   values are drawn from (each query once per run, so every query weighs alike). The
//!   candidate's quantile is the Harrell–Davis quantile of all k·n values: the same quantity
//!   as the baseline's one run estimates, with less run-to-run noise. (Averaging each query over
//!   the runs first would estimate another quantity: the averages spread less than one run's
//!   values, so a p95 of averages sits below a p95 of runs and more attempts would move it.) The
//!   standard error is the CR1 sandwich on the linearised jackknife: each value's term is
//!   (N − 1)/N · (θ̂ − θ̂₍ⱼ₎) of its side (N that side's number of values; the side's empirical
//!   influence value over N), centred per side; a unit's sum holds its queries' k candidate terms
//!   minus their baseline terms (a query's runs are dependent, so they are resampled together),
//!   se² = G/(G − 1) · Σ_g sum_g² (Efron & Tibshirani 1993, ch. 11 and 21; the cluster form as
//!   Cameron & Miller 2015, "A practitioner's guide to cluster-robust inference", eq. 12). With
//!   k = 1 it is the paired jackknife above.
//!
//! Weights: for n ≤ `BETA_CF_MAX` the incomplete beta's continued fraction (statrs) converges in
//! under 50 steps; above, the weights are the beta density integrated over each (j − 1)/n..j/n
//! by 5-point Gauss–Legendre (the density varies little over one step there: a step is at most
//! 1/7 of its standard deviation), within 40 standard deviations of the mode, and normalised to
//! sum to 1. Pure: numbers in, numbers out.

use statrs::function::beta::beta_reg;

use super::quantile::Ranked;
use super::small_sample::t_quantile;

/// Above this many values the weights are integrated rather than read from the continued
/// fraction (statrs stops it after 140 steps; it needs about 45 at 1,000, and its prefactor's
/// log-gamma differences lose digits as n grows: 3e-13 at 1,000, 1e-11 at 10,000).
pub const BETA_CF_MAX: usize = 1024;

/// The Harrell–Davis weights of n sorted values at level p (0 < p < 1); they sum to 1.
///
/// Panics if n is 0.
pub fn weights(n: usize, p: f64) -> Vec<f64> {
    assert!(n > 0, "Harrell–Davis weights need at least one value");
    let nf = n as f64;
    let (a, b) = (p * (nf + 1.0), (1.0 - p) * (nf + 1.0));
    if n <= BETA_CF_MAX || a.min(b) <= 1.0 {
        let cdf: Vec<f64> = (0..=n).map(|j| beta_reg(a, b, j as f64 / nf)).collect();
        return cdf.windows(2).map(|w| (w[1] - w[0]).max(0.0)).collect();
    }
    integrated(n, a, b)
}

/// 5-point Gauss–Legendre nodes on [−1, 1] and their weights.
const GL5: [(f64, f64); 5] = [
    (0.0, 0.568_888_888_888_888_9),
    (-0.538_469_310_105_683_1, 0.478_628_670_499_366_47),
    (0.538_469_310_105_683_1, 0.478_628_670_499_366_47),
    (-0.906_179_845_938_664, 0.236_926_885_056_189_08),
    (0.906_179_845_938_664, 0.236_926_885_056_189_08),
];

/// The weights of many values (a, b > 1, so the density has an interior mode): the beta
/// density relative to its mode, integrated per step within 40 standard deviations of the mode,
/// then normalised.
fn integrated(n: usize, a: f64, b: f64) -> Vec<f64> {
    let nf = n as f64;
    let mode = (a - 1.0) / (a + b - 2.0);
    let sd = (a * b / ((a + b) * (a + b) * (a + b + 1.0))).sqrt();
    // log density relative to the mode, with ln(x/m) as ln_1p((x − m)/m) for accuracy near it.
    let log_rel = |x: f64| {
        (a - 1.0) * ((x - mode) / mode).ln_1p() + (b - 1.0) * ((mode - x) / (1.0 - mode)).ln_1p()
    };
    let first = (((mode - 40.0 * sd) * nf).floor().max(0.0)) as usize;
    let last = (((mode + 40.0 * sd) * nf).ceil().min(nf)) as usize;
    let mut w = vec![0.0; n];
    for (j, wj) in w.iter_mut().enumerate().take(last).skip(first) {
        let (lo, hi) = (j as f64 / nf, (j + 1) as f64 / nf);
        let (mid, half) = (0.5 * (lo + hi), 0.5 * (hi - lo));
        *wj = GL5
            .iter()
            .map(|&(t, g)| g * log_rel(mid + half * t).exp())
            .sum::<f64>()
            * half;
    }
    let total: f64 = w.iter().sum();
    w.iter_mut().for_each(|v| *v /= total);
    w
}

/// Σ wⱼ·x₍ⱼ₎ over sorted values and their weights.
fn weighted(sorted: &[f64], w: &[f64]) -> f64 {
    sorted.iter().zip(w).map(|(x, w)| x * w).sum()
}

/// The Harrell–Davis quantile at level p of unsorted values.
///
/// Panics if `x` is empty.
pub fn quantile(x: &[f64], p: f64) -> f64 {
    let mut s = x.to_vec();
    s.sort_by(f64::total_cmp);
    weighted(&s, &weights(s.len(), p))
}

/// One side: its Harrell–Davis quantile and each query's leave-one-out value (n ≥ 2).
fn leave_one_out(x: &[f64], p: f64) -> (f64, Vec<f64>) {
    let n = x.len();
    let Ranked { sorted: s, rank } = Ranked::new(x);
    let estimate = weighted(&s, &weights(n, p));
    let w = weights(n - 1, p);
    // Without sorted position r: positions j < r keep s[j], positions j ≥ r read s[j + 1].
    // prefix[r] = Σ_{j<r} w_j s_j, suffix[r] = Σ_{j≥r} w_j s_{j+1}.
    let mut prefix = vec![0.0; n];
    for r in 1..n {
        prefix[r] = prefix[r - 1] + w[r - 1] * s[r - 1];
    }
    let mut suffix = vec![0.0; n];
    for r in (0..n - 1).rev() {
        suffix[r] = suffix[r + 1] + w[r] * s[r + 1];
    }
    let loo = rank.iter().map(|&r| prefix[r] + suffix[r]).collect();
    (estimate, loo)
}

/// A paired difference of Harrell–Davis quantiles with its jackknife standard error and the
/// degrees of freedom of its t interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Jackknifed {
    /// Each side's Harrell–Davis quantile, [baseline, candidate].
    pub sides: [f64; 2],
    pub se: f64,
    pub df: f64,
}

impl Jackknifed {
    /// q_HD(candidate) − q_HD(baseline).
    pub fn estimate(&self) -> f64 {
        self.sides[1] - self.sides[0]
    }

    /// θ̂ ± t_{1−α/2, df}·se at two-sided `confidence`; the estimate itself when the df is 0.
    pub fn interval(&self, confidence: f64) -> [f64; 2] {
        let estimate = self.estimate();
        if self.df < 1.0 || self.se == 0.0 {
            return [estimate; 2];
        }
        let h = t_quantile(0.5 + confidence / 2.0, self.df) * self.se;
        [estimate - h, estimate + h]
    }
}

/// q_HD(candidate) − q_HD(baseline) at level p, with its jackknife standard error over `units`
/// (each a list of query indices; `[[0], [1], …]` for the query unit) and df = units − 1.
///
/// Panics if the sides differ in length or are empty.
pub fn paired_difference(base: &[f64], cand: &[f64], units: &[Vec<u32>], p: f64) -> Jackknifed {
    assert_eq!(base.len(), cand.len(), "paired sides");
    let n = base.len();
    if n < 2 || units.len() < 2 {
        return Jackknifed {
            sides: [quantile(base, p), quantile(cand, p)],
            se: 0.0,
            df: 0.0,
        };
    }
    let (eb, lb) = leave_one_out(base, p);
    let (ec, lc) = leave_one_out(cand, p);
    let estimate = ec - eb;
    let nf = n as f64;
    // eᵢ = θ̂ − θ̂₍ᵢ₎ (the pseudo-value deviation over n − 1), centred and summed per unit; the
    // sums are scaled by the largest before squaring, so values near the inputs' 1e300 bound
    // do not overflow.
    let e: Vec<f64> = lc
        .iter()
        .zip(&lb)
        .map(|(c, b)| estimate - (c - b))
        .collect();
    let mean = e.iter().sum::<f64>() / nf;
    let sums: Vec<f64> = units
        .iter()
        .map(|m| m.iter().map(|&i| e[i as usize] - mean).sum::<f64>())
        .collect();
    Jackknifed {
        sides: [eb, ec],
        se: cluster_se(&sums, (nf - 1.0) / nf),
        df: units.len() as f64 - 1.0,
    }
}

/// `factor` · √(G/(G − 1) · Σ s²) over the G units' centred sums `sums`, the sums scaled by the
/// largest before squaring (values near the inputs' 1e300 bound do not overflow); 0 without
/// spread.
fn cluster_se(sums: &[f64], factor: f64) -> f64 {
    let scale = sums.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if scale == 0.0 {
        return 0.0;
    }
    let g = sums.len() as f64;
    let ss: f64 = sums.iter().map(|v| (v / scale).powi(2)).sum();
    factor * scale * (g / (g - 1.0) * ss).sqrt()
}

/// q_HD(candidate) − q_HD(baseline) at level p where the candidate has several runs on the
/// baseline's queries (`runs`, each one value per query, aligned with `base`): the candidate's
/// quantile over all the runs' values, the standard error by the cluster jackknife over `units`
/// (each unit's queries with all their runs; see the module header), df = units − 1. One run is
/// [`paired_difference`].
///
/// Panics if there is no run, or a run's length differs from the baseline's.
pub fn pooled_difference(
    base: &[f64],
    runs: &[Vec<f64>],
    units: &[Vec<u32>],
    p: f64,
) -> Jackknifed {
    assert!(!runs.is_empty(), "the candidate needs a run");
    assert!(runs.iter().all(|r| r.len() == base.len()), "paired runs");
    if runs.len() == 1 {
        return paired_difference(base, &runs[0], units, p);
    }
    let n = base.len();
    let stacked: Vec<f64> = runs.iter().flatten().copied().collect();
    if n < 2 || units.len() < 2 {
        return Jackknifed {
            sides: [quantile(base, p), quantile(&stacked, p)],
            se: 0.0,
            df: 0.0,
        };
    }
    let (eb, lb) = leave_one_out(base, p);
    let (ec, lc) = leave_one_out(&stacked, p);
    // Each value's term, centred per side: (N − 1)/N · (θ̂ − θ̂₍ⱼ₎).
    let terms = |est: f64, loo: &[f64]| {
        let nf = loo.len() as f64;
        let t: Vec<f64> = loo.iter().map(|l| (nf - 1.0) / nf * (est - l)).collect();
        let mean = t.iter().sum::<f64>() / nf;
        t.into_iter().map(|v| v - mean).collect::<Vec<f64>>()
    };
    let (tb, tc) = (terms(eb, &lb), terms(ec, &lc));
    let sums: Vec<f64> = units
        .iter()
        .map(|m| {
            m.iter()
                .map(|&i| {
                    let i = i as usize;
                    (0..runs.len()).map(|r| tc[r * n + i]).sum::<f64>() - tb[i]
                })
                .sum::<f64>()
        })
        .collect();
    Jackknifed {
        sides: [eb, ec],
        se: cluster_se(&sums, 1.0),
        df: units.len() as f64 - 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_sum_to_one_and_mirror_at_the_median() {
        for n in [1, 2, 7, 30, 101, 1024, 1025, 8192, 50_000] {
            for p in [0.05, 0.5, 0.95] {
                let w = weights(n, p);
                let total: f64 = w.iter().sum();
                assert!((total - 1.0).abs() < 1e-12, "n {n} p {p}: {total}");
                assert!(w.iter().all(|&v| v >= 0.0));
            }
            let w = weights(n, 0.5);
            for j in 0..n {
                assert!((w[j] - w[n - 1 - j]).abs() < 1e-12, "n {n} j {j}");
            }
        }
    }

    #[test]
    fn the_two_weight_routes_agree_where_they_meet() {
        // The continued fraction at n = BETA_CF_MAX against the integral at the same n.
        let n = BETA_CF_MAX;
        let nf = n as f64;
        for p in [0.5, 0.95] {
            let cf = weights(n, p);
            let int = integrated(n, p * (nf + 1.0), (1.0 - p) * (nf + 1.0));
            let worst = cf
                .iter()
                .zip(&int)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            assert!(worst < 1e-12, "p {p}: {worst}");
        }
    }

    #[test]
    fn one_value_is_its_own_quantile_and_constants_stay_constant() {
        assert_eq!(quantile(&[3.5], 0.95), 3.5);
        let x = vec![2.0; 40];
        assert!((quantile(&x, 0.5) - 2.0).abs() < 1e-12);
        let j = paired_difference(&x, &x, &singletons(40), 0.95);
        assert!(j.estimate().abs() < 1e-12 && j.se.abs() < 1e-12 && j.df == 39.0);
    }

    fn singletons(n: u32) -> Vec<Vec<u32>> {
        (0..n).map(|i| vec![i]).collect()
    }

    #[test]
    fn leave_one_out_matches_recomputing() {
        let x: Vec<f64> = (0..23)
            .map(|i| ((i * 37) % 23) as f64 * 1.5 + (i % 4) as f64)
            .collect();
        for p in [0.5, 0.95] {
            let (est, loo) = leave_one_out(&x, p);
            assert!((est - quantile(&x, p)).abs() < 1e-12);
            for (i, value) in loo.iter().enumerate() {
                let mut rest = x.clone();
                rest.remove(i);
                assert!((value - quantile(&rest, p)).abs() < 1e-12, "p {p} i {i}");
            }
        }
    }

    #[test]
    fn values_near_the_input_bound_do_not_overflow() {
        let base: Vec<f64> = (0..150)
            .map(|i| (((i * 61) % 150) as f64 / 75.0 - 1.0) * 9e299)
            .collect();
        let cand: Vec<f64> = base.iter().map(|b| b * 1.01).collect();
        for p in [0.5, 0.95] {
            let j = paired_difference(&base, &cand, &singletons(150), p);
            let [lo, hi] = j.interval(0.95);
            assert!(
                j.se.is_finite() && j.se > 0.0 && lo.is_finite() && hi.is_finite(),
                "{j:?}"
            );
            // The same data scaled down give the same interval, scaled.
            let small = |x: &[f64]| x.iter().map(|v| v * 1e-290).collect::<Vec<f64>>();
            let k = paired_difference(&small(&base), &small(&cand), &singletons(150), p);
            assert!(
                (k.se * 1e290 - j.se).abs() <= 1e-9 * j.se,
                "{} vs {}",
                k.se * 1e290,
                j.se
            );
        }
    }

    #[test]
    fn shift_and_scale_carry_through() {
        let base: Vec<f64> = (0..60).map(|i| ((i * 7) % 60) as f64).collect();
        let cand: Vec<f64> = base
            .iter()
            .enumerate()
            .map(|(i, b)| b + (i % 5) as f64)
            .collect();
        let units = singletons(60);
        let j = paired_difference(&base, &cand, &units, 0.5);
        let moved: Vec<f64> = cand.iter().map(|c| 3.0 * c + 10.0).collect();
        let scaled_base: Vec<f64> = base.iter().map(|b| 3.0 * b + 10.0).collect();
        let k = paired_difference(&scaled_base, &moved, &units, 0.5);
        assert!((k.estimate() - 3.0 * j.estimate()).abs() < 1e-9);
        assert!((k.se - 3.0 * j.se).abs() < 1e-9);
    }

    #[test]
    fn single_query_groups_give_the_query_jackknife() {
        let base: Vec<f64> = (0..31).map(|i| (i as f64).sqrt() * 10.0).collect();
        let cand: Vec<f64> = base
            .iter()
            .enumerate()
            .map(|(i, b)| b + ((i * 3) % 7) as f64)
            .collect();
        let j = paired_difference(&base, &cand, &singletons(31), 0.95);
        // The jackknife variance (n − 1)/n Σ (θ₍ᵢ₎ − θ̄)², by recomputing.
        let n = 31.0;
        let loo: Vec<f64> = (0..31)
            .map(|i| {
                let (mut b, mut c) = (base.clone(), cand.clone());
                b.remove(i);
                c.remove(i);
                quantile(&c, 0.95) - quantile(&b, 0.95)
            })
            .collect();
        let m = loo.iter().sum::<f64>() / n;
        let var = (n - 1.0) / n * loo.iter().map(|v| (v - m).powi(2)).sum::<f64>();
        assert!(
            (j.se - var.sqrt()).abs() < 1e-9 * var.sqrt(),
            "{} vs {}",
            j.se,
            var.sqrt()
        );
    }

    #[test]
    fn pooled_runs_stack_and_one_run_is_the_paired_jackknife() {
        let base: Vec<f64> = (0..40).map(|i| ((i * 13) % 40) as f64 * 0.5).collect();
        let run = |shift: usize| -> Vec<f64> {
            base.iter()
                .enumerate()
                .map(|(i, b)| b + ((i * 7 + shift) % 5) as f64 - 2.0)
                .collect()
        };
        let units = singletons(40);
        for p in [0.5, 0.95] {
            let one = pooled_difference(&base, &[run(0)], &units, p);
            assert_eq!(one, paired_difference(&base, &run(0), &units, p));
            let runs = [run(0), run(1), run(3)];
            let j = pooled_difference(&base, &runs, &units, p);
            let stacked: Vec<f64> = runs.iter().flatten().copied().collect();
            assert!((j.sides[1] - quantile(&stacked, p)).abs() < 1e-12);
            assert!((j.sides[0] - quantile(&base, p)).abs() < 1e-12);
            assert_eq!(j.df, 39.0);
            assert!(j.se > 0.0 && j.se.is_finite());
        }
    }

    #[test]
    fn pooled_terms_match_recomputing_each_value_out() {
        // The linearised jackknife, by recomputing every single-value deletion.
        let base: Vec<f64> = (0..25).map(|i| (i as f64 * 1.7).sin() * 10.0).collect();
        let runs: Vec<Vec<f64>> = (0..3)
            .map(|r| {
                base.iter()
                    .enumerate()
                    .map(|(i, b)| b + ((i * 5 + r * 3) % 7) as f64 * 0.3)
                    .collect()
            })
            .collect();
        let units: Vec<Vec<u32>> = (0..5).map(|g| (g * 5..g * 5 + 5).collect()).collect();
        let p = 0.5;
        let j = pooled_difference(&base, &runs, &units, p);
        let stacked: Vec<f64> = runs.iter().flatten().copied().collect();
        let term = |x: &[f64], j: usize| {
            let mut rest = x.to_vec();
            rest.remove(j);
            let nf = x.len() as f64;
            (nf - 1.0) / nf * (quantile(x, p) - quantile(&rest, p))
        };
        let centred = |x: &[f64]| {
            let t: Vec<f64> = (0..x.len()).map(|j| term(x, j)).collect();
            let m = t.iter().sum::<f64>() / t.len() as f64;
            t.into_iter().map(|v| v - m).collect::<Vec<f64>>()
        };
        let (tb, tc) = (centred(&base), centred(&stacked));
        let ss: f64 = units
            .iter()
            .map(|m| {
                m.iter()
                    .map(|&i| (0..3).map(|r| tc[r * 25 + i as usize]).sum::<f64>() - tb[i as usize])
                    .sum::<f64>()
                    .powi(2)
            })
            .sum();
        let se = (5.0 / 4.0 * ss).sqrt();
        assert!((j.se - se).abs() < 1e-9 * se, "{} vs {se}", j.se);
    }
}
