//! Reproducible random streams. Every purpose and slice (and metric, where a metric draws alone)
//! gets its own ChaCha8 key derived from the configured seed and its labels, so adding a slice
//! never changes another's numbers (metrics sharing a slice's key each sum their own values over
//! the same draws, so adding a metric changes no other either); within a key, ChaCha's 64-bit stream id numbers the resampling chunks, so results do
//! not depend on the thread count.
//!
//! Derivation (fixed; changing it changes every report): h = FNV-1a-64 over the labels, each
//! followed by a 0xFF byte; the 32-byte key is four successive SplitMix64 outputs (Steele, Lea &
//! Flood 2014) from the state seed ⊕ rotl(h, 29) ⊕ h·φ.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// Resamples per generator stream.
pub const CHUNK: usize = 256;

/// The generator of chunk c under `key`: ChaCha8 with stream id c.
pub fn chunk_rng(key: [u8; 32], c: usize) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::from_seed(key);
    rng.set_stream(c as u64);
    rng
}

/// `resamples` rows of `width` numbers, filled chunk by chunk in parallel: `fill` gets chunk c's
/// generator (`chunk_rng(key, c)`) and that chunk's rows (`CHUNK` resamples, fewer in the last).
pub fn by_chunks(
    resamples: usize,
    width: usize,
    key: [u8; 32],
    fill: impl Fn(ChaCha8Rng, &mut [f64]) + Sync,
) -> Vec<f64> {
    let mut out = vec![0.0; resamples * width];
    out.par_chunks_mut(CHUNK * width)
        .enumerate()
        .for_each(|(c, rows)| fill(chunk_rng(key, c), rows));
    out
}

/// The ChaCha key for `labels` under `seed`.
pub fn stream_key(seed: u64, labels: &[&str]) -> [u8; 32] {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for label in labels {
        for &b in label.as_bytes().iter().chain(std::iter::once(&0xFFu8)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    let mut state = seed ^ h.rotate_left(29) ^ h.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut key = [0u8; 32];
    for word in key.chunks_exact_mut(8) {
        word.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
    }
    key
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A thread pool of `threads` threads, for the tests that hold a result equal whatever the
/// thread count.
#[cfg(test)]
pub(crate) fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_reference_values() {
        // Reference outputs of SplitMix64 from state 0 (Vigna's splitmix64.c).
        let mut s = 0u64;
        assert_eq!(splitmix64(&mut s), 0xe220_a839_7b1d_cdaf);
        assert_eq!(splitmix64(&mut s), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn keys_differ_by_seed_and_label_and_are_stable() {
        let a = stream_key(17, &["bootstrap", "ndcg@10", "all"]);
        assert_eq!(a, stream_key(17, &["bootstrap", "ndcg@10", "all"]));
        assert_ne!(a, stream_key(18, &["bootstrap", "ndcg@10", "all"]));
        assert_ne!(a, stream_key(17, &["bootstrap", "ndcg@10", "lang=ko"]));
        // Label boundaries matter: ("ab","c") is not ("a","bc").
        assert_ne!(stream_key(1, &["ab", "c"]), stream_key(1, &["a", "bc"]));
    }
}
