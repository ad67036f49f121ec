//! Simulated paired data sets for the calibration run (`cargo run --release --example
//! calibration`) and its fast version in the test suite (`tests/stats_calibration.rs`).
//! Every set goes through `resample::estimate::estimate`, the code path of the report.
//!
//! Scenarios:
//! - null: n queries, baseline and candidate exchangeable (same query difficulty, independent
//!   noise, clipped to [0, 1] and rounded to 0.01, so ties abound): no true delta.
//! - shift: n independent deltas μ + 0.1·(Exp(1) − 1) (right-skewed), μ = 0.02.
//! - clustered: G groups of 2–10 queries, delta = μ + u_g + e, u_g ~ N(0, 0.08²),
//!   e ~ N(0, 0.05²): strong group effects, as turns of one conversation.

use rag_gate::resample::estimate::{estimate, Input};
use rag_gate::stats::interval::IntervalMethod;
use rag_gate::stats::statistic::Statistic;
use rag_gate::stats::streams::stream_key;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub const MU: f64 = 0.02;

#[derive(Debug, Clone, Copy, Default)]
pub struct Tally {
    pub sets: usize,
    /// Null: the interval excludes 0. Shift / clustered: the interval misses the true delta.
    pub ci_misses: usize,
    /// Null only: p < 0.05.
    pub p_rejects: usize,
}

impl Tally {
    pub fn miss_rate(&self) -> f64 {
        self.ci_misses as f64 / self.sets as f64
    }
    pub fn reject_rate(&self) -> f64 {
        self.p_rejects as f64 / self.sets as f64
    }
    pub fn coverage(&self) -> f64 {
        1.0 - self.miss_rate()
    }
}

fn uniform(rng: &mut ChaCha8Rng) -> f64 {
    (f64::from(rng.next_u32()) + 0.5) / 4_294_967_296.0
}

/// Standard normal by Box–Muller.
fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// The data seed of the calibration run (the examples and the fast test use the default).
pub const DATA_SEED: u64 = 2026;

fn rng_for(seed: u64, scenario: &str, set: usize) -> ChaCha8Rng {
    ChaCha8Rng::from_seed(stream_key(
        seed,
        &["calibration", scenario, &set.to_string()],
    ))
}

fn run(
    base: &[f64],
    cand: &[f64],
    groups: Option<(&[u32], usize)>,
    method: IntervalMethod,
    resamples: usize,
    set: usize,
) -> ([f64; 2], f64) {
    let deltas: Vec<f64> = cand.iter().zip(base).map(|(c, b)| c - b).collect();
    let e = estimate(
        &Input {
            base,
            cand,
            deltas: &deltas,
            groups,
            statistic: Statistic::Mean,
            method,
            confidence: 0.95,
            resamples,
            seed: set as u64,
            names: ["calibration", "all"],
        },
        &[],
        None,
    );
    (e.interval.bounds, e.p_value)
}

/// (a) No true delta, n queries, query unit.
pub fn null(seed: u64, sets: usize, n: usize, resamples: usize, method: IntervalMethod) -> Tally {
    let mut t = Tally::default();
    for set in 0..sets {
        let mut rng = rng_for(seed, "null", set);
        let (mut base, mut cand) = (Vec::new(), Vec::new());
        for _ in 0..n {
            let q = 0.2 + 0.7 * uniform(&mut rng);
            let side = |r: &mut ChaCha8Rng| {
                ((q + 0.15 * normal(r)).clamp(0.0, 1.0) * 100.0).round() / 100.0
            };
            base.push(side(&mut rng));
            cand.push(side(&mut rng));
        }
        let ([lo, hi], p) = run(&base, &cand, None, method, resamples, set);
        t.sets += 1;
        t.ci_misses += usize::from(lo > 0.0 || hi < 0.0);
        t.p_rejects += usize::from(p < 0.05);
    }
    t
}

/// (b) True delta μ with right-skewed noise, n independent queries, query unit.
pub fn shift(seed: u64, sets: usize, n: usize, resamples: usize, method: IntervalMethod) -> Tally {
    let mut t = Tally::default();
    for set in 0..sets {
        let mut rng = rng_for(seed, "shift", set);
        let base: Vec<f64> = (0..n).map(|_| uniform(&mut rng)).collect();
        let cand: Vec<f64> = base
            .iter()
            .map(|b| b + MU + 0.1 * (-uniform(&mut rng).ln() - 1.0))
            .collect();
        let ([lo, hi], _) = run(&base, &cand, None, method, resamples, set);
        t.sets += 1;
        t.ci_misses += usize::from(lo > MU || hi < MU);
    }
    t
}

/// (c) Clustered deltas in `groups` groups: coverage of μ by the query-unit and the group-unit
/// interval, on the same data sets.
pub fn clustered(
    seed: u64,
    sets: usize,
    groups: usize,
    resamples: usize,
    method: IntervalMethod,
) -> (Tally, Tally) {
    let (mut q, mut g) = (Tally::default(), Tally::default());
    for set in 0..sets {
        let mut rng = rng_for(seed, "clustered", set);
        let (mut base, mut cand, mut group_of) = (Vec::new(), Vec::new(), Vec::new());
        for k in 0..groups {
            let size = 2 + (rng.next_u32() % 9) as usize;
            let u = 0.08 * normal(&mut rng);
            for _ in 0..size {
                let b = uniform(&mut rng);
                base.push(b);
                cand.push(b + MU + u + 0.05 * normal(&mut rng));
                group_of.push(k as u32);
            }
        }
        for (tally, unit) in [
            (&mut q, None),
            (&mut g, Some((group_of.as_slice(), groups))),
        ] {
            let ([lo, hi], _) = run(&base, &cand, unit, method, resamples, set);
            tally.sets += 1;
            tally.ci_misses += usize::from(lo > MU || hi < MU);
        }
    }
    (q, g)
}
