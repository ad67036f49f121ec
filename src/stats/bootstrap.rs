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
//! of `CHUNK`; chunk c uses ChaCha8 with the caller's key and stream id c. The stream is read in
//! batches of 32 little-endian 64-bit words; each word is cut into k-bit pieces, low bits first,
//! k the smallest of 8, 12, 16, 21, 32 that is ≥ ⌈log2 n⌉ + 3 (so 3 indices a word
//! for n = 100,000 instead of 2), and each piece
//! is mapped to [0, n) by Lemire's multiply-shift with rejection (Lemire 2019, "Fast random
//! integer generation in an interval") in the 2^k space, so every index is exactly uniform.
//! Resamples read the index stream one after another (what one leaves of a batch, the next
//! uses); a unit set of one needs no draws. Sums use four accumulators (position mod 4 within
//! each run of indices taken from a batch), added as (a0 + a1) + (a2 + a3). Chunks run in parallel (rayon) and the output order is the resample
//! order, whatever the thread count.
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
                    Units::Queries(x) => resample_sum(x, &mut draw) / n as f64,
                    Units::Groups { sums, sizes } => {
                        let (s, z) = resample_sum_pair(sums, sizes, &mut draw);
                        s / z
                    }
                };
            }
        });
    out
}

/// Sum of n values of `x` drawn with replacement. Indices come in runs taken from the current
/// batch; each run is summed in four lanes (positions 0, 1, 2, 3 mod 4 within the run).
#[inline]
fn resample_sum(x: &[f64], draw: &mut Indices) -> f64 {
    let n = x.len();
    let mut a = [0.0f64; 4];
    let mut done = 0;
    while done < n {
        let batch = draw.take(n - done);
        let mut quads = batch.chunks_exact(4);
        for q in &mut quads {
            a[0] += x[q[0] as usize];
            a[1] += x[q[1] as usize];
            a[2] += x[q[2] as usize];
            a[3] += x[q[3] as usize];
        }
        for (lane, &i) in quads.remainder().iter().enumerate() {
            a[lane] += x[i as usize];
        }
        done += batch.len();
    }
    (a[0] + a[1]) + (a[2] + a[3])
}

/// Sums of `x` and `w` over n units drawn with replacement (the same draws for both), with the
/// same batching and lanes as `resample_sum`.
#[inline]
fn resample_sum_pair(x: &[f64], w: &[f64], draw: &mut Indices) -> (f64, f64) {
    let n = x.len();
    let mut a = [0.0f64; 4];
    let mut b = [0.0f64; 4];
    let mut done = 0;
    while done < n {
        let batch = draw.take(n - done);
        for (j, &i) in batch.iter().enumerate() {
            a[j & 3] += x[i as usize];
            b[j & 3] += w[i as usize];
        }
        done += batch.len();
    }
    ((a[0] + a[1]) + (a[2] + a[3]), (b[0] + b[1]) + (b[2] + b[3]))
}

/// 64-bit words per batch (four ChaCha8 blocks).
const BATCH_WORDS: usize = 32;
/// Piece widths: the smallest that is ≥ ⌈log2 n⌉ + 3 is used (fixed widths let the compiler
/// cut words with constant shifts).
const WIDTHS: [u32; 5] = [8, 12, 16, 21, 32];

/// Uniform indices in [0, n) cut from a ChaCha8 stream, k bits at a time (see the module
/// header), produced in batches from `BATCH_WORDS` words: each word's pieces low bits first,
/// rejected pieces skipped without a branch.
pub struct Indices {
    rng: ChaCha8Rng,
    k: u32,
    n: u64,
    threshold: u64,
    bytes: [u8; BATCH_WORDS * 8],
    buf: [u32; BATCH_WORDS * 8],
    /// The unread part of `buf` is `pos..len`.
    pos: usize,
    len: usize,
}

impl Indices {
    pub fn new(rng: ChaCha8Rng, n: u32) -> Self {
        assert!(n > 0);
        let bits = 32 - (n - 1).leading_zeros();
        let k = WIDTHS.into_iter().find(|&w| w >= bits + 3).unwrap_or(32);
        Indices {
            rng,
            k,
            n: u64::from(n),
            threshold: (1u64 << k) % u64::from(n),
            bytes: [0; BATCH_WORDS * 8],
            buf: [0; BATCH_WORDS * 8],
            pos: 0,
            len: 0,
        }
    }

    /// Up to `max` (≥ 1) next indices of the stream: the rest of the current batch, or of a
    /// fresh one. Indices a resample does not use stay for the next one.
    #[inline]
    pub fn take(&mut self, max: usize) -> &[u32] {
        while self.pos == self.len {
            self.len = self.batch().len();
            self.pos = 0;
        }
        let start = self.pos;
        self.pos = (start + max).min(self.len);
        &self.buf[start..self.pos]
    }

    /// Refills the batch and returns it whole. At most half of the pieces can be rejected (at most 1/8 when
    /// n < 2^29), so a batch is empty only with negligible probability, and an empty batch is
    /// simply followed by another.
    #[inline]
    pub fn batch(&mut self) -> &[u32] {
        self.rng.fill_bytes(&mut self.bytes);
        let (bytes, buf, n, t) = (&self.bytes, &mut self.buf, self.n, self.threshold);
        let len = match self.k {
            8 => cut::<8>(bytes, buf, n, t),
            12 => cut::<12>(bytes, buf, n, t),
            16 => cut::<16>(bytes, buf, n, t),
            21 => cut::<21>(bytes, buf, n, t),
            _ => cut::<32>(bytes, buf, n, t),
        };
        &self.buf[..len]
    }
}

/// Cuts each word into K-bit pieces and keeps the accepted ones (Lemire's test), in order.
#[inline]
fn cut<const K: u32>(
    bytes: &[u8; BATCH_WORDS * 8],
    buf: &mut [u32; BATCH_WORDS * 8],
    n: u64,
    threshold: u64,
) -> usize {
    let mask = (1u64 << K) - 1;
    let mut len = 0;
    for w in bytes.chunks_exact(8) {
        let word = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        for p in 0..64 / K {
            let m = ((word >> (p * K)) & mask) * n;
            buf[len] = (m >> K) as u32;
            len += usize::from(m & mask >= threshold);
        }
    }
    len
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
