//! One metric × slice: the interval of the chosen statistic's paired difference (bootstrap-t by
//! default, percentile, BCa or expanded percentile), the Monte-Carlo rerun near a threshold, the
//! sign-flip p-value with its floor, and the MDE.
//!
//! Streams: the metrics whose statistic is the mean share their slice's draws, `bootstrap` and
//! `signflip` with the slice name (`mean_draws`: one index stream and one sign stream feed all of
//! them, and each metric's numbers are what it would get alone; the bootstrap-t standard errors
//! come from the same indices as the means). A median or p95 metric draws from `bootstrap` and
//! `signflip` with the metric and slice names; a close-call rerun from `bootstrap-rerun` with the
//! metric and slice names.
//!
//! With replicate runs (`estimate_crossed`, mean only) each resample also gets its run part
//! (`stats::crossed`) from `bootstrap-runs` with the slice name (every metric of a slice reads
//! the same run draws), a rerun's from `bootstrap-runs-rerun` with the metric and slice names;
//! the interval is the percentile (or BCa) interval of those sums stretched by the Satterthwaite
//! t factor, and the p-value is the matching t test. That t correction is the crossed interval's
//! small-sample correction (its calibration: `docs/noise.md`), so bootstrap-t and the expanded
//! percentile read the percentile interval there; the report states the df and the stretch.

use std::borrow::Cow;

use crate::stats::bootstrap::{bootstrap_means_many, group_sums, Units};
use crate::stats::crossed::{correction, Correction, RunPart};
use crate::stats::interval::{at_levels, interval, Interval, IntervalMethod};
use crate::stats::paired_quantile::{
    bootstrap_quantile_diffs, members, singletons, stacked as stacked_sample, PairedSample,
};
use crate::stats::power::{mde, se_bootstrap, se_mean, POWER};
use crate::stats::quantile::quantile_unsorted;
use crate::stats::small_sample::{
    bm_df, correlated_groups, expanded_levels, se_cr0_cr2, t_stretch, variance_components,
};
use crate::stats::statistic::{QuantileEstimator, Statistic};
use crate::stats::streams::stream_key;
use crate::stats::studentized::{self, bootstrap_studentized_many, Draws};
use crate::stats::{harrell_davis, jackknife, signflip, ties, tilt};

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
    /// A |delta| at or below this is a tie: where every delta is one, nothing moved and the
    /// interval is the point (untouched).
    pub tie_epsilon: f64,
    /// A median or p95 on pooled attempts: the candidate's runs (each one value per query,
    /// aligned with `base`), whose values the candidate's quantile stacks (`cand` holds their
    /// per-query means). Empty, or one run: `cand` alone.
    pub cand_runs: &'a [Vec<f64>],
    /// Group unit, bootstrap-t: below this many effective groups (`groups_counted`) the mean's
    /// interval is the small-sample cluster interval, per side the wider of the Student t on
    /// the CR2 standard error and the tilted score bound, both on the Imbens–Kolesár df
    /// (effective groups − 1, at most the Bell–McCaffrey df), without the bootstrap-t (which
    /// over-covers there, 96–99%: calibration/results.txt `fewgroups`); 0: never.
    pub few_groups_below: f64,
}

