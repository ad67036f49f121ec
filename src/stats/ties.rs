//! The partners of the bootstrap-t interval of a mean (`resample::estimate`): on every sample
//! each bound is the widest of the bootstrap-t bound, the Student t bound on the same CR2
//! standard error and Bell–McCaffrey degrees of freedom, θ̂ ∓ t_{1−α/2, df} · ŝe, and the
//! tilted score bound (`stats::tilt`) on the same df ([`widest`]).
//!
//! Why the t bound: on heavy-tailed deltas with no ties (t₃, a latency or cost mean) the
//! bootstrap-t alone covered 91.9–93.4% at n = 30–100 ([`at_least_t`]). Why the tilted bound:
//! with few units that differ from the rest, the sample skewness the bootstrap-t corrects for is
//! noise correlated with the estimate's error, and the studentised interval leans the wrong way
//! (coverage 86–92% at n = 20–100 with 85% zero deltas and symmetric moves); the t interval is
//! conservative for symmetric data (Efron 1969, "Student's t-test under symmetry conditions",
//! JASA 64:1278), and where the moved units lie mostly on one side the tilted score bound takes
//! the variance at the hypothesised mean (a Wilson-type interval) and reaches there. These two
//! used to replace the bootstrap-t only when half or more of the units tied; a pattern of ties
//! then switched the route, and a jitter of 1e-6 on every query could turn a failure into a
//! pass. Now all three stand on every sample, so no count of ties decides anything, and each is
//! continuous in the deltas away from the one-moved hull (`stats::tilt`). The measured effect
//! is in `calibration/results.txt` and docs/statistics.md ("The verdict").
//!
//! Where every unit has the same mean (nothing moved, or every unit moved alike) there is no
//! spread and the interval is the point: nothing moved reads untouched (`verdict`), and what such
//! a sample cannot see is the gate's resolution, 1 − (α/2)^(1/G) of G units ([`unseen_share`],
//! the exact Clopper–Pearson bound for 0 of G at the interval's one-sided level; Clopper &
//! Pearson 1934, Biometrika 26:404; ≈ 3.7/G, the "rule of three" of Hanley & Lippman-Hand 1983,
//! JAMA 249:1743), stated in every report (`verdict::resolution`).
//!
//! Ties are counted among the unit means ([`tied_share`]) for the reports and references.
//!
//! Pure: numbers in, numbers out.

use super::interval::Interval;
use super::small_sample::t_quantile;

/// The share of tied units from which the guard applies.
pub const TIE_SHARE: f64 = 0.5;

/// The share of `unit_means` equal to their most common value (0 for none).
pub fn tied_share(unit_means: &[f64]) -> f64 {
    if unit_means.is_empty() {
        return 0.0;
    }
    let mut sorted = unit_means.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let (mut best, mut run) = (1usize, 1usize);
    for w in sorted.windows(2) {
        run = if w[0] == w[1] { run + 1 } else { 1 };
        best = best.max(run);
    }
    best as f64 / sorted.len() as f64
}

/// The Student t interval θ̂ ∓ t_{1−α/2, df} · se; `None` without spread or degrees of freedom.
pub fn t_bounds(estimate: f64, se: f64, df: f64, confidence: f64) -> Option<[f64; 2]> {
    if !(se > 0.0 && se.is_finite() && df > 0.0) {
        return None;
    }
    let half = t_quantile(1.0 - (1.0 - confidence) / 2.0, df) * se;
    Some([estimate - half, estimate + half])
}

/// Whether the guard applies: at least `TIE_SHARE` of the units are tied.
pub fn applies(unit_means: &[f64]) -> bool {
    tied_share(unit_means) >= TIE_SHARE
}

/// The bootstrap-t interval with each bound at least as far out as the Student t bound `t`
/// (per side the wider of the two); a side the t bound decides has no Monte-Carlo error.
///
/// Why: on heavy-tailed deltas with no ties (t₃, a latency or cost mean) the bootstrap-t alone
/// covered 91.9–93.4% at n = 30–100, missing up to 4.2% a side (its studentised quantiles,
/// read from resamples of a heavy-tailed sample, come out too short; Hall 1992 §3.5 on the
/// bootstrap-t's sensitivity to the variance estimate), and per side the wider of it and the t
/// bound covers 94.7–96.0% there (two data seeds) at 2.4–5.8% more width; where the deltas are
/// skewed the bootstrap-t's longer side is kept (calibration/results.txt, `heavy`).
pub fn at_least_t(boot: Interval, t: [f64; 2]) -> Interval {
    let mut out = boot;
    if t[0] < boot.bounds[0] {
        out.bounds[0] = t[0];
        out.mc_se[0] = 0.0;
    }
    if t[1] > boot.bounds[1] {
        out.bounds[1] = t[1];
        out.mc_se[1] = 0.0;
    }
    out
}

