//! Sample size of a paired comparison: how many units (queries, or groups) a gate's rule needs,
//! and how uncertain that number is. Pure: numbers in, numbers out.
//!
//! - Units for a rule read from the interval (Sakai 2016, "Topic set size design", Inf. Retr. J.
//!   19:256, the power-based design; the standard paired formula, e.g. Julious 2004, Stat. Med.
//!   23:1921): the smallest u with (t_{1−α/2, u−1} + t_{P, u−1}) · σ / √u ≤ d, solved by fixed
//!   point from the normal-theory value u = ((z_{1−α/2} + z_P) σ / d)². Under a true change of
//!   0, `max-drop = m` passes with chance P at d = m (`power::no_op_pass`), `max-change = m`
//!   at d = m with P replaced by (1 + P)/2; `fail-if-significant-drop = f` catches a true drop
//!   D with chance P at d = D − f, and its sign-flip p-value reaches Holm's first step α/k over
//!   k comparisons at (z_{1−α/(2k)} + z_P) σ / √u ≤ D: the units are the larger of the two.
//!   For G' groups, σ is the spread of a group's residual sum √(G·ŝe²)·N̄ and the df G' − 1, so
//!   the measured design effect (Kish 1965, §8.2: deff = ŝe²_cluster / (s²/N)) is carried.
//! - 0/1 metrics (hit@k, success): with a true change of 0 a paired delta is ±1 with chance
//!   p_d, the discordance rate, and 0 otherwise, so σ² = p_d (McNemar's design: Connor 1987,
//!   Biometrics 43:207; Lachin 1992, Stat. Med. 11:1239). The units needed are p_d·(t+z)²/d² and
//!   the discordant pairs they bring p_d times that.
//! - How uncertain the units are: u ∝ σ², so an interval on σ² is one on u. For values, Bonett's
//!   interval (Bonett 2006, Comput. Stat. Data Anal. 50:775), which carries the kurtosis of the
//!   deltas (most IR deltas are 0 with a few large moves, far from the normal χ² interval's
//!   assumption): exp(ln(c s²) ± z·c·√((γ̂₄ − (n−3)/n)/(n−1))), c = n/(n − z), γ̂₄ from a mean
//!   trimmed by 1/(2√(n−4)). For 0/1 deltas, Wilson's interval (Wilson 1927, JASA 22:209) on the
//!   discordance rate. One pilot's variance is an unreliable basis (Webber, Moffat & Zobel 2008,
//!   CIKM, "Statistical power in retrieval experimentation"): the interval says by how much.
//! - How uncertain the variance is, for a plan that averages over it (`expected_power`): the
//!   sample kurtosis of a small sample whose variance rests on a few large values is biased
//!   low (the tail beyond the sample is not in it: on a drop carried by a few long-tailed
//!   losses, 50 queries read a median kurtosis of 9 where the population's is 26), so Bonett's
//!   interval there is too narrow and a size averaged over it falls short. The plan reads the
//!   kurtosis at its one-sided upper confidence limit instead, the fourth central moment as the
//!   mean of (x − m)⁴ plus z_γ of its standard errors (γ = `KURTOSIS_UPPER`), the way a pilot's
//!   nuisance parameter is planned from its upper confidence limit (Browne 1995, "On the use of
//!   a pilot sample for sample size determination", Stat. Med. 14:1933; Kieser & Wassmer 1996,
//!   Biom. J. 38:941). On a large pilot the limit meets the estimate.
//! - The sign-flip floor: with u units moved the smallest two-sided p is 2/2^u (exact
//!   enumeration), so reaching α/k needs u ≥ ⌊1 + log₂(k/α)⌋ + 1 moved units.

use super::small_sample::t_quantile;

/// The one-sided level of the kurtosis's upper confidence limit a plan reads
/// (`variance_factors_upper`): chosen on a model of a drop carried by a few long-tailed losses
/// and checked on every cell of calibration/results.md, "Planning the size".
pub const KURTOSIS_UPPER: f64 = 0.9;

/// The normal quantile (df = ∞).
fn z(p: f64) -> f64 {
    t_quantile(p, f64::INFINITY)
}

