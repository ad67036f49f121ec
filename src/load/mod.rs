//! Load stage: one reader per per-query metric format, all producing a `MetricTable`.
//! The format is chosen by an explicit `format` key, else by extension, else by sniffing.

mod csv_table;
mod jsonl;
mod per_query_text;
pub mod queries;
pub mod source;
pub mod table;

use std::path::Path;

use serde::{Deserialize, Serialize};

pub use table::{MetricTable, QueryRow};

use crate::error::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    Jsonl,
    Csv,
    Tsv,
    /// `trec_eval -q` output: `measure qid value`.
    TrecEval,
    /// `ir_measures -q` output: `qid measure value`.
    IrMeasures,
}

const EXPECTED: &str = "per-query metrics (JSONL, CSV/TSV, or trec_eval/ir_measures -q output)";

/// Reads one per-query metric file.
pub fn load_metrics(
    path: &Path,
    shown: &str,
    format: Option<Format>,
    id_column: &str,
) -> Result<MetricTable> {
    let text = source::read_text(path, shown, EXPECTED)?;
    let format = match format.or_else(|| by_extension(path)) {
        Some(f) => f,
        None => match per_query_text::sniff(&text) {
            Some(per_query_text::Layout::TrecEval) => Format::TrecEval,
            Some(per_query_text::Layout::IrMeasures) => Format::IrMeasures,
            None => {
                return Err(Error::input(
                    shown,
                    0,
                    "cannot tell the format from the extension or the first line; set format = \"jsonl\" | \"csv\" | \"tsv\" | \"trec-eval\" | \"ir-measures\"",
                ))
            }
        },
    };
    match format {
        Format::Jsonl => jsonl::parse(&text, shown),
        Format::Csv => csv_table::parse(&text, shown, b',', id_column),
        Format::Tsv => csv_table::parse(&text, shown, b'\t', id_column),
        Format::TrecEval => per_query_text::parse(&text, shown, per_query_text::Layout::TrecEval),
        Format::IrMeasures => {
            per_query_text::parse(&text, shown, per_query_text::Layout::IrMeasures)
        }
    }
}

/// Reads the optional queries file (group and slice tags).
pub fn load_queries(path: &Path, shown: &str) -> Result<Vec<QueryRow>> {
    let text = source::read_text(
        path,
        shown,
        "queries as JSONL {\"query_id\", \"group\", \"slices\"}",
    )?;
    queries::parse(&text, shown)
}

fn by_extension(path: &Path) -> Option<Format> {
    match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
        "jsonl" | "ndjson" => Some(Format::Jsonl),
        "csv" => Some(Format::Csv),
        "tsv" => Some(Format::Tsv),
        _ => None,
    }
}
