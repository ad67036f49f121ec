//! Metric files: one route, one verdict. Files that carry `judged@k` columns (what `rag-gate
//! eval` writes when asked for them) get the same judged figures and `min-judged` guard as runs
//! that `check` evaluates; `min-judged` with files lacking the column is an error naming it. No
//! bounds: they need both sides' rankings of every query, which a metric file does not hold.

use std::collections::BTreeMap;

use super::{gated, min_judged, Found};
use crate::config::Config;
use crate::error::Result;
use crate::load::MetricTable;
use crate::model::{Comparison, GateResult, JudgedBounds};
use crate::{pair, slices};

/// Why metric files get no bounds.
pub const METRIC_FILES: &str =
    "metric files: the bounds need both sides' rankings; give the runs as { run = \"…\" } inputs";

/// Both metric files, as loaded, with their sidecars (`judged_bounds` says why a file has none).
pub struct Files<'a> {
    pub baseline: &'a MetricTable,
    pub candidate: &'a MetricTable,
    pub sidecars: [Option<&'a crate::protocol::Protocol>; 2],
}

/// Why no bounds: both sidecars say the qrels are positive-only (the collection's convention),
/// else the files lack the rankings.
fn why_none(files: &Files) -> (&'static str, bool) {
    let positive = files.sidecars.iter().all(|p| {
        p.and_then(|p| p.judged_bounds.as_deref()) == Some(crate::protocol::BOUNDS_POSITIVE_ONLY)
    });
    match positive {
        true => (super::POSITIVE_ONLY, true),
        false => (METRIC_FILES, false),
    }
}

/// `min-judged` needs each gated cutoff's judged@k column in both files.
fn require_columns(cfg: &Config, files: &Files, ks: &[usize]) -> Result<()> {
    let Some(min) = cfg.judged.min_judged else {
        return Ok(());
    };
    for k in ks {
        let col = format!("judged@{k}");
        for t in [files.baseline, files.candidate] {
            if !t.metrics.contains_key(&col) {
                return Err(cfg.error_at(
                    &cfg.judged.min_judged_span,
                    format!(
                        "[judged] min-judged = {min} needs judged coverage, but {} has no {col} column: \
                         add it (rag-gate eval --metrics …,{col} writes it), or give the runs as \
                         {{ run = \"…\" }} inputs",
                        t.source
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Each query id's row in `t`.
fn rows_of(t: &MetricTable) -> BTreeMap<&str, usize> {
    t.rows
        .ids()
        .iter()
        .enumerate()
        .map(|(i, id)| (id, i))
        .collect()
}

/// [`rows_of`] for a file with a judged@k column of a gated cutoff `ks`, else empty: the map
/// (hundreds of MB at 10M queries) is read only for those columns.
fn rows_if<'a>(t: &'a MetricTable, ks: &[usize]) -> BTreeMap<&'a str, usize> {
    match ks
        .iter()
        .any(|k| t.metrics.contains_key(&format!("judged@{k}")))
    {
        true => rows_of(t),
        false => BTreeMap::new(),
    }
}

/// The mean of a judged@k column over a slice's members (by query id; `at` is [`rows_of`]).
fn mean_over(t: &MetricTable, at: &BTreeMap<&str, usize>, col: &str, ids: &[&str]) -> Option<f64> {
    let values = t.metrics.get(col)?;
    let got: Vec<f64> = ids.iter().filter_map(|q| values.get(*at.get(q)?)).collect();
    (!got.is_empty()).then(|| got.iter().sum::<f64>() / got.len() as f64)
}

/// Sets the judged figures of the gated comparisons and applies `min-judged` to the gates.
pub fn apply(
    cfg: &Config,
    files: &Files,
    (paired, sl): (&pair::Paired, &[slices::Slice]),
    comparisons: &mut [Comparison],
    gates: &mut [GateResult],
) -> Result<Found> {
    let metrics = gated(cfg);
    let ks: Vec<usize> = metrics.values().flatten().copied().collect();
    require_columns(cfg, files, &ks)?;
    let (why, positive) = why_none(files);
    // Built once: a lookup per comparison (a scan per comparison was quadratic in slices).
    let by_name: std::collections::HashMap<&str, &slices::Slice> =
        sl.iter().rev().map(|s| (s.name.as_str(), s)).collect();
    let (at_b, at_c) = (rows_if(files.baseline, &ks), rows_if(files.candidate, &ks));
    for c in comparisons.iter_mut() {
        let Some(Some(k)) = metrics.get(&c.metric) else {
            continue;
        };
        let col = format!("judged@{k}");
        if ![files.baseline, files.candidate]
            .iter()
            .any(|t| t.metrics.contains_key(&col))
        {
            continue;
        }
        let Some(members) = by_name.get(c.slice.as_str()).map(|s| &s.members) else {
            continue;
        };
        let ids: Vec<&str> = members.iter().map(|&i| &paired.ids[i as usize]).collect();
        let (b, cj) = (
            mean_over(files.baseline, &at_b, &col, &ids),
            mean_over(files.candidate, &at_c, &col, &ids),
        );
        if b.is_none() && cj.is_none() {
            continue;
        }
        c.judged = Some(JudgedBounds {
            k: Some(*k),
            baseline_judged: b,
            candidate_judged: cj,
            delta: c.delta,
            lower: None,
            upper: None,
            exact: true,
            not_computed: Some(why.into()),
            condensed: None,
            baseline_unjudged: None,
            candidate_unjudged: None,
        });
    }
    let mut found = Found::default();
    if positive {
        found.notes.push(
            "the qrels list only relevant documents (both sidecars: no judgment ≤ 0): unjudged = \
             non-relevant is this collection's own protocol, so no judged bounds are needed"
                .into(),
        );
    }
    let on: Vec<Option<usize>> = {
        let index = crate::model::OnIndex::new(comparisons, gates);
        gates.iter().map(|r| index.comparison_of(r)).collect()
    };
    for (r, at) in gates.iter_mut().zip(on) {
        let Some(c) = at.map(|i| &comparisons[i]) else {
            continue;
        };
        found.warnings.extend(min_judged(cfg, c, r));
    }
    Ok(found)
}
