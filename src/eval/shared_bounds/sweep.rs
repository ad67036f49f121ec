//! The bounds of the module header in one sweep over the assignment sizes: linear (or n log n)
//! in the ranking's depth, never a fresh evaluation per size.
//!
//! The exhaustive scan evaluates every candidate assignment (size m = 1 … |pool|, the best and
//! the worst of each size, or each singleton) from scratch, O(depth) each: quadratic in one
//! query's depth. Here each candidate's values are updated from the previous size's in O(1)
//! (prefix sums of the sorted contributions, the ideal DCG as runs of equal gains over a table of
//! discounts, AP's sum as each inserted rank changes it, R-precision's classes as counts over
//! the cutoff R + m), so all of them cost O(depth + |pool| log |pool|).
//!
//! Counting metrics (p, recall, hit, complete, mrr) are computed from the same integers as the
//! metric itself, so their values are bit for bit those of the exhaustive scan. For the others
//! (ndcg, map, rprec) the sweep sums in another order, so it only chooses the assignment: the
//! first, in the scan's order, whose delta is within a rounding tolerance ([`tie_tolerance`],
//! about 1e-14 × the depth) of the best, and that assignment's values are computed again exactly
//! as the metric computes them. Where no two candidates' deltas tie within that tolerance this
//! is the exhaustive scan's choice, value for value; where they tie (as when documents both
//! sides rank alike join the assignment) the smaller assignment is kept, where the scan kept
//! whichever rounded higher.

use super::{ap_of, contribution, cut, merged, values, Doc, Extremes, Query, Side, Values};
use crate::eval::metrics::{Judged, Kind, Metric};

/// A rounding tolerance for sums over `terms` terms of values near 1.
fn tolerance(terms: usize) -> f64 {
    64.0 * f64::EPSILON * (terms + 16) as f64
}

/// Picks, among candidates given in the exhaustive scan's order with `fast` (screening) deltas,
/// the first whose delta is within `tol` of the best (today's values, the empty assignment,
/// come first), for each bound, and sets it to that candidate's `exact` values (the metric's
/// own computation of that assignment). With `tol = 0` and exact `fast` values this is the
/// scan's rule, the first strict improvement on today.
fn settle(ex: &mut Extremes, fast: &[Values], tol: f64, exact: impl Fn(usize) -> Values) {
    for upper in [true, false] {
        let key = |v: &Values| if upper { v.delta() } else { -v.delta() };
        let today = key(if upper { &ex.upper } else { &ex.lower });
        let best = fast.iter().map(key).fold(today, f64::max);
        if today >= best - tol {
            continue;
        }
        let Some(i) = (0..fast.len()).find(|&i| key(&fast[i]) >= best - tol) else {
            continue;
        };
        match upper {
            true => ex.upper = exact(i),
            false => ex.lower = exact(i),
        }
    }
}

/// Two deltas this close are a tie (the sums behind them round differently in different
/// orders): the tie keeps the smaller assignment, as the module header of `shared_bounds` says.
pub(super) fn tie_tolerance(q: &Query, (base, cand): (Side, Side), pool: usize) -> f64 {
    tolerance(base.rels.len() + cand.rels.len() + q.ideal_gains.len() + pool)
}

/// The judged relevant documents in a side's cutoff, as 1-based ranks ascending.
fn judged_relevant(q: &Query, m: Metric, rels: &[i32]) -> Vec<usize> {
    (0..cut(m, rels.len()))
        .filter(|&i| rels[i] >= q.rel_level)
        .map(|i| i + 1)
        .collect()
}

/// `Judged::value` of a counting metric from its count of relevant documents in the cutoff and R.
fn counted(m: Metric, hits: usize, num_rel: usize) -> f64 {
    if num_rel == 0 {
        return 0.0;
    }
    match m.kind {
        Kind::Recall => hits as f64 / num_rel as f64,
        Kind::P => hits as f64 / m.k.unwrap_or(1) as f64,
        Kind::Hit => f64::from(hits > 0),
        Kind::Complete => f64::from(hits == num_rel),
        _ => unreachable!("not a counting metric"),
    }
}