pub struct Estimate {
    pub estimate: f64,
    /// The statistic of each side, [baseline, candidate], as the interval's route estimates it
    /// (means; a median or p95 by `QuantileEstimator::for_method`).
    pub sides: [f64; 2],
    pub interval: Interval,
    pub resamples_used: usize,
    pub rerun: bool,
    pub p_value: f64,
    /// The smallest p-value the sign-flip test can give on these units (`signflip::p_floor`).
    pub p_floor: f64,
    pub mde: f64,
    /// The standard error and degrees of freedom behind the MDE (no resampling for a mean).
    pub se: f64,
    pub df: f64,
    /// Group unit: the effective number of groups, 1 + the Imbens–Kolesár df (`groups_counted`).
    pub effective_groups: Option<f64>,
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

/// A mean metric's bootstrap means (with their standard errors under bootstrap-t) and sign-flip
/// p-value, drawn with its slice's other mean metrics.
#[derive(Debug, Clone)]
pub struct MeanDraws {
    pub draws: Draws,
    pub p_value: f64,
}

/// Whether `method` studentises a mean (needs each resample's standard error).
fn studentises(method: IntervalMethod) -> bool {
    method == IntervalMethod::BootstrapT
}

/// Each metric's resampling values (the deltas, or the group sums) and the group sizes.
fn unit_values<'a>(
    deltas: &[&'a [f64]],
    groups: Option<(&[u32], usize)>,
) -> (Vec<Cow<'a, [f64]>>, Option<Vec<f64>>) {
    match groups {
        Some((of, g)) => {
            let grouped: Vec<(Vec<f64>, Vec<f64>)> =
                deltas.iter().map(|d| group_sums(d, of, g)).collect();
            let sizes = grouped.first().map(|(_, z)| z.clone());
            (
                grouped.into_iter().map(|(s, _)| Cow::Owned(s)).collect(),
                sizes,
            )
        }
        // The query unit reads the deltas themselves (no copy of n values per metric).
        None => (deltas.iter().map(|d| Cow::Borrowed(*d)).collect(), None),
    }
}

/// Bootstrap draws of the means of `values` (one slice per metric) under `key`: means alone, or
/// with their standard errors from the same draws when `studentised`.
fn draw_means(
    values: &[&[f64]],
    sizes: Option<&[f64]>,
    resamples: usize,
    key: [u8; 32],
    studentised: bool,
) -> Vec<Draws> {
    if studentised {
        bootstrap_studentized_many(values, sizes, resamples, key)
    } else {
        bootstrap_means_many(values, sizes, resamples, key)
            .into_iter()
            .map(|means| Draws {
                means,
                ses: Vec::new(),
            })
            .collect()
    }
}

/// The shared draws of a slice's mean metrics (`deltas[m]`: metric m's per-query deltas).
pub fn mean_draws(
    deltas: &[&[f64]],
    groups: Option<(&[u32], usize)>,
    resamples: usize,
    seed: u64,
    slice: &str,
    method: IntervalMethod,
) -> Vec<MeanDraws> {
    if deltas.is_empty() {
        return Vec::new();
    }
    let (values, sizes) = unit_values(deltas, groups);
    let values: Vec<&[f64]> = values.iter().map(|v| &v[..]).collect();
    let draws = draw_means(
        &values,
        sizes.as_deref(),
        resamples,
        stream_key(seed, &["bootstrap", slice]),
        studentises(method),
    );
    let p = signflip::p_values_mean_many(
        &values,
        sizes.as_deref(),
        resamples,
        stream_key(seed, &["signflip", slice]),
    );
    draws
        .into_iter()
        .zip(p)
        .map(|(draws, p_value)| MeanDraws { draws, p_value })
        .collect()
}

/// The distance within which a resample statistic counts as equal to the estimate (BCa's ẑ₀):
/// twice the worst rounding of a sum of `terms` values of magnitude at most `scale`.
fn tie_tolerance(terms: usize, scale: f64) -> f64 {
    2.0 * terms.max(4) as f64 * f64::EPSILON * scale
}

/// Each unit's mean: the delta, or the group's sum over its size.
fn unit_means(values: &[f64], sizes: Option<&[f64]>) -> Vec<f64> {
    match sizes {
        Some(z) => values.iter().zip(z).map(|(s, k)| s / k).collect(),
        None => values.to_vec(),
    }
}

/// The interval of a mean from its draws under `method`.
fn mean_interval(d: &Draws, units: Units<'_>, point: f64, x: &Input<'_>, tie: f64) -> Interval {
    let (values, sizes) = units.values_and_sizes();
    match x.method {
        IntervalMethod::BootstrapT => {
            // CR2 and the Bell–McCaffrey df: the CR1 studentisation for equal sizes and
            // queries, wider where a few large groups carry the mean; per side the widest of
            // the bootstrap-t, the Student t bound on the same se and df (heavy tails,
            // `stats::ties::at_least_t`) and the tilted score bound (`stats::tilt`) on every
            // sample, so no pattern of ties switches the route (`stats::ties::widest`).
            let ones = vec![1.0; values.len()];
            let z = sizes.unwrap_or(&ones);
            let se = se_cr0_cr2(values, z).1;
            let stretch = t_stretch(z, x.confidence);
            let range = studentized::unit_range(values, sizes);
            let boot = studentized::interval(d, point, se, stretch, range, x.confidence);
            // Below `few_groups_below` effective groups the df is the Imbens–Kolesár one
            // (effective groups − 1), which reads the within-group correlation the
            // Bell–McCaffrey df ignores, and the bootstrap-t leaves the partners.
            let few = few_groups(x, sizes);
            let df = few.map_or_else(|| bm_df(z), |ik| ik.min(bm_df(z)));
            let Some(t) = ties::t_bounds(point, se, df, x.confidence) else {
                return boot;
            };
            // The most one unit can move: 1 for a metric bounded to [0, 1]; unknown otherwise
            // (the observed range says nothing of an unseen query's move).
            let bounded =
                crate::metric_names::is_bounded(&crate::metric_names::canonical(x.names[0]));
            let reach = if bounded { 1.0 } else { f64::INFINITY };
            let first = match few {
                Some(_) => Interval {
                    bounds: t,
                    levels: boot.levels,
                    mc_se: [0.0, 0.0],
                },
                None => boot,
            };
            ties::widest(
                first,
                t,
                tilt::bounds(values, sizes, df, x.confidence, reach),
            )
        }
        IntervalMethod::ExpandedPercentile => {
            let mut sorted = d.means.clone();
            sorted.sort_unstable_by(f64::total_cmp);
            let ones = vec![1.0; values.len()];
            let levels = expanded_levels(values, sizes.unwrap_or(&ones), x.confidence);
            at_levels(&sorted, levels)
        }
        method => {
            let jk = match method {
                IntervalMethod::Bca => jackknife::mean(units),
                _ => None,
            };
            interval(
                &mut d.means.clone(),
                point,
                jk.as_deref(),
                x.confidence,
                method,
                tie,
            )
        }
    }
}

/// The estimate of one metric × slice. `shared` is the metric's part of its slice's
/// `mean_draws` (drawn here alone, with the same streams, when not given); quantile statistics
/// ignore it.
pub fn estimate(x: &Input<'_>, checks: &[BoundCheck], shared: Option<MeanDraws>) -> Estimate {
    estimate_crossed(x, checks, shared, None)
}

/// One estimate's figures before they become an `Estimate`.
struct Part {
    point: f64,
    sides: [f64; 2],
    iv: Interval,
    rerun: bool,
    p_value: f64,
    /// The standard error and degrees of freedom behind the MDE.
    se: f64,
    df: f64,
    /// Units whose swap changes the statistic (the p floor's count).
    nonzero: usize,
    crossed: Option<Correction>,
}

/// What every statistic's estimate shares: the units, the close-call test and the re-run.
struct Common<'a> {
    x: &'a Input<'a>,
    units: Units<'a>,
    sizes: &'a [f64],
    checks: &'a [BoundCheck],
    rerun_b: usize,
    rerun_key: [u8; 32],
}

