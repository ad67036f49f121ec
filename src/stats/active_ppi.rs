//! Active prediction-powered inference of a mean: the human-labelled units are drawn with unequal,
//! recorded inclusion probabilities π (more where the judge is likely to be wrong), and the
//! corrected estimate weights each labelled unit by 1/π (Zrnic & Candès, "Active statistical
//! inference", ICML 2024, §2–3; the inverse-probability weighting is Horvitz & Thompson, JASA
//! 1952). With ξ_i = 1 when unit i is labelled, f_i the judge's value and Y_i the human one, over
//! all N units (labelled or not):
//!
//!   θ̂_λ = λ · f̄ + (Ȳ_w − λ · f̄_w),   Ȳ_w = Σ ξ_i Y_i / π_i / Σ ξ_i / π_i  (f̄_w likewise),
//!
//! f̄ the judge's mean over every query: the judge's mean corrected by the inverse-probability
//! weighted mean of the human − judge gap on the labelled ones (the Hájek, 1971, ratio form of
//! the Horvitz–Thompson estimate of Zrnic & Candès's θ̂ = (1/N) Σ λ f_i + ξ_i (Y_i − λ f_i) / π_i:
//! the same at π constant, and without the variance of a random sample size). Consistent for
//! the mean of Y at any fixed λ when each π_i depends on the judge's values only. Its
//! linearised terms are T_i − θ̂ = a_i + λ · b_i with a_i = ξ_i (Y_i − Ȳ_w) / π_i and
//! b_i = (f_i − f̄) − ξ_i (f_i − f̄_w) / π_i; λ̂ = −Σ a b / Σ b² over the queries minimises their
//! variance (PPI++'s power tuning carried to the active estimator, Zrnic & Candès §3), clipped
//! to [0, 1].
//!
//! The interval is θ̂ ± t_{G−1, 1−α/2} · se with
//!   se² = G/(G − 1) · Σ_u (Σ_{i∈u} (a_i + λ b_i))² / N²
//! summed over units u (queries, or conversations for the group unit: the cluster-robust
//! variance of a mean, Liang & Zeger 1986), G the labelled units: the same small-sample scaling
//! and Student t as the uniform gates' interval, calibrated in examples/calibration_ppi.rs (the
//! "active" rows). With the group unit a conversation is labelled whole and has one π.
//!
//! The design (`probabilities`): π_i = min(1, c · q_i) with q_i = τ + (1 − τ) · u_i / mean(u), a
//! mix of the uniform design (share τ) and one proportional to the judge's uncertainty u_i
//! (Zrnic & Candès §4 mix with the uniform rule so that no π is tiny), c set so that the
//! probabilities add up to the budget. A unit already labelled by an earlier uniform sample of
//! probability p₁ has been in the sample with probability 1 − (1 − p₁)(1 − π_i) (`combined`).
//! Pure, O(N); checked against calibration/active_ppi_reference.py (numpy) in
//! tests/it/stats_active_ppi.rs.

use std::collections::BTreeMap;

use super::ppi::{Lambda, PpiEstimate};

/// The units of an actively sampled corrected mean.
#[derive(Debug, Clone, Copy)]
pub struct ActiveUnits<'a> {
    /// Human values on the labelled queries (Y).
    pub human: &'a [f64],
    /// The judge's values on the same queries.
    pub judge_labelled: &'a [f64],
    /// Each labelled query's inclusion probability (its unit's), in (0, 1].
    pub probability: &'a [f64],
    /// The judge's values on the queries without human labels.
    pub judge_unlabelled: &'a [f64],
    /// Group of each labelled and each unlabelled query; `None` = every query its own unit.
    pub groups: Option<(&'a [usize], &'a [usize])>,
}

