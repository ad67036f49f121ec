//! Prediction-powered inference (PPI) of a mean from many model labels and a few human labels:
//! Angelopoulos, Bates, Fannjiang, Jordan & Zrnic, "Prediction-powered inference", *Science*
//! 382:669 (2023), with the power-tuning weight λ of PPI++ (Angelopoulos, Duchi & Zrnic,
//! "PPI++: Efficient prediction-powered inference", arXiv:2311.01453, 2023).
//!
//! Y are the human values on the n labelled units, Ŷ the judge's values on the same units, Ũ the
//! judge's values on the N other units. For a paired delta, each value is a unit's
//! candidate − baseline difference of a metric (the PPI estimate of a mean of differences):
//!
//!   θ̂_λ = λ · mean(Ũ) + mean(Y − λŶ),
//!   se² = var(λŨ)/N + var(Y − λŶ)/n           (population variances, divisor N and n),
//!   θ̂_λ ± Φ⁻¹(1 − α/2) · se                   (the analytic, normal-theory interval).
//!
//! λ = 1 is PPI, λ = 0 the human-only mean; PPI++ picks
//! λ̂ = cov(Y, Ŷ) / ((1 + n/N) · var(Ŷ ∪ Ũ)), clipped to [0, 1], with cov over the labelled units
//! (divisor n) and var over all judge values (divisor n + N − 1), over queries whatever the unit,
//! exactly as `ppi-python`'s
//! `ppi_mean_ci` / `ppi_mean_pointestimate` with `lam=None` (tests/it/stats_ppi.rs, against
//! tests/data/stats/ppi_reference.json made by calibration/ppi_reference.py). A judge whose values
//! do not vary gets λ = 0.
//!
//! What the gates read adds a small-sample correction for the few labelled units
//! ([`mean_interval_small_sample`]: the rectifier's variance × G/(G − 1) and Student's t with
//! G − 1 degrees of freedom for G labelled units), calibrated in examples/calibration_ppi.rs.
//!
//! The group unit (conversations as units, every query of a labelled group labelled): every sum
//! of squares of the variance becomes a sum over groups of the squared within-group sums of centred values
//! (the cluster-robust, CR0 variance of a mean; Liang & Zeger 1986), so that groups of one query
//! give the query-unit numbers exactly. Pure, O(n + N).
//!
//! The labelling plan ([`labels_needed`]) reads the unbiased spreads of a pilot of G labelled
//! units (divisor G − 1, as the gates' G/(G − 1) scaling), for the rule's no-op pass chance
//! (`stats::power::no_op_margin`: one-sided for max-drop, two-sided for max-change). They
//! read low as often as not: a plan from them gives less than its power for about half of the
//! pilots. [`Parts::with_assurance`] plans from the labelled spreads' upper confidence limit
//! instead, (G − 1) s² / χ²_{1−γ, G−1} (Browne, "On the use of a pilot sample for sample size
//! determination", *Statistics in Medicine* 14:1933, 1995; Kieser & Wassmer 1996), so that the
//! plan gives at least its power for about a share γ of pilots (calibration/label_plan.rs).

use super::power::{no_op_margin, no_op_pass, NoOpRule};
use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};
use std::collections::BTreeMap;

/// How λ is chosen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lambda {
    /// PPI++: the variance-minimising weight estimated from the data, clipped to [0, 1].
    Tuned,
    /// A fixed weight (1 = plain PPI, 0 = the human-only mean).
    Fixed(f64),
}

/// One side of the inference: values and, for the group unit, each value's group.
#[derive(Debug, Clone, Copy)]
pub struct Units<'a> {
    /// Human values on the labelled units (Y).
    pub human: &'a [f64],
    /// The judge's values on the same labelled units (Ŷ), in the same order.
    pub judge_labelled: &'a [f64],
    /// The judge's values on the units without human labels (Ũ).
    pub judge_unlabelled: &'a [f64],
    /// Group of each labelled unit, and of each unlabelled unit; `None` = every unit its own
    /// group. A group must not appear on both sides.
    pub groups: Option<(&'a [usize], &'a [usize])>,
}

/// The PPI estimate of a mean and its analytic interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PpiEstimate {
    pub estimate: f64,
    pub lambda: f64,
    pub se: f64,
    pub low: f64,
    pub high: f64,
    /// Labelled and unlabelled units (groups for the group unit).
    pub labelled: usize,
    pub unlabelled: usize,
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

