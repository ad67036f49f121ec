//! The worst a ranking change can cost one unlabelled query: the largest drop of a metric from
//! the baseline's ranking to the candidate's over every relevance labelling of the retrieved
//! documents (every one unjudged). Pure: two rankings in, a number in [0, 1] out.
//!
//! - `p@k`: the documents leaving the top k, over k (label exactly those relevant).
//! - `hit@k`, `recall@k`, `complete@k`: 1 when a document leaves the top k (label it the only
//!   relevant one), else 0: these read the top k as a set.
//! - `mrr@k` / `mrr`: the largest 1/r_b(d) − 1/r_c(d) over the baseline's documents d (0 when d
//!   is not in the candidate's list): a single relevant document is the worst labelling, as
//!   more relevant documents only raise the candidate's reciprocal rank.
//! - `ndcg`, `ap`, `rprec` and the rest: 1 (the metric's reach) when the ranking within the
//!   cutoff changed at all, else 0; no tighter bound is claimed for them.
//!
//! The worst gain is the worst loss with the sides swapped.

use std::collections::HashMap;

use super::metrics::{Kind, Metric};

/// The first `k` of `list` (all of it without a cutoff).
fn top<T>(list: &[T], k: Option<usize>) -> &[T] {
    &list[..k.map_or(list.len(), |k| k.min(list.len()))]
}

/// The largest drop of `m` from `base` to `cand` under any labelling.
pub fn worst_loss<T: Eq + std::hash::Hash>(m: &Metric, base: &[T], cand: &[T]) -> f64 {
    let (b, c) = (top(base, m.k), top(cand, m.k));
    if b == c {
        return 0.0;
    }
    let in_cand: HashMap<&T, usize> = c.iter().enumerate().map(|(i, d)| (d, i + 1)).collect();
    let leaving = b.iter().filter(|d| !in_cand.contains_key(d)).count();
    match m.kind {
        Kind::P => leaving as f64 / m.k.unwrap_or(b.len().max(1)) as f64,
        Kind::Hit | Kind::Recall | Kind::Complete => f64::from(u8::from(leaving > 0)),
        Kind::Mrr => b
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let kept = in_cand.get(d).map_or(0.0, |&r| 1.0 / r as f64);
                1.0 / (i + 1) as f64 - kept
            })
            .fold(0.0, f64::max),
        _ => 1.0,
    }
}

/// Whether the rankings differ within the cutoff `k` (everything without one).
pub fn changed<T: Eq>(base: &[T], cand: &[T], k: Option<usize>) -> bool {
    top(base, k) != top(cand, k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(name: &str) -> Metric {
        Metric::parse(name).unwrap()
    }

    fn v(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    /// Brute force over every binary labelling of the documents of either ranking.
    fn brute(metric: &str, base: &str, cand: &str) -> f64 {
        let (b, c) = (v(base), v(cand));
        let mut docs: Vec<char> = b.iter().chain(&c).copied().collect();
        docs.sort_unstable();
        docs.dedup();
        let k = m(metric).k.unwrap();
        let score = |list: &[char], rel: &[char]| -> f64 {
            let topk = &list[..k.min(list.len())];
            let hits = topk.iter().filter(|d| rel.contains(d)).count();
            match metric.split('@').next().unwrap() {
                "p" => hits as f64 / k as f64,
                "hit" => f64::from(u8::from(hits > 0)),
                "recall" => hits as f64 / rel.len() as f64,
                "mrr" => topk
                    .iter()
                    .position(|d| rel.contains(d))
                    .map_or(0.0, |i| 1.0 / (i + 1) as f64),
                _ => unreachable!(),
            }
        };
        let mut worst: f64 = 0.0;
        for mask in 1u32..(1 << docs.len()) {
            let rel: Vec<char> = (0..docs.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| docs[i])
                .collect();
            worst = worst.max(score(&b, &rel) - score(&c, &rel));
        }
        worst
    }

    #[test]
    fn exact_against_every_labelling() {
        let cases = [
            ("abcde", "abcdx"),
            ("abcde", "xbcda"),
            ("abcde", "edcba"),
            ("abc", "xyz"),
            ("abcde", "abcde"),
            ("abcd", "bacd"),
        ];
        for metric in ["p@3", "hit@3", "recall@3", "mrr@3", "p@5", "mrr@5"] {
            for (b, c) in cases {
                let got = worst_loss(&m(metric), &v(b), &v(c));
                let want = brute(metric, b, c);
                assert!(
                    (got - want).abs() < 1e-12,
                    "{metric} {b}→{c}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn other_metrics_take_their_reach_when_the_top_changed() {
        assert_eq!(worst_loss(&m("ndcg@3"), &v("abcd"), &v("bacd")), 1.0);
        assert_eq!(worst_loss(&m("ndcg@2"), &v("abcd"), &v("abdc")), 0.0);
        assert!(changed(&v("abcd"), &v("abdc"), None));
        assert!(!changed(&v("abcd"), &v("abdc"), Some(2)));
    }
}
