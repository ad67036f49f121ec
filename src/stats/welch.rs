//! Welch's t interval for a difference of two means with unequal variances (Welch 1947,
//! Biometrika 34:28), degrees of freedom by the Welch–Satterthwaite formula (Satterthwaite 1946,
//! Biometrics Bulletin 2:110):
//!
//!   d = x̄_c − x̄_b,  se² = s_c²/n_c + s_b²/n_b,
//!   df = se⁴ / ((s_c²/n_c)²/(n_c − 1) + (s_b²/n_b)²/(n_b − 1)),  d ± t_{1−α/2, df} · se.
//!
//! On log-measurements it is the interval of the log-ratio of geometric means, exponentiated
//! into a ratio interval (the usual analysis of timings and sizes, which vary multiplicatively;
//! e.g. Kalibera & Jones 2013, "Rigorous benchmarking in reasonable time", ISMM). Equal to scipy's
//! `ttest_ind(c, b, equal_var=False).confidence_interval()` (tests/it/stats_welch.rs, against tests/data/stats/scipy_welch.json).
//!
//! The ratio of arithmetic means mean(c) / mean(b) ([`ratio_of_means`]) takes the same form on
//! the log of the ratio by the delta method: ln r̂ ± t_{1−α/2, df} · se, se² = s_c²/(n_c x̄_c²) +
//! s_b²/(n_b x̄_b²) (the squared coefficients of variation of the two means), df Hsu's
//! min(n_b, n_c) − 1 (Hsu 1938, Statist. Res. Mem. 2:1; Scheffé 1970, JASA 65:1501: with it the
//! Welch statistic's interval is conservative for every ratio of the two variances), exponentiated (the log-scale delta interval of a
//! ratio of independent means: Katz, Baptista, Azen & Pike 1978, Biometrics 34:469; against
//! Fieller's, Hirschberg & Lye 2010, The American Statistician 64:234). Why not the ratio of
//! geometric means: a candidate with more spread has a lower geometric mean for the same
//! arithmetic one, so a gate on it passed a noisier candidate whose arithmetic mean (what the
//! metrics table shows) rose by the whole margin in 3.4–4.1% of sets at 3–5 measurements and
//! 14% at 100. Why Hsu's df and not Welch–Satterthwaite's there: read from two very unequal
//! spreads of 3–7 lognormal measurements, Welch's df is itself noisy and the noisier
//! candidate's rise by the whole margin passed in 3.4–3.7% of sets (low side 3.3–3.6% with the
//! noisier baseline); with min(n) − 1, 1.9–3.0% (calibration/numpy_welch_ratio.py, the cost in
//! width in docs/statistics.md).
//!
//! Values are scaled by an exact power of two before squaring, so replicates near 1e160 (or up
//! to f64's largest) never overflow the variance. Pure, O(n).

use super::small_sample::t_quantile;

/// An interval of candidate − baseline (or of the ratio, for [`log_ratio`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WelchInterval {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
    pub df: f64,
}

fn mean_var(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let v = x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, v)
}

