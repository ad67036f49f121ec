//! The tie guard of the bootstrap-t interval of a mean: when half or more of the
//! units are exact ties (a change that leaves most queries' metric exactly unchanged), each
//! bound is the wider of the Student t bound on the same CR2 standard error and Bell–McCaffrey
//! degrees of freedom, θ̂ ∓ t_{1−α/2, df} · ŝe, and the tilted score bound (`stats::tilt`) on the
//! same df; the bootstrap-t bound is not used there.
//!
//! Why: with few units that differ from the rest, the sample skewness the bootstrap-t corrects
//! for is noise correlated with the estimate's error, and the studentised interval leans the
//! wrong way (coverage 86–92% at n = 20–100 with 85% zero deltas and symmetric moves). The t
//! interval is conservative for symmetric data (Efron 1969, "Student's t-test under symmetry
//! conditions", JASA 64:1278). Where the moved units lie mostly on one side, the moved share is
//! itself uncertain and the t bound on the far side falls short; the tilted score bound takes
//! the variance at the hypothesised mean (a Wilson-type interval) and reaches there, without
//! reading a skewness from the few moved values. The bootstrap-t bound (Hall 1988, Ann.
//! Statist. 16:927) is not the partner: as one it over-covered skewed sparse data (99.2–99.6%)
//! and missed the far side of asymmetric moves (5.5% at 15% of n = 100). The
//! measured effect is in `calibration/results.txt` and docs/statistics.md.
//!
//! With one unit off the tie the tilted bound is the hull of the unit means (`stats::tilt`):
//! the moved unit's value on its side, since one moved value says nothing of the moved units'
//! spread.
//!
//! Ties are counted among the unit means (a query's delta, or a group's sum over its size):
//! the share of units equal to the most common value, so a shift of every delta by the same
//! amount (a true delta on a `max-drop` margin) keeps the guard's decision.
//!
//! Without ties, each bootstrap-t bound is at least the same Student t bound
//! ([`at_least_t`]): the heavy-tail floor.
//!
//! **No unit off the tie** ([`none_moved`]): when every unit has the same mean (nothing moved,
//! or every unit moved alike) there is no spread and every resampling interval is the point θ̂,
//! yet a change that moves a few units off the tie may simply have moved none of this sample's.
//! Zero off the tie among G units bounds the share a change could have moved there unseen to
//! 1 − (α/2)^(1/G), the exact Clopper–Pearson bound for 0 of G at the interval's one-sided level
//! (Clopper & Pearson 1934, Biometrika 26:404; ≈ 3.7/G, the "rule of three" of Hanley &
//! Lippman-Hand 1983, JAMA 249:1743), and each bound lies that share × the most one unit can
//! move from the tie from θ̂: the metric's range (`Comparison::value_range`: 1 for a metric
//! bounded to [0, 1]) where nothing moved, that plus |θ̂| from a tie off zero, as the one-moved
//! rule reaches (`stats::tilt`). Only the share off the tie is unknown, and the bound holds
//! whatever the unseen values within the range. Why: a drop carried by 15% of 20 queries leaves
//! none moved in 3.9% of samples, and every one of them read [0, 0] and hid the drop (the low
//! side missed 4.05%); with every untouched query on a common offset and 5% of 20 moved, 36% of
//! samples had no query off it and passed `max-drop` at the margin on the point
//! (calibration/results.txt, `heavy`, `sparse`).
//!
//! Pure: numbers in, numbers out; O(G log G) (the tilt: O(distinct units) a bisection step).

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
    let side = (1.0 - confidence) / 2.0;
    1.0 - side.powf(1.0 / units.max(1) as f64)
}

/// The interval of a mean where no unit is off the tie (every unit mean equals `estimate`):
/// `estimate` ∓ the unseen share of `units` × `range`, the most one unit can move from the
/// tie; no Monte-Carlo error (`boot` gives the levels). Unchanged for a zero or unknown range.
pub fn none_moved(
    boot: Interval,
    estimate: f64,
    units: usize,
    range: f64,
    confidence: f64,
) -> Interval {
    let reach = unseen_share(units, confidence) * range;
    if !(reach.is_finite() && reach > 0.0) {
        return boot;
    }
    let mut out = boot;
    out.bounds = [estimate - reach, estimate + reach];
    out.mc_se = [0.0, 0.0];
    out
}

/// The guarded interval on tie-heavy units: per side the wider of the Student t bound `t` and
/// the tilted score bound `tilted` (`stats::tilt`), neither with Monte-Carlo error (`boot`
/// gives the levels).
pub fn guard(boot: Interval, t: [f64; 2], tilted: Option<[f64; 2]>) -> Interval {
    let [t_low, t_high] = t;
    let [low, high] = tilted.unwrap_or(t);
    let mut out = boot;
    out.bounds = [t_low.min(low), t_high.max(high)];
    out.mc_se = [0.0, 0.0];
    out
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
    fn the_wider_of_t_and_tilt_per_side_only_when_half_are_tied() {
        let t = [-0.5, 0.5];
        assert!(applies(&[0.0, 0.0, 0.0, 0.4, -0.3, 0.2]));
        assert!(!applies(&[0.1, 0.0, 0.0, 0.4, -0.3, 0.2]));
        let g = guard(boot([-0.3, 0.7]), t, Some([-0.4, 0.6]));
        assert_eq!(g.bounds, [-0.5, 0.6]);
        assert_eq!(g.mc_se, [0.0, 0.0]);
        assert_eq!(g.levels, [0.975, 0.025]);
        assert_eq!(guard(boot([-0.3, 0.7]), t, None).bounds, [-0.5, 0.5]);
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
    fn nothing_moved_reaches_the_unseen_share_times_the_range() {
        // 0 of 40 moved: 1 − 0.025^(1/40) = 0.0880973 (scipy.stats.beta.ppf(0.975, 1, 40)).
        let share = unseen_share(40, 0.95);
        assert!((share - 0.088_097_3).abs() < 1e-7, "{share}");
        let w = none_moved(boot([0.0, 0.0]), 0.0, 40, 1.0, 0.95);
        assert_eq!(w.bounds, [-share, share]);
        assert_eq!(w.mc_se, [0.0, 0.0]);
        // Around the estimate, scaled by the range; one unit reaches 1 − 0.025.
        let w = none_moved(boot([0.3, 0.3]), 0.3, 1, 2.0, 0.95);
        assert!((w.bounds[0] - (0.3 - 1.95)).abs() < 1e-12 && (w.bounds[1] - 2.25).abs() < 1e-12);
        // A zero or unknown range leaves the interval as it was.
        assert_eq!(
            none_moved(boot([0.0, 0.0]), 0.0, 40, 0.0, 0.95).bounds,
            [0.0, 0.0]
        );
        let inf = none_moved(boot([0.0, 0.0]), 0.0, 40, f64::INFINITY, 0.95);
        assert_eq!(inf.mc_se, [0.01, 0.02]);
        // At 90% the one-sided level is 5%: 1 − 0.05^(1/40).
        assert!((unseen_share(40, 0.90) - (1.0 - 0.05f64.powf(1.0 / 40.0))).abs() < 1e-15);
    }
}
