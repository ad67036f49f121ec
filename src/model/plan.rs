//! What `rag-gate plan` finds: per gated metric × slice × rule, the units the rule needs at the
//! chosen power, how sure that number is, and what today's size can do. Plain data for the
//! renderers (text, Markdown, JSON).

use serde::Serialize;

/// The plan of one gate file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanReport {
    pub schema: &'static str,
    /// The gate file as given.
    pub gate_file: String,
    /// Where the variance comes from, in words ("the baseline × candidate deltas of the gate
    /// file's inputs").
    pub source: String,
    /// "query" or "group".
    pub unit: String,
    pub power: f64,
    pub confidence: f64,
    /// Gated comparisons (metric × statistic × slice): Holm's family for the sign-flip level.
    pub family: usize,
    pub rows: Vec<PlanRow>,
    /// The resolution of every gated metric × slice with a `max-drop` or `max-change`.
    pub resolutions: Vec<PlanResolution>,
    /// What the gate file does to pull requests made from its own pair (None: no gate a
    /// pull request stream can be predicted for).
    pub stream: Option<PlanStream>,
    /// Rules that have no size to plan (absolute bars, loss rates, quantiles), in words.
    pub not_planned: Vec<String>,
    pub warnings: Vec<String>,
}

/// One gate × slice × rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanRow {
    pub gate: usize,
    pub metric: String,
    pub slice: String,
    /// `max-drop`, `max-change` or `fail-if-significant-drop`.
    pub rule: String,
    pub margin: f64,
    /// `fail-if-significant-drop`: the true drop it should catch (`--drop`, else twice the
    /// margin, else the gate's `max-drop`). None for the other rules.
    pub drop: Option<f64>,
    /// Today: queries, groups (group unit), moved units (queries, or groups holding one).
    pub queries: usize,
    pub groups: Option<usize>,
    pub moved: usize,
    /// Standard deviation of the per-query deltas, and the standard error of the mean delta at
    /// the unit.
    pub sd: f64,
    pub se: f64,
    /// Group unit: ŝe²_cluster / (s²/N), and the intra-class correlation of the deltas.
    pub design_effect: Option<f64>,
    pub icc: Option<f64>,
    /// A 0/1 metric: discordant pairs (a query that went 1 → 0 or 0 → 1).
    pub discordant: Option<usize>,
    /// Today: the margin a no-op passes with `power` (max-drop / max-change), or the drop
    /// fail-if-significant-drop catches with `power`.
    pub detectable: f64,
    /// Today: the sign-flip p floor, 2/2^moved.
    pub p_floor: f64,
    /// The units (queries, or groups) the rule needs; None when it cannot be said (see `why`).
    pub needed: Option<usize>,
    /// The interval on `needed` from the interval on the variance; None when it cannot be said.
    pub needed_interval: Option<[usize; 2]>,
    /// Group unit: the queries those groups bring at today's mean group size.
    pub needed_queries: Option<usize>,
    /// fail-if-significant-drop: the moved units its sign-flip test needs at Holm's first step.
    pub moved_needed: Option<usize>,
    /// A 0/1 metric: the discordant pairs the needed units bring at today's rate.
    pub discordant_needed: Option<usize>,
    /// Today's size is enough (`needed` ≤ today's units).
    pub enough: bool,
    /// Why `needed` is None, or what to weigh (few moved queries), in words.
    pub notes: Vec<String>,
}

/// The resolution of one gated metric × slice: a change touching fewer than `share` of its
/// `units` can leave none of them moved on a pull request (1 − (α/2)^(1/units)), at a worst
/// cost of `share` × the most one unit can lose.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanResolution {
    pub gate: usize,
    pub metric: String,
    pub slice: String,
    /// Queries, or groups under the group unit.
    pub units: usize,
    pub share: f64,
    /// The gate's smallest margin (`max-drop`, else `max-change`).
    pub margin: f64,
    /// `share` × the most one unit can lose (1 on a [0, 1] metric, else the gate's
    /// `max-unit-loss`); None when that is unknown.
    pub worst_cost: Option<f64>,
    /// The chance a drop of the margin carried by the fewest units that can carry it leaves
    /// none of the units moved; None when the most one unit can lose is unknown.
    pub unseen_at_margin: Option<f64>,
}

/// The gate file on pull requests made from its own pair (`plan::predict`): honest ones (the
/// sides swapped per unit: true delta 0) and regressions at the margin (true delta −m).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanStream {
    /// Pull requests of each kind, and the resamples each check drew.
    pub sets: usize,
    pub resamples: u64,
    /// Honest pull requests: the share that exits 1, and the share that is inconclusive.
    pub friction: f64,
    pub amber: f64,
    /// Regressions at the margin: the share that exits 0, green and amber.
    pub escape_green: f64,
    pub escape_amber: f64,
}
