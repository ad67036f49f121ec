//! The paired bootstrap of a difference of quantiles, q(candidate) − q(baseline), for
//! `statistic = "median" | "p95"` (Efron & Tibshirani 1993, ch. 6; the mean goes through the
//! faster `bootstrap` engine).
//!
//! Paired resampling: a resample draws units (queries, or whole groups) with replacement and
//! takes both sides of every drawn query, so the pairing survives. Generator layout as in
//! `bootstrap`: chunks of `CHUNK` resamples, chunk c on ChaCha8 stream c of the caller's key,
//! indices by `bounded`; results do not depend on the thread count.
//!
//! Cost: O(B · n): each resample counts the ranks it draws over the sorted distinct values of
//! both sides (`order_counts`) and walks the counts to its two quantiles, the numbers selection
//! would give, without sorting or copying values; one pair of counts per chunk.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::bootstrap::{bounded, CHUNK};
use super::order_counts::{Counts, Ranks};
use super::quantile::quantile_unsorted;

/// Per-query values of both sides and the resampling units (each a list of query indices).
#[derive(Debug, Clone, Copy)]
pub struct PairedSample<'a> {
    pub base: &'a [f64],
    pub cand: &'a [f64],
    /// One entry per unit: its queries. Query unit: `[[0], [1], …]`.
    pub units: &'a [Vec<u32>],
}

impl PairedSample<'_> {
    /// q(candidate) − q(baseline) on the observed data.
    pub fn quantile_diff(&self, p: f64) -> f64 {
        quantile_unsorted(&mut self.cand.to_vec(), p)
            - quantile_unsorted(&mut self.base.to_vec(), p)
    }
}

/// The units of the query unit: every query alone.
pub fn singletons(n: usize) -> Vec<Vec<u32>> {
    (0..n as u32).map(|i| vec![i]).collect()
}

/// Members of each group, from the dense group index of every query.
pub fn members(group_of: &[u32], groups: usize) -> Vec<Vec<u32>> {
    let mut m = vec![Vec::new(); groups];
    for (i, &g) in group_of.iter().enumerate() {
        m[g as usize].push(i as u32);
    }
    m
}

/// q(candidate) − q(baseline) of each of `resamples` paired bootstrap resamples, in order.
///
/// Panics if there are no units or more than `u32::MAX`.
pub fn bootstrap_quantile_diffs(
    s: &PairedSample<'_>,
    p: f64,
    resamples: usize,
    key: [u8; 32],
) -> Vec<f64> {
    let g = s.units.len();
    assert!(
        g > 0 && g <= u32::MAX as usize,
        "bootstrap needs 1..=u32::MAX units, got {g}"
    );
    let ranks = Ranks::new(s.base, s.cand);
    let d = ranks.values.len();
    let mut out = vec![0.0; resamples];
    out.par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(c, chunk)| {
            let mut rng = ChaCha8Rng::from_seed(key);
            rng.set_stream(c as u64);
            let (mut b, mut k) = (Counts::new(d), Counts::new(d));
            for slot in chunk.iter_mut() {
                for _ in 0..g {
                    for &i in &s.units[bounded(&mut rng, g as u32) as usize] {
                        let [rb, rc] = ranks.ranks[i as usize];
                        b.add(rb);
                        k.add(rc);
                    }
                }
                *slot = k.quantile(&ranks.values, p) - b.quantile(&ranks.values, p);
                b.clear();
                k.clear();
            }
        });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::streams::stream_key;

    #[test]
    fn constant_shift_gives_a_point_and_thread_count_does_not_matter() {
        let base: Vec<f64> = (0..200).map(|i| f64::from(i % 37)).collect();
        let cand: Vec<f64> = base.iter().map(|b| b + 2.5).collect();
        let group_of: Vec<u32> = (0..200).map(|i| i / 4).collect();
        let units = members(&group_of, 50);
        let s = PairedSample {
            base: &base,
            cand: &cand,
            units: &units,
        };
        let key = stream_key(9, &["p95"]);
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let a = one.install(|| bootstrap_quantile_diffs(&s, 0.95, 700, key));
        let b = bootstrap_quantile_diffs(&s, 0.95, 700, key);
        assert_eq!(a, b);
        assert!(a.iter().all(|&v| (v - 2.5).abs() < 1e-12));
        assert!((s.quantile_diff(0.95) - 2.5).abs() < 1e-12);
    }
}