/// The smallest number of units u ≥ 2 with (t_{1−α/2, u−1} + t_{power, u−1}) · sd/√u ≤
/// `distance`, α = 1 − `confidence`. None when it cannot be said: `distance` ≤ 0 or not finite,
/// or `sd` not finite. `sd` = 0 gives 2 (no spread: the fewest that have one).
pub fn units_for(sd: f64, distance: f64, confidence: f64, power: f64) -> Option<usize> {
    if !(distance > 0.0 && distance.is_finite() && sd.is_finite() && sd >= 0.0) {
        return None;
    }
    let side = 1.0 - (1.0 - confidence) / 2.0;
    let at = |df: f64| ((t_quantile(side, df) + t_quantile(power, df)) * sd / distance).powi(2);
    let mut u = at(f64::INFINITY).max(2.0);
    if u > 1e15 {
        return None;
    }
    // The t quantiles fall as u grows, so the map is monotone and converges from the normal value
    // in a few steps; the last integer that satisfies the inequality is read off directly.
    for _ in 0..100 {
        let next = at(u - 1.0).max(2.0);
        if (next - u).abs() < 1e-9 {
            break;
        }
        u = next;
    }
    let mut n = (u - 1e-9).ceil().max(2.0) as usize;
    while n > 2 && at(n as f64 - 2.0) <= (n - 1) as f64 {
        n -= 1;
    }
    while at(n as f64 - 1.0) > n as f64 {
        n += 1;
    }
    Some(n)
}

/// The normal-theory units for a two-sided test at level `alpha` to reach power `power` at
/// `distance`: ((z_{1−α/2} + z_P)·sd/d)², rounded up (the sign-flip test is compared with its
/// normal approximation; it has no df).
pub fn units_for_normal(sd: f64, distance: f64, alpha: f64, power: f64) -> Option<usize> {
    if !(distance > 0.0 && distance.is_finite() && sd.is_finite() && sd >= 0.0) {
        return None;
    }
    let u = ((z(1.0 - alpha / 2.0) + z(power)) * sd / distance).powi(2);
    (u < 1e15).then(|| (u - 1e-9).ceil().max(2.0) as usize)
}

/// Units for `fail-if-significant-drop = margin` to catch a true drop `drop` with chance
/// `power`: the interval's high bound below −margin and the sign-flip p-value below α/`family`
/// (Holm's first step). None when `drop` ≤ `margin` (no number of units makes a drop of the
/// margin itself fire with more than α/2).
pub fn units_to_catch(
    sd: f64,
    drop: f64,
    margin: f64,
    confidence: f64,
    power: f64,
    family: usize,
) -> Option<usize> {
    let interval = units_for(sd, drop - margin, confidence, power)?;
    let alpha = (1.0 - confidence) / family.max(1) as f64;
    let test = units_for_normal(sd, drop, alpha, power)?;
    Some(interval.max(test))
}

/// The drop `fail-if-significant-drop = margin` catches with chance `power` at standard error
/// `se` on `df` degrees of freedom: margin + (t_{1−α/2} + t_P)·se, and at least the drop the
/// sign-flip test finds at α/`family`, (z_{1−α/(2k)} + z_P)·se.
pub fn drop_caught(
    se: f64,
    df: f64,
    margin: f64,
    confidence: f64,
    power: f64,
    family: usize,
) -> f64 {
    let interval = margin + super::power::mde(se, df, confidence, power);
    let alpha = (1.0 - confidence) / family.max(1) as f64;
    let test = (z(1.0 - alpha / 2.0) + z(power)) * se;
    interval.max(test)
}

/// The moved units the sign-flip test needs for a p-value below α/`family`: its floor 2/2^u
/// must be below the level.
pub fn moved_for_sign_flip(alpha: f64, family: usize) -> usize {
    (1.0 + (family.max(1) as f64 / alpha).log2()).floor() as usize + 1
}

/// The sign-flip floor with `moved` units moved: 2/2^u (1 with none).
pub fn sign_flip_floor(moved: usize) -> f64 {
    if moved == 0 {
        1.0
    } else {
        2f64.powi(1 - moved.min(1100) as i32)
    }
}

/// Bonett's interval on the variance of `x` at `confidence`, as factors [low, high] of the
/// sample variance s² (so an interval on the units is the units times these factors). None
/// with fewer than 5 values or no spread.
pub fn variance_factors(x: &[f64], confidence: f64) -> Option<[f64; 2]> {
    bonett(x, confidence, 0.0)
}

/// Bonett's interval as `variance_factors`, with the kurtosis read at its one-sided upper
/// confidence limit at `level` (the mean of (x − m)⁴ plus z_level of its standard errors)
/// instead of its point estimate: the spread of ln s² a plan averages over, which a small
/// sample whose variance rests on a few large values under-reads. `level` 0.5 is Bonett's.
pub fn variance_factors_upper(x: &[f64], confidence: f64, level: f64) -> Option<[f64; 2]> {
    if !(0.5..1.0).contains(&level) {
        return None;
    }
    bonett(x, confidence, z(level))
}

