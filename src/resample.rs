//! Resample stage: for every metric × statistic × slice, the paired summary (means,
//! win/tie/loss at the float and the practical tie, worst regressions) and the estimate of the
//! statistic: interval, p-value, MDE and label (see `estimate`). A metric gated under several
//! statistics (mean and p95 of latency) gets one comparison per statistic. Each (metric, slice)
//! draws from its own streams derived from the seed and its names (see `stats::streams`), so
//! adding a slice never changes another's numbers; a metric's median and p95 read the same
//! draws, and its mean the slice's shared draws.

pub mod estimate;
pub mod keyed;
pub mod keyed_read;
pub mod range;
pub mod runs;

/// The most draws a run of quantile (median, p95) gates may cost: resamples × query-slice
/// memberships × (1 + the close-call re-run factor) × quantile-gated metrics, counted before
/// resampling (`check` refuses more). With windowed counts a quantile draw costs
/// ~0.8 ns on 2 cores (10^10 draws, 100,000 queries × 10^5 resamples: 7.7 s over the mean gate's
/// run, docs/speed.md), so the worst case is about 3 minutes there; without close calls a tenth.
pub const MAX_QUANTILE_DRAWS: u64 = 200_000_000_000;

use std::borrow::Cow;
use std::collections::HashMap;

pub use estimate::{BoundCheck, CLOSE_CALL_SE, RERUN_FACTOR};

use crate::config::{Config, Gate, Method, Statistic, Unit};
use crate::model::{Comparison, Regression};
use crate::pair::Paired;
use crate::slices::Slice;
use crate::stats::describe::{mean, win_tie_loss};

#[derive(Debug, Clone)]
pub struct Settings {
    pub resamples: u64,
    pub seed: u64,
    pub confidence: f64,
    pub unit: Unit,
    pub method: Method,
    pub tie_epsilon: f64,
    pub practical_tie: f64,
    pub worst: usize,
    /// The gates (for each metric's statistic and orientation, the thresholds the interval is
    /// judged against, and the label's margin), and the critical slice names they may refer to.
    pub gates: Vec<Gate>,
    pub critical: std::collections::BTreeSet<String>,
    /// Ungated metrics where lower is better (`compare --lower-is-better`).
    pub lower_is_better: Vec<String>,
    /// Both sides' replicate spread may carry the interval (an A/A test of main's own runs);
    /// false in `check` and `compare`, where only the baseline's noise is trusted.
    pub both_sides_trusted: bool,
    /// `[verdict] guarantee`: under distribution-free, each bound of a gated mean is also at
    /// least as far out as the Dirichlet bound (`stats::dirichlet_bound`).
    pub guarantee: crate::config::Guarantee,
    /// `compare`: every mean is read as gated for that bound (compare labels each one).
    pub bound_every_mean: bool,
    /// The whole-run shift of main's A/A runs by (metric, slice), from `[noise] file`: with one
    /// baseline run it enters each mean's interval (`stats::crossed::RunPart::from_aa`).
    pub aa_pools: std::collections::BTreeMap<(String, String), crate::stats::crossed::SideNoise>,
    /// Group unit, bootstrap-t: below this many effective groups a mean's interval is the
    /// small-sample cluster interval (`estimate::Input::few_groups_below`); 0 never. The gate
    /// file's `min-groups` under `on-small-slice = "judge"`, where such a mean is judged.
    pub few_groups_below: f64,
}

impl Settings {
    pub fn from_config(cfg: &Config) -> Settings {
        Settings {
            resamples: cfg.bootstrap.resamples,
            seed: cfg.bootstrap.seed,
            confidence: cfg.bootstrap.confidence,
            unit: cfg.bootstrap.unit,
            method: cfg.bootstrap.method,
            tie_epsilon: cfg.report.tie_epsilon,
            practical_tie: cfg.report.practical_tie,
            worst: cfg.report.worst,
            gates: cfg.gates.clone(),
            critical: cfg.slices.critical.iter().map(|(n, _)| n.clone()).collect(),
            lower_is_better: cfg.report.lower_is_better.clone(),
            both_sides_trusted: false,
            guarantee: cfg.verdict.guarantee,
            bound_every_mean: cfg.verdict.bound_every_mean,
            aa_pools: std::collections::BTreeMap::new(),
            few_groups_below: cfg.slices.few_groups_below(),
        }
    }

