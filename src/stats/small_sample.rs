//! Small-sample corrections for a mean over G units (queries, or groups of sizes N_g):
//!
//! - Effective number of groups, (Σ N_g)² / Σ N_g² (Kish 1965, *Survey Sampling*, §8.2, the
//!   design effect of unequal cluster sizes; the guard `min-groups` reads it): G for equal sizes,
//!   near the number of large groups when a few dominate.
//! - CR2 standard error (Bell & McCaffrey 2002, Survey Methodology 28:169): for the mean as the
//!   intercept of a regression on a constant, the hat block of group g is (N_g/N)·J, so the CR2
//!   adjustment (I − H_gg)^{-1/2} scales the group's residual sum by (1 − N_g/N)^{-1/2}:
//!   se² = Σ_g r_g² / (1 − N_g/N) / N², r_g = S_g − x̄ N_g.
//! - Its Satterthwaite degrees of freedom under independent errors (Bell & McCaffrey 2002;
//!   Imbens & Kolesár 2016, REStat 98:701, the "BM" df): with w_g = 1/(1 − N_g/N),
//!   df = N² / (Σ w_g² N_g² (1 − 2N_g/N) + (Σ w_g N_g²)² / N²), which is G − 1 for equal sizes
//!   and n − 1 for single queries.
//! - The expanded percentile interval (Hesterberg 2015, "What teachers should know about the
//!   bootstrap", Am. Stat. 69:371, §4.3): read the percentile interval at α'/2 = Φ(−z'), with
//!   z' = t_{1−α/2, df} · se_CR2 / se_CR0, so that for normal data it is as wide as the t interval
//!   with the CR2 standard error (√(G/(G − 1)) · t_{G−1} for equal sizes, Hesterberg's factor).
//! - Correlation-aware effective groups (`min-groups` reads it): 1 + the
//!   Imbens–Kolesár degrees of freedom of the CR2 standard error under a random-effects model,
//!   Ω = σ²_e I + σ²_u (block of ones per group) (Imbens & Kolesár 2016, REStat 98:701, §3: the
//!   "IK" df, (Σλ)² / Σλ² over the eigenvalues of G'ΩG), with σ²_u and σ²_e the one-way ANOVA
//!   (method of moments) estimates from the deltas, σ²_u truncated at 0. For the mean, G'ΩG =
//!   D (σ²_e K + σ²_u K²) D / N² with K = diag(N_g) − N N'/N and D = diag(√w_g), a diagonal
//!   plus rank-two matrix, so both traces take O(G). Equal sizes give G; σ²_u = 0 gives
//!   1 + the BM df.
//! - Student t quantiles for the minimum detectable effect (`power`).
//!
//! Pure, O(G).

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// (Σ N_g)² / Σ N_g².
pub fn effective_groups(sizes: &[f64]) -> f64 {
    let n: f64 = sizes.iter().sum();
    let n2: f64 = sizes.iter().map(|k| k * k).sum();
    if n2 > 0.0 {
        n * n / n2
    } else {
        0.0
    }
}

/// The one-way ANOVA estimates (σ²_e, σ²_u) of per-query `deltas` in groups `group_of` (dense,
/// `sizes[g]` queries each); σ²_u truncated at 0; `None` without within-group degrees of
/// freedom or with fewer than two groups.
pub fn variance_components(deltas: &[f64], group_of: &[u32], sizes: &[f64]) -> Option<(f64, f64)> {
    let (g, n) = (sizes.len() as f64, deltas.len() as f64);
    if sizes.len() < 2 || n <= g {
        return None;
    }
    let mut sums = vec![0.0; sizes.len()];
    for (&d, &k) in deltas.iter().zip(group_of) {
        sums[k as usize] += d;
    }
    let grand = sums.iter().sum::<f64>() / n;
    let within: f64 = deltas
        .iter()
        .zip(group_of)
        .map(|(&d, &k)| (d - sums[k as usize] / sizes[k as usize]).powi(2))
        .sum();
    let between: f64 = sums
        .iter()
        .zip(sizes)
        .map(|(s, k)| k * (s / k - grand).powi(2))
        .sum();
    let (msw, msb) = (within / (n - g), between / (g - 1.0));
    let n0 = (n - sizes.iter().map(|k| k * k).sum::<f64>() / n) / (g - 1.0);
    Some((msw, ((msb - msw) / n0).max(0.0)))
}

