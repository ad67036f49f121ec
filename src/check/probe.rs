//! `[probe]` in `check`: both sides' runs on unlabelled queries read (`eval::probe_runs`), each
//! query's top k compared (rank-biased overlap, documents entering and leaving), each moved
//! query's worst feasible loss on every gated ranking metric (`eval::worst_loss`), and the
//! bounds on the population: the share of queries moved (Clopper–Pearson) and each metric's
//! worst-case mean change (`stats::worst_mean`), both at one-sided α/2. Then the probe's say
//! in the verdict: untouched when no top k moved, a pass where even the worst case stays
//! within a `max-drop` / `max-change` margin, the labelled analysis otherwise.

use std::collections::BTreeSet;

use crate::config::{Config, ProbeSettings};
use crate::error::Result;
use crate::eval::holes::Hole;
use crate::eval::metrics::Kind;
use crate::eval::probe_runs::{self, ProbeSide};
use crate::eval::worst_loss::{changed, worst_loss};
use crate::eval::Metric;
use crate::model::probe::{ProbeBound, ProbeQuery, ProbeReport};

/// Dirichlet draws of each worst-case bound.
const DRAWS: usize = 10_000;

/// What the probe found: the report's part and the next labelling batch (every moved query's
/// top-k documents, heaviest worst case first).
pub struct Probe {
    pub report: ProbeReport,
    pub batch: Vec<Hole>,
}

