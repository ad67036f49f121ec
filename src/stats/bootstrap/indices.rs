//! Uniform unit indices cut from a ChaCha8 stream, k bits at a time, with Lemire's unbiased
//! multiply-shift (layout in the `bootstrap` module header), and the one-index-at-a-time
//! `bounded` used by the quantile engine, with `BoundedIndices`: the same indices from the same
//! words, a batch at a time.

use rand::RngCore;
use rand_chacha::ChaCha8Rng;

/// 64-bit words per batch (four ChaCha8 blocks).
pub(crate) const BATCH_WORDS: usize = 32;
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
    /// Whether batches are cut with AVX2 (`simd::cut`: the same indices).
    avx2: bool,
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
            avx2: crate::stats::simd::available(),
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
        let avx2 = self.avx2;
        let len = match self.k {
            8 => cut::<8>(avx2, bytes, buf, n, t),
            10 => cut::<10>(avx2, bytes, buf, n, t),
            12 => cut::<12>(avx2, bytes, buf, n, t),
            16 => cut::<16>(avx2, bytes, buf, n, t),
            21 => cut::<21>(avx2, bytes, buf, n, t),
            _ => cut::<32>(avx2, bytes, buf, n, t),
        };
        &self.buf[..len]
    }
}

/// `cut_scalar::<K>`, or its AVX2 form (`simd::cut`: the same indices) when `avx2`.
#[inline(always)]
fn cut<const K: u32>(
    avx2: bool,
    bytes: &[u8; BATCH_WORDS * 8],
    buf: &mut [u32; BATCH_WORDS * 8],
    n: u64,
    threshold: u64,
) -> usize {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `avx2` is set only when the CPU reports AVX2 (`Indices::new`).
        return unsafe { crate::stats::simd::cut::cut::<K>(bytes, buf, n, threshold) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = avx2;
    cut_scalar::<K>(bytes, buf, n, threshold)
}

/// Cuts each word into K-bit pieces and keeps the accepted ones (Lemire's test), in order.
#[inline]
pub(crate) fn cut_scalar<const K: u32>(
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

/// 32-bit words per batch of `BoundedIndices` (sixteen ChaCha8 blocks).
const BOUNDED_WORDS: usize = 256;

/// The indices `bounded` gives on successive calls with the same generator and n, word for word
/// the same stream, computed a batch of `BOUNDED_WORDS` words at a time: each word's product in
/// one pass, and only a batch holding a word whose low half is below n (probability about
/// 256·n / 2^32) goes through `bounded`'s rejection one word at a time.
pub struct BoundedIndices {
    rng: ChaCha8Rng,
    n: u32,
    bytes: [u8; BOUNDED_WORDS * 4],
    buf: [u32; BOUNDED_WORDS],
    /// The unread part of `buf` is `pos..len`.
    pos: usize,
    len: usize,
}

impl BoundedIndices {
    pub fn new(rng: ChaCha8Rng, n: u32) -> Self {
        assert!(n > 0);
        BoundedIndices {
            rng,
            n,
            bytes: [0; BOUNDED_WORDS * 4],
            buf: [0; BOUNDED_WORDS],
            pos: 0,
            len: 0,
        }
    }

    /// Up to `max` (≥ 1) next indices: the rest of the current batch, or of a fresh one.
    #[inline]
    pub fn take(&mut self, max: usize) -> &[u32] {
        if self.pos == self.len {
            self.refill();
        }
        let start = self.pos;
        self.pos = (start + max).min(self.len);
        &self.buf[start..self.pos]
    }

    fn refill(&mut self) {
        self.rng.fill_bytes(&mut self.bytes);
        let n = u64::from(self.n);
        let mut rare = false;
        for (w, out) in self.bytes.chunks_exact(4).zip(self.buf.iter_mut()) {
            let m = u64::from(u32::from_le_bytes(w.try_into().expect("4 bytes"))) * n;
            *out = (m >> 32) as u32;
            rare |= (m as u32) < self.n;
        }
        self.pos = 0;
        self.len = BOUNDED_WORDS;
        if rare {
            self.len = self.exact();
        }
    }

    /// `bounded` over the batch's words in order (a rejection reads the next word, past the
    /// batch from the generator itself); returns how many indices the batch gave.
    fn exact(&mut self) -> usize {
        let mut words = self
            .bytes
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().expect("4 bytes")));
        let mut len = 0;
        while let Some(first) = words.next() {
            let mut source = WordsThen {
                words: &mut words,
                first: Some(first),
                rng: &mut self.rng,
            };
            self.buf[len] = bounded(&mut source, self.n);
            len += 1;
        }
        len
    }
}

/// A batch's remaining words, then the generator: the word source of `BoundedIndices::exact`.
struct WordsThen<'a, I> {
    words: &'a mut I,
    first: Option<u32>,
    rng: &'a mut ChaCha8Rng,
}

impl<I: Iterator<Item = u32>> RngCore for WordsThen<'_, I> {
    fn next_u32(&mut self) -> u32 {
        match self.first.take() {
            Some(w) => w,
            None => self.words.next().unwrap_or_else(|| self.rng.next_u32()),
        }
    }

    fn next_u64(&mut self) -> u64 {
        unreachable!("bounded reads 32-bit words")
    }

    fn fill_bytes(&mut self, _: &mut [u8]) {
        unreachable!("bounded reads 32-bit words")
    }
}