/// Σ over groups of (Σ_{i∈g} (x_i − x̄)) · (Σ_{i∈g} (y_i − ȳ)); with no groups, Σ (x_i − x̄)(y_i − ȳ).
fn cross(x: &[f64], y: &[f64], groups: Option<&[usize]>) -> f64 {
    let (mx, my) = (mean(x), mean(y));
    match groups {
        None => x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum(),
        Some(g) => {
            let mut sums: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
            for ((a, b), &k) in x.iter().zip(y).zip(g) {
                let s = sums.entry(k).or_insert((0.0, 0.0));
                s.0 += a - mx;
                s.1 += b - my;
            }
            sums.values().map(|(a, b)| a * b).sum()
        }
    }
}

fn group_count(groups: Option<&[usize]>, len: usize) -> usize {
    match groups {
        None => len,
        Some(g) => g.iter().collect::<std::collections::BTreeSet<_>>().len(),
    }
}

/// The PPI++ weight λ̂ (see the module header), clipped to [0, 1]; 0 when the judge's values do
/// not vary. Computed over queries whatever the unit, as ppi-python computes it: the point
/// estimate is ppi-python's with the group unit too (the groups enter the variance only; any
/// fixed λ gives an unbiased estimate, so the interval stays valid).
pub fn tuned_lambda(u: &Units<'_>) -> f64 {
    let n = u.human.len() as f64;
    let n_all = u.judge_unlabelled.len() as f64;
    let cov = cross(u.human, u.judge_labelled, None) / n;
    let pooled: Vec<f64> = u
        .judge_labelled
        .iter()
        .chain(u.judge_unlabelled)
        .copied()
        .collect();
    let var = cross(&pooled, &pooled, None) / (n + n_all - 1.0);
    if var <= 0.0 || !var.is_finite() {
        return 0.0;
    }
    (cov / ((1.0 + n / n_all) * var)).clamp(0.0, 1.0)
}

fn split<'a>(u: &Units<'a>) -> (Option<&'a [usize]>, Option<&'a [usize]>) {
    match u.groups {
        None => (None, None),
        Some((a, b)) => (Some(a), Some(b)),
    }
}

/// The PPI estimate of the mean of Y and its two-sided interval at `confidence`, as ppi-python
/// computes it (normal quantile, population variances). None with fewer than two labelled or two
/// unlabelled units (groups), or mismatched lengths.
pub fn mean_interval(u: &Units<'_>, lambda: Lambda, confidence: f64) -> Option<PpiEstimate> {
    interval_with(u, lambda, confidence, false)
}

/// [`mean_interval`] with a small-sample correction for the few labelled units (what the gates
/// read): the rectifier's variance scaled by G/(G − 1) for G labelled units (the CR1 scaling; the
/// unbiased variance for the query unit) and the Student t quantile with G − 1 degrees of freedom
/// in place of the normal one. It tends to the analytic interval as G grows; at 5% of 1,000
/// queries or 20 labelled groups the analytic one covers less than 95%
/// (examples/calibration_ppi.rs).
pub fn mean_interval_small_sample(
    u: &Units<'_>,
    lambda: Lambda,
    confidence: f64,
) -> Option<PpiEstimate> {
    interval_with(u, lambda, confidence, true)
}

fn interval_with(
    u: &Units<'_>,
    lambda: Lambda,
    confidence: f64,
    small_sample: bool,
) -> Option<PpiEstimate> {
    if u.human.len() != u.judge_labelled.len() {
        return None;
    }
    let (gl, gu) = split(u);
    if let Some((a, b)) = u.groups {
        if a.len() != u.human.len() || b.len() != u.judge_unlabelled.len() {
            return None;
        }
    }
    let labelled = group_count(gl, u.human.len());
    let unlabelled = group_count(gu, u.judge_unlabelled.len());
    if labelled < 2 || unlabelled < 2 {
        return None;
    }
    let lambda = match lambda {
        Lambda::Tuned => tuned_lambda(u),
        Lambda::Fixed(l) => l,
    };
    let (n, n_all) = (u.human.len() as f64, u.judge_unlabelled.len() as f64);
    let imputed: Vec<f64> = u.judge_unlabelled.iter().map(|v| lambda * v).collect();
    let rectifier: Vec<f64> = u
        .human
        .iter()
        .zip(u.judge_labelled)
        .map(|(y, yh)| y - lambda * yh)
        .collect();
    let estimate = mean(&imputed) + mean(&rectifier);
    let g = labelled as f64;
    let scale = if small_sample { g / (g - 1.0) } else { 1.0 };
    let var = cross(&imputed, &imputed, gu) / (n_all * n_all)
        + scale * cross(&rectifier, &rectifier, gl) / (n * n);
    let se = var.max(0.0).sqrt();
    let z = if small_sample {
        super::small_sample::t_quantile(1.0 - (1.0 - confidence) / 2.0, g - 1.0)
    } else {
        z_of(confidence)
    };
    Some(PpiEstimate {
        estimate,
        lambda,
        se,
        low: estimate - z * se,
        high: estimate + z * se,
        labelled,
        unlabelled,
    })
}

