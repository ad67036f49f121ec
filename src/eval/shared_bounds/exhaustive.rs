//! The exhaustive scan the sweep replaced, kept as its test oracle: every candidate assignment
//! evaluated from scratch (quadratic in one query's depth), in the scan's order. The scan kept
//! the first strict improvement on today's delta; the sweep keeps the first candidate within
//! the tie tolerance of the best. On the scan's exact values both rules are applied here: the
//! sweep must equal the second bit for bit, and the second's deltas must be the first's within
//! the tolerance.

use super::sweep::tie_tolerance;
use super::{
    ap_of, contribution, cut, delta_bounds, every_subset, merged, pool, same_ranking, values,
    Bounds, Doc, Extremes, Query, Side, Values, AP_EXACT_POOL, AP_EXACT_WORK,
};
use crate::eval::metrics::{Kind, Metric};

/// Every candidate assignment's values, in the scan's order (empty when the scan tries none).
fn candidates(q: &Query, m: Metric, sides: (Side, Side), docs: &[Doc]) -> Vec<Values> {
    let mut all = Vec::new();
    match m.kind {
        Kind::Mrr | Kind::Complete => {
            for d in docs {
                all.push(values(q, m, sides, &[d]));
            }
        }
        Kind::Ap => ap_wide(q, m, sides, docs, &mut all),
        Kind::P | Kind::Recall | Kind::Ndcg | Kind::Hit | Kind::Rprec => {
            scan(q, m, sides, docs, &mut all)
        }
        Kind::Judged | Kind::AnnRecall => {}
    }
    all
}

/// The bounds by the scan's rule (`tol = None`: the first strict improvement on today) or the
/// sweep's (the first candidate within `tol` of the best, today first).
fn pick(today: Values, all: &[Values], tol: Option<f64>) -> (Values, Values) {
    let mut out = [today, today];
    for (k, sign) in [(0, -1.0), (1, 1.0)] {
        let key = |v: &Values| sign * v.delta();
        let best = all.iter().map(key).fold(key(&today), f64::max);
        out[k] = match tol {
            None => all
                .iter()
                .fold(today, |a, v| if key(v) > key(&a) { *v } else { a }),
            Some(t) if key(&today) >= best - t => today,
            Some(t) => *all
                .iter()
                .find(|v| key(v) >= best - t)
                .expect("the best is one"),
        };
    }
    (out[0], out[1])
}

/// The bounds of the exhaustive scan by both rules: `(the scan's, the sweep's)`.
pub(super) fn delta_bounds_exhaustive(
    q: &Query,
    m: Metric,
    base: Side,
    cand: Side,
) -> (Bounds, Bounds) {
    let docs = pool(m, base, cand);
    let sides = (base, cand);
    let today = values(q, m, sides, &[]);
    let depth = base.rels.len().max(cand.rels.len()).max(1);
    let exact_kind = matches!(
        m.kind,
        Kind::P | Kind::Recall | Kind::Hit | Kind::Mrr | Kind::Complete
    );
    let small_ap = docs.len() <= AP_EXACT_POOL && (1usize << docs.len()) * depth <= AP_EXACT_WORK;
    let bounds = |(lower, upper): (Values, Values), exact: bool| Bounds {
        lower,
        upper,
        exact,
        pool: docs.len(),
    };
    if docs.is_empty() || same_ranking(m, base, cand) {
        let b = bounds((today, today), true);
        return (b, b);
    }
    if m.kind == Kind::Ap && small_ap {
        let mut ex = Extremes {
            lower: today,
            upper: today,
        };
        every_subset(q, m, sides, &docs, &mut ex);
        let b = bounds((ex.lower, ex.upper), true);
        return (b, b);
    }
    let all = candidates(q, m, sides, &docs);
    let tol = if exact_kind {
        0.0
    } else {
        tie_tolerance(q, sides, docs.len())
    };
    let exact = m.kind != Kind::Ap;
    (
        bounds(pick(today, &all, None), exact),
        bounds(pick(today, &all, Some(tol)), exact),
    )
}

/// The m-scan of the linear metrics (see the module header).
fn scan(q: &Query, m: Metric, sides: (Side, Side), docs: &[Doc], ex: &mut Vec<Values>) {
    let mut keyed: Vec<(f64, &Doc)> = Vec::with_capacity(docs.len());
    for extra in 1..=docs.len() {
        // Only rprec's contributions depend on m (its cutoff is R + m): sort once otherwise.
        if extra == 1 || m.kind == Kind::Rprec {
            keyed = docs
                .iter()
                .map(|d| (contribution(q, m, d, extra), d))
                .collect();
            keyed.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.doc.cmp(b.1.doc)));
        }
        let top: Vec<&Doc> = keyed[..extra].iter().map(|k| k.1).collect();
        ex.push(values(q, m, sides, &top));
        let bottom: Vec<&Doc> = keyed[keyed.len() - extra..].iter().map(|k| k.1).collect();
        ex.push(values(q, m, sides, &bottom));
    }
}

