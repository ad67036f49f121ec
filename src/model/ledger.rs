//! The gate across time: the approved anchor a candidate's drift is measured against, the drift
//! rows the reports show, and main's chained ledger of who spent the drift budget. Plain data,
//! forge-neutral (no GitHub here): the ledger and the anchor record are files that travel with
//! main's stored results and with the anchor.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Real;

/// A paired estimate (candidate − reference) and its interval at the report's confidence.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema, Deserialize)]
#[schemars(rename = "interval")]
pub struct Interval {
    #[schemars(with = "Real")]
    pub estimate: f64,
    #[schemars(with = "[Real; 2]")]
    pub ci: [f64; 2],
}

/// What the drift rule decided for one gated metric × slice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[schemars(rename = "drift_status")]
pub enum DriftStatus {
    /// The candidate is proven within the budget of the anchor.
    Within,
    /// The candidate is not proven within the budget and main was: this change crosses it.
    Crossed,
    /// main had already spent the budget and this change is not shown to add to the drift:
    /// it passes with a warning naming the merges that spent it.
    Inherited,
    /// main had already spent the budget and this change is shown to add to the drift.
    Added,
    /// Too few queries (or groups, or moved units) to judge.
    NotJudged,
}

impl DriftStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            DriftStatus::Within => "within",
            DriftStatus::Crossed => "crossed",
            DriftStatus::Inherited => "inherited",
            DriftStatus::Added => "added",
            DriftStatus::NotJudged => "not-judged",
        }
    }
}

/// One merge's share of the drift, from the ledger: its commit, the pull request it merged when
/// known, and its delta against its parent's results (as measured: for a lower-is-better
/// metric a rise).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "spend")]
pub struct Spend {
    pub commit: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u64", range(min = 1))]
    pub pr: Option<u64>,
    #[schemars(with = "Real")]
    pub delta: f64,
}

/// One gated metric × slice against the anchor.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "drift_row")]
pub struct DriftRow {
    #[schemars(range(min = 1))]
    pub gate: usize,
    pub metric: String,
    pub statistic: String,
    pub slice: String,
    pub higher_is_better: bool,
    /// `max-drift`: the drift from the anchor the gate allows.
    #[schemars(with = "Real")]
    pub budget: f64,
    /// candidate − anchor.
    pub candidate: Interval,
    /// baseline (main) − anchor.
    pub main: Interval,
    /// candidate − baseline: this change's own delta.
    pub change: Interval,
    /// The share of the budget main has used: its oriented drift (point estimate) over the
    /// budget, 0 when main is not worse than the anchor.
    #[schemars(with = "Real")]
    pub used: f64,
    /// within: proven within the budget; crossed: not proven within and main was: this change
    /// crosses it (fails); inherited: main had spent the budget and this change is not shown to add
    /// to it (passes with a warning); added: main had spent it and this change is shown to add to
    /// the drift (fails); not-judged: too few queries, groups or moved units to judge.
    pub status: DriftStatus,
    /// The ledger's merges that made main worse on this metric and slice, in merge order.
    pub spent_by: Vec<Spend>,
}

/// Whether the ledger was read, and why not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[schemars(rename = "ledger_status")]
pub enum LedgerStatus {
    /// Read, its chain and its tie to the baseline checked.
    Verified,
    /// There is none beside the baseline.
    Absent,
    /// It failed its check (edited, another anchor, another baseline): not trusted.
    Ignored,
}

/// `[anchor]`: the approved anchor every `max-drift` gate measures the candidate against,
/// main's ledger, and one drift row per `max-drift` gate × slice (docs/github.md, the gate
/// across time).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "anchor")]
pub struct AnchorReport {
    pub name: String,
    /// As the gate file wrote it.
    pub file: String,
    /// SHA-256 of the anchor's per-query file.
    pub sha256: String,
    /// The commit the anchor measured (from its record), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub commit: Option<String>,
    /// The protocol hash both sides share (the candidate's fingerprint equals the anchor's).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub protocol_hash: Option<String>,
    /// main's ledger beside the baseline: verified (its chain and its tie to the baseline hold),
    /// absent (none, or one for another anchor), ignored (it failed its check; a warning says why).
    pub ledger: LedgerStatus,
    /// Merges the ledger records since the anchor.
    pub ledger_entries: usize,
    pub drift: Vec<DriftRow>,
}

pub const LEDGER_FORMAT: u32 = 1;
pub const ANCHOR_FORMAT: u32 = 1;

/// main's ledger: one entry per main run since the anchor, each chained to the one before by
/// its hash (`FILE.ledger.json` beside main's stored results `FILE`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ledger {
    pub ledger_format: u32,
    /// The anchor the entries measured against (its name and its file's SHA-256).
    pub anchor: LedgerAnchor,
    pub entries: Vec<LedgerEntry>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LedgerAnchor {
    pub name: String,
    pub sha256: String,
}

/// One main run: its commit, the pull request it merged (when the event or the merge commit
/// says), the SHA-256 of its stored results, its deltas, and the chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LedgerEntry {
    pub commit: String,
    pub pr: Option<u64>,
    /// The parent's commit (the entry before), when there was a parent with a ledger.
    pub parent: Option<String>,
    pub results_sha256: String,
    pub deltas: Vec<LedgerDelta>,
    /// The hash of the entry before ("" for the first).
    pub prev: String,
    /// SHA-256 of this entry's JSON with `hash` empty.
    pub hash: String,
}

/// One gated metric × slice of one main run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LedgerDelta {
    pub metric: String,
    pub statistic: String,
    pub slice: String,
    /// This run against its parent's stored results (None for the first entry).
    pub vs_parent: Option<Interval>,
    /// This run against the anchor.
    pub vs_anchor: Interval,
}

/// `ANCHOR.anchor.json`: what `rag-gate anchor write` recorded beside a new anchor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnchorRecord {
    pub anchor_format: u32,
    pub name: String,
    /// SHA-256 of the anchor's per-query file.
    pub sha256: String,
    /// The results it was written from, as given.
    pub from: String,
    /// The commit those results measured, when known (the ledger's last entry, or the fetch's
    /// provenance record).
    pub commit: Option<String>,
    /// The protocol hash of its fingerprint.
    pub protocol_hash: Option<String>,
    /// The ledger's final state against the previous anchor (None without a ledger).
    pub ledger_final: Option<Ledger>,
}