/// The classical interval of a mean with the small-sample correction of
/// [`mean_interval_small_sample`]: mean ± t_{G−1}(1 − α/2) · se with
/// se² = G/(G − 1) · Σ_g (Σ_{i∈g} (x_i − x̄))² / n² for G units (groups, or queries without
/// groups): what a human-only or judge-only mean gets beside the corrected one. Returns
/// (mean, low, high, units); None with fewer than two units.
pub fn classical(
    x: &[f64],
    groups: Option<&[usize]>,
    confidence: f64,
) -> Option<(f64, f64, f64, usize)> {
    let units = group_count(groups, x.len());
    if units < 2 {
        return None;
    }
    let n = x.len() as f64;
    let m = mean(x);
    let g = units as f64;
    let se = (g / (g - 1.0) * cross(x, x, groups) / (n * n))
        .max(0.0)
        .sqrt();
    let t = super::small_sample::t_quantile(1.0 - (1.0 - confidence) / 2.0, g - 1.0);
    Some((m, m - t * se, m + t * se, units))
}

/// The efficiency of the correction as a number of human labels: how many labelled units a
/// human-only mean would need for the corrected estimate's variance, G · var_human / var_PPI,
/// with var_human the human-only mean's variance on the G labelled units (the rectifier's
/// variance at λ = 0) and var_PPI the corrected one at the estimate's λ, both with the
/// small-sample scaling (PPI++, Angelopoulos, Duchi & Zrnic 2023, §2: the variance the tuned λ
/// minimises). Above G the judge is worth labels; equal to G at λ = 0. None when either variance
/// is 0 or fewer than two labelled units.
pub fn effective_labelled(u: &Units<'_>, e: &PpiEstimate) -> Option<f64> {
    let human = interval_with(u, Lambda::Fixed(0.0), 0.95, true)?;
    let ppi = interval_with(u, Lambda::Fixed(e.lambda), 0.95, true)?;
    let (vh, vp) = (human.se * human.se, ppi.se * ppi.se);
    (vh > 0.0 && vp > 0.0).then(|| e.labelled as f64 * vh / vp)
}

/// What a labelling plan needs of one corrected comparison, per unit, unbiased (cluster-robust
/// with groups: G/(G − 1) · G · Σ_g(Σ_{i∈g} a_i − ā)(Σ_{i∈g} b_i − b̄) / n² for G units, the
/// sample variance s² of the unit means when the groups are of one size): the human deltas'
/// variance, their covariance with the judge's and the judge's variance on the labelled units,
/// and the judge's variance on the unlabelled ones. At weight λ with G of `total` units labelled
/// the corrected estimate's variance is
///   se² = λ² · judge_unlabelled / (total − G) + (human − 2λ · cov + λ² · judge_labelled) / G,
/// which is what the gates' se² (the rectifier's with the G/(G − 1) scaling) estimates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Parts {
    pub human: f64,
    pub cov: f64,
    pub judge_labelled: f64,
    pub judge_unlabelled: f64,
    /// The covariance and judge variance over queries that [`tuned_lambda`] reads (the same as
    /// `cov` and the judge's variances for the query unit).
    pub query_cov: f64,
    pub query_judge: f64,
}

