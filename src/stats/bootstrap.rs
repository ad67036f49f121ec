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
//! Several metrics share one resampling (`bootstrap_means_many`): each resample draws its
//! units once and every metric sums its own values over the same draws, so the cost of the
//! generator is paid once per slice rather than once per metric. The values sit row by row
//! (`columns`), so one drawn unit feeds every metric from one cache line.
//!
//! Generator layout (fixed; part of the report's reproducibility): resamples are cut into chunks
//! of `CHUNK`; chunk c uses ChaCha8 with the caller's key and stream id c. The stream is read in
//! batches of 32 little-endian 64-bit words; each word is cut into ⌊64/k⌋ k-bit pieces, low
//! bits first, k the width among 8, 10, 12, 16, 21, 32 with 2^k ≥ n that needs the fewest stream
//! bits per accepted index (`indices::width`: 21, three a word, at n = 100,000; 16 at 10,000;
//! 10 at 500), and each piece is mapped to [0, n) by Lemire's multiply-shift with
//! rejection (Lemire 2019, "Fast random integer generation in an interval") in the 2^k space, so
//! every index is exactly uniform. Resamples read the index stream one after another (what one
//! leaves of a batch, the next uses); a set of one unit needs no draws. Each metric's sum uses
//! four accumulators (position mod 4 within each run of indices taken from a batch), added as
//! (a0 + a1) + (a2 + a3), so a metric's numbers are the same alone or with others. Chunks run in
//! parallel (rayon) and the output order is the resample order, whatever the thread count.
//!
//! Cost: O(B · n) draws for B resamples of n units, shared by all metrics, no allocation per
//! resample; the working set is the data alone (indices are never stored).

pub mod indices;

use rayon::prelude::*;

use super::columns::{Columns, Rows};
use super::poisson;
pub use indices::{bounded, BoundedIndices, Indices};

pub use super::streams::{chunk_rng, CHUNK};

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
        self.values_and_sizes().0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The per-unit values and, for groups, the group sizes: the arguments of the `_many`
    /// functions for this one metric.
    pub fn values_and_sizes(&self) -> (&[f64], Option<&[f64]>) {
        match *self {
            Units::Queries(x) => (x, None),
            Units::Groups { sums, sizes } => (sums, Some(sizes)),
        }
    }
}

/// The statistic (mean delta) of each of `resamples` bootstrap resamples, in resample order.
///
/// Panics if there are no units, more than `u32::MAX` units, or group slices of unequal length.
pub fn bootstrap_means(units: Units<'_>, resamples: usize, key: [u8; 32]) -> Vec<f64> {
    let (values, sizes) = units.values_and_sizes();
    let mut means = bootstrap_means_many(&[values], sizes, resamples, key);
    means.pop().expect("one column")
}

/// The mean deltas of several metrics over the same resamples: every resample draws its units
/// once and every metric reads the same draws (`values[m]` has one value per unit: a query's
/// delta, or a group's sum when `sizes` gives the groups' query counts). Metric m's output is
/// what `bootstrap_means` gives for it alone under the same key.
///
/// Panics if there are no units or no metrics, more than `u32::MAX` units, or lengths differ.
pub fn bootstrap_means_many(
    values: &[&[f64]],
    sizes: Option<&[f64]>,
    resamples: usize,
    key: [u8; 32],
) -> Vec<Vec<f64>> {
    let mut cols = values.to_vec();
    cols.extend(sizes);
    if poisson::applies(cols[0].len()) {
        return poisson_means(values, sizes, &cols, resamples, key);
    }
    let table = Columns::new(&cols);
    let sums = bootstrap_sums(&table, resamples, key);
    let w = table.width();
    let n = table.units() as f64;
    (0..values.len())
        .map(|m| {
            sums.chunks_exact(w)
                .map(|row| match sizes {
                    None => row[m] / n,
                    Some(_) => row[m] / row[w - 1],
                })
                .collect()
        })
        .collect()
}

/// `bootstrap_means_many` from `poisson::POISSON_FROM` units: each resample's weighted mean,
/// Σw·x / Σw for queries, Σw·S / Σw·N for groups (the observed mean in the resample of weight
/// zero, which has no units).
/// (`cols`: the values, then the sizes).
fn poisson_means(
    values: &[&[f64]],
    sizes: Option<&[f64]>,
    cols: &[&[f64]],
    resamples: usize,
    key: [u8; 32],
) -> Vec<Vec<f64>> {
    let sums = poisson::poisson_sums(cols, resamples, key);
    let w = cols.len() + 1;
    (0..values.len())
        .map(|m| {
            let observed = values[m].iter().sum::<f64>()
                / sizes.map_or(values[m].len() as f64, |z| z.iter().sum());
            sums.chunks_exact(w)
                .map(|row| {
                    // The drawn size: Σw·N (the sizes' column, second last) or Σw (last).
                    let total = row[w - 2 + usize::from(sizes.is_none())];
                    if total > 0.0 {
                        row[m] / total
                    } else {
                        observed
                    }
                })
                .collect()
        })
        .collect()
}

/// Column sums of each resample (`resamples` rows of `table.width()`, in resample order).
pub fn bootstrap_sums<T: Rows + ?Sized>(table: &T, resamples: usize, key: [u8; 32]) -> Vec<f64> {
    let n = table.units();
    assert!(
        n > 0 && n <= u32::MAX as usize,
        "bootstrap needs 1..=u32::MAX units, got {n}"
    );
    let w = table.width();
    let mut out = vec![0.0; resamples * w];
    if n == 1 {
        // Every resample is the one unit.
        let mut row = vec![0.0; w];
        let mut acc = table.lanes();
        table.add_rows(&[0], &mut acc);
        table.totals(&acc, &mut row);
        for slot in out.chunks_exact_mut(w) {
            slot.copy_from_slice(&row);
        }
        return out;
    }
    let avx2 = super::simd::available();
    out.par_chunks_mut(CHUNK * w)
        .enumerate()
        .for_each(|(c, chunk)| {
            let draw = Indices::new(chunk_rng(key, c), n as u32);
            #[cfg(target_arch = "x86_64")]
            if avx2 {
                // SAFETY: `simd::available` says the CPU has AVX2.
                return unsafe { chunk_sums_avx2(table, draw, chunk) };
            }
            chunk_sums(table, draw, chunk)
        });
    out
}

/// The column sums of one chunk's resamples (`chunk`: a row of `table.width()` each), drawing
/// every resample's units from `draw`.
#[inline(always)]
fn chunk_sums<T: Rows + ?Sized>(table: &T, mut draw: Indices, chunk: &mut [f64]) {
    let (n, w) = (table.units(), table.width());
    let mut acc = table.lanes();
    for slot in chunk.chunks_exact_mut(w) {
        acc.fill(0.0);
        let mut done = 0;
        while done < n {
            let run = draw.take(n - done);
            table.add_rows(run, &mut acc);
            done += run.len();
        }
        table.totals(&acc, slot);
    }
}

/// `chunk_sums` compiled for AVX2: the same operations in the same order (the compiler may
/// only vectorise what keeps every result), so the same sums.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn chunk_sums_avx2<T: Rows + ?Sized>(table: &T, draw: Indices, chunk: &mut [f64]) {
    chunk_sums(table, draw, chunk)
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
