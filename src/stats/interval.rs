//! Confidence intervals from a bootstrap distribution, and their Monte-Carlo error.
//!
//! - Percentile: [q(α/2), q(1 − α/2)] of the bootstrap statistics (Efron & Tibshirani 1993,
//!   *An Introduction to the Bootstrap*, §13.3).
//! - BCa, bias-corrected and accelerated (Efron 1987, JASA 82:171; Efron & Tibshirani 1993,
//!   §14.3): the levels become Φ(ẑ₀ + (ẑ₀ + z_α)/(1 − â(ẑ₀ + z_α))), with the bias correction
//!   ẑ₀ = Φ⁻¹((#{θ* < θ̂} + #{θ* ≤ θ̂}) / 2B), the mid-rank of θ̂ among the resamples, and the
//!   acceleration â from the jackknife values θ₍ᵢ₎:
//!   â = Σ(θ̄ − θ₍ᵢ₎)³ / (6 (Σ(θ̄ − θ₍ᵢ₎)²)^{3/2}) (eq. 14.15). These are the formulas of
//!   `scipy.stats.bootstrap(method="BCa")` (its `_percentile_of_score` is the mid-rank), which
//!   the tests use as the reference. On tie-heavy data many resamples equal θ̂ exactly in real
//!   arithmetic but not in floating point, where the summation order decides on which side they
//!   fall: a resample within `tie` of θ̂ (the caller's bound on the rounding of a resample
//!   statistic) counts as equal, so the count does not depend on the summation order. For IR
//!   evaluation practice see Sakai 2006 (SIGIR, "Evaluating evaluation metrics based on the
//!   bootstrap") and Smucker, Allan & Carterette 2007 (CIKM, "A comparison of statistical
//!   significance tests for information retrieval evaluation").
//! - Monte-Carlo standard error of a bound at level p from B statistics: half the distance between
//!   the order statistics at p ± √(p(1 − p)/B), the binomial spread of the empirical quantile
//!   (Efron & Tibshirani 1993, §19.3; Maritz & Jarrett 1978 use the same binomial weights).
//!   On a discrete bootstrap distribution (a median of rounded values) it is 0 on a plateau of
//!   equal values, and it does not include the Monte-Carlo noise of BCa's ẑ₀.
//!
//! Cost: one sort, O(B log B). Pure: numbers in, numbers out.

use statrs::distribution::{ContinuousCDF, Normal};

use super::quantile::quantile_sorted;

/// How the interval is read off the bootstrap distribution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntervalMethod {
    Percentile,
    Bca,
    /// The studentised interval of a mean (`studentized`); a median or p95 gets the jackknife t
    /// interval of its Harrell–Davis difference (`harrell_davis`).
    BootstrapT,
    /// The percentile interval read at levels widened for small samples (`small_sample`); a
    /// median or p95 gets the jackknife t interval of its Harrell–Davis difference.
    ExpandedPercentile,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// `[low, high]`.
    pub bounds: [f64; 2],
    /// The quantile levels the bounds were read at (α/2 and 1 − α/2 for the percentile method).
    pub levels: [f64; 2],
    /// Monte-Carlo standard error of each bound.
    pub mc_se: [f64; 2],
}

fn std_normal() -> Normal {
    Normal::new(0.0, 1.0).expect("the standard normal exists")
}

/// The jackknife acceleration â from leave-one-unit-out values (0 when they do not vary).
///
/// â does not change when every value is scaled, so the deviations are divided by the largest
/// one first: cubes of deviations near 1e299 would overflow to ∞/∞ = NaN.
pub fn acceleration(jackknife: &[f64]) -> f64 {
    let n = jackknife.len() as f64;
    let mean = jackknife.iter().map(|&t| t / n).sum::<f64>();
    let scale = jackknife
        .iter()
        .map(|&t| (mean - t).abs())
        .fold(0.0, f64::max);
    if !(scale > 0.0 && scale.is_finite()) {
        return 0.0;
    }
    let (mut num, mut den) = (0.0, 0.0);
    for &t in jackknife {
        let d = (mean - t) / scale;
        num += d * d * d;
        den += d * d;
    }
    if den > 0.0 {
        num / (6.0 * den.powf(1.5))
    } else {
        0.0
    }
}

