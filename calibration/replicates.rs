//! Simulated replicate runs for the replicate-aware calibration (`cargo run --release --example
//! calibration_replicates`). Every set goes through `resample::estimate::estimate_crossed` with
//! the run part of `stats::crossed`, the code path of the report.
//!
//! Model (an ANN index that never gives the same answer twice): n queries with difficulty
//! qᵢ ~ U(0.2, 0.9) shared by both sides; a share `FLAKY` of the queries jitter from run to run,
//! eᵢᵣ ~ N(0, JITTER²), the others are stable; every run r adds a whole-run shift bᵣ ~ N(0, SHIFT²)
//! to every query (one index build is a little worse everywhere). The candidate adds a true delta
//! δ. Value of query i in run r: qᵢ + δ + bᵣ + eᵢᵣ. With n = 500 the single-run query interval
//! has half-width ≈ 1.96·√(2·0.3·0.1²/500) ≈ 0.0068 and the difference of two whole-run shifts
//! has standard deviation √2·0.005 ≈ 0.0071: comparable, as in real A/A spreads.

use rag_gate::resample::estimate::{estimate_crossed, Input};
use rag_gate::stats::crossed::{side_noise, RunPart, SideNoise};
use rag_gate::stats::interval::IntervalMethod;
use rag_gate::stats::statistic::Statistic;
use rag_gate::stats::streams::stream_key;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub const QUERIES: usize = 500;
pub const FLAKY: f64 = 0.3;
pub const JITTER: f64 = 0.1;
pub const SHIFT: f64 = 0.005;
pub const DELTA: f64 = 0.01;

/// Outcomes of one configuration over many sets.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tally {
    pub sets: usize,
    /// The interval misses the true delta (under the null: excludes 0, a false alarm).
    pub misses: usize,
    /// p < 0.05.
    pub rejects: usize,
    pub half_width: f64,
    pub df: f64,
}

impl Tally {
    pub fn miss_rate(&self) -> f64 {
        self.misses as f64 / self.sets as f64
    }
    pub fn reject_rate(&self) -> f64 {
        self.rejects as f64 / self.sets as f64
    }
    /// Monte-Carlo standard error of a rate over the sets (binomial).
    pub fn mc_se(&self, rate: f64) -> f64 {
        (rate * (1.0 - rate) / self.sets as f64).sqrt()
    }
    pub fn mean_half_width(&self) -> f64 {
        self.half_width / self.sets as f64
    }
    pub fn mean_df(&self) -> f64 {
        self.df / self.sets as f64
    }
}

fn uniform(rng: &mut ChaCha8Rng) -> f64 {
    (f64::from(rng.next_u32()) + 0.5) / 4_294_967_296.0
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// `runs` replicate runs per side of one simulated set: (baseline runs, candidate runs).
pub fn simulate(seed: u64, set: usize, runs: usize, delta: f64) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    simulate_sides(seed, set, QUERIES, [runs, runs], delta)
}

/// `runs` = [baseline, candidate] replicate runs of one simulated set on `n` queries.
pub fn simulate_sides(
    seed: u64,
    set: usize,
    n: usize,
    runs: [usize; 2],
    delta: f64,
) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let mut rng = ChaCha8Rng::from_seed(stream_key(
        seed,
        &["calibration-replicates", &set.to_string()],
    ));
    let q: Vec<f64> = (0..n).map(|_| 0.2 + 0.7 * uniform(&mut rng)).collect();
    let flaky: Vec<bool> = (0..n).map(|_| uniform(&mut rng) < FLAKY).collect();
    let mut side = |d: f64, runs: usize| -> Vec<Vec<f64>> {
        (0..runs)
            .map(|_| {
                let shift = SHIFT * normal(&mut rng);
                (0..n)
                    .map(|i| {
                        let e = if flaky[i] {
                            JITTER * normal(&mut rng)
                        } else {
                            0.0
                        };
                        q[i] + d + shift + e
                    })
                    .collect()
            })
            .collect()
    };
    let base = side(0.0, runs[0]);
    let cand = side(delta, runs[1]);
    (base, cand)
}

