//! The Poisson bootstrap of means from `POISSON_FROM` units up (Hanley & MacGibbon 2006,
//! "Creating non-parametric bootstrap samples using Poisson frequencies", Comput. Methods
//! Programs Biomed. 83:57; Chamandy, Muralidharan, Najmi & Naidu 2012, "Estimating uncertainty
//! for massive data streams", Google): instead of drawing n units with replacement, each unit
//! gets an independent integer weight w with mean 1 and variance 1 (the multinomial counts'
//! first two moments), and a resample's statistic is computed from the weighted sums, its size
//! N* = Σw varying around n. For a mean the two bootstraps agree to first order (the
//! multiplier bootstrap of Præstgaard & Wellner 1993, Ann. Probab. 21:2053, weights with mean 1
//! and variance 1); at 10,000 units and more their intervals differ by less than the
//! Monte-Carlo error of 10,000 resamples (calibration: docs/statistics.md). It reads the units in
//! storage order, so a resample costs one pass over contiguous values and no random gathers.
//!
//! Weights (fixed; part of the report's reproducibility): one byte b of the stream per unit and
//! resample, w = [b ≥ 94] + [b ≥ 188] + [b ≥ 237] + [b ≥ 250] + [b ≥ 255], so P(w = 0..5) =
//! (94, 94, 49, 13, 5, 1)/256: mean 1 and variance 1 exactly, third central moment 1.008
//! (Poisson(1): 1, 1, 1).
//!
//! Stream layout (fixed): resamples are cut into chunks of `CHUNK` (256); chunk c reads ChaCha8
//! stream c of the caller's key with `fill_bytes` (the little-endian bytes of successive 32-bit
//! words). A chunk's resamples form lanes of four (resamples 4g..4g+3 of the chunk, the last
//! lane group padded); units are taken in blocks of `BLOCK`, and for each block, each group g in
//! order reads 4 bytes per unit of the block, unit by unit, byte j being resample 4g + j.
//!
//! Sums: per resample, column and unit i, the product w·x goes to part i mod 4 (a multiply, then
//! an add: never fused), and a column's total is (part0 + part1) + (part2 + part3); Σw is an
//! exact integer. The AVX2 loop keeps the four resamples of a group in a vector's four lanes
//! and does the same operations in the same order, so the numbers are the same bit for bit on
//! every machine (tested against the portable loop).
//!
//! Pure: numbers in, numbers out; O(B · n · columns) multiply-adds, O(B · n) stream bytes.

use rand::RngCore;
use rand_chacha::ChaCha8Rng;

use super::streams::by_chunks;

/// From this many resampling units (queries, or groups) on, means are resampled with Poisson
/// weights instead of drawn indices.
pub const POISSON_FROM: usize = 10_000;
/// Units per block of the stream layout.
pub const BLOCK: usize = 4096;
/// Resamples sharing one pass over a block (a vector's lanes).
const LANES: usize = 4;

/// The weight of stream byte `b`.
#[inline(always)]
pub fn weight(b: u8) -> u8 {
    u8::from(b >= 94)
        + u8::from(b >= 188)
        + u8::from(b >= 237)
        + u8::from(b >= 250)
        + u8::from(b == 255)
}

/// Whether `units` resampling units are resampled with Poisson weights.
pub fn applies(units: usize) -> bool {
    units >= POISSON_FROM
}

/// Per resample, in resample order: Σ w·col for each of `cols` (all of one length), then Σ w;
/// rows of `cols.len() + 1`. Over the distinct rows (`bins`, Poisson(1) weights) when values
/// repeat enough (`bins::worth`), otherwise unit by unit (`unit_sums`).
///
/// Panics if there are no columns or they differ in length.
pub fn poisson_sums(cols: &[&[f64]], resamples: usize, key: [u8; 32]) -> Vec<f64> {
    let binned = cols
        .first()
        .filter(|c| applies(c.len()))
        .and_then(|_| super::bins::worth(cols));
    match binned {
        Some(bins) => bins.poisson_sums(resamples, key),
        None => unit_sums(cols, resamples, key),
    }
}

/// `poisson_sums` unit by unit, with the weights and layout of the module header.
///
/// Panics if there are no columns or they differ in length.
pub fn unit_sums(cols: &[&[f64]], resamples: usize, key: [u8; 32]) -> Vec<f64> {
    assert!(!cols.is_empty(), "no columns to resample");
    let n = cols[0].len();
    assert!(
        cols.iter().all(|c| c.len() == n),
        "columns differ in length"
    );
    let avx2 = super::simd::available();
    by_chunks(resamples, cols.len() + 1, key, |rng, rows| {
        chunk(cols, rng, rows, avx2)
    })
}

