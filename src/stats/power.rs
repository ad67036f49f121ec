//! Power: the minimum detectable effect (MDE) of a paired comparison (Cohen 1988, *Statistical
//! Power Analysis*, ch. 2; for IR topic-set sizes, Sakai 2016, "Topic set size design", Inf.
//! Retr. J. 19:256): MDE = (t_{1−α/2, df} + t_{power, df}) · SE, with α = 1 − confidence and the
//! Student t quantiles of the standard error's degrees of freedom (n − 1 for queries; the
//! Bell–McCaffrey df of `small_sample`, G − 1 for equal groups), the normal quantiles as df → ∞.
//! Where the sign-flip test cannot reach its level at all (its smallest p above α/m under Holm),
//! the power of `fail-if-significant-drop` is 0 whatever the MDE; the judge says so.
//!
//! SE of the mean delta at the resampling unit:
//! - query unit: s/√n, s the sample standard deviation of the deltas;
//! - group unit: the cluster (sandwich) SE of the ratio mean x̄ = S/N,
//!   √(G/(G − 1) · Σ_g (S_g − x̄ N_g)²) / N (Cameron & Miller 2015, J. Human Resources 50:317),
//!   which equals s/√n when every group holds one query.
//!
//! For a quantile statistic the SE is the standard deviation of its bootstrap distribution.
//!
//! The chance that a no-op (true delta 0) passes a rule read from the interval, before any
//! resampling, from the comparison's standard error alone (normal theory, θ̂/ŝe ~ t_df):
//! `max-drop = m` passes when the low bound θ̂ − t·ŝe ≥ −m, chance F_t(m/ŝe − t);
//! `max-change = m` when |θ̂| < m − t·ŝe, chance 2·F_t(m/ŝe − t) − 1 (at least 0). A set of
//! such rules that must all pass (an intersection–union test, Berger 1982) passes a no-op with
//! the product of the chances if the comparisons are independent (overlapping slices are
//! positively correlated, so the product is a lower bound). The margin that passes with chance
//! p is ŝe·(t + F_t⁻¹(p)) (max-drop) or ŝe·(t + F_t⁻¹((1 + p)/2)) (max-change).

use super::bootstrap::Units;
use super::small_sample::t_quantile;

/// The power the MDE is computed for.
pub const POWER: f64 = 0.8;

/// (t_{1−α/2, df} + t_{power, df}) · se; 0 when se is 0 or df is not positive (one unit: no
/// spread to scale).
pub fn mde(se: f64, df: f64, confidence: f64, power: f64) -> f64 {
    if se <= 0.0 || df <= 0.0 {
        return 0.0;
    }
    (t_quantile(1.0 - (1.0 - confidence) / 2.0, df) + t_quantile(power, df)) * se
}

/// Which rule a no-op must pass: `max-drop` (one-sided) or `max-change` (two-sided).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoOpRule {
    Drop,
    Change,
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

/// The chance a no-op passes `rule` at `margin` on a comparison with standard error `se` on
/// `df` degrees of freedom, its interval at `confidence`. 1 when se is 0 (nothing varies); NaN
/// when se or df is NaN (a variance that overflowed): no chance can be said.
pub fn no_op_pass(rule: NoOpRule, margin: f64, se: f64, df: f64, confidence: f64) -> f64 {
    if se.is_nan() || df.is_nan() {
        return f64::NAN;
    }
    if se <= 0.0 || df <= 0.0 {
        return 1.0;
    }
    let t = t_quantile(1.0 - (1.0 - confidence) / 2.0, df);
    let one = t_cdf(margin / se - t, df);
    match rule {
        NoOpRule::Drop => one,
        NoOpRule::Change => (2.0 * one - 1.0).max(0.0),
    }
}

/// The margin at which a no-op passes `rule` with chance `p` (0 < p < 1).
pub fn no_op_margin(rule: NoOpRule, p: f64, se: f64, df: f64, confidence: f64) -> f64 {
    if se.is_nan() || df.is_nan() {
        return f64::NAN;
    }
    if se <= 0.0 || df <= 0.0 {
        return 0.0;
    }
    let t = t_quantile(1.0 - (1.0 - confidence) / 2.0, df);
    let q = match rule {
        NoOpRule::Drop => p,
        NoOpRule::Change => (1.0 + p) / 2.0,
    };
    se * (t + t_quantile(q, df))
}

