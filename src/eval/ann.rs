//! `ann-recall@k`: |ANN top k ∩ exact top k| / k, for an approximate-nearest-neighbour run
//! measured against an exact (brute-force) run of the same embedding. It measures index loss,
//! not relevance, so it is evaluated on its own (no qrels) and reported separately. Both runs are
//! ordered by the same `--order` rule. Queries of the exact run missing from the ANN run score
//! 0; ANN-only queries are ignored and counted. The denominator is always k, as in
//! ann-benchmarks: an exact list shorter than k caps the attainable value below 1.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;

use super::engine::{EvalSummary, Evaluation, Policies, QueryResult};
use super::metrics::{Kind, Metric};
use super::run::{for_each_query, RunSpec};
use super::{EvalOptions, Format};
use crate::error::{Error, Result};

pub fn evaluate_ann(
    run: &Path,
    run_shown: &str,
    exact: &Path,
    exact_shown: &str,
    ms: &[Metric],
    opts: &EvalOptions,
) -> Result<Evaluation> {
    if let Some(m) = ms.iter().find(|m| m.kind != Kind::AnnRecall) {
        return Err(Error::Usage(format!(
            "{m} needs qrels; ann-recall@k is evaluated on its own (--exact-run, no other metrics)"
        )));
    }
    let kmax = ms.iter().filter_map(|m| m.k).max().unwrap_or(0);
    let exact_spec = spec_for(exact, exact_shown, opts)?;
    let truth = read_exact(exact, exact_shown, &exact_spec, kmax)?;
    let spec = spec_for(run, run_shown, opts)?;
    let scored = score_run(run, run_shown, &spec, &truth, ms)?;
    let summary = EvalSummary {
        qrels: exact_shown.to_string(),
        run: run_shown.to_string(),
        metrics: ms.iter().map(Metric::to_string).collect(),
        queries_in_qrels: truth.len(),
        evaluated: scored.rows.len(),
        excluded: Vec::new(),
        graded_only: Vec::new(),
        no_relevant: Vec::new(),
        missing_from_run: scored.missing,
        run_only_ignored: scored.ann_only,
        run_only: Vec::new(),
        scores_disagree: Vec::new(),
        deepest: 0,
        means: means(ms, &scored.rows),
        pooled: BTreeMap::new(),
        ties: None,
        policies: policies(exact_spec.format, &spec, opts),
        protocol: None,
    };
    Ok(Evaluation {
        metrics: ms.to_vec(),
        rows: scored.rows,
        summary,
    })
}

/// The exact run's top documents of each query, with the line it starts on.
type Truth = BTreeMap<String, (usize, Vec<Vec<u8>>)>;

/// How to read a run: `--run-format` or recognised from content and name; `--order`, or the
/// format's default (by score where there are scores).
fn spec_for(p: &Path, shown: &str, opts: &EvalOptions) -> Result<RunSpec<'static>> {
    let format = Format::resolve(p, shown, super::Role::Run, opts.run_format)?;
    let order = super::engine::run_order(opts, (p, shown), format)?;
    Ok(RunSpec {
        format,
        order,
        chunks: None,
        corpus: None,
        columns: opts.columns.clone(),
    })
}

/// Reads the exact run, keeping each query's top `kmax` documents.
fn read_exact(exact: &Path, shown: &str, spec: &RunSpec, kmax: usize) -> Result<Truth> {
    let mut truth = Truth::new();
    for_each_query(exact, shown, spec, &mut |r| {
        let top = r.docs.iter().take(kmax).map(|d| d.to_vec()).collect();
        truth.insert(r.qid.to_string(), (r.line, top));
        Ok(())
    })?;
    Ok(truth)
}

/// The ANN run scored against the truth: one row a query of the exact run (in id order), the
/// ones the ANN run lacks, and how many ANN-only queries were ignored.
struct Scored {
    rows: Vec<QueryResult>,
    missing: Vec<String>,
    ann_only: usize,
}