/// One chunk's resamples (`rows`: `width` values each).
fn chunk(cols: &[&[f64]], mut rng: ChaCha8Rng, rows: &mut [f64], avx2: bool) {
    let k = cols.len();
    let width = k + 1;
    let resamples = rows.len() / width;
    let groups = resamples.div_ceil(LANES);
    let n = cols[0].len();
    // parts[(g * k + j)][part][lane]; counts[g][lane].
    let mut parts = vec![[[0.0f64; LANES]; 4]; groups * k];
    let mut counts = vec![[0.0f64; LANES]; groups];
    let mut bytes = vec![0u8; LANES * BLOCK.min(n)];
    for start in (0..n).step_by(BLOCK) {
        let len = BLOCK.min(n - start);
        let w = &mut bytes[..LANES * len];
        for g in 0..groups {
            fill_weights(&mut rng, w);
            for (j, col) in cols.iter().enumerate() {
                let x = &col[start..start + len];
                let count = (j == 0).then_some(&mut counts[g]);
                add_column(x, w, &mut parts[g * k + j], count, avx2);
            }
        }
    }
    for (r, row) in rows.chunks_exact_mut(width).enumerate() {
        let (g, lane) = (r / LANES, r % LANES);
        for (j, slot) in row[..k].iter_mut().enumerate() {
            let p = &parts[g * k + j];
            *slot = (p[0][lane] + p[1][lane]) + (p[2][lane] + p[3][lane]);
        }
        row[k] = counts[g][lane];
    }
}

/// Fills `w` with the next `w.len()` weights of the stream (`fill_bytes`, then `weight` on every
/// byte).
pub fn fill_weights(rng: &mut ChaCha8Rng, w: &mut [u8]) {
    rng.fill_bytes(w);
    to_weights(w, super::simd::available());
}

/// Stream bytes to weights, in place (`weight`).
#[inline(always)]
fn to_weights(bytes: &mut [u8], avx2: bool) {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `simd::available` said the CPU has AVX2.
        return unsafe { to_weights_avx2(bytes) };
    }
    let _ = avx2;
    bytes.iter_mut().for_each(|b| *b = weight(*b));
}

/// `to_weights` 32 bytes at a time: each threshold passed adds one (an unsigned b ≥ t is
/// max(b, t) = b).
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn to_weights_avx2(bytes: &mut [u8]) {
    use std::arch::x86_64::*;
    let mut chunks = bytes.chunks_exact_mut(32);
    for c in &mut chunks {
        let p = c.as_mut_ptr() as *mut __m256i;
        let v = _mm256_loadu_si256(p);
        let mut w = _mm256_setzero_si256();
        for t in [94u8, 188, 237, 250, 255] {
            let passed = _mm256_cmpeq_epi8(_mm256_max_epu8(v, _mm256_set1_epi8(t as i8)), v);
            w = _mm256_sub_epi8(w, passed);
        }
        _mm256_storeu_si256(p, w);
    }
    chunks
        .into_remainder()
        .iter_mut()
        .for_each(|b| *b = weight(*b));
}

/// Adds w·x of a block into the parts (unit i to part i mod 4; the block starts at a multiple
/// of 4), `w` holding four lanes' weights per unit; with `count`, also each lane's Σw (exact).
#[inline(always)]
fn add_column(
    x: &[f64],
    w: &[u8],
    acc: &mut [[f64; LANES]; 4],
    count: Option<&mut [f64; LANES]>,
    avx2: bool,
) {
    assert!(w.len() >= LANES * x.len());
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `simd::available` said the CPU has AVX2; `w` holds four bytes per value.
        return unsafe { add_column_avx2(x, w, acc, count) };
    }
    let _ = avx2;
    add_column_portable(x, w, acc, count)
}

/// The portable loop: the reference for the AVX2 one.
fn add_column_portable(
    x: &[f64],
    w: &[u8],
    acc: &mut [[f64; LANES]; 4],
    mut count: Option<&mut [f64; LANES]>,
) {
    for (i, (&v, lanes)) in x.iter().zip(w.chunks_exact(LANES)).enumerate() {
        let part = &mut acc[i % 4];
        for (a, &b) in part.iter_mut().zip(lanes) {
            *a += f64::from(b) * v;
        }
        if let Some(c) = count.as_deref_mut() {
            for (c, &b) in c.iter_mut().zip(lanes) {
                *c += f64::from(b);
            }
        }
    }
}

