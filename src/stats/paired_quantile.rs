//! The paired bootstrap of a difference of quantiles, q(candidate) − q(baseline), for
//! `statistic = "median" | "p95"` (Efron & Tibshirani 1993, ch. 6; the mean goes through the
//! faster `bootstrap` engine).
//!
//! Paired resampling: a resample draws units (queries, or whole groups) with replacement and
//! takes both sides of every drawn query, so the pairing survives. Generator layout as in
//! `bootstrap`: chunks of `CHUNK` resamples, chunk c on ChaCha8 stream c of the caller's key,
//! indices by `bounded`; results do not depend on the thread count.
//!
//! Cost: O(B · n): each resample counts the ranks it draws in a window of ranks around each
//! side's quantile (`quantile_window`, small enough for L1) and walks the window to its two
//! quantiles, the numbers selection would give, without sorting or copying values; the indices
//! come a batch at a time (`BoundedIndices`, the same numbers as `bounded`). A chunk with a
//! resample whose quantile falls outside a window (rare: see `quantile_window`) is redone with
//! full counts over every rank (`order_counts`), so the window never changes a number.
//!
//! From `poisson::POISSON_FROM` units the resamples are Poisson ones (`poisson`): each unit
//! counts its weight times, in the same windows (and the same full-count fallback). Layout: chunk
//! c on ChaCha8 stream c of the key; each resample of the chunk, in order, reads ⌈G/4⌉·4 weight
//! bytes (`poisson::fill_weights`), unit u's weight the u-th; a resample of weight zero (no unit
//! counted; never seen at 10,000 units, where its chance is 0.37^10000) is the observed
//! difference.

use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::bootstrap::{bounded, chunk_rng, BoundedIndices, CHUNK};
use super::order_counts::{Counts, Ranks};
use super::poisson;
use super::quantile::quantile_unsorted;
use super::quantile_window::Coded;

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

/// The paired sample of a candidate with several runs on the baseline's queries, for the
/// bootstrap of a stacked quantile: the candidate's runs one after the other (`r·n + i` is
/// query i's value in run r), the baseline's values repeated once per run to match, and each
/// unit holding its queries in every run (a resample draws a query with all its runs). The
/// baseline's type 7 quantile on k copies of its values differs from one copy's only in where
/// it interpolates between the same two neighbouring order statistics.
pub fn stacked(
    base: &[f64],
    runs: &[Vec<f64>],
    units: &[Vec<u32>],
) -> (Vec<f64>, Vec<f64>, Vec<Vec<u32>>) {
    let (n, k) = (base.len() as u32, runs.len() as u32);
    let base_k: Vec<f64> = (0..k).flat_map(|_| base.iter().copied()).collect();
    let cand_k: Vec<f64> = runs.iter().flatten().copied().collect();
    let units_k = units
        .iter()
        .map(|m| {
            (0..k)
                .flat_map(|r| m.iter().map(move |&i| r * n + i))
                .collect()
        })
        .collect();
    (base_k, cand_k, units_k)
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
    let coded = Coded::for_bootstrap(&ranks, s.units, p);
    if !poisson::applies(g) {
        return resample_diffs(s, &ranks, &coded, p, resamples, key);
    }
    let observed = s.quantile_diff(p);
    by_chunks(
        resamples,
        key,
        |rng, chunk| poisson_windowed(&coded, p, rng, chunk, observed),
        |rng, chunk| poisson_full(s, &ranks, p, rng, chunk, observed),
    )
}

/// `resamples` resamples, chunk c from ChaCha8 stream c of `key`: by `windowed`, or where it
/// gives up (a quantile outside its window) by `full` from the start of the chunk's stream.
fn by_chunks(
    resamples: usize,
    key: [u8; 32],
    windowed: impl Fn(ChaCha8Rng, &mut [f64]) -> bool + Sync,
    full: impl Fn(ChaCha8Rng, &mut [f64]) + Sync,
) -> Vec<f64> {
    let mut out = vec![0.0; resamples];
    out.par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(c, chunk)| {
            if !windowed(chunk_rng(key, c), chunk) {
                full(chunk_rng(key, c), chunk);
            }
        });
    out
}

/// One chunk's Poisson resamples from windowed counts; false when a quantile falls outside its
/// window. A unit of weight w is counted as w draws of it (`run`), so the windowed counts are
/// those of the drawn-index path.
fn poisson_windowed(
    coded: &Coded,
    p: f64,
    mut rng: ChaCha8Rng,
    chunk: &mut [f64],
    observed: f64,
) -> bool {
    let g = coded.units();
    let mut w = vec![0u8; g.next_multiple_of(4)];
    // Every unit repeated by its weight (at most 5), with room for branch-free writes.
    let mut run = vec![0u32; 5 * g + 5];
    let mut counts = coded.counts();
    for slot in chunk.iter_mut() {
        poisson::fill_weights(&mut rng, &mut w);
        let mut len = 0;
        for (u, &times) in w[..g].iter().enumerate() {
            run[len..len + 5].fill(u as u32);
            len += usize::from(times);
        }
        let total = coded.add_units(&run[..len], &mut counts);
        if total == 0 {
            *slot = observed;
            continue;
        }
        match read_diff(coded, &counts, total, p) {
            Some(d) => *slot = d,
            None => return false,
        }
        counts.fill(0);
    }
    true
}

