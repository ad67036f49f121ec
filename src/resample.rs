//! Resample stage: for every metric × slice, the paired summary (means, win/tie/loss, worst
//! regressions) and the bootstrap interval of the mean delta. Each (metric, slice) draws from its
//! own stream derived from the seed and its names (see `stats::streams`).

use std::collections::HashMap;

use crate::config::Unit;
use crate::pair::Paired;
use crate::report::{Comparison, Regression};
use crate::slices::Slice;
use crate::stats::bootstrap::{bootstrap_means, group_sums, Units};
use crate::stats::describe::{mean, win_tie_loss};
use crate::stats::quantile::percentile_interval;
use crate::stats::streams::stream_key;

#[derive(Debug, Clone, Copy)]
pub struct Settings {
    pub resamples: u64,
    pub seed: u64,
    pub confidence: f64,
    pub unit: Unit,
    pub tie_epsilon: f64,
    pub worst: usize,
}

/// One comparison per metric (name order) × slice (given order).
pub fn compare_all(
    paired: &Paired,
    slices: &[Slice],
    metrics: &[String],
    s: &Settings,
) -> Vec<Comparison> {
    let mut out = Vec::with_capacity(metrics.len() * slices.len());
    for metric in metrics {
        for slice in slices {
            out.push(compare_one(paired, metric, slice, s));
        }
    }
    out
}

pub fn compare_one(paired: &Paired, metric: &str, slice: &Slice, s: &Settings) -> Comparison {
    let pair = &paired.metrics[metric];
    let idx: Vec<usize> = slice.members.iter().map(|&i| i as usize).collect();
    let base: Vec<f64> = idx.iter().map(|&i| pair.baseline[i]).collect();
    let cand: Vec<f64> = idx.iter().map(|&i| pair.candidate[i]).collect();
    let deltas: Vec<f64> = cand.iter().zip(&base).map(|(c, b)| c - b).collect();
    let wtl = win_tie_loss(&deltas, s.tie_epsilon);

    // Dense local group ids for this slice's members (None if any member has no group).
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

    let key = stream_key(s.seed, &["bootstrap", metric, &slice.name]);
    let mut stats = match (s.unit, &local_groups) {
        (Unit::Group, Some((of, g))) => {
            let (sums, sizes) = group_sums(&deltas, of, *g);
            bootstrap_means(
                Units::Groups {
                    sums: &sums,
                    sizes: &sizes,
                },
                s.resamples as usize,
                key,
            )
        }
        // check() refuses unit = "group" when a query has no group; compare falls back here.
        _ => bootstrap_means(Units::Queries(&deltas), s.resamples as usize, key),
    };
    let ci = percentile_interval(&mut stats, s.confidence);

    let mut worst: Vec<Regression> = idx
        .iter()
        .zip(&deltas)
        .filter(|(_, &d)| d < -s.tie_epsilon)
        .map(|(&i, &d)| Regression {
            query_id: paired.ids[i].clone(),
            baseline: pair.baseline[i],
            candidate: pair.candidate[i],
            delta: d,
        })
        .collect();
    worst.sort_by(|a, b| {
        a.delta
            .total_cmp(&b.delta)
            .then_with(|| a.query_id.cmp(&b.query_id))
    });
    worst.truncate(s.worst);

    Comparison {
        metric: metric.to_string(),
        slice: slice.name.clone(),
        n: idx.len(),
        groups: local_groups
            .map(|(_, g)| g)
            .filter(|_| !paired.group_names.is_empty()),
        baseline_mean: mean(&base),
        candidate_mean: mean(&cand),
        delta: mean(&deltas),
        ci,
        wins: wtl.wins,
        ties: wtl.ties,
        losses: wtl.losses,
        worst,
    }
}
