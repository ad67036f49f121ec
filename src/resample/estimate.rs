//! One metric × slice: the interval of the chosen statistic's paired difference (percentile or
//! BCa), the Monte-Carlo rerun near a threshold, the sign-flip p-value and the MDE. Streams:
//! `bootstrap`, `bootstrap-rerun` and `signflip`, each with the metric and slice names.

use crate::stats::bootstrap::{bootstrap_means, group_sums, Units};
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
}

/// How much more resampling a close call gets.
pub const RERUN_FACTOR: usize = 10;
/// A bound within this many Monte-Carlo standard errors of a threshold is a close call.
pub const CLOSE_CALL_SE: f64 = 3.0;

pub fn estimate(x: &Input<'_>, checks: &[BoundCheck]) -> Estimate {
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
    let mut stats = draw(b, stream_key(x.seed, &["bootstrap", metric, slice]));
    let mut iv = interval(&mut stats, point, jk.as_deref(), x.confidence, x.method);
    let close = checks
        .iter()
        .any(|c| (iv.bounds[c.bound] - c.threshold).abs() < CLOSE_CALL_SE * iv.mc_se[c.bound]);
    if close {
        b = x.resamples * RERUN_FACTOR;
        stats = draw(b, stream_key(x.seed, &["bootstrap-rerun", metric, slice]));
        iv = interval(&mut stats, point, jk.as_deref(), x.confidence, x.method);
    }
    let sign_key = stream_key(x.seed, &["signflip", metric, slice]);
    let (p_value, se) = match level {
        None => (
            signflip::p_value_mean(units, x.resamples, sign_key),
            se_mean(units),
        ),
        Some(p) => (
            signflip::p_value_quantile(&sample, p, x.resamples, sign_key),
            se_bootstrap(&stats),
        ),
    };
    Estimate {
        estimate: point,
        interval: iv,
        resamples_used: b,
        rerun: close,
        p_value,
        mde: mde(se, x.confidence, POWER),
    }
}
