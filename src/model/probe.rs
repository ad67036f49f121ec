//! What the probe found: unlabelled queries ranked by both sides, how many of their top k the
//! change moved (with a Clopper–Pearson bound on that share), how each moved query's ranking
//! changed (rank-biased overlap, the documents entering and leaving the top k), the worst-case
//! bound of each gated metric's mean change, and which evidence decided the verdict.

use schemars::JsonSchema;
use serde::Serialize;

/// The probe's part of the report (`[probe]` of the gate file).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "probe")]
pub struct ProbeReport {
    /// The probe runs as the gate file wrote them.
    pub baseline: String,
    /// `[probe] candidate` as written (`baseline` likewise).
    pub candidate: String,
    /// Unlabelled queries both sides ranked (the probe's N).
    #[schemars(range(min = 1))]
    pub queries: usize,
    /// Queries of the probe runs that are in the labelled set, left to it.
    pub labelled_left_out: usize,
    /// The top k compared (the deepest gated cutoff; none: the whole ranking).
    #[schemars(range(min = 1))]
    pub cutoff: Option<usize>,
    /// Rank-biased overlap persistence p.
    #[schemars(extend("exclusiveMinimum" = 0, "exclusiveMaximum" = 1))]
    pub persistence: f64,
    /// Queries whose top k changed (order or membership).
    pub changed: usize,
    /// `changed / queries`.
    #[schemars(range(min = 0, max = 1))]
    pub changed_share: f64,
    /// The one-sided Clopper–Pearson upper bound on the population's changed share at α/2.
    #[schemars(range(min = 0, max = 1))]
    pub changed_share_bound: f64,
    /// 1 − (α/2)^(1/N): a change touching a smaller share of queries can hide from the probe.
    #[schemars(range(min = 0, max = 1))]
    pub resolution: f64,
    /// The one-sided level of each bound (α/2).
    #[schemars(range(min = 0, max = 1))]
    pub level: f64,
    /// Per gated metric: the worst-case bound of its mean change.
    pub bounds: Vec<ProbeBound>,
    /// The moved queries, heaviest worst case first (at most `LISTED` in the report; the
    /// labelling batch has them all).
    #[schemars(length(max = LISTED))]
    pub moved: Vec<ProbeQuery>,
    /// Which evidence decided the verdict, in words (the header's probe line).
    pub decided: String,
    /// The probe's protocol fingerprint (both sides share it, or the check is refused).
    pub fingerprint: ProbeFingerprint,
}

/// Moved queries listed in the report.
pub const LISTED: usize = 20;

/// One gated metric's worst case over the probe.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "probe_bound")]
pub struct ProbeBound {
    pub metric: String,
    /// Mean over the probe of each query's worst feasible loss (every retrieved document
    /// unjudged).
    #[schemars(range(min = 0, max = 1))]
    pub worst_mean_loss: f64,
    /// Its upper bound over the population at α/2 (an unseen query may lose 1).
    #[schemars(range(min = 0, max = 1))]
    pub loss_bound: f64,
    /// The same for the worst gain (what `max-change` reads).
    #[schemars(range(min = 0, max = 1))]
    pub worst_mean_gain: f64,
    #[schemars(range(min = 0, max = 1))]
    pub gain_bound: f64,
}

/// One probe query whose top k moved.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "probe_query")]
pub struct ProbeQuery {
    pub query_id: String,
    /// Rank-biased overlap of the two top-k lists.
    #[schemars(range(min = 0, max = 1))]
    pub rbo: f64,
    /// Documents in the candidate's top k, not in the baseline's.
    pub entering: Vec<String>,
    /// Documents in the baseline's top k, not in the candidate's.
    pub leaving: Vec<String>,
    /// The largest worst feasible loss over the gated metrics (what orders the batch).
    #[schemars(range(min = 0, max = 1))]
    pub worst_loss: f64,
}

/// The probe's protocol: what both sides' probe runs must share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(rename = "probe_fingerprint")]
pub struct ProbeFingerprint {
    /// SHA-256 of the probe's query ids, `qid\n` each, sorted.
    pub query_set_sha256: String,
    /// The deepest ranking of either side.
    pub depth: usize,
    /// "score", "rank" or "given".
    #[schemars(extend("enum" = ["score", "rank", "given"]))]
    pub ordering: String,
}
