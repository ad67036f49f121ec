//! The units a rule needs for a chance of doing its job that holds **on average over the pilot**
//! the spread was measured on, with the gate's own interval rather than a normal-theory one.
//! Pure: numbers in, numbers out.
//!
//! - **The pilot's own uncertainty** ("expected power", Julious & Owen 2006, "Sample size
//!   calculations for clinical studies allowing for uncertainty about the variance", Pharm.
//!   Stat. 5:29; O'Hagan, Stevens & Campbell 2005, "Assurance in clinical trial design", Pharm.
//!   Stat. 4:187). A size planned from the pilot's s² as if it were σ² gives the promised power
//!   only on average over pilots if power were linear in s²; it is concave above 50%, and s² of
//!   the zero-heavy, long-tailed deltas of retrieval metrics is usually below σ² (its mean is σ²,
//!   its median lower), so small pilots fall short. Here ln s² = ln σ² − v/2 + ε, ε ~ N(0, v), v
//!   the variance of ln s² read off the pilot's own interval on the variance (Bonett's, which
//!   carries the kurtosis, or Wilson's on a discordance rate: v = (ln(hi/lo) / 2z)²); the chance
//!   of a size is averaged over σ² = s²·exp(v/2 + √v·Z), Z ~ N(0, 1). Under this model the
//!   average over σ given s and the frequentist average over pilots given σ are the same
//!   integral (ln s² − ln σ² is pivotal), so the size delivers its power on average over pilots.
//! - **The interval's own width at n.** The default interval's bounds are, per side, the widest
//!   of the bootstrap-t and the Student t bound on the same standard error (`ties::widest`); the
//!   bootstrap-t tracks the studentized mean's skewed distribution. Its one-term Edgeworth
//!   expansion (Hall 1992, *The Bootstrap and Edgeworth Expansion*, §2.6, eq. 2.55): P(T ≤ x) =
//!   Φ(x) + γ(2x² + 1)φ(x)/(6√n), γ the skewness of the unit deltas, so its quantiles are
//!   x_β = z_β − γ(2z_β² + 1)/(6√n). A side's half-width is max(t_{1−α/2, n−1}, that quantile)
//!   standard errors, and the chance the bound lands on the right side of the margin is read
//!   from the same expansion (with Student t's cdf for Φ, as `power::no_op_pass`). Left-skewed
//!   deltas (a drop carried by a few large losses) widen the low side and make the high side
//!   land below the margin less often than a symmetric t says. Where the interval's mean
//!   half-widths were measured at about the planned size (`plan::width`: the gate's own
//!   interval on sets drawn from the pilot), those replace the quantiles; they also carry the
//!   third partner of the default interval, the tilted score bound, and the bootstrap-t's
//!   sample-to-sample spread, which widen it beyond t on long-tailed deltas. Where draws of the
//!   studentized mean at that size were made from the pilot (the bootstrap-t's own estimate of
//!   T's distribution, jointly with its standard error: Hall 1992, §3.5), they replace the
//!   one-term expansion, which does not hold where the deltas are too skewed for n (Cochran's
//!   rule, n > 25·γ²).
//!
//! The rules, under the truth they are planned for:
//! - `Pass { margin }` (`max-drop`, true change 0): the low bound at or above −margin;
//! - `Change { margin }` (`max-change`, true change 0): both bounds within ±margin;
//! - `Catch { drop, margin }` (`fail-if-significant-drop`, true change −drop): the high bound
//!   below −margin;
//! - `Test { drop, alpha }`: a two-sided test at level `alpha` rejects at a true drop `drop`
//!   (the sign-flip test, read with its normal approximation: it has no df).

use super::small_sample::t_quantile;