/// Reads the ANN run and scores each query of the exact run; a query it lacks scores 0.
fn score_run(
    run: &Path,
    shown: &str,
    spec: &RunSpec,
    truth: &Truth,
    ms: &[Metric],
) -> Result<Scored> {
    let mut rows: BTreeMap<String, QueryResult> = BTreeMap::new();
    let mut ann_only = BTreeSet::new();
    for_each_query(run, shown, spec, &mut |r| {
        match truth.get(r.qid) {
            Some((line, top)) => {
                rows.insert(r.qid.to_string(), ann_row(ms, r.qid, *line, top, &r.docs));
            }
            None => {
                ann_only.insert(r.qid.to_string());
            }
        }
        Ok(())
    })?;
    let mut missing = Vec::new();
    for (qid, (line, top)) in truth {
        if !rows.contains_key(qid) {
            missing.push(qid.clone());
            rows.insert(qid.clone(), ann_row(ms, qid, *line, top, &[]));
        }
    }
    Ok(Scored {
        rows: rows.into_values().collect(),
        missing,
        ann_only: ann_only.len(),
    })
}

/// One query's row: each metric's overlap of the ANN top k with the exact top k, over k.
fn ann_row(ms: &[Metric], qid: &str, line: usize, top: &[Vec<u8>], ann: &[&[u8]]) -> QueryResult {
    QueryResult {
        qid: qid.to_string(),
        line,
        num_rel: top.len(),
        values: ms
            .iter()
            .map(|m| overlap(top, ann, m.k.unwrap_or(1)) as f64 / m.k.unwrap_or(1) as f64)
            .collect(),
        hits: ms
            .iter()
            .map(|m| overlap(top, ann, m.k.unwrap_or(1)))
            .collect(),
        unjudged: Vec::new(),
        top_rels: Vec::new(),
        ideal_gains: Vec::new(),
        has_nonrelevant: false,
        tie_groups: 0,
        ties: None,
        relevant: Vec::new(),
    }
}

/// Each metric's mean over the rows (`None` without rows).
fn means(ms: &[Metric], rows: &[QueryResult]) -> BTreeMap<String, Option<f64>> {
    let n = rows.len();
    ms.iter()
        .enumerate()
        .map(|(j, m)| {
            (
                m.to_string(),
                (n > 0).then(|| rows.iter().map(|r| r.values[j]).sum::<f64>() / n as f64),
            )
        })
        .collect()
}

/// The policies the summary states for an ANN evaluation.
fn policies(exact_format: Format, spec: &RunSpec, opts: &EvalOptions) -> Policies {
    Policies {
        qrels_format: exact_format,
        run_format: spec.format,
        order: spec.order,
        order_rule:
            "ann-recall: both runs ordered by this rule; the exact run stands in for the qrels",
        rel_level: 1,
        gain: opts.gain,
        empty_gold: opts.empty_gold,
        missing_from_run: "queries of the exact run missing from the ANN run score 0",
        run_only: "ANN-only queries ignored and counted",
        duplicate_docs: "error",
        corpus: None,
        chunk_map: None,
    }
}

fn overlap(exact_top: &[Vec<u8>], ann: &[&[u8]], k: usize) -> usize {
    let truth: HashSet<&[u8]> = exact_top.iter().take(k).map(Vec::as_slice).collect();
    ann.iter().take(k).filter(|d| truth.contains(*d)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_counts_shared_docs_in_both_top_k() {
        let exact: Vec<Vec<u8>> = ["a", "b", "c"]
            .iter()
            .map(|s| s.as_bytes().to_vec())
            .collect();
        let ann: Vec<&[u8]> = vec![b"c", b"x", b"a"];
        assert_eq!(overlap(&exact, &ann, 2), 0);
        assert_eq!(overlap(&exact, &ann, 3), 2);
    }
}
