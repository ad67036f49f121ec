//! The one report model: everything a renderer needs, computed once, serialised as the JSON report.
//!
//! Renderers (text, Markdown, JSON) take a `&Report` and return a `String`; the caller decides
//! where it goes. Field order here is the JSON field order; every map is ordered, no clock.

use serde::Serialize;

/// Version of the JSON report layout; bump when a field changes meaning or disappears.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Pass,
    Fail,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub schema_version: u32,
    /// Names this gate (from the gate file's `id`, default the file stem); keys the sticky comment.
    pub gate_id: String,
    pub verdict: Verdict,
    /// One line: the verdict and the reason that matters most.
    pub headline: String,
    pub seed: u64,
    pub resamples: u64,
    pub confidence: f64,
    /// "query" or "group".
    pub unit: String,
    /// Interval method, e.g. "percentile".
    pub method: String,
    pub tie_epsilon: f64,
    pub inputs: InputsInfo,
    pub pairing: PairingInfo,
    /// One per metric × slice, metrics in name order, `all` first then slices in name order.
    pub comparisons: Vec<Comparison>,
    /// One per gate × slice it applies to, in gate-file order.
    pub gates: Vec<GateResult>,
    /// Things a reader must know that did not fail the gate (small slices, dropped queries …).
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct InputsInfo {
    pub baseline: String,
    pub candidate: String,
    pub queries: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PairingInfo {
    /// "error" or "intersect".
    pub missing_policy: String,
    pub baseline_queries: usize,
    pub candidate_queries: usize,
    pub paired: usize,
    /// Queries only in the baseline file, dropped under `missing = "intersect"`.
    pub dropped_baseline_only: usize,
    pub dropped_candidate_only: usize,
    /// A few of the dropped ids (sorted), for the reader.
    pub dropped_examples: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub metric: String,
    /// `all`, or `tag=value`.
    pub slice: String,
    pub n: usize,
    /// Number of distinct groups among the slice's queries (None when no groups are known).
    pub groups: Option<usize>,
    pub baseline_mean: f64,
    pub candidate_mean: f64,
    /// Mean of candidate − baseline.
    pub delta: f64,
    /// Bootstrap interval of the mean delta, `[low, high]`.
    pub ci: [f64; 2],
    pub wins: usize,
    pub ties: usize,
    pub losses: usize,
    /// The worst per-query regressions, worst first (only queries with delta < −tie_epsilon).
    pub worst: Vec<Regression>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Regression {
    pub query_id: String,
    pub baseline: f64,
    pub candidate: f64,
    pub delta: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GateStatus {
    Pass,
    Fail,
    /// The slice had fewer than `min-queries` queries: not judged (a warning, or a failure
    /// with `on-small-slice = "fail"`).
    TooSmall,
}

#[derive(Debug, Clone, Serialize)]
pub struct GateResult {
    /// 1-based position of the `[[gate]]` table in the gate file.
    pub gate: usize,
    pub metric: String,
    pub slice: String,
    /// "min-mean", "max-drop", "max-loss-rate", …
    pub rule: String,
    pub threshold: f64,
    /// The value compared with the threshold (candidate mean, CI lower bound, loss rate …).
    pub value: f64,
    pub passed: bool,
    pub status: GateStatus,
    /// Plain-words explanation: what was compared with what.
    pub detail: String,
}
