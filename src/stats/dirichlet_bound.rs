//! The finite-sample, distribution-free bound of a mean of values with a known worst case
//! (Gaffke 2005, "Three test statistics for a nonparametric one-sided hypothesis on the mean of
//! a nonnegative variable", Mathematical Methods of Statistics 14:451; Learned-Miller & Thomas
//! 2019, "A new confidence interval for the mean of a bounded random variable",
//! arXiv:1905.06208). For units d₁ … dₙ that can each be no lower than a (the worst oriented
//! delta one unit can take), the lower bound at one-sided level α/2 is the α/2 quantile of
//!
//! ```text
//! Σᵢ Wᵢ dᵢ + Wₙ₊₁ · a,   W ~ Dirichlet(1, …, 1) on n + 1 points,
//! ```
//!
//! and the upper bound the 1 − α/2 quantile of the same sum with +a' in place of a (the worst
//! move the other way). The extra point is the unseen unit that could sit at the worst case:
//! the bound uses every delta and assumes nothing of their distribution but that floor.
//!
//! **Units.** A query is (delta, 1). With the group unit a group is (Σ deltas, size) and the
//! mean is the size-weighted one the report gives, Σ W·sum / Σ W·size; the unseen unit is a
//! group of the mean size at the worst mean. A size-1 group is a query: the query unit is the
//! special case.
//!
//! **Draws.** Dirichlet weights are independent Exp(1) draws (−ln U) over their sum, one per
//! unit in the order given, then one for the unseen unit. Units with equal values could be
//! drawn as one Gamma(count), at O(distinct units) a draw; that is not done here, because it
//! couples the draws to the pattern of equal values: with one Exp(1) per unit in a fixed order
//! the bound is monotone and continuous in every delta for a fixed key, not only in law. A
//! draw costs O(units). The stream is ChaCha8 from the caller's key: the same key gives the same
//! bound.
//!
//! **Known answer.** With every delta 0 the sum is a·Wₙ₊₁, and Wₙ₊₁ ~ Beta(1, n), whose
//! 1 − α/2 quantile is 1 − (α/2)^(1/n): the lower bound is a·(1 − (α/2)^(1/n)), the
//! Clopper–Pearson bound of 0 moved of n times the worst move (0.0822 at n = 43, 95%).
//!
//! **Monotone and continuous.** For each draw the sum is increasing and continuous in every
//! dᵢ, so with the draws fixed (the same key, units in the same order) its quantile is
//! too; lowering a delta never raises the bound (`tests/it/stats_props_analysis.rs`).
//!
//! Pure: numbers in, numbers out.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// An Exp(1) draw, −ln U with U in (0, 1].
fn exp1(rng: &mut ChaCha8Rng) -> f64 {
    -(1.0 - rng.random::<f64>()).ln()
}

/// The `level` quantile of `sorted` read conservatively outward: the k-th smallest with
/// k = ⌊level · B⌋ (at least the first) for a low level, its mirror for a high one.
pub(crate) fn outward(sorted: &[f64], level: f64, low: bool) -> f64 {
    let b = sorted.len();
    let k = ((level * b as f64).floor() as usize).clamp(1, b);
    if low {
        sorted[k - 1]
    } else {
        sorted[b - k]
    }
}

/// The distribution-free interval [low, high] of the mean Σ values / Σ sizes (queries: sizes
/// `None`) at `confidence` (each side at (1 − confidence)/2), where one unit's mean can be no
/// lower than −`worst` and no higher than +`worst`, from `draws` Dirichlet draws keyed by
/// `key`. `None` without units, draws, or a finite positive `worst`.
pub fn bounds(
    values: &[f64],
    sizes: Option<&[f64]>,
    worst: f64,
    confidence: f64,
    draws: usize,
    key: [u8; 32],
) -> Option<[f64; 2]> {
    if values.is_empty() || draws == 0 || !(worst.is_finite() && worst > 0.0) {
        return None;
    }
    let size_of = |i: usize| sizes.map_or(1.0, |z| z[i]);
    let mean_size = (0..values.len()).map(size_of).sum::<f64>() / values.len() as f64;
    let mut rng = ChaCha8Rng::from_seed(key);
    let mut lows = Vec::with_capacity(draws);
    let mut highs = Vec::with_capacity(draws);
    for _ in 0..draws {
        let (mut sum, mut size) = (0.0, 0.0);
        for (i, &s) in values.iter().enumerate() {
            let g = exp1(&mut rng);
            sum += g * s;
            size += g * size_of(i);
        }
        let e = exp1(&mut rng) * mean_size;
        lows.push((sum - e * worst) / (size + e));
        highs.push((sum + e * worst) / (size + e));
    }
    lows.sort_unstable_by(f64::total_cmp);
    highs.sort_unstable_by(f64::total_cmp);
    let side = (1.0 - confidence) / 2.0;
    Some([outward(&lows, side, true), outward(&highs, side, false)])
}

/// The bound with every delta 0 on `units` units: ∓ worst · (1 − (α/2)^(1/units)).
pub fn zero_bound(units: usize, worst: f64, confidence: f64) -> f64 {
    worst * super::ties::unseen_share(units, confidence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_zero_deltas_give_the_clopper_pearson_reach() {
        for n in [20usize, 43, 100] {
            let b = bounds(&vec![0.0; n], None, 1.0, 0.95, 40_000, [7; 32]).unwrap();
            let want = zero_bound(n, 1.0, 0.95);
            // Monte-Carlo error of a 2.5% quantile from 40,000 draws: about 2% of the value.
            assert!(
                (b[0] + want).abs() < 0.03 * want,
                "n {n}: {} vs {}",
                b[0],
                -want
            );
            assert!(
                (b[1] - want).abs() < 0.03 * want,
                "n {n}: {} vs {want}",
                b[1]
            );
        }
        assert!((zero_bound(43, 1.0, 0.95) - 0.0822).abs() < 1e-4);
    }

    #[test]
    fn lowering_a_delta_never_raises_the_bound() {
        let d = vec![0.1, -0.2, 0.0, 0.0, 0.3, 0.05, -0.01, 0.0];
        let base = bounds(&d, None, 1.0, 0.95, 2_000, [5; 32]).unwrap();
        for i in 0..d.len() {
            let mut lower = d.clone();
            lower[i] -= 0.05;
            let b = bounds(&lower, None, 1.0, 0.95, 2_000, [5; 32]).unwrap();
            assert!(b[0] <= base[0] && b[1] <= base[1], "{i}: {b:?} vs {base:?}");
        }
    }

    #[test]
    fn a_size_one_group_is_a_query() {
        let d = [0.1, -0.2, 0.0, 0.0, 0.3];
        let q = bounds(&d, None, 1.0, 0.95, 2_000, [1; 32]).unwrap();
        let g = bounds(&d, Some(&[1.0; 5]), 1.0, 0.95, 2_000, [1; 32]).unwrap();
        assert_eq!(q, g);
    }

    #[test]
    fn nothing_without_units_or_a_worst_case() {
        assert_eq!(bounds(&[], None, 1.0, 0.95, 100, [0; 32]), None);
        assert_eq!(
            bounds(&[0.1], None, f64::INFINITY, 0.95, 100, [0; 32]),
            None
        );
        assert_eq!(bounds(&[0.1], None, 1.0, 0.95, 0, [0; 32]), None);
    }
}
