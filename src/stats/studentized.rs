//! The studentised (bootstrap-t) interval of a mean delta, with a cluster-robust standard error
//! per resample computed from the same draws as the resample's mean (Efron & Tibshirani 1993,
//! *An Introduction to the Bootstrap*, §12.5; Hall 1992, *The Bootstrap and Edgeworth
//! Expansion*, §3.5; for clustered data the pairs cluster bootstrap-t of Cameron, Gelbach &
//! Miller 2008, "Bootstrap-based improvements for inference with clustered errors", REStat
//! 90:414, with the CR1 standard error of Cameron & Miller 2015, J. Human Resources 50:317).
//!
//! Each resample b gives a mean θ*_b and its standard error se*_b; with t*_b = (θ*_b − θ̂)/se*_b
//! the interval is [θ̂ − t*₍₁₋α/₂₎·ŝe, θ̂ − t*₍α/₂₎·ŝe], ŝe the observed standard error and the
//! t* quantiles type 7 as in `quantile`. Unlike the percentile interval it widens when the data
//! are few or skewed (a resample that happens to miss the rare large deltas has a small se* and
//! so a large |t*|): it is second-order accurate where the percentile interval is first-order
//! (Hall 1992, §3.10).
//!
//! Standard errors, from per-resample sums of extra columns read with the same indices:
//! - query unit, n deltas x: the columns x and (x − x̄)², x̄ the observed mean; with d = θ* − x̄,
//!   Σ(x* − θ*)² = Σ(x* − x̄)² − n·d², se* = √(Σ(x* − θ*)² / ((n − 1) n)) (s/√n);
//! - group unit, G groups with sums S_g and sizes N_g: the columns S, r² and r·N with the
//!   observed residuals r_g = S_g − x̄ N_g, and N, N²; with d = θ* − x̄,
//!   Σ(S*_g − θ* N*_g)² = Σr² − 2dΣrN + d²ΣN², se* = √(G/(G − 1) · that) / ΣN* (CR1, as
//!   `power::se_mean`).
//!
//! **Resamples without spread.** A resample whose spread is zero (every draw the same unit
//! mean, or rounding below 1e-10 of its sum of squares; with k of n units off a common value,
//! the resamples that drew none of the k, a share (1 − k/n)ⁿ ≈ e^−k) has no studentised
//! statistic: se* = 0. The t* quantiles are read over the resamples with spread alone. Why:
//! the bootstrap-t estimates the distribution of the pivot (θ̂ − θ)/ŝe as the procedure uses
//! it (the bootstrap principle: the resampling world repeats what is done to the sample; Efron
//! & Tibshirani 1993 §12.5, Hall 1992 §1.2), and the procedure never forms that pivot on a
//! sample without spread: such a sample reads its point, and nothing moved reads untouched
//! (`stats::ties`, `verdict`). Conditioning the resampled pivot on spread is that rule's
//! resampling counterpart. What the dropped resamples stood for, a change that touched none of
//! the units drawn, is the gate's stated blind spot: their share reaches α/2 only when k/n is
//! below the resolution p* = 1 − (α/2)^(1/n) (`ties::unseen_share`), and there the Student t
//! and tilted score bounds (`ties::widest`, `stats::tilt`) still guard the sparse side.
//!
//! Before, such a resample stood for an infinite t* and a bound read there was the smallest
//! (largest) unit mean: whenever (1 − k/n)ⁿ ≥ α/2, one side of the interval was the worst single
//! delta, so 3 of 1,000 queries moved by (+0.02, −0.02, −0.02) read [−0.0200, +0.0001] and failed
//! a margin of 0.01 that (+0.02, −0.02, +0.02) passed, and a retriever whose ties break
//! differently on 1% of the queries was blocked in up to 24% of pull requests at 43–500 queries
//! (calibration/results.txt, docs/statistics.md "Resamples without spread"). Only when no
//! resample has spread (two units, or very few resamples) is the interval the hull of the unit
//! means, the furthest any resample mean can reach.
//!
//! Cost: as the percentile interval's draws (the same indices), with one extra column per metric
//! for queries and two per metric plus two for groups, computed per draw from the stored values
//! for up to three metrics (`spread_columns`: the same sums, bit for bit) and stored beyond;
//! one sort of B values per metric. From 10,000 units the same columns are summed with Poisson
//! weights (`poisson`) and the units drawn, n or G above, are each resample's Σw; when the
//! values (with the group sizes) repeat, by distinct row (`bins`), the stored columns computed
//! once per row.

