//! The keyed path of the resample stage: a slice's summary (`model::summary`) from the paired
//! queries, the sum of two summaries, and the comparisons read from a summary. `check` with
//! `[bootstrap] weights = "keyed"` summarises the whole data and reads it; `partial` summarises a
//! shard and `merge` adds the shards' summaries first. Every sum is an integer (`stats::keyed`),
//! so the comparisons read from merged shards are those of the whole data, bit for bit.
//!
//! Streams: each unit's weights and signs from `stats::keyed` (the unit's id: the query id, or
//! with the group unit the group's name); every slice and metric reads the same draws of a unit.

use std::collections::{BTreeMap, HashMap};

use rayon::prelude::*;

use super::Settings;
use crate::config::Unit;
use crate::model::summary::{MetricSummary, SliceSummary, WorstQuery};
use crate::pair::Paired;
use crate::slices::Slice;
use crate::stats::keyed::{add_signed, add_weighted, fixed, unit_hash, Draws, Keys};

/// One unit's part of one slice: its size there and its grid delta sum per metric.
struct Part {
    slice: usize,
    size: i64,
    sums: Vec<i64>,
}

/// The resample sums of every slice: per slice Σw·size, per slice × metric Σw·x and Σs·x.
#[derive(Clone)]
struct Acc {
    weights: Vec<Vec<i64>>,
    sums: Vec<Vec<i64>>,
    signed: Vec<Vec<i64>>,
}

impl Acc {
    fn new(slices: usize, metrics: usize, b: usize) -> Acc {
        Acc {
            weights: vec![vec![0; b]; slices],
            sums: vec![vec![0; b]; slices * metrics],
            signed: vec![vec![0; b]; slices * metrics],
        }
    }

    fn add(mut self, other: Acc) -> Acc {
        for (a, b) in [
            (&mut self.weights, other.weights),
            (&mut self.sums, other.sums),
            (&mut self.signed, other.signed),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                x.iter_mut().zip(y).for_each(|(x, y)| *x += y);
            }
        }
        self
    }
}

/// Each query's grid values of each metric: (baseline, candidate, delta).
fn grid(paired: &Paired, metrics: &[String]) -> Vec<Vec<(i64, i64, i64)>> {
    metrics
        .iter()
        .map(|m| {
            let p = &paired.metrics[m];
            p.baseline
                .iter()
                .zip(&p.candidate)
                .map(|(&b, &c)| {
                    let (b, c) = (fixed(b), fixed(c));
                    (b, c, c - b)
                })
                .collect()
        })
        .collect()
}

/// The units (their ids' hashes, in a fixed order) and each one's parts in the slices.
fn units(
    paired: &Paired,
    slices: &[Slice],
    grid: &[Vec<(i64, i64, i64)>],
    unit: Unit,
) -> (Vec<u64>, Vec<Vec<Part>>) {
    let by_group = unit == Unit::Group;
    let count = if by_group {
        paired.group_names.len()
    } else {
        paired.ids.len()
    };
    let mut parts: Vec<Vec<Part>> = (0..count).map(|_| Vec::new()).collect();
    for (si, slice) in slices.iter().enumerate() {
        let mut at: HashMap<usize, usize> = HashMap::new();
        for &q in &slice.members {
            let q = q as usize;
            let u = match by_group {
                true => {
                    paired.group_of[q].expect("the group unit has every query in a group") as usize
                }
                false => q,
            };
            let list = &mut parts[u];
            let k = *at.entry(u).or_insert_with(|| {
                list.push(Part {
                    slice: si,
                    size: 0,
                    sums: vec![0; grid.len()],
                });
                list.len() - 1
            });
            let part = &mut list[k];
            part.size += 1;
            for (s, col) in part.sums.iter_mut().zip(grid) {
                *s += col[q].2;
            }
        }
    }
    let hashes = (0..count)
        .map(|u| match by_group {
            true => unit_hash(&paired.group_names[u]),
            false => unit_hash(&paired.ids[u]),
        })
        .collect();
    (hashes, parts)
}

/// The resample sums over every unit, in integers (threads each take a run of units).
fn resample_sums(
    hashes: &[u64],
    parts: &[Vec<Part>],
    (slices, metrics): (usize, usize),
    s: &Settings,
) -> Acc {
    let b = s.resamples as usize;
    let keys = Keys::new(s.seed);
    let runs = rayon::current_num_threads().max(1);
    let per = hashes.len().div_ceil(runs).max(1);
    (0..runs)
        .into_par_iter()
        .map(|r| {
            let mut acc = Acc::new(slices, metrics, b);
            let mut d = Draws::new(b);
            let end = ((r + 1) * per).min(hashes.len());
            for u in (r * per).min(end)..end {
                if parts[u].is_empty() {
                    continue;
                }
                d.draw(&keys, hashes[u]);
                for p in &parts[u] {
                    add_weighted(&mut acc.weights[p.slice], &d.weights, p.size);
                    for (m, &x) in p.sums.iter().enumerate() {
                        add_weighted(&mut acc.sums[p.slice * metrics + m], &d.weights, x);
                        add_signed(&mut acc.signed[p.slice * metrics + m], &d.signs, x);
                    }
                }
            }
            acc
        })
        .reduce(|| Acc::new(slices, metrics, b), Acc::add)
}