impl Parts {
    /// The gates' variance with `g` of `total` units labelled, at the λ the estimator will take
    /// there (PPI++'s over queries, [`tuned_lambda`], with n/N read as g/(total − g)), and that λ.
    pub fn variance_at(&self, g: usize, total: usize) -> (f64, f64) {
        let (a, b) = (1.0 / (total - g) as f64, 1.0 / g as f64);
        let ratio = g as f64 / (total - g) as f64;
        let lambda = if self.query_judge > 0.0 {
            (self.query_cov / ((1.0 + ratio) * self.query_judge)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let v = lambda * lambda * a * self.judge_unlabelled
            + b * (self.human - 2.0 * lambda * self.cov + lambda * lambda * self.judge_labelled);
        (v.max(0.0), lambda)
    }

    /// These parts with the labelled spreads (`human`, `cov`, `judge_labelled`) at their upper
    /// `assurance` confidence limit from `pilot` labelled units: × (G − 1) / χ²_{1−γ, G−1}
    /// (Browne 1995). Unchanged with fewer than two labelled units.
    ///
    /// Panics unless 0 < `assurance` < 1.
    pub fn with_assurance(&self, pilot: usize, assurance: f64) -> Parts {
        assert!(assurance > 0.0 && assurance < 1.0, "assurance in (0, 1)");
        if pilot < 2 {
            return *self;
        }
        let df = (pilot - 1) as f64;
        let f = df
            / ChiSquared::new(df)
                .expect("df ≥ 1")
                .inverse_cdf(1.0 - assurance);
        Parts {
            human: self.human * f,
            cov: self.cov * f,
            judge_labelled: self.judge_labelled * f,
            ..*self
        }
    }
}

/// The variance per unit of a mean's values, G · Σ_g(Σ_{i∈g} (x_i − x̄))² / n² for G units; 0
/// for no value.
pub fn unit_variance(x: &[f64], groups: Option<&[usize]>) -> f64 {
    unit_cov(x, x, groups)
}

fn unit_cov(x: &[f64], y: &[f64], groups: Option<&[usize]>) -> f64 {
    if x.is_empty() {
        return 0.0;
    }
    let n = x.len() as f64;
    group_count(groups, x.len()) as f64 * cross(x, y, groups) / (n * n)
}

/// [`Parts`] of a split (unbiased spreads); None with fewer than two labelled or unlabelled
/// units.
pub fn parts(u: &Units<'_>) -> Option<Parts> {
    let (gl, gu) = split(u);
    let labelled = group_count(gl, u.human.len());
    let unlabelled = group_count(gu, u.judge_unlabelled.len());
    if labelled < 2 || unlabelled < 2 || u.human.len() != u.judge_labelled.len() {
        return None;
    }
    let pooled: Vec<f64> = u
        .judge_labelled
        .iter()
        .chain(u.judge_unlabelled)
        .copied()
        .collect();
    let n = u.human.len() as f64;
    // The unbiased spreads: × G/(G − 1), the gates' own small-sample scaling. Read as they are
    // (divisor G), a pilot of 20 conversations plans from spreads 5% low on average.
    let (bl, bu) = (
        labelled as f64 / (labelled - 1) as f64,
        unlabelled as f64 / (unlabelled - 1) as f64,
    );
    Some(Parts {
        human: bl * unit_variance(u.human, gl),
        cov: bl * unit_cov(u.human, u.judge_labelled, gl),
        judge_labelled: bl * unit_variance(u.judge_labelled, gl),
        judge_unlabelled: bu * unit_variance(u.judge_unlabelled, gu),
        query_cov: cross(u.human, u.judge_labelled, None) / n,
        query_judge: cross(&pooled, &pooled, None) / (pooled.len() as f64 - 1.0),
    })
}

/// The smallest number of labelled units G (of `total`) at which a delta rule of margin `margin`
/// passes an unchanged system with probability `power`: the margin a no-op passes with that
/// chance, se(G) · (t_{1−α/2, G−1} + t_{power, G−1}) for `max-drop` and
/// se(G) · (t_{1−α/2, G−1} + t_{(1+power)/2, G−1}) for the two-sided `max-change`
/// (`stats::power::no_op_margin`, the reading of `plan`), at or below the margin, se(G) from
/// [`Parts::variance_at`]. G runs up to `total` − 2 (the corrected interval needs two unlabelled
/// units). None when no such G is enough.
pub fn labels_needed(
    p: &Parts,
    total: usize,
    rule: NoOpRule,
    margin: f64,
    (confidence, power): (f64, f64),
) -> Option<usize> {
    (3..total.saturating_sub(1)).find(|&g| {
        let (v, _) = p.variance_at(g, total);
        no_op_margin(rule, power, v.sqrt(), (g - 1) as f64, confidence) <= margin
    })
}

/// The chance an unchanged system passes the rule with `g` of `total` units labelled
/// (`stats::power::no_op_pass` at se(G), G − 1 degrees of freedom): what a plan that cannot
/// reach its power says the most labelling gives.
pub fn power_at(
    p: &Parts,
    g: usize,
    total: usize,
    rule: NoOpRule,
    margin: f64,
    confidence: f64,
) -> f64 {
    let (v, _) = p.variance_at(g, total);
    no_op_pass(rule, margin, v.sqrt(), (g - 1) as f64, confidence)
}

/// The smallest margin the rule passes an unchanged system at with chance `power`, labelling up
/// to `total` − 2 units (the G with the smallest such margin); infinite below 5 units.
pub fn reachable_margin(
    p: &Parts,
    total: usize,
    rule: NoOpRule,
    (confidence, power): (f64, f64),
) -> f64 {
    (3..total.saturating_sub(1))
        .map(|g| {
            let (v, _) = p.variance_at(g, total);
            no_op_margin(rule, power, v.sqrt(), (g - 1) as f64, confidence)
        })
        .fold(f64::INFINITY, f64::min)
}

fn z_of(confidence: f64) -> f64 {
    Normal::new(0.0, 1.0)
        .expect("the standard normal exists")
        .inverse_cdf(1.0 - (1.0 - confidence) / 2.0)
}

/// Two-sided normal p-value of an estimate against 0: 2 (1 − Φ(|θ| / se)); 1 when se is 0 and
/// θ is 0, 0 when se is 0 and θ is not.
pub fn p_value(estimate: f64, se: f64) -> f64 {
    if se <= 0.0 {
        return if estimate == 0.0 { 1.0 } else { 0.0 };
    }
    2.0 * (1.0
        - Normal::new(0.0, 1.0)
            .expect("exists")
            .cdf((estimate / se).abs()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units<'a>(y: &'a [f64], yh: &'a [f64], u: &'a [f64]) -> Units<'a> {
        Units {
            human: y,
            judge_labelled: yh,
            judge_unlabelled: u,
            groups: None,
        }
    }

    #[test]
    fn assurance_scales_the_labelled_spreads_by_the_chi_square_limit() {
        let p = Parts {
            human: 2.0,
            cov: 0.5,
            judge_labelled: 1.0,
            judge_unlabelled: 3.0,
            query_cov: 0.4,
            query_judge: 0.9,
        };
        // scipy: 19 / chi2.ppf(0.2, 19) = 1.3852647501066655; 49 / chi2.ppf(0.2, 49).
        for (g, f) in [(20, 1.385_264_750_106_665_5), (50, 1.208_849_248_014_184_8)] {
            let a = p.with_assurance(g, 0.8);
            assert!(
                (a.human / p.human - f).abs() < 1e-9,
                "{g}: {}",
                a.human / p.human
            );
            assert!((a.cov / p.cov - f).abs() < 1e-9);
            assert!((a.judge_labelled / p.judge_labelled - f).abs() < 1e-9);
            assert_eq!(
                (a.judge_unlabelled, a.query_cov, a.query_judge),
                (3.0, 0.4, 0.9)
            );
        }
        assert_eq!(p.with_assurance(1, 0.8), p);
    }

    /// The plan's size, its power at the most labelling and the smallest reachable margin,
    /// against scipy (`stats.t.ppf`, `stats.t.cdf`) on the same parts: the smallest G in
    /// 3..=398 with se(G) · (t.ppf(0.975, G − 1) + t.ppf(q, G − 1)) ≤ margin, q = 0.8 for
    /// max-drop and 0.9 for max-change, se(G)² = λ²·0.0112/(400 − G) +
    /// (0.02 − 2λ·0.013 + λ²·0.011)/G, λ = clip(0.0245 / ((1 + G/(400 − G))·0.0236), 0, 1).
    #[test]
    fn the_plan_size_matches_scipy_for_both_rules() {
        let p = Parts {
            human: 0.02,
            cov: 0.013,
            judge_labelled: 0.011,
            judge_unlabelled: 0.0112,
            query_cov: 0.0245,
            query_judge: 0.0236,
        };
        let need = |rule, m| labels_needed(&p, 400, rule, m, (0.95, 0.8));
        assert_eq!(need(NoOpRule::Drop, 0.02), Some(380));
        assert_eq!(need(NoOpRule::Drop, 0.03), Some(67));
        assert_eq!(need(NoOpRule::Change, 0.03), Some(107));
        assert_eq!(need(NoOpRule::Change, 0.02), None);
        let at = |rule| power_at(&p, 398, 400, rule, 0.02, 0.95);
        assert!((at(NoOpRule::Drop) - 0.805_029_548_663_466_7).abs() < 1e-6);
        assert!((at(NoOpRule::Change) - 0.610_059_097_326_933_3).abs() < 1e-6);
        let m = reachable_margin(&p, 400, NoOpRule::Drop, (0.95, 0.8));
        assert!((m - 0.019_871_652_427_840_433).abs() < 1e-8, "{m}");
        // scipy's noncentral t: at G = 67 the gate passes a no-op with chance 0.8016.
    }

    /// The plan's spreads are unbiased: for the query unit, the sample variance (divisor G − 1)
    /// and sample covariance of the labelled values; the judge's over the unlabelled ones.
    #[test]
    fn the_plan_parts_are_sample_variances() {
        let (y, yh, u) = (
            [0.1, 0.4, -0.2, 0.3],
            [0.2, 0.3, -0.1, 0.5],
            [0.3, -0.4, 0.2],
        );
        let p = parts(&units(&y, &yh, &u)).unwrap();
        // numpy: np.var(y, ddof=1), np.cov(y, yh)[0, 1], np.var(yh, ddof=1), np.var(u, ddof=1)
        let want = [
            0.069_999_999_999_999_99,
            0.058_333_333_333_333_33,
            0.0625,
            0.143_333_333_333_333_34,
        ];
        let got = [p.human, p.cov, p.judge_labelled, p.judge_unlabelled];
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-14, "{got:?}");
        }
    }