    /// The statistics the gates read on `metric`, each once, in order (mean, median, p95): each
    /// is its own comparison. An ungated metric is read as its mean.
    fn statistics(&self, metric: &str) -> Vec<Statistic> {
        let mut read: Vec<Statistic> = self
            .gates
            .iter()
            .filter(|g| g.metric == metric)
            .map(|g| g.statistic)
            .collect();
        read.sort_unstable();
        read.dedup();
        if read.is_empty() {
            read.push(Statistic::Mean);
        }
        read
    }

    /// The metric's orientation (validation makes every gate on it agree); an ungated metric is
    /// higher-is-better unless listed in `lower_is_better`.
    fn higher_is_better(&self, metric: &str) -> bool {
        self.gates
            .iter()
            .find(|g| g.metric == metric)
            .map_or(!self.lower_is_better.iter().any(|m| m == metric), |g| {
                g.higher_is_better
            })
    }

    /// The interval bounds the gates on (metric, statistic, slice) will compare with thresholds,
    /// and their smallest delta margin.
    fn checks(
        &self,
        metric: &str,
        statistic: Statistic,
        slice: &str,
    ) -> (Vec<BoundCheck>, Option<f64>) {
        let mut checks = Vec::new();
        let mut margin: Option<f64> = None;
        for g in self.gates.iter().filter(|g| {
            g.metric == metric && g.statistic == statistic && g.applies_to(slice, &self.critical)
        }) {
            // In raw coordinates: for lower-is-better the oriented low bound is −high.
            let (low, high, sign) = if g.higher_is_better {
                (0, 1, -1.0)
            } else {
                (1, 0, 1.0)
            };
            if let Some(m) = g.max_drop {
                checks.push(BoundCheck {
                    bound: low,
                    threshold: sign * m,
                });
            }
            if let Some(m) = g.fail_if_significant_drop {
                checks.push(BoundCheck {
                    bound: high,
                    threshold: sign * m,
                });
            }
            if let Some(m) = g.max_change {
                checks.push(BoundCheck {
                    bound: 0,
                    threshold: -m,
                });
                checks.push(BoundCheck {
                    bound: 1,
                    threshold: m,
                });
            }
            // The inherited-drift rule reads this change's own low bound at 0 (`max-drop` at
            // margin 0, `verdict::drift::not_adding`): a close call there is re-run, and under
            // distribution-free the bound reaches an unseen loss. Not a margin of the label.
            if g.max_drift.is_some() {
                checks.push(BoundCheck {
                    bound: low,
                    threshold: 0.0,
                });
            }
            for m in [g.max_drop, g.fail_if_significant_drop, g.max_change]
                .into_iter()
                .flatten()
            {
                margin = Some(margin.map_or(m, |x| x.min(m)));
            }
        }
        (checks, margin)
    }
}

/// One comparison per metric (given order) × statistic it is read as (`Settings::statistics`)
/// × slice (given order).
pub fn compare_all(
    paired: &Paired,
    slices: &[Slice],
    metrics: &[String],
    s: &Settings,
) -> Vec<Comparison> {
    let progress = crate::status::progress(
        "bootstrap (slices)",
        slices.len() as u64,
        crate::status::Unit::Steps,
    );
    let mut by_slice: Vec<std::vec::IntoIter<Comparison>> = slices
        .iter()
        .map(|slice| {
            let done = compare_slice(paired, slice, metrics, s).into_iter();
            progress.advance(1);
            done
        })
        .collect();
    let readings: usize = metrics.iter().map(|m| s.statistics(m).len()).sum();
    let mut out = Vec::with_capacity(readings * slices.len());
    for _ in 0..readings {
        for per_reading in &mut by_slice {
            out.extend(per_reading.next());
        }
    }
    out
}