/// What the pilot says about one unit's delta.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pilot<'a> {
    /// The spread of one unit (σ with se = σ/√units).
    pub sd: f64,
    /// The standard deviation of ln s² (0: the spread is known).
    pub log_var_sd: f64,
    /// The skewness of the unit deltas, higher-is-better (negative: a long tail of losses).
    pub skew: f64,
    /// The interval's mean half-widths [low, high] in standard errors, measured at about the
    /// planned size (`plan::width`); None: the bootstrap-t's Edgeworth quantile or Student t's,
    /// whichever is wider.
    pub widths: Option<[f64; 2]>,
    /// Draws of the studentized mean at about the planned size from the pilot (`plan::width`):
    /// per draw [T, u, low, high], T = (x̄* − x̄)/ŝe*, u = ŝe*·√n/sd (u = 0: a draw with no
    /// spread, which reads untouched) and that draw's half-widths in standard errors. None:
    /// the Edgeworth expansion.
    pub pivot: Option<&'a [[f64; 4]]>,
}

/// A rule and the truth it is planned under.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Aim {
    Pass { margin: f64 },
    Change { margin: f64 },
    Catch { drop: f64, margin: f64 },
    Test { drop: f64, alpha: f64 },
}

/// The standard deviation of ln s² from an interval [lo, hi] on the variance (as factors of
/// s², or on a rate) at `confidence`: ln(hi/lo) / (2·z_{1−α/2}); 0 without an interval.
pub fn log_var_sd(factors: Option<[f64; 2]>, confidence: f64) -> f64 {
    let z = t_quantile(1.0 - (1.0 - confidence) / 2.0, f64::INFINITY);
    match factors {
        Some([lo, hi]) if lo > 0.0 && hi.is_finite() && hi >= lo => (hi / lo).ln() / (2.0 * z),
        _ => 0.0,
    }
}

/// The sample skewness m₃/m₂^{3/2} of `x`; 0 with fewer than 3 values or no spread.
pub fn skewness(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    if x.len() < 3 {
        return 0.0;
    }
    let mean = x.iter().sum::<f64>() / n;
    let m2 = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    let m3 = x.iter().map(|v| (v - mean).powi(3)).sum::<f64>() / n;
    if m2 > 0.0 && m2.is_finite() {
        m3 / m2.powf(1.5)
    } else {
        0.0
    }
}

/// Student t's cdf (the normal's for df = ∞).
fn t_cdf(x: f64, df: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, Normal, StudentsT};
    if df.is_infinite() {
        Normal::new(0.0, 1.0).expect("standard normal").cdf(x)
    } else {
        StudentsT::new(0.0, 1.0, df).expect("df > 0").cdf(x)
    }
}

