//! Judged bounds of one query's delta over one shared judgment per document (Büttcher et al.
//! 2007 and Sakai 2007 take unjudged documents as the source of uncertainty; here each unjudged
//! (query, document) pair gets ONE judgment, whichever system ranked it).
//!
//! The pool U is every unjudged document in the metric's cutoff of either side. An assignment
//! S ⊆ U makes the documents of S relevant at the relevance level (grade `rel_level`) for both
//! sides at once and leaves the rest non-relevant (trec_eval's reading). R grows by |S| and the
//! ideal ordering of nDCG gains |S| gains of `rel_level`. The upper bound of the query's delta is
//! the maximum of candidate(S) − baseline(S) over all S, the lower bound the minimum. Each is
//! computed exactly:
//! - p@k, recall@k, ndcg@k, hit@k, rprec: for a fixed m = |S| the normaliser (k, R + m, the ideal
//!   DCG with m more gains, the cutoff R + m) is fixed, so the delta is a sum over S of each
//!   document's candidate − baseline contribution (for hit@k: documents only the candidate ranks
//!   first, then both, then only the baseline — the order that makes "any relevant" flip most):
//!   the best S of size m is the m documents with the largest (smallest) contributions; m is
//!   scanned from 0 to |U|.
//! - complete@k: 1 iff all R + |S| relevant documents are in the top k, so S only matters by
//!   which of the classes (in both top k, in one side's only, in neither) it touches: ∅ and every
//!   singleton are tried.
//! - mrr@k, mrr: RR is the largest 1/rank over the relevant documents, so for any S the singleton
//!   of the document that sets the candidate's RR (or ∅) gains as much and the baseline's RR can
//!   only fall: the optimum is ∅ or a singleton; each is tried.
//! - ap@k, map: every subset is tried when |U| ≤ [`AP_EXACT_POOL`] and 2^|U| × the ranking depth
//!   ≤ 2^21 (ap@10 up to 16 documents, map over 1000 ranks up to 11). Beyond that a proved, wider
//!   bound is used (`exact = false`): AP never falls when a relevant document moves to an earlier
//!   rank, so for each m the candidate's best is its m earliest pool documents and the
//!   baseline's worst its pool documents outside its cutoff first, then its latest ones; the
//!   bound is the candidate's best − the baseline's worst (and the reverse), each side with its
//!   own S.
//!
//! When both sides rank the same documents in the same order within the cutoff, every
//! assignment moves both alike and the bounds are today's values (also for AP).
//! Ties keep the smaller assignment (∅ first): a query whose delta no assignment moves keeps
//! today's values exactly, so a pull request that changes nothing has bounds equal to its delta.

use super::metrics::{Judged, Kind, Metric};

#[cfg(test)]
mod exhaustive;
mod sweep;

/// Up to this many pool documents, AP's bounds try every assignment (2^16 per query).
pub const AP_EXACT_POOL: usize = 16;

/// One side's ranking of a query: the grades of its top documents (`UNJUDGED` for none, as
/// deep as the metric's cutoff) and its unjudged documents `(rank, doc)`, rank 1-based.
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    pub rels: &'a [i32],
    pub unjudged: &'a [(usize, String)],
}

/// The query's judgments, the same for both sides.
#[derive(Debug, Clone, Copy)]
pub struct Query<'a> {
    pub num_rel: usize,
    /// Gains of the judged relevant documents (rel > 0), highest first.
    pub ideal_gains: &'a [f64],
    pub rel_level: i32,
    pub exponential: bool,
}

/// Both sides' values of the metric under one assignment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Values {
    pub baseline: f64,
    pub candidate: f64,
}

impl Values {
    pub fn delta(&self) -> f64 {
        self.candidate - self.baseline
    }
}

/// The two bounds of one query's delta, each as both sides' values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    pub lower: Values,
    pub upper: Values,
    /// False when a proved bound wider than the optimum was used (AP over a large pool).
    pub exact: bool,
    /// Unjudged documents in the cutoff of either side (the pool).
    pub pool: usize,
}

/// A pool document and its rank on each side (within the metric's cutoff, or none).
#[derive(Debug, Clone)]
struct Doc<'a> {
    doc: &'a str,
    base: Option<usize>,
    cand: Option<usize>,
}

/// The metric's cutoff on a ranking of `n` documents.
fn cut(m: Metric, n: usize) -> usize {
    m.k.unwrap_or(n).min(n)
}