    #[test]
    fn lambda_zero_is_the_human_mean_with_its_normal_interval() {
        let y = [0.1, 0.4, -0.2, 0.3];
        let e = mean_interval(
            &units(&y, &[9.0, 1.0, 3.0, 2.0], &[5.0, 7.0]),
            Lambda::Fixed(0.0),
            0.95,
        )
        .unwrap();
        let m = 0.15;
        let var = y.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / 4.0 / 4.0;
        assert!((e.estimate - m).abs() < 1e-15);
        assert!((e.se - var.sqrt()).abs() < 1e-15);
        assert!((e.high - e.estimate - 1.959963984540054 * e.se).abs() < 1e-12);
    }

    #[test]
    fn a_perfect_judge_gets_lambda_near_one_and_a_narrower_interval() {
        let y: Vec<f64> = (0..20)
            .map(|i| ((i * 7) % 11) as f64 / 10.0 - 0.5)
            .collect();
        let u: Vec<f64> = (0..200)
            .map(|i| ((i * 5) % 13) as f64 / 12.0 - 0.5)
            .collect();
        let tuned = mean_interval(&units(&y, &y, &u), Lambda::Tuned, 0.95).unwrap();
        let human = mean_interval(&units(&y, &y, &u), Lambda::Fixed(0.0), 0.95).unwrap();
        assert!(tuned.lambda > 0.8, "{}", tuned.lambda);
        assert!(tuned.se < human.se);
    }