/// A slice as the comparisons see it: its member indices and their dense local group ids.
struct SliceView<'a> {
    paired: &'a Paired,
    slice: &'a Slice,
    idx: Vec<usize>,
    /// Dense local group ids of the members and their number (None if a member has no group).
    local_groups: Option<(Vec<u32>, usize)>,
}

impl SliceView<'_> {
    /// The groups to resample: with unit = "group" and every member in a group. check()
    /// refuses unit = "group" when a query has no group; compare falls back to queries here.
    fn groups(&self, unit: Unit) -> Option<(&[u32], usize)> {
        match (unit, &self.local_groups) {
            (Unit::Group, Some((of, g))) => Some((of.as_slice(), *g)),
            _ => None,
        }
    }
}

/// A slice's values of one metric: the paired columns themselves for a slice of every query in
/// order (`all`), else copies of the members' values.
struct Sides<'a> {
    base: Cow<'a, [f64]>,
    cand: Cow<'a, [f64]>,
    deltas: Vec<f64>,
}

/// Each metric's values on the slice's members `idx`: the paired columns themselves when the
/// members are every query in order (`all`), else copies.
fn slice_sides<'p>(paired: &'p Paired, idx: &[usize], metrics: &[String]) -> Vec<Sides<'p>> {
    let whole = idx.len() == paired.ids.len() && idx.iter().enumerate().all(|(k, &i)| k == i);
    let pick = |col: &'p [f64]| -> Cow<'p, [f64]> {
        match whole {
            true => Cow::Borrowed(col),
            false => Cow::Owned(idx.iter().map(|&i| col[i]).collect()),
        }
    };
    metrics
        .iter()
        .map(|metric| {
            let pair = &paired.metrics[metric];
            let (base, cand) = (pick(&pair.baseline), pick(&pair.candidate));
            let deltas = cand.iter().zip(base.iter()).map(|(c, b)| c - b).collect();
            Sides { base, cand, deltas }
        })
        .collect()
}

/// Every (metric, statistic) comparison on one slice, metrics in the given order and each
/// metric's statistics in order; the mean readings share the slice's draws
/// (`estimate::mean_draws`), and a metric's median and p95 draw from the same streams.
fn compare_slice(
    paired: &Paired,
    slice: &Slice,
    metrics: &[String],
    s: &Settings,
) -> Vec<Comparison> {
    let idx: Vec<usize> = slice.members.iter().map(|&i| i as usize).collect();
    let sides = slice_sides(paired, &idx, metrics);
    let local_groups: Option<(Vec<u32>, usize)> = {
        let mut remap: HashMap<u32, u32> = HashMap::new();
        idx.iter()
            .map(|&i| {
                paired.group_of[i].map(|g| {
                    let next = remap.len() as u32;
                    *remap.entry(g).or_insert(next)
                })
            })
            .collect::<Option<Vec<u32>>>()
            .map(|v| (v, remap.len()))
    };
    let view = SliceView {
        paired,
        slice,
        idx,
        local_groups,
    };
    let readings: Vec<(&String, &Sides, Vec<Statistic>)> = metrics
        .iter()
        .zip(&sides)
        .map(|(m, v)| (m, v, s.statistics(m)))
        .collect();
    let mean_deltas: Vec<&[f64]> = readings
        .iter()
        .filter(|(_, _, stats)| stats.contains(&Statistic::Mean))
        .map(|(_, v, _)| v.deltas.as_slice())
        .collect();
    let mut shared = estimate::mean_draws(
        &mean_deltas,
        view.groups(s.unit),
        s.resamples as usize,
        s.seed,
        &slice.name,
        s.method.interval(),
    )
    .into_iter();
    let mut out = Vec::new();
    for (metric, v, stats) in &readings {
        for &statistic in stats {
            let draws = match statistic {
                Statistic::Mean => shared.next(),
                _ => None,
            };
            let runs = draws.as_ref().and_then(|_| {
                runs::slice_runs(paired, metric, &view.idx, s.both_sides_trusted)
                    .or_else(|| runs::aa_runs(paired, metric, &slice.name, &s.aa_pools))
            });
            let stacked = match statistic {
                Statistic::Mean => Vec::new(),
                _ => stacked_runs(paired, metric, &view.idx),
            };
            let reading = Reading {
                metric,
                statistic,
                named: stats.len() > 1,
                stacked: &stacked,
            };
            out.push(compare_one(&view, &reading, v, draws, runs.as_ref(), s));
        }
    }
    out
}