/// The single-run design with an A/A noise file: `aa` runs of main recorded as `rag-gate aa`
/// records them (each run's mean and the jitter mean square: `SideNoise::recorded`), then one
/// baseline and one candidate run (true delta `delta`) on `n` queries; the low and high bounds
/// of the report's default interval (bootstrap-t) without the noise file and with it.
pub fn aa_set(
    seed: u64,
    set: usize,
    (n, aa, resamples): (usize, usize, usize),
    delta: f64,
) -> [[f64; 2]; 2] {
    let (base, cand) = simulate_sides(seed, set, n, [aa + 1, 1], delta);
    let main = &base[1..];
    let whole = side_noise(&main.iter().map(Vec::as_slice).collect::<Vec<_>>());
    let means: Vec<f64> = main
        .iter()
        .map(|r| r.iter().sum::<f64>() / n as f64)
        .collect();
    let pool = SideNoise::recorded(n, &means, whole.jitter_var);
    let deltas: Vec<f64> = cand[0].iter().zip(&base[0]).map(|(c, b)| c - b).collect();
    let input = Input {
        base: &base[0],
        cand: &cand[0],
        deltas: &deltas,
        groups: None,
        statistic: Statistic::Mean,
        method: IntervalMethod::BootstrapT,
        confidence: 0.95,
        resamples,
        seed: set as u64,
        names: ["calibration", "all"],
        tie_epsilon: rag_gate::config::DEFAULT_TIE_EPSILON,
        cand_runs: &[],
        few_groups_below: 0.0,
    };
    let part = RunPart::from_aa(&pool, [1, 1]);
    [None, part.as_ref()].map(|runs| estimate_crossed(&input, &[], None, runs).interval.bounds)
}

fn mean_over_runs(runs: &[Vec<f64>]) -> Vec<f64> {
    (0..runs[0].len())
        .map(|i| runs.iter().map(|r| r[i]).sum::<f64>() / runs.len() as f64)
        .collect()
}

/// The interval, p-value and degrees of freedom of one set, with `use_runs` replicates per side
/// (1: the plain paired query bootstrap on the first run of each side).
pub fn one(
    base: &[Vec<f64>],
    cand: &[Vec<f64>],
    use_runs: usize,
    resamples: usize,
    set: usize,
) -> ([f64; 2], f64, f64) {
    let (base, cand) = (&base[..use_runs], &cand[..use_runs]);
    let (b, c) = (mean_over_runs(base), mean_over_runs(cand));
    let deltas: Vec<f64> = c.iter().zip(&b).map(|(c, b)| c - b).collect();
    let view = |runs: &[Vec<f64>]| side_noise(&runs.iter().map(Vec::as_slice).collect::<Vec<_>>());
    let part = RunPart::new(&view(base), &view(cand));
    let e = estimate_crossed(
        &Input {
            base: &b,
            cand: &c,
            deltas: &deltas,
            groups: None,
            statistic: Statistic::Mean,
            method: IntervalMethod::Percentile,
            confidence: 0.95,
            resamples,
            seed: set as u64,
            names: ["calibration", "all"],
            tie_epsilon: rag_gate::config::DEFAULT_TIE_EPSILON,
            cand_runs: &[],
            few_groups_below: 0.0,
        },
        &[],
        None,
        part.as_ref(),
    );
    let df = e.crossed.map_or(f64::INFINITY, |c| c.df);
    (e.interval.bounds, e.p_value, df)
}

/// Tallies of `sets` sets with true delta `delta`, for each replicate count in `modes`
/// (the same simulated sets for every mode: its first `m` runs).
pub fn scenario(
    seed: u64,
    sets: usize,
    delta: f64,
    modes: &[usize],
    resamples: usize,
) -> Vec<Tally> {
    let most = modes.iter().copied().max().unwrap_or(1);
    let mut out = vec![Tally::default(); modes.len()];
    for set in 0..sets {
        let (base, cand) = simulate(seed, set, most, delta);
        for (t, &m) in out.iter_mut().zip(modes) {
            let ([lo, hi], p, df) = one(&base, &cand, m, resamples, set);
            t.sets += 1;
            t.misses += usize::from(lo > delta || hi < delta);
            t.rejects += usize::from(p < 0.05);
            t.half_width += (hi - lo) / 2.0;
            t.df += df.min(1e6);
        }
    }
    out
}
