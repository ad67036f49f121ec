//! The error spent over a candidate's re-runs: the level each attempt is judged at, so that
//! re-running a change until it passes (re-runs, empty commits, amends, rebases: attempts of one
//! candidate) passes no more often than one attempt does.
//!
//! Each attempt is another look at growing evidence. Judged at the same level every time, the
//! chance of a pass somewhere in k looks grows with k (Armitage, McPherson & Rowe 1969, J. R.
//! Stat. Soc. A 132:235, "Repeated significance tests on accumulating data"). Group-sequential
//! designs spend the error over the looks (Lan & DeMets 1983, Biometrika 70:659, "Discrete
//! sequential boundaries for clinical trials"); their boundaries assume a known correlation
//! between looks, which re-runs do not have (a deterministic retriever adds nothing, a noisy one
//! nearly independent runs). The schedule here is the Bonferroni one, valid whatever the
//! correlation: P(some look passes) ≤ Σ α_f by the union bound.
//!
//! Schedule, with α the one-sided level of the configured interval ((1 − confidence)/2, 2.5%
//! at 0.95) and f the candidate's earlier attempts that did not pass:
//! - f = 0: α, the configured level (a first attempt, or re-runs after passes only);
//! - f ≥ 1: α · 2^−f / 10 (α/20, α/40, …), whose sum over f ≥ 1 is α/10.
//!
//! A false pass at the margin can only come at the first passing attempt, and every attempt
//! before it failed; so the chance of passing within any number of tries is at most
//! α + α/10, against α for one try, whatever the retriever's noise. Honest re-runs of a noisy
//! retriever keep most of their chance: the pooled runs narrow the interval faster than the
//! level widens it.
//!
//! An interval computed at the configured level is read at the spent level by stretching each
//! half-width (from the estimate) by q(α_f)/q(α), q the upper quantile of Student's t with the
//! estimate's degrees of freedom (the normal's without finite ones). For the t and jackknife t
//! intervals of the engine this is the interval at the spent level; for percentile, BCa and
//! bootstrap-t intervals it keeps their skew and reads their spread as a t's (a bootstrap's
//! tail at α/20 would need tens of thousands of resamples). Below a one-sided level of 1e-12
//! (after 32 failing attempts at 0.95) nothing is left to spend: no interval passes.
//!
//! Pure: numbers in, numbers out.

/// The share of the configured one-sided level an attempt is judged at after `failed` earlier
/// attempts of its candidate that did not pass: 1, then 2^−f / 10.
pub fn share(failed: u32) -> f64 {
    if failed == 0 {
        1.0
    } else {
        // Past `SMALLEST_LEVEL` (f = 32 at 0.95) no interval passes; 2^−f itself underflows to
        // 0 past f = 1074.
        0.5f64.powi(failed.min(2000) as i32) / 10.0
    }
}

/// The two-sided confidence an attempt after `failed` failing ones is judged at:
/// 1 − (1 − confidence) · [`share`].
pub fn spent_confidence(confidence: f64, failed: u32) -> f64 {
    1.0 - (1.0 - confidence) * share(failed)
}

/// The smallest one-sided level an interval is read at: below it nothing is left to spend and
/// no interval passes (at the default 0.95, after 32 failing attempts of one change). Student's
/// t quantile (statrs' inverse incomplete beta) is exact to it, not far beyond.
pub const SMALLEST_LEVEL: f64 = 1e-12;

/// The upper `p` tail quantile of Student's t with `df` degrees of freedom (the normal's when
/// `df` is not finite and positive), computed from the lower tail so tiny `p` keep precision;
/// infinite below [`SMALLEST_LEVEL`].
fn upper(p: f64, df: f64) -> f64 {
    if p < SMALLEST_LEVEL {
        return f64::INFINITY;
    }
    let df = if df.is_finite() && df > 0.0 {
        df
    } else {
        f64::INFINITY
    };
    -super::small_sample::t_quantile(p, df)
}

