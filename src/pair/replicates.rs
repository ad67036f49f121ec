//! Replicate runs of one side (the same commit run again): each further replicate must hold every
//! paired query, with every compared metric, whatever `missing` says — a replicate that lost
//! queries is a broken run, not a smaller sample. The paired values become each query's mean over
//! its side's replicates; the runs themselves stay for the crossed interval.

use std::collections::{BTreeMap, HashMap};

use super::{column, plural, Paired};
use crate::config::Missing;
use crate::error::{few, few_at, Error, Result};
use crate::load::MetricTable;

/// Every run of both sides, aligned with `Paired::ids`.
#[derive(Debug, Clone)]
pub struct Replicates {
    /// metric → [baseline runs, candidate runs]; the first run of each side is the paired file.
    pub metrics: BTreeMap<String, [Vec<Vec<f64>>; 2]>,
    /// Replicates per side (baseline, candidate).
    pub counts: [usize; 2],
    /// The candidate runs (indices into its runs) that stand for earlier attempts folded into
    /// per-query means (`check::attempts`): a mean reads them as runs, a median or p95 cannot
    /// stack them. Empty otherwise.
    pub summarised: std::ops::Range<usize>,
}

impl Replicates {
    /// The candidate's runs of `metric` a median or p95 stacks: every run but the summarised
    /// stand-ins.
    pub fn stackable(&self, metric: &str) -> Vec<&Vec<f64>> {
        self.metrics[metric][1]
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.summarised.contains(i))
            .map(|(_, r)| r)
            .collect()
    }
}

/// Checks the further replicates of each side against the paired queries, stores every run and
/// replaces the paired values with their per-query means. No further replicate: nothing changes.
pub fn attach(
    paired: &mut Paired,
    more: [&[MetricTable]; 2],
    first: [&str; 2],
    missing: Missing,
) -> Result<()> {
    if more.iter().all(|m| m.is_empty()) {
        return Ok(());
    }
    let ids: Vec<&str> = paired.ids.iter().collect();
    let mut metrics: BTreeMap<String, [Vec<Vec<f64>>; 2]> = paired
        .metrics
        .iter()
        .map(|(m, p)| {
            (
                m.clone(),
                [vec![p.baseline.clone()], vec![p.candidate.clone()]],
            )
        })
        .collect();
    for (side, tables) in more.into_iter().enumerate() {
        for t in tables {
            let rows = rows_for(t, &ids, first[side], missing)?;
            for (m, runs) in metrics.iter_mut() {
                runs[side].push(column(t, m, rows.iter().copied())?);
            }
        }
    }
    for (m, runs) in &metrics {
        let pair = paired.metrics.get_mut(m).expect("same metrics");
        pair.baseline = per_query_mean(&runs[0]);
        pair.candidate = per_query_mean(&runs[1]);
    }
    paired.replicates = Some(Replicates {
        metrics,
        counts: [1 + more[0].len(), 1 + more[1].len()],
        summarised: 0..0,
    });
    Ok(())
}

/// The row of `t` for each id; every id must be there, and (unless `missing = "intersect"`)
/// nothing else.
fn rows_for(t: &MetricTable, ids: &[&str], first: &str, missing: Missing) -> Result<Vec<usize>> {
    let at: HashMap<&str, usize> = t
        .rows
        .ids()
        .iter()
        .enumerate()
        .map(|(i, id)| (id, i))
        .collect();
    let lacking: Vec<&&str> = ids.iter().filter(|id| !at.contains_key(**id)).collect();
    if !lacking.is_empty() {
        return Err(Error::input(
            &t.source,
            0,
            format!(
                "a replicate of {first}, lacks {} paired {}: {}; replicates of one commit must cover the same queries",
                lacking.len(),
                plural(lacking.len(), "query", "queries"),
                few(&lacking.iter().map(|s| s.to_string()).collect::<Vec<_>>(), 5)
            ),
        ));
    }
    if missing == Missing::Error && t.rows.len() != ids.len() {
        let known: std::collections::HashSet<&str> = ids.iter().copied().collect();
        let mut extra: Vec<(String, usize)> = t
            .rows
            .iter()
            .filter(|r| !known.contains(r.query_id))
            .map(|r| (r.query_id.to_string(), r.line))
            .collect();
        extra.sort();
        return Err(Error::input(
            &t.source,
            extra.first().map_or(0, |e| e.1),
            format!(
                "a replicate of {first}, has {} {} the paired files lack: {}; replicates of one commit must cover the same queries",
                extra.len(),
                plural(extra.len(), "query", "queries"),
                few_at(&extra, 5)
            ),
        ));
    }
    Ok(ids.iter().map(|id| at[id]).collect())
}