/// mrr and complete: the empty assignment or a singleton is optimal (see the module header of
/// `shared_bounds`); each singleton's values in O(1).
pub(super) fn singletons(
    q: &Query,
    m: Metric,
    (base, cand): (Side, Side),
    docs: &[Doc],
    ex: &mut Extremes,
) {
    let (jb, jc) = (
        judged_relevant(q, m, base.rels),
        judged_relevant(q, m, cand.rels),
    );
    let side = |judged: &[usize], rank: Option<usize>| -> f64 {
        match m.kind {
            Kind::Mrr => {
                let first = judged.first().copied().into_iter().chain(rank).min();
                first.map_or(0.0, |r| 1.0 / r as f64)
            }
            _ => counted(m, judged.len() + usize::from(rank.is_some()), q.num_rel + 1),
        }
    };
    let fast: Vec<Values> = docs
        .iter()
        .map(|d| Values {
            baseline: side(&jb, d.base),
            candidate: side(&jc, d.cand),
        })
        .collect();
    settle(ex, &fast, 0.0, |i| fast[i]);
}

/// The ideal DCG with `extra` more gains of the relevance level, for every `extra`: the ideal
/// list as runs of equal gains over a prefix table of discounts.
struct IdealDcg {
    /// `head[p]`: the DCG of the first `p` ideal gains above the level's gain.
    head: Vec<f64>,
    /// The level's gain and where its run starts.
    gain: f64,
    above: usize,
    /// Runs `(gain, start, end)` of the gains at or below the level's, indices from `above`.
    tail: Vec<(f64, usize, usize)>,
    /// `discount[p]`: the sum of 1 / log2(i + 2) for i < p.
    discount: Vec<f64>,
    len: usize,
    keep: usize,
}

impl IdealDcg {
    fn new(q: &Query, m: Metric, gain: f64, most_extra: usize) -> IdealDcg {
        let gains = q.ideal_gains;
        let above = gains.partition_point(|&x| x > gain);
        let keep = m.k.unwrap_or(usize::MAX);
        let w = |i: usize| 1.0 / ((i + 2) as f64).log2();
        let mut head = vec![0.0];
        for (i, g) in gains[..above].iter().enumerate() {
            head.push(head[i] + g / ((i + 2) as f64).log2());
        }
        let mut tail: Vec<(f64, usize, usize)> = Vec::new();
        for (j, &g) in gains[above..].iter().enumerate() {
            match tail.last_mut() {
                Some(run) if run.0 == g => run.2 = j + 1,
                _ => tail.push((g, j, j + 1)),
            }
        }
        let top = (gains.len() + most_extra).min(keep);
        let mut discount = Vec::with_capacity(top + 1);
        discount.push(0.0);
        for i in 0..top {
            discount.push(discount[i] + w(i));
        }
        IdealDcg {
            head,
            gain,
            above,
            tail,
            discount,
            len: gains.len(),
            keep,
        }
    }

    fn at(&self, extra: usize) -> f64 {
        let icut = (self.len + extra).min(self.keep);
        let d = |p: usize| self.discount[p.min(icut)];
        let start = self.above + extra;
        let runs: f64 = self
            .tail
            .iter()
            .map(|&(g, s, e)| g * (d(start + e) - d(start + s)))
            .sum();
        self.head[self.above.min(icut)] + self.gain * (d(start) - d(self.above)) + runs
    }
}

/// One side's value under today's judgments: its relevant count in the cutoff, or its DCG.
fn today_score(q: &Query, m: Metric, rels: &[i32], gain_of: impl Fn(i32) -> f64) -> f64 {
    let c = cut(m, rels.len());
    match m.kind {
        Kind::Ndcg => (0..c)
            .map(|i| gain_of(rels[i]) / ((i + 2) as f64).log2())
            .fold(0.0, |a, x| a + x),
        _ => rels[..c].iter().filter(|&&g| g >= q.rel_level).count() as f64,
    }
}

