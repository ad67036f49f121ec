//! The AVX2 form of `bootstrap::indices`' cut: the same pieces, tested and kept the same way, so
//! the same indices in the same order, four pieces a vector instead of one at a time.
//!
//! A batch's 32 words go four at a time (one 256-bit load). The 4·⌊64/K⌋ pieces of four words fill
//! ⌊64/K⌋ vectors of four 64-bit lanes in stream order (piece i of the four words is piece i mod
//! ⌊64/K⌋ of word ⌊i / ⌊64/K⌋⌋): each lane picks its word and shifts it right. Each lane then takes
//! Lemire's step, m = piece · n, index = m >> K, kept when m mod 2^K ≥ the threshold; the kept
//! lanes' indices are packed to the front of the vector by a permutation looked up from the
//! 4-bit keep mask, four 32-bit indices are stored at the output's end, and the end moves by the
//! number kept (the stores past it are overwritten by the next vector or never read).

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// For each 4-bit keep mask, the 32-bit lanes (the low halves of the 64-bit lanes) that pack the
/// kept lanes to the front, in order.
#[cfg(target_arch = "x86_64")]
const PACK: [[i32; 8]; 16] = {
    let mut table = [[0i32; 8]; 16];
    let mut mask = 0;
    while mask < 16 {
        let (mut lane, mut out) = (0, 0);
        while lane < 4 {
            if mask & (1 << lane) != 0 {
                table[mask][out] = 2 * lane;
                out += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
};

/// `indices::cut_scalar::<K>` with AVX2 (see the module header): the accepted indices of the
/// words in `bytes` (a multiple of four 64-bit words) to the front of `buf` (room for every
/// piece); returns how many it kept.
///
/// # Safety
/// The CPU must support AVX2 (`simd::available`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn cut<const K: u32>(bytes: &[u8], buf: &mut [u32], n: u64, threshold: u64) -> usize {
    let per_word = (64 / K) as usize;
    assert!(bytes.len().is_multiple_of(32) && buf.len() >= bytes.len() / 8 * per_word);
    let mask = _mm256_set1_epi64x(((1u64 << K) - 1) as i64);
    let nv = _mm256_set1_epi64x(n as i64);
    let shift_k = _mm_cvtsi32_si128(K as i32);
    // m mod 2^K ≥ threshold  ⇔  m mod 2^K > threshold − 1 (signed; both below 2^32).
    let below = _mm256_set1_epi64x(threshold as i64 - 1);
    // Lane l of vector j: piece 4j + l of the four words.
    let mut select = [_mm256_setzero_si256(); 8];
    let mut shifts = [_mm256_setzero_si256(); 8];
    for j in 0..per_word {
        let piece = |l: usize| 4 * j + l;
        let word = |l: usize| (piece(l) / per_word) as i32;
        let shift = |l: usize| ((piece(l) % per_word) as u32 * K) as i64;
        select[j] = _mm256_setr_epi32(
            2 * word(0),
            2 * word(0) + 1,
            2 * word(1),
            2 * word(1) + 1,
            2 * word(2),
            2 * word(2) + 1,
            2 * word(3),
            2 * word(3) + 1,
        );
        shifts[j] = _mm256_setr_epi64x(shift(0), shift(1), shift(2), shift(3));
    }
    let out = buf.as_mut_ptr();
    let mut len = 0usize;
    for four in bytes.chunks_exact(32) {
        let words = _mm256_loadu_si256(four.as_ptr() as *const __m256i);
        for j in 0..per_word {
            let lanes = _mm256_permutevar8x32_epi32(words, select[j]);
            let piece = _mm256_and_si256(_mm256_srlv_epi64(lanes, shifts[j]), mask);
            let m = _mm256_mul_epu32(piece, nv);
            let index = _mm256_srl_epi64(m, shift_k);
            let keep = _mm256_cmpgt_epi64(_mm256_and_si256(m, mask), below);
            let bits = _mm256_movemask_pd(_mm256_castsi256_pd(keep)) as usize;
            let order = _mm256_loadu_si256(PACK[bits].as_ptr() as *const __m256i);
            let packed = _mm256_permutevar8x32_epi32(index, order);
            // In bounds: len ≤ the pieces before this vector, so len + 4 ≤ the pieces so far.
            _mm_storeu_si128(out.add(len) as *mut __m128i, _mm256_castsi256_si128(packed));
            len += bits.count_ones() as usize;
        }
    }
    len
}
