//! Judged bounds, for runs that `check` evaluates itself: what unjudged documents could do to
//! each gate. Today's figures count them non-relevant (trec_eval). Two more passes of the same
//! pair → resample → judge flow bound the truth: the candidate's unjudged top-k documents counted
//! relevant at the relevance level (the most the change could gain), and the baseline's (the most
//! it could lose). A gate whose decision differs between the passes is "unreliable: unjudged
//! documents could flip it" (`[judged] on-unreliable`, fail by default); a gated slice whose mean
//! judged@k is below `[judged] min-judged` is not judged (the too-small path). When no gated
//! top-k document is unjudged, both bounds are today's figures and the passes are skipped.

use std::collections::BTreeMap;

use crate::config::{Config, OnSmallSlice, OnUnreliable};
use crate::error::Result;
use crate::eval::holes::{collect, Hole};
use crate::eval::{Evaluation, Metric};
use crate::load::{MetricTable, QueryRow};
use crate::model::{Comparison, GateResult, GateStatus, JudgedBounds};
use crate::{judge, pair, resample, slices};

/// Both sides' evaluations and the queries file (for slices).
pub struct Runs<'a> {
    pub baseline: &'a Evaluation,
    pub candidate: &'a Evaluation,
    pub queries: Option<(&'a [QueryRow], &'a str)>,
}

/// The gated metrics (by name) and their cutoffs.
fn gated(cfg: &Config) -> BTreeMap<String, Option<usize>> {
    cfg.gates
        .iter()
        .filter_map(|g| Some((g.metric.clone(), Metric::parse(&g.metric).ok()?.k)))
        .collect()
}

/// One side's table of the gated metrics (optimistic values or today's) and their judged@k.
fn table(
    ev: &Evaluation,
    metrics: &BTreeMap<String, Option<usize>>,
    optimistic: bool,
) -> MetricTable {
    let mut t = ev.to_table("bounds");
    let at = |name: &str| ev.metrics.iter().position(|m| m.to_string() == name);
    t.metrics.clear();
    for (m, k) in metrics {
        if let Some(j) = at(m) {
            let col = ev
                .rows
                .iter()
                .map(|r| {
                    Some(if optimistic {
                        r.optimistic[j]
                    } else {
                        r.values[j]
                    })
                })
                .collect();
            t.metrics.insert(m.clone(), col);
        }
        if let Some(j) = k.and_then(|k| at(&format!("judged@{k}"))) {
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
    let paired = pair::pair(b, c, runs.queries, cfg.inputs.missing, &all)?;
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
    judge::label_comparisons(&mut comps);
    let gates = judge::judge(cfg, &comps)?.results;
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
                .filter(|(rank, _)| k.map_or(true, |k| *rank <= k))
                .map(|(rank, d)| (*rank, d.as_str()))
                .collect();
            (r.qid.as_str(), docs)
        })
        .collect()
}

/// Adds the bounds to the gated comparisons and applies min-judged and on-unreliable to the gate
/// results; returns warnings for the report.
pub fn apply(
    cfg: &Config,
    runs: &Runs,
    comparisons: &mut [Comparison],
    gates: &mut [GateResult],
) -> Result<Vec<String>> {
    let metrics = gated(cfg);
    let names: Vec<String> = metrics.keys().cloned().collect();
    let (bp, cp) = (
        table(runs.baseline, &metrics, false),
        table(runs.candidate, &metrics, false),
    );
    let any_hole = !holes(cfg, runs).is_empty();
    let (bo, co) = (
        table(runs.baseline, &metrics, true),
        table(runs.candidate, &metrics, true),
    );
    let (paired, sl) = paired_slices(cfg, runs, &bp, &cp)?;
    // Without a hole both bounds are today's figures: no extra passes.
    let today = || -> (Vec<Comparison>, Vec<GateResult>) { (comparisons.to_vec(), gates.to_vec()) };
    let (up, up_gates) = match any_hole {
        true => pass(cfg, runs, &bp, &co, &names)?,
        false => today(),
    };
    let (down, down_gates) = match any_hole {
        true => pass(cfg, runs, &bo, &cp, &names)?,
        false => today(),
    };
    let view = Passes {
        up: &up,
        down: &down,
        paired: &paired,
        slices: &sl,
    };
    attach(comparisons, &metrics, &view, runs);
    let mut warnings = Vec::new();
    for (i, r) in gates.iter_mut().enumerate() {
        let Some(c) = comparisons
            .iter()
            .find(|c| c.metric == r.metric && c.slice == r.slice)
        else {
            continue;
        };
        if let Some(w) = min_judged(cfg, c, r) {
            warnings.push(w);
            continue;
        }
        let flips =
            up_gates.get(i).map(|g| g.fails_build) != down_gates.get(i).map(|g| g.fails_build);
        if flips && r.status != GateStatus::TooSmall {
            warnings.push(unreliable(cfg, r, runs, &sl, &paired));
        }
    }
    Ok(warnings)
}

