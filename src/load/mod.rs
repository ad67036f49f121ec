//! Load stage: one reader per per-query metric format, all producing a `MetricTable`.
//! The format is chosen by an explicit `format` key, else by extension, else by sniffing.

pub mod column;
pub mod columns;
pub mod ledger;
pub mod judge;
mod csv_table;
mod jsonl;
#[cfg(feature = "parquet")]
mod parquet_table;
#[cfg(not(feature = "parquet"))]
mod parquet_table {
    use super::{ColumnMap, MetricTable, Path, Result};

    pub fn load(_: &Path, shown: &str, _: &str, _: &ColumnMap) -> Result<MetricTable> {
        Err(crate::input::parquet_not_built(shown))
    }
}
mod per_query_text;
pub mod plant_key;
pub mod protocol;
pub mod queries;
pub mod run_card;
pub mod sample;
pub mod source;
pub mod strict_json;
pub mod ids;
pub mod table;

use std::path::Path;

use serde::{Deserialize, Serialize};

pub use column::Column;
pub use columns::ColumnMap;
pub use ids::IdColumn;
pub use table::{MetricTable, Row, Rows};

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
    /// A Parquet file or a folder of `*.parquet` part files (recognised by its magic bytes).
    Parquet,
}

const EXPECTED: &str =
    "per-query metrics (JSONL, CSV/TSV, Parquet, or trec_eval/ir_measures -q output)";

/// Reads one per-query metric file; `columns` maps a table's own column names (see
/// `columns.rs`; empty: none).
pub fn load_metrics(
    path: &Path,
    shown: &str,
    format: Option<Format>,
    id_column: &str,
    columns: &ColumnMap,
) -> Result<MetricTable> {
    let explicit = format.is_some();
    let format = format.or_else(|| by_extension(path));
    let parquet = match format {
        Some(f) => f == Format::Parquet,
        None => crate::input::sniff::is_parquet(path),
    };
    if parquet {
        return parquet_table::load(path, shown, id_column, columns);
    }
    if format == Some(Format::Jsonl) {
        return jsonl::parse(source::TextLines::open(path, shown, EXPECTED)?, columns);
    }
    let bytes = source::read_bytes(path, shown, EXPECTED)?;
    let format = match format {
        Some(Format::Csv | Format::Tsv) if !explicit && q_output(&bytes) => None,
        f => f,
    };
    parse_mapped(bytes, shown, format, id_column, columns)
}

/// `-q` output under a table's name: pytrec_eval and `trec_eval -q > run.tsv` write
/// `measure<TAB>qid<TAB>value` rows with no header, so a `.tsv` or `.csv` name whose first line
/// is such a row (a known measure, a number last) is read by its content, as a name without a
/// known extension is. A given format wins.
fn q_output(bytes: &[u8]) -> bool {
    let Some(line) = crate::input::sniff::first_line(bytes, false) else {
        return false;
    };
    let line = String::from_utf8_lossy(line);
    let last = line.split_whitespace().nth(2);
    last.is_some_and(|v| v.parse::<f64>().is_ok()) && per_query_text::sniff(&line).is_some()
}

/// A per-query table recognised from its first non-blank line, for a pipe or a name without a
/// known extension: a JSON object is JSONL; a header with a tab is TSV, with a comma CSV.
fn sniff_table(text: &str) -> Option<Format> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    if first.starts_with('{') {
        return Some(Format::Jsonl);
    }
    let header = text.lines().find(|l| !l.trim().is_empty())?;
    match (header.contains('\t'), header.contains(',')) {
        (true, _) => Some(Format::Tsv),
        (false, true) => Some(Format::Csv),
        _ => None,
    }
}

/// Parses the bytes of a per-query metric file (as `load_metrics` does after reading it).
/// `format = None` sniffs trec_eval / ir_measures `-q` output from the first line. Used by the
/// fuzz targets and property tests; never panics on any input.
pub fn parse_metrics_bytes(
    bytes: Vec<u8>,
    shown: &str,
    format: Option<Format>,
    id_column: &str,
) -> Result<MetricTable> {
    parse_mapped(bytes, shown, format, id_column, &ColumnMap::default())
}