/// The candidate's runs of `metric` on the slice's members that a median or p95 stacks (the
/// pooled attempts kept in full, `pair::replicates::Replicates::stackable`); empty with one run.
fn stacked_runs(paired: &Paired, metric: &str, idx: &[usize]) -> Vec<Vec<f64>> {
    let Some(r) = paired.replicates.as_ref() else {
        return Vec::new();
    };
    let runs = r.stackable(metric);
    if runs.len() < 2 {
        return Vec::new();
    }
    runs.iter()
        .map(|run| idx.iter().map(|&i| run[i]).collect())
        .collect()
}

/// What one comparison reads: a metric as one statistic, whether the metric has several (then
/// reports name the statistic with it), and for a median or p95 on pooled attempts the
/// candidate's runs it stacks.
struct Reading<'a> {
    metric: &'a str,
    statistic: Statistic,
    named: bool,
    stacked: &'a [Vec<f64>],
}

/// One metric on one slice: win/tie/loss at the float and the practical tie, the estimate of
/// its statistic against the gates that apply here, and the worst regressions.
fn compare_one(
    view: &SliceView<'_>,
    reading: &Reading<'_>,
    v: &Sides<'_>,
    draws: Option<estimate::MeanDraws>,
    runs: Option<&crate::stats::crossed::RunPart>,
    s: &Settings,
) -> Comparison {
    let (base, cand, deltas): (&[f64], &[f64], &[f64]) = (&v.base, &v.cand, &v.deltas);
    let (metric, statistic) = (reading.metric, reading.statistic);
    let higher_is_better = s.higher_is_better(metric);
    let oriented = oriented(deltas, higher_is_better);
    let wtl = win_tie_loss(&oriented, s.tie_epsilon);
    let practical = win_tie_loss(&oriented, s.practical_tie.max(s.tie_epsilon));
    let (checks, gate_margin) = s.checks(metric, statistic, &view.slice.name);
    let mut input = estimate_input(view, metric, v, statistic, s);
    input.cand_runs = reading.stacked;
    let mut e = estimate::estimate_crossed(&input, &checks, draws, runs);
    let untouched = deltas.iter().all(|d| d.abs() <= s.tie_epsilon);
    // Under the distribution-free guarantee the bound holds where nothing moved too: zero moves
    // among n units leave an unseen drop the bound reaches (anything not proven fails).
    let free = s.guarantee == crate::config::Guarantee::DistributionFree;
    let gated = !checks.is_empty() || s.bound_every_mean;
    if (!untouched || free) && gated && statistic == Statistic::Mean {
        distribution_free(&mut e.interval, view, metric, deltas, s);
    }
    Comparison {
        metric: metric.to_string(),
        slice: view.slice.name.clone(),
        n: view.idx.len(),
        groups: view
            .local_groups
            .as_ref()
            .map(|(_, g)| *g)
            .filter(|_| !view.paired.group_names.is_empty()),
        effective_groups: e.effective_groups,
        baseline_mean: mean(base),
        candidate_mean: mean(cand),
        delta: mean(deltas),
        ci: e.interval.bounds,
        wins: wtl.wins,
        ties: wtl.ties,
        losses: wtl.losses,
        moved: moved_units(&oriented, view.groups(s.unit), s.tie_epsilon),
        untouched,
        within_noise: None,
        value_range: value_range(metric, base, cand),
        atom: statistic
            .level()
            .map(|p| atom_at([base, &stacked_or(reading, cand)], p, s.tie_epsilon)),
        statistic: statistic.as_str().into(),
        higher_is_better,
        baseline_value: e.sides[0],
        candidate_value: e.sides[1],
        estimate: e.estimate,
        ci_mc_se: e.interval.mc_se,
        resamples_used: e.resamples_used as u64,
        mc_rerun: e.rerun,
        p_value: e.p_value,
        p_floor: e.p_floor,
        mde: e.mde,
        se: e.se,
        df: e.df,
        margin: gate_margin.unwrap_or(s.practical_tie),
        label: None,
        practical_tie: s.practical_tie,
        practical_wins: practical.wins,
        practical_ties: practical.ties,
        practical_losses: practical.losses,
        worst: worst_regressions(view, metric, &oriented, deltas, higher_is_better, s),
        judged: None,
        replicates: replicate_info(runs, e.crossed),
        stacked_runs: (reading.stacked.len() > 1).then_some(reading.stacked.len()),
        statistic_in_name: reading.named,
    }
}