/// p, recall, hit and ndcg: the documents by contribution (sorted once), the best and the worst
/// `extra` of them for every `extra`, each side's value from prefix sums.
pub(super) fn linear(q: &Query, m: Metric, sides: (Side, Side), docs: &[Doc], ex: &mut Extremes) {
    let (base, cand) = sides;
    let mut keyed: Vec<(f64, &Doc)> = docs.iter().map(|d| (contribution(q, m, d, 1), d)).collect();
    keyed.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.doc.cmp(b.1.doc)));
    let j = Judged {
        rels: &[],
        num_rel: 0,
        ideal_gains: &[],
        rel_level: q.rel_level,
        exponential: q.exponential,
    };
    let g = j.gain(q.rel_level);
    let part = |rank: Option<usize>| match (m.kind, rank) {
        (_, None) => 0.0,
        (Kind::Ndcg, Some(r)) => g / ((r + 1) as f64).log2(),
        (_, Some(_)) => 1.0,
    };
    // Prefix sums of each side's part, in the sorted order.
    let prefix = |rank: fn(&Doc) -> Option<usize>| -> Vec<f64> {
        let mut v = vec![0.0];
        for (i, (_, d)) in keyed.iter().enumerate() {
            v.push(v[i] + part(rank(d)));
        }
        v
    };
    let (pb, pc) = (prefix(|d| d.base), prefix(|d| d.cand));
    let (tb, tc) = (
        today_score(q, m, base.rels, |r| j.gain(r)),
        today_score(q, m, cand.rels, |r| j.gain(r)),
    );
    let n = docs.len();
    let ideal = (m.kind == Kind::Ndcg).then(|| IdealDcg::new(q, m, g, n));
    let side = |today: f64, added: f64, extra: usize| -> f64 {
        match &ideal {
            Some(ideal) => {
                let idcg = ideal.at(extra);
                if idcg > 0.0 {
                    (today + added) / idcg
                } else {
                    0.0
                }
            }
            None => counted(m, (today + added) as usize, q.num_rel + extra),
        }
    };
    let fast: Vec<Values> = (1..=n)
        .flat_map(|extra| {
            let top = (pb[extra], pc[extra]);
            let bottom = (pb[n] - pb[n - extra], pc[n] - pc[n - extra]);
            [top, bottom].map(|(b, c)| Values {
                baseline: side(tb, b, extra),
                candidate: side(tc, c, extra),
            })
        })
        .collect();
    let chosen = |i: usize| -> Vec<&Doc> {
        let extra = i / 2 + 1;
        let range = match i % 2 {
            0 => 0..extra,
            _ => n - extra..n,
        };
        keyed[range].iter().map(|k| k.1).collect()
    };
    match m.kind {
        Kind::Ndcg => settle(ex, &fast, tie_tolerance(q, sides, n), |i| {
            values(q, m, sides, &chosen(i))
        }),
        _ => settle(ex, &fast, 0.0, |i| fast[i]),
    }
}

/// Counts of documents by rank: `at_most[t]` is how many have a rank ≤ t (t ≤ `top`).
fn at_most(ranks: impl Iterator<Item = usize>, top: usize) -> Vec<usize> {
    let mut count = vec![0usize; top + 2];
    for r in ranks {
        count[r.min(top + 1)] += 1;
    }
    let mut sum = 0;
    count
        .iter()
        .map(|c| {
            sum += c;
            sum
        })
        .collect()
}

/// R-precision: the cutoff is R + m, so a document's contribution (+1 only the candidate ranks
/// it within the cutoff, −1 only the baseline, 0 both or neither) changes with m; the classes are
/// counted for every cutoff, and the best (worst) `extra` documents take +1 (−1) first, then 0.
pub(super) fn rprec(q: &Query, m: Metric, sides: (Side, Side), docs: &[Doc], ex: &mut Extremes) {
    let (base, cand) = sides;
    let n = docs.len();
    let top = q.num_rel + n;
    let never = top + 1;
    let (a, b, both) = (
        at_most(docs.iter().map(|d| d.cand.unwrap_or(never)), top),
        at_most(docs.iter().map(|d| d.base.unwrap_or(never)), top),
        at_most(
            docs.iter()
                .map(|d| d.cand.unwrap_or(never).max(d.base.unwrap_or(never))),
            top,
        ),
    );
    let judged = |rels: &[i32]| at_most(judged_relevant(q, m, rels).into_iter(), top);
    let (jb, jc) = (judged(base.rels), judged(cand.rels));
    let fast: Vec<Values> = (1..=n)
        .flat_map(|extra| {
            let t = q.num_rel + extra;
            let (plus, minus) = (a[t] - both[t], b[t] - both[t]);
            let zero = n - plus - minus;
            let judged = jc[t] as f64 - jb[t] as f64;
            let gained = |first: usize, then_zero: usize| {
                let p = extra.min(first);
                let rest = extra - p - (extra - p).min(then_zero);
                (p, rest)
            };
            let (p, mi) = gained(plus, zero);
            let (mi2, p2) = gained(minus, zero);
            [p as f64 - mi as f64, p2 as f64 - mi2 as f64].map(|d| Values {
                baseline: 0.0,
                candidate: (judged + d) / t as f64,
            })
        })
        .collect();
    let exact = |i: usize| -> Values {
        let extra = i / 2 + 1;
        let mut keyed: Vec<(f64, &Doc)> = docs
            .iter()
            .map(|d| (contribution(q, m, d, extra), d))
            .collect();
        keyed.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.doc.cmp(b.1.doc)));
        let range = match i % 2 {
            0 => 0..extra,
            _ => n - extra..n,
        };
        let chosen: Vec<&Doc> = keyed[range].iter().map(|k| k.1).collect();
        values(q, m, sides, &chosen)
    };
    settle(ex, &fast, tie_tolerance(q, sides, n), exact);
}

