//! Judged bounds, for runs that `check` evaluates itself: what unjudged documents could do to
//! each gate. Today's figures count them non-relevant (trec_eval). Two more passes of the same
//! pair → resample → judge flow bound the truth: the candidate's unjudged top-k documents counted
//! relevant at the relevance level (the most the change could gain), and the baseline's (the most
//! it could lose). A gate whose decision differs between the passes is "unreliable: unjudged
//! documents could flip it" (`[judged] on-unreliable`, fail by default); a gated slice whose mean
//! judged@k is below `[judged] min-judged` is not judged (the too-small path). When no gated
//! top-k document is unjudged, both bounds are today's figures and the passes are skipped.

pub mod files;
pub mod meeting;
pub mod ties;

use std::collections::BTreeMap;

use crate::config::{Config, OnSmallSlice, OnUnreliable};
use crate::error::Result;
use crate::eval::holes::{collect, Hole};
use crate::eval::shared_bounds::{delta_bounds, Bounds, Query, Side};
use crate::eval::{Evaluation, Metric, QueryResult};
use crate::load::{MetricTable, Rows};
use crate::model::looks::{Earlier, Series};
use crate::model::{
    Comparison, DeltaAtBound, GateBounds, GateResult, GateStatus, JudgedBounds, NotJudged,
};
use crate::{pair, resample, slices, verdict};

/// Both sides' evaluations and the queries file (for slices).
pub struct Runs<'a> {
    pub baseline: &'a Evaluation,
    pub candidate: &'a Evaluation,
    pub queries: Option<(&'a Rows, &'a str)>,
}

/// The gated metrics (by name) and their cutoffs.
fn gated(cfg: &Config) -> BTreeMap<String, Option<usize>> {
    cfg.gates
        .iter()
        .filter_map(|g| Some((g.metric.clone(), Metric::parse(&g.metric).ok()?.k)))
        .collect()
}

/// Per gated metric, per query id: the bounds of the query's delta over one shared judgment.
type QueryBounds = BTreeMap<String, BTreeMap<String, Bounds>>;

/// The per-query bounds of every gated metric (queries both sides evaluated).
fn query_bounds(runs: &Runs, metrics: &BTreeMap<String, Option<usize>>) -> QueryBounds {
    let policies = &runs.baseline.summary.policies;
    let cand: BTreeMap<&str, &QueryResult> = runs
        .candidate
        .rows
        .iter()
        .map(|r| (r.qid.as_str(), r))
        .collect();
    fn side(r: &QueryResult) -> Side<'_> {
        Side {
            rels: &r.top_rels,
            unjudged: &r.unjudged,
        }
    }
    let mut out = QueryBounds::new();
    for name in metrics.keys() {
        let Ok(m) = Metric::parse(name) else { continue };
        let per_query = runs
            .baseline
            .rows
            .iter()
            .filter_map(|b| {
                let c = cand.get(b.qid.as_str())?;
                let q = Query {
                    num_rel: b.num_rel,
                    ideal_gains: &b.ideal_gains,
                    rel_level: policies.rel_level,
                    exponential: policies.gain == crate::eval::Gain::Exponential,
                };
                Some((b.qid.clone(), delta_bounds(&q, m, side(b), side(c))))
            })
            .collect();
        out.insert(name.clone(), per_query);
    }
    out
}

/// Which values a table holds: today's, or both sides' at one bound.
#[derive(Clone, Copy)]
enum At {
    Today,
    Lower,
    Upper,
}

/// One side's table of the gated metrics (today's values or those at a bound) and its judged@k.
fn table(
    ev: &Evaluation,
    metrics: &BTreeMap<String, Option<usize>>,
    bounds: &QueryBounds,
    (at, candidate): (At, bool),
) -> MetricTable {
    let mut t = ev.to_table("bounds");
    let pos = |name: &str| ev.metrics.iter().position(|m| m.to_string() == name);
    t.metrics.clear();
    for (m, k) in metrics {
        if let Some(j) = pos(m) {
            let col = ev
                .rows
                .iter()
                .map(|r| {
                    let b = bounds.get(m).and_then(|b| b.get(&r.qid));
                    let v = match (at, b) {
                        (At::Lower, Some(b)) => b.lower,
                        (At::Upper, Some(b)) => b.upper,
                        _ => return Some(r.values[j]),
                    };
                    Some(if candidate { v.candidate } else { v.baseline })
                })
                .collect();
            t.metrics.insert(m.clone(), col);
        }
        if let Some(j) = k.and_then(|k| pos(&format!("judged@{k}"))) {
            let col = ev.rows.iter().map(|r| Some(r.values[j])).collect();
            t.metrics.insert(format!("judged@{}", k.unwrap_or(0)), col);
        }
    }
    t
}

