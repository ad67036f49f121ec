//! One metric × slice: the interval of the chosen statistic's paired difference (percentile or
//! BCa), the Monte-Carlo rerun near a threshold, the sign-flip p-value and the MDE.
//!
//! Streams: the metrics whose statistic is the mean share their slice's draws, `bootstrap` and
//! `signflip` with the slice name (`mean_draws`: one index stream and one sign stream feed all of
//! them, and each metric's numbers are what it would get alone). A median or p95 metric draws
//! from `bootstrap` and `signflip` with the metric and slice names; a close-call rerun from
//! `bootstrap-rerun` with the metric and slice names.
//!
//! With replicate runs (`estimate_crossed`, mean only) each resample also gets its run part
//! (`stats::crossed`) from `bootstrap-runs` with the slice name (every metric of a slice reads
//! the same run draws), a rerun's from `bootstrap-runs-rerun` with the metric and slice names;
//! the interval is stretched by the Satterthwaite t factor and the p-value is the matching t test.

use crate::stats::bootstrap::{bootstrap_means, bootstrap_means_many, group_sums, Units};
use crate::stats::crossed::{correction, Correction, RunPart};
use crate::stats::interval::{interval, Interval, IntervalMethod};
use crate::stats::paired_quantile::{bootstrap_quantile_diffs, members, singletons, PairedSample};
use crate::stats::power::{mde, se_bootstrap, se_mean, POWER};
use crate::stats::statistic::Statistic;
use crate::stats::streams::stream_key;
use crate::stats::{jackknife, signflip};

/// A bound compared with a threshold: `bound` 0 is the CI low, 1 the CI high.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundCheck {
    pub bound: usize,
    pub threshold: f64,
}

