//! Tie sensitivity: how much a query's value depends on the order of its tied scores.
//!
//! trec_eval breaks score ties by docid descending (byte order); any other rule (file order, a
//! numeric id, docid ascending) is just as arbitrary and moves the value of every query whose
//! tied documents differ in grade. For each query and metric this computes the value under the
//! most favourable and the least favourable order of each tied-score group: the group's
//! documents sorted by grade descending (best) or ascending (worst), unjudged documents below
//! every grade ([`UNJUDGED`]). The default ranking and its values are never changed.
//!
//! Why sorting by grade gives the exact best and worst of every metric at once: swap two
//! adjacent documents so that the one with the higher grade comes first. Binary metrics (recall,
//! p, hit, complete, rprec @ any cutoff) see a hit count in the top k that can only rise; RR's
//! first relevant rank can only move up; AP's terms for the later relevant documents are
//! unchanged and the moved one's precision h/i rises to h/(i−1); DCG changes by
//! (g_a − g_b)(d_i − d_{i+1}) ≥ 0 because the discount (0 beyond the cutoff) never rises with
//! rank; judged@k counts judged docs in the top k, and a judged doc has a higher grade than an
//! unjudged one. The normalisers (R, k, the ideal DCG) do not depend on the order. Every order of
//! a group is reached from the grade-descending order by such swaps run backwards, so no order
//! beats it (and none is worse than grade-ascending); this holds for a group that straddles the
//! cutoff too. `tests/it/eval_ties_props.rs` checks it against every permutation on small pools.
//! A query "depends on the tie rule" for a metric when its best and worst values differ.

use serde::Serialize;

#[cfg(doc)]
use super::metrics::UNJUDGED;
use super::metrics::{Judged, Metric};

/// Runs of tied positions of a final ranking: `(start, end)`, half-open, at least 2 long, in
/// rank order. Empty when no score is tied.
pub type TieGroups = Vec<(u32, u32)>;

/// The tied groups of `n` ranked entries, where `same(i)` says entries `i` and `i + 1` (in rank
/// order) tie.
pub fn find_groups(n: usize, same: impl Fn(usize) -> bool) -> TieGroups {
    let mut out = TieGroups::new();
    let mut start = 0;
    for i in 1..=n {
        if i == n || !same(i - 1) {
            if i - start >= 2 {
                out.push((start as u32, i as u32));
            }
            start = i;
        }
    }
    out
}

/// The groups of a ranking after the entries where `kept` is false are removed (condensed
/// lists): positions renumbered, groups left with fewer than 2 entries dropped.
pub fn condense(groups: &[(u32, u32)], kept: &[bool]) -> TieGroups {
    if groups.is_empty() {
        return TieGroups::new();
    }
    let mut new_pos = Vec::with_capacity(kept.len() + 1);
    let mut p = 0u32;
    for &k in kept {
        new_pos.push(p);
        p += u32::from(k);
    }
    new_pos.push(p);
    groups
        .iter()
        .map(|&(s, e)| (new_pos[s as usize], new_pos[e as usize]))
        .filter(|(s, e)| e - s >= 2)
        .collect()
}

/// The grades in the most (`best`) or least favourable order of each tied group.
pub fn extreme(rels: &[i32], groups: &[(u32, u32)], best: bool) -> Vec<i32> {
    let mut out = rels.to_vec();
    for &(s, e) in groups {
        let g = &mut out[s as usize..e as usize];
        match best {
            true => g.sort_unstable_by(|a, b| b.cmp(a)),
            false => g.sort_unstable(),
        }
    }
    out
}

/// One query's values under the least and the most favourable tie orders, per metric.
#[derive(Debug, Clone, PartialEq)]
pub struct TieValues {
    pub worst: Vec<f64>,
    pub best: Vec<f64>,
}

/// The worst and best values of every metric of `ms` for the query `j` (whose `rels` are in
/// the default order) with the tied `groups`; None when no group holds two different grades.
pub fn tie_values(j: &Judged, groups: &[(u32, u32)], ms: &[Metric]) -> Option<TieValues> {
    let mixed = groups.iter().any(|&(s, e)| {
        let g = &j.rels[s as usize..e as usize];
        g.iter().any(|&x| x != g[0])
    });
    if !mixed {
        return None;
    }
    let at = |best: bool| {
        let rels = extreme(j.rels, groups, best);
        let jj = Judged { rels: &rels, ..*j };
        ms.iter().map(|&m| jj.value(m)).collect()
    };
    Some(TieValues {
        worst: at(false),
        best: at(true),
    })
}

