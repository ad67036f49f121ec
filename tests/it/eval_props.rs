//! Property tests of the pure per-query metrics (`rag_gate::eval::metrics::Judged`): bounds,
//! monotonicity in k, the definitions tying p@k, recall@k and hit@k to the hit count, and the
//! ideal ranking scoring nDCG 1.

use proptest::prelude::*;
use rag_gate::eval::metrics::{Judged, Metric};

fn m(s: &str) -> Metric {
    Metric::parse(s).unwrap()
}

/// A ranking of grades (-1..=3) plus the grades of judged docs that were not retrieved.
fn query() -> impl Strategy<Value = (Vec<i32>, Vec<i32>)> {
    (
        prop::collection::vec(-1i32..=3, 0..40),
        prop::collection::vec(-1i32..=3, 0..10),
    )
}

/// (ideal gains, R) of a query.
fn truth(rels: &[i32], unretrieved: &[i32], level: i32) -> (Vec<f64>, usize) {
    let mut all: Vec<i32> = rels
        .iter()
        .chain(unretrieved)
        .copied()
        .filter(|&r| r > 0)
        .collect();
    all.sort_unstable_by(|a, b| b.cmp(a));
    let num_rel = rels
        .iter()
        .chain(unretrieved)
        .filter(|&&r| r >= level)
        .count();
    (all.iter().map(|&g| g as f64).collect(), num_rel)
}

proptest! {
    #[test]
    fn bounds_and_definitions((rels, extra) in query(), level in 1i32..=3, k in 1usize..50) {
        let (ideal, num_rel) = truth(&rels, &extra, level);
        let j = Judged { rels: &rels, num_rel, ideal_gains: &ideal, rel_level: level, exponential: false };
        let at = |name: &str, k: usize| j.value(m(&format!("{name}@{k}")));
        for name in ["recall", "p", "mrr", "ndcg", "ap", "hit"] {
            let v = j.value(m(&format!("{name}@{k}")));
            prop_assert!((0.0..=1.0 + 1e-12).contains(&v), "{}@{} = {}", name, k, v);
        }
        let hits = j.hits(k);
        prop_assert_eq!(j.value(m(&format!("p@{k}"))), hits as f64 / k as f64);
        prop_assert_eq!(j.value(m(&format!("hit@{k}"))), if hits > 0 && j.num_rel > 0 { 1.0 } else { 0.0 });
        if j.num_rel > 0 {
            prop_assert_eq!(j.value(m(&format!("recall@{k}"))), hits as f64 / j.num_rel as f64);
        }
        prop_assert!(at("recall", k + 1) >= at("recall", k));
        prop_assert!(j.value(m("mrr")) >= at("mrr", k));
        prop_assert!(j.value(m("map")) >= at("ap", k) - 1e-15);
        prop_assert_eq!(j.value(m("map")), at("ap", rels.len() + 1));
    }

    #[test]
    fn ideal_ranking_scores_ndcg_one((rels, extra) in query(), k in 1usize..50) {
        let mut best: Vec<i32> = rels.iter().chain(&extra).copied().collect();
        best.sort_unstable_by(|a, b| b.cmp(a));
        let (ideal, num_rel) = truth(&best, &[], 1);
        let j = Judged { rels: &best, num_rel, ideal_gains: &ideal, rel_level: 1, exponential: false };
        let v = j.value(m(&format!("ndcg@{k}")));
        if ideal.is_empty() {
            prop_assert_eq!(v, 0.0);
        } else {
            prop_assert!((v - 1.0).abs() < 1e-12, "ndcg@{} = {}", k, v);
            prop_assert!((j.value(m("ndcg")) - 1.0).abs() < 1e-12);
        }
    }
}
