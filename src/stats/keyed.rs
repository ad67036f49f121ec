//! Keyed bootstrap weights and sign flips: a unit's weight in resample b comes from the seed and
//! the unit's id, never from its position, so any split of the data gives the same resample sums
//! (the multiplier bootstrap of Præstgaard & Wellner 1993, Ann. Probab. 21:2053, with i.i.d.
//! weights of mean 1 and variance 1; as in the Poisson bootstrap of Hanley & MacGibbon 2006 and
//! Chamandy, Muralidharan, Najmi & Naidu 2012, "Estimating uncertainty for massive data
//! streams", where each record's weights are keyed by a hash of its id so that sharded
//! computations agree). The sign-flip test (Fisher 1935) draws its signs the same way.
//!
//! Derivation (fixed; part of every keyed report): the unit's id is hashed to 64 bits (`unit_hash`:
//! FNV-1a-64, then the SplitMix64 finaliser); ChaCha8 under the key `stream_key(seed,
//! ["keyed-bootstrap"])` with that hash as its 64-bit stream id, from word 0, gives the unit's
//! weight bytes: resample b reads nibble b (byte b / 2, the low nibble for even b, the high one
//! for odd b), and a nibble v gives w = [v ≥ 6] + [v ≥ 12] + [v ≥ 14], so P(w = 0, 1, 2, 3) =
//! (6, 6, 2, 2)/16: mean 1 and variance 1 exactly (third central moment 0.75; Poisson(1): 1).
//! Signs: the same under `stream_key(seed, ["keyed-signflip"])`, resample b reading bit b mod 8 of
//! byte b / 8, 1 for +1 and 0 for −1. More resamples extend a unit's weights (the first B are
//! the same whatever B).
//!
//! Exact sums: each value is rounded once to the grid 2^-32 (`fixed`, error at most 2^-33, for
//! values bounded to [−1, 1]), and every sum is an integer sum, so no order of adding (threads,
//! shards, merges) changes a bit.
//!
//! The inner loops have AVX2 builds (integer sums: the same numbers on every machine).
//!
//! Pure: ids and integers in, integers out.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::streams::stream_key;

/// The fixed-point grid: values are multiples of 2^-SCALE_BITS.
pub const SCALE_BITS: i32 = 32;

/// `x` on the grid, as an integer count of 2^-32 (round half away from zero).
pub fn fixed(x: f64) -> i64 {
    (x * 2f64.powi(SCALE_BITS)).round() as i64
}

/// A grid sum back to a number (one rounding, in the conversion).
pub fn unfixed(sum: i128) -> f64 {
    sum as f64 * 2f64.powi(-SCALE_BITS)
}

/// A sum of squares of grid values back to a number (the grid 2^-64).
pub fn unfixed_sq(sum: i128) -> f64 {
    sum as f64 * 2f64.powi(-2 * SCALE_BITS)
}

/// The weight of nibble `v` (0..16).
#[inline(always)]
pub fn weight(v: u8) -> u8 {
    u8::from(v >= 6) + u8::from(v >= 12) + u8::from(v >= 14)
}

/// A unit id's 64-bit stream id.
pub fn unit_hash(id: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in id.as_bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// The two generators' keys under a seed.
#[derive(Debug, Clone, Copy)]
pub struct Keys {
    weights: [u8; 32],
    signs: [u8; 32],
}

impl Keys {
    pub fn new(seed: u64) -> Keys {
        Keys {
            weights: stream_key(seed, &["keyed-bootstrap"]),
            signs: stream_key(seed, &["keyed-signflip"]),
        }
    }
}

/// One unit's weights and signs for resamples 0..B (buffers reused from unit to unit).
#[derive(Debug, Clone)]
pub struct Draws {
    pub weights: Vec<u8>,
    pub signs: Vec<i8>,
    raw: Vec<u8>,
}

impl Draws {
    pub fn new(resamples: usize) -> Draws {
        Draws {
            weights: vec![0; resamples],
            signs: vec![0; resamples],
            raw: vec![0; resamples.div_ceil(2)],
        }
    }

    /// Draws the unit `hash`'s weights and signs.
    pub fn draw(&mut self, keys: &Keys, hash: u64) {
        let b = self.weights.len();
        let mut rng = ChaCha8Rng::from_seed(keys.weights);
        rng.set_stream(hash);
        rng.fill_bytes(&mut self.raw[..b.div_ceil(2)]);
        for (pair, bytes) in self.weights.chunks_mut(2).zip(&self.raw) {
            pair[0] = weight(bytes & 0x0f);
            if let Some(w) = pair.get_mut(1) {
                *w = weight(bytes >> 4);
            }
        }
        let mut rng = ChaCha8Rng::from_seed(keys.signs);
        rng.set_stream(hash);
        let bits = &mut self.raw[..b.div_ceil(8)];
        rng.fill_bytes(bits);
        for (eight, byte) in self.signs.chunks_mut(8).zip(bits.iter()) {
            for (j, s) in eight.iter_mut().enumerate() {
                *s = if byte >> j & 1 == 1 { 1 } else { -1 };
            }
        }
    }
}

/// `acc[b] += w[b] · q` for every resample b (integers: the AVX2 build of the same loop gives the
/// same sums).
pub fn add_weighted(acc: &mut [i64], w: &[u8], q: i64) {
    #[cfg(target_arch = "x86_64")]
    if super::simd::available() {
        // SAFETY: `simd::available` said the CPU has AVX2.
        return unsafe { add_weighted_avx2(acc, w, q) };
    }
    add_weighted_portable(acc, w, q)
}

#[inline(always)]
fn add_weighted_portable(acc: &mut [i64], w: &[u8], q: i64) {
    for (a, &w) in acc.iter_mut().zip(w) {
        *a += i64::from(w) * q;
    }
}

/// `add_weighted_portable` compiled for AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn add_weighted_avx2(acc: &mut [i64], w: &[u8], q: i64) {
    add_weighted_portable(acc, w, q)
}