/// Under `guarantee = "distribution-free"`, each bound of a gated mean at least as far out as
/// the Dirichlet bound with the unseen unit at the worst loss (`config::worst_unit_loss`); a
/// side it decides has no Monte-Carlo error recorded (its draws are never re-run). The units
/// are the query deltas, or with the group unit the group sums and sizes. Streams:
/// `dirichlet` with the metric and slice names.
fn distribution_free(
    iv: &mut crate::stats::interval::Interval,
    view: &SliceView<'_>,
    metric: &str,
    deltas: &[f64],
    s: &Settings,
) {
    if s.guarantee != crate::config::Guarantee::DistributionFree {
        return;
    }
    let Some(worst) = crate::config::worst_unit_loss(&s.gates, metric) else {
        return;
    };
    let (values, sizes) = match view.groups(s.unit) {
        Some((of, g)) => {
            let (sums, sizes) = crate::stats::bootstrap::group_sums(deltas, of, g);
            (sums, Some(sizes))
        }
        None => (deltas.to_vec(), None),
    };
    let key = crate::stats::streams::stream_key(s.seed, &["dirichlet", metric, &view.slice.name]);
    let Some(b) = crate::stats::dirichlet_bound::bounds(
        &values,
        sizes.as_deref(),
        worst,
        s.confidence,
        s.resamples as usize,
        key,
    ) else {
        return;
    };
    if b[0] < iv.bounds[0] {
        iv.bounds[0] = b[0];
        iv.mc_se[0] = 0.0;
    }
    if b[1] > iv.bounds[1] {
        iv.bounds[1] = b[1];
        iv.mc_se[1] = 0.0;
    }
}

/// The candidate's values a quantile reads: every stacked run's, else `cand`.
fn stacked_or(reading: &Reading<'_>, cand: &[f64]) -> Vec<f64> {
    match reading.stacked.is_empty() {
        true => cand.to_vec(),
        false => reading.stacked.iter().flatten().copied().collect(),
    }
}

/// Each side's type 7 `p`-quantile and the share of its values within `epsilon` of it.
fn atom_at(sides: [&[f64]; 2], p: f64, epsilon: f64) -> crate::model::Atom {
    let at = |x: &[f64]| {
        let mut sorted = x.to_vec();
        sorted.sort_by(f64::total_cmp);
        let q = crate::stats::quantile::quantile_sorted(&sorted, p);
        let equal = sorted.iter().filter(|&&v| (v - q).abs() <= epsilon).count();
        (q, equal as f64 / sorted.len().max(1) as f64)
    };
    let (b, c) = (at(sides[0]), at(sides[1]));
    crate::model::Atom {
        values: [b.0, c.0],
        shares: [b.1, c.1],
    }
}

/// The largest change one query's value can make (`Comparison::value_range`): 1 for a metric
/// bounded to [0, 1], else the observed range of both sides' values.
pub fn value_range(metric: &str, base: &[f64], cand: &[f64]) -> f64 {
    if crate::metric_names::is_bounded(&crate::metric_names::canonical(metric)) {
        return 1.0;
    }
    let (lo, hi) = base
        .iter()
        .chain(cand)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    (hi - lo).max(0.0)
}