fn parse_mapped(
    bytes: Vec<u8>,
    shown: &str,
    format: Option<Format>,
    id_column: &str,
    columns: &ColumnMap,
) -> Result<MetricTable> {
    if format == Some(Format::Parquet) {
        return Err(parquet_bytes(shown));
    }
    if format == Some(Format::Jsonl) {
        return jsonl::parse(
            source::TextLines::from_bytes(&bytes, shown, EXPECTED),
            columns,
        );
    }
    let text = source::decode_text(bytes, shown, EXPECTED)?;
    let format = match format {
        Some(f) => f,
        None => match per_query_text::sniff(&text) {
            Some(per_query_text::Layout::TrecEval) => Format::TrecEval,
            Some(per_query_text::Layout::IrMeasures) => Format::IrMeasures,
            None if looks_like_trec_run(&text) => {
                return Err(Error::input(
                    shown,
                    1,
                    "this is a TREC run (qid Q0 docid rank score tag), not per-query metrics: give it as { run = \"...\" } with qrels in [inputs], or evaluate it first with rag-gate eval --run FILE --qrels FILE --metrics LIST",
                ))
            }
            None if sniff_table(&text).is_some() => sniff_table(&text).expect("just seen"),
            None => {
                return Err(Error::input(
                    shown,
                    0,
                    "cannot tell the format from the extension or the first line; set format = \"jsonl\" | \"csv\" | \"tsv\" | \"parquet\" | \"trec-eval\" | \"ir-measures\"",
                ))
            }
        },
    };
    if !columns.is_empty() && matches!(format, Format::TrecEval | Format::IrMeasures) {
        return Err(Error::input(
            shown,
            0,
            "a column mapping (id, group, slices, metrics) applies to JSONL and CSV/TSV tables, not to -q output",
        ));
    }
    match format {
        Format::Jsonl => jsonl::parse(
            source::TextLines::from_bytes(text.as_bytes(), shown, EXPECTED),
            columns,
        ),
        Format::Csv => csv_table::parse(&text, shown, b',', id_column, columns),
        Format::Tsv => csv_table::parse(&text, shown, b'\t', id_column, columns),
        Format::TrecEval => per_query_text::parse(&text, shown, per_query_text::Layout::TrecEval),
        Format::IrMeasures => {
            per_query_text::parse(&text, shown, per_query_text::Layout::IrMeasures)
        }
        Format::Parquet => Err(parquet_bytes(shown)),
    }
}

/// The first non-blank line has a TREC run's six fields: `qid Q0 docid rank score tag`.
fn looks_like_trec_run(text: &str) -> bool {
    let Some(line) = crate::input::sniff::first_line(text.as_bytes(), false) else {
        return false;
    };
    let line = String::from_utf8_lossy(line);
    let f: Vec<&str> = line.split_whitespace().collect();
    f.len() == 6 && f[3].parse::<u64>().is_ok() && f[4].parse::<f64>().is_ok()
}

fn parquet_bytes(shown: &str) -> Error {
    Error::input(
        shown,
        0,
        "Parquet is read from a file or a folder of part files, not from standard input",
    )
}

/// Parses the bytes of a queries file (as `load_queries` does after reading it).
pub fn parse_queries_bytes(bytes: Vec<u8>, shown: &str) -> Result<Rows> {
    queries::parse(source::TextLines::from_bytes(
        &bytes,
        shown,
        QUERIES_EXPECTED,
    ))
}

const QUERIES_EXPECTED: &str = "queries as JSONL {\"query_id\", \"group\", \"slices\"}";

/// Reads the optional queries file (group and slice tags).
pub fn load_queries(path: &Path, shown: &str) -> Result<Rows> {
    queries::parse(source::TextLines::open(path, shown, QUERIES_EXPECTED)?)
}

/// The format by extension (`.gz` looked through: `m.jsonl.gz` is JSONL).
fn by_extension(path: &Path) -> Option<Format> {
    match crate::input::sniff::extension(path)?.as_str() {
        "jsonl" | "ndjson" => Some(Format::Jsonl),
        "csv" => Some(Format::Csv),
        "tsv" => Some(Format::Tsv),
        "parquet" => Some(Format::Parquet),
        _ => None,
    }
}
