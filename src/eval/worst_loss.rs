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
//! - `ndcg@k` / `ndcg`: with a_d = disc_b(d) − disc_c(d) (disc(r) = 1/log2(r + 1) within the
//!   cutoff, else 0), the largest (sum of the j largest positive a_d) / IDCG_j over j, IDCG_j
//!   the ideal DCG of j equally relevant documents. For any non-negative gains the drop is a
//!   linear-fractional function of the gains, largest on a ray where the j documents with the
//!   largest a_d share one grade and the rest are not relevant, so this is the exact worst
//!   over graded labellings too (relevant documents neither side retrieved only raise IDCG).
//! - `ap`, `rprec` and the rest: 1 (the metric's reach) when the ranking within the cutoff
//!   changed at all, else 0; no tighter bound is claimed for them.
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
        Kind::Ndcg => ndcg_worst(b, &in_cand),
        _ => 1.0,
    }
}

fn disc(rank: usize) -> f64 {
    1.0 / ((rank + 1) as f64).log2()
}

/// The worst nDCG drop: max over j of the j largest positive a_d over IDCG_j.
fn ndcg_worst<T: Eq + std::hash::Hash>(b: &[T], in_cand: &HashMap<&T, usize>) -> f64 {
    let mut gains: Vec<f64> = b
        .iter()
        .enumerate()
        .map(|(i, d)| disc(i + 1) - in_cand.get(d).map_or(0.0, |&r| disc(r)))
        .filter(|a| *a > 0.0)
        .collect();
    gains.sort_unstable_by(|x, y| y.total_cmp(x));
    let (mut num, mut ideal, mut worst) = (0.0, 0.0, 0.0f64);
    for (j, a) in gains.iter().enumerate() {
        num += a;
        ideal += disc(j + 1);
        worst = worst.max(num / ideal);
    }
    worst.min(1.0)
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

    /// nDCG@k under every labelling with grades 0, 1, 2 (linear gain) of the documents either
    /// side ranked: the largest drop.
    fn brute_ndcg(k: usize, base: &str, cand: &str) -> f64 {
        let (b, c) = (v(base), v(cand));
        let mut docs: Vec<char> = b.iter().chain(&c).copied().collect();
        docs.sort_unstable();
        docs.dedup();
        let dcg = |list: &[char], g: &dyn Fn(char) -> f64| -> f64 {
            list.iter()
                .take(k)
                .enumerate()
                .map(|(i, d)| g(*d) / ((i + 2) as f64).log2())
                .sum()
        };
        let mut worst: f64 = 0.0;
        for code in 1..3usize.pow(docs.len() as u32) {
            let grade = |d: char| {
                let i = docs.iter().position(|x| *x == d).unwrap();
                ((code / 3usize.pow(i as u32)) % 3) as f64
            };
            let mut ideal: Vec<f64> = docs.iter().map(|d| grade(*d)).collect();
            ideal.sort_unstable_by(|x, y| y.total_cmp(x));
            let idcg: f64 = ideal
                .iter()
                .take(k)
                .enumerate()
                .map(|(i, g)| g / ((i + 2) as f64).log2())
                .sum();
            worst = worst.max((dcg(&b, &grade) - dcg(&c, &grade)) / idcg);
        }
        worst
    }

    #[test]
    fn ndcg_exact_against_every_graded_labelling() {
        let cases = [
            ("abcd", "bacd"),
            ("abcd", "abcx"),
            ("abcd", "dcba"),
            ("abc", "xyz"),
            ("abcd", "axby"),
            ("abcd", "abcd"),
        ];
        for k in [2usize, 3, 4] {
            for (b, c) in cases {
                let got = worst_loss(&m(&format!("ndcg@{k}")), &v(b), &v(c));
                let want = brute_ndcg(k, b, c);
                assert!(
                    (got - want).abs() < 1e-12,
                    "ndcg@{k} {b}→{c}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn other_metrics_take_their_reach_when_the_top_changed() {
        assert_eq!(worst_loss(&m("ap@3"), &v("abcd"), &v("bacd")), 1.0);
        assert_eq!(worst_loss(&m("ndcg@2"), &v("abcd"), &v("abdc")), 0.0);
        assert!(changed(&v("abcd"), &v("abdc"), None));
        assert!(!changed(&v("abcd"), &v("abdc"), Some(2)));
    }
}