/// Every slice's summary of `metrics` under the settings' seed, resamples and unit.
pub fn summarize(
    paired: &Paired,
    slices: &[Slice],
    metrics: &[String],
    s: &Settings,
) -> BTreeMap<String, SliceSummary> {
    let grid = grid(paired, metrics);
    let (hashes, parts) = units(paired, slices, &grid, s.unit);
    let acc = resample_sums(&hashes, &parts, (slices.len(), metrics.len()), s);
    let mut acc = acc;
    slices
        .iter()
        .enumerate()
        .map(|(si, slice)| {
            let mut mine: Vec<&Part> = parts.iter().flatten().filter(|p| p.slice == si).collect();
            mine.sort_by_key(|p| p.size);
            let mut sizes = BTreeMap::new();
            for p in &mine {
                *sizes.entry(p.size as u64).or_insert(0) += 1;
            }
            let groups = distinct_groups(paired, slice);
            let by_metric = metrics
                .iter()
                .enumerate()
                .map(|(m, name)| {
                    let k = si * metrics.len() + m;
                    let sums = std::mem::take(&mut acc.sums[k]);
                    let signed = std::mem::take(&mut acc.signed[k]);
                    let ms = metric_summary(
                        paired,
                        slice,
                        (name, m),
                        (&grid[m], &mine),
                        s,
                        [sums, signed],
                    );
                    (name.clone(), ms)
                })
                .collect();
            let summary = SliceSummary {
                n: slice.members.len() as u64,
                units: mine.len() as u64,
                groups,
                sizes,
                weights: std::mem::take(&mut acc.weights[si]),
                metrics: by_metric,
            };
            (slice.name.clone(), summary)
        })
        .collect()
}

/// Distinct groups among a slice's queries.
fn distinct_groups(paired: &Paired, slice: &Slice) -> u64 {
    let mut seen: Vec<u32> = slice
        .members
        .iter()
        .filter_map(|&q| paired.group_of[q as usize])
        .collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len() as u64
}

/// One metric's observed sums, counts and worst regressions on a slice, with its resample sums.
fn metric_summary(
    paired: &Paired,
    slice: &Slice,
    (name, m): (&str, usize),
    (grid, parts): (&[(i64, i64, i64)], &[&Part]),
    s: &Settings,
    [sums, signed]: [Vec<i64>; 2],
) -> MetricSummary {
    let pair = &paired.metrics[name];
    let sign = if s.higher_is_better(name) { 1.0 } else { -1.0 };
    let (mut out, mut worst) = (empty_metric(sums, signed), Vec::new());
    let practical = s.practical_tie.max(s.tie_epsilon);
    for &q in &slice.members {
        let q = q as usize;
        let (b, c, d) = grid[q];
        out.sum_baseline += i128::from(b);
        out.sum_candidate += i128::from(c);
        out.sum_delta += i128::from(d);
        out.sum_sq_delta += i128::from(d) * i128::from(d);
        let raw = pair.candidate[q] - pair.baseline[q];
        let o = sign * raw;
        out.wtl[wtl_index(o, s.tie_epsilon)] += 1;
        out.practical_wtl[wtl_index(o, practical)] += 1;
        if raw.abs() > s.tie_epsilon {
            out.moved_queries += 1;
        }
        if o < -s.tie_epsilon {
            worst.push(WorstQuery {
                query_id: paired.ids[q].to_string(),
                baseline: pair.baseline[q],
                candidate: pair.candidate[q],
                delta: raw,
            });
        }
    }
    out.moved_units = moved_units(paired, slice, name, s);
    for p in parts {
        let x = p.sums[m];
        let cell = out.by_size.entry(p.size as u64).or_insert([0, 0]);
        cell[0] += i128::from(x);
        cell[1] += i128::from(x) * i128::from(x);
        out.nonzero_units += u64::from(x != 0);
        let mean = crate::stats::keyed::unfixed(x.into()) / p.size as f64;
        out.unit_mean_range = Some(match out.unit_mean_range {
            None => [mean, mean],
            Some([lo, hi]) => [lo.min(mean), hi.max(mean)],
        });
    }
    out.worst = keep_worst(worst, s.worst, sign);
    out
}

fn empty_metric(sums: Vec<i64>, signed: Vec<i64>) -> MetricSummary {
    MetricSummary {
        sum_baseline: 0,
        sum_candidate: 0,
        sum_delta: 0,
        sum_sq_delta: 0,
        by_size: BTreeMap::new(),
        wtl: [0; 3],
        practical_wtl: [0; 3],
        moved_queries: 0,
        moved_units: 0,
        nonzero_units: 0,
        unit_mean_range: None,
        worst: Vec::new(),
        sums,
        signed,
    }
}

/// 0 win, 1 tie, 2 loss of an oriented delta at `epsilon` (`stats::describe::win_tie_loss`).
fn wtl_index(o: f64, epsilon: f64) -> usize {
    if o > epsilon {
        0
    } else if o < -epsilon {
        2
    } else {
        1
    }
}

/// The units holding a query whose |delta| is beyond tie-epsilon.
fn moved_units(paired: &Paired, slice: &Slice, metric: &str, s: &Settings) -> u64 {
    let pair = &paired.metrics[metric];
    let moved = |q: usize| (pair.candidate[q] - pair.baseline[q]).abs() > s.tie_epsilon;
    match s.unit {
        Unit::Query => slice.members.iter().filter(|&&q| moved(q as usize)).count() as u64,
        Unit::Group => {
            let mut g: Vec<u32> = slice
                .members
                .iter()
                .filter(|&&q| moved(q as usize))
                .filter_map(|&q| paired.group_of[q as usize])
                .collect();
            g.sort_unstable();
            g.dedup();
            g.len() as u64
        }
    }
}

/// The `keep` worst of `worst` (oriented delta ascending, then query id).
pub fn keep_worst(mut worst: Vec<WorstQuery>, keep: usize, sign: f64) -> Vec<WorstQuery> {
    worst.sort_by(|a, b| {
        (sign * a.delta)
            .total_cmp(&(sign * b.delta))
            .then_with(|| a.query_id.cmp(&b.query_id))
    });
    worst.truncate(keep);
    worst
}