/// 1 + the Imbens–Kolesár df of the CR2 standard error of the mean under Ω = σ²_e I + σ²_u J
/// per group (see the header); 0 with fewer than two groups, 1 + the BM df without variance.
pub fn correlated_groups(sizes: &[f64], sigma2_e: f64, sigma2_u: f64) -> f64 {
    let n: f64 = sizes.iter().sum();
    if sizes.len() < 2 || n <= 0.0 {
        return 0.0;
    }
    if sizes.iter().all(|&k| k == sizes[0]) {
        // K = N_g (I − J/G) is a projection up to scale: the df is G − 1 exactly, whatever Ω.
        return sizes.len() as f64;
    }
    let (se, su) = if sigma2_e + sigma2_u > 0.0 {
        (sigma2_e, sigma2_u)
    } else {
        (1.0, 0.0)
    };
    let s2: f64 = sizes.iter().map(|k| k * k).sum();
    let (c1, c2) = (-se / n + su * s2 / (n * n), -su / n);
    // B = diag(λ) + c1 u u' + c2 (v u' + u v'), u_g = √w_g N_g, v_g = √w_g N_g².
    let (mut tr, mut diag2, mut cross) = (0.0, 0.0, 0.0);
    let (mut uu, mut uv, mut vv) = (0.0, 0.0, 0.0);
    for &k in sizes {
        let w = 1.0 / (1.0 - k / n);
        let (u, v) = (w.sqrt() * k, w.sqrt() * k * k);
        let lambda = w * (se * k + su * k * k);
        tr += lambda;
        diag2 += lambda * lambda;
        cross += lambda * (c1 * u * u + 2.0 * c2 * u * v);
        (uu, uv, vv) = (uu + u * u, uv + u * v, vv + v * v);
    }
    tr += c1 * uu + 2.0 * c2 * uv;
    // tr((C M)²) with C = [[c1, c2], [c2, 0]], M = [[uu, uv], [uv, vv]].
    let (a, b) = (c1 * uu + c2 * uv, c1 * uv + c2 * vv);
    let (c, d) = (c2 * uu, c2 * uv);
    let low_rank = a * a + 2.0 * b * c + d * d;
    let tr2 = diag2 + 2.0 * cross + low_rank;
    if tr2 > 0.0 {
        1.0 + tr * tr / tr2
    } else {
        0.0
    }
}

/// The CR0 and CR2 standard errors of Σ S_g / Σ N_g; (0, 0) with fewer than two groups.
pub fn se_cr0_cr2(sums: &[f64], sizes: &[f64]) -> (f64, f64) {
    let n: f64 = sizes.iter().sum();
    if sums.len() < 2 || n <= 0.0 {
        return (0.0, 0.0);
    }
    let m = sums.iter().sum::<f64>() / n;
    let (mut cr0, mut cr2) = (0.0, 0.0);
    for (&s, &k) in sums.iter().zip(sizes) {
        let r2 = (s - m * k).powi(2);
        cr0 += r2;
        cr2 += r2 / (1.0 - k / n);
    }
    (cr0.sqrt() / n, cr2.sqrt() / n)
}

/// Bell–McCaffrey degrees of freedom of the CR2 standard error; 0 with fewer than two groups.
pub fn bm_df(sizes: &[f64]) -> f64 {
    let n: f64 = sizes.iter().sum();
    if sizes.len() < 2 || n <= 0.0 {
        return 0.0;
    }
    let (mut a, mut c) = (0.0, 0.0);
    for &k in sizes {
        let w = 1.0 / (1.0 - k / n);
        a += w * w * k * k * (1.0 - 2.0 * k / n);
        c += w * k * k;
    }
    n * n / (a + c * c / (n * n))
}

/// The quantile of Student's t with `df` degrees of freedom (the normal's for df = ∞, and from
/// 10^7 on, where the two differ by less than 10^-6 and the t's inverse loses precision).
///
/// Panics if df ≤ 0 or p is outside (0, 1).
pub fn t_quantile(p: f64, df: f64) -> f64 {
    assert!(
        df > 0.0 && p > 0.0 && p < 1.0,
        "t quantile needs df > 0 and 0 < p < 1"
    );
    if df >= 1e7 {
        Normal::new(0.0, 1.0)
            .expect("standard normal")
            .inverse_cdf(p)
    } else {
        StudentsT::new(0.0, 1.0, df).expect("df > 0").inverse_cdf(p)
    }
}

/// The factor t_{1−α/2, BM df} / t_{1−α/2, G−1} by which the bootstrap-t quantiles are stretched
/// for unequal group sizes (1 for equal sizes and for single queries, whose BM df is G − 1);
/// 1 with fewer than two groups.
pub fn t_stretch(sizes: &[f64], confidence: f64) -> f64 {
    let g = sizes.len() as f64;
    let df = bm_df(sizes);
    if g < 2.0 || df <= 0.0 {
        return 1.0;
    }
    let p = 1.0 - (1.0 - confidence) / 2.0;
    (t_quantile(p, df) / t_quantile(p, g - 1.0)).max(1.0)
}

