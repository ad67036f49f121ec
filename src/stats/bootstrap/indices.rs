//! Uniform unit indices cut from a ChaCha8 stream, k bits at a time, with Lemire's unbiased
//! multiply-shift (layout in the `bootstrap` module header), and the one-index-at-a-time
//! `bounded` used by the quantile engine.

use rand::RngCore;
use rand_chacha::ChaCha8Rng;

/// 64-bit words per batch (four ChaCha8 blocks).
const BATCH_WORDS: usize = 32;
/// Piece widths (fixed widths let the compiler cut words with constant shifts); `width` picks one.
const WIDTHS: [u32; 6] = [8, 10, 12, 16, 21, 32];

/// The width k ≥ ⌈log2 n⌉ that needs the fewest stream bits per accepted index,
/// (64 / ⌊64/k⌋) / (1 − (2^k mod n) / 2^k), the smallest such k on a tie. With k ≥ ⌈log2 n⌉ less
/// than half of the pieces are rejected.
pub fn width(n: u32) -> u32 {
    let bits = 32 - n.saturating_sub(1).leading_zeros();
    let cost = |k: u32| {
        let span = (1u64 << k) as f64;
        let rejected = ((1u64 << k) % u64::from(n)) as f64 / span;
        64.0 / f64::from(64 / k) / (1.0 - rejected)
    };
    WIDTHS
        .into_iter()
        .filter(|&k| k >= bits)
        .min_by(|&a, &b| cost(a).total_cmp(&cost(b)))
        .expect("32 bits cover every u32")
}

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
        let k = width(n);
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

    /// Refills the batch and returns it whole. Less than half of the pieces can be rejected (see
    /// `width`), so a batch is empty only with negligible probability, and an empty batch is
    /// simply followed by another.
    #[inline]
    pub fn batch(&mut self) -> &[u32] {
        self.rng.fill_bytes(&mut self.bytes);
        let (bytes, buf, n, t) = (&self.bytes, &mut self.buf, self.n, self.threshold);
        let len = match self.k {
            8 => cut::<8>(bytes, buf, n, t),
            10 => cut::<10>(bytes, buf, n, t),
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
