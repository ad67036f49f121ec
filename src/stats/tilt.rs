//! The exponentially tilted score interval of a mean, the tie guard's skew-aware
//! bound: the set of μ₀ for which |θ̂ − μ₀| ≤ t_{1−α/2, df} · se(μ₀), where se(μ₀) is the
//! standard error under the least-favourable exponential tilt of the units' empirical
//! distribution whose mean is μ₀ (Efron 1981, "Nonparametric standard errors and confidence
//! intervals", Can. J. Statist. 9:139, §9; DiCiccio & Romano 1990, "Nonparametric confidence
//! limits by resampling methods and least favorable families", Int. Statist. Rev. 58:59). For
//! 0/1 deltas it is Wilson's score interval (Wilson 1927, JASA 22:209) with t in place of z and
//! n − 1 in place of n; like Wilson's, it takes the variance at the hypothesised mean, not at
//! the estimate.
//!
//! Why: when a change moves few queries, the moved share k/n is itself uncertain and the
//! sample standard error is small exactly when few moved, so the Student t bound on the side
//! away from the zeros falls short (the high side misses 5.5% with 15% of n = 100 moved up more
//! than down). Tilting towards μ₀ gives the moved units the weight they would need to have that
//! mean, and its variance with them.
//!
//! Units are (sum, size) pairs: a query is (delta, 1), a group (Σ deltas, its size); the
//! estimating function is c = sum − μ₀·size, the tilt w ∝ exp(λc) solves Σ w·c = 0, and
//! se(μ₀)² = Σ w·c² / ((G − 1)·(Σ w·size)²) with Σ w = 1, which at μ₀ = θ̂ (λ = 0) is the
//! CR1 standard error (s/√n for queries).
//!
//! **One unit off the tie.** When every unit but one has the same mean (a change that moved
//! one query, or one group), the interval is the hull of the unit means: the moved unit's mean
//! on its side. Why: the moved units' spread is what the far side's variance rests on, and with
//! one moved unit it has no degrees of freedom (Satterthwaite's ν for that part of the variance
//! is k − 1 = 0), so no t quantile exists and the score bound's reach is the data's own edge.
//! Read with t on n − 1 it is Wilson's bound times the one value x (about 0.18·x at n = 30),
//! which assumes every unseen moved unit moved by x: a drop carried by a few losses of varying
//! size then hid below the low bound in 3.85% of sets at 15% of n = 30 moved (2.05 of those
//! points from the sets with one moved query; calibration/results.txt, `heavy`).
//!
//! The far side is then pulled in to the tilted bound of the same units with the moved one
//! moved from the tie by `LONE_SCALE` (K = 10) times its own distance, or by the most a unit
//! can move (`reach`: 1 for a metric bounded to [0, 1]), whichever is less, where that is
//! nearer than the hull: the moved share is bounded by the tilt (Wilson's bound on 1 of n), and
//! the unseen moved units may lie up to K times as far from the tie as the one seen. Why K: a
//! single value bounds its own law's centre at a stated level (Abbott & Rosenblatt 1963;
//! Blachman & Machol 1987, "Confidence intervals based on one or more observations", IEEE
//! Trans. Inf. Theory 33:373), and here the sample that shows one moved unit is itself the
//! rare event when many moved. With a share p of the units moving by X of mean μ_F, a sample
//! holds one moved unit with chance n·p·(1 − p)^(n − 1), and the far side (c·x, c = K·W(n),
//! W(n) Wilson's bound on 1 of n, about 5.6 / n) misses μ = p·μ_F only when x lies between the
//! tie and (p / c)·μ_F. Where P(X between the tie and s·μ_F) ≤ s / (1 − s) (a law symmetric
//! and unimodal about μ_F gives half of it, exponential losses 1 − e^(−s)), those misses are at
//! most max over p of n·p(1 − p)^(n − 1)·s / (1 − s), s = p / c: about 0.1 / K, 1.0% of samples
//! at K = 10 for n ≥ 100 (the hull, c = 1, allows 1.9% at n = 30 by the same count), leaving the rest of
//! the one-sided 2.5% to samples with more moved. Below about 53 units K·W(n) ≥ 1 and the far
//! side stays the hull. Not covered: movers piled near the tie with a rare large loss (a mean
//! carried by what a sample of one cannot show), the distribution-free guarantee's ground.
//! With many units and a bounded metric the reach's bound is the nearer (one hit@1 flip in
//! 1,000 queries reads [−0.0056, 0], not [−1, 0]); one query of 200 jittered by −0.03 reads
//! about [−0.0084, 0], not [−0.03, 0].
//!
//! Pure: numbers in, numbers out. Each bound is found by bisection (to adjacent floats, at most
//! 200 steps), each step solving for λ by safeguarded Newton over the distinct units, so the
//! result depends on nothing but the input.