/// `add_column_portable` with a group's four resamples in one vector.
///
/// # Safety
/// The CPU must support AVX2, and `w` must hold at least `4 * x.len()` bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn add_column_avx2(
    x: &[f64],
    w: &[u8],
    acc: &mut [[f64; LANES]; 4],
    count: Option<&mut [f64; LANES]>,
) {
    use std::arch::x86_64::*;
    let n = x.len();
    let (xp, wp) = (x.as_ptr(), w.as_ptr());
    // The four weight bytes of unit i, widened to four f64 lanes.
    let lanes = |i: usize| {
        let word = std::ptr::read_unaligned(wp.add(LANES * i) as *const i32);
        _mm256_cvtepi32_pd(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(word)))
    };
    let mut a = acc.map(|part| _mm256_loadu_pd(part.as_ptr()));
    let whole = n / 4 * 4;
    match count {
        None => {
            let mut i = 0;
            while i < whole {
                for (u, part) in a.iter_mut().enumerate() {
                    let p = _mm256_mul_pd(lanes(i + u), _mm256_set1_pd(*xp.add(i + u)));
                    *part = _mm256_add_pd(*part, p);
                }
                i += 4;
            }
            for i in whole..n {
                let p = _mm256_mul_pd(lanes(i), _mm256_set1_pd(*xp.add(i)));
                a[i % 4] = _mm256_add_pd(a[i % 4], p);
            }
        }
        Some(c) => {
            // Σw in four exact partial sums (integers: the order does not matter).
            let mut t = [_mm256_setzero_pd(); 4];
            let mut i = 0;
            while i < whole {
                for (u, (part, total)) in a.iter_mut().zip(t.iter_mut()).enumerate() {
                    let l = lanes(i + u);
                    *part = _mm256_add_pd(*part, _mm256_mul_pd(l, _mm256_set1_pd(*xp.add(i + u))));
                    *total = _mm256_add_pd(*total, l);
                }
                i += 4;
            }
            for i in whole..n {
                let l = lanes(i);
                a[i % 4] = _mm256_add_pd(a[i % 4], _mm256_mul_pd(l, _mm256_set1_pd(*xp.add(i))));
                t[i % 4] = _mm256_add_pd(t[i % 4], l);
            }
            let sum = _mm256_add_pd(_mm256_add_pd(t[0], t[1]), _mm256_add_pd(t[2], t[3]));
            _mm256_storeu_pd(
                c.as_mut_ptr(),
                _mm256_add_pd(_mm256_loadu_pd(c.as_ptr()), sum),
            );
        }
    }
    for (part, v) in acc.iter_mut().zip(a) {
        _mm256_storeu_pd(part.as_mut_ptr(), v);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::stats::streams::{chunk_rng, pool, stream_key, CHUNK};
    use rand::SeedableRng;

    #[test]
    fn weights_have_mean_one_and_variance_one() {
        let mut freq = [0u32; 6];
        for b in 0..=255u8 {
            freq[weight(b) as usize] += 1;
        }
        assert_eq!(freq, [94, 94, 49, 13, 5, 1]);
        let m1: u32 = freq.iter().enumerate().map(|(w, f)| w as u32 * f).sum();
        let m2: u32 = freq
            .iter()
            .enumerate()
            .map(|(w, f)| (w * w) as u32 * f)
            .sum();
        assert_eq!((m1, m2), (256, 512)); // E w = 1, E w² = 2
    }

    /// The documented layout, written out directly: the same numbers bit for bit.
    fn by_the_layout(cols: &[&[f64]], resamples: usize, key: [u8; 32]) -> Vec<f64> {
        let n = cols[0].len();
        let k = cols.len();
        let mut out = vec![0.0; resamples * (k + 1)];
        for c in 0..resamples.div_ceil(CHUNK) {
            let mut rng = chunk_rng(key, c);
            let in_chunk = CHUNK.min(resamples - c * CHUNK);
            let groups = in_chunk.div_ceil(4);
            let mut parts = vec![[0.0f64; 4]; in_chunk * k];
            let mut total = vec![0u64; in_chunk];
            for start in (0..n).step_by(BLOCK) {
                let len = BLOCK.min(n - start);
                for g in 0..groups {
                    let mut bytes = vec![0u8; 4 * len];
                    rng.fill_bytes(&mut bytes);
                    for i in 0..len {
                        for j in 0..4 {
                            let r = 4 * g + j;
                            if r >= in_chunk {
                                continue;
                            }
                            let w = weight(bytes[4 * i + j]);
                            total[r] += u64::from(w);
                            for (m, col) in cols.iter().enumerate() {
                                parts[r * k + m][(start + i) % 4] += f64::from(w) * col[start + i];
                            }
                        }
                    }
                }
            }
            for r in 0..in_chunk {
                let row = &mut out[(c * CHUNK + r) * (k + 1)..][..k + 1];
                for m in 0..k {
                    let p = parts[r * k + m];
                    row[m] = (p[0] + p[1]) + (p[2] + p[3]);
                }
                row[k] = total[r] as f64;
            }
        }
        out
    }

    fn data(n: usize, seed: u64) -> Vec<f64> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| (rng.next_u32() % 1000) as f64 / 997.0 - 0.4)
            .collect()
    }

    #[test]
    fn sums_follow_the_documented_layout_bit_for_bit() {
        // n not a multiple of 4 nor of BLOCK; resamples not a multiple of 4 nor of CHUNK.
        let (x, y) = (data(2 * BLOCK + 7, 1), data(2 * BLOCK + 7, 2));
        let key = stream_key(5, &["poisson"]);
        let got = unit_sums(&[&x, &y], 2 * CHUNK + 6, key);
        assert_eq!(got, by_the_layout(&[&x, &y], 2 * CHUNK + 6, key));
    }

    #[test]
    fn same_key_same_bytes_whatever_the_thread_count() {
        let x = data(POISSON_FROM + 1, 6);
        let key = stream_key(17, &["bootstrap", "all"]);
        let one = pool(1).install(|| unit_sums(&[&x], 3 * CHUNK + 1, key));
        let three = pool(3).install(|| unit_sums(&[&x], 3 * CHUNK + 1, key));
        assert_eq!(one, three);
    }

    /// Each resample's weights, unit by unit, read from the stream as the header says.
    pub(crate) fn layout_weights(n: usize, resamples: usize, key: [u8; 32]) -> Vec<Vec<u8>> {
        let mut out = vec![vec![0u8; n]; resamples];
        for c in 0..resamples.div_ceil(CHUNK) {
            let mut rng = chunk_rng(key, c);
            let in_chunk = CHUNK.min(resamples - c * CHUNK);
            for start in (0..n).step_by(BLOCK) {
                let len = BLOCK.min(n - start);
                for g in 0..in_chunk.div_ceil(4) {
                    let mut bytes = vec![0u8; 4 * len];
                    rng.fill_bytes(&mut bytes);
                    for i in 0..len {
                        for j in 0..4 {
                            if 4 * g + j < in_chunk {
                                out[c * CHUNK + 4 * g + j][start + i] = weight(bytes[4 * i + j]);
                            }
                        }
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_avx2_loop_matches_the_portable_one() {
        if !crate::stats::simd::available() {
            return;
        }
        let x = data(1001, 3);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut w = vec![0u8; 4 * 1001];
        rng.fill_bytes(&mut w);
        w.iter_mut().for_each(|b| *b = weight(*b));
        for counted in [false, true] {
            let (mut a, mut b) = ([[0.25f64; 4]; 4], [[0.25f64; 4]; 4]);
            let (mut ca, mut cb) = ([1.0f64; 4], [1.0f64; 4]);
            add_column_portable(&x, &w, &mut a, counted.then_some(&mut ca));
            // SAFETY: checked above; `w` has four bytes per value.
            unsafe { add_column_avx2(&x, &w, &mut b, counted.then_some(&mut cb)) };
            assert_eq!((a, ca), (b, cb));
        }
        let mut raw = vec![0u8; 100];
        rng.fill_bytes(&mut raw);
        let mut simd = raw.clone();
        // SAFETY: checked above.
        unsafe { to_weights_avx2(&mut simd) };
        assert_eq!(simd, raw.iter().map(|&b| weight(b)).collect::<Vec<_>>());
    }

    #[test]
    fn the_variance_of_the_resampled_mean_is_the_plug_in_one() {
        // Known answer: for a weighted mean with i.i.d. weights of mean 1 and variance 1, the
        // resampling variance of Σwx/Σw is σ̂²/n to first order (σ̂² the plug-in variance).
        let n = 20_000;
        let x = data(n, 4);
        let b = 4000;
        let sums = unit_sums(&[&x], b, stream_key(7, &["poisson-variance"]));
        let means: Vec<f64> = sums.chunks_exact(2).map(|r| r[0] / r[1]).collect();
        let m = x.iter().sum::<f64>() / n as f64;
        let s2 = x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / n as f64;
        let mb = means.iter().sum::<f64>() / b as f64;
        let vb = means.iter().map(|v| (v - mb) * (v - mb)).sum::<f64>() / (b - 1) as f64;
        let ratio = vb / (s2 / n as f64);
        // The variance of a variance estimate from 4000 draws: relative s.e. √(2/3999) ≈ 2.2%.
        assert!((ratio - 1.0).abs() < 0.09, "ratio {ratio}");
        assert!(
            (mb - m).abs() < 4.0 * (s2 / n as f64 / b as f64).sqrt(),
            "{mb} vs {m}"
        );
    }
}
