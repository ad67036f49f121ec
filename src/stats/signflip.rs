//! The paired randomization (sign-flip) test: under the null hypothesis that candidate and
//! baseline are exchangeable within each unit, swapping the two sides of a unit (flipping the
//! sign of its delta) leaves the distribution unchanged (Fisher 1935; for IR, Smucker, Allan &
//! Carterette 2007, CIKM, who recommend it over the bootstrap and t tests; Urbano, Lima &
//! Hanjalic 2019, SIGIR, on its error rates at small topic-set sizes). Group unit: whole groups
//! are swapped, so the test respects the dependence inside a group.
//!
//! Two-sided p-value from R random sign vectors: (1 + #{|T*| ≥ |T|}) / (R + 1), never 0
//! (Phipson & Smyth 2010, "Permutation p-values should never be zero"). With few units, when the
//! 2^G sign vectors of G units are no more than R, all of them are enumerated instead (vector m
//! flips unit j when bit j of m is set) and the p-value is exact: #{|T*| ≥ |T|} / 2^G. Either
//! way it cannot go below 2 / 2^{G'}, G' the units whose delta is not 0 (flipping a zero changes
//! nothing, and flipping every unit gives −T): `p_floor`. "As extreme" allows a
//! relative 1e-12 for floating-point ties. Generator layout as in `bootstrap`: chunks of `CHUNK`
//! rounds, chunk c on ChaCha8 stream c of the caller's key; each round starts on a fresh word.
//! The mean reads 64-bit words, bit j of a round's word b flipping unit 64·b + j; the rounds of a
//! chunk go in groups of 8 (the last may be shorter) that read the stream block by block: for
//! each block of 64 units, one word for each round of the group in turn, so a block is loaded
//! once for 8 rounds. Several metrics tested together (`p_values_mean_many`) read the same signs,
//! each summed in its own lanes as in `columns`. A quantile difference reads 32-bit words, one
//! sign per unit.
//!
//! From `poisson::POISSON_FROM` units, when values repeat (`bins::worth`), the mean test draws
//! per distinct value instead (`bins`: its c units' flips add v·(2·Binomial(c, 1/2) − c), the
//! same randomization distribution), on the same chunks and streams.
//!
//! Cost: O(R · units) for the mean (O(R · distinct values) by value), O(R · n) for a quantile difference (2^G in place of R on the
//! exact path).

mod quantile;

use rand::RngCore;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::bins;
use super::bootstrap::{chunk_rng, Units, CHUNK};
use super::columns::Columns;
use super::poisson;
pub use quantile::p_value_quantile;

/// Rounds of the mean test that read the data together (see the module header).
const ROUNDS_AT_ONCE: usize = 8;

/// "As extreme" with the relative 1e-12 allowance for floating-point ties: `scale` is the typical
/// magnitude of the statistic's terms.
fn as_extreme(round: f64, observed: f64, scale: f64) -> bool {
    round.abs() >= observed.abs() - 1e-12 * scale.max(f64::MIN_POSITIVE)
}

/// Sign vectors enumerated per parallel task on the exact path.
const PATTERNS_PER_TASK: u64 = 4096;

/// Whether the test enumerates all 2^units sign vectors (2^units ≤ rounds).
pub fn is_exact(units: usize, rounds: usize) -> bool {
    units < 64 && (1u64 << units) <= rounds as u64
}

/// The smallest p-value the test can give: 2 / 2^{G'} with G' = `nonzero` units (1 when none),
/// and no less than 1 / (R + 1) on the random path.
pub fn p_floor(nonzero: usize, units: usize, rounds: usize) -> f64 {
    let exact = if nonzero == 0 {
        1.0
    } else {
        2f64.powi(1 - nonzero.min(1100) as i32)
    };
    if is_exact(units, rounds) {
        exact
    } else {
        exact.max(1.0 / (rounds as f64 + 1.0))
    }
}

/// Per column, the number of sign vectors m in 0..2^units as extreme as observed: `count(ms,
/// counts)` adds those of the vectors `ms` (one parallel task's share) to `counts`.
fn count_patterns<F>(units: usize, width: usize, count: F) -> Vec<usize>
where
    F: Fn(std::ops::Range<u64>, &mut [usize]) + Sync,
{
    let patterns = 1u64 << units;
    (0..patterns.div_ceil(PATTERNS_PER_TASK))
        .into_par_iter()
        .map(|t| {
            let mut counts = vec![0usize; width];
            let end = ((t + 1) * PATTERNS_PER_TASK).min(patterns);
            count(t * PATTERNS_PER_TASK..end, &mut counts);
            counts
        })
        .reduce(
            || vec![0; width],
            |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
        )
}

fn p_value(extreme: usize, rounds: usize) -> f64 {
    (1.0 + extreme as f64) / (rounds as f64 + 1.0)
}

/// Two-sided randomization p-value of the mean delta (query or group unit).
///
/// Panics if there are no units or `rounds` is 0.
pub fn p_value_mean(units: Units<'_>, rounds: usize, key: [u8; 32]) -> f64 {
    let (values, sizes) = units.values_and_sizes();
    let mut p = p_values_mean_many(&[values], sizes, rounds, key);
    p.pop().expect("one column")
}

