//! The upper bound of a population mean from worst-case values in [0, 1] of which most are 0:
//! the finite-sample, distribution-free bound of Gaffke (2005, "Three test statistics for a
//! nonparametric one-sided hypothesis on the mean of a nonnegative variable", Mathematical
//! Methods of Statistics 14:451) and Learned-Miller & Thomas (2019, arXiv:1905.06208), as in
//! `dirichlet_bound`: the 1 − a quantile of
//!
//! ```text
//! Σᵢ Wᵢ wᵢ + Wₙ₊₁ · 1,   W ~ Dirichlet(1, …, 1) on n + 1 points,
//! ```
//!
//! the extra point an unseen unit at the worst value 1. Units with equal values are drawn
//! together: the Exp(1) weights of c equal units sum to one Gamma(c) draw (Marsaglia & Tsang
//! 2000, "A simple method for generating gamma variables", ACM TOMS 26:363, on Box–Muller
//! normals), so a draw costs O(distinct values), not O(units): 10⁵ unchanged queries are one
//! Gamma draw. The law is the same as the per-unit draws of `dirichlet_bound`.
//!
//! **Known answer.** With k values 1 and n − k values 0 the sum is Beta(k + 1, n − k): the
//! bound is the Clopper–Pearson upper bound of k of n (`clopper_pearson`), checked in the tests.
//! Pure: the stream is ChaCha8 from the caller's key; the same key gives the same bound.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A uniform draw in (0, 1].
fn open_uniform(rng: &mut ChaCha8Rng) -> f64 {
    1.0 - rng.random::<f64>()
}

/// A standard normal draw (Box–Muller, one of the pair).
fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let (u, v) = (open_uniform(rng), rng.random::<f64>());
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A Gamma(shape, 1) draw for shape ≥ 1 (Marsaglia & Tsang); shape 1 is Exp(1).
fn gamma(shape: f64, rng: &mut ChaCha8Rng) -> f64 {
    if shape == 1.0 {
        return -open_uniform(rng).ln();
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = open_uniform(rng);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// The upper bound at one-sided level `a` of the mean of a population whose units lie in
/// [0, 1], from `values` (the nonzero ones; each clamped to [0, 1]) among `units` units (the
/// others 0), with `draws` Dirichlet draws keyed by `key`. 1 without units or draws.
pub fn upper(values: &[f64], units: usize, a: f64, draws: usize, key: [u8; 32]) -> f64 {
    if units == 0 || draws == 0 {
        return 1.0;
    }
    if values.iter().all(|&v| v == 0.0 || v >= 1.0) {
        // Zeros and ones: the sum is Beta(k + 1, n − k) exactly (Clopper–Pearson).
        let k = values.iter().take(units).filter(|&&v| v >= 1.0).count();
        return super::clopper_pearson::upper(k, units, a);
    }
    let mut counts: BTreeMap<u64, usize> = BTreeMap::new();
    for v in values.iter().take(units) {
        let v = if v.is_nan() { 1.0 } else { v.clamp(0.0, 1.0) };
        *counts.entry(v.to_bits()).or_default() += 1;
    }
    let seen: usize = counts.values().sum();
    let zeros = units - seen + counts.remove(&0.0f64.to_bits()).unwrap_or(0);
    let groups: Vec<(f64, f64)> = counts
        .into_iter()
        .map(|(bits, c)| (f64::from_bits(bits), c as f64))
        .collect();
    let mut rng = ChaCha8Rng::from_seed(key);
    let mut sums: Vec<f64> = Vec::with_capacity(draws);
    for _ in 0..draws {
        let unseen = gamma(1.0, &mut rng);
        let (mut sum, mut total) = (unseen, unseen);
        for &(v, c) in &groups {
            let g = gamma(c, &mut rng);
            sum += g * v;
            total += g;
        }
        if zeros > 0 {
            total += gamma(zeros as f64, &mut rng);
        }
        sums.push(sum / total);
    }
    sums.sort_unstable_by(f64::total_cmp);
    // The 1 − a quantile read outward: the k-th largest with k = ⌊a · draws⌋, at least 1.
    super::dirichlet_bound::outward(&sums, a, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::clopper_pearson;

    #[test]
    fn zeros_and_ones_give_the_clopper_pearson_bound() {
        for (k, n) in [(0usize, 43usize), (0, 157), (5, 157), (12, 64), (3, 5000)] {
            assert_eq!(
                upper(&vec![1.0; k], n, 0.025, 1, [3; 32]),
                clopper_pearson::upper(k, n, 0.025)
            );
            // The Monte-Carlo route agrees: ones just below 1 are drawn, not closed-form.
            let got = upper(&vec![1.0 - 1e-12; k], n, 0.025, 40_000, [3; 32]);
            let want = clopper_pearson::upper(k, n, 0.025);
            assert!(
                (got - want).abs() < 0.06 * want,
                "{k} of {n}: {got} vs Clopper–Pearson {want}"
            );
        }
    }

    #[test]
    fn smaller_worst_values_give_a_smaller_bound() {
        let ones = upper(&[1.0; 5], 1000, 0.025, 4000, [9; 32]);
        let tenths = upper(&[0.1; 5], 1000, 0.025, 4000, [9; 32]);
        assert!(tenths < ones, "{tenths} vs {ones}");
        // The unseen unit at 1 keeps it above the zero-changes bound's half.
        assert!(tenths > clopper_pearson::upper(0, 1000, 0.025) * 0.5);
    }

    #[test]
    fn the_gamma_draws_have_their_mean() {
        let mut rng = ChaCha8Rng::from_seed([1; 32]);
        for shape in [1.0, 2.0, 30.0, 5000.0] {
            let m: f64 = (0..20_000).map(|_| gamma(shape, &mut rng)).sum::<f64>() / 20_000.0;
            assert!((m / shape - 1.0).abs() < 0.03, "Gamma({shape}) mean {m}");
        }
    }

    #[test]
    fn same_key_same_bound() {
        let v = [0.3, 0.5, 1.0];
        assert_eq!(
            upper(&v, 200, 0.025, 2000, [5; 32]),
            upper(&v, 200, 0.025, 2000, [5; 32])
        );
        assert_eq!(upper(&[], 0, 0.025, 2000, [5; 32]), 1.0);
    }
}