/// `(baseline, candidate)` paired on every column, and the slices.
fn paired_slices(
    cfg: &Config,
    runs: &Runs,
    b: &MetricTable,
    c: &MetricTable,
) -> Result<(pair::Paired, Vec<slices::Slice>)> {
    let all: Vec<String> = b.metrics.keys().cloned().collect();
    let unjudged = crate::eval::gate_input::unjudged_ids([runs.baseline, runs.candidate]);
    let paired = pair::pair_with(b, c, runs.queries, cfg.inputs.missing, &all, &unjudged)?;
    let sl = slices::build(cfg, &paired)?;
    Ok((paired, sl))
}

/// One bound's pass: the gated comparisons and the gate results over `(baseline, candidate)`.
fn pass(
    cfg: &Config,
    runs: &Runs,
    b: &MetricTable,
    c: &MetricTable,
    metrics: &[String],
) -> Result<(Vec<Comparison>, Vec<GateResult>)> {
    let (paired, sl) = paired_slices(cfg, runs, b, c)?;
    let settings = resample::Settings::from_config(cfg);
    let mut comps = resample::compare_all(&paired, &sl, metrics, &settings);
    resample::range::clamp_intervals(&mut comps);
    verdict::label_comparisons(&mut comps);
    let gates = verdict::judge(cfg, &comps)?.results;
    Ok((comps, gates))
}

/// The unjudged docs of the gated cutoffs, both sides, for `--holes`.
pub fn holes(cfg: &Config, runs: &Runs) -> Vec<Hole> {
    let depth = gated(cfg)
        .values()
        .map(|k| k.unwrap_or(usize::MAX))
        .max()
        .unwrap_or(0);
    let side = |ev: &Evaluation, name: &str| -> Vec<(String, String, String, usize)> {
        ev.rows
            .iter()
            .flat_map(|r| {
                r.unjudged
                    .iter()
                    .filter(|(rank, _)| *rank <= depth)
                    .map(|(rank, d)| (r.qid.clone(), d.clone(), name.to_string(), *rank))
            })
            .collect()
    };
    let mut all = side(runs.baseline, "baseline");
    all.extend(side(runs.candidate, "candidate"));
    collect(all)
}

/// Unjudged docs within `k` per query id.
fn unjudged_within(ev: &Evaluation, k: Option<usize>) -> BTreeMap<&str, Vec<(usize, &str)>> {
    ev.rows
        .iter()
        .map(|r| {
            let docs = r
                .unjudged
                .iter()
                .filter(|(rank, _)| k.is_none_or(|k| *rank <= k))
                .map(|(rank, d)| (*rank, d.as_str()))
                .collect();
            (r.qid.as_str(), docs)
        })
        .collect()
}

/// What the judged pass adds to the report: warnings (unreliable gates, too few judgments) and
/// notes (the collection's convention).
#[derive(Default)]
pub struct Found {
    pub warnings: Vec<String>,
    pub notes: Vec<String>,
    /// This attempt's evidence, kept for later attempts: each gated metric's per-query values
    /// at both bounds, the candidate's judged@k.
    pub series: BTreeMap<String, Series>,
    /// Per gated metric ("bounds ndcg@10"): the attempts its bounds and coverage read.
    pub reads: BTreeMap<String, usize>,
}

/// The per-query bounds (none for positive-only qrels) pooled with the earlier attempts', and
/// whether any is open (an unjudged document in this attempt's cutoffs or an earlier one's).
fn pooled_query_bounds(
    runs: &Runs,
    (metrics, positive): (&BTreeMap<String, Option<usize>>, bool),
    earlier: &Earlier,
    found: &mut Found,
) -> (QueryBounds, bool) {
    let mut bounds = match positive {
        true => QueryBounds::new(),
        false => query_bounds(runs, metrics),
    };
    let own_pool = bounds.values().flat_map(|b| b.values()).any(|b| b.pool > 0);
    pool_bounds(&mut bounds, earlier, found);
    let open = |v: &BTreeMap<String, Bounds>| {
        v.values()
            .any(|b| b.lower.baseline != b.upper.baseline || b.lower.candidate != b.upper.candidate)
    };
    let any_pool = own_pool || bounds.values().any(open);
    (bounds, any_pool)
}