/// Bonett's interval with the fourth moment about the trimmed mean raised by `lift` of its
/// standard errors.
fn bonett(x: &[f64], confidence: f64, lift: f64) -> Option<[f64; 2]> {
    let n = x.len();
    if n < 5 {
        return None;
    }
    let nf = n as f64;
    let mean = x.iter().sum::<f64>() / nf;
    let ss: f64 = x.iter().map(|v| (v - mean).powi(2)).sum();
    if ss <= 0.0 || !ss.is_finite() {
        return None;
    }
    let m = trimmed_mean(x, 1.0 / (2.0 * (nf - 4.0).sqrt()));
    let fourth: Vec<f64> = x.iter().map(|v| (v - m).powi(4)).collect();
    let mut sum4: f64 = fourth.iter().sum();
    if lift > 0.0 {
        sum4 += lift * crate::stats::describe::sd(&fourth) * nf.sqrt();
    }
    let kurt = nf * sum4 / (ss * ss);
    let zq = z(1.0 - (1.0 - confidence) / 2.0);
    let c = nf / (nf - zq);
    let se = c * ((kurt - (nf - 3.0) / nf).max(1e-12) / (nf - 1.0)).sqrt();
    Some([c * (-zq * se).exp(), c * (zq * se).exp()])
}

/// The mean of `x` without the ⌊p·n⌋ smallest and largest values.
fn trimmed_mean(x: &[f64], p: f64) -> f64 {
    let mut v = x.to_vec();
    v.sort_by(f64::total_cmp);
    let cut = ((p * v.len() as f64).floor() as usize).min((v.len() - 1) / 2);
    let kept = &v[cut..v.len() - cut];
    kept.iter().sum::<f64>() / kept.len() as f64
}

/// Wilson's score interval of a rate `k`/`n` at `confidence`; None for n = 0.
pub fn rate_interval(k: usize, n: usize, confidence: f64) -> Option<[f64; 2]> {
    if n == 0 {
        return None;
    }
    let (k, n) = (k as f64, n as f64);
    let zq = z(1.0 - (1.0 - confidence) / 2.0);
    let p = k / n;
    let centre = (p + zq * zq / (2.0 * n)) / (1.0 + zq * zq / n);
    let half = zq / (1.0 + zq * zq / n) * (p * (1.0 - p) / n + zq * zq / (4.0 * n * n)).sqrt();
    Some([(centre - half).max(0.0), (centre + half).min(1.0)])
}