/// The unjudged documents in either side's cutoff, by document id.
fn pool<'a>(m: Metric, base: Side<'a>, cand: Side<'a>) -> Vec<Doc<'a>> {
    let mut docs: std::collections::BTreeMap<&str, Doc> = Default::default();
    let (bc, cc) = (cut(m, base.rels.len()), cut(m, cand.rels.len()));
    for (side, c, is_cand) in [(base, bc, false), (cand, cc, true)] {
        for (rank, d) in side.unjudged.iter().filter(|(r, _)| *r <= c) {
            let e = docs.entry(d.as_str()).or_insert(Doc {
                doc: d,
                base: None,
                cand: None,
            });
            match is_cand {
                true => e.cand = Some(*rank),
                false => e.base = Some(*rank),
            }
        }
    }
    docs.into_values().collect()
}

/// The value of `m` on a side ranking `rels` when the documents at `ranks` (its pool documents
/// judged relevant) are relevant and `extra` documents are added to R.
fn value(
    q: &Query,
    rels: &[i32],
    m: Metric,
    ranks: impl Iterator<Item = usize>,
    extra: usize,
) -> f64 {
    let mut rels = rels.to_vec();
    for r in ranks {
        rels[r - 1] = q.rel_level;
    }
    let j0 = Judged {
        rels: &rels,
        num_rel: q.num_rel + extra,
        ideal_gains: q.ideal_gains,
        rel_level: q.rel_level,
        exponential: q.exponential,
    };
    if m.kind != Kind::Ndcg || extra == 0 {
        return j0.value(m);
    }
    // The ideal gains with `extra` more of the level's gain, highest first (a merge; only the
    // first k count).
    let g = j0.gain(q.rel_level);
    let above = q.ideal_gains.partition_point(|&x| x > g);
    let keep = m.k.unwrap_or(usize::MAX);
    let ideal: Vec<f64> = q.ideal_gains[..above]
        .iter()
        .copied()
        .chain(std::iter::repeat_n(g, extra))
        .chain(q.ideal_gains[above..].iter().copied())
        .take(keep)
        .collect();
    Judged {
        ideal_gains: &ideal,
        ..j0
    }
    .value(m)
}

/// Both sides' values when the pool documents `chosen` are relevant.
fn values(q: &Query, m: Metric, (base, cand): (Side, Side), chosen: &[&Doc]) -> Values {
    Values {
        baseline: value(
            q,
            base.rels,
            m,
            chosen.iter().filter_map(|d| d.base),
            chosen.len(),
        ),
        candidate: value(
            q,
            cand.rels,
            m,
            chosen.iter().filter_map(|d| d.cand),
            chosen.len(),
        ),
    }
}

/// Keeps the lower and upper extremes of the deltas seen, the first seen on ties.
struct Extremes {
    lower: Values,
    upper: Values,
}

impl Extremes {
    fn see(&mut self, v: Values) {
        if v.delta() < self.lower.delta() {
            self.lower = v;
        }
        if v.delta() > self.upper.delta() {
            self.upper = v;
        }
    }
}

/// A pool document's candidate − baseline contribution to `m` once relevant, with `extra`
/// relevant documents added (the normaliser left out: it is the same for every document).
fn contribution(q: &Query, m: Metric, d: &Doc, extra: usize) -> f64 {
    let gain = Judged {
        rels: &[],
        num_rel: 0,
        ideal_gains: &[],
        rel_level: q.rel_level,
        exponential: q.exponential,
    }
    .gain(q.rel_level);
    let at = |rank: Option<usize>| -> f64 {
        let Some(r) = rank else { return 0.0 };
        match m.kind {
            Kind::Ndcg => gain / ((r + 1) as f64).log2(),
            Kind::Rprec => f64::from(r <= q.num_rel + extra),
            _ => 1.0,
        }
    };
    at(d.cand) - at(d.base)
}

/// Every subset of the pool (AP over a small pool, and the test oracle).
pub fn brute_force(q: &Query, m: Metric, base: Side, cand: Side) -> (f64, f64) {
    let docs = pool(m, base, cand);
    let today = values(q, m, (base, cand), &[]);
    let mut ex = Extremes {
        lower: today,
        upper: today,
    };
    every_subset(q, m, (base, cand), &docs, &mut ex);
    (ex.lower.delta(), ex.upper.delta())
}

fn every_subset(q: &Query, m: Metric, sides: (Side, Side), docs: &[Doc], ex: &mut Extremes) {
    for mask in 1u64..(1u64 << docs.len()) {
        let s: Vec<&Doc> = (0..docs.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| &docs[i])
            .collect();
        ex.see(values(q, m, sides, &s));
    }
}