/// q(candidate) − q(baseline) of `total` values counted in `counts` (`Coded::counts`), or None
/// when a quantile lies outside its window.
fn read_diff(coded: &Coded, counts: &[u32], total: usize, p: f64) -> Option<f64> {
    let [wb, wc] = &coded.windows;
    let (b, c) = counts.split_at(coded.split());
    Some(wc.quantile(c, total, p)? - wb.quantile(b, total, p)?)
}

/// One chunk's Poisson resamples from full counts over every rank: the reference the windowed
/// counts equal.
fn poisson_full(
    s: &PairedSample<'_>,
    ranks: &Ranks,
    p: f64,
    mut rng: ChaCha8Rng,
    chunk: &mut [f64],
    observed: f64,
) {
    let d = ranks.values.len();
    let (mut b, mut k) = (Counts::new(d), Counts::new(d));
    let mut w = vec![0u8; s.units.len().next_multiple_of(4)];
    for slot in chunk.iter_mut() {
        poisson::fill_weights(&mut rng, &mut w);
        for (unit, &times) in s.units.iter().zip(&w) {
            for &i in unit {
                let [rb, rc] = ranks.ranks[i as usize];
                b.add_times(rb, u32::from(times));
                k.add_times(rc, u32::from(times));
            }
        }
        *slot = if b.is_empty() {
            observed
        } else {
            k.quantile(&ranks.values, p) - b.quantile(&ranks.values, p)
        };
        b.clear();
        k.clear();
    }
}

/// The resamples of `bootstrap_quantile_diffs` from windowed counts in `coded`'s windows, each
/// chunk with a quantile outside them redone with full counts.
fn resample_diffs(
    s: &PairedSample<'_>,
    ranks: &Ranks,
    coded: &Coded,
    p: f64,
    resamples: usize,
    key: [u8; 32],
) -> Vec<f64> {
    by_chunks(
        resamples,
        key,
        |rng, chunk| windowed_chunk(coded, p, rng, chunk),
        |rng, chunk| full_chunk(s, ranks, p, rng, chunk),
    )
}

/// One chunk's resamples from windowed counts; false (the chunk to be redone by `full_chunk`)
/// when a quantile falls outside its window.
fn windowed_chunk(coded: &Coded, p: f64, rng: ChaCha8Rng, chunk: &mut [f64]) -> bool {
    let g = coded.units();
    let mut draw = BoundedIndices::new(rng, g as u32);
    let mut counts = coded.counts();
    for slot in chunk.iter_mut() {
        let (mut done, mut total) = (0, 0);
        while done < g {
            let run = draw.take(g - done);
            total += coded.add_units(run, &mut counts);
            done += run.len();
        }
        match read_diff(coded, &counts, total, p) {
            Some(d) => *slot = d,
            None => return false,
        }
        counts.fill(0);
    }
    true
}

