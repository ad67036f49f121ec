//! Simulated judged data sets for the prediction-powered interval (`stats::ppi`): a paired
//! per-query delta whose true mean is known, a judge whose deltas are compressed, noisy and
//! biased towards the candidate (it over-rates the candidate's documents), and a random share of
//! queries (or of whole groups) with human labels. Used by `examples/calibration_ppi.rs`.

use rag_gate::stats::ppi::{classical, mean_interval, mean_interval_small_sample, Lambda, Units};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The true human mean delta (a small regression).
pub const TRUE_DELTA: f64 = -0.02;
/// The judge's side bias: its delta is this much more favourable to the candidate.
pub const JUDGE_BIAS: f64 = 0.03;

/// One cell: how many queries, in groups of `group_size` (1 = query unit), and the labelled
/// share of units.
#[derive(Debug, Clone, Copy)]
pub struct Cell {
    pub queries: usize,
    pub group_size: usize,
    pub labelled_share: f64,
}

/// Coverage counts of the three intervals over the sets of a cell.
#[derive(Debug, Clone, Copy, Default)]
pub struct Coverage {
    pub sets: usize,
    /// The gates' interval (small-sample corrected) and the analytic (ppi-python) one.
    pub corrected: usize,
    pub analytic: usize,
    pub judge_only: usize,
    pub human_only: usize,
    /// Sum of the corrected and human-only interval widths (for the mean widths).
    pub corrected_width: f64,
    pub human_width: f64,
    pub lambda: f64,
}

