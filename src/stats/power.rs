//! Power: the minimum detectable effect (MDE) of a paired comparison, normal theory (Cohen 1988,
//! *Statistical Power Analysis*, ch. 2; for IR topic-set sizes, Sakai 2016, "Topic set size
//! design", Inf. Retr. J. 19:256): MDE = (z_{1−α/2} + z_{power}) · SE, with α = 1 − confidence.
//!
//! SE of the mean delta at the resampling unit:
//! - query unit: s/√n, s the sample standard deviation of the deltas;
//! - group unit: the cluster (sandwich) SE of the ratio mean x̄ = S/N,
//!   √(G/(G − 1) · Σ_g (S_g − x̄ N_g)²) / N (Cameron & Miller 2015, J. Human Resources 50:317),
//!   which equals s/√n when every group holds one query.
//!
//! For a quantile statistic the SE is the standard deviation of its bootstrap distribution.

use statrs::distribution::{ContinuousCDF, Normal};

use super::bootstrap::Units;

/// The power the MDE is computed for.
pub const POWER: f64 = 0.8;

/// (z_{1−α/2} + z_{power}) · se.
pub fn mde(se: f64, confidence: f64, power: f64) -> f64 {
    let nd = Normal::new(0.0, 1.0).expect("the standard normal exists");
    (nd.inverse_cdf(1.0 - (1.0 - confidence) / 2.0) + nd.inverse_cdf(power)) * se
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
    fn mde_matches_the_normal_theory_formula() {
        // 95%, 80% power: z = 1.959964 + 0.841621 = 2.801585 (standard tables).
        assert!((mde(1.0, 0.95, 0.8) - 2.801_585).abs() < 1e-6);
        // n = 41 deltas with sd 0.08: SE = 0.08/√41, MDE ≈ 0.035.
        let x: Vec<f64> = (0..41)
            .map(|i| if i % 2 == 0 { 0.08 } else { -0.08 })
            .collect();
        let se = se_mean(Units::Queries(&x));
        let sd = crate::stats::describe::sd(&x);
        assert!((se - sd / 41f64.sqrt()).abs() < 1e-15);
        assert!((mde(se, 0.95, 0.8) - 2.801_585 * sd / 41f64.sqrt()).abs() < 1e-6);
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