/// Tie sensitivity of one metric over the evaluated queries.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricTies {
    pub metric: String,
    /// Queries whose value differs between the least and the most favourable tie orders.
    pub queries_depending: usize,
    /// The mean with trec_eval's order (docid descending within ties): today's figure.
    pub mean: Option<f64>,
    /// The mean with every query's tied documents in the least favourable order.
    pub worst_mean: Option<f64>,
    /// The mean with every query's tied documents in the most favourable order.
    pub best_mean: Option<f64>,
}

/// Tie sensitivity of one evaluation (`EvalSummary::ties`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TieSummary {
    /// Tied-score groups (2 or more documents with one score) over the evaluated queries.
    pub tie_groups: usize,
    /// Evaluated queries with at least one tied group.
    pub queries_with_ties: usize,
    pub evaluated: usize,
    pub metrics: Vec<MetricTies>,
}

/// One evaluated query as the summary needs it: today's values, the tie values if any and its
/// number of tied groups.
pub struct QueryTies<'a> {
    pub values: &'a [f64],
    pub ties: Option<&'a TieValues>,
    pub groups: usize,
}

/// The summary over `queries` for the metrics `ms` (means over every query; a query without
/// tie values counts its value at both extremes).
pub fn summarise(ms: &[Metric], queries: &[QueryTies]) -> TieSummary {
    let n = queries.len();
    let mean = |f: &dyn Fn(&QueryTies) -> f64| {
        (n > 0).then(|| queries.iter().map(f).sum::<f64>() / n as f64)
    };
    let metrics = ms
        .iter()
        .enumerate()
        .map(|(j, m)| {
            let pick = |q: &QueryTies, best: bool| match q.ties {
                Some(t) if best => t.best[j],
                Some(t) => t.worst[j],
                None => q.values[j],
            };
            MetricTies {
                metric: m.to_string(),
                queries_depending: queries
                    .iter()
                    .filter(|q| pick(q, true) != pick(q, false))
                    .count(),
                mean: mean(&|q| q.values[j]),
                worst_mean: mean(&|q| pick(q, false)),
                best_mean: mean(&|q| pick(q, true)),
            }
        })
        .collect();
    TieSummary {
        tie_groups: queries.iter().map(|q| q.groups).sum(),
        queries_with_ties: queries.iter().filter(|q| q.groups > 0).count(),
        evaluated: n,
        metrics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::metrics::UNJUDGED;

    #[test]
    fn groups_are_runs_of_ties() {
        let scores = [3.0, 2.0, 2.0, 2.0, 1.0, 0.5, 0.5];
        let g = find_groups(scores.len(), |i| scores[i] == scores[i + 1]);
        assert_eq!(g, vec![(1, 4), (5, 7)]);
        assert!(find_groups(0, |_| true).is_empty());
        assert_eq!(find_groups(2, |_| true), vec![(0, 2)]);
    }

    #[test]
    fn condensing_renumbers_and_drops_short_groups() {
        // Positions 1..4 and 5..7 tie; 2 and 5 are removed.
        let kept = [true, true, false, true, true, false, true];
        assert_eq!(condense(&[(1, 4), (5, 7)], &kept), vec![(1, 3)]);
    }

    #[test]
    fn extremes_sort_each_group_by_grade() {
        let rels = [0, 0, 2, 1, UNJUDGED, 1];
        assert_eq!(extreme(&rels, &[(1, 5)], true), [0, 2, 1, 0, UNJUDGED, 1]);
        assert_eq!(extreme(&rels, &[(1, 5)], false), [0, UNJUDGED, 0, 1, 2, 1]);
    }

    #[test]
    fn a_tie_across_the_cutoff_moves_p_at_k() {
        // Ranks 2 and 3 tie; only rank 3 is relevant; p@2 is 0.5 at best, 0 at worst.
        let rels = [0, 0, 1];
        let j = Judged {
            rels: &rels,
            num_rel: 1,
            ideal_gains: &[1.0],
            rel_level: 1,
            exponential: false,
        };
        let ms = [Metric::parse("p@2").unwrap(), Metric::parse("p@1").unwrap()];
        let t = tie_values(&j, &[(1, 3)], &ms).unwrap();
        assert_eq!(t.best, [0.5, 0.0]);
        assert_eq!(t.worst, [0.0, 0.0]);
        let s = summarise(
            &ms,
            &[QueryTies {
                values: &[0.0, 0.0],
                ties: Some(&t),
                groups: 1,
            }],
        );
        assert_eq!(s.metrics[0].queries_depending, 1);
        assert_eq!(s.metrics[1].queries_depending, 0);
        assert_eq!(s.metrics[0].best_mean, Some(0.5));
        // A group of equal grades changes nothing.
        assert!(tie_values(&j, &[(0, 2)], &ms).is_none());
    }
}