/// The expanded percentile levels [α'/2, 1 − α'/2] for a mean of groups with these sums and
/// sizes (singletons for the query unit); the plain levels with fewer than two groups or no
/// spread.
pub fn expanded_levels(sums: &[f64], sizes: &[f64], confidence: f64) -> [f64; 2] {
    let alpha = 1.0 - confidence;
    let (cr0, cr2) = se_cr0_cr2(sums, sizes);
    let df = bm_df(sizes);
    if cr0 <= 0.0 || df <= 0.0 {
        return [alpha / 2.0, 1.0 - alpha / 2.0];
    }
    let z = t_quantile(1.0 - alpha / 2.0, df) * cr2 / cr0;
    let low = Normal::new(0.0, 1.0).expect("standard normal").cdf(-z);
    [low, 1.0 - low]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_sizes_give_g_minus_one_df_and_hesterbergs_factor() {
        for g in [2usize, 5, 8, 30] {
            let sizes = vec![4.0; g];
            assert!((bm_df(&sizes) - (g - 1) as f64).abs() < 1e-9, "G = {g}");
            assert!((effective_groups(&sizes) - g as f64).abs() < 1e-12);
            let sums: Vec<f64> = (0..g).map(|i| (i as f64 * 0.7).sin()).collect();
            let (cr0, cr2) = se_cr0_cr2(&sums, &sizes);
            let factor = (g as f64 / (g as f64 - 1.0)).sqrt();
            assert!((cr2 / cr0 - factor).abs() < 1e-12);
        }
        // Single queries: n − 1.
        assert!((bm_df(&[1.0; 20]) - 19.0).abs() < 1e-9);
    }

    #[test]
    fn unequal_sizes_have_fewer_df_and_effective_groups() {
        // Sizes 30, 1, 1, 1, 1: one group dominates. Effective groups 34² / 904 = 1.2788.
        let sizes = [30.0, 1.0, 1.0, 1.0, 1.0];
        assert!((effective_groups(&sizes) - 34.0 * 34.0 / 904.0).abs() < 1e-12);
        // By hand: N = 34, w = 34/4 for the big group and 34/33 for the others;
        // a = (34/4)²·900·(1 − 60/34) + 4·(34/33)²·(1 − 2/34), c = (34/4)·900 + 4·(34/33).
        let n = 34.0f64;
        let (w1, w2) = (n / 4.0, n / 33.0);
        let a = w1 * w1 * 900.0 * (1.0 - 60.0 / n) + 4.0 * w2 * w2 * (1.0 - 2.0 / n);
        let c = w1 * 900.0 + 4.0 * w2;
        let want = n * n / (a + c * c / (n * n));
        assert!((bm_df(&sizes) - want).abs() < 1e-9);
        assert!(want < 4.0 && want > 0.0, "{want}");
    }

    #[test]
    fn correlated_groups_without_correlation_is_one_plus_the_bm_df() {
        for sizes in [
            vec![4.0; 8],
            vec![30.0, 1.0, 1.0, 1.0, 1.0],
            vec![1.0, 2.0, 3.0, 10.0, 30.0, 2.0],
        ] {
            let want = 1.0 + bm_df(&sizes);
            let got = correlated_groups(&sizes, 0.7, 0.0);
            assert!(
                (got - want).abs() < 1e-9 * want,
                "{sizes:?}: {got} vs {want}"
            );
        }
        // Equal sizes: G whatever the correlation.
        assert!((correlated_groups(&[4.0; 8], 0.01, 0.5) - 8.0).abs() < 1e-9);
    }

    #[test]
    fn t_quantiles_match_tables() {
        // Student t tables: t_{0.975, 7} = 2.364624, t_{0.8, 7} = 0.896030, t_{0.975, 19} =
        // 2.093024.
        assert!((t_quantile(0.975, 7.0) - 2.364_624).abs() < 1e-5);
        assert!((t_quantile(0.8, 7.0) - 0.896_030).abs() < 1e-5);
        assert!((t_quantile(0.975, 19.0) - 2.093_024).abs() < 1e-5);
        assert!((t_quantile(0.975, f64::INFINITY) - 1.959_964).abs() < 1e-5);
    }

    #[test]
    fn expanded_levels_for_equal_groups() {
        // G = 8: z' = √(8/7) · t_{0.975, 7} = 2.527890 → α'/2 = Φ(−2.527890) = 0.0057375.
        let sums = [0.3, -0.1, 0.2, 0.5, 0.0, -0.4, 0.25, 0.1];
        let [lo, hi] = expanded_levels(&sums, &[4.0; 8], 0.95);
        assert!((lo - 0.005_737_5).abs() < 1e-6, "{lo}");
        assert!((hi - (1.0 - lo)).abs() < 1e-15);
        let alpha = 1.0 - 0.95;
        let plain = [alpha / 2.0, 1.0 - alpha / 2.0];
        assert_eq!(expanded_levels(&[0.3], &[4.0], 0.95), plain);
    }
}
