//! The tie extremes (`rag_gate::eval::ties`) are the exact best and worst over every order of
//! the tied documents: checked by brute force over all permutations within each tied group, on
//! small rankings, for every metric the evaluator supports (cutoffs inside, at and across a
//! group, graded and binary, both gains, unjudged and judged-negative documents).

use proptest::prelude::*;
use rag_gate::eval::metrics::{Judged, Metric, UNJUDGED};
use rag_gate::eval::ties::{find_groups, tie_values};

/// Every metric the evaluator scores against qrels, with cutoff `k`.
fn metrics(k: usize) -> Vec<Metric> {
    let names = [
        format!("recall@{k}"),
        format!("p@{k}"),
        format!("mrr@{k}"),
        "mrr".to_string(),
        format!("ndcg@{k}"),
        "ndcg".to_string(),
        format!("ap@{k}"),
        "map".to_string(),
        "rprec".to_string(),
        format!("hit@{k}"),
        format!("complete@{k}"),
        format!("judged@{k}"),
    ];
    names.iter().map(|n| Metric::parse(n).unwrap()).collect()
}

/// Every permutation of `v` (repeats included; `v` has at most 7 entries).
fn permutations(v: &[i32]) -> Vec<Vec<i32>> {
    if v.len() <= 1 {
        return vec![v.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..v.len() {
        let mut rest = v.to_vec();
        let x = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, x);
            out.push(p);
        }
    }
    out
}

/// Every ranking reached by reordering the documents within each group.
fn all_orders(rels: &[i32], groups: &[(u32, u32)]) -> Vec<Vec<i32>> {
    let mut out = vec![rels.to_vec()];
    for &(s, e) in groups {
        let (s, e) = (s as usize, e as usize);
        let mut next = Vec::new();
        for r in &out {
            for p in permutations(&r[s..e]) {
                let mut x = r.clone();
                x[s..e].copy_from_slice(&p);
                next.push(x);
            }
        }
        out = next;
    }
    out
}

fn grade() -> impl Strategy<Value = i32> {
    prop_oneof![Just(UNJUDGED), -1i32..=3]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn grade_sorted_groups_are_the_exact_best_and_worst(
        rels in prop::collection::vec(grade(), 0..=7),
        unretrieved in prop::collection::vec(0i32..=3, 0..=3),
        tied_with_next in prop::collection::vec(any::<bool>(), 7),
        level in 1i32..=3,
        exponential in any::<bool>(),
        k in 1usize..=8,
    ) {
        let n = rels.len();
        let groups = find_groups(n, |i| tied_with_next[i]);
        let judged: Vec<i32> = rels.iter().chain(&unretrieved).copied().filter(|&g| g != UNJUDGED).collect();
        let num_rel = judged.iter().filter(|&&g| g >= level).count();
        let mut pos: Vec<i32> = judged.iter().copied().filter(|&g| g > 0).collect();
        pos.sort_unstable_by(|a, b| b.cmp(a));
        let gain = |g: i32| if exponential { (g as f64).exp2() - 1.0 } else { g as f64 };
        let ideal: Vec<f64> = pos.iter().map(|&g| gain(g)).collect();
        let query = |r: &[i32], m: Metric| Judged {
            rels: r, num_rel, ideal_gains: &ideal, rel_level: level, exponential,
        }.value(m);
        let ms = metrics(k);
        let j = Judged { rels: &rels, num_rel, ideal_gains: &ideal, rel_level: level, exponential };
        let extremes = tie_values(&j, &groups, &ms);
        let orders = all_orders(&rels, &groups);
        for (i, &m) in ms.iter().enumerate() {
            let today = query(&rels, m);
            let (worst, best) = extremes.as_ref().map_or((today, today), |t| (t.worst[i], t.best[i]));
            let values: Vec<f64> = orders.iter().map(|r| query(r, m)).collect();
            let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let min = values.iter().copied().fold(f64::INFINITY, f64::min);
            prop_assert!((best - max).abs() < 1e-12, "{m}: best {best} vs brute force {max} ({rels:?}, {groups:?})");
            prop_assert!((worst - min).abs() < 1e-12, "{m}: worst {worst} vs brute force {min} ({rels:?}, {groups:?})");
            prop_assert!(worst <= today + 1e-12 && today <= best + 1e-12, "{m}: today {today} outside [{worst}, {best}]");
        }
    }
}

/// A tied group that straddles the cutoff: ranks 2–5 tie, the relevant docs sit at 4 and 5.
#[test]
fn a_group_across_the_cutoff_has_known_extremes() {
    let rels = [1, 0, 0, 2, 1, 0];
    let groups = vec![(1u32, 5u32)];
    let ideal = [2.0, 1.0, 1.0];
    let j = Judged {
        rels: &rels,
        num_rel: 3,
        ideal_gains: &ideal,
        rel_level: 1,
        exponential: false,
    };
    let ms: Vec<Metric> = ["p@3", "recall@2", "mrr@1"]
        .iter()
        .map(|s| Metric::parse(s).unwrap())
        .collect();
    let t = tie_values(&j, &groups, &ms).unwrap();
    // Best: [1, 2, 1, 0, 0, 0]; worst: [1, 0, 0, 1, 2, 0].
    assert_eq!(t.best, [1.0, 2.0 / 3.0, 1.0]);
    assert_eq!(t.worst, [1.0 / 3.0, 1.0 / 3.0, 1.0]);
}