/// The weighted (Hájek) mean Σ ξ x / π / Σ ξ / π of labelled values.
fn weighted_mean(x: &[f64], p: &[f64]) -> f64 {
    let (s, w) = x
        .iter()
        .zip(p)
        .fold((0.0, 0.0), |(s, w), (x, p)| (s + x / p, w + 1.0 / p));
    s / w
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

/// The centred terms T_i − θ̂ = a_i + λ · b_i of the module header, labelled queries first:
/// a_i = ξ_i (Y_i − Ȳ_w) / π_i, b_i = (f_i − f̄) − ξ_i (f_i − f̄_w) / π_i.
fn centred(u: &ActiveUnits<'_>) -> (Vec<f64>, Vec<f64>) {
    let all: Vec<f64> = u
        .judge_labelled
        .iter()
        .chain(u.judge_unlabelled)
        .copied()
        .collect();
    let f_bar = mean(&all);
    let y_w = weighted_mean(u.human, u.probability);
    let f_w = weighted_mean(u.judge_labelled, u.probability);
    let mut a = Vec::with_capacity(all.len());
    let mut b = Vec::with_capacity(all.len());
    for ((y, f), p) in u.human.iter().zip(u.judge_labelled).zip(u.probability) {
        a.push((y - y_w) / p);
        b.push((f - f_bar) - (f - f_w) / p);
    }
    for f in u.judge_unlabelled {
        a.push(0.0);
        b.push(f - f_bar);
    }
    (a, b)
}

/// λ̂ = −Σ a_i b_i / Σ b_i² over queries (the λ that minimises the variance of the terms),
/// clipped to [0, 1]; 0 when b is 0 everywhere.
pub fn tuned_lambda(u: &ActiveUnits<'_>) -> f64 {
    let (a, b) = centred(u);
    let cov: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    let var: f64 = b.iter().map(|y| y * y).sum();
    if var <= 0.0 || !var.is_finite() {
        return 0.0;
    }
    (-cov / var).clamp(0.0, 1.0)
}

fn valid(u: &ActiveUnits<'_>) -> bool {
    let n = u.human.len();
    let lengths = u.judge_labelled.len() == n && u.probability.len() == n;
    let groups = u
        .groups
        .is_none_or(|(a, b)| a.len() == n && b.len() == u.judge_unlabelled.len());
    let probabilities = u.probability.iter().all(|p| *p > 0.0 && *p <= 1.0);
    lengths && groups && probabilities
}

/// The actively sampled corrected mean and its interval at `confidence` (module header). None
/// with mismatched lengths, a probability outside (0, 1], fewer than two labelled units or no
/// unlabelled query.
pub fn mean_interval(u: &ActiveUnits<'_>, lambda: Lambda, confidence: f64) -> Option<PpiEstimate> {
    if !valid(u) || u.judge_unlabelled.is_empty() {
        return None;
    }
    let lambda = match lambda {
        Lambda::Tuned => tuned_lambda(u),
        Lambda::Fixed(l) => l,
    };
    let all = u.judge_labelled.iter().chain(u.judge_unlabelled);
    let f_bar = all.sum::<f64>() / (u.judge_labelled.len() + u.judge_unlabelled.len()) as f64;
    let y_w = weighted_mean(u.human, u.probability);
    let f_w = weighted_mean(u.judge_labelled, u.probability);
    let estimate = lambda * f_bar + (y_w - lambda * f_w);
    let (a, b) = centred(u);
    // The centred terms T_i − θ̂, summed per unit below.
    let terms: Vec<f64> = a.iter().zip(&b).map(|(a, b)| a + lambda * b).collect();
    let n_all = terms.len() as f64;
    // Unit sums of the centred terms; labelled queries first, as `centred` orders them.
    let keys: Vec<usize> = match u.groups {
        Some((gl, gu)) => gl.iter().chain(gu).copied().collect(),
        None => (0..terms.len()).collect(),
    };
    let mut totals: BTreeMap<usize, f64> = BTreeMap::new();
    for (t, k) in terms.iter().zip(&keys) {
        *totals.entry(*k).or_insert(0.0) += t;
    }
    let labelled = keys[..u.human.len()]
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let unlabelled = totals.len() - labelled;
    if labelled < 2 {
        return None;
    }
    let g = labelled as f64;
    let ss: f64 = totals.values().map(|t| t * t).sum();
    let se = (g / (g - 1.0) * ss / (n_all * n_all)).max(0.0).sqrt();
    let t = super::small_sample::t_quantile(1.0 - (1.0 - confidence) / 2.0, g - 1.0);
    Some(PpiEstimate {
        estimate,
        lambda,
        se,
        low: estimate - t * se,
        high: estimate + t * se,
        labelled,
        unlabelled,
    })
}

/// The correction's worth in human labels under the active design: G · var(λ = 0) / var(λ̂),
/// the labelled units an inverse-probability-weighted human-only mean would need for the
/// corrected variance. None when either variance is 0.
pub fn effective_labelled(u: &ActiveUnits<'_>, e: &PpiEstimate) -> Option<f64> {
    let human = mean_interval(u, Lambda::Fixed(0.0), 0.95)?;
    let (vh, vp) = (human.se * human.se, e.se * e.se);
    (vh > 0.0 && vp > 0.0).then(|| e.labelled as f64 * vh / vp)
}

/// The share of the uniform design mixed into an active one (module header's τ).
pub const UNIFORM_SHARE: f64 = 0.5;

/// Inclusion probabilities proportional to the mix q_i = τ + (1 − τ) · u_i / mean(u), capped at
/// 1, adding up to `budget` over the units where `counts` is true (the others get the same rule,
/// for their combined probability). `uncertainty` must be non-negative; with all zero the design
/// is uniform. None when the budget is not positive or exceeds the counted units.
pub fn probabilities(uncertainty: &[f64], counts: &[bool], budget: f64) -> Option<Vec<f64>> {
    let counted = counts.iter().filter(|c| **c).count() as f64;
    if budget <= 0.0 || budget > counted || uncertainty.iter().any(|u| u.is_nan() || *u < 0.0) {
        return None;
    }
    let mu = mean(uncertainty);
    let q: Vec<f64> = uncertainty
        .iter()
        .map(|u| match mu > 0.0 {
            true => UNIFORM_SHARE + (1.0 - UNIFORM_SHARE) * u / mu,
            false => 1.0,
        })
        .collect();
    let total = |c: f64| -> f64 {
        q.iter()
            .zip(counts)
            .filter(|(_, k)| **k)
            .map(|(q, _)| (c * q).min(1.0))
            .sum()
    };
    // The sum grows with c: bisect for the c that spends the budget.
    let (mut lo, mut hi) = (0.0, 1.0);
    while total(hi) < budget {
        hi *= 2.0;
        if hi > 1e12 {
            break;
        }
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if total(mid) < budget {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(q.iter().map(|q| (hi * q).min(1.0)).collect())
}

/// A unit's chance to be in the union of an earlier sample (probability `earlier`) and an
/// independent one (`later`): 1 − (1 − p₁)(1 − p₂).
pub fn combined(earlier: f64, later: f64) -> f64 {
    1.0 - (1.0 - earlier) * (1.0 - later)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_probability_everywhere_gives_a_weighted_mean_of_the_human_values_at_lambda_zero() {
        let y = [0.1, 0.4, -0.2, 0.3];
        let u = ActiveUnits {
            human: &y,
            judge_labelled: &[0.0; 4],
            probability: &[0.5; 4],
            judge_unlabelled: &[1.0; 4],
            groups: None,
        };
        let e = mean_interval(&u, Lambda::Fixed(0.0), 0.95).unwrap();
        // (1/8) Σ Y / 0.5 = 0.6 / 4
        assert!((e.estimate - 0.15).abs() < 1e-15);
        assert_eq!((e.labelled, e.unlabelled), (4, 4));
    }

    #[test]
    fn probabilities_spend_the_budget_and_favour_the_uncertain() {
        let u = [0.0, 1.0, 3.0, 0.0, 0.5];
        let counts = [true, true, true, true, false];
        let p = probabilities(&u, &counts, 2.0).unwrap();
        let spent: f64 = p
            .iter()
            .zip(&counts)
            .filter(|(_, c)| **c)
            .map(|(p, _)| p)
            .sum();
        assert!((spent - 2.0).abs() < 1e-9, "{spent}");
        assert!(p[2] > p[1] && p[1] > p[0] && p[0] > 0.0);
        assert!(probabilities(&u, &counts, 5.0).is_none());
        assert!((combined(0.2, 0.5) - 0.6).abs() < 1e-15);
    }

    #[test]
    fn a_probability_outside_zero_one_is_refused() {
        let u = ActiveUnits {
            human: &[0.1, 0.2],
            judge_labelled: &[0.1, 0.2],
            probability: &[0.5, 0.0],
            judge_unlabelled: &[0.3, 0.1],
            groups: None,
        };
        assert!(mean_interval(&u, Lambda::Tuned, 0.95).is_none());
    }
}