use super::bins;
use super::bootstrap::bootstrap_sums;
use super::columns::Columns;
use super::interval::{mc_half_width, Interval};
use super::poisson;
use super::quantile::quantile_sorted;
use super::spread_columns::{self, SpreadColumns};

/// Per resample of one metric: its mean and its standard error, in resample order.
#[derive(Debug, Clone, PartialEq)]
pub struct Draws {
    pub means: Vec<f64>,
    pub ses: Vec<f64>,
}

/// The means and standard errors of several metrics over the same resamples (arguments as
/// `bootstrap::bootstrap_means_many`); metric m's means are exactly what `bootstrap_means_many`
/// gives for it under the same key.
///
/// Panics if there are no units or no metrics, more than `u32::MAX` units, or lengths differ.
pub fn bootstrap_studentized_many(
    values: &[&[f64]],
    sizes: Option<&[f64]>,
    resamples: usize,
    key: [u8; 32],
) -> Vec<Draws> {
    assert!(!values.is_empty(), "no metrics to resample");
    // Groups of one query each are the query unit, draw for draw: the same columns, so the same
    // numbers to the last bit.
    let sizes = sizes.filter(|z| z.iter().any(|&k| k != 1.0));
    let units = values[0].len();
    let total = sizes.map_or(units as f64, |z| z.iter().sum());
    let centre: Vec<f64> = values
        .iter()
        .map(|x| x.iter().sum::<f64>() / total)
        .collect();
    // Columns: the values, then per metric the spread columns, then (groups) N and N²; with
    // Poisson weights (`poisson`, from 10,000 units) one more, Σw: the units drawn.
    let poisson = poisson::applies(units);
    let sums = if poisson {
        poisson_sums(values, &centre, sizes, resamples, key)
    } else {
        match SpreadColumns::new(values, &centre, sizes) {
            Some(table) => bootstrap_sums(&table, resamples, key),
            None => stored_sums(values, &centre, sizes, resamples, key),
        }
    };
    let w = spread_columns::width(values.len(), sizes.is_some());
    let m = values.len();
    let stride = w + usize::from(poisson);
    (0..m)
        .map(|k| {
            let (mut means, mut ses) =
                (Vec::with_capacity(resamples), Vec::with_capacity(resamples));
            for row in sums.chunks_exact(stride) {
                // The units drawn: n (or G), or Σw under Poisson weights.
                let g = if poisson { row[w] } else { units as f64 };
                let (mean, se) = match sizes {
                    _ if g == 0.0 => (centre[k], 0.0),
                    None => {
                        let mean = row[k] / g;
                        let d = mean - centre[k];
                        let ss = spread(row[m + k], g * d * d);
                        (mean, (ss / ((g - 1.0) * g)).sqrt())
                    }
                    Some(_) => {
                        let n = row[w - 2];
                        let mean = row[k] / n;
                        let d = mean - centre[k];
                        let (r2, rn, n2) = (row[m + 2 * k], row[m + 2 * k + 1], row[w - 1]);
                        let ss = spread(r2, 2.0 * d * rn - d * d * n2);
                        ((mean), (g / (g - 1.0) * ss).sqrt() / n)
                    }
                };
                means.push(mean);
                ses.push(if units > 1 && g > 1.0 { se } else { 0.0 });
            }
            Draws { means, ses }
        })
        .collect()
}

/// The columns of `stored_sums` after the values: per metric the spread columns, then (groups)
/// N and N².
fn stored_columns(values: &[&[f64]], centre: &[f64], sizes: Option<&[f64]>) -> Vec<Vec<f64>> {
    let mut extra: Vec<Vec<f64>> = Vec::new();
    for (x, &c) in values.iter().zip(centre) {
        match sizes {
            None => extra.push(x.iter().map(|v| (v - c) * (v - c)).collect()),
            Some(z) => {
                let r: Vec<f64> = x.iter().zip(z).map(|(s, k)| s - c * k).collect();
                extra.push(r.iter().map(|r| r * r).collect());
                extra.push(r.iter().zip(z).map(|(r, k)| r * k).collect());
            }
        }
    }
    if let Some(z) = sizes {
        extra.push(z.to_vec());
        extra.push(z.iter().map(|k| k * k).collect());
    }
    extra
}