/// Two ascending rank lists merged into one.
fn merged(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if j == b.len() || (i < a.len() && a[i] < b[j]) {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out
}

/// AP with these relevant ranks (1-based, ascending, within the cutoff) and R: the same sum in
/// the same order as `Judged::value`, without walking the whole ranking.
fn ap_of(ranks: Vec<usize>, num_rel: usize) -> f64 {
    if num_rel == 0 {
        return 0.0;
    }
    let (mut hits, mut sum) = (0usize, 0.0);
    for r in ranks {
        hits += 1;
        sum += hits as f64 / r as f64;
    }
    sum / num_rel as f64
}

/// AP tries every assignment while 2^|pool| × the ranking depth stays within this.
const AP_EXACT_WORK: usize = 1 << 21;

/// Both sides rank the same documents in the same order within the cutoff: every assignment
/// moves both alike.
fn same_ranking(m: Metric, base: Side, cand: Side) -> bool {
    let (bc, cc) = (cut(m, base.rels.len()), cut(m, cand.rels.len()));
    let (bu, cu) = (
        base.unjudged.iter().filter(|(r, _)| *r <= bc),
        cand.unjudged.iter().filter(|(r, _)| *r <= cc),
    );
    bc == cc && base.rels[..bc] == cand.rels[..cc] && bu.eq(cu)
}

/// The bounds of the query's `m` delta over one shared judgment of its unjudged documents.
pub fn delta_bounds(q: &Query, m: Metric, base: Side, cand: Side) -> Bounds {
    let docs = pool(m, base, cand);
    let today = values(q, m, (base, cand), &[]);
    let mut ex = Extremes {
        lower: today,
        upper: today,
    };
    let sides = (base, cand);
    let mut exact = true;
    let depth = base.rels.len().max(cand.rels.len()).max(1);
    match m.kind {
        _ if docs.is_empty() || same_ranking(m, base, cand) => {}
        Kind::Judged | Kind::AnnRecall => {}
        // complete@k is 1 iff every relevant doc, old and newly judged, is in the top k: a
        // singleton from each class (in both top k, only one side's, neither) reaches every
        // (candidate, baseline) pair a larger S can, so the singletons are exact too.
        Kind::Mrr | Kind::Complete => sweep::singletons(q, m, sides, &docs, &mut ex),
        Kind::Ap
            if docs.len() <= AP_EXACT_POOL && (1usize << docs.len()) * depth <= AP_EXACT_WORK =>
        {
            every_subset(q, m, sides, &docs, &mut ex)
        }
        Kind::Ap => {
            exact = false;
            sweep::ap_wide(q, m, sides, &docs, &mut ex);
        }
        Kind::P | Kind::Recall | Kind::Ndcg | Kind::Hit => {
            sweep::linear(q, m, sides, &docs, &mut ex)
        }
        Kind::Rprec => sweep::rprec(q, m, sides, &docs, &mut ex),
    }
    Bounds {
        lower: ex.lower,
        upper: ex.upper,
        exact,
        pool: docs.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::metrics::UNJUDGED;
    use proptest::prelude::*;

    fn m(s: &str) -> Metric {
        Metric::parse(s).unwrap()
    }

    const METRICS: [&str; 14] = [
        "p@3", "p@5", "recall@3", "recall@5", "ndcg@3", "ndcg@5", "ndcg", "hit@1", "hit@3",
        "mrr@3", "mrr", "ap@3", "map", "rprec",
    ];

    /// A query over docs 0..10: `grade[d]` is d's judgment (None: unjudged); each side ranks a
    /// permutation prefix.
    fn case(grades: &[Option<i32>], base: &[usize], cand: &[usize], unretrieved: usize) -> Case {
        case_with_gains(grades, base, cand, unretrieved, false)
    }

    /// As [`case`], with nDCG's ideal gains exponential (2^g − 1) when `exponential`; also the
    /// exhaustive oracle's cases (`exhaustive`).
    pub(super) fn case_with_gains(
        grades: &[Option<i32>],
        base: &[usize],
        cand: &[usize],
        unretrieved: usize,
        exponential: bool,
    ) -> Case {
        let side = |ranking: &[usize]| -> (Vec<i32>, Vec<(usize, String)>) {
            let rels = ranking
                .iter()
                .map(|&d| grades[d].unwrap_or(UNJUDGED))
                .collect();
            let unj = ranking
                .iter()
                .enumerate()
                .filter(|(_, &d)| grades[d].is_none())
                .map(|(i, &d)| (i + 1, format!("d{d}")))
                .collect();
            (rels, unj)
        };
        let mut ideal: Vec<f64> = grades
            .iter()
            .flatten()
            .filter(|&&g| g > 0)
            .map(|&g| {
                if exponential {
                    (g as f64).exp2() - 1.0
                } else {
                    g as f64
                }
            })
            .collect();
        ideal.extend(std::iter::repeat_n(1.0, unretrieved));
        ideal.sort_by(|a, b| b.total_cmp(a));
        let num_rel = grades.iter().flatten().filter(|&&g| g >= 1).count() + unretrieved;
        Case {
            base: side(base),
            cand: side(cand),
            ideal,
            num_rel,
        }
    }

    pub(super) struct Case {
        pub(super) base: (Vec<i32>, Vec<(usize, String)>),
        pub(super) cand: (Vec<i32>, Vec<(usize, String)>),
        pub(super) ideal: Vec<f64>,
        pub(super) num_rel: usize,
    }

    impl Case {
        fn q(&self) -> Query<'_> {
            Query {
                num_rel: self.num_rel,
                ideal_gains: &self.ideal,
                rel_level: 1,
                exponential: false,
            }
        }
        pub(super) fn sides(&self) -> (Side<'_>, Side<'_>) {
            (
                Side {
                    rels: &self.base.0,
                    unjudged: &self.base.1,
                },
                Side {
                    rels: &self.cand.0,
                    unjudged: &self.cand.1,
                },
            )
        }
    }

    #[test]
    fn the_same_ranking_has_bounds_equal_to_its_delta() {
        let g = [None, Some(1), None, Some(0), Some(2), None];
        let c = case(&g, &[0, 1, 2, 3, 4, 5], &[0, 1, 2, 3, 4, 5], 1);
        let (b, k) = c.sides();
        for name in METRICS {
            let got = delta_bounds(&c.q(), m(name), b, k);
            let today = values(&c.q(), m(name), (b, k), &[]);
            assert_eq!(got.lower, today, "{name}");
            assert_eq!(got.upper, today, "{name}");
        }
    }

    #[test]
    fn a_shared_document_moves_both_sides_at_once() {
        // Doc 0 is unjudged and first on both sides; the candidate adds unjudged doc 2 at rank 2.
        let g = [None, Some(1), None, Some(0)];
        let c = case(&g, &[0, 1, 3], &[0, 2, 1], 0);
        let (b, k) = c.sides();
        let got = delta_bounds(&c.q(), m("p@2"), b, k);
        // Only doc 2 can differ: the candidate gains at most 1/2, never loses (doc 1 drops out
        // of its top 2, but doc 1 is judged relevant: −1/2 when doc 2 is non-relevant).
        assert_eq!(got.upper.delta(), 0.0);
        assert_eq!(got.lower.delta(), -0.5);
        assert_eq!(got.pool, 2);
    }

    fn arb_case() -> impl Strategy<Value = (Vec<Option<i32>>, Vec<usize>, Vec<usize>, usize)> {
        let grades =
            proptest::collection::vec(prop_oneof![Just(None), (-1i32..3).prop_map(Some)], 10);
        let perm = || Just((0..10usize).collect::<Vec<_>>()).prop_shuffle();
        (grades, perm(), perm(), 0usize..7, 0usize..7, 0usize..3).prop_map(
            |(g, mut b, mut c, nb, nc, unretrieved)| {
                b.truncate(nb);
                c.truncate(nc);
                (g, b, c, unretrieved)
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn bounds_equal_the_brute_force_over_every_assignment((g, b, c, u) in arb_case()) {
            let cs = case(&g, &b, &c, u);
            let (base, cand) = cs.sides();
            for name in METRICS {
                let got = delta_bounds(&cs.q(), m(name), base, cand);
                let (lo, hi) = brute_force(&cs.q(), m(name), base, cand);
                prop_assert!(got.exact);
                prop_assert!((got.lower.delta() - lo).abs() < 1e-12, "{} lower {} vs {}", name, got.lower.delta(), lo);
                prop_assert!((got.upper.delta() - hi).abs() < 1e-12, "{} upper {} vs {}", name, got.upper.delta(), hi);
            }
        }

        #[test]
        fn the_wide_ap_bound_contains_the_exact_one((g, b, c, u) in arb_case()) {
            let cs = case(&g, &b, &c, u);
            let (base, cand) = cs.sides();
            for name in ["ap@3", "map"] {
                let (lo, hi) = brute_force(&cs.q(), m(name), base, cand);
                let docs = pool(m(name), base, cand);
                let today = values(&cs.q(), m(name), (base, cand), &[]);
                let mut ex = Extremes { lower: today, upper: today };
                sweep::ap_wide(&cs.q(), m(name), (base, cand), &docs, &mut ex);
                prop_assert!(ex.lower.delta() <= lo + 1e-12 && ex.upper.delta() >= hi - 1e-12);
                // The shortcut AP is bit-for-bit the metric's own on the same judgments.
                let ranks: Vec<usize> = docs.iter().filter_map(|d| d.cand).collect();
                let mut sorted = ranks.clone();
                sorted.sort_unstable();
                let judged: Vec<usize> = (0..cut(m(name), cand.rels.len()))
                    .filter(|&i| cand.rels[i] >= 1)
                    .map(|i| i + 1)
                    .collect();
                let fast = ap_of(merged(&judged, &sorted), cs.q().num_rel + docs.len());
                let slow = value(&cs.q(), cand.rels, m(name), ranks.into_iter(), docs.len());
                prop_assert_eq!(fast.to_bits(), slow.to_bits());
            }
        }
    }
}