/// One side's AP sums for every `extra`: `best[e]` with its `e` earliest pool ranks relevant,
/// `worst[e]` with its pool documents outside the cutoff first, then its latest ranks.
/// `ranks` are the side's pool ranks in the cutoff, ascending; `judged` its relevant ranks.
fn ap_sums(ranks: &[usize], judged: &[usize], n: usize) -> (Vec<f64>, Vec<f64>) {
    // suffix[i]: the sum of 1 / r over judged[i..].
    let mut suffix = vec![0.0; judged.len() + 1];
    for i in (0..judged.len()).rev() {
        suffix[i] = suffix[i + 1] + 1.0 / judged[i] as f64;
    }
    let today = ap_of(judged.to_vec(), 1);
    let before = |p: usize| judged.partition_point(|&r| r < p);
    let mut best = vec![today];
    for (i, &p) in ranks.iter().enumerate() {
        let k = before(p);
        best.push(best[i] + (k + i + 1) as f64 / p as f64 + suffix[k]);
    }
    while best.len() <= n {
        best.push(best[best.len() - 1]);
    }
    let outside = n - ranks.len();
    let mut worst = vec![today; outside + 1];
    let mut chosen = 0.0;
    for &p in ranks.iter().rev() {
        let k = before(p);
        let last = worst[worst.len() - 1];
        worst.push(last + (k + 1) as f64 / p as f64 + suffix[k] + chosen);
        chosen += 1.0 / p as f64;
    }
    (best, worst)
}

/// AP over a large pool: each side's own extreme assignment of each size (see the module header
/// of `shared_bounds`), each side's sum updated rank by rank.
pub(super) fn ap_wide(
    q: &Query,
    m: Metric,
    (base, cand): (Side, Side),
    docs: &[Doc],
    ex: &mut Extremes,
) {
    let ranks = |rank: fn(&Doc) -> Option<usize>| -> Vec<usize> {
        let mut v: Vec<usize> = docs.iter().filter_map(rank).collect();
        v.sort_unstable();
        v
    };
    let (c, b) = (ranks(|d| d.cand), ranks(|d| d.base));
    let n = docs.len();
    let (jb, jc) = (
        judged_relevant(q, m, base.rels),
        judged_relevant(q, m, cand.rels),
    );
    let ((bb, bw), (cb, cw)) = (ap_sums(&b, &jb, n), ap_sums(&c, &jc, n));
    let fast: Vec<Values> = (1..=n)
        .flat_map(|extra| {
            let r = (q.num_rel + extra) as f64;
            [(bw[extra], cb[extra]), (bb[extra], cw[extra])].map(|(b, c)| Values {
                baseline: b / r,
                candidate: c / r,
            })
        })
        .collect();
    let best = |r: &[usize], extra: usize| r[..extra.min(r.len())].to_vec();
    let worst = |r: &[usize], extra: usize| {
        let inside = extra.saturating_sub(n - r.len());
        r[r.len() - inside..].to_vec()
    };
    let exact = |i: usize| -> Values {
        let extra = i / 2 + 1;
        let at = |judged: &[usize], r: Vec<usize>| ap_of(merged(judged, &r), q.num_rel + extra);
        match i % 2 {
            0 => Values {
                baseline: at(&jb, worst(&b, extra)),
                candidate: at(&jc, best(&c, extra)),
            },
            _ => Values {
                baseline: at(&jb, best(&b, extra)),
                candidate: at(&jc, worst(&c, extra)),
            },
        }
    };
    settle(ex, &fast, tie_tolerance(q, (base, cand), n), exact);
}
