//! Evaluation: runs + qrels → per-query metrics, trec_eval-exact, every policy explicit.
//!
//! The flow is read qrels (`qrels.rs`) → stream the run one query at a time (`run.rs`) → score
//! each query (`metrics.rs`, pure) → collect rows and the summary (`engine.rs`) → render
//! (`output.rs`). `ann.rs` measures an approximate run against an exact one. The `rag-gate eval`
//! command is `cli.rs`; `check` calls [`evaluate_to_table`] when a gate file names runs.

pub mod ann;
pub mod agreement;
pub mod chunks;
pub mod corpus;
mod doc_meeting;
pub mod engine;
pub mod fingerprint;
pub mod format;
pub mod gate_input;
mod group;
pub mod holes;
pub mod ir_metadata;
pub mod judged;
pub mod lines;
pub mod metrics;
pub mod moves;
pub mod output;
mod overlap;
pub mod qrels;
mod parquet_columns;
pub use parquet_columns::TableColumns;
#[cfg(feature = "parquet")]
mod qrels_parquet;
#[cfg(not(feature = "parquet"))]
mod qrels_parquet {
    use super::parquet_columns::TableColumns;
    use crate::error::Result;
    use std::path::Path;

    pub type Add<'a> =
        dyn FnMut(String, usize, Vec<(Vec<u8>, i32)>) -> std::result::Result<(), String> + 'a;

    pub(in crate::eval) fn read(
        _: &Path,
        shown: &str,
        _: &TableColumns,
        _: &mut Add,
    ) -> Result<()> {
        Err(crate::input::parquet_not_built(shown))
    }
}
pub mod probe_runs;
pub mod ranking;
pub mod run;
mod run_json;
mod run_jsonl;
#[cfg(feature = "parquet")]
mod run_parquet;
#[cfg(not(feature = "parquet"))]
mod run_parquet {
    use super::parquet_columns::TableColumns;
    use super::ranking::{Ranking, RunSpec};
    use super::Order;
    use crate::error::Result;
    use std::path::Path;

    pub(in crate::eval) fn default_order(_: &Path, shown: &str, _: &TableColumns) -> Result<Order> {
        Err(crate::input::parquet_not_built(shown))
    }

    pub(in crate::eval) fn read_parquet(
        _: &Path,
        shown: &str,
        _: &RunSpec,
        _: &mut dyn FnMut(Ranking) -> Result<()>,
    ) -> Result<()> {
        Err(crate::input::parquet_not_built(shown))
    }
}
pub mod shared_bounds;
pub mod ties;
pub mod worst_loss;

use std::path::{Path, PathBuf};

pub use engine::{evaluate, EvalSummary, Evaluation, Policies, QueryResult};
pub use format::{Format, Role};
pub use metrics::Metric;

use crate::error::{Error, Result};
use crate::load::MetricTable;

/// How a query's ranking is ordered before cutoffs apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// Score descending as f64, ties by docid descending in byte order (trec_eval).
    Score,
    /// The TREC rank column ascending, ties by docid descending.
    Rank,
    /// File order (TREC line order; JSONL list order).
    Given,
}

crate::choice!(Order {
    Score => "score": "Score descending as f64, ties by docid descending in byte order (trec_eval)",
    Rank => "rank": "The TREC rank column ascending, ties by docid descending",
    Given => "given": "File order (TREC line order; JSONL list order)",
});

/// nDCG gain of a grade `rel > 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Gain {
    /// gain = rel (trec_eval).
    #[default]
    Linear,
    /// gain = 2^rel − 1 (Burges et al.).
    Exponential,
}

crate::choice!(Gain {
    Linear => "linear": "gain = rel (trec_eval)",
    Exponential => "exponential": "gain = 2^rel − 1 (Burges et al.)",
});

/// What to do with a judged query that has no relevant doc (R = 0 at the relevance level).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EmptyGold {
    /// Leave it out of every row and mean; list it in `excluded` (`check`'s default: a query
    /// with nothing to find is a tie at 0 on both sides and would only dilute the deltas).
    #[default]
    Exclude,
    /// Keep it: binary metrics are 0, nDCG by its grades; what trec_eval does at every `-l`,
    /// with or without `-c` (`rag-gate eval`'s default).
    Zero,
    /// Stop with an error naming the query and its qrels line.
    Error,
}