/// The column sums under Poisson weights (`poisson::poisson_sums` of the values and the stored
/// columns): by distinct (values, size) rows when they repeat enough (`bins::worth`, the stored
/// columns computed once per row: the same bins, in the same order, as the means alone draw),
/// else unit by unit.
fn poisson_sums(
    values: &[&[f64]],
    centre: &[f64],
    sizes: Option<&[f64]>,
    resamples: usize,
    key: [u8; 32],
) -> Vec<f64> {
    let mut keys = values.to_vec();
    keys.extend(sizes);
    if let Some(bins) = bins::worth(&keys) {
        let per_row: Vec<Vec<f64>> = (0..keys.len()).map(|j| bins.column(j)).collect();
        let m = values.len();
        let row_values: Vec<&[f64]> = per_row[..m].iter().map(Vec::as_slice).collect();
        let row_sizes = sizes.map(|_| per_row[m].as_slice());
        let extra = stored_columns(&row_values, centre, row_sizes);
        let table = bins.with_columns(&as_slices(&row_values, &extra));
        return table.poisson_sums(resamples, key);
    }
    let owned = stored_columns(values, centre, sizes);
    poisson::unit_sums(&as_slices(values, &owned), resamples, key)
}

/// The values, then the stored columns, as the table's column list.
fn as_slices<'a>(values: &[&'a [f64]], extra: &'a [Vec<f64>]) -> Vec<&'a [f64]> {
    let mut cols = values.to_vec();
    cols.extend(extra.iter().map(Vec::as_slice));
    cols
}

/// The resamples' column sums from stored spread columns (more metrics than
/// `SpreadColumns` takes): the same numbers, more memory per draw.
fn stored_sums(
    values: &[&[f64]],
    centre: &[f64],
    sizes: Option<&[f64]>,
    resamples: usize,
    key: [u8; 32],
) -> Vec<f64> {
    let extra = stored_columns(values, centre, sizes);
    bootstrap_sums(&Columns::new(&as_slices(values, &extra)), resamples, key)
}

/// `sum − minus`, the resample's sum of squared deviations: 0 when it is below 1e-10 of `sum`
/// (rounding of a resample without spread).
fn spread(sum: f64, minus: f64) -> f64 {
    let ss = sum - minus;
    if ss <= 1e-10 * sum.abs() {
        0.0
    } else {
        ss
    }
}

/// The studentised statistics t*_b = (θ*_b − θ̂)/se*_b of the resamples with spread
/// (se*_b > 0), sorted ascending; resamples without spread have none (module header).
pub fn t_stats(d: &Draws, estimate: f64) -> Vec<f64> {
    let mut t: Vec<f64> = d
        .means
        .iter()
        .zip(&d.ses)
        .filter(|(_, &s)| s > 0.0)
        .map(|(&m, &s)| (m - estimate) / s)
        .collect();
    t.sort_unstable_by(f64::total_cmp);
    t
}

/// The bootstrap-t interval from the resamples `d` of a mean whose observed value is `estimate`
/// and standard error `se`, the t* quantiles (over the resamples with spread) multiplied by
/// `stretch` (1 for the plain bootstrap-t; see `small_sample::t_stretch`); `range` is
/// [smallest, largest] unit mean, the interval when no resample has spread. With `se` = 0 (no
/// spread) the interval is the point.
///
/// Panics if there are no resamples.
pub fn interval(
    d: &Draws,
    estimate: f64,
    se: f64,
    stretch: f64,
    range: [f64; 2],
    confidence: f64,
) -> Interval {
    assert!(!d.means.is_empty(), "interval of an empty bootstrap sample");
    let alpha = 1.0 - confidence;
    // Bound k is read at t-level 1 − α/2 (low) or α/2 (high).
    let levels = [1.0 - alpha / 2.0, alpha / 2.0];
    if se <= 0.0 || !se.is_finite() {
        return Interval {
            bounds: [estimate; 2],
            levels,
            mc_se: [0.0; 2],
        };
    }
    let t = t_stats(d, estimate);
    if t.is_empty() {
        return Interval {
            bounds: range,
            levels,
            mc_se: [0.0; 2],
        };
    }
    let bound = |p: f64| estimate - stretch * quantile_sorted(&t, p) * se;
    let b = t.len() as f64;
    Interval {
        bounds: levels.map(bound),
        levels,
        mc_se: levels.map(|p| mc_half_width(b, p, bound)),
    }
}

