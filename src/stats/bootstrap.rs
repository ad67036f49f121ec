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
//! of `CHUNK`; chunk c uses ChaCha8 with the caller's key and stream id c. Indices are cut from
//! 64-bit words in k-bit pieces, k = min(⌈log2 n⌉ + 3, 32) (so 3 indices a word for n = 100,000
//! instead of 2), and each piece is mapped to [0, n) by Lemire's multiply-shift with rejection
//! (Lemire 2019, "Fast random integer generation in an interval") in the 2^k space, so every
//! index is exactly uniform. Each resample's sum uses four accumulators (index j into j mod 4),
//! added as (a0 + a1) + (a2 + a3). Chunks run in parallel (rayon) and the output order is the
//! resample order, whatever the thread count.
//!
//! Cost: O(B · n) draws for B resamples of n units, no allocation per resample; the working set
//! is the data alone (indices are never stored).

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
            let mut draw = Indices::new(rng, n as u32);
            for slot in chunk.iter_mut() {
                *slot = match units {
                    Units::Queries(x) => sum4(x, &mut draw) / n as f64,
                    Units::Groups { sums, sizes } => {
                        let (s, z) = sum4_pair(sums, sizes, &mut draw);
                        s / z
                    }
                };
            }
        });
    out
}

/// Sum of n values of `x` drawn with replacement.
#[inline]
fn sum4(x: &[f64], draw: &mut Indices) -> f64 {
    let n = x.len();
    let mut a = [0.0f64; 4];
    let mut j = 0;
    while j + 4 <= n {
        a[0] += x[draw.draw()];
        a[1] += x[draw.draw()];
        a[2] += x[draw.draw()];
        a[3] += x[draw.draw()];
        j += 4;
    }
    for slot in a.iter_mut().take(n - j) {
        *slot += x[draw.draw()];
    }
    (a[0] + a[1]) + (a[2] + a[3])
}

/// Sums of `x` and `w` over n units drawn with replacement (the same draws for both).
#[inline]
fn sum4_pair(x: &[f64], w: &[f64], draw: &mut Indices) -> (f64, f64) {
    let n = x.len();
    let mut a = [0.0f64; 4];
    let mut b = [0.0f64; 4];
    let mut j = 0;
    while j < n {
        let lane = j & 3;
        let i = draw.draw();
        a[lane] += x[i];
        b[lane] += w[i];
        j += 1;
    }
    ((a[0] + a[1]) + (a[2] + a[3]), (b[0] + b[1]) + (b[2] + b[3]))
}

/// Uniform indices in [0, n) cut from a ChaCha8 stream, k bits at a time (see the module header).
pub struct Indices {
    rng: ChaCha8Rng,
    word: u64,
    left: u32,
    per_word: u32,
    k: u32,
    mask: u64,
    n: u64,
    threshold: u64,
}

impl Indices {
    pub fn new(rng: ChaCha8Rng, n: u32) -> Self {
        assert!(n > 0);
        let bits = 32 - (n - 1).leading_zeros();
        let k = (bits + 3).min(32);
        let mask = (1u64 << k) - 1;
        Indices {
            rng,
            word: 0,
            left: 0,
            per_word: 64 / k,
            k,
            mask,
            n: u64::from(n),
            threshold: (1u64 << k) % u64::from(n),
        }
    }

    #[inline]
    pub fn draw(&mut self) -> usize {
        loop {
            if self.left == 0 {
                self.word = self.rng.next_u64();
                self.left = self.per_word;
            }
            let r = self.word & self.mask;
            self.word >>= self.k;
            self.left -= 1;
            let m = r * self.n;
            if m & self.mask >= self.threshold {
                return (m >> self.k) as usize;
            }
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
