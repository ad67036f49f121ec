//! The in-memory form of one per-query metric file, whatever format it came in.

use std::collections::BTreeMap;

/// One query's row: its id, where it was read, and its optional group and slice tags.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryRow {
    pub query_id: String,
    /// 1-based line of the file where this query was first seen.
    pub line: usize,
    pub group: Option<String>,
    pub slices: BTreeMap<String, String>,
}

/// Per-query metrics of one file: rows plus one column of values per metric (aligned with rows;
/// `None` where a row lacks that metric).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MetricTable {
    /// The path as the user wrote it (relative to the gate file's folder when from a gate file).
    pub source: String,
    pub rows: Vec<QueryRow>,
    /// Canonical metric name → one value per row.
    pub metrics: BTreeMap<String, Vec<Option<f64>>>,
}

impl MetricTable {
    pub fn new(source: impl Into<String>) -> Self {
        MetricTable {
            source: source.into(),
            ..Default::default()
        }
    }
}
