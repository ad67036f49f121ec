//! Doc-id hashing: std's SipHash against the seeded hash, in one run: 80,000 ids into a
//! map as `eval`'s duplicate check does, for random ids and for ids crafted against the old
//! unseeded FxHash (same length, same first 4 bytes: the product's low bits, which pick the
//! bucket, are then equal for every id). `cargo bench --bench doc_ids [-- N]`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

/// The hasher `eval` used before: FxHash's multiply-rotate with a fixed seed.
#[derive(Default, Clone, Copy)]
struct OldFx {
    hash: u64,
}

impl Hasher for OldFx {
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
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        self.hash
    }
}

impl OldFx {
    fn add(&mut self, w: u64) {
        self.hash = (self.hash.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

fn ids(n: usize, crafted: bool) -> Vec<Vec<u8>> {
    // A splitmix64 stream: reproducible ids without a dependency.
    let mut x: u64 = 18;
    let mut next = move || {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let alphabet = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut out = std::collections::BTreeSet::new();
    while out.len() < n {
        let r = next();
        let tail: Vec<u8> = (0..4)
            .map(|i| alphabet[((r >> (8 * i)) % 36) as usize])
            .collect();
        let id = if crafted {
            [b"DDDD".as_slice(), &tail].concat()
        } else {
            let head: Vec<u8> = (4..8)
                .map(|i| alphabet[((r >> (8 * i)) % 36) as usize])
                .collect();
            [head.as_slice(), &tail].concat()
        };
        out.insert(id);
    }
    out.into_iter().collect()
}

fn time<S: std::hash::BuildHasher + Default>(ids: &[Vec<u8>]) -> f64 {
    let t = Instant::now();
    let mut m: HashMap<&[u8], usize, S> =
        HashMap::with_capacity_and_hasher(ids.len(), S::default());
    for (i, id) in ids.iter().enumerate() {
        m.insert(id, i);
    }
    let hits = ids
        .iter()
        .filter(|id| m.contains_key(id.as_slice()))
        .count();
    assert_eq!(hits, ids.len());
    t.elapsed().as_secs_f64()
}

fn best<F: Fn() -> f64>(f: F) -> f64 {
    (0..5).map(|_| f()).fold(f64::INFINITY, f64::min)
}

fn main() {
    let n: usize = std::env::args()
        .filter_map(|a| a.parse().ok())
        .next()
        .unwrap_or(80_000);
    println!("doc ids into a map, n = {n}, best of 5 (seconds)");
    println!(
        "{:<10} {:>14} {:>14}",
        "ids", "before (Fx)", "after (seeded)"
    );
    for crafted in [false, true] {
        let v = ids(n, crafted);
        let before = best(|| time::<BuildHasherDefault<OldFx>>(&v));
        let after = best(|| time::<foldhash::fast::RandomState>(&v));
        let name = if crafted { "crafted" } else { "random" };
        println!("{name:<10} {before:>14.4} {after:>14.4}");
    }
}