/// The gated ranking metrics the probe bounds (bounded to [0, 1], higher is better).
fn probed_metrics(cfg: &Config) -> Vec<(String, Metric)> {
    let mut out: Vec<(String, Metric)> = cfg
        .gates
        .iter()
        .filter(|g| g.higher_is_better)
        .filter_map(|g| Some((g.metric.clone(), Metric::parse(&g.metric).ok()?)))
        .filter(|(_, m)| !matches!(m.kind, Kind::Judged | Kind::AnnRecall))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// The compared depth: the deepest gated cutoff (None when a gated metric reads the whole list).
fn cutoff(metrics: &[(String, Metric)]) -> Option<usize> {
    metrics
        .iter()
        .map(|(_, m)| m.k)
        .try_fold(0, |acc, k| k.map(|k| acc.max(k)))
}

/// Both sides' probe runs, and how many labelled queries were left out of them.
pub type Sides = (ProbeSide, ProbeSide, usize);

/// Reads both probe runs and checks their protocol (exit 2 on a mismatch). `labelled` are the
/// labelled queries, left to the labelled analysis (looked up only under `[probe]`).
pub fn load(cfg: &Config, labelled: &crate::load::IdColumn) -> Result<Option<Sides>> {
    let Some(probe) = &cfg.probe else {
        return Ok(None);
    };
    let labelled: BTreeSet<&str> = labelled.iter().collect();
    let metrics = probed_metrics(cfg);
    if metrics.is_empty() {
        return Err(cfg.error_at(
            &probe.span,
            "[probe] is given but no [[gate]] gates a ranking metric (ndcg@10, recall@10, mrr@10, …): the probe would bound nothing; add such a gate, or remove [probe]",
        ));
    }
    let keep = cutoff(&metrics);
    let mut base = probe_runs::read_side(cfg, probe, ("baseline", &probe.baseline), keep)?;
    let mut cand = probe_runs::read_side(cfg, probe, ("candidate", &probe.candidate), keep)?;
    probe_runs::fingerprint(cfg, probe, &base, &cand)?;
    let before = base.lists.len();
    base.lists.retain(|q, _| !labelled.contains(q.as_str()));
    cand.lists.retain(|q, _| !labelled.contains(q.as_str()));
    if base.lists.is_empty() {
        return Err(cfg.error_at(
            &probe.span,
            format!(
                "[probe]: every one of the {before} queries of {:?} is in the labelled set: the probe has no unlabelled query to look at; give runs on logged queries nobody judged",
                probe.baseline.written
            ),
        ));
    }
    let left_out = before - base.lists.len();
    Ok(Some((base, cand, left_out)))
}

/// One moved query: its overlap, the documents entering and leaving, and per metric its worst
/// loss and gain.
struct Moved {
    query: ProbeQuery,
    losses: Vec<f64>,
    gains: Vec<f64>,
    base: Vec<String>,
    cand: Vec<String>,
}

/// A document id as the run spelled it.
type Doc = Box<[u8]>;

fn text(d: &[u8]) -> String {
    String::from_utf8_lossy(d).into_owned()
}

fn moved_query(qid: &str, (b, c): (&[Doc], &[Doc]), metrics: &[(String, Metric)], p: f64) -> Moved {
    let in_b: BTreeSet<&[u8]> = b.iter().map(|d| &d[..]).collect();
    let in_c: BTreeSet<&[u8]> = c.iter().map(|d| &d[..]).collect();
    let losses: Vec<f64> = metrics.iter().map(|(_, m)| worst_loss(m, b, c)).collect();
    let gains: Vec<f64> = metrics.iter().map(|(_, m)| worst_loss(m, c, b)).collect();
    let worst = losses.iter().copied().fold(0.0, f64::max);
    Moved {
        query: ProbeQuery {
            query_id: qid.to_string(),
            rbo: crate::stats::rbo::rbo_ext(b, c, p),
            entering: c
                .iter()
                .filter(|d| !in_b.contains(&d[..]))
                .map(|d| text(d))
                .collect(),
            leaving: b
                .iter()
                .filter(|d| !in_c.contains(&d[..]))
                .map(|d| text(d))
                .collect(),
            worst_loss: worst,
        },
        losses,
        gains,
        base: b.iter().map(|d| text(d)).collect(),
        cand: c.iter().map(|d| text(d)).collect(),
    }
}

/// The probe's statistics on both sides' rankings.
pub fn analyze(
    cfg: &Config,
    probe: &ProbeSettings,
    (base, cand, left_out): Sides,
) -> Result<Probe> {
    let metrics = probed_metrics(cfg);
    let k = cutoff(&metrics);
    let fingerprint = probe_runs::fingerprint(cfg, probe, &base, &cand)?;
    let n = base.lists.len();
    let mut moved: Vec<Moved> = base
        .lists
        .iter()
        .filter_map(|(q, b)| {
            let c = cand.lists.get(q)?;
            changed(b, c, k).then(|| moved_query(q, (b, c), &metrics, probe.persistence))
        })
        .collect();
    moved.sort_by(|a, b| {
        b.query
            .worst_loss
            .total_cmp(&a.query.worst_loss)
            .then_with(|| a.query.rbo.total_cmp(&b.query.rbo))
            .then_with(|| a.query.query_id.cmp(&b.query.query_id))
    });
    let level = (1.0 - cfg.bootstrap.confidence) / 2.0;
    let bound = |i: usize, side: &str, values: Vec<f64>| {
        let key =
            crate::stats::streams::stream_key(cfg.bootstrap.seed, &["probe", &metrics[i].0, side]);
        crate::stats::worst_mean::upper(&values, n, level, DRAWS, key)
    };
    let bounds: Vec<ProbeBound> = (0..metrics.len())
        .map(|i| {
            let losses: Vec<f64> = moved
                .iter()
                .map(|m| m.losses[i])
                .filter(|v| *v > 0.0)
                .collect();
            let gains: Vec<f64> = moved
                .iter()
                .map(|m| m.gains[i])
                .filter(|v| *v > 0.0)
                .collect();
            ProbeBound {
                metric: metrics[i].0.clone(),
                worst_mean_loss: losses.iter().sum::<f64>() / n as f64,
                worst_mean_gain: gains.iter().sum::<f64>() / n as f64,
                loss_bound: bound(i, "loss", losses),
                gain_bound: bound(i, "gain", gains),
            }
        })
        .collect();
    let batch = batch(&moved);
    let report = ProbeReport {
        baseline: probe.baseline.written.clone(),
        candidate: probe.candidate.written.clone(),
        queries: n,
        labelled_left_out: left_out,
        cutoff: k,
        persistence: probe.persistence,
        changed: moved.len(),
        changed_share: moved.len() as f64 / n as f64,
        changed_share_bound: crate::stats::clopper_pearson::upper(moved.len(), n, level),
        resolution: crate::stats::clopper_pearson::upper(0, n, level),
        level,
        bounds,
        moved: moved.into_iter().map(|m| m.query).collect(),
        decided: String::new(),
        fingerprint,
    };
    Ok(Probe { report, batch })
}

/// The next labelling batch: each moved query's documents in either side's top k, queries
/// heaviest worst case first, then by best rank.
fn batch(moved: &[Moved]) -> Vec<Hole> {
    let mut out = Vec::new();
    for m in moved {
        // One query at a time: `collect` orders a query's documents by best rank, then id.
        let q = &m.query.query_id;
        let sightings = [("baseline", &m.base), ("candidate", &m.cand)]
            .into_iter()
            .flat_map(|(side, list)| {
                list.iter()
                    .enumerate()
                    .map(move |(i, d)| (q.clone(), d.clone(), side.to_string(), i + 1))
            });
        out.extend(crate::eval::holes::collect(sightings));
    }
    out
}