/// Welch's interval of mean(candidate) − mean(baseline). None with fewer than two values a side,
/// a value that is not finite, or an interval too wide for an f64 (values near ±1e308 of both
/// signs). With no spread on either side the interval is the point (df reported as infinite).
///
/// The values are first divided by a power of two at least their largest magnitude (exact, so
/// the numbers are unchanged), so the squares in the variance cannot overflow (values near
/// 1e160 gave an infinite variance, a NaN df and a panic); where the squares of tiny variances
/// underflow, df is computed from the two shares of se², which lie in [0, 1].
pub fn difference(baseline: &[f64], candidate: &[f64], confidence: f64) -> Option<WelchInterval> {
    if baseline.len() < 2 || candidate.len() < 2 {
        return None;
    }
    let largest = baseline
        .iter()
        .chain(candidate)
        .fold(0.0f64, |m, v| m.max(v.abs()));
    if !largest.is_finite() {
        return None;
    }
    let scale = if largest > 1.0 {
        2f64.powi(largest.log2().ceil() as i32)
    } else {
        1.0
    };
    let scaled = |x: &[f64]| x.iter().map(|v| v / scale).collect::<Vec<f64>>();
    let (nb, nc) = (baseline.len() as f64, candidate.len() as f64);
    let (mb, vb) = mean_var(&scaled(baseline));
    let (mc, vc) = mean_var(&scaled(candidate));
    let (ab, ac) = (vb / nb, vc / nc);
    let se2 = ab + ac;
    let d = (mc - mb) * scale;
    if !d.is_finite() {
        return None;
    }
    if se2 <= 0.0 {
        return Some(WelchInterval {
            estimate: d,
            low: d,
            high: d,
            df: f64::INFINITY,
        });
    }
    let df = se2 * se2 / (ab * ab / (nb - 1.0) + ac * ac / (nc - 1.0));
    // Squares of tiny variances can underflow to 0/0: then the same df from the two shares of
    // se², which lie in [0, 1].
    let df = if df.is_finite() && df > 0.0 {
        df
    } else {
        let (sb, sc) = (ab / se2, ac / se2);
        1.0 / (sb * sb / (nb - 1.0) + sc * sc / (nc - 1.0))
    };
    let half = t_quantile(1.0 - (1.0 - confidence) / 2.0, df) * se2.sqrt() * scale;
    let (low, high) = (d - half, d + half);
    if !(low.is_finite() && high.is_finite()) {
        return None;
    }
    Some(WelchInterval {
        estimate: d,
        low,
        high,
        df,
    })
}

/// The ratio geomean(candidate) / geomean(baseline) and its interval: Welch's interval on the
/// logarithms, exponentiated. None with fewer than two values a side or a value ≤ 0.
pub fn log_ratio(baseline: &[f64], candidate: &[f64], confidence: f64) -> Option<WelchInterval> {
    if baseline.iter().chain(candidate).any(|&v| v <= 0.0) {
        return None;
    }
    let ln = |x: &[f64]| x.iter().map(|v| v.ln()).collect::<Vec<f64>>();
    let w = difference(&ln(baseline), &ln(candidate), confidence)?;
    Some(WelchInterval {
        estimate: w.estimate.exp(),
        low: w.low.exp(),
        high: w.high.exp(),
        df: w.df,
    })
}

/// The degrees of freedom of the ratio-of-means interval: Hsu's min(n_b, n_c) − 1 (module
/// header), whatever the spreads.
pub fn ratio_df(nb: f64, nc: f64) -> f64 {
    nb.min(nc) - 1.0
}