/// One side's value at one bound, in a query's [`Bounds`].
type Field = fn(&mut Bounds) -> &mut f64;

/// The per-query bounds of each gated metric pooled with the earlier attempts': each side's
/// value at each bound is the mean over the attempts (so the pooled delta at a bound is the
/// mean of the attempts' deltas at it: still a bound of the pooled delta, since one true
/// judgment of the unjudged documents holds for every attempt). Records this attempt's values
/// in `found.series`, and the attempts read in `found.reads`.
fn pool_bounds(bounds: &mut QueryBounds, earlier: &Earlier, found: &mut Found) {
    for (m, per_query) in bounds.iter_mut() {
        let ids: Vec<String> = per_query.keys().cloned().collect();
        let ids = crate::model::looks::ids_hash(&ids);
        let parts: [(&str, Field); 4] = [
            ("lower baseline", |b| &mut b.lower.baseline),
            ("lower candidate", |b| &mut b.lower.candidate),
            ("upper baseline", |b| &mut b.upper.baseline),
            ("upper candidate", |b| &mut b.upper.candidate),
        ];
        for (part, at) in parts {
            let own = Series {
                metric: m.clone(),
                ids: ids.clone(),
                values: per_query.values_mut().map(|b| *at(b)).collect(),
            };
            let name = format!("{part} {m}");
            let (pooled, n) = earlier.pooled(&name, &own);
            for (b, v) in per_query.values_mut().zip(pooled) {
                *at(b) = v;
            }
            let reads = found.reads.entry(format!("bounds {m}")).or_insert(1);
            *reads = (*reads).max(n);
            found.series.insert(name, own);
        }
    }
}

/// The candidate's judged@k of each gated cutoff pooled with the earlier attempts' (the mean
/// coverage per query), as [`pool_bounds`] records it.
fn pool_judged(
    paired: &mut pair::Paired,
    metrics: &BTreeMap<String, Option<usize>>,
    earlier: &Earlier,
    found: &mut Found,
) {
    let ids = crate::model::looks::ids_hash(&paired.ids);
    for (m, k) in metrics {
        let Some(k) = k else { continue };
        let col = format!("judged@{k}");
        let Some(p) = paired.metrics.get_mut(&col) else {
            continue;
        };
        let own = Series {
            metric: col.clone(),
            ids: ids.clone(),
            values: p.candidate.clone(),
        };
        let (pooled, n) = earlier.pooled(&col, &own);
        p.candidate = pooled;
        let reads = found.reads.entry(format!("bounds {m}")).or_insert(1);
        *reads = (*reads).max(n);
        found.series.insert(col, own);
    }
}

/// True when the evaluated queries hold no judgment ≤ 0: the qrels list only relevant documents
/// (MS MARCO, BEIR style) and unjudged = non-relevant is the collection's own protocol.
pub fn positive_only(runs: &Runs) -> bool {
    let none = |ev: &Evaluation| ev.rows.iter().all(|r| !r.has_nonrelevant);
    none(runs.baseline) && none(runs.candidate)
}