/// AP over a large pool: each side's own extreme assignment of each size (see the header).
fn ap_wide(q: &Query, m: Metric, (base, cand): (Side, Side), docs: &[Doc], ex: &mut Vec<Values>) {
    // Ranks in the side's cutoff, earliest first (its best); for its worst, the pool documents
    // outside its cutoff come first (they move nothing), then its ranks latest first.
    let ranks = |rank: fn(&Doc) -> Option<usize>| -> Vec<usize> {
        let mut v: Vec<usize> = docs.iter().filter_map(rank).collect();
        v.sort_unstable();
        v
    };
    let (c, b) = (ranks(|d| d.cand), ranks(|d| d.base));
    let n = docs.len();
    let best = |r: &[usize], extra: usize| r[..extra.min(r.len())].to_vec();
    let worst = |r: &[usize], extra: usize| {
        let inside = extra.saturating_sub(n - r.len());
        r[r.len() - inside..].to_vec()
    };
    // The side's judged relevant ranks within its cutoff, ascending.
    let judged = |rels: &[i32]| -> Vec<usize> {
        (0..cut(m, rels.len()))
            .filter(|&i| rels[i] >= q.rel_level)
            .map(|i| i + 1)
            .collect()
    };
    let (jb, jc) = (judged(base.rels), judged(cand.rels));
    for extra in 1..=n {
        let at = |judged: &[usize], r: Vec<usize>| ap_of(merged(judged, &r), q.num_rel + extra);
        ex.push(Values {
            baseline: at(&jb, worst(&b, extra)),
            candidate: at(&jc, best(&c, extra)),
        });
        ex.push(Values {
            baseline: at(&jb, best(&b, extra)),
            candidate: at(&jc, worst(&c, extra)),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{case_with_gains, Case};
    use super::*;
    use proptest::prelude::*;

    const METRICS: [&str; 22] = [
        "p@3",
        "p@50",
        "p@100000",
        "recall@5",
        "recall@60",
        "ndcg@5",
        "ndcg@40",
        "ndcg",
        "hit@1",
        "hit@30",
        "mrr@3",
        "mrr",
        "complete@5",
        "complete@80",
        "ap@3",
        "ap@70",
        "map",
        "rprec",
        "judged@10",
        "ndcg@100000",
        "recall@100000",
        "mrr@100000",
    ];

    fn check_same(d: &Case, rel_level: i32, exponential: bool) -> Result<(), TestCaseError> {
        let q = Query {
            num_rel: d.num_rel,
            ideal_gains: &d.ideal,
            rel_level,
            exponential,
        };
        let (b, c) = d.sides();
        for name in METRICS {
            let m = Metric::parse(name).unwrap();
            let new = delta_bounds(&q, m, b, c);
            let (scan, rule) = delta_bounds_exhaustive(&q, m, b, c);
            prop_assert_eq!(new, rule, "{}", name);
            let tol = tie_tolerance(&q, (b, c), new.pool);
            prop_assert!(
                (new.lower.delta() - scan.lower.delta()).abs() <= tol,
                "{}",
                name
            );
            prop_assert!(
                (new.upper.delta() - scan.upper.delta()).abs() <= tol,
                "{}",
                name
            );
        }
        Ok(())
    }

    /// Grades over `n` docs, mostly unjudged (so the pool is deep), and two rankings of it.
    fn arb_deep(
        n: usize,
    ) -> impl Strategy<Value = (Vec<Option<i32>>, Vec<usize>, Vec<usize>, usize)> {
        let grades = proptest::collection::vec(
            prop_oneof![3 => Just(None), 1 => (-1i32..4).prop_map(Some)],
            n,
        );
        let perm = move || Just((0..n).collect::<Vec<_>>()).prop_shuffle();
        (grades, perm(), perm(), 0..=n, 0..=n, 0usize..4, 0usize..3).prop_map(
            |(g, mut b, mut c, nb, nc, unretrieved, share)| {
                b.truncate(nb);
                c.truncate(nc);
                // Often the candidate keeps much of the baseline's order (shared documents).
                if share > 0 {
                    let keep = nc.min(nb) / (share + 1);
                    c[..keep].copy_from_slice(&b[..keep]);
                    let mut seen = std::collections::BTreeSet::new();
                    c.retain(|d| seen.insert(*d));
                }
                (g, b, c, unretrieved)
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn the_sweep_equals_the_exhaustive_scan_on_deep_rankings((g, b, c, u) in arb_deep(120), level in 1i32..3, exponential: bool) {
            check_same(&case_with_gains(&g, &b, &c, u, exponential), level, exponential)?;
        }

        #[test]
        fn the_sweep_equals_the_exhaustive_scan_on_short_rankings((g, b, c, u) in arb_deep(12), level in 1i32..3, exponential: bool) {
            check_same(&case_with_gains(&g, &b, &c, u, exponential), level, exponential)?;
        }
    }

    #[test]
    fn the_sweep_equals_the_exhaustive_scan_with_every_document_unjudged() {
        let n = 600;
        let grades = vec![None; n];
        let base: Vec<usize> = (0..n).collect();
        let cand: Vec<usize> = (0..n).rev().collect();
        check_same(&case_with_gains(&grades, &base, &cand, 3, false), 1, false).unwrap();
    }
}
