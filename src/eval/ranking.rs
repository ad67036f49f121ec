//! What a run reader hands the evaluator: one query's final ranking, and the spec the reader
//! follows (format, ordering, chunk map, corpus). Every reader (`run`, `run_jsonl`, `group`)
//! depends on this file and none on another's, so the readers form no loop.

use super::chunks::ChunkMap;
pub use super::parquet_columns::TableColumns;
use super::qrels::Corpus;
use super::{Format, Order};

/// One query's final ranking (rank 1 first), as handed to the evaluator.
pub struct Ranking<'a> {
    pub qid: &'a str,
    /// 1-based line where the query first appears in the run.
    pub line: usize,
    pub docs: Vec<&'a [u8]>,
    /// A list kept in its given order whose scores do not fall along it (a shuffled list would
    /// be scored as shuffled): the evaluation warns, naming the first such query.
    pub scores_disagree: bool,
    /// Runs of tied scores (or tied ranks with `--order rank`) in `docs`; empty with `--order
    /// given` and with a chunk map (see `ties.rs`).
    pub ties: super::ties::TieGroups,
}

/// What the reader needs besides the file.
pub struct RunSpec<'a> {
    pub format: Format,
    pub order: Order,
    pub chunks: Option<&'a ChunkMap>,
    pub corpus: Option<&'a Corpus>,
    /// Column names of a Parquet run.
    pub columns: TableColumns,
}