impl Common<'_> {
    /// Whether a bound lies within `CLOSE_CALL_SE` Monte-Carlo errors of its threshold (and a
    /// re-run can still add resamples).
    fn close(&self, iv: &Interval) -> bool {
        self.rerun_b > self.x.resamples
            && self.checks.iter().any(|c| {
                (iv.bounds[c.bound] - c.threshold).abs() < CLOSE_CALL_SE * iv.mc_se[c.bound]
            })
    }

    /// Units with a non-zero value (a zero delta, or group sum, does not change under a swap).
    fn nonzero(&self) -> usize {
        let (values, _) = self.units.values_and_sizes();
        values.iter().filter(|&&v| v != 0.0).count()
    }
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
    let c = Common {
        x,
        units,
        sizes: &sizes,
        checks,
        rerun_b: rerun_resamples(x.resamples),
        rerun_key: stream_key(x.seed, &["bootstrap-rerun", metric, slice]),
    };
    let mut part = match (x.statistic.level(), runs) {
        (None, None) => mean_part(&c, shared),
        (None, Some(r)) => crossed_part(&c, shared, r),
        (Some(p), _) if x.cand_runs.len() > 1 => stacked_part(&c, p),
        (Some(p), _) => quantile_part(&c, p),
    };
    // Nothing moved (every |delta| within tie-epsilon): the interval is the point, whatever
    // the number of units (untouched, `verdict`).
    if x.deltas.iter().all(|d| d.abs() <= x.tie_epsilon) {
        part.iv.bounds = [part.point, part.point];
        part.iv.mc_se = [0.0, 0.0];
        part.rerun = false;
    }
    Estimate {
        estimate: part.point,
        sides: part.sides,
        interval: part.iv,
        resamples_used: if part.rerun { c.rerun_b } else { x.resamples },
        rerun: part.rerun,
        p_value: part.p_value,
        // The t tests of replicate runs and of stacked attempts have no floor; the sign-flip
        // test does.
        p_floor: match part.crossed.is_some() || stacked(x) {
            true => 0.0,
            false => signflip::p_floor(part.nonzero, units.len(), x.resamples),
        },
        mde: mde(part.se, part.df, x.confidence, POWER),
        se: part.se,
        df: part.df,
        effective_groups: x.groups.map(|(of, _)| groups_counted(x.deltas, of, &sizes)),
        crossed: part.crossed,
    }
}

