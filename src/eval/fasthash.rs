//! A small, fast, non-cryptographic hasher (the FxHash multiply-rotate scheme used by rustc) for
//! doc-id lookups on the hot path. Inputs are local files, so hash flooding is not a concern.

use std::hash::Hasher;

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

#[derive(Default, Clone, Copy)]
pub struct FastHasher {
    hash: u64,
}

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().unwrap_or([0; 8])));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(buf));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hash;

    fn h(x: &[u8]) -> u64 {
        let mut s = FastHasher::default();
        x.hash(&mut s);
        s.finish()
    }

    #[test]
    fn equal_inputs_equal_hashes_and_lengths_matter() {
        assert_eq!(h(b"CACM-1410"), h(b"CACM-1410"));
        assert_ne!(h(b"CACM-1410"), h(b"CACM-1411"));
        assert_ne!(h(b"a"), h(b"a\0"));
    }
}