fn phi(x: f64) -> f64 {
    (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

/// One side of the studentized mean at `n` units: its Edgeworth cdf and the interval's
/// half-width in standard errors.
struct Side {
    df: f64,
    /// γ/(6√n).
    k: f64,
    /// z_{1−α/2} and t_{1−α/2, df}.
    z: f64,
    t: f64,
}

impl Side {
    fn new(n: usize, skew: f64, confidence: f64) -> Side {
        let df = (n as f64 - 1.0).max(1.0);
        let side = 1.0 - (1.0 - confidence) / 2.0;
        // The one-term expansion is only a correction: capped so its quantile shift stays
        // within one standard error where n is too small for it to hold.
        let k = skew / (6.0 * (n as f64).sqrt());
        Side {
            df,
            k: k.clamp(-0.1, 0.1),
            z: t_quantile(side, f64::INFINITY),
            t: t_quantile(side, df),
        }
    }

    /// P(T ≤ x).
    fn cdf(&self, x: f64) -> f64 {
        (t_cdf(x, self.df) + self.k * (2.0 * x * x + 1.0) * phi(x)).clamp(0.0, 1.0)
    }

    /// The low side's half-width: measured, or the bootstrap-t's upper quantile of T or
    /// Student's t.
    fn low(&self, widths: Option<[f64; 2]>) -> f64 {
        widths.map_or_else(
            || (self.z - self.k * (2.0 * self.z * self.z + 1.0)).max(self.t),
            |w| w[0],
        )
    }

    /// The high side's half-width.
    fn high(&self, widths: Option<[f64; 2]>) -> f64 {
        widths.map_or_else(
            || (self.z + self.k * (2.0 * self.z * self.z + 1.0)).max(self.t),
            |w| w[1],
        )
    }
}

/// The chance `aim` is met at `n` units when one unit's spread is `sd` (known).
fn chance_at(aim: Aim, n: usize, sd: f64, pilot: Pilot<'_>, confidence: f64) -> f64 {
    if sd <= 0.0 {
        return 1.0;
    }
    let root = (n as f64).sqrt() / sd;
    let s = Side::new(n, pilot.skew, confidence);
    let w = pilot.widths;
    if let Some(draws) = pilot.pivot.filter(|d| !d.is_empty()) {
        if !matches!(aim, Aim::Test { .. }) {
            return drawn_chance(aim, draws, root);
        }
    }
    match aim {
        Aim::Pass { margin } => 1.0 - s.cdf(s.low(w) - margin * root),
        Aim::Change { margin } => {
            let low_miss = s.cdf(s.low(w) - margin * root);
            let high_miss = 1.0 - s.cdf(margin * root - s.high(w));
            (1.0 - low_miss - high_miss).max(0.0)
        }
        Aim::Catch { drop, margin } => s.cdf((drop - margin) * root - s.high(w)),
        Aim::Test { drop, alpha } => {
            let z = t_quantile(1.0 - alpha / 2.0, f64::INFINITY);
            t_cdf(drop * root - z, f64::INFINITY)
        }
    }
}

/// The share of `draws` of [T, u, low, high] where `aim` is met: with x̄ = θ + T·ŝe and
/// ŝe = u·sd/√n, `max-drop` passes when T ≥ low − m/ŝe, `max-change` when also
/// T ≤ m/ŝe − high, and fail-if-significant-drop fires when T < (D − f)/ŝe − high. A draw with
/// no spread reads untouched: it passes and never fires.
fn drawn_chance(aim: Aim, draws: &[[f64; 4]], root: f64) -> f64 {
    let met = |&&[t, u, low, high]: &&[f64; 4]| {
        if u <= 0.0 {
            return !matches!(aim, Aim::Catch { .. });
        }
        let per = root / u;
        match aim {
            Aim::Pass { margin } => t >= low - margin * per,
            Aim::Change { margin } => t >= low - margin * per && t <= margin * per - high,
            Aim::Catch { drop, margin } => t < (drop - margin) * per - high,
            Aim::Test { .. } => false,
        }
    };
    draws.iter().filter(met).count() as f64 / draws.len() as f64
}

/// The interval's half-widths [low, high] in standard errors at `n` units for deltas of
/// skewness `skew`: the one-term Edgeworth quantiles of the studentized mean or Student t's,
/// whichever is wider on each side.
pub fn half_widths(n: usize, skew: f64, confidence: f64) -> [f64; 2] {
    let s = Side::new(n, skew, confidence);
    [s.low(None), s.high(None)]
}

/// Points and weights of the average over Z ~ N(0, 1): the midpoint rule on [−6, 6].
fn nodes() -> impl Iterator<Item = (f64, f64)> {
    const STEPS: usize = 120;
    let h = 12.0 / STEPS as f64;
    (0..STEPS).map(move |i| {
        let z = -6.0 + h * (i as f64 + 0.5);
        (z, phi(z) * h)
    })
}

/// The chance `aim` is met at `n` units, averaged over the pilot's uncertainty on the spread.
pub fn chance(aim: Aim, n: usize, pilot: Pilot<'_>, confidence: f64) -> f64 {
    let v = pilot.log_var_sd.powi(2);
    if v <= 0.0 {
        return chance_at(aim, n, pilot.sd, pilot, confidence);
    }
    let (mut sum, mut weight) = (0.0, 0.0);
    for (z, w) in nodes() {
        let sd = pilot.sd * (0.5 * (0.5 * v + pilot.log_var_sd * z)).exp();
        sum += w * chance_at(aim, n, sd, pilot, confidence);
        weight += w;
    }
    sum / weight
}

/// The smallest number of units u ≥ 2 at which `aim` is met with chance at least `power` on
/// average over the pilot (`chance`); None when no size can be said (a margin or a distance
/// not above 0, a spread not finite, or more than 10¹² units).
pub fn units(aim: Aim, pilot: Pilot<'_>, confidence: f64, power: f64) -> Option<usize> {
    let distance = match aim {
        Aim::Pass { margin } | Aim::Change { margin } => margin,
        Aim::Catch { drop, margin } => drop - margin,
        Aim::Test { drop, .. } => drop,
    };
    let finite = pilot.sd.is_finite()
        && pilot.log_var_sd.is_finite()
        && pilot.skew.is_finite()
        && pilot.widths.is_none_or(|w| w.iter().all(|x| x.is_finite()));
    if !(distance > 0.0 && distance.is_finite() && finite && pilot.sd >= 0.0) {
        return None;
    }
    let ok = |n: usize| chance(aim, n, pilot, confidence) >= power;
    if ok(2) {
        return Some(2);
    }
    let mut hi = 4usize;
    while !ok(hi) {
        if hi > 1_000_000_000_000 {
            return None;
        }
        hi *= 2;
    }
    let mut lo = hi / 2;
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: Pilot<'static> = Pilot {
        sd: 1.0,
        log_var_sd: 0.0,
        skew: 0.0,
        widths: None,
        pivot: None,
    };

    #[test]
    fn a_known_symmetric_spread_is_the_paired_t_answer() {
        // With no pilot uncertainty and no skew the chance is Student t's, F_t(d√n/σ − t): the
        // paired-t sizes of G*Power / scipy.stats.nct (34 at d_z = 0.5, 199 at 0.2), within the
        // one unit the central-t approximation of the noncentral t moves them.
        for (d, want) in [(0.5, 34usize), (0.2, 199)] {
            let n = units(Aim::Pass { margin: d }, KNOWN, 0.95, 0.8).unwrap();
            assert!(n.abs_diff(want) <= 1, "{d}: {n}");
            let close = super::super::sample_size::units_for(1.0, d, 0.95, 0.8).unwrap();
            assert!(n.abs_diff(close) <= 1, "{d}: {n} vs {close}");
        }
        // The sign-flip test's normal term: (1.959964 + 0.841621)²/0.25 = 31.4 → 32.
        let n = units(
            Aim::Test {
                drop: 0.5,
                alpha: 0.05,
            },
            KNOWN,
            0.95,
            0.8,
        );
        assert_eq!(n, Some(32));
    }

    #[test]
    fn the_pilots_uncertainty_asks_for_more_units() {
        // v = 0.2 (about a 50-query pilot of long-tailed deltas): the size that delivers 80% on
        // average is larger than the plug-in one, and grows with v.
        let aim = Aim::Pass { margin: 0.2 };
        let plug = units(aim, KNOWN, 0.95, 0.8).unwrap();
        let some = Pilot {
            log_var_sd: 0.2f64.sqrt(),
            ..KNOWN
        };
        let more = Pilot {
            log_var_sd: 0.5f64.sqrt(),
            ..KNOWN
        };
        let (a, b) = (
            units(aim, some, 0.95, 0.8).unwrap(),
            units(aim, more, 0.95, 0.8).unwrap(),
        );
        assert!(plug < a && a < b, "{plug} {a} {b}");
        // At the answer the averaged chance is at least 80%, one unit fewer it is not.
        assert!(chance(aim, a, some, 0.95) >= 0.8 && chance(aim, a - 1, some, 0.95) < 0.8);
    }

    #[test]
    fn the_average_over_the_spread_matches_a_direct_integral() {
        // An independent average: Z on a fine grid by the trapezoid rule over [−8, 8].
        let pilot = Pilot {
            sd: 0.15,
            log_var_sd: 0.4,
            skew: -1.0,
            widths: None,
            pivot: None,
        };
        let aim = Aim::Catch {
            drop: 0.08,
            margin: 0.04,
        };
        let v: f64 = 0.16;
        let (mut s, h) = (0.0, 0.001);
        for i in 0..=16_000 {
            let z = -8.0 + h * i as f64;
            let w = if i == 0 || i == 16_000 { 0.5 } else { 1.0 };
            let sd = 0.15 * (0.5 * (0.5 * v + 0.4 * z)).exp();
            s += w * h * phi(z) * chance_at(aim, 120, sd, pilot, 0.95);
        }
        let got = chance(aim, 120, pilot, 0.95);
        assert!((got - s).abs() < 1e-6, "{got} {s}");
    }

    #[test]
    fn left_skewed_deltas_need_more_units_on_both_rules() {
        let skewed = Pilot {
            skew: -2.0,
            ..KNOWN
        };
        for aim in [
            Aim::Pass { margin: 0.2 },
            Aim::Catch {
                drop: 0.4,
                margin: 0.2,
            },
        ] {
            let plain = units(aim, KNOWN, 0.95, 0.8).unwrap();
            let skew = units(aim, skewed, 0.95, 0.8).unwrap();
            assert!(skew > plain, "{aim:?}: {plain} {skew}");
        }
        // The Edgeworth cdf at 0 is 1/2 + γφ(0)/(6√n): left skew puts less below 0.
        let s = Side::new(100, -2.0, 0.95);
        let want = 0.5 - 2.0 * phi(0.0) / 60.0;
        assert!((s.cdf(0.0) - want).abs() < 1e-12);
        // A measured wider interval asks for more units than Student t's width.
        let wide = Pilot {
            widths: Some([2.3, 2.3]),
            ..KNOWN
        };
        let aim = Aim::Pass { margin: 0.2 };
        assert!(units(aim, wide, 0.95, 0.8) > units(aim, KNOWN, 0.95, 0.8));
    }

    #[test]
    fn drawn_pivots_read_the_rule_directly() {
        // Normal scores for T at evenly spaced probabilities and u = 1: the share passing is
        // the normal answer, Φ(m√n/σ − t), to the grid's resolution.
        let k = 4000;
        let t = half_widths(150, 0.0, 0.95);
        let draws: Vec<[f64; 4]> = (0..k)
            .map(|i| {
                let z = t_quantile((i as f64 + 0.5) / k as f64, f64::INFINITY);
                [z, 1.0, t[0], t[1]]
            })
            .collect();
        let drawn = Pilot {
            pivot: Some(&draws),
            ..KNOWN
        };
        let aim = Aim::Pass { margin: 0.2 };
        let (a, b) = (chance(aim, 150, drawn, 0.95), chance(aim, 150, KNOWN, 0.95));
        assert!((a - b).abs() < 0.01, "{a} {b}");
        // A draw with no spread passes a max-drop and never fires a fail-if-significant-drop.
        let still = [[0.0; 4]];
        let p = Pilot {
            pivot: Some(&still),
            ..KNOWN
        };
        assert_eq!(chance(aim, 10, p, 0.95), 1.0);
        let catch = Aim::Catch {
            drop: 0.5,
            margin: 0.1,
        };
        assert_eq!(chance(catch, 10, p, 0.95), 0.0);
    }

    #[test]
    fn the_log_variance_spread_comes_from_the_interval() {
        // Factors exp(±z·0.3) give back 0.3.
        let z = 1.959_963_984_540_054;
        let f = [(-z * 0.3f64).exp(), (z * 0.3f64).exp()];
        assert!((log_var_sd(Some(f), 0.95) - 0.3).abs() < 1e-9);
        assert_eq!(log_var_sd(None, 0.95), 0.0);
        assert!((skewness(&[0.0, 0.0, 0.0, 1.0]) - 1.154_700_538).abs() < 1e-6);
        assert_eq!(units(Aim::Pass { margin: 0.0 }, KNOWN, 0.95, 0.8), None);
    }
}