/// The Imbens–Kolesár df (effective groups − 1) of a group-unit mean of groups of `sizes`
/// below `few_groups_below` effective groups, whose interval is then the small-sample cluster
/// interval; None otherwise, or without a positive df.
fn few_groups(x: &Input<'_>, sizes: Option<&[f64]>) -> Option<f64> {
    let (of, _) = x.groups.filter(|_| x.few_groups_below > 0.0)?;
    let g = groups_counted(x.deltas, of, sizes?);
    (g < x.few_groups_below && g > 1.0).then_some(g - 1.0)
}

/// The effective number of groups `min-groups` reads: 1 + the Imbens–Kolesár df of the CR2
/// standard error under the deltas' own within-group correlation (`small_sample`).
fn groups_counted(deltas: &[f64], group_of: &[u32], sizes: &[f64]) -> f64 {
    let (e, u) = variance_components(deltas, group_of, sizes).unwrap_or((1.0, 0.0));
    correlated_groups(sizes, e, u)
}

/// The interval read from plain resample statistics (a quantile difference, or crossed sums):
/// BCa when chosen, else percentile (bootstrap-t and the expanded percentile are for a mean).
fn bca_or_percentile(method: IntervalMethod) -> IntervalMethod {
    match method {
        IntervalMethod::Bca => IntervalMethod::Bca,
        _ => IntervalMethod::Percentile,
    }
}

/// The tie tolerance of a mean of `deltas`.
fn mean_tie(deltas: &[f64]) -> f64 {
    let scale = deltas.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    tie_tolerance(deltas.len(), scale)
}

/// The slice's shared draws of this metric, or its own under the same streams.
fn own_draws(x: &Input<'_>, shared: Option<MeanDraws>) -> MeanDraws {
    shared.unwrap_or_else(|| {
        mean_draws(
            &[x.deltas],
            x.groups,
            x.resamples,
            x.seed,
            x.names[1],
            x.method,
        )
        .pop()
        .expect("one metric")
    })
}

/// Each side's mean, [baseline, candidate].
fn side_means(x: &Input<'_>) -> [f64; 2] {
    [x.base, x.cand].map(crate::stats::describe::mean)
}

/// A mean without replicate runs: the chosen interval, the sign-flip p-value.
fn mean_part(c: &Common<'_>, shared: Option<MeanDraws>) -> Part {
    let x = c.x;
    let point = crate::stats::describe::mean(x.deltas);
    let tie = mean_tie(x.deltas);
    let d = own_draws(x, shared);
    let mut iv = mean_interval(&d.draws, c.units, point, x, tie);
    let rerun = c.close(&iv);
    if rerun {
        let (values, z) = c.units.values_and_sizes();
        let again = draw_means(&[values], z, c.rerun_b, c.rerun_key, studentises(x.method))
            .pop()
            .expect("one metric");
        iv = mean_interval(&again, c.units, point, x, tie);
    }
    // No spread among the units (nothing moved, or every unit moved alike): every interval
    // is the point; nothing moved is read as untouched by the judge.
    let (values, sizes) = c.units.values_and_sizes();
    if unit_means(values, sizes).windows(2).all(|w| w[0] == w[1]) {
        iv.bounds = [point, point];
        iv.mc_se = [0.0, 0.0];
    }
    let df = match x.groups {
        Some(_) => bm_df(c.sizes),
        None => x.deltas.len() as f64 - 1.0,
    };
    Part {
        point,
        sides: side_means(x),
        iv,
        rerun,
        p_value: d.p_value,
        se: se_mean(c.units),
        df,
        nonzero: c.nonzero(),
        crossed: None,
    }
}

