//! The paired bootstrap of a mean delta (Efron & Tibshirani 1993, ch. 6; for IR evaluation,
//! Sakai 2006 "Evaluating evaluation metrics based on the bootstrap", and Smucker, Allan &
//! Carterette 2007).
//!
//! Pairing is already done by the caller: the input is one delta per query (candidate −
//! baseline), so resampling a query keeps its baseline and candidate together. Two units:
//! - `Units::Queries`: draw n queries with replacement; the statistic is their mean delta.
//! - `Units::Groups`: the cluster bootstrap (Davison & Hinkley 1997, §3.8; Field & Welsh 2007):
//!   draw G groups with replacement; the statistic is the mean over all queries of the drawn
//!   groups, Σ group sums / Σ group sizes.
//!
//! Generator layout (fixed; part of the report's reproducibility): resamples are cut into chunks
//! of `CHUNK`; chunk c uses ChaCha8 with the caller's key and stream id c; each index is drawn
//! from one 32-bit word by Lemire's multiply-shift with rejection (Lemire 2019, "Fast random
//! integer generation in an interval"), so it is exactly uniform. Chunks run in parallel (rayon)
//! and the output order is the resample order, whatever the thread count.
//!
//! Cost: O(B · n) draws for B resamples of n units, no allocation per resample.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// Resamples per generator stream.
pub const CHUNK: usize = 256;

/// What is resampled.
#[derive(Debug, Clone, Copy)]
pub enum Units<'a> {
    /// One delta per query.
    Queries(&'a [f64]),
    /// Per group: the sum of its queries' deltas and its number of queries (same length).
    Groups { sums: &'a [f64], sizes: &'a [f64] },
}

impl Units<'_> {
    /// Number of resampling units (queries or groups).
    pub fn len(&self) -> usize {
        match self {
            Units::Queries(x) => x.len(),
            Units::Groups { sums, .. } => sums.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The statistic (mean delta) of each of `resamples` bootstrap resamples, in resample order.
///
/// Panics if there are no units, more than `u32::MAX` units, or group slices of unequal length.
pub fn bootstrap_means(units: Units<'_>, resamples: usize, key: [u8; 32]) -> Vec<f64> {
    let n = units.len();
    assert!(
        n > 0 && n <= u32::MAX as usize,
        "bootstrap needs 1..=u32::MAX units, got {n}"
    );
    if let Units::Groups { sums, sizes } = units {
        assert_eq!(
            sums.len(),
            sizes.len(),
            "group sums and sizes differ in length"
        );
    }
    let mut out = vec![0.0; resamples];
    out.par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(c, chunk)| {
            let mut rng = ChaCha8Rng::from_seed(key);
            rng.set_stream(c as u64);
            for slot in chunk.iter_mut() {
                *slot = one_resample(units, &mut rng);
            }
        });
    out
}

fn one_resample(units: Units<'_>, rng: &mut ChaCha8Rng) -> f64 {
    match units {
        Units::Queries(x) => {
            let n = x.len() as u32;
            let mut sum = 0.0;
            for _ in 0..n {
                sum += x[bounded(rng, n) as usize];
            }
            sum / f64::from(n)
        }
        Units::Groups { sums, sizes } => {
            let g = sums.len() as u32;
            let (mut sum, mut size) = (0.0, 0.0);
            for _ in 0..g {
                let i = bounded(rng, g) as usize;
                sum += sums[i];
                size += sizes[i];
            }
            sum / size
        }
    }
}

/// A uniform integer in [0, n) from 32-bit words: Lemire's nearly divisionless method.
#[inline]
pub fn bounded(rng: &mut impl RngCore, n: u32) -> u32 {
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    let mut low = m as u32;
    if low < n {
        let threshold = n.wrapping_neg() % n;
        while low < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
            low = m as u32;
        }
    }
    (m >> 32) as u32
}

/// Per-group sums and sizes of `deltas`, where `group_of[i]` is the dense group index of query i
/// (0..groups). Groups are in index order.
pub fn group_sums(deltas: &[f64], group_of: &[u32], groups: usize) -> (Vec<f64>, Vec<f64>) {
    let mut sums = vec![0.0; groups];
    let mut sizes = vec![0.0; groups];
    for (&d, &g) in deltas.iter().zip(group_of) {
        sums[g as usize] += d;
        sizes[g as usize] += 1.0;
    }
    (sums, sizes)
}

#[cfg(test)]
mod tests;
