//! Resampling over distinct values (frequency tables) when values repeat: the Poisson bootstrap
//! and the sign-flip test of means at a cost set by the number of distinct values, not of units.
//!
//! **Poisson bootstrap.** With independent Poisson(1) weights per unit (Hanley & MacGibbon 2006,
//! "Creating non-parametric bootstrap samples using Poisson frequencies", Comput. Methods
//! Programs Biomed. 83:57; Chamandy, Muralidharan, Najmi & Naidu 2012), a resample's weighted
//! sums Σw·x (per column) and Σw depend on the weights only through each distinct row's total
//! weight: the units sharing row v_k (c_k of them) contribute v_k·N_k with N_k = Σ of their
//! weights, and a sum of c iid Poisson(1) is Poisson(c), independent across rows. So drawing
//! N_k ~ Poisson(c_k) per distinct row gives the same joint law of (Σw·x, Σw·x², Σw) as a weight
//! per unit: the frequency-weights identity of a weighted sum (Hanley & MacGibbon 2006, §2).
//! Exact, not an approximation; the spread columns of the bootstrap-t (functions of a unit's
//! values) ride along as further columns of the row.
//!
//! The per-unit Poisson path (`poisson`) draws weights from a five-level law with mean 1 and
//! variance 1, not Poisson(1); the binned path draws true Poisson(1) totals. Both are
//! multiplier bootstraps of the same first two moments (Præstgaard & Wellner 1993); where bins
//! are used (see `worth`), figures differ from the per-unit path's by Monte-Carlo error only
//! (calibration: docs/statistics.md "Binned resampling").
//!
//! **Sign-flip test.** Flipping the signs of the c_k units of value v_k adds v_k·(2·B_k − c_k),
//! B_k ~ Binomial(c_k, 1/2) the units left unflipped (Fisher 1935's randomization
//! distribution, counted by value): exact as well. Rows of zeros are skipped (a flip changes
//! nothing).
//!
//! When (`worth`): from `poisson::POISSON_FROM` units, when the distinct rows are at most one per
//! `UNITS_PER_BIN` units (a Poisson or Binomial draw per row costs about as much as that many
//! per-unit weights: docs/speed.md "Binned resampling"); otherwise the per-unit paths run.
//!
//! Layout (fixed; part of the report's reproducibility): distinct rows are compared bit for bit
//! and kept in ascending order (lexicographic by `f64::total_cmp`, column by column), so the
//! input's order changes nothing. Resamples (rounds) are cut into chunks of `CHUNK`; chunk c
//! reads ChaCha8 stream c of the caller's key; within a chunk, resample by resample, the rows in
//! order each take one draw: Poisson(c_k) by rand_distr's `Poisson` (Knuth's product method
//! below 12, Ahrens & Dieter 1982 above), Binomial(c_k, 1/2) as the set bits among c_k bits of the
//! stream up to `BITS_UP_TO` units (⌈c_k/64⌉ 64-bit words, the last one's low c_k mod 64 bits)
//! and rand_distr's `Binomial` (BTPE, Kachitvichyanukul & Schmeiser 1988) above. A column's sum adds the rows in order.
//!
//! Pure: numbers in, numbers out; O(n) to build the bins (one hash probe a unit), O(B · K ·
//! columns) to resample K distinct rows.

use rand::RngCore;
use rand_distr::{Binomial, Distribution, Poisson};

use super::streams::by_chunks;

/// Binned resampling runs when there are at least this many units per distinct row.
pub const UNITS_PER_BIN: usize = 32;

/// The distinct rows of several columns and how many units hold each.
#[derive(Debug, Clone, PartialEq)]
pub struct Bins {
    width: usize,
    /// Distinct rows in ascending order, `width` values each.
    rows: Vec<f64>,
    counts: Vec<u64>,
}

/// The bins of `cols` when they are few enough for binned resampling to pay: at most one per
/// `UNITS_PER_BIN` units (the callers resample by bins from `poisson::POISSON_FROM` units only).
pub fn worth(cols: &[&[f64]]) -> Option<Bins> {
    let n = cols.first().map_or(0, |c| c.len());
    Bins::of(cols, n / UNITS_PER_BIN)
}