use super::small_sample::t_quantile;

/// How far from the tie the unseen moved units may lie, in multiples of the lone moved unit's
/// distance from it ("One unit off the tie"): the far side's misses through samples with one
/// moved unit stay near 0.1 / K = 1% of samples.
pub const LONE_SCALE: f64 = 10.0;

/// Distinct units with their multiplicity: (sum, size, count).
struct Units {
    rows: Vec<(f64, f64, f64)>,
    count: f64,
    estimate: f64,
    /// The smallest and largest unit mean: a tilt can reach any μ₀ strictly between them.
    range: [f64; 2],
}

impl Units {
    fn new(values: &[f64], sizes: Option<&[f64]>) -> Units {
        let mut pairs: Vec<(f64, f64)> = match sizes {
            Some(z) => values.iter().copied().zip(z.iter().copied()).collect(),
            None => values.iter().map(|&v| (v, 1.0)).collect(),
        };
        pairs.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let mut rows: Vec<(f64, f64, f64)> = Vec::new();
        for (s, n) in pairs {
            match rows.last_mut() {
                Some(last) if last.0 == s && last.1 == n => last.2 += 1.0,
                _ => rows.push((s, n, 1.0)),
            }
        }
        let (sum, size) = rows
            .iter()
            .fold((0.0, 0.0), |(a, b), r| (a + r.0 * r.2, b + r.1 * r.2));
        let means = rows.iter().map(|r| r.0 / r.1);
        let range = means.fold([f64::INFINITY, f64::NEG_INFINITY], |[lo, hi], m| {
            [lo.min(m), hi.max(m)]
        });
        Units {
            count: rows.iter().map(|r| r.2).sum(),
            rows,
            estimate: sum / size,
            range,
        }
    }

    /// The units whose mean differs from the most common unit mean.
    fn off_the_tie(&self) -> f64 {
        let mut means: Vec<(f64, f64)> = self.rows.iter().map(|r| (r.0 / r.1, r.2)).collect();
        means.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let (mut most, mut run) = (0.0f64, 0.0);
        for (i, m) in means.iter().enumerate() {
            run = if i > 0 && means[i - 1].0 == m.0 {
                run + m.1
            } else {
                m.1
            };
            most = most.max(run);
        }
        self.count - most
    }

    /// se(μ₀) under the tilt with mean μ₀, and the λ found (in units of 1 / max |c|), starting
    /// Newton from `guess`. μ₀ must lie strictly inside `range`.
    fn tilted_se(&self, mu: f64, guess: f64) -> (f64, f64) {
        let c: Vec<f64> = self.rows.iter().map(|r| r.0 - mu * r.1).collect();
        let scale = c.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        if scale == 0.0 {
            return (0.0, 0.0);
        }
        let u: Vec<f64> = c.iter().map(|v| v / scale).collect();
        let lambda = self.solve(&u, guess);
        let (mut w_sum, mut c2, mut size) = (0.0, 0.0, 0.0);
        for ((w, r), ci) in self.weights(&u, lambda).zip(&self.rows).zip(&c) {
            w_sum += w;
            c2 += w * ci * ci;
            size += w * r.1;
        }
        let (var, size) = (c2 / w_sum, size / w_sum);
        ((var / ((self.count - 1.0) * size * size)).sqrt(), lambda)
    }

