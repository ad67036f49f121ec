//! A shard's summary (`rag-gate partial`): per slice and metric, the exact sums the keyed
//! bootstrap's estimates read (`stats::keyed`), so that adding the summaries of any split of the
//! data gives the whole data's summary, integer for integer. `rag-gate merge` adds them; `check`
//! with keyed weights computes the one summary of the whole data and reads it the same way.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The summary format's version: a summary of another version is refused.
pub const SUMMARY_VERSION: u32 = 1;
/// The `format` field of every summary file.
pub const SUMMARY_FORMAT: &str = "rag-gate-summary";

/// One shard's summary (or several merged).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Summary {
    pub format: String,
    pub version: u32,
    /// SHA-256 of the gate file's bytes: summaries of different gate files do not merge.
    pub gate_fingerprint: String,
    pub seed: u64,
    pub resamples: u64,
    /// "query" or "group".
    pub unit: String,
    /// The compared metrics, in order.
    pub metrics: Vec<String>,
    pub baseline_queries: u64,
    pub candidate_queries: u64,
    pub paired: u64,
    /// SHA-256 of the paired query ids, sorted, one a line (a shard given twice is refused).
    pub queries_digest: String,
    /// Whether any query has a group.
    pub has_groups: bool,
    /// The shard's group names, sorted (a group split across shards is refused).
    pub groups: Vec<String>,
    /// Every tag and its values seen (the slices' existence checks of the merged data).
    pub tags: BTreeMap<String, Vec<String>>,
    /// The loading's and pairing's warnings and notes, in order.
    pub warnings: Vec<String>,
    pub notes: Vec<String>,
    pub slices: BTreeMap<String, SliceSummary>,
}

/// One slice's sums.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SliceSummary {
    /// Paired queries in the slice.
    pub n: u64,
    /// Resampling units (queries, or groups with a member in the slice).
    pub units: u64,
    /// Distinct groups among the slice's queries.
    pub groups: u64,
    /// Unit size → how many units have it.
    pub sizes: BTreeMap<u64, u64>,
    /// Per resample: Σ weight × size.
    pub weights: Vec<i64>,
    pub metrics: BTreeMap<String, MetricSummary>,
}

/// One metric's sums on a slice; values are integers on the grid 2^-32 (`stats::keyed`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricSummary {
    pub sum_baseline: i128,
    pub sum_candidate: i128,
    /// Σ of per-query deltas (each the candidate's grid value minus the baseline's).
    pub sum_delta: i128,
    /// Σ of squared per-query deltas (grid 2^-64).
    pub sum_sq_delta: i128,
    /// Unit size → [Σ unit sums, Σ squared unit sums] of the deltas.
    pub by_size: BTreeMap<u64, [i128; 2]>,
    /// Oriented win / tie / loss at tie-epsilon, then at the practical tie.
    pub wtl: [u64; 3],
    pub practical_wtl: [u64; 3],
    /// Queries, then units, with |delta| beyond tie-epsilon.
    pub moved_queries: u64,
    pub moved_units: u64,
    /// Units whose delta sum is not zero (the sign-flip floor).
    pub nonzero_units: u64,
    /// The least and greatest unit mean of the deltas (none without units).
    pub unit_mean_range: Option<[f64; 2]>,
    /// The worst regressions, worst first.
    pub worst: Vec<WorstQuery>,
    /// Per resample: Σ weight × unit delta sum.
    pub sums: Vec<i64>,
    /// Per resample: Σ sign × unit delta sum.
    pub signed: Vec<i64>,
}

/// A query's loss, as the worst regressions list it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorstQuery {
    pub query_id: String,
    pub baseline: f64,
    pub candidate: f64,
    pub delta: f64,
}