    #[test]
    fn groups_of_one_give_the_query_numbers_and_a_constant_judge_gets_lambda_zero() {
        let y = [0.1, 0.4, -0.2, 0.3, 0.0];
        let yh = [0.2, 0.3, -0.1, 0.5, 0.1];
        let u = [0.3, -0.4, 0.2, 0.6];
        let plain = mean_interval(&units(&y, &yh, &u), Lambda::Tuned, 0.9).unwrap();
        let one = Units {
            groups: Some((&[4, 0, 2, 8, 6], &[1, 3, 5, 7])),
            ..units(&y, &yh, &u)
        };
        let grouped = mean_interval(&one, Lambda::Tuned, 0.9).unwrap();
        assert!(
            (plain.low - grouped.low).abs() < 1e-14 && (plain.high - grouped.high).abs() < 1e-14
        );
        assert_eq!(tuned_lambda(&units(&y, &[1.0; 5], &[1.0; 4])), 0.0);
    }

    #[test]
    fn a_group_sharing_one_effect_widens_the_interval() {
        let y = [0.5, 0.5, -0.5, -0.5, 0.4, 0.4, -0.4, -0.4];
        let u = [0.3, 0.3, -0.3, -0.3];
        let flat = units(&y, &y, &u);
        let grouped = Units {
            groups: Some((&[0, 0, 1, 1, 2, 2, 3, 3], &[4, 4, 5, 5])),
            ..flat
        };
        let a = mean_interval(&flat, Lambda::Fixed(0.0), 0.95).unwrap();
        let b = mean_interval(&grouped, Lambda::Fixed(0.0), 0.95).unwrap();
        assert!(b.se > a.se * 1.3, "{} vs {}", b.se, a.se);
        assert!(mean_interval(&units(&y[..1], &y[..1], &u), Lambda::Tuned, 0.95).is_none());
    }
}