/// Adds the judged figures and bounds to the gated comparisons and applies min-judged and
/// on-unreliable to the gate results. The bounds and the candidate's judged@k read the earlier
/// attempts of the same candidate too (`earlier`: `pool_bounds`, `pool_judged`), as the
/// gated comparisons read their pooled runs.
pub fn apply(
    cfg: &Config,
    runs: &Runs,
    (comparisons, gates): (&mut [Comparison], &mut [GateResult]),
    earlier: &Earlier,
) -> Result<Found> {
    let metrics = gated(cfg);
    let names: Vec<String> = metrics.keys().cloned().collect();
    let positive = positive_only(runs);
    let mut found = Found::default();
    let (bounds, any_pool) = pooled_query_bounds(runs, (&metrics, positive), earlier, &mut found);
    let tab = |ev, at, cand| table(ev, &metrics, &bounds, (at, cand));
    let (bp, cp) = (
        tab(runs.baseline, At::Today, false),
        tab(runs.candidate, At::Today, true),
    );
    let (mut paired, sl) = paired_slices(cfg, runs, &bp, &cp)?;
    pool_judged(&mut paired, &metrics, earlier, &mut found);
    // Without an unjudged document both bounds are today's figures: no extra passes.
    let today = || -> (Vec<Comparison>, Vec<GateResult>) { (comparisons.to_vec(), gates.to_vec()) };
    let at = |a| -> Result<(Vec<Comparison>, Vec<GateResult>)> {
        let (b, c) = (tab(runs.baseline, a, false), tab(runs.candidate, a, true));
        pass(cfg, runs, &b, &c, &names)
    };
    let ((down, down_gates), (up, up_gates)) = match (positive, any_pool) {
        (false, true) => (at(At::Lower)?, at(At::Upper)?),
        _ => (today(), today()),
    };
    let view = Passes {
        up: &up,
        down: &down,
        paired: &paired,
        slices: &sl,
        bounds: &bounds,
        positive,
    };
    attach(comparisons, &metrics, &view, runs);
    if positive {
        found.notes.push(convention_note(runs, comparisons));
    }
    let on: Vec<Option<usize>> = {
        let index = crate::model::OnIndex::new(comparisons, gates);
        gates.iter().map(|r| index.comparison_of(r)).collect()
    };
    for (i, (r, at)) in gates.iter_mut().zip(on).enumerate() {
        let Some(c) = at.map(|k| &comparisons[k]) else {
            continue;
        };
        if let Some(w) = min_judged(cfg, c, r) {
            found.warnings.push(w);
            continue;
        }
        if positive {
            continue;
        }
        let (Some(lo), Some(hi)) = (down_gates.get(i), up_gates.get(i)) else {
            continue;
        };
        let flips = lo.fails_build != hi.fails_build && r.status != GateStatus::TooSmall;
        r.judged = Some(GateBounds {
            lower: decision(lo),
            upper: decision(hi),
            unreliable: flips,
            judge_first: None,
        });
        if flips {
            found.warnings.push(unreliable(cfg, r, c, runs, &view));
        }
    }
    Ok(found)
}

/// `[judged] condensed = true`: the gated comparisons again on both sides' condensed lists
/// (unjudged docs removed before scoring, trec_eval -J), beside today's; the gates' decisions
/// there are reported, they decide nothing.
pub fn condensed(
    cfg: &Config,
    runs: &Runs,
    (b, c): (&MetricTable, &MetricTable),
    comparisons: &mut [Comparison],
    gates: &mut [GateResult],
) -> Result<()> {
    let names: Vec<String> = gated(cfg).keys().cloned().collect();
    let (comps, gs) = pass(cfg, runs, b, c, &names)?;
    for x in comparisons.iter_mut() {
        let same = comps.iter().find(|y| y.same_as(x));
        let Some(j) = x.judged.as_mut() else { continue };
        j.condensed = same.map(|y| DeltaAtBound {
            delta: y.delta,
            ci: y.ci,
        });
    }
    for (r, g) in gates.iter_mut().zip(&gs) {
        r.condensed = Some(decision(g));
    }
    Ok(())
}

/// A gate's decision in one word: pass, fail or not-judged.
fn decision(g: &GateResult) -> String {
    match g.status {
        GateStatus::Pass => "pass",
        GateStatus::Fail => "fail",
        GateStatus::TooSmall => "not-judged",
        GateStatus::Untouched => "untouched",
        GateStatus::Inconclusive => "inconclusive",
    }
    .into()
}

/// The note for qrels that list only relevant documents, with each side's mean judged@k.
fn convention_note(runs: &Runs, comparisons: &[Comparison]) -> String {
    let mut seen = Vec::new();
    for c in comparisons.iter().filter(|c| c.slice == "all") {
        let Some(j) = &c.judged else { continue };
        let (Some(k), Some(b), Some(cj)) = (j.k, j.baseline_judged, j.candidate_judged) else {
            continue;
        };
        let s = format!("judged@{k} baseline {b:.3}, candidate {cj:.3}");
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    let figures = match seen.is_empty() {
        true => String::new(),
        false => format!(" ({})", seen.join("; ")),
    };
    format!(
        "the qrels list only relevant documents (no judgment ≤ 0 among the {} evaluated queries): \
         unjudged = non-relevant is this collection's own protocol, so no judged bounds are \
         computed and no gate is unreliable for it{figures}",
        runs.baseline.rows.len()
    )
}

/// The bound passes' comparisons, the pairing and slices of the judged@k columns, and the
/// per-query bounds.
struct Passes<'a> {
    up: &'a [Comparison],
    down: &'a [Comparison],
    paired: &'a pair::Paired,
    slices: &'a [slices::Slice],
    bounds: &'a QueryBounds,
    positive: bool,
}

