//! Pair stage: baseline × candidate by query id, strictly. A query in one file but not the other,
//! a missing metric value, or conflicting group/slice tags is an error naming the file, the line
//! and the first few ids (then a count); `missing = "intersect"` keeps only the shared queries
//! and says how many were dropped.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::config::Missing;
use crate::error::{few_at, Error, Result};
use crate::load::{MetricTable, QueryRow};
use crate::report::PairingInfo;

/// One metric's paired values, aligned with `Paired::ids`.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricPair {
    pub baseline: Vec<f64>,
    pub candidate: Vec<f64>,
}

#[derive(Debug, Clone)]
pub struct Paired {
    /// Query ids in byte order.
    pub ids: Vec<String>,
    /// Dense group index per query (None: the query has no group).
    pub group_of: Vec<Option<u32>>,
    pub group_names: Vec<String>,
    /// tag → value → member query indices (ascending).
    pub tags: BTreeMap<String, BTreeMap<String, Vec<u32>>>,
    pub metrics: BTreeMap<String, MetricPair>,
    pub info: PairingInfo,
    pub warnings: Vec<String>,
}

/// Metric names present in both tables.
pub fn shared_metrics(base: &MetricTable, cand: &MetricTable) -> Vec<String> {
    base.metrics
        .keys()
        .filter(|m| cand.metrics.contains_key(*m))
        .cloned()
        .collect()
}

/// Pairs the two tables on `metrics` (which both must have). `queries` adds group/slice tags.
pub fn pair(
    base: &MetricTable,
    cand: &MetricTable,
    queries: Option<(&[QueryRow], &str)>,
    missing: Missing,
    metrics: &[String],
) -> Result<Paired> {
    let b_at: HashMap<&str, usize> = base
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.query_id.as_str(), i))
        .collect();
    let c_at: HashMap<&str, usize> = cand
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.query_id.as_str(), i))
        .collect();
    let only_b = one_sided(base, &c_at);
    let only_c = one_sided(cand, &b_at);
    if missing == Missing::Error {
        for (side, other, lacking) in [(cand, base, &only_b), (base, cand, &only_c)] {
            if !lacking.is_empty() {
                return Err(Error::input(
                    &side.source,
                    0,
                    format!(
                        "lacks {} {} that {} has: {}; pair them, or set missing = \"intersect\" in [inputs]",
                        lacking.len(),
                        plural(lacking.len(), "query", "queries"),
                        other.source,
                        few_at(lacking, 5)
                    ),
                ));
            }
        }
    }
    let mut ids: Vec<&str> = base
        .rows
        .iter()
        .map(|r| r.query_id.as_str())
        .filter(|q| c_at.contains_key(q))
        .collect();
    ids.sort_unstable();
    if ids.is_empty() {
        return Err(Error::input(
            &cand.source,
            0,
            format!("no query id in common with {}", base.source),
        ));
    }

    let mut out_metrics = BTreeMap::new();
    for m in metrics {
        let b = column(base, m, &ids, &b_at)?;
        let c = column(cand, m, &ids, &c_at)?;
        out_metrics.insert(
            m.clone(),
            MetricPair {
                baseline: b,
                candidate: c,
            },
        );
    }

    let q_at: HashMap<&str, &QueryRow> = queries
        .map(|(rows, _)| rows.iter().map(|r| (r.query_id.as_str(), r)).collect())
        .unwrap_or_default();
    let q_src = queries.map_or("", |(_, s)| s);
    let mut tags: BTreeMap<String, BTreeMap<String, Vec<u32>>> = BTreeMap::new();
    let mut group_ids: BTreeMap<String, u32> = BTreeMap::new();
    let mut group_raw: Vec<Option<String>> = Vec::with_capacity(ids.len());
    for (i, id) in ids.iter().enumerate() {
        let mut places: Vec<(&str, &QueryRow)> = vec![
            (&base.source, &base.rows[b_at[id]]),
            (&cand.source, &cand.rows[c_at[id]]),
        ];
        if let Some(r) = q_at.get(id) {
            places.push((q_src, r));
        }
        let mut merged: BTreeMap<&str, (&str, &str, usize)> = BTreeMap::new();
        let mut group: Option<(&str, &str, usize)> = None;
        for (src, row) in &places {
            for (tag, val) in &row.slices {
                agree(
                    &mut merged,
                    tag,
                    (val, src, row.line),
                    id,
                    &format!("slice tag {tag:?}"),
                )?;
            }
            if let Some(g) = &row.group {
                let mut one = BTreeMap::new();
                if let Some(prev) = group {
                    one.insert("group", prev);
                }
                agree(&mut one, "group", (g, src, row.line), id, "group")?;
                group = one.remove("group");
            }
        }
        for (tag, (val, _, _)) in merged {
            tags.entry(tag.to_string())
                .or_default()
                .entry(val.to_string())
                .or_default()
                .push(i as u32);
        }
        group_raw.push(group.map(|(g, _, _)| g.to_string()));
        if let Some((g, _, _)) = group {
            let next = group_ids.len() as u32;
            group_ids.entry(g.to_string()).or_insert(next);
        }
    }
    // Dense group indices in name order, so they do not depend on file order.
    let group_names: Vec<String> = group_ids.keys().cloned().collect();
    let rank: HashMap<&str, u32> = group_names
        .iter()
        .enumerate()
        .map(|(i, g)| (g.as_str(), i as u32))
        .collect();
    let group_of = group_raw
        .iter()
        .map(|g| g.as_deref().map(|g| rank[g]))
        .collect();

    let mut dropped: Vec<String> = only_b
        .iter()
        .chain(&only_c)
        .map(|(q, _)| q.clone())
        .collect();
    dropped.sort();
    dropped.truncate(5);
    let mut warnings = Vec::new();
    if !only_b.is_empty() || !only_c.is_empty() {
        warnings.push(format!(
            "missing = \"intersect\": dropped {} queries only in the baseline and {} only in the candidate",
            only_b.len(),
            only_c.len()
        ));
    }
    let info = PairingInfo {
        missing_policy: match missing {
            Missing::Error => "error".into(),
            Missing::Intersect => "intersect".into(),
        },
        baseline_queries: base.rows.len(),
        candidate_queries: cand.rows.len(),
        paired: ids.len(),
        dropped_baseline_only: only_b.len(),
        dropped_candidate_only: only_c.len(),
        dropped_examples: dropped,
    };
    Ok(Paired {
        ids: ids.iter().map(|s| s.to_string()).collect(),
        group_of,
        group_names,
        tags,
        metrics: out_metrics,
        info,
        warnings,
    })
}

