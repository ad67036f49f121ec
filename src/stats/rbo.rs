//! Rank-biased overlap of two rankings (Webber, Moffat & Zobel 2010, "A similarity measure for
//! indefinite rankings", ACM TOIS 28(4):20): the agreement A_d = |S_{:d} ∩ L_{:d}| / d at each
//! depth d, weighted by (1 − p)·p^(d−1). On prefixes of lengths s ≤ l this is the extrapolated
//! RBO_EXT of the paper's Eq. (32): the agreement seen at the deepest depth is assumed to hold
//! below it, and the items of the longer list past the shorter one's end are credited as the
//! paper prescribes. 1 for identical lists (and for two empty ones), 0 for disjoint ones.
//!
//! Known answers: the `rbo` package (PyPI rbo 0.1.3, `RankingSimilarity(S, L).rbo_ext(p)`), an
//! independent implementation of the same equation, in the tests. Items are assumed distinct
//! within a list (a run lists each document once). Pure: O(l) with a hash set per list.

use std::collections::HashSet;
use std::hash::Hash;

/// RBO_EXT of `a` and `b` at persistence `p` (0 < p < 1).
pub fn rbo_ext<T: Eq + Hash>(a: &[T], b: &[T], p: f64) -> f64 {
    let (s_list, l_list) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let (s, l) = (s_list.len(), l_list.len());
    if l == 0 {
        return 1.0;
    }
    if s == 0 {
        return 0.0;
    }
    let mut seen_s: HashSet<&T> = HashSet::with_capacity(s);
    let mut seen_l: HashSet<&T> = HashSet::with_capacity(l);
    let mut overlap = 0usize; // X_d
    let mut sum = 0.0; // Σ_{d ≤ l} X_d / d · p^d
    let mut tail = 0.0; // Σ_{d = s+1}^{l} X_s (d − s) / (s d) · p^d
    let mut pd = 1.0;
    let mut x_s = 0usize;
    for d in 1..=l {
        pd *= p;
        let y = &l_list[d - 1];
        if d <= s {
            let x = &s_list[d - 1];
            if x == y {
                overlap += 1;
            } else {
                overlap += usize::from(seen_l.contains(x)) + usize::from(seen_s.contains(y));
            }
            seen_s.insert(x);
            if d == s {
                x_s = overlap;
            }
        } else {
            overlap += usize::from(seen_s.contains(y));
            tail += x_s as f64 * (d - s) as f64 / (s * d) as f64 * pd;
        }
        seen_l.insert(y);
        sum += overlap as f64 / d as f64 * pd;
    }
    let last = (overlap - x_s) as f64 / l as f64 + x_s as f64 / s as f64;
    let v = (1.0 - p) / p * (sum + tail) + last * pd;
    v.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    /// PyPI rbo 0.1.3: `rbo.RankingSimilarity(list(S), list(L)).rbo_ext(p)`.
    const RBO_PACKAGE: [(&str, &str, f64, f64); 8] = [
        ("abcdefghij", "abcdefghij", 0.9, 1.0),
        ("abcdefghij", "bacdefghij", 0.9, 0.8999999999999999),
        ("abcdefghij", "klmnopqrst", 0.9, 0.0),
        ("abcdefghij", "abcdefghxy", 0.9, 0.9177329331999999),
        ("abcde", "edcba", 0.8, 0.5290666666666668),
        ("abcdefg", "axbycz", 0.9, 0.570061),
        ("abcdefghij", "abc", 0.9, 1.0),
        ("ab", "cabde", 0.95, 0.6636601041666665),
    ];

    #[test]
    fn matches_the_rbo_package() {
        for (s, t, p, want) in RBO_PACKAGE {
            let got = rbo_ext(&chars(s), &chars(t), p);
            assert!(
                (got - want).abs() < 1e-12,
                "{s} vs {t} at {p}: {got} vs {want}"
            );
            let swapped = rbo_ext(&chars(t), &chars(s), p);
            assert!((swapped - got).abs() < 1e-12, "symmetric");
        }
    }

    #[test]
    fn empty_lists() {
        let e: [char; 0] = [];
        assert_eq!(rbo_ext(&e, &e, 0.9), 1.0);
        assert_eq!(rbo_ext(&e, &chars("a"), 0.9), 0.0);
    }
}