impl Bins {
    /// The distinct rows of `cols` (all of one length; row i is (cols[0][i], cols[1][i], …)),
    /// or `None` when there are more than `max`.
    ///
    /// Panics if there are no columns or they differ in length.
    pub fn of(cols: &[&[f64]], max: usize) -> Option<Bins> {
        assert!(!cols.is_empty(), "no columns to bin");
        let (n, width) = (cols[0].len(), cols.len());
        assert!(
            cols.iter().all(|c| c.len() == n),
            "columns differ in length"
        );
        if max == 0 {
            return None;
        }
        let (rows, counts) = distinct(cols, max)?;
        let mut order: Vec<usize> = (0..counts.len()).collect();
        let row = |k: usize| &rows[k * width..(k + 1) * width];
        order.sort_unstable_by(|&a, &b| {
            row(a)
                .iter()
                .zip(row(b))
                .map(|(x, y)| x.total_cmp(y))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        Some(Bins {
            width,
            rows: order.iter().flat_map(|&k| row(k)).copied().collect(),
            counts: order.iter().map(|&k| counts[k]).collect(),
        })
    }

    /// Number of distinct rows.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The distinct rows (ascending) with their counts.
    pub fn rows(&self) -> impl Iterator<Item = (&[f64], u64)> {
        self.rows
            .chunks_exact(self.width)
            .zip(self.counts.iter().copied())
    }

    /// Column `j` over the distinct rows, in order.
    pub fn column(&self, j: usize) -> Vec<f64> {
        self.rows.chunks_exact(self.width).map(|r| r[j]).collect()
    }

    /// The same bins (counts, order) with other values per row: `cols` are columns over the
    /// distinct rows (each of `len()` values), e.g. functions of the rows computed once per row.
    ///
    /// Panics if there are no columns or one has not `len()` values.
    pub fn with_columns(&self, cols: &[&[f64]]) -> Bins {
        assert!(!cols.is_empty(), "no columns");
        assert!(
            cols.iter().all(|c| c.len() == self.len()),
            "one value per row"
        );
        Bins {
            width: cols.len(),
            rows: (0..self.len())
                .flat_map(|k| cols.iter().map(move |c| c[k]))
                .collect(),
            counts: self.counts.clone(),
        }
    }

    /// Per resample, in resample order: Σ w·col for each column, then Σ w, under Poisson(1)
    /// weights per unit (drawn per row as Poisson(count)); rows of `width + 1`, as
    /// `poisson::poisson_sums`.
    pub fn poisson_sums(&self, resamples: usize, key: [u8; 32]) -> Vec<f64> {
        let width = self.width + 1;
        let laws: Vec<Poisson<f64>> = self
            .counts
            .iter()
            .map(|&c| Poisson::new(c as f64).expect("a row holds at least one unit"))
            .collect();
        by_chunks(resamples, width, key, |mut rng, chunk| {
            for row in chunk.chunks_exact_mut(width) {
                let (sums, drawn) = row.split_at_mut(self.width);
                let mut total = 0.0;
                for (law, v) in laws.iter().zip(self.rows.chunks_exact(self.width)) {
                    let w = law.sample(&mut rng);
                    if w != 0.0 {
                        total += w;
                        sums.iter_mut().zip(v).for_each(|(s, &x)| *s += w * x);
                    }
                }
                drawn[0] = total;
            }
        })
    }

    /// Per round of the sign-flip test, in round order: Σ s·col for each column, s = ±1 a fair
    /// sign per unit (drawn per row as 2·Binomial(count, 1/2) − count); rows of `width`.
    pub fn sign_flip_sums(&self, rounds: usize, key: [u8; 32]) -> Vec<f64> {
        let w = self.width;
        // The rows with a non-zero value, and each one's law of unflipped units.
        let moving: Vec<(&[f64], u64, Option<Binomial>)> = self
            .rows()
            .filter(|(v, _)| v.iter().any(|&x| x != 0.0))
            .map(|(v, c)| {
                let law = (c > BITS_UP_TO).then(|| Binomial::new(c, 0.5).expect("p = 1/2"));
                (v, c, law)
            })
            .collect();
        by_chunks(rounds, w, key, |mut rng, chunk| {
            for sums in chunk.chunks_exact_mut(w) {
                for (v, count, law) in &moving {
                    let kept = match law {
                        Some(b) => b.sample(&mut rng),
                        None => fair_bits(&mut rng, *count),
                    };
                    let m = 2.0 * kept as f64 - *count as f64;
                    if m != 0.0 {
                        sums.iter_mut().zip(*v).for_each(|(s, &x)| *s += m * x);
                    }
                }
            }
        })
    }
}

/// Up to this many units, Binomial(count, 1/2) is counted as set bits of the stream: 16 words
/// cost about one BTPE draw (docs/speed.md "Binned resampling").
pub const BITS_UP_TO: u64 = 1024;

/// The number of set bits among the next `count` bits of the stream: ⌈count/64⌉ words, the last
/// one's low `count mod 64` bits (all 64 when a multiple): Binomial(count, 1/2).
fn fair_bits(rng: &mut impl RngCore, count: u64) -> u64 {
    let mut set = 0;
    let mut left = count;
    while left > 0 {
        let take = left.min(64);
        set += u64::from((rng.next_u64() & (u64::MAX >> (64 - take))).count_ones());
        left -= take;
    }
    set
}

/// The distinct rows (in order of first appearance, `cols.len()` values each) and their counts,
/// or `None` past `max` of them: an open-addressing table keyed by the rows' bits.
fn distinct(cols: &[&[f64]], max: usize) -> Option<(Vec<f64>, Vec<u64>)> {
    let (n, width) = (cols[0].len(), cols.len());
    let bits = (2 * max + 1).next_power_of_two().trailing_zeros();
    let mask = (1usize << bits) - 1;
    const EMPTY: u32 = u32::MAX;
    let mut slots = vec![EMPTY; mask + 1];
    let (mut rows, mut counts): (Vec<f64>, Vec<u64>) = (Vec::new(), Vec::new());
    let mut row = vec![0.0; width];
    for i in 0..n {
        let mut h: u64 = 0x243f_6a88_85a3_08d3;
        for (slot, col) in row.iter_mut().zip(cols) {
            *slot = col[i];
            h = (h ^ col[i].to_bits()).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            h ^= h >> 29;
        }
        let mut at = (h >> (64 - bits)) as usize & mask;
        loop {
            let k = slots[at];
            if k == EMPTY {
                if counts.len() == max {
                    return None;
                }
                slots[at] = counts.len() as u32;
                rows.extend_from_slice(&row);
                counts.push(1);
                break;
            }
            let k = k as usize;
            let same = rows[k * width..(k + 1) * width]
                .iter()
                .zip(&row)
                .all(|(a, b)| a.to_bits() == b.to_bits());
            if same {
                counts[k] += 1;
                break;
            }
            at = (at + 1) & mask;
        }
    }
    Some((rows, counts))
}

#[cfg(test)]
pub(crate) mod tests;
