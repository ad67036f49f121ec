//! The keyed path's reading of a summary (`resample::keyed`): two summaries added, and every
//! comparison of a summary — the means from the exact sums, the percentile interval of the
//! resample means Σw·x / Σw·size, the sign-flip p-value compared in integers, the cluster-robust
//! standard error, Bell–McCaffrey df and effective groups from the moments per unit size.

use std::collections::BTreeMap;

use super::Settings;
use crate::config::Unit;
use crate::model::summary::{MetricSummary, SliceSummary};
use crate::model::{Comparison, Regression};
use crate::stats::interval::{interval, IntervalMethod};
use crate::stats::keyed::{p_floor, p_value, unfixed, unfixed_sq};
use crate::stats::power::{mde, POWER};
use crate::stats::small_sample::{bm_df, correlated_groups};

/// `b` added into `a` (slice by slice, metric by metric; the worst regressions kept `worst`).
pub fn add_slices(
    a: &mut BTreeMap<String, SliceSummary>,
    b: BTreeMap<String, SliceSummary>,
    s: &Settings,
) {
    for (name, y) in b {
        match a.get_mut(&name) {
            None => {
                a.insert(name, y);
            }
            Some(x) => add_slice(x, y, s),
        }
    }
}

fn add_vec(a: &mut [i64], b: &[i64]) {
    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
}

fn add_slice(x: &mut SliceSummary, y: SliceSummary, s: &Settings) {
    x.n += y.n;
    x.units += y.units;
    x.groups += y.groups;
    for (k, c) in y.sizes {
        *x.sizes.entry(k).or_insert(0) += c;
    }
    add_vec(&mut x.weights, &y.weights);
    for (m, b) in y.metrics {
        match x.metrics.get_mut(&m) {
            None => {
                x.metrics.insert(m, b);
            }
            Some(a) => {
                let sign = if s.higher_is_better(&m) { 1.0 } else { -1.0 };
                add_metric(a, b, s.worst, sign)
            }
        }
    }
}

fn add_metric(a: &mut MetricSummary, b: MetricSummary, worst: usize, sign: f64) {
    a.sum_baseline += b.sum_baseline;
    a.sum_candidate += b.sum_candidate;
    a.sum_delta += b.sum_delta;
    a.sum_sq_delta += b.sum_sq_delta;
    for (k, [s, q]) in b.by_size {
        let cell = a.by_size.entry(k).or_insert([0, 0]);
        cell[0] += s;
        cell[1] += q;
    }
    for i in 0..3 {
        a.wtl[i] += b.wtl[i];
        a.practical_wtl[i] += b.practical_wtl[i];
    }
    a.moved_queries += b.moved_queries;
    a.moved_units += b.moved_units;
    a.nonzero_units += b.nonzero_units;
    a.unit_mean_range = match (a.unit_mean_range, b.unit_mean_range) {
        (Some([l1, h1]), Some([l2, h2])) => Some([l1.min(l2), h1.max(h2)]),
        (x, y) => x.or(y),
    };
    let mut all = std::mem::take(&mut a.worst);
    all.extend(b.worst);
    a.worst = super::keyed::keep_worst(all, worst, sign);
    add_vec(&mut a.sums, &b.sums);
    add_vec(&mut a.signed, &b.signed);
}

/// Every comparison of a summary: metric by metric (in `metrics` order), slice by slice (`all`
/// first, then by name).
pub fn comparisons(
    slices: &BTreeMap<String, SliceSummary>,
    metrics: &[String],
    has_groups: bool,
    s: &Settings,
) -> Vec<Comparison> {
    let mut order: Vec<&String> = slices.keys().filter(|n| *n != "all").collect();
    if slices.contains_key("all") {
        order.insert(0, slices.keys().find(|n| *n == "all").expect("present"));
    }
    let mut out = Vec::new();
    for metric in metrics {
        for name in &order {
            let slice = &slices[*name];
            if let Some(m) = slice.metrics.get(metric) {
                out.push(comparison((name, metric), slice, m, has_groups, s));
            }
        }
    }
    out
}

/// Each unit size repeated by its count, ascending.
fn sizes_list(sizes: &BTreeMap<u64, u64>) -> Vec<f64> {
    sizes
        .iter()
        .flat_map(|(&k, &c)| std::iter::repeat_n(k as f64, c as usize))
        .collect()
}

/// The standard error of the mean delta over units (`stats::power::se_mean` from moments):
/// √(G/(G−1) · Σ(S_g − m·N_g)²) / N, with Σ(S − mN)² = ΣS² − 2mΣS·N + m²ΣN².
fn se_mean(slice: &SliceSummary, m: &MetricSummary) -> f64 {
    let g = slice.units as f64;
    if slice.units < 2 {
        return 0.0;
    }
    let n = slice.n as f64;
    let mean = unfixed(m.sum_delta) / n;
    let (mut ss, mut sn, mut nn) = (0.0, 0.0, 0.0);
    for (&k, &[s, q]) in &m.by_size {
        let count = slice.sizes.get(&k).copied().unwrap_or(0) as f64;
        ss += unfixed_sq(q);
        sn += unfixed(s) * k as f64;
        nn += count * (k * k) as f64;
    }
    let dev = (ss - 2.0 * mean * sn + mean * mean * nn).max(0.0);
    (g / (g - 1.0) * dev).sqrt() / n
}