/// The bound passes' comparisons and the pairing and slices of the judged@k columns.
struct Passes<'a> {
    up: &'a [Comparison],
    down: &'a [Comparison],
    paired: &'a pair::Paired,
    slices: &'a [slices::Slice],
}

/// Sets `judged` on every gated comparison: coverage, unjudged counts and the bound deltas.
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
            v.iter()
                .find(|x| x.metric == c.metric && x.slice == c.slice)
                .map(|x| x.delta)
        };
        let (Some(d_up), Some(d_down)) = (find(v.up), find(v.down)) else {
            continue;
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
                    .map(|&i| u.get(paired.ids[i as usize].as_str()).map_or(0, Vec::len))
                    .sum()
            })
        };
        c.judged = Some(JudgedBounds {
            k,
            baseline_judged: judged_mean(|p| &p.baseline),
            candidate_judged: judged_mean(|p| &p.candidate),
            delta: c.delta,
            delta_candidate_optimistic: d_up,
            delta_baseline_optimistic: d_down,
            baseline_unjudged: count(&(unj.0)(k)),
            candidate_unjudged: count(&(unj.1)(k)),
        });
    }
}

/// Too few judgments: the slice's mean judged@k (the lower side) is below `min-judged`.
fn min_judged(cfg: &Config, c: &Comparison, r: &mut GateResult) -> Option<String> {
    let min = cfg.judged.min_judged?;
    let j = c.judged.as_ref()?;
    let lowest = j.baseline_judged?.min(j.candidate_judged?);
    if lowest >= min || r.status == GateStatus::TooSmall {
        return None;
    }
    // Not judged is never a pass: on `all` it fails the build, on a slice `on-small-slice` decides.
    r.status = GateStatus::TooSmall;
    r.passed = false;
    r.fails_build = r.slice == "all" || cfg.slices.on_small_slice == OnSmallSlice::Fail;
    r.decided_by = "too few judgments (min-judged)".into();
    r.detail = format!(
        "mean judged@{} {:.3} < min-judged {min}: too few judgments to judge ({})",
        j.k.unwrap_or(0),
        lowest,
        r.detail
    );
    Some(format!(
        "gate #{} {} on {}: {}",
        r.gate, r.metric, r.slice, r.detail
    ))
}

/// Marks `r` unreliable and says which queries and documents matter most.
fn unreliable(
    cfg: &Config,
    r: &mut GateResult,
    runs: &Runs,
    sl: &[slices::Slice],
    paired: &pair::Paired,
) -> String {
    let why = "unreliable: unjudged documents could flip it";
    let who = matter_most(r, runs, sl, paired, 5);
    if cfg.judged.on_unreliable == OnUnreliable::Fail {
        r.passed = false;
        r.fails_build = true;
        r.status = GateStatus::Fail;
        r.decided_by = format!("{why} (judged bounds)");
    }
    r.detail = format!(
        "{why}: the decision differs between the judged bounds ({})",
        r.detail
    );
    format!(
        "gate #{} {} on {}: {why} ({}); judge these first: {}",
        r.gate,
        r.metric,
        r.slice,
        match cfg.judged.on_unreliable {
            OnUnreliable::Fail => "fails, [judged] on-unreliable = \"fail\"",
            OnUnreliable::Warn => "a warning, [judged] on-unreliable = \"warn\"",
        },
        who
    )
}

/// The slice's queries whose value the missing judgments could move most (largest optimistic −
/// today gap on either side), each with its unjudged top-k docs, best rank first.
fn matter_most(
    r: &GateResult,
    runs: &Runs,
    sl: &[slices::Slice],
    paired: &pair::Paired,
    n: usize,
) -> String {
    let Some(members) = sl.iter().find(|s| s.name == r.slice).map(|s| &s.members) else {
        return String::new();
    };
    let k = Metric::parse(&r.metric).ok().and_then(|m| m.k);
    let gap = |ev: &Evaluation, qid: &str| -> f64 {
        let j = ev.metrics.iter().position(|m| m.to_string() == r.metric);
        let row = ev.rows.iter().find(|x| x.qid == qid);
        match (j, row) {
            (Some(j), Some(x)) => x.optimistic[j] - x.values[j],
            _ => 0.0,
        }
    };
    let mut qs: Vec<(f64, &str)> = members
        .iter()
        .map(|&i| paired.ids[i as usize].as_str())
        .map(|q| (gap(runs.candidate, q).max(gap(runs.baseline, q)), q))
        .filter(|(g, _)| *g > 0.0)
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