impl Coverage {
    pub fn rate(&self, hits: usize) -> f64 {
        hits as f64 / self.sets as f64
    }
    /// Binomial Monte-Carlo standard error of a rate.
    pub fn mc_se(&self, rate: f64) -> f64 {
        (rate * (1.0 - rate) / self.sets as f64).sqrt()
    }
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// One data set: human and judge delta per query, and each query's group.
fn draw(cell: Cell, rng: &mut ChaCha8Rng) -> (Vec<f64>, Vec<f64>, Vec<usize>) {
    let mut human = Vec::with_capacity(cell.queries);
    let mut judge = Vec::with_capacity(cell.queries);
    let mut groups = Vec::with_capacity(cell.queries);
    let mut effect = 0.0;
    for i in 0..cell.queries {
        let g = i / cell.group_size;
        if i % cell.group_size == 0 {
            // A conversation shares an effect (zero mean) when queries come in groups.
            effect = if cell.group_size > 1 {
                0.1 * normal(rng)
            } else {
                0.0
            };
        }
        // A skewed, tie-heavy delta: most queries unchanged, some move a lot.
        let moved = rng.random::<f64>() < 0.4;
        let d = TRUE_DELTA + effect + if moved { 0.25 * normal(rng) } else { 0.0 };
        // The judge: compressed, noisy, and generous to the candidate.
        let j = 0.7 * d + JUDGE_BIAS + 0.08 * normal(rng);
        human.push(d);
        judge.push(j);
        groups.push(g);
    }
    (human, judge, groups)
}

/// Runs `sets` data sets of a cell and counts how often each interval covers the true delta.
pub fn run(cell: Cell, sets: usize, seed: u64) -> Coverage {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cov = Coverage {
        sets,
        ..Default::default()
    };
    let units = cell.queries / cell.group_size;
    let labelled_units = ((units as f64) * cell.labelled_share).round() as usize;
    for _ in 0..sets {
        let (human, judge, groups) = draw(cell, &mut rng);
        // A random set of units gets human labels (a partial Fisher–Yates shuffle).
        let mut order: Vec<usize> = (0..units).collect();
        for i in 0..labelled_units {
            let j = rng.random_range(i..units);
            order.swap(i, j);
        }
        let mut is_labelled = vec![false; units];
        for &u in &order[..labelled_units] {
            is_labelled[u] = true;
        }
        let (mut y, mut yh, mut gl, mut u, mut gu) = (vec![], vec![], vec![], vec![], vec![]);
        for i in 0..cell.queries {
            if is_labelled[groups[i]] {
                y.push(human[i]);
                yh.push(judge[i]);
                gl.push(groups[i]);
            } else {
                u.push(judge[i]);
                gu.push(groups[i]);
            }
        }
        let units = Units {
            human: &y,
            judge_labelled: &yh,
            judge_unlabelled: &u,
            groups: (cell.group_size > 1).then_some((gl.as_slice(), gu.as_slice())),
        };
        let e = mean_interval_small_sample(&units, Lambda::Tuned, 0.95).expect("enough units");
        let a = mean_interval(&units, Lambda::Tuned, 0.95).expect("enough units");
        let covers = |lo: f64, hi: f64| (lo..=hi).contains(&TRUE_DELTA);
        cov.corrected += usize::from(covers(e.low, e.high));
        cov.corrected_width += e.high - e.low;
        cov.analytic += usize::from(covers(a.low, a.high));
        cov.lambda += e.lambda;
        let grouped = cell.group_size > 1;
        let (_, jl, jh, _) =
            classical(&judge, grouped.then_some(&groups[..]), 0.95).expect("enough units");
        cov.judge_only += usize::from(covers(jl, jh));
        let (_, hl, hh, _) = classical(&y, grouped.then_some(&gl[..]), 0.95).expect("enough units");
        cov.human_only += usize::from(covers(hl, hh));
        cov.human_width += hh - hl;
    }
    cov
}

/// Coverage of the actively sampled corrected interval (`stats::active_ppi`) over the sets of a
/// cell, as `label-plan --active` draws it: half the labelled share as a uniform random pilot,
/// the other half (in expectation) as an independent Poisson sample with probabilities mixing
/// the uniform design and the judge's |delta| (summed over a group's queries), every labelled
/// unit weighted by its combined inclusion probability.
#[derive(Debug, Clone, Copy, Default)]
pub struct ActiveCoverage {
    pub sets: usize,
    pub covered: usize,
    pub width: f64,
    pub labelled: f64,
    pub lambda: f64,
}

/// The labelled units' (combined) inclusion probabilities of one set, `None` where unlabelled.
fn active_draw(
    judge: &[f64],
    groups: &[usize],
    units: usize,
    share: f64,
    rng: &mut ChaCha8Rng,
) -> Vec<Option<f64>> {
    let pilot = ((units as f64) * share / 2.0).round() as usize;
    let mut order: Vec<usize> = (0..units).collect();
    for i in 0..pilot {
        let j = rng.random_range(i..units);
        order.swap(i, j);
    }
    let p1 = pilot as f64 / units as f64;
    let mut in_pilot = vec![false; units];
    for &u in &order[..pilot] {
        in_pilot[u] = true;
    }
    let mut uncertainty = vec![0.0; units];
    for (j, &g) in judge.iter().zip(groups) {
        uncertainty[g] += j.abs();
    }
    // The later sample's budget over every unit, so that its expected new units are the other half.
    let budget = (units as f64 * share - pilot as f64) / (1.0 - p1);
    let p2 = rag_gate::stats::active_ppi::probabilities(&uncertainty, &vec![true; units], budget)
        .expect("a budget below the units");
    (0..units)
        .map(|u| {
            let drawn = in_pilot[u] || rng.random::<f64>() < p2[u];
            drawn.then(|| rag_gate::stats::active_ppi::combined(p1, p2[u]))
        })
        .collect()
}

/// Runs `sets` data sets of a cell under the active design and counts how often the active
/// corrected interval covers the true delta.
pub fn run_active(cell: Cell, sets: usize, seed: u64) -> ActiveCoverage {
    use rag_gate::stats::active_ppi::{mean_interval as active, ActiveUnits};
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cov = ActiveCoverage {
        sets,
        ..Default::default()
    };
    let units = cell.queries / cell.group_size;
    let grouped = cell.group_size > 1;
    for _ in 0..sets {
        let (human, judge, groups) = draw(cell, &mut rng);
        let drawn = active_draw(&judge, &groups, units, cell.labelled_share, &mut rng);
        let (mut y, mut yh, mut pr, mut gl, mut u, mut gu) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        for i in 0..cell.queries {
            match drawn[groups[i]] {
                Some(p) => {
                    y.push(human[i]);
                    yh.push(judge[i]);
                    pr.push(p);
                    gl.push(groups[i]);
                }
                None => {
                    u.push(judge[i]);
                    gu.push(groups[i]);
                }
            }
        }
        let a = ActiveUnits {
            human: &y,
            judge_labelled: &yh,
            probability: &pr,
            judge_unlabelled: &u,
            groups: grouped.then_some((gl.as_slice(), gu.as_slice())),
        };
        let e = active(&a, Lambda::Tuned, 0.95).expect("enough units");
        cov.covered += usize::from((e.low..=e.high).contains(&TRUE_DELTA));
        cov.width += e.high - e.low;
        cov.labelled += e.labelled as f64;
        cov.lambda += e.lambda;
    }
    cov
}