/// The BCa quantile levels for the bias correction `z0` and acceleration `a`.
pub fn bca_levels(z0: f64, a: f64, confidence: f64) -> [f64; 2] {
    let nd = std_normal();
    let alpha = 1.0 - confidence;
    let level = |p: f64| {
        let w = z0 + nd.inverse_cdf(p);
        let d = 1.0 - a * w;
        // Past the pole of w / (1 − a·w) the formula turns back on itself (the upper level
        // would fall below the lower one): the level there is its limit at the pole, 1 or 0,
        // so the two levels stay in order.
        if d <= 0.0 {
            return if w > 0.0 { 1.0 } else { 0.0 };
        }
        nd.cdf(z0 + w / d)
    };
    [level(alpha / 2.0), level(1.0 - alpha / 2.0)]
}

/// The mid-rank share of the sorted statistics at `estimate`, (#{θ* < θ̂} + #{θ* ≤ θ̂}) / 2B,
/// a statistic within `tie` of θ̂ counting as equal.
pub fn mid_rank(sorted: &[f64], estimate: f64, tie: f64) -> f64 {
    let below = sorted.partition_point(|&t| t < estimate - tie);
    let at_most = sorted.partition_point(|&t| t <= estimate + tie);
    (below + at_most) as f64 / (2.0 * sorted.len() as f64)
}

/// Sorts `stats` and returns the interval (percentile or BCa; the other methods read the
/// percentile levels here). `estimate` is the statistic on the observed data; `jackknife` the
/// leave-one-unit-out values (BCa only; None or fewer than 2 gives â = 0); `tie` the distance
/// within which a resample counts as equal to the estimate (BCa's ẑ₀).
///
/// A degenerate distribution (all statistics equal) gives that value as both bounds. Under BCa,
/// a bias proportion of 0 or 1 (the estimate outside the bootstrap distribution) is clamped to
/// 1/(2B) or 1 − 1/(2B) instead of an infinite ẑ₀.
///
/// Panics if `stats` is empty.
pub fn interval(
    stats: &mut [f64],
    estimate: f64,
    jackknife: Option<&[f64]>,
    confidence: f64,
    method: IntervalMethod,
    tie: f64,
) -> Interval {
    assert!(!stats.is_empty(), "interval of an empty bootstrap sample");
    stats.sort_unstable_by(f64::total_cmp);
    let b = stats.len() as f64;
    let alpha = 1.0 - confidence;
    let levels = match method {
        IntervalMethod::Bca if stats[0] != stats[stats.len() - 1] => {
            let prop = mid_rank(stats, estimate, tie).clamp(0.5 / b, 1.0 - 0.5 / b);
            let z0 = std_normal().inverse_cdf(prop);
            let a = match jackknife {
                Some(j) if j.len() >= 2 => acceleration(j),
                _ => 0.0,
            };
            bca_levels(z0, a, confidence)
        }
        _ => [alpha / 2.0, 1.0 - alpha / 2.0],
    };
    at_levels(stats, levels)
}

/// The interval read off sorted statistics at the given quantile levels.
pub fn at_levels(sorted: &[f64], levels: [f64; 2]) -> Interval {
    let b = sorted.len() as f64;
    Interval {
        bounds: levels.map(|p| quantile_sorted(sorted, p)),
        levels,
        mc_se: levels.map(|p| mc_half_width(b, p, |q| quantile_sorted(sorted, q))),
    }
}