fn per_query_mean(runs: &[Vec<f64>]) -> Vec<f64> {
    let r = runs.len() as f64;
    (0..runs[0].len())
        .map(|i| runs.iter().map(|x| x[i]).sum::<f64>() / r)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::parse_metrics_bytes;

    fn table(name: &str, text: &str) -> MetricTable {
        parse_metrics_bytes(
            text.as_bytes().to_vec(),
            name,
            Some(crate::load::Format::Jsonl),
            "query_id",
        )
        .expect("valid")
    }

    fn paired(b: &MetricTable, c: &MetricTable) -> Paired {
        super::super::pair(b, c, None, Missing::Error, &["m".into()]).expect("pairs")
    }

    const A: &str = "{\"query_id\":\"a\",\"m\":0.5}\n{\"query_id\":\"b\",\"m\":0.25}\n";

    #[test]
    fn means_replace_the_paired_values_and_runs_are_kept() {
        let (b, c) = (table("b1", A), table("c1", A));
        let mut p = paired(&b, &c);
        let b2 = table(
            "b2",
            "{\"query_id\":\"b\",\"m\":0.75}\n{\"query_id\":\"a\",\"m\":0.0}\n",
        );
        attach(&mut p, [&[b2], &[]], ["b1", "c1"], Missing::Error).expect("same queries");
        assert_eq!(p.metrics["m"].baseline, vec![0.25, 0.5]);
        assert_eq!(p.metrics["m"].candidate, vec![0.5, 0.25]);
        let r = p.replicates.expect("replicated");
        assert_eq!(r.counts, [2, 1]);
        assert_eq!(r.metrics["m"][0], vec![vec![0.5, 0.25], vec![0.0, 0.75]]);
    }

    #[test]
    fn a_replicate_lacking_queries_is_named_with_its_ids() {
        let (b, c) = (table("b1", A), table("c1", A));
        let mut p = paired(&b, &c);
        let c2 = table("eval/c2.jsonl", "{\"query_id\":\"a\",\"m\":0.5}\n");
        let e = attach(&mut p, [&[], &[c2]], ["b1", "c1"], Missing::Intersect)
            .expect_err("lacks b")
            .to_string();
        assert!(
            e.starts_with("eval/c2.jsonl: a replicate of c1, lacks 1 paired query: \"b\""),
            "{e}"
        );
    }

    #[test]
    fn an_extra_query_is_refused_unless_intersect() {
        let (b, c) = (table("b1", A), table("c1", A));
        let extra = "{\"query_id\":\"a\",\"m\":0.5}\n{\"query_id\":\"b\",\"m\":0.5}\n{\"query_id\":\"z\",\"m\":0.5}\n";
        let mut p = paired(&b, &c);
        let e = attach(
            &mut p,
            [&[table("b2", extra)], &[]],
            ["b1", "c1"],
            Missing::Error,
        )
        .expect_err("extra z")
        .to_string();
        assert!(
            e.starts_with(
                "b2:3: a replicate of b1, has 1 query the paired files lack: \"z\" (line 3)"
            ),
            "{e}"
        );
        let mut p = paired(&b, &c);
        attach(
            &mut p,
            [&[table("b2", extra)], &[]],
            ["b1", "c1"],
            Missing::Intersect,
        )
        .expect("intersect drops z");
    }
}