/// One chunk's resamples from full counts over every rank (`order_counts`), one `bounded` draw
/// at a time: the reference the windowed counts equal.
fn full_chunk(s: &PairedSample<'_>, ranks: &Ranks, p: f64, mut rng: ChaCha8Rng, chunk: &mut [f64]) {
    let g = s.units.len();
    let d = ranks.values.len();
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
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::stats::streams::stream_key;

    /// Skewed values with ties, and two unit layouts: queries, and groups of 1 to 9.
    pub(crate) fn skewed(n: usize) -> (Vec<f64>, Vec<f64>, Vec<Vec<u32>>) {
        let base: Vec<f64> = (0..n)
            .map(|i| ((i * 7919 % 1009) as f64 / 1009.0).powi(3))
            .collect();
        let cand: Vec<f64> = base
            .iter()
            .enumerate()
            .map(|(i, b)| ((b + (i % 13) as f64 * 0.01) * 1e3).round() / 1e3)
            .collect();
        let mut group_of = Vec::new();
        let mut g = 0;
        while group_of.len() < n {
            for _ in 0..(1 + g % 9).min(n - group_of.len()) {
                group_of.push(g as u32);
            }
            g += 1;
        }
        (base, cand, members(&group_of, g))
    }

    #[test]
    fn windowed_counts_give_the_full_counts_numbers() {
        let (base, cand, groups) = skewed(3000);
        let queries = singletons(3000);
        for units in [&queries, &groups] {
            let s = PairedSample {
                base: &base,
                cand: &cand,
                units,
            };
            for p in [0.5, 0.95] {
                let key = stream_key(4, &["windowed"]);
                let fast = bootstrap_quantile_diffs(&s, p, 600, key);
                let ranks = Ranks::new(&base, &cand);
                let mut full = vec![0.0; 600];
                for (c, chunk) in full.chunks_mut(CHUNK).enumerate() {
                    full_chunk(&s, &ranks, p, chunk_rng(key, c), chunk);
                }
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&fast), bits(&full), "p = {p}");
            }
        }
    }

    #[test]
    fn poisson_windowed_counts_give_the_full_counts_numbers() {
        let n = poisson::POISSON_FROM + 3;
        let (base, cand, _) = skewed(n);
        let queries = singletons(n);
        // Groups: 10,000 of them, sizes 1 to 3 (the Poisson path counts units, not queries).
        let group_of: Vec<u32> = (0..3 * poisson::POISSON_FROM)
            .map(|i| (i / 3 + i % 2) as u32)
            .map(|g| g.min(poisson::POISSON_FROM as u32 - 1))
            .collect();
        let (gb, gc, _) = skewed(group_of.len());
        let groups = members(&group_of, poisson::POISSON_FROM);
        for (b, c, units) in [(&base, &cand, &queries), (&gb, &gc, &groups)] {
            let s = PairedSample {
                base: b,
                cand: c,
                units,
            };
            for p in [0.5, 0.95] {
                let key = stream_key(6, &["poisson-windowed"]);
                let fast = bootstrap_quantile_diffs(&s, p, CHUNK + 10, key);
                let ranks = Ranks::new(b, c);
                let mut full = vec![0.0; CHUNK + 10];
                for (k, chunk) in full.chunks_mut(CHUNK).enumerate() {
                    poisson_full(&s, &ranks, p, chunk_rng(key, k), chunk, 0.0);
                }
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&fast), bits(&full), "p = {p}");
            }
        }
    }

    #[test]
    fn poisson_and_drawn_resamples_spread_alike() {
        // The same data just above and at the threshold: the resampled medians' spread agrees
        // within Monte-Carlo error (400 resamples: a standard deviation's relative s.e. is
        // about 3.5%).
        let n = poisson::POISSON_FROM;
        let (base, cand, _) = skewed(n);
        let sd = |v: &[f64]| {
            let m = v.iter().sum::<f64>() / v.len() as f64;
            (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (v.len() - 1) as f64).sqrt()
        };
        let units = singletons(n);
        let s = PairedSample {
            base: &base,
            cand: &cand,
            units: &units,
        };
        let ranks = Ranks::new(&base, &cand);
        let coded = Coded::for_bootstrap(&ranks, &units, 0.5);
        let key = stream_key(8, &["poisson-spread"]);
        let drawn = resample_diffs(&s, &ranks, &coded, 0.5, 400, key);
        let weighted = bootstrap_quantile_diffs(&s, 0.5, 400, key);
        let ratio = sd(&weighted) / sd(&drawn);
        assert!((ratio - 1.0).abs() < 0.15, "ratio {ratio}");
    }

    #[test]
    fn a_quantile_outside_its_window_is_redone_with_full_counts() {
        // Three units, one holding most values: resamples swing far beyond any window.
        let base: Vec<f64> = (0..40).map(f64::from).collect();
        let cand: Vec<f64> = base.iter().map(|b| b * 2.0).collect();
        let units = vec![
            (0..30).collect::<Vec<u32>>(),
            (30..35).collect(),
            (35..40).collect(),
        ];
        let s = PairedSample {
            base: &base,
            cand: &cand,
            units: &units,
        };
        let key = stream_key(5, &["outside"]);
        let ranks = Ranks::new(&base, &cand);
        let wide = Coded::for_bootstrap(&ranks, &units, 0.5);
        let coded = Coded::with_windows(&ranks, &units, wide.windows.map(|w| w.narrowed(1)));
        let mut chunk = vec![0.0; CHUNK];
        assert!(!windowed_chunk(&coded, 0.5, chunk_rng(key, 0), &mut chunk));
        let mut full = vec![0.0; 2 * CHUNK];
        for (c, part) in full.chunks_mut(CHUNK).enumerate() {
            full_chunk(&s, &ranks, 0.5, chunk_rng(key, c), part);
        }
        assert_eq!(
            resample_diffs(&s, &ranks, &coded, 0.5, 2 * CHUNK, key),
            full
        );
        assert_eq!(bootstrap_quantile_diffs(&s, 0.5, 2 * CHUNK, key), full);
    }

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
        let one = crate::stats::streams::pool(1);
        let a = one.install(|| bootstrap_quantile_diffs(&s, 0.95, 700, key));
        let b = bootstrap_quantile_diffs(&s, 0.95, 700, key);
        assert_eq!(a, b);
        assert!(a.iter().all(|&v| (v - 2.5).abs() < 1e-12));
        assert!((s.quantile_diff(0.95) - 2.5).abs() < 1e-12);
    }
}