    /// Each row's tilt weight m·exp(λu − max λu), unnormalised (the largest exponent is 0, so
    /// nothing overflows).
    fn weights<'a>(&'a self, u: &'a [f64], lambda: f64) -> impl Iterator<Item = f64> + 'a {
        let top = u.iter().fold(f64::NEG_INFINITY, |a, v| a.max(lambda * v));
        self.rows
            .iter()
            .zip(u)
            .map(move |(r, ui)| r.2 * (lambda * ui - top).exp())
    }

    /// The λ with Σ m·u·exp(λu) = 0 (the function rises with λ), by Newton kept inside a
    /// bracket that bisection shrinks when a step would leave it.
    fn solve(&self, u: &[f64], guess: f64) -> f64 {
        let f = |lambda: f64| {
            let (mut w_sum, mut f, mut d) = (0.0, 0.0, 0.0);
            for (w, ui) in self.weights(u, lambda).zip(u) {
                w_sum += w;
                f += w * ui;
                d += w * ui * ui;
            }
            let (f, d) = (f / w_sum, d / w_sum);
            (f, d - f * f)
        };
        let (mut lo, mut hi) = (-1.0f64, 1.0f64);
        while f(lo).0 > 0.0 && lo > -1e300 {
            lo *= 2.0;
        }
        while f(hi).0 < 0.0 && hi < 1e300 {
            hi *= 2.0;
        }
        let mut x = guess.clamp(lo, hi);
        for _ in 0..200 {
            let (fx, dx) = f(x);
            if fx == 0.0 {
                return x;
            }
            if fx < 0.0 {
                lo = x;
            } else {
                hi = x;
            }
            let newton = x - fx / dx;
            let next = if newton > lo && newton < hi && dx > 0.0 {
                newton
            } else {
                lo + (hi - lo) / 2.0
            };
            if next == x || (next - x).abs() <= 1e-15 * x.abs().max(1.0) {
                return next;
            }
            x = next;
        }
        x
    }

    /// The bound on the side of `toward` (a unit mean at the edge of `range`): the μ₀ between
    /// the estimate and `toward` where t·se(μ₀) = |θ̂ − μ₀|, by bisection to adjacent floats
    /// (under 130 steps unless the bound lies within 10⁻²⁰ of the range of 0; at most 200, a
    /// bracket of 2⁻²⁰⁰ of the range).
    fn bound(&self, crit: f64, toward: f64) -> f64 {
        let (mut inside, mut outside) = (self.estimate, toward);
        let mut lambda = 0.0;
        for _ in 0..200 {
            let mid = inside + (outside - inside) / 2.0;
            if mid == inside || mid == outside {
                break;
            }
            let (se, l) = self.tilted_se(mid, lambda);
            lambda = l;
            if crit * se >= (mid - self.estimate).abs() {
                inside = mid;
            } else {
                outside = mid;
            }
        }
        inside
    }
}

/// The tilted score interval [low, high] of the mean Σ values / Σ sizes (queries: sizes
/// `None`), at `confidence` with t on `df` degrees of freedom; `None` for fewer than two units,
/// no spread, or no degrees of freedom. `reach` is the largest |delta| one unit can have (1 for
/// a metric bounded to [0, 1]; infinite when unknown): with one unit off the tie, the far side
/// is the nearer of that unit's own mean and the tilted bound had it moved `LONE_SCALE` times
/// as far from the tie (at most the whole reach).
pub fn bounds(
    values: &[f64],
    sizes: Option<&[f64]>,
    df: f64,
    confidence: f64,
    reach: f64,
) -> Option<[f64; 2]> {
    if values.len() < 2 || df.is_nan() || df <= 0.0 {
        return None;
    }
    let units = Units::new(values, sizes);
    let spread = units.range[1] - units.range[0];
    if spread.is_nan() || spread <= 0.0 || !units.estimate.is_finite() {
        return None;
    }
    let crit = t_quantile(1.0 - (1.0 - confidence) / 2.0, df);
    if units.off_the_tie() == 1.0 {
        return Some(one_moved(&units, reach, crit));
    }
    Some([
        units.bound(crit, units.range[0]),
        units.bound(crit, units.range[1]),
    ])
}

