//! The one-sided Clopper–Pearson bound of a binomial proportion (Clopper & Pearson 1934, "The
//! use of confidence or fiducial limits illustrated in the case of the binomial", Biometrika
//! 26:404). With k of n units showing a property, the upper bound on the population's share at
//! one-sided level `a` is the 1 − a quantile of Beta(k + 1, n − k), and 1 when k = n. With
//! k = 0 it is 1 − a^(1/n): a property held by fewer than that share of the population is
//! missed by n draws with probability above a (the "resolution" of n units).
//!
//! The lower bound is the a quantile of Beta(k, n − k + 1), 0 when k = 0: by the symmetry
//! Beta(k, n − k + 1) = 1 − Beta(n − k + 1, k) it is 1 − `upper(n − k, n, a)`.
//!
//! Known answers (scipy.stats.beta.ppf, in the tests): 0 of 157 at a = 0.025 → 0.0232222;
//! 5 of 157 → 0.0727532; lower, 5 of 20 → 0.0865715. Pure: numbers in, numbers out.

use statrs::distribution::{Beta, ContinuousCDF};

/// The upper bound on the share at one-sided level `a` (0 < a < 1) from `k` of `n` units;
/// 1 when `n` is 0 (nothing seen bounds nothing) or `k ≥ n`.
pub fn upper(k: usize, n: usize, a: f64) -> f64 {
    if n == 0 || k >= n {
        return 1.0;
    }
    if k == 0 {
        // Closed form of Beta(1, n)'s quantile; exact where the incomplete beta inverse is not.
        return 1.0 - a.powf(1.0 / n as f64);
    }
    let b = Beta::new(k as f64 + 1.0, (n - k) as f64).expect("shapes are positive");
    b.inverse_cdf(1.0 - a).clamp(0.0, 1.0)
}

/// The lower bound on the share at one-sided level `a` from `k` of `n` units; 0 when `k` is 0
/// (and when `n` is 0).
pub fn lower(k: usize, n: usize, a: f64) -> f64 {
    if n == 0 || k == 0 {
        return 0.0;
    }
    1.0 - upper(n - k.min(n), n, a)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// scipy 1.17.1: `beta.ppf(0.975, k + 1, n - k)` (1 when k = n).
    const SCIPY: [(usize, usize, f64); 7] = [
        (0, 157, 0.023222164603325136),
        (5, 157, 0.07275318102206686),
        (1, 43, 0.12289048270133966),
        (12, 64, 0.3046228736951483),
        (5, 5000, 0.0023321105911455896),
        (157, 157, 1.0),
        (3, 100000, 8.7670202566362e-05),
    ];

    #[test]
    fn matches_scipy() {
        for (k, n, want) in SCIPY {
            let got = upper(k, n, 0.025);
            assert!(
                (got - want).abs() <= 1e-9 * want.max(1e-3),
                "{k} of {n}: {got} vs scipy {want}"
            );
        }
    }

    /// scipy 1.17.1: `beta.ppf(0.025, k, n - k + 1)`.
    const SCIPY_LOWER: [(usize, usize, f64); 5] = [
        (1, 10, 0.0025285785444617848),
        (5, 20, 0.08657146910143461),
        (12, 64, 0.10081515935377754),
        (20, 20, 0.8315665290169146),
        (3, 100, 0.006229971538306395),
    ];

    #[test]
    fn lower_matches_scipy() {
        for (k, n, want) in SCIPY_LOWER {
            let got = lower(k, n, 0.025);
            assert!(
                (got - want).abs() <= 1e-9 * want.max(1e-3),
                "{k} of {n}: {got} vs scipy {want}"
            );
        }
        assert_eq!(lower(0, 20, 0.025), 0.0);
        assert_eq!(lower(0, 0, 0.025), 0.0);
    }

    #[test]
    fn zero_of_n_is_the_resolution() {
        assert!((upper(0, 43, 0.025) - 0.08222).abs() < 1e-5);
        assert!((upper(0, 5000, 0.025) - 0.000737).abs() < 1e-6);
        assert_eq!(upper(0, 0, 0.025), 1.0);
    }

    #[test]
    fn more_units_showing_it_never_lower_the_bound() {
        let mut last = 0.0;
        for k in 0..=50 {
            let u = upper(k, 50, 0.025);
            assert!(u >= last, "{k}: {u} < {last}");
            last = u;
        }
    }
}