/// The units that moved (`Comparison::moved`): queries with |delta| > ε, or the groups holding
/// one.
fn moved_units(deltas: &[f64], groups: Option<(&[u32], usize)>, epsilon: f64) -> usize {
    let moved = deltas.iter().map(|d| d.abs() > epsilon);
    match groups {
        None => moved.filter(|&m| m).count(),
        Some((of, g)) => {
            let mut any = vec![false; g];
            for (&k, m) in of.iter().zip(moved) {
                any[k as usize] |= m;
            }
            any.into_iter().filter(|&m| m).count()
        }
    }
}

/// Wins are improvements: for a lower-is-better metric, the negated deltas.
fn oriented(deltas: &[f64], higher_is_better: bool) -> Cow<'_, [f64]> {
    if higher_is_better {
        Cow::Borrowed(deltas)
    } else {
        Cow::Owned(deltas.iter().map(|d| -d).collect())
    }
}

/// What one estimate reads: the slice's values of `metric`, its groups under the unit, and the
/// sampling settings.
fn estimate_input<'a>(
    view: &'a SliceView<'_>,
    metric: &'a str,
    v: &'a Sides<'a>,
    statistic: Statistic,
    s: &Settings,
) -> estimate::Input<'a> {
    estimate::Input {
        base: &v.base,
        cand: &v.cand,
        deltas: &v.deltas,
        groups: view.groups(s.unit),
        statistic,
        method: s.method.interval(),
        confidence: s.confidence,
        resamples: s.resamples as usize,
        seed: s.seed,
        names: [metric, &view.slice.name],
        tie_epsilon: s.tie_epsilon,
        cand_runs: &[],
        few_groups_below: s.few_groups_below,
    }
}

/// The queries whose oriented delta is a loss beyond `tie_epsilon`, worst first (ties by query
/// id), at most `keep`.
fn worst_regressions(
    view: &SliceView<'_>,
    metric: &str,
    oriented: &[f64],
    deltas: &[f64],
    higher_is_better: bool,
    s: &Settings,
) -> Vec<Regression> {
    let (keep, tie_epsilon) = (s.worst, s.tie_epsilon);
    let pair = &view.paired.metrics[metric];
    let ids = &view.paired.ids;
    // (query index, delta) of every loss; a slice's queries are distinct, so (delta, id) orders
    // them without ties, and the `keep` first after a selection and a sort of those are the
    // `keep` first of a full sort, with no query id copied but theirs.
    let mut worst: Vec<(usize, f64)> = view
        .idx
        .iter()
        .zip(deltas)
        .zip(oriented)
        .filter(|(_, &o)| o < -tie_epsilon)
        .map(|((&i, &d), _)| (i, d))
        .collect();
    let sign = if higher_is_better { 1.0 } else { -1.0 };
    let order = |a: &(usize, f64), b: &(usize, f64)| {
        (sign * a.1)
            .total_cmp(&(sign * b.1))
            .then_with(|| ids[a.0].cmp(&ids[b.0]))
    };
    if keep < worst.len() {
        if keep > 0 {
            worst.select_nth_unstable_by(keep - 1, order);
        }
        worst.truncate(keep);
    }
    worst.sort_unstable_by(order);
    worst
        .into_iter()
        .map(|(i, d)| Regression {
            query_id: ids[i].to_string(),
            baseline: pair.baseline[i],
            candidate: pair.candidate[i],
            delta: d,
            moves: Vec::new(),
        })
        .collect()
}

/// With replicate runs: each side's run count and the crossed interval's correction.
fn replicate_info(
    runs: Option<&crate::stats::crossed::RunPart>,
    crossed: Option<crate::stats::crossed::Correction>,
) -> Option<crate::model::ReplicateInfo> {
    runs.zip(crossed).map(|(r, c)| crate::model::ReplicateInfo {
        baseline_runs: r.replicates[0],
        candidate_runs: r.replicates[1],
        df: c.df.min(1e9),
        t_stretch: c.stretch,
        run_se: r.var.sqrt(),
        aa_runs: r.aa_runs,
    })
}