/// Whether `resamples` bootstrap statistics can carry a `confidence` interval: at least two
/// resamples beyond its bounds together ((1 − confidence) · B ≥ 2). Past that both bounds are
/// the extreme resamples whatever the level, and the interval claims more than it can show.
pub fn confidence_supported(confidence: f64, resamples: usize) -> bool {
    confidence > 0.0 && confidence < 1.0 && (1.0 - confidence) * resamples as f64 >= 2.0
}

/// A usable interval: both bounds finite and low ≤ high. A rule never passes on anything else.
pub fn is_valid(bounds: [f64; 2]) -> bool {
    bounds[0].is_finite() && bounds[1].is_finite() && bounds[0] <= bounds[1]
}

/// Monte-Carlo standard error of the p-quantile of the sorted bootstrap sample.
pub fn mc_se_at(sorted: &[f64], p: f64) -> f64 {
    mc_half_width(sorted.len() as f64, p, |q| quantile_sorted(sorted, q))
}

/// Half the distance between `bound` read at p ± √(p(1 − p)/B): the Monte-Carlo standard error
/// of a bound read at level p of B resamples.
pub fn mc_half_width(b: f64, p: f64, bound: impl Fn(f64) -> f64) -> f64 {
    let d = (p * (1.0 - p) / b).sqrt();
    ((bound((p + d).min(1.0)) - bound((p - d).max(0.0))) / 2.0).abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_bias_no_acceleration_is_the_percentile_interval() {
        // z0 = 0, a = 0 → levels α/2, 1 − α/2 exactly.
        let [lo, hi] = bca_levels(0.0, 0.0, 0.95);
        assert!((lo - 0.025).abs() < 1e-9 && (hi - 0.975).abs() < 1e-9);
        // Half the bootstrap sample below the estimate and no jackknife: BCa = percentile.
        let s: Vec<f64> = (0..1000).map(|i| f64::from(i) - 499.5).collect();
        let p = interval(
            &mut s.clone(),
            0.0,
            None,
            0.9,
            IntervalMethod::Percentile,
            0.0,
        );
        let b = interval(&mut s.clone(), 0.0, None, 0.9, IntervalMethod::Bca, 0.0);
        for k in 0..2 {
            assert!((p.bounds[k] - b.bounds[k]).abs() < 1e-6, "{p:?} {b:?}");
        }
    }

    #[test]
    fn bca_levels_by_hand() {
        // z0 = 0.1, a = 0.05, 95%, z = ±1.959964: Φ(0.1 + w/(1 − 0.05w)) with w = z0 + z
        // (Python's statistics.NormalDist): 0.0546101 and 0.9917237.
        let [lo, hi] = bca_levels(0.1, 0.05, 0.95);
        assert!((lo - 0.054_610_1).abs() < 1e-6, "{lo}");
        assert!((hi - 0.991_723_7).abs() < 1e-6, "{hi}");
    }

    #[test]
    fn acceleration_of_a_skewed_jackknife() {
        // θ = [0, 0, 3]: mean 1, d = [1, 1, −2]: Σd³ = −6, Σd² = 6 → â = −6 / (6·6^1.5).
        let a = acceleration(&[0.0, 0.0, 3.0]);
        assert!((a - (-1.0 / 6f64.powf(1.5))).abs() < 1e-15);
        assert_eq!(acceleration(&[2.0, 2.0]), 0.0);
    }

    #[test]
    fn bca_bias_correction_is_the_mid_rank_whatever_the_summation_order() {
        // 3 below, 4 equal, 3 above the estimate 0.3: (3 + 7) / 20 = 0.5, so ẑ₀ = 0.
        let mut s = vec![0.1, 0.2, 0.25, 0.3, 0.3, 0.3, 0.3, 0.35, 0.4, 0.5];
        assert_eq!(mid_rank(&s, 0.3, 0.0), 0.5);
        // The same resamples summed in another order: 0.1 + 0.2 is 0.30000000000000004, one
        // ulp above 0.3. Strictly, two ties would move above; within a tie tolerance they stay.
        s[3] = 0.1 + 0.2;
        s[4] = 0.2 + 0.1;
        assert_ne!(s[3], 0.3);
        s.sort_by(f64::total_cmp);
        assert_eq!(mid_rank(&s, 0.3, 1e-15), 0.5);
        assert_eq!(mid_rank(&s, 0.3, 0.0), 0.4);
        // The interval of these resamples under BCa without acceleration is the percentile one.
        let p = interval(
            &mut s.clone(),
            0.3,
            None,
            0.8,
            IntervalMethod::Percentile,
            1e-15,
        );
        let b = interval(&mut s.clone(), 0.3, None, 0.8, IntervalMethod::Bca, 1e-15);
        for k in 0..2 {
            assert!((p.bounds[k] - b.bounds[k]).abs() < 1e-9, "{p:?} {b:?}");
        }
    }

    #[test]
    fn degenerate_sample_gives_a_point() {
        let mut s = vec![0.25; 50];
        let i = interval(
            &mut s,
            0.25,
            Some(&[0.25, 0.25]),
            0.95,
            IntervalMethod::Bca,
            0.0,
        );
        assert_eq!(i.bounds, [0.25, 0.25]);
        assert_eq!(i.mc_se, [0.0, 0.0]);
    }

    #[test]
    fn mc_se_shrinks_like_one_over_root_b() {
        // Evenly spaced stand-in for a uniform bootstrap distribution on [0, 1]: the p-quantile's
        // MC error is √(p(1−p)/B) / density = √(p(1−p)/B).
        let sorted: Vec<f64> = (0..10_001).map(|i| f64::from(i) / 10_000.0).collect();
        let se = mc_se_at(&sorted, 0.025);
        let want = (0.025f64 * 0.975 / 10_001.0).sqrt();
        assert!((se / want - 1.0).abs() < 0.01, "{se} vs {want}");
    }

    #[test]
    fn bca_levels_stay_in_order_past_the_pole() {
        // a = 0.3 at 99.9999%: 1 − a(z0 + z) < 0 for the upper level; it was read below the
        // lower one (an inverted interval).
        for a in [0.3, -0.3, 0.9] {
            let [lo, hi] = bca_levels(0.2, a, 0.999_999);
            assert!(
                (0.0..=1.0).contains(&lo) && (0.0..=1.0).contains(&hi),
                "{lo} {hi}"
            );
            assert!(lo <= hi, "a = {a}: {lo} > {hi}");
        }
    }

    #[test]
    fn acceleration_of_huge_values_is_finite_and_scale_free() {
        let small: Vec<f64> = [1.0, 2.0, 4.0, 8.0, 3.0].to_vec();
        let huge: Vec<f64> = small.iter().map(|x| x * 1e299).collect();
        let (a, b) = (acceleration(&small), acceleration(&huge));
        assert!(b.is_finite(), "{b}");
        assert!((a - b).abs() < 1e-12, "{a} {b}");
        let mut stats: Vec<f64> = (0..200).map(|i| f64::from(i) * 1e297).collect();
        let iv = interval(
            &mut stats,
            1e299,
            Some(&huge),
            0.9,
            IntervalMethod::Bca,
            0.0,
        );
        assert!(is_valid(iv.bounds), "{iv:?}");
    }

    #[test]
    fn confidence_needs_resamples_beyond_its_bounds() {
        assert!(confidence_supported(0.95, 200));
        assert!(confidence_supported(0.99, 200));
        assert!(!confidence_supported(0.999, 200));
        assert!(confidence_supported(0.999, 4000));
        assert!(!confidence_supported(1.0, 1_000_000));
        assert!(!is_valid([f64::NAN, 1.0]) && !is_valid([1.0, 0.0]) && is_valid([0.0, 0.0]));
    }
}