crate::choice!(EmptyGold {
    Exclude => "exclude": "Leave it out of every row and mean; list it in `excluded` (`check`'s default: a query with nothing to find is a tie at 0 on both sides and would only dilute the deltas)",
    Zero => "zero": "Keep it: binary metrics are 0, nDCG by its grades; what trec_eval does at every `-l`, with or without `-c` (`rag-gate eval`'s default)",
    Error => "error": "Stop with an error naming the query and its qrels line",
});

/// Evaluation options; `Default` gives `check`'s defaults: rel level 1, linear gain, order by
/// format (TREC: score, JSONL: given), empty-gold queries excluded, formats by extension
/// (`rag-gate eval` keeps empty-gold queries with 0, as trec_eval does).
#[derive(Debug, Clone)]
pub struct EvalOptions {
    /// trec_eval -l: relevant iff rel >= this (at least 1; default 1).
    pub rel_level: i32,
    pub gain: Gain,
    pub order: Option<Order>,
    pub empty_gold: EmptyGold,
    pub qrels_format: Option<Format>,
    pub run_format: Option<Format>,
    /// One allowed doc id per line; any other gold or ranked id is an error.
    pub corpus: Option<PathBuf>,
    /// `chunk_id<TAB>doc_id`: evaluate a chunk run at document level.
    pub chunk_map: Option<PathBuf>,
    /// Record each query's unjudged docs in its top N (0: none).
    pub unjudged_depth: usize,
    /// Keep each query's top grades and ideal gains too, for the judged bounds.
    pub optimistic: bool,
    /// Condensed lists (trec_eval -J, Sakai 2007): remove the unjudged docs from each ranking
    /// before scoring.
    pub judged_only: bool,
    /// Keep where the run ranked each relevant doc (`QueryResult::relevant`): `check` uses it to
    /// say why a query regressed; `rag-gate eval` does not need it.
    pub keep_ranks: bool,
    /// Column names of a Parquet run (`--column ROLE=NAME`).
    pub columns: parquet_columns::TableColumns,
    /// Column names of Parquet qrels (`--qrels-column ROLE=NAME`).
    pub qrels_columns: parquet_columns::TableColumns,
    /// (query, doc) pairs dropped from the qrels as they are read (`[judge] plant-key`).
    pub withheld: qrels::Withheld,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            rel_level: 1,
            gain: Gain::Linear,
            order: None,
            empty_gold: EmptyGold::Exclude,
            qrels_format: None,
            run_format: None,
            corpus: None,
            chunk_map: None,
            unjudged_depth: 0,
            optimistic: false,
            judged_only: false,
            keep_ranks: false,
            columns: Default::default(),
            qrels_columns: Default::default(),
            withheld: Default::default(),
        }
    }
}

/// Evaluates `run` against `qrels` and returns one row per evaluated query (sorted by query id)
/// with one column per metric under its canonical name (`ndcg@10`, `recall@5`, `mrr@10`, ...),
/// plus the summary (counts, excluded and missing queries, means, pooled recall, policies).
/// `*_shown` are the paths as the user wrote them, used in error messages. `ann-recall@k` is
/// not accepted here (it needs an exact run: see [`ann::evaluate_ann`]).
pub fn evaluate_to_table(
    qrels: &Path,
    qrels_shown: &str,
    run: &Path,
    run_shown: &str,
    metrics: &[String],
    opts: &EvalOptions,
) -> Result<(MetricTable, EvalSummary)> {
    let ms = Metric::parse_list(&metrics.join(",")).map_err(Error::Usage)?;
    let ev = evaluate(qrels, qrels_shown, run, run_shown, &ms, opts)?;
    Ok((ev.to_table(run_shown), ev.summary))
}

impl Evaluation {
    /// The rows as the `MetricTable` that `check` consumes (row line = the query's qrels line).
    pub fn to_table(&self, source: &str) -> MetricTable {
        let mut t = MetricTable::new(source);
        for r in &self.rows {
            t.rows.push(&r.qid, r.line, None, Default::default());
        }
        for (j, m) in self.metrics.iter().enumerate() {
            t.metrics.insert(
                m.to_string(),
                self.rows.iter().map(|r| Some(r.values[j])).collect(),
            );
        }
        t
    }
}