/// How far each half-width of an interval at `confidence` stretches to be read after `failed`
/// failing attempts: q(α · share) / q(α), α = (1 − confidence)/2; 1 when nothing is spent.
pub fn stretch(confidence: f64, failed: u32, df: f64) -> f64 {
    if failed == 0 {
        return 1.0;
    }
    let alpha = (1.0 - confidence) / 2.0;
    upper(alpha * share(failed), df) / upper(alpha, df)
}

/// `ci` around `estimate`, each half-width stretched by `factor` (a half-width of 0, an interval
/// that is its point, stays 0; a bound that is not finite stays as it is).
pub fn widen(ci: [f64; 2], estimate: f64, factor: f64) -> [f64; 2] {
    let side = |bound: f64| {
        let half = bound - estimate;
        if half == 0.0 || !bound.is_finite() {
            bound
        } else {
            estimate + half * factor
        }
    };
    [side(ci[0]), side(ci[1])]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_attempt_is_judged_at_the_configured_level() {
        assert_eq!(share(0), 1.0);
        assert_eq!(spent_confidence(0.95, 0), 0.95);
        assert_eq!(stretch(0.95, 0, 12.0), 1.0);
        assert_eq!(widen([-0.03, 0.01], -0.01, 1.0), [-0.03, 0.01]);
    }

    #[test]
    fn the_later_levels_sum_to_a_tenth_of_the_first() {
        let total: f64 = (1..=2000).map(share).sum();
        assert!((total - 0.1).abs() < 1e-15, "{total}");
        assert!((spent_confidence(0.95, 1) - 0.9975).abs() < 1e-15);
        assert!((spent_confidence(0.95, 2) - 0.99875).abs() < 1e-15);
        assert_eq!(share(5000), 0.0);
    }

    /// Known answers from scipy 1.x: `norm.isf(a)` and `t.isf(a, df)`.
    #[test]
    fn the_stretch_is_the_ratio_of_scipy_quantiles() {
        let cases = [
            // (failed, df, q(α·share) from scipy, q(α) from scipy), α = 0.025
            (1, f64::INFINITY, 3.0233414397391476, 1.9599639845400545),
            (2, f64::INFINITY, 3.2272184259631564, 1.9599639845400545),
            (9, f64::INFINITY, 4.4222988548898226, 1.9599639845400545),
            (1, 10.0, 4.004530447670975, 2.2281388519862753),
            (9, 10.0, 8.172278300854968, 2.2281388519862753),
            (1, 199.0, 3.062312069633608, 1.9719565442517537),
            (9, 199.0, 4.539141282514013, 1.9719565442517537),
        ];
        // At the smallest level: scipy's isf(1e-12) over isf(0.025).
        for (df, far, near) in [
            (f64::INFINITY, 7.034483825301131, 1.9599639845400545),
            (10.0, 40.5320961786626, 2.2281388519862753),
            (199.0, 7.505733833748475, 1.9719565442517537),
        ] {
            let got = upper(SMALLEST_LEVEL, df) / upper(0.025, df);
            assert!((got - far / near).abs() < 1e-6 * far / near, "{df}: {got}");
        }
        assert_eq!(upper(SMALLEST_LEVEL / 2.0, 10.0), f64::INFINITY);
        for (failed, df, far, near) in cases {
            let got = stretch(0.95, failed, df);
            let want = far / near;
            assert!(
                (got - want).abs() < 1e-6 * want,
                "{failed} {df}: {got} vs {want}"
            );
        }
    }

    #[test]
    fn widening_keeps_the_estimate_and_the_skew() {
        let w = widen([-0.03, 0.02], -0.01, 2.0);
        assert!(
            (w[0] + 0.05).abs() < 1e-15 && (w[1] - 0.05).abs() < 1e-15,
            "{w:?}"
        );
        // An untouched comparison (its interval the point) stays the point.
        assert_eq!(widen([0.0, 0.0], 0.0, 3.0), [0.0, 0.0]);
        assert_eq!(
            widen([f64::NEG_INFINITY, 0.1], 0.0, 3.0)[0],
            f64::NEG_INFINITY
        );
        // Nothing left to spend: no bound passes.
        let gone = widen([-0.01, 0.01], 0.0, stretch(0.95, 3000, f64::INFINITY));
        assert_eq!(gone, [f64::NEG_INFINITY, f64::INFINITY]);
    }
}