/// The ratio mean(candidate) / mean(baseline) and its interval: the log-scale delta method
/// with Hsu's df (module header). None with fewer than two values a side, a mean
/// ≤ 0 or a value that is not finite. With no spread on either side the interval is the point.
pub fn ratio_of_means(
    baseline: &[f64],
    candidate: &[f64],
    confidence: f64,
) -> Option<WelchInterval> {
    if baseline.len() < 2 || candidate.len() < 2 {
        return None;
    }
    // Each side's mean and squared coefficient of variation of its mean (scale-free, so each
    // side is first divided by a power of two at least its largest magnitude).
    let side = |x: &[f64]| -> Option<(f64, f64)> {
        let largest = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if !largest.is_finite() {
            return None;
        }
        let scale = 2f64.powi(largest.log2().ceil().clamp(-1000.0, 1023.0) as i32);
        let scaled: Vec<f64> = x.iter().map(|v| v / scale).collect();
        let (m, v) = mean_var(&scaled);
        (m > 0.0).then(|| (m * scale, v / (m * m * x.len() as f64)))
    };
    let ((mb, ab), (mc, ac)) = (side(baseline)?, side(candidate)?);
    let (nb, nc) = (baseline.len() as f64, candidate.len() as f64);
    let estimate = mc / mb;
    let se2 = ab + ac;
    if !estimate.is_finite() || estimate <= 0.0 {
        return None;
    }
    if se2 <= 0.0 {
        return Some(WelchInterval {
            estimate,
            low: estimate,
            high: estimate,
            df: f64::INFINITY,
        });
    }
    let df = ratio_df(nb, nc);
    let half = t_quantile(1.0 - (1.0 - confidence) / 2.0, df) * se2.sqrt();
    let (low, high) = ((estimate.ln() - half).exp(), (estimate.ln() + half).exp());
    (low.is_finite() && high.is_finite()).then_some(WelchInterval {
        estimate,
        low,
        high,
        df,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_few_values_or_a_non_positive_one_give_none() {
        assert!(difference(&[1.0], &[1.0, 2.0], 0.95).is_none());
        assert!(log_ratio(&[1.0, 0.0], &[1.0, 2.0], 0.95).is_none());
    }

    #[test]
    fn values_near_1e160_give_a_finite_interval_and_beyond_f64_none() {
        let b = [1e160, 2e160, 3e160];
        let c = [1.5e160, 2.5e160, 3.5e160];
        let w = difference(&b, &c, 0.95).expect("finite");
        assert!((w.estimate / 0.5e160 - 1.0).abs() < 1e-12);
        assert!(w.low < w.estimate && w.estimate < w.high && w.df > 0.0);
        let small = difference(&[1.0, 2.0, 3.0], &[1.5, 2.5, 3.5], 0.95).unwrap();
        assert!((w.low / 1e160 - small.low).abs() < 1e-12);
        assert!((w.df - small.df).abs() < 1e-9);
        assert!(difference(&[-1.7e308, 1.7e308], &[1.7e308, -1.7e308, 1.7e308], 0.95).is_none());
        assert!(difference(&[f64::INFINITY, 1.0], &[1.0, 2.0], 0.95).is_none());
    }

    #[test]
    fn ratio_of_means_by_hand() {
        // b = 90, 100, 110 (mean 100, var 100), c = 100, 120, 140 (mean 120, var 400):
        // se² = 100/(3·100²) + 400/(3·120²) = 0.0033333 + 0.0092593 = 0.0125926;
        // df = min(3, 3) − 1 = 2 (Hsu); t(0.975, 2) = 4.302653 (scipy.stats.t.ppf);
        // exp(ln 1.2 ∓ 4.302653·0.1122167) = [0.740442, 1.944784].
        let w = ratio_of_means(&[90.0, 100.0, 110.0], &[100.0, 120.0, 140.0], 0.95).unwrap();
        assert!((w.estimate - 1.2).abs() < 1e-12);
        assert_eq!(w.df, 2.0, "{w:?}");
        assert!((w.low - 0.740_442).abs() < 1e-5, "{w:?}");
        assert!((w.high - 1.944_784).abs() < 1e-5, "{w:?}");
        // Scale-free, and defined for values near f64's largest.
        let big = ratio_of_means(&[9e307, 1e308, 1.1e308], &[1e308, 1.2e308, 1.4e308], 0.95);
        let big = big.unwrap();
        assert!((big.low - w.low).abs() < 1e-9 && (big.high - w.high).abs() < 1e-9);
        assert!(ratio_of_means(&[-1.0, 0.5], &[1.0, 2.0], 0.95).is_none());
        assert!(ratio_of_means(&[1.0], &[1.0, 2.0], 0.95).is_none());
        let flat = ratio_of_means(&[2.0, 2.0], &[3.0, 3.0], 0.95).unwrap();
        assert_eq!((flat.low, flat.estimate, flat.high), (1.5, 1.5, 1.5));
    }

    #[test]
    fn no_spread_gives_the_point() {
        let w = difference(&[2.0, 2.0, 2.0], &[3.0, 3.0, 3.0], 0.95).unwrap();
        assert_eq!((w.low, w.estimate, w.high), (1.0, 1.0, 1.0));
    }
}