/// The design effect of a group-unit comparison: its cluster standard error squared over the
/// query-unit one, ŝe²_cluster / (s²/N). None without spread.
pub fn design_effect(se_cluster: f64, sd_query: f64, queries: usize) -> Option<f64> {
    let naive = sd_query * sd_query / queries as f64;
    (naive > 0.0 && se_cluster.is_finite()).then(|| se_cluster * se_cluster / naive)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_units_match_the_standard_tables() {
        // The paired t-test at α = 0.05 two-sided, power 0.8: the noncentral-t answers (G*Power,
        // scipy.stats.nct) are 34 pairs for d_z = 0.5, 199 for d_z = 0.2 and 16 for d_z = 0.75.
        assert_eq!(units_for(1.0, 0.5, 0.95, 0.8), Some(34));
        assert_eq!(units_for(1.0, 0.2, 0.95, 0.8), Some(199));
        assert_eq!(units_for(1.0, 0.75, 0.95, 0.8), Some(16));
        // At the answer the MDE is within the distance, one unit fewer it is not.
        let n = units_for(0.12, 0.01, 0.95, 0.8).unwrap();
        let mde = |u: usize| {
            super::super::power::mde(0.12 / (u as f64).sqrt(), u as f64 - 1.0, 0.95, 0.8)
        };
        assert!(mde(n) <= 0.01 && mde(n - 1) > 0.01, "{n}");
        assert_eq!(units_for(0.0, 0.01, 0.95, 0.8), Some(2));
        assert_eq!(units_for(1.0, 0.0, 0.95, 0.8), None);
        assert_eq!(units_for(f64::NAN, 0.1, 0.95, 0.8), None);
    }

    #[test]
    fn catching_a_drop_needs_the_interval_and_the_holm_level() {
        // One comparison, margin 0: the interval term at d = D is the paired answer; the
        // normal term (z 1.959964 + 0.841621)² / 0.25 = 31.4 is smaller.
        assert_eq!(units_to_catch(1.0, 0.5, 0.0, 0.95, 0.8, 1), Some(34));
        // 20 comparisons: α/k = 0.0025, (z_{0.99875} 3.023341 + 0.841621)² / 0.25 = 59.75.
        assert_eq!(units_to_catch(1.0, 0.5, 0.0, 0.95, 0.8, 20), Some(60));
        // A margin eats the distance: D = 0.5, f = 0.25 is the paired answer at 0.25.
        assert_eq!(
            units_to_catch(1.0, 0.5, 0.25, 0.95, 0.8, 1),
            units_for(1.0, 0.25, 0.95, 0.8)
        );
        assert_eq!(units_to_catch(1.0, 0.2, 0.2, 0.95, 0.8, 1), None);
        let caught = drop_caught(0.1, f64::INFINITY, 0.0, 0.95, 0.8, 1);
        assert!((caught - 0.280_158_5).abs() < 1e-6, "{caught}");
    }

    #[test]
    fn sign_flip_needs_enough_moved_units() {
        // α = 0.05, one comparison: 2/2^6 = 0.031 < 0.05 ≤ 2/2^5 = 0.0625.
        assert_eq!(moved_for_sign_flip(0.05, 1), 6);
        assert!(sign_flip_floor(6) < 0.05 && sign_flip_floor(5) >= 0.05);
        // 20 comparisons, α/k = 0.0025: 2/2^10 = 0.00195.
        assert_eq!(moved_for_sign_flip(0.05, 20), 10);
        assert!(sign_flip_floor(10) < 0.0025 && sign_flip_floor(9) >= 0.0025);
        assert_eq!(sign_flip_floor(0), 1.0);
    }

    #[test]
    fn wilson_matches_known_answers() {
        // scipy.stats.binomtest(k, n).proportion_ci(method="wilson"): 0/10 → [0, 0.277533];
        // 5/10 → [0.236593, 0.763407].
        let [lo, hi] = rate_interval(0, 10, 0.95).unwrap();
        assert!(
            lo.abs() < 1e-12 && (hi - 0.277_533).abs() < 1e-5,
            "{lo} {hi}"
        );
        let [lo, hi] = rate_interval(5, 10, 0.95).unwrap();
        assert!((lo - 0.236_593).abs() < 1e-5 && (hi - 0.763_407).abs() < 1e-5);
        assert_eq!(rate_interval(0, 0, 0.95), None);
    }

    #[test]
    fn bonett_is_near_the_chi_square_interval_for_normal_values() {
        // Normal scores at evenly spaced probabilities: kurtosis ≈ 3, so Bonett's interval is
        // close to the χ² one, (n−1)/χ²_{0.975, n−1} and (n−1)/χ²_{0.025, n−1}, which for
        // n = 400 are 0.8745 and 1.1547 (scipy.stats.chi2).
        let n = 400;
        let x: Vec<f64> = (0..n).map(|i| z((i as f64 + 0.5) / n as f64)).collect();
        let [lo, hi] = variance_factors(&x, 0.95).unwrap();
        assert!(
            (lo - 0.8745).abs() < 0.02 && (hi - 1.1547).abs() < 0.03,
            "{lo} {hi}"
        );
        // Heavy tails (most values 0, a few ±1) widen it far beyond the χ² interval.
        let mut y = vec![0.0; 380];
        y.extend([1.0; 10]);
        y.extend([-1.0; 10]);
        let [lo, hi] = variance_factors(&y, 0.95).unwrap();
        assert!(lo < 0.7 && hi > 1.4, "{lo} {hi}");
        assert_eq!(variance_factors(&[1.0, 2.0, 3.0, 4.0], 0.95), None);
        assert_eq!(variance_factors(&[0.0; 10], 0.95), None);
    }

    #[test]
    fn the_kurtosis_upper_limit_widens_a_small_long_tailed_sample() {
        // A drop carried by a few large losses among 50 queries. Independent answers (numpy,
        // scipy.stats.norm): the trimmed-mean kurtosis 32.059 gives Bonett's factors
        // [0.204808, 5.289148]; at its 90% upper limit (Σ(x − m)⁴ + z₀.₉·sd·√n) 70.625 gives
        // [0.091382, 11.854166].
        let mut x = vec![0.0; 30];
        x.extend([
            0.01, 0.02, 0.03, 0.05, 0.04, 0.02, 0.01, 0.03, -0.3, -0.12, -0.6, 0.02, 0.06, 0.01,
            -0.05, 0.0, 0.0, 0.04, 0.02, 0.01,
        ]);
        let close = |a: [f64; 2], b: [f64; 2]| (0..2).all(|i| (a[i] / b[i] - 1.0).abs() < 1e-5);
        let plain = variance_factors(&x, 0.95).unwrap();
        assert!(close(plain, [0.204_808_3, 5.289_148_3]), "{plain:?}");
        assert_eq!(variance_factors_upper(&x, 0.95, 0.5), Some(plain));
        let upper = variance_factors_upper(&x, 0.95, 0.9).unwrap();
        assert!(close(upper, [0.091_382_4, 11.854_165_6]), "{upper:?}");
        assert_eq!(variance_factors_upper(&x, 0.95, 1.0), None);
        assert_eq!(variance_factors_upper(&[0.0; 10], 0.95, 0.9), None);
    }

    #[test]
    fn design_effect_is_the_variance_ratio() {
        // se_cluster² = 4 × s²/N: deff 4.
        let d = design_effect(0.2, 1.0, 100).unwrap();
        assert!((d - 4.0).abs() < 1e-12);
        assert_eq!(design_effect(0.2, 0.0, 100), None);
    }
}