/// Queries of `t` whose id is not in `other`, with their lines, in id order.
fn one_sided(t: &MetricTable, other: &HashMap<&str, usize>) -> Vec<(String, usize)> {
    let mut v: Vec<(String, usize)> = t
        .rows
        .iter()
        .filter(|r| !other.contains_key(r.query_id.as_str()))
        .map(|r| (r.query_id.clone(), r.line))
        .collect();
    v.sort();
    v
}

fn column(
    t: &MetricTable,
    metric: &str,
    ids: &[&str],
    at: &HashMap<&str, usize>,
) -> Result<Vec<f64>> {
    let Some(col) = t.metrics.get(metric) else {
        let have: BTreeSet<&String> = t.metrics.keys().collect();
        return Err(Error::input(
            &t.source,
            0,
            format!("has no metric {metric:?} (it has: {})", join(have)),
        ));
    };
    let mut out = Vec::with_capacity(ids.len());
    let mut lacking = Vec::new();
    for id in ids {
        let row = at[id];
        match col[row] {
            Some(v) => out.push(v),
            None => lacking.push((id.to_string(), t.rows[row].line)),
        }
    }
    if let Some((_, line)) = lacking.first() {
        return Err(Error::input(
            &t.source,
            *line,
            format!(
                "metric {metric:?} is missing for {} {}: {}",
                lacking.len(),
                plural(lacking.len(), "query", "queries"),
                few_at(&lacking, 5)
            ),
        ));
    }
    Ok(out)
}

type Place<'a> = (&'a str, &'a str, usize);

/// Records `tag = value` from one place, or fails if another place said otherwise.
fn agree<'a>(
    merged: &mut BTreeMap<&'a str, Place<'a>>,
    tag: &'a str,
    new: Place<'a>,
    id: &str,
    what: &str,
) -> Result<()> {
    match merged.get(tag) {
        Some(old) if old.0 != new.0 => Err(Error::input(
            new.1,
            new.2,
            format!(
                "query {id:?}: {what} is {:?} here but {:?} in {}:{}; the files must agree",
                new.0, old.0, old.1, old.2
            ),
        )),
        Some(_) => Ok(()),
        None => {
            merged.insert(tag, new);
            Ok(())
        }
    }
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

fn join<'a>(it: impl IntoIterator<Item = &'a String>) -> String {
    it.into_iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests;