/// A mean with replicate runs: each resample mean plus its run part, the percentile (or BCa)
/// interval stretched by the Satterthwaite t factor, the t test's p-value.
fn crossed_part(c: &Common<'_>, shared: Option<MeanDraws>, runs: &RunPart) -> Part {
    let x = c.x;
    let slice = x.names[1];
    let point = crate::stats::describe::mean(x.deltas);
    let tie = mean_tie(x.deltas);
    let method = bca_or_percentile(x.method);
    let jk = match method {
        IntervalMethod::Bca => jackknife::mean(c.units),
        _ => None,
    };
    let fix = correction(
        se_mean(c.units).powi(2),
        (c.units.len() as f64 - 1.0).max(0.0),
        runs,
        x.confidence,
    );
    // The run part joins each resample; the interval's distances from the estimate stretch.
    let read = |stats: &mut Vec<f64>, key: [u8; 32]| {
        runs.add_draws(stats, key);
        let mut iv = interval(stats, point, jk.as_deref(), x.confidence, method, tie);
        iv.bounds = iv.bounds.map(|b| fix.stretch_bound(point, b));
        iv.mc_se = iv.mc_se.map(|e| e * fix.stretch);
        iv
    };
    let mut stats = own_draws(x, shared).draws.means;
    let mut iv = read(&mut stats, stream_key(x.seed, &["bootstrap-runs", slice]));
    let rerun = c.close(&iv);
    if rerun {
        let (values, z) = c.units.values_and_sizes();
        stats = bootstrap_means_many(&[values], z, c.rerun_b, c.rerun_key)
            .pop()
            .expect("one metric");
        let key = stream_key(x.seed, &["bootstrap-runs-rerun", x.names[0], slice]);
        iv = read(&mut stats, key);
    }
    Part {
        point,
        sides: side_means(x),
        iv,
        rerun,
        p_value: fix.p_value(point),
        se: fix.se,
        df: fix.df,
        nonzero: c.nonzero(),
        crossed: Some(fix),
    }
}

/// A median or p95: the jackknife t interval of the Harrell–Davis difference (`harrell_davis`),
/// or under `percentile` / `bca` the bootstrap interval of the type 7 difference; the sign-flip
/// p-value over whole units (of the type 7 difference) either way.
fn quantile_part(c: &Common<'_>, p: f64) -> Part {
    let x = c.x;
    let [metric, slice] = x.names;
    let members = match x.groups {
        Some((of, g)) => members(of, g),
        None => singletons(x.deltas.len()),
    };
    let sample = PairedSample {
        base: x.base,
        cand: x.cand,
        units: &members,
    };
    let nonzero = members
        .iter()
        .filter(|m| m.iter().any(|&i| x.deltas[i as usize] != 0.0))
        .count();
    let p_value = || {
        let key = stream_key(x.seed, &["signflip", metric, slice]);
        signflip::p_value_quantile(&sample, p, x.resamples, key)
    };
    if QuantileEstimator::for_method(x.method) == QuantileEstimator::HarrellDavis {
        let j = harrell_davis::paired_difference(x.base, x.cand, &members, p);
        return harrell_davis_part(x, j, p_value(), nonzero);
    }
    let sides = [x.base, x.cand].map(|side| quantile_unsorted(&mut side.to_vec(), p));
    let point = sides[1] - sides[0];
    let (iv, rerun, stats) = bootstrap_quantile_interval(c, &sample, p, point);
    Part {
        point,
        sides,
        iv,
        rerun,
        p_value: p_value(),
        se: se_bootstrap(&stats),
        df: c.units.len() as f64 - 1.0,
        nonzero,
        crossed: None,
    }
}