/// The p-values of several metrics' mean deltas from the same sign vectors (`values[m]` has one
/// value per unit: a query's delta, or a group's sum when `sizes` gives the groups' query
/// counts). Metric m's p-value is what `p_value_mean` gives for it alone under the same key.
///
/// Panics if there are no units or metrics, lengths differ, or `rounds` is 0.
pub fn p_values_mean_many(
    values: &[&[f64]],
    sizes: Option<&[f64]>,
    rounds: usize,
    key: [u8; 32],
) -> Vec<f64> {
    let n = values.first().map_or(0, |v| v.len());
    assert!(n > 0 && rounds > 0, "sign-flip test needs units and rounds");
    let total = sizes.map_or(n as f64, |z| z.iter().sum());
    let observed: Vec<f64> = values
        .iter()
        .map(|x| x.iter().sum::<f64>() / total)
        .collect();
    let scale: Vec<f64> = values
        .iter()
        .map(|x| x.iter().map(|v| v.abs()).sum::<f64>() / total)
        .collect();
    if !is_exact(n, rounds) && poisson::applies(n) {
        if let Some(bins) = bins::worth(values) {
            let sums = bins.sign_flip_sums(rounds, key);
            let extreme = |m: usize| {
                let t = |round: &&[f64]| round[m] / total;
                sums.chunks_exact(values.len())
                    .filter(|round| as_extreme(t(round), observed[m], scale[m]))
                    .count()
            };
            return (0..values.len())
                .map(|m| p_value(extreme(m), rounds))
                .collect();
        }
    }
    let table = Columns::new(values);
    let w = table.width();
    if is_exact(n, rounds) {
        let lanes = table.lanes().len();
        let counts = count_patterns(n, w, |ms, count| {
            let (mut acc, mut sums) = (vec![0.0; lanes], vec![0.0; w]);
            for m in ms {
                acc.fill(0.0);
                table.add_signed_rows(0, n, m, &mut acc);
                table.totals(&acc, &mut sums);
                for k in 0..w {
                    count[k] += usize::from(as_extreme(sums[k] / total, observed[k], scale[k]));
                }
            }
        });
        let all = (1u64 << n) as f64;
        return counts.iter().map(|&k| k as f64 / all).collect();
    }
    let chunks = rounds.div_ceil(CHUNK);
    let avx2 = super::simd::available();
    let counts = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let chunk = Chunk {
                table: &table,
                rounds: CHUNK.min(rounds - c * CHUNK),
                total,
                observed: &observed,
                scale: &scale,
            };
            let rng = chunk_rng(key, c);
            #[cfg(target_arch = "x86_64")]
            if avx2 {
                // SAFETY: `simd::available` says the CPU has AVX2.
                return unsafe { chunk.count_avx2(rng) };
            }
            chunk.count(rng)
        })
        .reduce(
            || vec![0; w],
            |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
        );
    counts.iter().map(|&k| p_value(k, rounds)).collect()
}

/// One chunk of the random path: its rounds and what they compare with.
struct Chunk<'a> {
    table: &'a Columns,
    rounds: usize,
    total: f64,
    observed: &'a [f64],
    scale: &'a [f64],
}

impl Chunk<'_> {
    /// Per column, the chunk's rounds as extreme as observed, reading signs from `rng`.
    #[inline(always)]
    fn count(&self, mut rng: ChaCha8Rng) -> Vec<usize> {
        let (table, w) = (self.table, self.observed.len());
        let lanes = table.lanes().len();
        let mut acc = vec![0.0; ROUNDS_AT_ONCE * lanes];
        let mut sums = vec![0.0; w];
        let mut count = vec![0usize; w];
        let n = table.units();
        for first in (0..self.rounds).step_by(ROUNDS_AT_ONCE) {
            let group = ROUNDS_AT_ONCE.min(self.rounds - first);
            acc.fill(0.0);
            // Block by block, one word per round of the group in turn (the block stays in
            // L1 for all of them); bit j of a round's word flips unit 64·block + j.
            for start in (0..n).step_by(64) {
                let rows = 64.min(n - start);
                for lanes_of_round in acc.chunks_exact_mut(lanes).take(group) {
                    table.add_signed_rows(start, rows, rng.next_u64(), lanes_of_round);
                }
            }
            for lanes_of_round in acc.chunks_exact(lanes).take(group) {
                table.totals(lanes_of_round, &mut sums);
                for m in 0..w {
                    let t = sums[m] / self.total;
                    count[m] += usize::from(as_extreme(t, self.observed[m], self.scale[m]));
                }
            }
        }
        count
    }

    /// `count` compiled for AVX2: the same operations in the same order (the compiler may
    /// only vectorise what keeps every result), so the same counts.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn count_avx2(&self, rng: ChaCha8Rng) -> Vec<usize> {
        self.count(rng)
    }
}