/// One unit off the tie: the hull of the unit means, its far side pulled in to the tilted
/// bound of the same units with the moved one moved from the tie by `LONE_SCALE` times its own
/// distance, or by the whole `reach` if less, where that is nearer: the moved share is bounded
/// by the tilt, the unseen moved units' distance by K times the one seen (at most the reach,
/// which no unit can pass). With many units one moved unit no longer stretches the interval to
/// its own delta.
fn one_moved(units: &Units, reach: f64, crit: f64) -> [f64; 2] {
    let hull = units.range;
    let mean = |r: &(f64, f64, f64)| r.0 / r.1;
    let at = |m: f64| -> f64 {
        units
            .rows
            .iter()
            .filter(|r| mean(r) == m)
            .map(|r| r.2)
            .sum()
    };
    let (lo, hi) = (at(hull[0]), at(hull[1]));
    if lo == hi {
        return hull;
    }
    // One of the two edges holds the one moved unit, the other the tie.
    let (tie, up) = if lo > hi {
        (hull[0], true)
    } else {
        (hull[1], false)
    };
    let moved = if up { hull[1] } else { hull[0] };
    let scale = LONE_SCALE * (moved - tie).abs();
    let worst = tie + if up { 1.0 } else { -1.0 } * scale.min(reach + tie.abs());
    if !worst.is_finite() {
        return hull;
    }
    let mut values = Vec::new();
    let mut sizes = Vec::new();
    for r in &units.rows {
        let sum = if mean(r) == tie { r.0 } else { worst * r.1 };
        values.extend(std::iter::repeat_n(sum, r.2 as usize));
        sizes.extend(std::iter::repeat_n(r.1, r.2 as usize));
    }
    let extreme = Units::new(&values, Some(&sizes));
    if up {
        [hull[0], hull[1].min(extreme.bound(crit, extreme.range[1]))]
    } else {
        [hull[0].max(extreme.bound(crit, extreme.range[0])), hull[1]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wilson's interval with t on n − 1 df and n − 1 in the variance: the roots of
    /// (p̂ − μ)² = c²·μ(1 − μ)/(n − 1).
    fn wilson(k: f64, n: f64, c: f64) -> [f64; 2] {
        let p = k / n;
        let a = c * c / (n - 1.0);
        let centre = (p + a / 2.0) / (1.0 + a);
        let half = (a * p * (1.0 - p) + a * a / 4.0).sqrt() / (1.0 + a);
        [centre - half, centre + half]
    }

    #[test]
    fn zero_one_deltas_give_wilson_with_t() {
        for (k, n) in [(3usize, 30usize), (2, 12), (17, 40), (9, 200)] {
            let d: Vec<f64> = (0..n).map(|i| if i < k { 1.0 } else { 0.0 }).collect();
            let got = bounds(&d, None, (n - 1) as f64, 0.95, f64::INFINITY).unwrap();
            let c = t_quantile(0.975, (n - 1) as f64);
            let want = wilson(k as f64, n as f64, c);
            for s in 0..2 {
                assert!(
                    (got[s] - want[s]).abs() < 1e-12,
                    "{k}/{n}: {got:?} vs {want:?}"
                );
            }
        }
    }

    #[test]
    fn one_unit_off_the_tie_gives_the_hull() {
        // One moved query of 30: the far side reaches its delta (Wilson's with t on 29 df
        // would stop at about 0.18 of it), the near side the tied value.
        let mut d = vec![0.0; 30];
        d[7] = -0.12;
        assert_eq!(
            bounds(&d, None, 29.0, 0.95, f64::INFINITY),
            Some([-0.12, 0.0])
        );
        let c = t_quantile(0.975, 29.0);
        assert!(
            wilson(1.0, 30.0, c)[1] < 0.18,
            "Wilson's reach with one moved"
        );
        // The same for a tie at another value (a shift of every delta) and for groups: one
        // group off the tie of equal group means.
        let shifted: Vec<f64> = d.iter().map(|x| x + 0.5).collect();
        assert_eq!(
            bounds(&shifted, None, 29.0, 0.95, f64::INFINITY),
            Some([shifted[7], 0.5])
        );
        let sums = [0.8, 0.8, 0.8, 2.0];
        assert_eq!(
            bounds(&sums, Some(&[4.0, 4.0, 4.0, 4.0]), 3.0, 0.95, f64::INFINITY),
            Some([0.2, 0.5])
        );
        // Two moved units are read with the tilt as before: inside the hull.
        d[9] = -0.05;
        let [lo, hi] = bounds(&d, None, 29.0, 0.95, f64::INFINITY).unwrap();
        assert!(lo > -0.12 && hi < 0.0 + 1e-12 && lo < -0.0057, "{lo} {hi}");
    }

    #[test]
    fn one_moved_unit_of_many_is_bounded_by_the_reach() {
        // One hit@1 flip in 1,000 queries: the far side is Wilson's bound on the moved share
        // (t on 999 df) times the reach 1, not the flip itself; the near side the tie.
        let mut d = vec![0.0; 1000];
        d[3] = -1.0;
        let c = t_quantile(0.975, 999.0);
        let want = -wilson(1.0, 1000.0, c)[1];
        let [lo, hi] = bounds(&d, None, 999.0, 0.95, 1.0).unwrap();
        assert!((lo - want).abs() < 1e-9 && hi == 0.0, "{lo} {hi} vs {want}");
        assert!(lo < -0.003 && lo > -0.01, "{lo}");
        // A small move: the unseen moved queries may lie `LONE_SCALE` times as far, so the far
        // side is Wilson's bound on the moved share times 10 × 0.002, not the reach.
        d[3] = -0.002;
        let [lo, hi] = bounds(&d, None, 999.0, 0.95, 1.0).unwrap();
        assert!((lo - 0.02 * want).abs() < 1e-12 && hi == 0.0, "{lo} {hi}");
        // Few units: the hull, as with an unknown reach (the calibrated cells).
        let mut e = vec![0.0; 30];
        e[7] = -0.12;
        assert_eq!(bounds(&e, None, 29.0, 0.95, 1.0), Some([-0.12, 0.0]));
        // An upward move mirrors it.
        d[3] = 1.0;
        let [lo, hi] = bounds(&d, None, 999.0, 0.95, 1.0).unwrap();
        assert!(lo == 0.0 && (hi + want).abs() < 1e-9, "{lo} {hi}");
    }

    #[test]
    fn one_moved_unit_bounds_the_unseen_at_ten_times_its_distance() {
        // One query of 200 jittered by -0.03: Wilson's bound on 1 of 200 times 10 × 0.03
        // (about -0.0084), not the query's own -0.03; the far side scales with the move.
        let mut d = vec![0.0; 200];
        d[11] = -0.03;
        let c = t_quantile(0.975, 199.0);
        let want = -wilson(1.0, 200.0, c)[1] * LONE_SCALE * 0.03;
        let [lo, hi] = bounds(&d, None, 199.0, 0.95, 1.0).unwrap();
        assert!(
            (lo - want).abs() < 1e-12 && hi == 0.0,
            "{lo} {hi} vs {want}"
        );
        assert!(lo < -0.008 && lo > -0.009, "{lo}");
        // The same with an unknown reach (an unbounded metric): K bounds it there too.
        assert_eq!(bounds(&d, None, 199.0, 0.95, f64::INFINITY), Some([lo, hi]));
        // Where 10 × Wilson's bound on 1 of n reaches past the moved unit (n below about 53),
        // the hull stays: 50 queries.
        let mut e = vec![0.0; 50];
        e[4] = -0.03;
        assert!(LONE_SCALE * wilson(1.0, 50.0, t_quantile(0.975, 49.0))[1] > 1.0);
        assert_eq!(bounds(&e, None, 49.0, 0.95, 1.0), Some([-0.03, 0.0]));
        // A tie at another value: the distance is from the tie.
        let shifted: Vec<f64> = d.iter().map(|x| x + 0.25).collect();
        let [slo, shi] = bounds(&shifted, None, 199.0, 0.95, 1.0).unwrap();
        assert!(
            (slo - (0.25 + want)).abs() < 1e-12 && shi == 0.25,
            "{slo} {shi}"
        );
    }

    #[test]
    fn equivariant_under_shift_and_scale() {
        let d = [
            0.0, 0.0, 0.0, 0.2, 0.0, -0.1, 0.35, 0.0, 0.0, 0.05, 0.0, 0.0,
        ];
        let base = bounds(&d, None, 11.0, 0.95, f64::INFINITY).unwrap();
        let moved: Vec<f64> = d.iter().map(|x| 3.0 * x - 0.5).collect();
        let got = bounds(&moved, None, 11.0, 0.95, f64::INFINITY).unwrap();
        for s in 0..2 {
            assert!((got[s] - (3.0 * base[s] - 0.5)).abs() < 1e-12);
        }
        // The tilt reaches further on the side of the long tail (the large moves are up).
        let mean = d.iter().sum::<f64>() / 12.0;
        assert!(base[1] - mean > mean - base[0]);
    }

    #[test]
    fn equal_groups_are_their_means_and_degenerate_input_is_none() {
        let means = [0.0, 0.0, 0.1, 0.0, -0.3, 0.0, 0.25];
        let sums: Vec<f64> = means.iter().map(|m| 4.0 * m).collect();
        let a = bounds(&means, None, 6.0, 0.95, f64::INFINITY).unwrap();
        let b = bounds(&sums, Some(&[4.0; 7]), 6.0, 0.95, f64::INFINITY).unwrap();
        for s in 0..2 {
            assert!((a[s] - b[s]).abs() < 1e-12);
        }
        assert_eq!(bounds(&[0.0; 5], None, 4.0, 0.95, f64::INFINITY), None);
        assert_eq!(bounds(&[0.3], None, 1.0, 0.95, f64::INFINITY), None);
        assert_eq!(bounds(&[0.0, 1.0], None, 0.0, 0.95, f64::INFINITY), None);
    }

    #[test]
    fn extreme_magnitudes_give_finite_bounds_around_the_estimate() {
        for scale in [1e-300, 1e-12, 1.0, 1e12, 1e150, 1e300] {
            let d: Vec<f64> = [0.0, 0.0, 0.0, 0.0, 1.0, -0.5, 0.0, 0.25, 0.0, 0.0]
                .iter()
                .map(|x| x * scale)
                .collect();
            let mean = d.iter().map(|x| x / 10.0).sum::<f64>();
            let [lo, hi] = bounds(&d, None, 9.0, 0.95, f64::INFINITY).unwrap();
            assert!(lo.is_finite() && hi.is_finite(), "{scale}: {lo} {hi}");
            assert!(lo <= mean && mean <= hi, "{scale}: {lo} {mean} {hi}");
            assert!(
                lo >= -0.5 * scale && hi <= scale,
                "{scale}: inside the range"
            );
        }
    }
}