/// The inputs of one estimate.
pub struct Input<'a> {
    pub base: &'a [f64],
    pub cand: &'a [f64],
    pub deltas: &'a [f64],
    /// Dense group index per query and the number of groups, for the group unit.
    pub groups: Option<(&'a [u32], usize)>,
    pub statistic: Statistic,
    pub method: IntervalMethod,
    pub confidence: f64,
    pub resamples: usize,
    pub seed: u64,
    pub names: [&'a str; 2],
}

pub struct Estimate {
    pub estimate: f64,
    pub interval: Interval,
    pub resamples_used: usize,
    pub rerun: bool,
    pub p_value: f64,
    pub mde: f64,
    /// With replicate runs: the small-sample correction behind the interval and p-value.
    pub crossed: Option<Correction>,
}

/// How much more resampling a close call gets.
pub const RERUN_FACTOR: usize = 10;
/// The resamples of a close-call re-run: `RERUN_FACTOR` times more, at most the documented
/// maximum (10^7; 10^8 draws took 1.6 GB for one small comparison).
pub fn rerun_resamples(resamples: usize) -> usize {
    resamples
        .saturating_mul(RERUN_FACTOR)
        .min(crate::config::MAX_RESAMPLES as usize)
}

/// A bound within this many Monte-Carlo standard errors of a threshold is a close call.
pub const CLOSE_CALL_SE: f64 = 3.0;

/// A mean metric's bootstrap means and sign-flip p-value, drawn with its slice's other mean
/// metrics.
#[derive(Debug, Clone)]
pub struct MeanDraws {
    pub means: Vec<f64>,
    pub p_value: f64,
}

/// The shared draws of a slice's mean metrics (`deltas[m]`: metric m's per-query deltas).
pub fn mean_draws(
    deltas: &[&[f64]],
    groups: Option<(&[u32], usize)>,
    resamples: usize,
    seed: u64,
    slice: &str,
) -> Vec<MeanDraws> {
    if deltas.is_empty() {
        return Vec::new();
    }
    // Group unit: each metric's group sums; the sizes are the same for every metric.
    let grouped: Vec<(Vec<f64>, Vec<f64>)> = match groups {
        Some((of, g)) => deltas.iter().map(|d| group_sums(d, of, g)).collect(),
        None => Vec::new(),
    };
    let values: Vec<&[f64]> = match groups {
        Some(_) => grouped.iter().map(|(sums, _)| sums.as_slice()).collect(),
        None => deltas.to_vec(),
    };
    let sizes = grouped.first().map(|(_, sizes)| sizes.as_slice());
    let means = bootstrap_means_many(
        &values,
        sizes,
        resamples,
        stream_key(seed, &["bootstrap", slice]),
    );
    let p = signflip::p_values_mean_many(
        &values,
        sizes,
        resamples,
        stream_key(seed, &["signflip", slice]),
    );
    means
        .into_iter()
        .zip(p)
        .map(|(means, p_value)| MeanDraws { means, p_value })
        .collect()
}

/// The estimate of one metric × slice. `shared` is the metric's part of its slice's
/// `mean_draws` (drawn here alone, with the same streams, when not given); quantile statistics
/// ignore it.
pub fn estimate(x: &Input<'_>, checks: &[BoundCheck], shared: Option<MeanDraws>) -> Estimate {
    estimate_crossed(x, checks, shared, None)
}

/// As `estimate`, with the run part of replicate runs for a mean statistic (`runs`; quantile
/// statistics ignore it: the caller refuses replicates for them).
pub fn estimate_crossed(
    x: &Input<'_>,
    checks: &[BoundCheck],
    shared: Option<MeanDraws>,
    runs: Option<&RunPart>,
) -> Estimate {
    let [metric, slice] = x.names;
    let (sums, sizes) = match x.groups {
        Some((of, g)) => group_sums(x.deltas, of, g),
        None => (Vec::new(), Vec::new()),
    };
    let units = match x.groups {
        Some(_) => Units::Groups {
            sums: &sums,
            sizes: &sizes,
        },
        None => Units::Queries(x.deltas),
    };
    let unit_members = match (x.statistic, x.groups) {
        (Statistic::Mean, _) => Vec::new(),
        (_, Some((of, g))) => members(of, g),
        (_, None) => singletons(x.deltas.len()),
    };
    let sample = PairedSample {
        base: x.base,
        cand: x.cand,
        units: &unit_members,
    };
    let level = x.statistic.level();
    let point = match level {
        None => crate::stats::describe::mean(x.deltas),
        Some(p) => sample.quantile_diff(p),
    };
    let draw = |b: usize, key: [u8; 32]| match level {
        None => bootstrap_means(units, b, key),
        Some(p) => bootstrap_quantile_diffs(&sample, p, b, key),
    };
    let jk = match (x.method, level) {
        (IntervalMethod::Percentile, _) => None,
        (IntervalMethod::Bca, None) => jackknife::mean(units),
        (IntervalMethod::Bca, Some(p)) => jackknife::quantile_diff(&sample, p),
    };
    let mut b = x.resamples;
    // The mean's means and p-value come from its slice's shared streams.
    let (mut stats, mean_p) = match level {
        None => {
            let d = shared.unwrap_or_else(|| {
                mean_draws(&[x.deltas], x.groups, x.resamples, x.seed, slice)
                    .pop()
                    .expect("one metric")
            });
            (d.means, Some(d.p_value))
        }
        Some(_) => (
            draw(b, stream_key(x.seed, &["bootstrap", metric, slice])),
            None,
        ),
    };
    let runs = runs.filter(|_| level.is_none());
    let fix = runs.map(|r| {
        let rows_var = se_mean(units).powi(2);
        correction(
            rows_var,
            (units.len() as f64 - 1.0).max(0.0),
            r,
            x.confidence,
        )
    });
    // The run part joins each resample; the interval's distances from the estimate stretch.
    let read = |stats: &mut Vec<f64>, key: Option<[u8; 32]>| {
        if let (Some(r), Some(key)) = (runs, key) {
            r.add_draws(stats, key);
        }
        let mut iv = interval(stats, point, jk.as_deref(), x.confidence, x.method);
        if let Some(f) = &fix {
            iv.bounds = iv.bounds.map(|b| f.stretch_bound(point, b));
            iv.mc_se = iv.mc_se.map(|e| e * f.stretch);
        }
        iv
    };
    let mut iv = read(
        &mut stats,
        Some(stream_key(x.seed, &["bootstrap-runs", slice])),
    );
    let close = checks
        .iter()
        .any(|c| (iv.bounds[c.bound] - c.threshold).abs() < CLOSE_CALL_SE * iv.mc_se[c.bound]);
    // The re-run stays within the documented maximum of resamples (10^7).
    let rerun_b = rerun_resamples(x.resamples);
    let close = close && rerun_b > x.resamples;
    if close {
        b = rerun_b;
        stats = draw(b, stream_key(x.seed, &["bootstrap-rerun", metric, slice]));
        iv = read(
            &mut stats,
            Some(stream_key(x.seed, &["bootstrap-runs-rerun", metric, slice])),
        );
    }
    let (p_value, se) = match (level, mean_p) {
        (Some(p), _) => (
            signflip::p_value_quantile(
                &sample,
                p,
                x.resamples,
                stream_key(x.seed, &["signflip", metric, slice]),
            ),
            se_bootstrap(&stats),
        ),
        (None, p) => match &fix {
            Some(f) => (f.p_value(point), f.se),
            None => (p.expect("mean draws carry their p-value"), se_mean(units)),
        },
    };
    Estimate {
        estimate: point,
        interval: iv,
        resamples_used: b,
        rerun: close,
        p_value,
        mde: mde(se, x.confidence, POWER),
        crossed: fix,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_rerun_stays_within_the_maximum() {
        assert_eq!(super::rerun_resamples(2_000), 20_000);
        assert_eq!(super::rerun_resamples(5_000_000), 10_000_000);
        assert_eq!(super::rerun_resamples(10_000_000), 10_000_000);
    }
}