/// `acc[b] += s[b] · q` for every resample b.
pub fn add_signed(acc: &mut [i64], s: &[i8], q: i64) {
    #[cfg(target_arch = "x86_64")]
    if super::simd::available() {
        // SAFETY: `simd::available` said the CPU has AVX2.
        return unsafe { add_signed_avx2(acc, s, q) };
    }
    add_signed_portable(acc, s, q)
}

#[inline(always)]
fn add_signed_portable(acc: &mut [i64], s: &[i8], q: i64) {
    for (a, &s) in acc.iter_mut().zip(s) {
        *a += i64::from(s) * q;
    }
}

/// `add_signed_portable` compiled for AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn add_signed_avx2(acc: &mut [i64], s: &[i8], q: i64) {
    add_signed_portable(acc, s, q)
}

/// The two-sided Monte-Carlo sign-flip p-value of an observed grid sum `observed` from the
/// resamples' signed sums: (1 + #{|T_b| ≥ |T|}) / (B + 1) (Phipson & Smyth 2010), compared in
/// integers.
pub fn p_value(observed: i128, signed: &[i64]) -> f64 {
    let t = observed.unsigned_abs();
    let extreme = signed
        .iter()
        .filter(|&&s| i128::from(s).unsigned_abs() >= t)
        .count();
    (1 + extreme) as f64 / (signed.len() + 1) as f64
}