/// The one-way variance components of the deltas (`small_sample::variance_components` from
/// moments): (σ²_e, σ²_u), None with fewer than two groups or no query beyond one per group.
fn variance_components(slice: &SliceSummary, m: &MetricSummary) -> Option<(f64, f64)> {
    let (g, n) = (slice.units as f64, slice.n as f64);
    if slice.units < 2 || n <= g {
        return None;
    }
    let between_raw: f64 = m
        .by_size
        .iter()
        .map(|(&k, &[_, q])| unfixed_sq(q) / k as f64)
        .sum();
    let grand = unfixed(m.sum_delta) / n;
    let within = (unfixed_sq(m.sum_sq_delta) - between_raw).max(0.0);
    let between = (between_raw - n * grand * grand).max(0.0);
    let (msw, msb) = (within / (n - g), between / (g - 1.0));
    let k2: f64 = slice
        .sizes
        .iter()
        .map(|(&k, &c)| c as f64 * (k * k) as f64)
        .sum();
    let n0 = (n - k2 / n) / (g - 1.0);
    Some((msw, ((msb - msw) / n0).max(0.0)))
}

/// One metric on one slice, read from its sums.
fn comparison(
    (slice_name, metric): (&str, &str),
    slice: &SliceSummary,
    m: &MetricSummary,
    has_groups: bool,
    s: &Settings,
) -> Comparison {
    let n = slice.n as f64;
    let point = unfixed(m.sum_delta) / n;
    let (ci, mc_se) = keyed_interval(slice, m, point, s);
    let grouped = s.unit == Unit::Group;
    let sizes = sizes_list(&slice.sizes);
    let se = se_mean(slice, m);
    let df = if grouped { bm_df(&sizes) } else { n - 1.0 };
    let (checks, margin) = s.checks(metric, crate::config::Statistic::Mean, slice_name);
    let _ = checks;
    let higher_is_better = s.higher_is_better(metric);
    let [baseline_mean, candidate_mean] = [m.sum_baseline, m.sum_candidate].map(|x| unfixed(x) / n);
    Comparison {
        metric: metric.to_string(),
        slice: slice_name.to_string(),
        n: slice.n as usize,
        groups: has_groups.then_some(slice.groups as usize),
        effective_groups: grouped.then(|| {
            let (e, u) = variance_components(slice, m).unwrap_or((1.0, 0.0));
            correlated_groups(&sizes, e, u)
        }),
        baseline_mean,
        candidate_mean,
        delta: point,
        ci,
        wins: m.wtl[0] as usize,
        ties: m.wtl[1] as usize,
        losses: m.wtl[2] as usize,
        moved: m.moved_units as usize,
        untouched: m.moved_queries == 0,
        within_noise: None,
        value_range: 1.0,
        atom: None,
        statistic: "mean".into(),
        higher_is_better,
        baseline_value: baseline_mean,
        candidate_value: candidate_mean,
        estimate: point,
        ci_mc_se: mc_se,
        resamples_used: s.resamples,
        mc_rerun: false,
        p_value: p_value(m.sum_delta, &m.signed),
        p_floor: p_floor(m.nonzero_units as usize, s.resamples as usize),
        mde: mde(se, df, s.confidence, POWER),
        se,
        df,
        margin: margin.unwrap_or(s.practical_tie),
        label: None,
        practical_tie: s.practical_tie,
        practical_wins: m.practical_wtl[0] as usize,
        practical_ties: m.practical_wtl[1] as usize,
        practical_losses: m.practical_wtl[2] as usize,
        worst: m
            .worst
            .iter()
            .map(|w| Regression {
                query_id: w.query_id.clone(),
                baseline: w.baseline,
                candidate: w.candidate,
                delta: w.delta,
                moves: Vec::new(),
            })
            .collect(),
        judged: None,
        replicates: None,
        stacked_runs: None,
        statistic_in_name: false,
    }
}

/// The percentile interval of the resample means and its Monte-Carlo error; the point where
/// nothing moved or every unit moved alike (as `estimate`).
fn keyed_interval(
    slice: &SliceSummary,
    m: &MetricSummary,
    point: f64,
    s: &Settings,
) -> ([f64; 2], [f64; 2]) {
    let alike = m.unit_mean_range.is_none_or(|[lo, hi]| lo == hi);
    if m.moved_queries == 0 || alike {
        return ([point, point], [0.0, 0.0]);
    }
    let mut means: Vec<f64> = m
        .sums
        .iter()
        .zip(&slice.weights)
        .map(|(&x, &w)| {
            if w > 0 {
                unfixed(x.into()) / w as f64
            } else {
                point
            }
        })
        .collect();
    let iv = interval(
        &mut means,
        point,
        None,
        s.confidence,
        IntervalMethod::Percentile,
        0.0,
    );
    (iv.bounds, iv.mc_se)
}