/// Sets `judged` on every gated comparison: coverage, unjudged counts and the bounds.
fn attach(
    comparisons: &mut [Comparison],
    metrics: &BTreeMap<String, Option<usize>>,
    v: &Passes,
    runs: &Runs,
) {
    let (paired, sl) = (v.paired, v.slices);
    let unj = (
        |k| unjudged_within(runs.baseline, k),
        |k| unjudged_within(runs.candidate, k),
    );
    for c in comparisons
        .iter_mut()
        .filter(|c| metrics.contains_key(&c.metric))
    {
        let find = |v: &[Comparison]| {
            v.iter().find(|x| x.same_as(c)).map(|x| DeltaAtBound {
                delta: x.delta,
                ci: x.ci,
            })
        };
        let k = metrics[&c.metric];
        let members = sl.iter().find(|s| s.name == c.slice).map(|s| &s.members);
        let judged_mean = |side: fn(&pair::MetricPair) -> &Vec<f64>| {
            let col = paired.metrics.get(&format!("judged@{}", k?))?;
            let m = members?;
            Some(m.iter().map(|&i| side(col)[i as usize]).sum::<f64>() / m.len().max(1) as f64)
        };
        let count = |u: &BTreeMap<&str, Vec<(usize, &str)>>| {
            members.map_or(0, |m| {
                m.iter()
                    .map(|&i| u.get(&paired.ids[i as usize]).map_or(0, Vec::len))
                    .sum()
            })
        };
        let exact = v
            .bounds
            .get(&c.metric)
            .is_none_or(|b| b.values().all(|b| b.exact));
        c.judged = Some(JudgedBounds {
            k,
            baseline_judged: judged_mean(|p| &p.baseline),
            candidate_judged: judged_mean(|p| &p.candidate),
            delta: c.delta,
            lower: if v.positive { None } else { find(v.down) },
            upper: if v.positive { None } else { find(v.up) },
            exact,
            not_computed: v.positive.then(|| POSITIVE_ONLY.to_string()),
            condensed: None,
            baseline_unjudged: Some(count(&(unj.0)(k))),
            candidate_unjudged: Some(count(&(unj.1)(k))),
        });
    }
}

/// Why no bounds: the qrels' convention.
pub const POSITIVE_ONLY: &str =
    "positive-only qrels: the qrels list only relevant documents, unjudged = non-relevant is the collection's protocol";

/// Too few judgments: the slice's mean judged@k (the lower side) is below `min-judged`.
fn min_judged(cfg: &Config, c: &Comparison, r: &mut GateResult) -> Option<String> {
    let min = cfg.judged.min_judged?;
    let j = c.judged.as_ref()?;
    let lowest = j.baseline_judged?.min(j.candidate_judged?);
    if lowest >= min || matches!(r.status, GateStatus::TooSmall | GateStatus::Untouched) {
        return None;
    }
    let base = j.baseline_judged?;
    if base < min {
        // The baseline's coverage is the setup's (the trusted side's pool): not judged, never a
        // pass; on `all` it fails the build, on a slice `on-small-slice` decides.
        r.status = GateStatus::TooSmall;
        r.passed = false;
        r.fails_build = r.slice == "all" || cfg.slices.on_small_slice != OnSmallSlice::Warn;
        r.not_judged = Some(NotJudged::TooFewJudgments);
        r.decided_by = NotJudged::TooFewJudgments.decided_by().into();
        r.detail = format!(
            "mean judged@{} {:.3} < min-judged {min}: too few judgments to judge ({})",
            j.k.unwrap_or(0),
            lowest,
            r.detail
        );
    } else {
        // Only the candidate's rankings fall below: undecided on this pull request; it fails
        // at an observed drop of half the margin or more (or when its rule failed), and is
        // inconclusive otherwise (`verdict::undecided`).
        let why = format!(
            "the candidate's mean judged@{} {:.3} < min-judged {min}, too few judgments to judge",
            j.k.unwrap_or(0),
            lowest,
        );
        crate::verdict::undecided(r, &why, NotJudged::TooFewJudgments, c);
    }
    Some(format!(
        "gate #{} {} on {}: {}",
        r.gate,
        r.name(),
        r.slice,
        r.detail
    ))
}