/// The smallest p-value `p_value` can give with `nonzero` units that move under a swap among
/// `resamples` flips: 2^(1 − nonzero) (every unit's sign), at least 1 / (B + 1).
pub fn p_floor(nonzero: usize, resamples: usize) -> f64 {
    let exact = if nonzero == 0 {
        1.0
    } else {
        2f64.powi(1 - nonzero.min(1100) as i32)
    };
    exact.max(1.0 / (resamples as f64 + 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_have_mean_one_and_variance_one() {
        let freq = (0..16u8).fold([0u32; 4], |mut f, v| {
            f[weight(v) as usize] += 1;
            f
        });
        assert_eq!(freq, [6, 6, 2, 2]);
        let m1: u32 = (0..16u8).map(|v| u32::from(weight(v))).sum();
        let m2: u32 = (0..16u8).map(|v| u32::from(weight(v)).pow(2)).sum();
        assert_eq!((m1, m2), (16, 32)); // E w = 1, E w² = 2
    }

    #[test]
    fn a_units_draws_depend_on_its_id_only_and_extend_with_more_resamples() {
        let keys = Keys::new(17);
        let (mut a, mut b) = (Draws::new(1001), Draws::new(64));
        a.draw(&keys, unit_hash("q1"));
        b.draw(&keys, unit_hash("q1"));
        assert_eq!(a.weights[..64], b.weights[..]);
        assert_eq!(a.signs[..64], b.signs[..]);
        let mut c = Draws::new(1001);
        c.draw(&keys, unit_hash("q2"));
        assert_ne!(a.weights, c.weights);
        c.draw(&Keys::new(18), unit_hash("q1"));
        assert_ne!(a.weights, c.weights);
    }

    #[test]
    fn weights_follow_the_documented_stream() {
        // Nibble b of ChaCha8 stream `hash` under the documented key, written out directly.
        let keys = Keys::new(5);
        let mut d = Draws::new(33);
        let h = unit_hash("conv-7");
        d.draw(&keys, h);
        let mut rng = ChaCha8Rng::from_seed(stream_key(5, &["keyed-bootstrap"]));
        rng.set_stream(h);
        let mut raw = [0u8; 17];
        rng.fill_bytes(&mut raw);
        for b in 0..33 {
            let v = if b % 2 == 0 {
                raw[b / 2] & 15
            } else {
                raw[b / 2] >> 4
            };
            assert_eq!(d.weights[b], weight(v), "resample {b}");
        }
        assert!(d.signs.iter().all(|&s| s == 1 || s == -1));
    }

    #[test]
    fn sums_do_not_depend_on_the_split_or_the_order() {
        let ids: Vec<String> = (0..500).map(|i| format!("q{i}")).collect();
        let vals: Vec<i64> = (0..500)
            .map(|i| fixed(((i * 37) % 101) as f64 / 101.0 - 0.3))
            .collect();
        let keys = Keys::new(9);
        let sums = |order: &mut dyn Iterator<Item = usize>| {
            let mut acc = vec![0i64; 300];
            let mut d = Draws::new(300);
            for i in order {
                d.draw(&keys, unit_hash(&ids[i]));
                add_weighted(&mut acc, &d.weights, vals[i]);
            }
            acc
        };
        let whole = sums(&mut (0..500));
        let backwards = sums(&mut (0..500).rev());
        let (a, b) = (
            sums(&mut (0..500).step_by(2)),
            sums(&mut (1..500).step_by(2)),
        );
        let halves: Vec<i64> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
        assert_eq!(whole, backwards);
        assert_eq!(whole, halves);
    }

    #[test]
    fn the_variance_of_the_resampled_mean_is_the_plug_in_one() {
        // Known answer: with i.i.d. weights of mean 1 and variance 1 the resampling variance of
        // Σwx/Σw is σ̂²/n to first order.
        let n = 4000;
        let x: Vec<f64> = (0..n)
            .map(|i| ((i * 7919) % 1000) as f64 / 1000.0)
            .collect();
        let (b, keys) = (3000, Keys::new(3));
        let (mut s, mut w) = (vec![0i64; b], vec![0i64; b]);
        let mut d = Draws::new(b);
        for (i, &v) in x.iter().enumerate() {
            d.draw(&keys, unit_hash(&format!("u{i}")));
            add_weighted(&mut s, &d.weights, fixed(v));
            add_weighted(&mut w, &d.weights, 1);
        }
        let means: Vec<f64> = s
            .iter()
            .zip(&w)
            .map(|(&s, &w)| unfixed(s.into()) / w as f64)
            .collect();
        let m = x.iter().sum::<f64>() / n as f64;
        let s2 = x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / n as f64;
        let mb = means.iter().sum::<f64>() / b as f64;
        let vb = means.iter().map(|v| (v - mb) * (v - mb)).sum::<f64>() / (b - 1) as f64;
        let ratio = vb / (s2 / n as f64);
        // Relative s.e. of a variance from 3000 draws: √(2/2999) ≈ 2.6%.
        assert!((ratio - 1.0).abs() < 0.1, "ratio {ratio}");
    }

    #[test]
    fn the_avx2_loops_match_the_portable_ones() {
        if !crate::stats::simd::available() {
            return;
        }
        let mut d = Draws::new(1003);
        d.draw(&Keys::new(4), unit_hash("q"));
        for q in [0, 1, -7, fixed(0.731), fixed(-1.0) * 5] {
            let (mut a, mut b) = (vec![3i64; 1003], vec![3i64; 1003]);
            add_weighted_portable(&mut a, &d.weights, q);
            // SAFETY: checked above.
            unsafe { add_weighted_avx2(&mut b, &d.weights, q) };
            assert_eq!(a, b);
            add_signed_portable(&mut a, &d.signs, q);
            // SAFETY: checked above.
            unsafe { add_signed_avx2(&mut b, &d.signs, q) };
            assert_eq!(a, b);
        }
    }

    #[test]
    fn the_sign_flip_p_value_counts_in_integers() {
        assert_eq!(p_value(10, &[10, -10, 9, -11]), 4.0 / 5.0);
        assert_eq!(p_value(0, &[0, 0]), 1.0);
        assert_eq!(p_floor(0, 99), 1.0);
        assert_eq!(p_floor(3, 99), 0.25);
        assert_eq!(p_floor(30, 99), 0.01);
    }
}