/// Standard error of the mean delta at the unit; 0 with fewer than two units.
pub fn se_mean(units: Units<'_>) -> f64 {
    match units {
        Units::Queries(x) => super::describe::sd(x) / (x.len() as f64).sqrt(),
        Units::Groups { sums, sizes } => {
            let g = sums.len() as f64;
            if sums.len() < 2 {
                return 0.0;
            }
            let n: f64 = sizes.iter().sum();
            let m = sums.iter().sum::<f64>() / n;
            let ss: f64 = sums
                .iter()
                .zip(sizes)
                .map(|(&s, &k)| (s - m * k).powi(2))
                .sum();
            (g / (g - 1.0) * ss).sqrt() / n
        }
    }
}

/// Standard deviation of a bootstrap distribution (the SE of a quantile statistic).
pub fn se_bootstrap(stats: &[f64]) -> f64 {
    super::describe::sd(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_no_op_passes_with_the_normal_theory_chance() {
        // m = 3 se, z = 1.959964: Φ(3 − 1.959964) = 0.850838 (scipy.stats.norm).
        let p = no_op_pass(NoOpRule::Drop, 3.0, 1.0, f64::INFINITY, 0.95);
        assert!((p - 0.850_838).abs() < 1e-6, "{p}");
        // 63 comparisons at 3 se: 0.850838^63 ≈ 3.8e-5, the regime where a no-op always fails.
        assert!(p.powi(63) < 1e-4);
        let p = no_op_pass(NoOpRule::Change, 3.0, 1.0, f64::INFINITY, 0.95);
        assert!((p - 0.701_677).abs() < 1e-6, "{p}");
        // The margin that gives a chance back, 0.8^(1/63) per comparison: 1.959964 + Φ⁻¹(0.99646)
        // = 4.653427 (scipy): about 4.7 standard errors per slice, as measured.
        let each = 0.8f64.powf(1.0 / 63.0);
        let m = no_op_margin(NoOpRule::Drop, each, 1.0, f64::INFINITY, 0.95);
        let back = no_op_pass(NoOpRule::Drop, m, 1.0, f64::INFINITY, 0.95);
        assert!(
            (back - each).abs() < 1e-9 && (m - 4.653_427).abs() < 1e-5,
            "{m}"
        );
        let m = no_op_margin(NoOpRule::Change, 0.9, 0.5, 29.0, 0.95);
        assert!((no_op_pass(NoOpRule::Change, m, 0.5, 29.0, 0.95) - 0.9).abs() < 1e-9);
        assert_eq!(no_op_pass(NoOpRule::Drop, 0.01, 0.0, 29.0, 0.95), 1.0);
    }

    #[test]
    fn mde_matches_the_t_and_normal_theory_formulas() {
        // 95%, 80% power: z = 1.959964 + 0.841621 = 2.801585 (standard tables).
        assert!((mde(1.0, f64::INFINITY, 0.95, 0.8) - 2.801_585).abs() < 1e-6);
        // 8 groups, df 7: t_{0.975, 7} + t_{0.8, 7} = 2.364624 + 0.896030 = 3.260654.
        assert!((mde(1.0, 7.0, 0.95, 0.8) - 3.260_654).abs() < 1e-5);
        assert_eq!(mde(0.0, 7.0, 0.95, 0.8), 0.0);
        // n = 41 deltas with sd 0.08: SE = 0.08/√41, MDE ≈ 0.035.
        let x: Vec<f64> = (0..41)
            .map(|i| if i % 2 == 0 { 0.08 } else { -0.08 })
            .collect();
        let se = se_mean(Units::Queries(&x));
        let sd = crate::stats::describe::sd(&x);
        assert!((se - sd / 41f64.sqrt()).abs() < 1e-15);
        assert!((mde(se, f64::INFINITY, 0.95, 0.8) - 2.801_585 * sd / 41f64.sqrt()).abs() < 1e-6);
    }

    #[test]
    fn cluster_se_reduces_to_query_se_for_singletons() {
        let x = [0.1, -0.3, 0.25, 0.0, 0.4];
        let ones = [1.0; 5];
        let q = se_mean(Units::Queries(&x));
        let g = se_mean(Units::Groups {
            sums: &x,
            sizes: &ones,
        });
        assert!((q - g).abs() < 1e-15, "{q} {g}");
        // Two groups {1, 1} and {−1, −1}: x̄ = 0, Σ(S_g)² = 8, G/(G−1) = 2 → √16 / 4 = 1.
        let se = se_mean(Units::Groups {
            sums: &[2.0, -2.0],
            sizes: &[2.0, 2.0],
        });
        assert!((se - 1.0).abs() < 1e-15);
    }
}
