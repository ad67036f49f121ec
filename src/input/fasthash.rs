//! The hasher for id lookups on the hot path: doc ids in `eval`, query ids, groups and tag
//! values in `load` and `pair`. Ids come from the pull request (the candidate's run or table), so
//! the hash must not be one an attacker can aim at: with an unseeded hash,
//! 80,000 ids crafted to share their low hash bits made `eval` quadratic (20 s instead of
//! 0.02 s). foldhash with a random seed per map is about as fast as the FxHash it replaces and
//! gives no fixed set of inputs that collide in every map (foldhash's README, "HashDoS
//! resistance"). Nothing iterates these maps in hash order, so reports do not depend on the seed.

use std::collections::{HashMap, HashSet};

/// A `BuildHasher` seeded at random for every map.
pub type SeededState = foldhash::fast::RandomState;

/// A hash map keyed by a seeded hasher (for data from the pull request).
pub type SeededMap<K, V> = HashMap<K, V, SeededState>;

/// A hash set keyed by a seeded hasher (for data from the pull request).
pub type SeededSet<K> = HashSet<K, SeededState>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn equal_inputs_equal_hashes_and_seeds_differ_between_maps() {
        let (a, b) = (SeededState::default(), SeededState::default());
        assert_eq!(a.hash_one(b"CACM-1410"), a.hash_one(b"CACM-1410"));
        assert_ne!(a.hash_one(b"CACM-1410"), a.hash_one(b"CACM-1411"));
        // Two maps do not share a seed, so no id list collides in both.
        assert_ne!(a.hash_one(b"CACM-1410"), b.hash_one(b"CACM-1410"));
    }
}
