//! Tie bounds, for runs that `check` evaluates itself: how much each gated metric depends on the
//! order of tied scores (per side: queries whose value the order moves, the mean between the
//! least and the most favourable order; `eval/ties.rs` computes them per query, exactly), and
//! whether a gate's decision could change with it. Like the judged bounds, two more passes of
//! the same pair → resample → judge flow re-judge every gate: "against" the change (the
//! candidate's tied documents in their least favourable order, the baseline's in their most
//! favourable) and "for" it (the reverse). A gate that fails the build in one pass and not in
//! the other, or not as today, gets a warning naming the order that flips it. The passes decide
//! nothing; when no gated value depends on the tie order they are skipped.

use std::collections::BTreeMap;

use super::{decision, gated, pass, Runs};
use crate::config::Config;
use crate::error::Result;
use crate::eval::ties::TieSummary;
use crate::eval::Evaluation;
use crate::load::MetricTable;
use crate::model::{GateResult, TieGate, TieMetric, TieReport};

/// One side's tied documents in their least or most favourable order.
#[derive(Clone, Copy, PartialEq)]
enum Extreme {
    Worst,
    Best,
}

/// One side's table of the gated metrics with every query at one extreme order.
fn table(ev: &Evaluation, metrics: &[String], at: Extreme) -> MetricTable {
    let mut t = ev.to_table("ties");
    t.metrics.clear();
    for name in metrics {
        let Some(j) = ev.metrics.iter().position(|m| &m.to_string() == name) else {
            continue;
        };
        let col = ev
            .rows
            .iter()
            .map(|r| {
                Some(match (&r.ties, at) {
                    (Some(t), Extreme::Worst) => t.worst[j],
                    (Some(t), Extreme::Best) => t.best[j],
                    (None, _) => r.values[j],
                })
            })
            .collect();
        t.metrics.insert(name.clone(), col);
    }
    t
}

/// The tie sensitivity of each gated metric on one side.
fn side_metrics(side: &str, ties: &TieSummary, metrics: &[String]) -> Vec<TieMetric> {
    ties.metrics
        .iter()
        .filter(|m| metrics.contains(&m.metric))
        .map(|m| TieMetric {
            metric: m.metric.clone(),
            side: side.into(),
            evaluated: ties.evaluated,
            queries_depending: m.queries_depending,
            tie_groups: ties.tie_groups,
            mean: m.mean,
            worst_mean: m.worst_mean,
            best_mean: m.best_mean,
        })
        .collect()
}

/// Why a check on runs has no tie section.
pub const NOT_ASSESSED: &str = "tie sensitivity not assessed: the runs are kept in file order ([eval] order = \"given\") or folded by a chunk map, so no score tie is a tie of the ranking";

/// The tie section and its warnings, or the note saying why there is none (either side kept in
/// file order or folded by a chunk map). `gates` are today's results, before the judged bounds
/// change them.
pub fn apply(
    cfg: &Config,
    runs: &Runs,
    gates: &[GateResult],
) -> Result<std::result::Result<(TieReport, Vec<String>), &'static str>> {
    let (Some(bt), Some(ct)) = (&runs.baseline.summary.ties, &runs.candidate.summary.ties) else {
        return Ok(Err(NOT_ASSESSED));
    };
    let names: Vec<String> = gated(cfg).keys().cloned().collect();
    let mut metrics = side_metrics("baseline", bt, &names);
    metrics.extend(side_metrics("candidate", ct, &names));
    let moved = metrics.iter().any(|m| m.queries_depending > 0);
    let rejudge = |base: Extreme, cand: Extreme| -> Result<Vec<GateResult>> {
        match moved {
            false => Ok(gates.to_vec()),
            true => {
                let b = table(runs.baseline, &names, base);
                let c = table(runs.candidate, &names, cand);
                Ok(pass(cfg, runs, &b, &c, &names)?.1)
            }
        }
    };
    let against = rejudge(Extreme::Best, Extreme::Worst)?;
    let favour = rejudge(Extreme::Worst, Extreme::Best)?;
    // A gate has a result per slice and per rule (max-drop and min-mean on one metric).
    let by_key = |v: &[GateResult]| -> BTreeMap<(usize, String, String), GateResult> {
        v.iter()
            .map(|g| ((g.gate, g.slice.clone(), g.rule.clone()), g.clone()))
            .collect()
    };
    let (against, favour) = (by_key(&against), by_key(&favour));
    let mut report = TieReport {
        metrics,
        gates: Vec::new(),
    };
    let mut warnings = Vec::new();
    for g in gates {
        let key = (g.gate, g.slice.clone(), g.rule.clone());
        let (Some(a), Some(f)) = (against.get(&key), favour.get(&key)) else {
            continue;
        };
        let today = decision(g);
        let could_change = decision(a) != today || decision(f) != today;
        let t = TieGate {
            gate: g.gate,
            metric: g.metric.clone(),
            slice: g.slice.clone(),
            rule: g.rule.clone(),
            value: g.value,
            decision: today,
            against_value: a.value,
            against: decision(a),
            for_value: f.value,
            for_decision: decision(f),
            could_change,
        };
        if could_change {
            warnings.push(warning(&t));
        }
        report.gates.push(t);
    }
    Ok(Ok((report, warnings)))
}

/// "gate #1 ndcg@10 on all: the order of tied scores could change its decision: ...".
fn warning(t: &TieGate) -> String {
    let mut flips = Vec::new();
    if t.against != t.decision {
        flips.push(format!(
            "{} (value {:.4}) with the candidate's tied documents in their least favourable order and \
             the baseline's in their most favourable",
            t.against, t.against_value
        ));
    }
    if t.for_decision != t.decision {
        flips.push(format!(
            "{} (value {:.4}) with the candidate's tied documents in their most favourable order and \
             the baseline's in their least favourable",
            t.for_decision, t.for_value
        ));
    }
    format!(
        "gate #{} {} on {} ({}): the order of tied scores could change its decision: {} (value {:.4}) with \
         trec_eval's order (docid descending), {}; break the ties in the runs (e.g. a second \
         score) or read the tie section",
        t.gate,
        t.metric,
        t.slice,
        t.rule,
        t.decision,
        t.value,
        flips.join("; ")
    )
}