/// The `percentile` / `bca` interval of a quantile difference on `sample` (the type 7
/// difference `point`): the bootstrap of that difference, re-run with more resamples when the
/// call is close; returns the interval, whether it was re-run and the resampled differences.
fn bootstrap_quantile_interval(
    c: &Common<'_>,
    sample: &PairedSample<'_>,
    p: f64,
    point: f64,
) -> (Interval, bool, Vec<f64>) {
    let x = c.x;
    let [metric, slice] = x.names;
    let scale = sample
        .base
        .iter()
        .chain(sample.cand)
        .fold(0.0f64, |m, v| m.max(v.abs()));
    let tie = tie_tolerance(4, scale);
    let method = bca_or_percentile(x.method);
    let jk = match method {
        IntervalMethod::Bca => jackknife::quantile_diff(sample, p),
        _ => None,
    };
    let key = stream_key(x.seed, &["bootstrap", metric, slice]);
    let mut stats = bootstrap_quantile_diffs(sample, p, x.resamples, key);
    let mut iv = interval(&mut stats, point, jk.as_deref(), x.confidence, method, tie);
    let rerun = c.close(&iv);
    if rerun {
        stats = bootstrap_quantile_diffs(sample, p, c.rerun_b, c.rerun_key);
        iv = interval(&mut stats, point, jk.as_deref(), x.confidence, method, tie);
    }
    (iv, rerun, stats)
}

/// Whether a quantile reads the candidate's pooled runs stacked (`stacked_part`).
fn stacked(x: &Input<'_>) -> bool {
    x.statistic.level().is_some() && x.cand_runs.len() > 1
}

/// A median or p95 on pooled attempts: the candidate's quantile over every run's values
/// (`harrell_davis::pooled_difference`); under `percentile` / `bca` the paired bootstrap of the
/// type 7 difference with each unit's queries drawn with all their runs (the baseline's values
/// counted once per run, `paired_quantile::stacked`). The p-value is the t test of the estimate
/// over its standard error on units − 1 df (a swap of sides no longer applies: the candidate
/// has k values per query, the baseline one), as for the replicate runs of a mean.
fn stacked_part(c: &Common<'_>, p: f64) -> Part {
    let x = c.x;
    let members = match x.groups {
        Some((of, g)) => members(of, g),
        None => singletons(x.deltas.len()),
    };
    let nonzero = members
        .iter()
        .filter(|m| m.iter().any(|&i| x.deltas[i as usize] != 0.0))
        .count();
    let df = (members.len() as f64 - 1.0).max(1.0);
    let t_test = |point: f64, se: f64| Correction::t_p_value(point, se, df);
    if QuantileEstimator::for_method(x.method) == QuantileEstimator::HarrellDavis {
        let j = harrell_davis::pooled_difference(x.base, x.cand_runs, &members, p);
        let p_value = t_test(j.estimate(), j.se);
        return harrell_davis_part(x, j, p_value, nonzero);
    }
    let all: Vec<f64> = x.cand_runs.iter().flatten().copied().collect();
    let sides = [
        quantile_unsorted(&mut x.base.to_vec(), p),
        quantile_unsorted(&mut all.clone(), p),
    ];
    let point = sides[1] - sides[0];
    let (base_k, cand_k, units_k) = stacked_sample(x.base, x.cand_runs, &members);
    let sample = PairedSample {
        base: &base_k,
        cand: &cand_k,
        units: &units_k,
    };
    let (iv, rerun, stats) = bootstrap_quantile_interval(c, &sample, p, point);
    let se = se_bootstrap(&stats);
    Part {
        point,
        sides,
        iv,
        rerun,
        p_value: t_test(point, se),
        se,
        df,
        nonzero,
        crossed: None,
    }
}

/// The default route of a median or p95: the jackknife t interval of the Harrell–Davis
/// difference `j` (paired, or over stacked runs), no resampling (no Monte-Carlo error, no
/// re-run), with the caller's p-value and count of units that moved.
fn harrell_davis_part(
    x: &Input<'_>,
    j: harrell_davis::Jackknifed,
    p_value: f64,
    nonzero: usize,
) -> Part {
    let level = (1.0 - x.confidence) / 2.0;
    Part {
        point: j.estimate(),
        sides: j.sides,
        iv: Interval {
            bounds: j.interval(x.confidence),
            levels: [level, 1.0 - level],
            mc_se: [0.0; 2],
        },
        rerun: false,
        p_value,
        se: j.se,
        df: j.df.max(1.0),
        nonzero,
        crossed: None,
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