/// [smallest, largest] unit mean: the deltas, or each group's sum over its size.
pub fn unit_range(values: &[f64], sizes: Option<&[f64]>) -> [f64; 2] {
    let mean = |i: usize| sizes.map_or(values[i], |z| values[i] / z[i]);
    (0..values.len()).fold([f64::INFINITY, f64::NEG_INFINITY], |[lo, hi], i| {
        [lo.min(mean(i)), hi.max(mean(i))]
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::bootstrap::bootstrap_means_many;
    use crate::stats::bootstrap::Units;
    use crate::stats::describe::sd;
    use crate::stats::power::se_mean;
    use crate::stats::streams::stream_key;

    #[test]
    fn means_are_the_percentile_means_and_ses_are_recomputed_exactly() {
        let x: Vec<f64> = (0..57)
            .map(|i| ((i * 37 % 23) as f64 - 9.0) / 50.0)
            .collect();
        let y: Vec<f64> = (0..57).map(|i| ((i * 11 % 7) as f64) / 10.0).collect();
        let key = stream_key(3, &["bootstrap", "all"]);
        let t = bootstrap_studentized_many(&[&x, &y], None, 300, key);
        let p = bootstrap_means_many(&[&x, &y], None, 300, key);
        assert_eq!(t[0].means, p[0]);
        assert_eq!(t[1].means, p[1]);
        // The first resample's SE against s*/√n of its own draws: the engine's indices of
        // resample 0 are the first n accepted indices of stream 0 (`bootstrap` header).
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::from_seed(key);
        rng.set_stream(0);
        let mut ix = crate::stats::bootstrap::Indices::new(rng, 57);
        let mut drawn = Vec::new();
        while drawn.len() < 57 {
            let run = ix.take(57 - drawn.len()).to_vec();
            drawn.extend(run.iter().map(|&i| x[i as usize]));
        }
        let want = sd(&drawn) / 57f64.sqrt();
        assert!(
            (t[0].ses[0] - want).abs() < 1e-12,
            "{} vs {want}",
            t[0].ses[0]
        );
    }

    /// Each resample's mean and standard error of `x` (queries, `q`) and of `x` as group sums of
    /// `sizes` (groups, `g`) against a direct weighted computation from `weights` (per resample,
    /// one weight per value: queries s*/√N* over the N* = Σw drawn values; groups the CR1 SE
    /// over the G* = Σw drawn groups).
    fn check_weighted(x: &[f64], sizes: &[f64], weights: &[Vec<f64>], q: &Draws, g: &Draws) {
        for (b, w) in weights.iter().enumerate() {
            let sw: f64 = w.iter().sum();
            let mean = w.iter().zip(x).map(|(w, x)| w * x).sum::<f64>() / sw;
            let ss: f64 = w
                .iter()
                .zip(x)
                .map(|(w, x)| w * (x - mean) * (x - mean))
                .sum();
            let se = (ss / ((sw - 1.0) * sw)).sqrt();
            assert!(
                (q.means[b] - mean).abs() < 1e-12 && (q.ses[b] - se).abs() < 1e-12 * se.max(1.0),
                "{} vs {mean}, {} vs {se}",
                q.means[b],
                q.ses[b]
            );
            let nw: f64 = w.iter().zip(sizes).map(|(w, k)| w * k).sum();
            let gm = w.iter().zip(x).map(|(w, s)| w * s).sum::<f64>() / nw;
            let r2: f64 = (0..x.len())
                .map(|i| w[i] * (x[i] - gm * sizes[i]).powi(2))
                .sum();
            let gse = (sw / (sw - 1.0) * r2).sqrt() / nw;
            assert!((g.means[b] - gm).abs() < 1e-12, "{} vs {gm}", g.means[b]);
            assert!((g.ses[b] - gse).abs() < 1e-9 * gse, "{} vs {gse}", g.ses[b]);
        }
    }

    #[test]
    fn poisson_means_and_ses_are_the_weighted_ones() {
        // From 10,000 units, all values distinct (unit by unit): the documented weights.
        use crate::stats::poisson::{tests::layout_weights, POISSON_FROM};
        let n = POISSON_FROM + 5;
        let x: Vec<f64> = (0..n)
            .map(|i| ((i * 37 % 101) as f64 - 40.0) / 80.0 + i as f64 * 1e-9)
            .collect();
        let sizes: Vec<f64> = (0..n).map(|i| (1 + i % 4) as f64).collect();
        let key = stream_key(9, &["bootstrap", "all"]);
        let weights: Vec<Vec<f64>> = layout_weights(n, 6, key)
            .iter()
            .map(|w| w.iter().map(|&v| f64::from(v)).collect())
            .collect();
        let q = bootstrap_studentized_many(&[&x], None, 6, key)
            .pop()
            .unwrap();
        let g = bootstrap_studentized_many(&[&x], Some(&sizes), 6, key)
            .pop()
            .unwrap();
        assert_eq!(q.means, bootstrap_means_many(&[&x], None, 6, key)[0]);
        check_weighted(&x, &sizes, &weights, &q, &g);
    }

    #[test]
    fn binned_means_and_ses_are_the_weighted_ones() {
        // From 10,000 units with 101 distinct values (by distinct value, `bins`): each distinct
        // (value, size) row's total weight, drawn as the bins' layout says, in the same formulas.
        use crate::stats::bins::tests::layout_totals;
        use crate::stats::poisson::POISSON_FROM;
        let n = POISSON_FROM + 5;
        let x: Vec<f64> = (0..n)
            .map(|i| ((i * 37 % 101) as f64 - 40.0) / 80.0)
            .collect();
        let sizes: Vec<f64> = (0..n).map(|i| (1 + i * 37 % 101 % 4) as f64).collect();
        let key = stream_key(9, &["bootstrap", "all"]);
        let q = bootstrap_studentized_many(&[&x], None, 6, key)
            .pop()
            .unwrap();
        let g = bootstrap_studentized_many(&[&x], Some(&sizes), 6, key)
            .pop()
            .unwrap();
        assert_eq!(q.means, bootstrap_means_many(&[&x], None, 6, key)[0]);
        assert_eq!(
            g.means,
            bootstrap_means_many(&[&x], Some(&sizes), 6, key)[0]
        );
        // The rows of (value, size) are the rows of value here (a size per value), so one set of
        // per-row totals serves both units.
        let bins = crate::stats::bins::Bins::of(&[&x, &sizes], n).unwrap();
        assert_eq!(bins.len(), 101);
        let (rx, rz) = (bins.column(0), bins.column(1));
        let q_bins = crate::stats::bins::Bins::of(&[&x], n).unwrap();
        assert_eq!(q_bins.column(0), rx);
        let totals = layout_totals(&bins, 6, key);
        check_weighted(&rx, &rz, &totals, &q, &g);
    }

    #[test]
    fn group_ses_are_the_cluster_robust_se_of_the_drawn_groups() {
        let sums = [0.5, -0.2, 0.9, 0.1, -0.4, 0.3];
        let sizes = [2.0, 1.0, 4.0, 3.0, 1.0, 2.0];
        let key = stream_key(4, &["bootstrap", "all"]);
        let d = bootstrap_studentized_many(&[&sums], Some(&sizes), 50, key);
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::from_seed(key);
        rng.set_stream(0);
        let mut ix = crate::stats::bootstrap::Indices::new(rng, 6);
        for b in 0..3 {
            let mut idx = Vec::new();
            while idx.len() < 6 {
                let run = ix.take(6 - idx.len()).to_vec();
                idx.extend(run);
            }
            let s: Vec<f64> = idx.iter().map(|&i| sums[i as usize]).collect();
            let z: Vec<f64> = idx.iter().map(|&i| sizes[i as usize]).collect();
            let want = se_mean(Units::Groups {
                sums: &s,
                sizes: &z,
            });
            assert!(
                (d[0].ses[b] - want).abs() < 1e-12,
                "resample {b}: {} vs {want}",
                d[0].ses[b]
            );
        }
    }

    #[test]
    fn interval_by_hand() {
        // t* = (m − 1)/s: [−2, −1, 0, 1, 2] at se 1 → quantiles 0.1 and 0.9 of t are −1.6 and
        // 1.6: [1 − 1.6·0.5, 1 + 1.6·0.5] with ŝe = 0.5.
        let d = Draws {
            means: vec![-1.0, 0.0, 1.0, 2.0, 3.0],
            ses: vec![1.0; 5],
        };
        let i = interval(&d, 1.0, 0.5, 1.0, [-5.0, 5.0], 0.8);
        assert!(
            (i.bounds[0] - 0.2).abs() < 1e-12 && (i.bounds[1] - 1.8).abs() < 1e-12,
            "{i:?}"
        );
        // A resample without spread has no t*: the quantiles are read over the other four,
        // t* = [−2, −1, 0, 1]: 0.7 at 0.9 and −1.7 at 0.1, so [1 − 0.35, 1 + 0.85].
        let d = Draws {
            means: vec![-1.0, 0.0, 1.0, 2.0, 3.0],
            ses: vec![1.0, 1.0, 1.0, 1.0, 0.0],
        };
        let i = interval(&d, 1.0, 0.5, 1.0, [-5.0, 5.0], 0.8);
        assert!(
            (i.bounds[0] - 0.65).abs() < 1e-12 && (i.bounds[1] - 1.85).abs() < 1e-12,
            "{i:?}"
        );
        assert!(i.mc_se.iter().all(|s| s.is_finite()));
        // No resample with spread: the hull of the unit means.
        let none = Draws {
            means: vec![-1.0, 3.0],
            ses: vec![0.0, 0.0],
        };
        let i = interval(&none, 1.0, 0.5, 1.0, [-5.0, 5.0], 0.8);
        assert_eq!(i.bounds, [-5.0, 5.0]);
        // No observed spread: the point.
        assert_eq!(
            interval(&d, 1.0, 0.0, 1.0, [-5.0, 5.0], 0.8).bounds,
            [1.0, 1.0]
        );
    }

    #[test]
    fn few_moved_units_do_not_reach_the_worst_delta() {
        // 3 of 1,000 queries moved by (+0.02, −0.02, −0.02): about e^−3 ≈ 5% of the resamples
        // draw none of the three and have no spread. Read as infinite t*, they put the low bound
        // at −0.02 (the worst delta); over the resamples with spread it stays within a few
        // standard errors (ŝe ≈ 3.5e-5) of the estimate −2e-5, and so does the mirror image.
        for sign in [1.0, -1.0] {
            let mut x = vec![0.0; 1000];
            x[1] = sign * 0.02;
            x[2] = -sign * 0.02;
            x[3] = -sign * 0.02;
            let key = stream_key(5, &["bootstrap", "all"]);
            let d = bootstrap_studentized_many(&[&x], None, 2000, key)
                .pop()
                .unwrap();
            let flat = d.ses.iter().filter(|&&s| s == 0.0).count();
            assert!((60..140).contains(&flat), "{flat} resamples without spread");
            let point = x.iter().sum::<f64>() / 1000.0;
            let se = sd(&x) / 1000f64.sqrt();
            let i = interval(&d, point, se, 1.0, unit_range(&x, None), 0.95);
            let [low, high] = i.bounds;
            assert!(low < point && point < high, "{i:?}");
            assert!(low > point - 10.0 * se && high < point + 10.0 * se, "{i:?}");
        }
    }

    #[test]
    fn a_single_unit_has_no_spread() {
        let d = bootstrap_studentized_many(&[&[0.3]], None, 10, stream_key(1, &["b"]));
        assert!(d[0].ses.iter().all(|&s| s == 0.0));
        assert_eq!(
            unit_range(&[0.3, -0.2, 0.6], Some(&[1.0, 2.0, 3.0])),
            [-0.1, 0.3]
        );
    }
}