/// Marks `r` unreliable and says which queries and documents matter most.
fn unreliable(cfg: &Config, r: &mut GateResult, c: &Comparison, runs: &Runs, v: &Passes) -> String {
    let why = "unreliable: unjudged documents could flip it";
    let who = matter_most(r, runs, v, 5);
    if let Some(g) = r.judged.as_mut() {
        g.judge_first = Some(who.clone());
    }
    let at = |b: Option<&DeltaAtBound>, d: &str| {
        b.map_or(String::new(), |b| {
            format!(
                "{} → {d}",
                crate::numbers::delta_and_interval(b.delta, b.ci)
            )
        })
    };
    let j = c.judged.as_ref();
    let g = r.judged.clone().expect("set before");
    let bounds = format!(
        "lower bound {}, upper bound {}",
        at(j.and_then(|j| j.lower.as_ref()), &g.lower),
        at(j.and_then(|j| j.upper.as_ref()), &g.upper)
    );
    // The gate's "why" leads with what decided it: unreliability when it fails the gate, the
    // gate's own reason when it only warns (a passing gate's why says why it passed). The
    // bounds with their intervals are in the warning and the judged table.
    if cfg.judged.on_unreliable == OnUnreliable::Fail {
        r.passed = false;
        r.fails_build = true;
        r.status = GateStatus::Fail;
        r.decided_by = format!("{why} (judged bounds)");
        r.detail = format!("{why}: {bounds} ({})", r.detail);
    } else {
        r.detail = format!(
            "{}; warning, {why} ({} at the lower bound, {} at the upper)",
            r.detail, g.lower, g.upper
        );
    }
    format!(
        "gate #{} {} on {}: {why} ({}): {bounds}; judge these first: {}",
        r.gate,
        r.name(),
        r.slice,
        match cfg.judged.on_unreliable {
            OnUnreliable::Fail => "fails, [judged] on-unreliable = \"fail\"",
            OnUnreliable::Warn => "a warning, [judged] on-unreliable = \"warn\"",
        },
        who
    )
}

/// The slice's queries whose delta the missing judgments could move most (widest bounds), each
/// with its unjudged top-k docs on either side, best rank first.
fn matter_most(r: &GateResult, runs: &Runs, v: &Passes, n: usize) -> String {
    let Some(members) = v
        .slices
        .iter()
        .find(|s| s.name == r.slice)
        .map(|s| &s.members)
    else {
        return String::new();
    };
    let k = Metric::parse(&r.metric).ok().and_then(|m| m.k);
    let per_query = v.bounds.get(&r.metric);
    let width = |q: &str| {
        per_query
            .and_then(|b| b.get(q))
            .map_or(0.0, |b| b.upper.delta() - b.lower.delta())
    };
    let mut qs: Vec<(f64, &str)> = members
        .iter()
        .map(|&i| &v.paired.ids[i as usize])
        .map(|q| (width(q), q))
        .filter(|(w, _)| *w > 0.0)
        .collect();
    qs.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    let (bu, cu) = (
        unjudged_within(runs.baseline, k),
        unjudged_within(runs.candidate, k),
    );
    let docs = |u: &BTreeMap<&str, Vec<(usize, &str)>>, q: &str| {
        u.get(q).map_or(String::new(), |d| {
            d.iter()
                .take(3)
                .map(|(rank, d)| format!("{d}@{rank}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
    };
    qs.iter()
        .take(n)
        .map(|(_, q)| {
            let parts: Vec<String> = [("candidate", docs(&cu, q)), ("baseline", docs(&bu, q))]
                .into_iter()
                .filter(|(_, d)| !d.is_empty())
                .map(|(side, d)| format!("{side} {d}"))
                .collect();
            format!("{q} ({})", parts.join("; "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}