/// The share of `units` a change could have moved when none of them moved, at the one-sided
/// level (1 − `confidence`)/2: 1 − (α/2)^(1/G), the Clopper–Pearson bound for 0 of G.
pub fn unseen_share(units: usize, confidence: f64) -> f64 {
    super::clopper_pearson::upper(0, units.max(1), (1.0 - confidence) / 2.0)
}

/// Per side the widest of the bootstrap-t interval `boot`, the Student t bound `t` and the
/// tilted score bound `tilted` (`stats::tilt`; the t bound where it has none): the default
/// interval of a mean on every sample. A side decided by `t` or `tilted` has no Monte-Carlo
/// error. Each partner is continuous in the deltas away from ties, and none depends on how
/// many units tie, so no pattern of ties switches the route.
pub fn widest(boot: Interval, t: [f64; 2], tilted: Option<[f64; 2]>) -> Interval {
    let [low, high] = tilted.unwrap_or(t);
    at_least_t(at_least_t(boot, t), [low, high])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boot(bounds: [f64; 2]) -> Interval {
        Interval {
            bounds,
            levels: [0.975, 0.025],
            mc_se: [0.01, 0.02],
        }
    }

    #[test]
    fn tied_share_counts_the_most_common_value() {
        assert_eq!(tied_share(&[]), 0.0);
        assert_eq!(tied_share(&[0.3]), 1.0);
        assert_eq!(tied_share(&[0.0, 0.1, 0.0, -0.2, 0.0, 0.1]), 0.5);
        // A shift keeps exact ties: 0.7 − 0.01 is the same number each time.
        let shifted: Vec<f64> = [0.0, 0.0, 0.3, 0.0].iter().map(|d| d - 0.01).collect();
        assert_eq!(tied_share(&shifted), 0.75);
    }

    #[test]
    fn the_widest_of_the_three_per_side() {
        let t = [-0.5, 0.5];
        assert!(applies(&[0.0, 0.0, 0.0, 0.4, -0.3, 0.2]));
        assert!(!applies(&[0.1, 0.0, 0.0, 0.4, -0.3, 0.2]));
        let g = widest(boot([-0.3, 0.7]), t, Some([-0.4, 0.6]));
        assert_eq!(g.bounds, [-0.5, 0.7]);
        assert_eq!(g.mc_se, [0.0, 0.02]);
        assert_eq!(g.levels, [0.975, 0.025]);
        assert_eq!(widest(boot([-0.3, 0.7]), t, None).bounds, [-0.5, 0.7]);
        let g = widest(boot([-0.3, 0.2]), t, Some([-0.6, 0.4]));
        assert_eq!(g.bounds, [-0.6, 0.5]);
        assert_eq!(g.mc_se, [0.0, 0.0]);
        assert_eq!(t_bounds(1.0, 0.0, 5.0, 0.95), None);
        assert_eq!(t_bounds(1.0, 0.1, 0.0, 0.95), None);
    }

    #[test]
    fn at_least_t_widens_only_the_sides_the_t_bound_passes() {
        let b = boot([-0.3, 0.7]);
        let w = at_least_t(b, [-0.5, 0.5]);
        assert_eq!(w.bounds, [-0.5, 0.7]);
        assert_eq!(w.mc_se, [0.0, 0.02]);
        assert_eq!(w.levels, [0.975, 0.025]);
        assert_eq!(at_least_t(b, [-0.2, 0.6]).bounds, [-0.3, 0.7]);
        assert_eq!(at_least_t(b, [-0.2, 0.6]).mc_se, [0.01, 0.02]);
    }

    #[test]
    fn the_unseen_share_is_the_clopper_pearson_bound_for_none_of_g() {
        // 0 of 40 moved: 1 − 0.025^(1/40) = 0.0880973 (scipy.stats.beta.ppf(0.975, 1, 40)).
        let share = unseen_share(40, 0.95);
        assert!((share - 0.088_097_3).abs() < 1e-7, "{share}");
        // At 90% the one-sided level is 5%: 1 − 0.05^(1/40).
        assert!((unseen_share(40, 0.90) - (1.0 - 0.05f64.powf(1.0 / 40.0))).abs() < 1e-15);
    }
}
