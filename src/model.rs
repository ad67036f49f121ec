//! The analysis model: the data the stages hand each other (pairing summary, comparisons, gate
//! results, labels, verdict) and the report they add up to, serialised as the JSON report.
//! It imports no stage: every stage imports it, so data flows one way through it.
//!
//! Renderers (text, Markdown, JSON) take a `&Report` and return a `String`; the caller decides
//! where it goes. Field order here is the JSON field order; every map is ordered, no clock.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub mod date;
pub mod ledger;
pub mod looks;
pub mod plan;
pub mod probe;
pub mod real;
pub mod summary;

pub use date::Date;
pub use real::Real;

/// Version of the JSON report layout; bump when a field changes meaning or disappears.
///
/// 2: `ci` brackets `estimate` (the chosen statistic's difference; the mean delta by default);
/// comparisons gain the statistic, p-value, MDE, label, Monte-Carlo error and practical ties;
/// gate results gain the label, raw and Holm-adjusted p-values and the deciding rule.
///
/// 3: `rag_gate_version`; `notes` (information) apart from `warnings`; labels say where the
/// interval lies against zero and the margin (`better-below-margin`, `worse-within-margin`,
/// `unclear` replaces `inconclusive`); a gate result's `passed` is false when it was not judged
/// (`too-small`), and `fails_build` says whether it fails the verdict; `mc_rerun` on gate
/// results; `inputs.qrels` and `inputs.eval` when runs were evaluated. The layout is
/// published as `docs/report.schema.json`.
pub const SCHEMA_VERSION: u32 = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema, Deserialize)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "verdict")]
pub enum Verdict {
    Pass,
    Fail,
    /// No gated comparison moved: every unit's delta within tie-epsilon on every gated
    /// comparison ("unchanged on all N queries"). Green, like a pass.
    Untouched,
    /// Nothing failed, but some check could not be decided on this sample and its observed
    /// mean delta is above −m/2 (amber). Exits 0 unless `[verdict] on-inconclusive = "fail"`.
    Inconclusive,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Untouched => "untouched",
            Verdict::Inconclusive => "inconclusive",
        }
    }

    /// A GitHub check run's conclusion: `success` (pass, untouched), `failure` (fail, and
    /// inconclusive when `on_inconclusive` is "fail": the exit code's reading) or `neutral`
    /// (inconclusive, which a required check lets through: see docs/github.md).
    pub fn conclusion(self, on_inconclusive: &str) -> &'static str {
        match self {
            Verdict::Pass | Verdict::Untouched => "success",
            Verdict::Fail => "failure",
            Verdict::Inconclusive if on_inconclusive == "fail" => "failure",
            Verdict::Inconclusive => "neutral",
        }
    }

    /// The word a headline starts with: PASS, FAIL, UNTOUCHED, INCONCLUSIVE.
    pub fn upper(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
            Verdict::Untouched => "UNTOUCHED",
            Verdict::Inconclusive => "INCONCLUSIVE",
        }
    }

    /// Green (pass, untouched), red (fail) or amber (inconclusive).
    pub fn colour(self) -> &'static str {
        match self {
            Verdict::Pass | Verdict::Untouched => "green",
            Verdict::Fail => "red",
            Verdict::Inconclusive => "amber",
        }
    }

    /// Whether the build may go on: pass and untouched (inconclusive depends on the gate file).
    pub fn is_green(self) -> bool {
        matches!(self, Verdict::Pass | Verdict::Untouched)
    }

    /// The mark and word of a heading: ✅ pass, ✅ untouched, ❌ fail, 🟠 inconclusive.
    pub fn icon(self) -> (&'static str, &'static str) {
        match self {
            Verdict::Pass => ("✅", "pass"),
            Verdict::Untouched => ("✅", "untouched"),
            Verdict::Fail => ("❌", "fail"),
            Verdict::Inconclusive => ("🟠", "inconclusive"),
        }
    }

    /// The worse of two verdicts: fail, then inconclusive, then pass, then untouched.
    pub fn worst(self, other: Verdict) -> Verdict {
        let rank = |v: Verdict| match v {
            Verdict::Fail => 3,
            Verdict::Inconclusive => 2,
            Verdict::Pass => 1,
            Verdict::Untouched => 0,
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

/// A headline without its verdict word ("FAIL: ", "PASS: ", "UNTOUCHED: ", "INCONCLUSIVE: "):
/// where a heading already says the verdict.
pub fn headline_reason(h: &str) -> &str {
    let h = h.trim();
    ["FAIL: ", "PASS: ", "UNTOUCHED: ", "INCONCLUSIVE: "]
        .iter()
        .find_map(|p| h.strip_prefix(p))
        .unwrap_or(h)
}

/// The gate's resolution on one gated slice: a change touching fewer than `share` of its
/// `units` can leave none of them moved in this sample (one-sided at the interval's level:
/// 1 − (α/2)^(1/units)), at a worst cost of `share` × the most one unit can lose.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "resolution")]
pub struct Resolution {
    pub slice: String,
    /// Queries, or groups with the group unit.
    pub units: usize,
    #[schemars(range(min = 0, max = 1))]
    pub share: f64,
    /// The gate and metric whose margin the worst cost is set against (the smallest margin on
    /// this slice).
    pub metric: String,
    /// Its margin (0 when no `max-drop` / `max-change` is on the slice).
    #[schemars(range(min = 0))]
    pub margin: f64,
    /// `share` × the most one unit can lose (1 for a metric in [0, 1], else the gate's
    /// `max-unit-loss`); None when that is unknown (an unbounded metric without it).
    pub worst_cost: Option<f64>,
}

/// One gate file's report (`check` on one gate file, `compare`), and each section of a
/// several-file report: the JSON report.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "report")]
pub struct Report {
    #[schemars(extend("const" = SCHEMA_VERSION))]
    pub schema_version: u32,
    /// The rag-gate version that made this report.
    pub rag_gate_version: String,
    /// Names this gate (from the gate file's `id`, default the file stem); keys the sticky comment.
    pub gate_id: String,
    /// pass (green), untouched (green: no gated comparison moved, "unchanged on all N queries"),
    /// fail (red, exit 1), inconclusive (amber: nothing failed but a check could not be decided on
    /// this sample; exit 0, or 1 under `[verdict] on-inconclusive = "fail"`).
    pub verdict: Verdict,
    /// One line: the verdict and the reason that matters most.
    pub headline: String,
    /// `[verdict] guarantee`: "regular" or "distribution-free".
    #[schemars(extend("enum" = ["regular", "distribution-free"]))]
    pub guarantee: String,
    /// `[verdict] on-inconclusive`: "pass" (an inconclusive verdict exits 0) or "fail".
    #[schemars(extend("enum" = ["pass", "fail"]))]
    pub on_inconclusive: String,
    /// The resolution on each gated slice: `all` first, then the critical slices a gate reads.
    pub resolution: Vec<Resolution>,
    pub seed: u64,
    #[schemars(range(min = 1))]
    pub resamples: u64,
    #[schemars(extend("exclusiveMinimum" = 0, "exclusiveMaximum" = 1))]
    pub confidence: f64,
    /// "query" or "group".
    #[schemars(extend("enum" = ["query", "group"]))]
    pub unit: String,
    /// Interval method, e.g. "percentile".
    #[schemars(extend("enum" = ["bootstrap-t", "percentile", "bca", "expanded-percentile"]))]
    pub method: String,
    #[schemars(range(min = 0))]
    pub tie_epsilon: f64,
    pub inputs: InputsInfo,
    /// Where the baseline came from (commit, run, age, distance from the merge-base), as far as
    /// known; `line` is what every report prints after "baseline: ".
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "BaselineInfo")]
    pub baseline: Option<BaselineInfo>,
    pub pairing: PairingInfo,
    /// One per metric × statistic × slice: metrics in name order, then each statistic some gate
    /// reads (mean, median, p95; an ungated metric is a mean), then `all` first and slices in
    /// name order. (metric, statistic, slice) names a comparison.
    pub comparisons: Vec<Comparison>,
    /// One per gate × slice it applies to, in gate-file order.
    pub gates: Vec<GateResult>,
    /// Things a reader must act on or weigh that did not fail the gate (slices too small to
    /// judge, dropped queries, gate-file keys with no effect, too little power).
    pub warnings: Vec<String>,
    /// How the two sides were measured (the protocol fingerprint), when the analysis checked it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "ProtocolReport")]
    pub protocol: Option<ProtocolReport>,
    /// Replicate counts, the measured noise and the quarantine (absent when there are none).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "NoiseReport")]
    pub noise: Option<NoiseReport>,
    /// Information (what an evaluation counted, which comparisons were re-run), not warnings.
    pub notes: Vec<String>,
    /// Run cards, run-level metrics and gates (`[efficiency]`; absent without run cards).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "EfficiencyReport")]
    pub efficiency: Option<EfficiencyReport>,
    /// Tie sensitivity of the gated metrics, when `check` evaluated both runs itself and ordered
    /// them by score or rank (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "TieReport")]
    pub ties: Option<TieReport>,
    /// `[anchor]`: the drift of every `max-drift` gate against the approved anchor, and main's
    /// ledger (absent without an anchor).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "ledger::AnchorReport")]
    pub anchor: Option<ledger::AnchorReport>,
    /// A re-run of the judged commit: the attempts judged together (absent on a first attempt,
    /// and without the sticky comment's state).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "looks::AttemptsReport")]
    pub attempts: Option<looks::AttemptsReport>,
    /// The pull request's history of looks from the sticky comment's state (absent with fewer
    /// than two looks).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "looks::LooksReport")]
    pub looks: Option<looks::LooksReport>,
    /// `[judge]`: the judge, its agreement with the human labels, and per gated metric × slice
    /// the human-only, judge-only and prediction-powered (corrected) deltas (absent without a
    /// judge).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "JudgeReport")]
    pub judge: Option<JudgeReport>,
    /// `[probe]`: unlabelled queries ranked by both sides, what the change moved there and the
    /// worst-case bound it sets (absent without a probe).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "probe::ProbeReport")]
    pub probe: Option<probe::ProbeReport>,
    /// How the text report is laid out; not in the JSON (it changes no figure).
    #[serde(skip)]
    pub view: TextView,
}

/// The text report's layout: the full protocol table only with `details` (`--details`,
/// `[report] details = true`); a comparison too small for an interval (`TextView::too_small`)
/// shows no interval or MDE, only that it is too small.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TextView {
    pub details: bool,
    /// The gate file's `[slices] min-queries`.
    pub min_queries: usize,
    /// The fewest queries a rule is judged on: `min-queries`, or 2 under `on-small-slice =
    /// "judge"` (`verdict::fewest_judged`).
    pub judged_from: usize,
    /// The gate file's `[slices] min-groups` (group unit).
    pub min_groups: usize,
    /// Group-unit comparisons of the mean below `min-groups` are judged on their small-sample
    /// cluster interval from 2 groups (`verdict::few_groups_judged`).
    pub few_groups_judged: bool,
}

impl TextView {
    /// Why `c` shows no interval, in a table cell's words: fewer queries than a rule is judged
    /// on, or (group unit) fewer effective groups than `min-groups`; None when it shows one.
    pub fn too_small(&self, c: &Comparison) -> Option<String> {
        if c.n < self.judged_from {
            return Some(if self.judged_from == self.min_queries {
                format!("too small: {} < min-queries {}", c.n, self.min_queries)
            } else {
                let one = if c.n == 1 { "query" } else { "queries" };
                format!("too small: {} {one}", c.n)
            });
        }
        let g = c.effective_groups.filter(|&g| g < self.min_groups as f64)?;
        if self.few_groups_judged && c.judged_on_few_groups() {
            return None;
        }
        Some(format!(
            "too small: {g:.1} groups < min-groups {}",
            self.min_groups
        ))
    }
}

/// `[judge]`: a model's relevance labels corrected by the human qrels (prediction-powered
/// inference; docs/judges.md). The judge as its sidecar names it, its agreement with the humans
/// on the (query, document) pairs both graded, and per gated mean metric × slice the human-only,
/// judge-only and corrected deltas.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "judge")]
pub struct JudgeReport {
    /// The judge's qrels as the gate file wrote them, and their fingerprint (the SHA-256 of the
    /// protocol fingerprint's `qrels_sha256`: both sides are evaluated against these labels).
    pub qrels: String,
    pub qrels_sha256: String,
    pub model: String,
    pub prompt_hash: String,
    pub date: String,
    /// The sidecar's `settings` (temperature, …), as written.
    pub settings: std::collections::BTreeMap<String, serde_json::Value>,
    /// What the rules read: "human" (the human-only interval) or "corrected".
    #[schemars(extend("enum" = ["human", "corrected"]))]
    pub gate_on: String,
    /// Queries the judge's labels score on both sides (the corrected analysis' queries), and
    /// how many of them the humans labelled.
    pub queries: usize,
    /// Of those, the queries with human labels.
    pub labelled_queries: usize,
    pub min_labelled: usize,
    /// The floor on the binary κ (None: no floor, the corrected interval decides).
    pub min_kappa: Option<f64>,
    /// `[judge] sample` as written: the labelled units were drawn with these inclusion
    /// probabilities and the corrected and human-only deltas weight them by the inverse. None:
    /// a uniform random sample, unweighted.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub sample: Option<String>,
    pub agreement: Agreement,
    /// One per gated mean metric × slice, in the comparisons' order.
    pub deltas: Vec<JudgedDelta>,
    /// The queries the judge scored and the humans did not, with their groups (what
    /// `label-plan` draws the next batch from), in id order.
    #[serde(skip)]
    pub unlabelled: Vec<(String, Option<String>)>,
    /// Every query the judge scored, with its group and the judge's uncertainty about it: the
    /// mean over the gated metrics of the judge's |delta| in units of that metric's spread of
    /// judge deltas (what `label-plan --active` draws by), in id order.
    #[serde(skip)]
    pub uncertainty: Vec<(String, Option<String>, f64)>,
    /// `[judge] plant-key`: how often the judge called the planted pairs relevant (None
    /// without a key). The planted pairs enter no metric, agreement or correction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planted: Option<PlantedReport>,
}

/// The planted (query, document) pairs the judge labelled: irrelevant passages made to look
/// relevant (Alaofi et al. 2024, "LLMs can be fooled into labelling a document as relevant").
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "planted")]
pub struct PlantedReport {
    /// The key as the gate file wrote it.
    pub key: String,
    /// A planted pair is called relevant at grade ≥ this (`[eval] relevance-level`).
    pub relevance_level: i32,
    /// One per kind planted, in the order keyword-stuffing, instruction.
    pub kinds: Vec<PlantedKind>,
}

/// One kind of planted pair and the judge's labels on it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "planted_kind")]
pub struct PlantedKind {
    /// "keyword-stuffing" (the query's words inserted into an irrelevant passage) or
    /// "instruction" (an instruction to the assessor appended to one).
    #[schemars(extend("enum" = ["keyword-stuffing", "instruction"]))]
    pub kind: String,
    /// Pairs of this kind in the key.
    pub planted: usize,
    /// Of those, the pairs the judge's qrels label.
    pub labelled: usize,
    /// Of the labelled, the pairs labelled relevant.
    pub relevant: usize,
    /// Clopper–Pearson interval of the share called relevant (`relevant` of `labelled`) at the
    /// report's confidence.
    pub ci: [f64; 2],
}

/// The judge against the humans on the (query, document) pairs both judged.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "agreement")]
pub struct Agreement {
    /// Pairs judged by both.
    pub pairs: usize,
    /// The grades seen on either side, ascending: the rows (human) and columns (judge) of
    /// `confusion`.
    pub grades: Vec<i32>,
    /// `confusion[h][j]`: pairs the humans graded `grades[h]` and the judge `grades[j]`.
    pub confusion: Vec<Vec<usize>>,
    /// Cohen's κ unweighted on the grades: every disagreement alike (None with no pair, or when
    /// chance agreement is 1).
    pub kappa: Option<f64>,
    /// The relevance level of the binary κ (grade ≥ this is relevant: `[eval] relevance-level`).
    pub relevance_level: i32,
    /// Cohen's κ on relevant / not relevant at `relevance_level`: what `min-kappa` reads.
    pub kappa_binary: Option<f64>,
    /// Linear-weighted κ on the grades (weights |i − j| over the grades' positions).
    pub kappa_linear: Option<f64>,
    /// Per side ("baseline", "candidate"): how the judge errs on the documents that side put in
    /// its top k.
    pub sides: Vec<SideAgreement>,
}

/// How the judge errs on one side's top-k documents that both humans and the judge graded.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "side_agreement")]
pub struct SideAgreement {
    #[schemars(extend("enum" = ["baseline", "candidate"]))]
    pub side: String,
    /// Top-k slots (k: the gates' largest cutoff) on the queries both graded: k × queries.
    pub slots: usize,
    /// Relevant to the judge, not to the humans (at the relevance level).
    pub judge_only_relevant: usize,
    /// Relevant to the humans, not to the judge.
    pub human_only_relevant: usize,
    /// (judge_only_relevant − human_only_relevant) / slots: the judge's net generosity.
    pub net_generosity: Option<f64>,
}

/// One gated metric × slice under each source of labels.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "judged_delta")]
pub struct JudgedDelta {
    pub metric: String,
    pub slice: String,
    /// The mean delta on the human-labelled queries, with its normal-theory interval.
    pub human: Option<DeltaInterval>,
    /// The mean delta under the judge's labels on every query, with its normal-theory interval.
    pub judge_only: Option<DeltaInterval>,
    /// The prediction-powered estimate and interval; None when not judged.
    pub corrected: Option<CorrectedDelta>,
    /// On the labelled units, the judge's delta minus the humans' (mean and interval): an
    /// interval away from 0 is a judge that favours one side on this metric.
    pub judge_minus_human: Option<DeltaInterval>,
    /// Why the corrected delta was not judged (too few labelled units, κ below the floor).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub not_judged: Option<String>,
    /// What `label-plan` reads: the corrected variance's parts (`stats::ppi::Parts`).
    #[serde(skip)]
    pub plan: Option<LabelPlanInput>,
}

/// The spreads behind one comparison's corrected variance, per unit, for `label-plan`
/// (`stats::ppi::Parts`).
#[derive(Debug, Clone, Copy)]
pub struct LabelPlanInput {
    pub human: f64,
    pub cov: f64,
    pub judge_labelled: f64,
    pub judge_unlabelled: f64,
    pub query_cov: f64,
    pub query_judge: f64,
    pub labelled: usize,
    pub total: usize,
    /// No (or one) labelled unit: the judge's own spread stands in for the humans' (λ = 0).
    pub without_labels: bool,
}

#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[schemars(rename = "delta_interval")]
pub struct DeltaInterval {
    /// Queries (query unit) or groups (group unit).
    pub units: usize,
    #[schemars(with = "Real")]
    pub delta: f64,
    #[schemars(with = "[Real; 2]")]
    pub ci: [f64; 2],
}

#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[schemars(rename = "corrected_delta")]
pub struct CorrectedDelta {
    #[schemars(with = "Real")]
    pub delta: f64,
    #[schemars(with = "[Real; 2]")]
    pub ci: [f64; 2],
    /// Its standard error (the interval is delta ± z · se).
    #[schemars(with = "Real")]
    pub se: f64,
    /// The PPI++ power-tuning weight (0: human only, 1: plain PPI).
    #[schemars(with = "Real")]
    pub lambda: f64,
    /// Units with human labels, and units with only the judge's.
    pub labelled: usize,
    pub unlabelled: usize,
    /// The correction's efficiency: how many human-labelled units a human-only mean would need
    /// for this estimate's variance (`stats::ppi::effective_labelled`; `labelled` at λ = 0).
    pub worth_labelled: Option<f64>,
}

/// Several gate files checked in one run (`check a.toml b.toml`, or a folder): each file's own
/// report, and one verdict over them (the worst) with one headline.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "combined")]
pub struct CombinedReport {
    #[schemars(extend("const" = SCHEMA_VERSION))]
    pub schema_version: u32,
    /// The worst of the files' verdicts: fail, then inconclusive, then pass, then untouched.
    pub verdict: Verdict,
    /// "FAIL: 1 of 3 gate files failed; prod: …", or "PASS: 3 of 3 gate files passed".
    pub headline: String,
    /// In the order given on the command line (a folder's files in name order).
    #[schemars(length(min = 2))]
    pub gate_files: Vec<GateFileReport>,
}

/// One gate file's report within a several-file report ([`CombinedReport`]'s `gate_files`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "gate_file")]
pub struct GateFileReport {
    /// The gate file as given.
    pub file: String,
    /// The key of its sticky-comment state (its `id`, else derived from its path).
    pub key: String,
    pub report: Report,
}

/// How much the gated metrics and the gates' decisions depend on the order of tied scores
/// (`check` on runs ordered by score or rank): per metric and side the queries whose value depends
/// on the order of tied scores and the mean between the least and most favourable orders; per
/// gate its decision re-judged with both sides at opposite extreme orders (docs/eval.md, ties).
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
#[schemars(rename = "ties")]
pub struct TieReport {
    /// One per gated metric and side (baseline first).
    pub metrics: Vec<TieMetric>,
    /// One per gate result, in the gates' order: its decision with trec_eval's order and at the
    /// two extreme orders.
    pub gates: Vec<TieGate>,
}

/// One side's tie sensitivity of one metric over its evaluated queries.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "tie_metric")]
pub struct TieMetric {
    pub metric: String,
    /// "baseline" or "candidate".
    #[schemars(extend("enum" = ["baseline", "candidate"]))]
    pub side: String,
    pub evaluated: usize,
    /// Queries whose value differs between the least and the most favourable tie orders.
    pub queries_depending: usize,
    /// Tied-score groups over the side's evaluated queries (all metrics alike).
    pub tie_groups: usize,
    /// Mean with trec_eval's order (docid descending within ties), the least favourable and the
    /// most favourable order of the tied documents; null without evaluated queries.
    pub mean: Option<f64>,
    pub worst_mean: Option<f64>,
    pub best_mean: Option<f64>,
}

/// A gate re-judged with both sides at opposite extreme tie orders.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "tie_gate")]
pub struct TieGate {
    #[schemars(range(min = 1))]
    pub gate: usize,
    pub metric: String,
    pub slice: String,
    /// The gate's rule (`max-drop`, `min-mean`, …): a gate with two rules has a row for each.
    pub rule: String,
    /// The gate's value and decision ("pass", "fail", "not-judged", "untouched") with trec_eval's order.
    pub value: f64,
    #[schemars(extend("enum" = ["pass", "fail", "not-judged", "untouched"]))]
    pub decision: String,
    /// Candidate's tied documents least favourable, baseline's most favourable.
    pub against_value: f64,
    #[schemars(extend("enum" = ["pass", "fail", "not-judged", "untouched"]))]
    pub against: String,
    /// Candidate's tied documents most favourable, baseline's least favourable.
    pub for_value: f64,
    #[serde(rename = "for")]
    #[schemars(extend("enum" = ["pass", "fail", "not-judged", "untouched"]))]
    pub for_decision: String,
    /// True when either extreme's decision differs from today's.
    pub could_change: bool,
}

/// Run-to-run noise in a check: its replicates, the noise file's floors and flaky queries, and
/// the quarantined queries kept out of the gates.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
#[schemars(rename = "noise")]
pub struct NoiseReport {
    /// Replicate runs per side (baseline, candidate), when a side has several.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "[usize; 2]")]
    pub replicates: Option<[usize; 2]>,
    /// The noise file as written in the gate file, and the replicates it was measured on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub noise_file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "usize")]
    pub noise_replicates: Option<usize>,
    /// Noise floor of each compared metric × slice the noise file measured.
    pub floors: Vec<NoiseFloor>,
    /// metric → flaky query ids among the paired queries (from the noise file).
    pub flaky: std::collections::BTreeMap<String, Vec<String>>,
    /// Queries kept out of every comparison by `[noise] quarantine`, by id.
    pub quarantined: Vec<Quarantined>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "noise_floor")]
pub struct NoiseFloor {
    pub metric: String,
    pub slice: String,
    /// The noise file's floor: the A/A difference of two single runs stays inside ±this.
    #[schemars(with = "Real")]
    pub noise_floor: f64,
    /// The same for this check's replicate counts: floor · √((1/Rᵦ + 1/R꜀)/2).
    #[schemars(with = "Real")]
    pub floor_here: f64,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "quarantined")]
pub struct Quarantined {
    pub query_id: String,
    pub reason: String,
    pub owner: String,
    pub expires: String,
    /// metric → candidate − baseline for this query (not in any comparison).
    #[schemars(with = "std::collections::BTreeMap<String, Real>")]
    pub deltas: std::collections::BTreeMap<String, f64>,
}

/// The baseline's provenance: from `baseline fetch`'s `rag-gate-baseline.json`, else
/// `[inputs] baseline-commit`, else the baseline sidecar's ir_metadata commit, else unknown.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "baseline")]
pub struct BaselineInfo {
    /// "main@abc1234 (run 123456, 3 days old, 2 commits behind the merge-base)", or what is
    /// known, or "unknown (...)" saying why.
    pub line: String,
    /// "fetch", "gate-file", "ir-metadata" or "unknown".
    #[schemars(extend("enum" = ["fetch", "gate-file", "ir-metadata", "unknown"]))]
    pub source: String,
    /// The commit the baseline measured.
    pub commit: Option<String>,
    pub branch: Option<String>,
    /// The workflow file whose run made it.
    pub workflow: Option<String>,
    pub run_id: Option<u64>,
    pub run_url: Option<String>,
    /// The run's creation time (RFC 3339).
    pub run_date: Option<String>,
    /// Whole days from the run's date to today (`--today` / `RAG_GATE_TODAY`, else the UTC
    /// date); None when either is unknown.
    pub age_days: Option<i64>,
    /// Commits between the baseline's commit and the pull request's merge-base.
    pub commits_behind: Option<usize>,
    pub merge_base: Option<String>,
    /// How many commits the base branch has past the merge-base (fetched baselines only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u64")]
    pub merge_base_behind: Option<u64>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "inputs")]
pub struct InputsInfo {
    /// Each side as written in the gate file or on the command line.
    pub baseline: String,
    pub candidate: String,
    pub queries: Option<String>,
    /// The qrels runs were evaluated against (None when both inputs are metric files).
    pub qrels: Option<String>,
    /// The `[eval]` settings runs were evaluated with (None when both inputs are metric files).
    pub eval: Option<EvalSettings>,
}

/// The effective `[eval]` settings, every default filled in.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "eval_settings")]
pub struct EvalSettings {
    /// Computed besides the gated metrics.
    pub metrics: Vec<String>,
    #[schemars(range(min = 1))]
    pub rel_level: i32,
    /// "linear" or "exponential".
    #[schemars(extend("enum" = ["linear", "exponential"]))]
    pub gain: String,
    /// "score", "rank" or "given"; None when the runs' formats differ (TREC runs by score,
    /// JSONL runs as given).
    #[schemars(extend("enum" = ["score", "rank", "given", null]))]
    pub order: Option<String>,
    /// "exclude", "zero" or "error".
    #[schemars(extend("enum" = ["exclude", "zero", "error"]))]
    pub empty_gold: String,
    /// "trec" or "jsonl".
    #[schemars(extend("enum" = ["trec", "jsonl"]))]
    pub qrels_format: String,
    /// "trec" or "jsonl"; None when the two runs differ (each by its extension).
    #[schemars(extend("enum" = ["trec", "jsonl", null]))]
    pub run_format: Option<String>,
    pub corpus: Option<String>,
    pub chunk_map: Option<String>,
    /// Condensed lists: unjudged docs removed before scoring (trec_eval -J).
    pub judged_only: bool,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "pairing")]
pub struct PairingInfo {
    /// "error" or "intersect".
    #[schemars(extend("enum" = ["error", "intersect"]))]
    pub missing_policy: String,
    pub baseline_queries: usize,
    pub candidate_queries: usize,
    pub paired: usize,
    /// Queries only in the baseline file, dropped under `missing = "intersect"`.
    pub dropped_baseline_only: usize,
    pub dropped_candidate_only: usize,
    /// A few of the dropped ids (sorted), for the reader.
    pub dropped_examples: Vec<String>,
    /// Judged queries the baseline's run has no ranking for (scored 0; runs only).
    #[serde(skip_serializing_if = "is_zero")]
    #[schemars(range(min = 1))]
    pub baseline_unranked: usize,
    /// Judged queries the candidate's run has no ranking for (scored 0; runs only).
    #[serde(skip_serializing_if = "is_zero")]
    #[schemars(range(min = 1))]
    pub candidate_unranked: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The values at a quantile: each side's (baseline, candidate) type 7 quantile and the share of
/// its values equal to it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Atom {
    pub values: [f64; 2],
    pub shares: [f64; 2],
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "comparison")]
pub struct Comparison {
    pub metric: String,
    /// `all`, or `tag=value`.
    pub slice: String,
    pub n: usize,
    /// Number of distinct groups among the slice's queries (None when no groups are known).
    pub groups: Option<usize>,
    /// Group unit: the effective number of groups (1 + the Imbens–Kolesár df), what `min-groups` reads
    /// (equal to `groups` when the groups are of one size). None for the query unit.
    #[schemars(range(min = 0))]
    pub effective_groups: Option<f64>,
    #[schemars(with = "Real")]
    pub baseline_mean: f64,
    #[schemars(with = "Real")]
    pub candidate_mean: f64,
    /// Mean of candidate − baseline.
    #[schemars(with = "Real")]
    pub delta: f64,
    /// Bootstrap interval of `estimate` (the mean delta unless `statistic` says otherwise),
    /// `[low, high]`.
    #[schemars(with = "[Real; 2]")]
    pub ci: [f64; 2],
    /// Queries that got better (delta > ε; for a lower-is-better metric, delta < −ε), tied, worse.
    pub wins: usize,
    pub ties: usize,
    pub losses: usize,
    /// The units that moved: queries whose delta lies beyond tie-epsilon (wins + losses), or
    /// with the group unit the groups holding such a query. What `min-moved` reads; not in the
    /// JSON layout (the query unit's count is wins + losses there).
    #[serde(skip)]
    pub moved: usize,
    /// No unit moved: every delta within tie-epsilon. The interval is the point, and the
    /// statistical rules read "untouched".
    pub untouched: bool,
    /// With `[noise] file`: some query moved beyond tie-epsilon but none beyond its run-to-run
    /// band, and the mean delta lies within the run-level noise floor (`noise::band`); the
    /// statistical rules read "untouched" where the bands allow it (`verdict`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "WithinNoise")]
    pub within_noise: Option<WithinNoise>,
    /// The largest change one query's value can make: 1 for a metric bounded to [0, 1], else
    /// the values' observed range on both sides (what bounds an unseen drop when none moved).
    #[serde(skip)]
    pub value_range: f64,
    /// For a median or p95: each side's type 7 quantile and the share of that side's values
    /// equal to it (within tie-epsilon), which says whether the quantile sits on an atom
    /// (`verdict::atom_words`). None for the mean.
    #[serde(skip)]
    pub atom: Option<Atom>,
    /// The standard error of `estimate` and its degrees of freedom, behind `mde` (what the
    /// chance of a no-op passing the gates is read from).
    #[serde(skip)]
    pub se: f64,
    #[serde(skip)]
    pub df: f64,
    /// "mean", "median" or "p95": what `estimate` and `ci` are about.
    #[schemars(extend("enum" = ["mean", "median", "p95"]))]
    pub statistic: String,
    /// False for metrics where lower is better (latency): labels read a rise as a drop.
    pub higher_is_better: bool,
    /// The statistic of each side (the means when `statistic` is "mean"; a median or p95 is the
    /// Harrell–Davis quantile, or type 7 under `method = "percentile"` / `"bca"`).
    #[schemars(with = "Real")]
    pub baseline_value: f64,
    #[schemars(with = "Real")]
    pub candidate_value: f64,
    /// statistic(candidate) − statistic(baseline), paired (= `delta` for the mean).
    #[schemars(with = "Real")]
    pub estimate: f64,
    /// Monte-Carlo standard error of each interval bound.
    #[schemars(with = "[Real; 2]")]
    pub ci_mc_se: [f64; 2],
    /// Resamples behind `ci`: the configured number, or 10× when a bound lay within 3 Monte-Carlo
    /// standard errors of a gate threshold (`mc_rerun`).
    #[schemars(range(min = 1))]
    pub resamples_used: u64,
    pub mc_rerun: bool,
    /// Two-sided paired randomization (sign-flip) p-value at the resampling unit, from
    /// `resamples` random sign vectors: (1 + #as extreme) / (R + 1).
    #[schemars(with = "Real")]
    pub p_value: f64,
    /// The smallest p-value the sign-flip test can give here: 2 / 2^G' for G' units with a
    /// non-zero delta (exact enumeration of all sign vectors when 2^G ≤ resamples), and no less
    /// than 1 / (resamples + 1).
    #[schemars(range(min = 0, max = 1))]
    pub p_floor: f64,
    /// Minimum detectable effect at the confidence level and 80% power.
    #[schemars(with = "Real")]
    pub mde: f64,
    /// The margin m behind `label`: the smallest delta-rule margin of the gates on this
    /// comparison, else `practical_tie`.
    #[schemars(with = "Real")]
    pub margin: f64,
    /// What the interval says against `margin`: set by the verdict stage
    /// (`verdict::label_comparisons`; resample leaves it empty), so present in every report.
    #[schemars(with = "Label")]
    pub label: Option<Label>,
    /// |delta| at or below this is a practical tie; counts at that threshold.
    #[schemars(with = "Real")]
    pub practical_tie: f64,
    pub practical_wins: usize,
    pub practical_ties: usize,
    pub practical_losses: usize,
    /// The worst per-query regressions, worst first (only queries that got worse by more than
    /// tie_epsilon; for a lower-is-better metric, the largest rises).
    pub worst: Vec<Regression>,
    /// Judged coverage and the bounds unjudged documents put on the delta (gated comparisons of
    /// runs that `check` evaluated).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "JudgedBounds")]
    pub judged: Option<JudgedBounds>,
    /// With replicate runs: what the interval rests on (absent with one run per side).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "ReplicateInfo")]
    pub replicates: Option<ReplicateInfo>,
    /// A median or p95 on pooled attempts (a re-run): the candidate's runs whose values its
    /// quantile reads, stacked (this attempt's and each earlier attempt's kept in full; absent
    /// with one run).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "usize", range(min = 2))]
    pub stacked_runs: Option<usize>,
    /// The metric is compared under more than one statistic, so every name a reader sees
    /// carries the statistic ("latency_ms p95" beside "latency_ms mean"; see [`Comparison::name`]).
    /// Not in the JSON: there every comparison and gate result names its `statistic`.
    #[serde(skip)]
    pub statistic_in_name: bool,
}

/// A comparison whose every per-query move lies within the run-to-run noise an A/A noise file
/// measured (`noise::band`): what "unchanged beyond run-to-run noise" rests on.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "within_noise")]
pub struct WithinNoise {
    /// The noise file, as written in the gate file.
    pub file: String,
    /// Queries whose delta lies beyond tie-epsilon (each within its band).
    #[schemars(range(min = 1))]
    pub jittered: usize,
    /// The largest |delta| among them.
    #[schemars(with = "Real")]
    pub largest_move: f64,
    /// The run-level band: the largest difference two A/A replicates showed on any query (the
    /// band of a query they never moved), at this check's replicate counts.
    #[schemars(with = "Real")]
    pub run_band: f64,
    /// The most queries that may move: as many as the A/A replicates moved on this slice.
    #[schemars(range(min = 1))]
    pub jitter_cap: usize,
    /// The largest mean change moves within the noise can carry: the `jitter_cap` largest
    /// per-query bands summed over the slice's queries, divided by their number.
    #[schemars(with = "Real")]
    pub can_carry: f64,
    /// The run-level noise floor at this check's replicate counts, which |delta| lies within.
    #[schemars(with = "Real")]
    pub floor: f64,
}

/// The name a reader sees for `metric` read as `statistic`: the metric alone, or "metric
/// statistic" when the metric is compared under several statistics.
pub fn reading_name(metric: &str, statistic: &str, statistic_in_name: bool) -> String {
    if statistic_in_name {
        format!("{metric} {statistic}")
    } else {
        metric.to_string()
    }
}

/// What the missing judgments could do to a gated comparison. `delta` counts unjudged documents
/// as non-relevant (trec_eval); the bounds give each unjudged (query, document) pair in either
/// side's top k one judgment shared by both sides, relevant or not, and take per query the
/// assignment that raises the delta most (`upper`) or lowers it most (`lower`)
/// (`eval::shared_bounds`). The gate is judged again at each bound with the same seeds.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "judged_bounds")]
pub struct JudgedBounds {
    /// The k of judged@k (the metric's cutoff; none for whole-ranking metrics).
    #[schemars(range(min = 1))]
    pub k: Option<usize>,
    /// Mean judged@k over the slice's queries (none without a cutoff).
    #[schemars(range(min = 0, max = 1))]
    pub baseline_judged: Option<f64>,
    #[schemars(range(min = 0, max = 1))]
    pub candidate_judged: Option<f64>,
    /// Today's delta: unjudged documents count as non-relevant (trec_eval).
    #[schemars(with = "Real")]
    pub delta: f64,
    /// The delta and its interval when the unjudged documents are judged to lower it most.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "DeltaAtBound")]
    pub lower: Option<DeltaAtBound>,
    /// The same, judged to raise it most.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "DeltaAtBound")]
    pub upper: Option<DeltaAtBound>,
    /// False when some query's bound is a proved, wider bound than the optimum (AP over more
    /// than 16 unjudged documents).
    pub exact: bool,
    /// `[judged] condensed = true`: the delta and its interval on condensed lists (unjudged docs
    /// removed before scoring, trec_eval -J).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "DeltaAtBound")]
    pub condensed: Option<DeltaAtBound>,
    /// Why no bounds were computed (positive-only qrels, metric files); none when they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub not_computed: Option<String>,
    /// Unjudged documents in the top k, summed over the slice's queries (none for metric files).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "usize")]
    pub baseline_unjudged: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "usize")]
    pub candidate_unjudged: Option<usize>,
}

/// The gated comparison at one judged bound: the mean delta and its interval.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[schemars(rename = "delta_at_bound")]
pub struct DeltaAtBound {
    #[schemars(with = "Real")]
    pub delta: f64,
    #[schemars(with = "[Real; 2]")]
    pub ci: [f64; 2],
}

/// A gate's decision at each judged bound (`pass`, `fail` or `not-judged`), and whether they
/// differ (the gate is unreliable: unjudged documents could flip it).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "gate_bounds")]
pub struct GateBounds {
    #[schemars(extend("enum" = ["pass", "fail", "not-judged"]))]
    pub lower: String,
    #[schemars(extend("enum" = ["pass", "fail", "not-judged"]))]
    pub upper: String,
    pub unreliable: bool,
    /// The documents to judge first (query: doc@rank …), when unreliable.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub judge_first: Option<String>,
}

/// The replicate runs behind a comparison's crossed interval (`stats::crossed`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "replicates")]
pub struct ReplicateInfo {
    pub baseline_runs: usize,
    pub candidate_runs: usize,
    /// Satterthwaite degrees of freedom of the interval, over its mean squares (`stats::crossed`;
    /// capped at 1e9 for "unbounded").
    #[schemars(with = "Real")]
    pub df: f64,
    /// t_{df} / z: the factor the interval's distances from the estimate were stretched by.
    #[schemars(with = "Real")]
    pub t_stretch: f64,
    /// Standard error of the whole-run-shift part of the estimate.
    #[schemars(with = "Real")]
    pub run_se: f64,
    /// When the shift was read from the A/A noise file (one baseline run): its run count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aa_runs: Option<usize>,
}

/// What the interval says, oriented so that positive is an improvement: the word says where it
/// lies against zero, the qualifier where it lies against the margin m.
/// `better` (low bound > 0), `better-below-margin` (the whole interval in (0, +m]: real but
/// smaller than the margin), `worse` (high bound < 0), `worse-within-margin` (the whole interval
/// in [−m, 0): real but within the margin), `no-change` (holds 0 and lies inside [−m, +m]),
/// `unclear` (holds 0 and reaches past a margin), `untouched` (no unit moved, every delta within
/// tie-epsilon, and the interval is the point: nothing to label, as `check` reads it; a change
/// touching fewer than the resolution can hide there). The README and the report legends say the
/// same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[schemars(rename = "label")]
pub enum Label {
    Better,
    BetterBelowMargin,
    NoChange,
    WorseWithinMargin,
    Worse,
    Unclear,
    Untouched,
}

impl Comparison {
    /// A comparison the small-sample cluster interval can judge below `min-groups`: the mean of
    /// one run per side on 2 groups or more (`verdict::few_groups_judged`).
    pub fn judged_on_few_groups(&self) -> bool {
        self.statistic == "mean" && self.replicates.is_none() && self.groups.is_some_and(|g| g >= 2)
    }

    /// The judge's label ("" before the verdict stage ran).
    pub fn label_str(&self) -> &'static str {
        self.label.map_or("", Label::as_str)
    }

    /// The comparison's name in reports: the metric, with its statistic when the metric is
    /// compared under several ("latency_ms p95").
    pub fn name(&self) -> String {
        reading_name(&self.metric, &self.statistic, self.statistic_in_name)
    }

    /// The name with its statistic whenever it is not the mean ("latency_ms p95", "ndcg@10"), or
    /// when the metric has several ("ndcg@10 mean"): for sentences about the statistic's value.
    pub fn name_with_statistic(&self) -> String {
        reading_name(
            &self.metric,
            &self.statistic,
            self.statistic_in_name || self.statistic != "mean",
        )
    }

    /// Whether this is the same (metric, statistic, slice) as `other`.
    pub fn same_as(&self, other: &Comparison) -> bool {
        self.metric == other.metric
            && self.statistic == other.statistic
            && self.slice == other.slice
    }
}

impl Label {
    /// The words a reviewer reads.
    pub fn as_str(self) -> &'static str {
        match self {
            Label::Better => "better",
            Label::BetterBelowMargin => "better, below margin",
            Label::NoChange => "no change",
            Label::WorseWithinMargin => "worse, within margin",
            Label::Worse => "worse",
            Label::Unclear => "unclear",
            Label::Untouched => "untouched",
        }
    }
}

/// The label rule, for the report legends.
pub const LABEL_LEGEND: &str =
    "label, from the interval: better / worse = it lies above / below 0; \
better, below margin / worse, within margin = it lies between 0 and +m / −m (real, but smaller \
than the margin m); no change = it holds 0 and lies inside ±m; unclear = it holds 0 and reaches \
past ±m";

/// The legend's clause for `untouched`, added where a comparison carries it.
pub const UNTOUCHED_LEGEND: &str = "; untouched = no query moved (every delta within \
tie-epsilon): nothing to judge, and a change touching fewer than the resolution can hide";

/// The label legend for `comparisons`: [`LABEL_LEGEND`], with [`UNTOUCHED_LEGEND`] where one is
/// untouched.
pub fn label_legend(comparisons: &[Comparison]) -> String {
    let untouched = comparisons
        .iter()
        .any(|c| c.label == Some(Label::Untouched));
    format!(
        "{LABEL_LEGEND}{}",
        if untouched { UNTOUCHED_LEGEND } else { "" }
    )
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "regression")]
pub struct Regression {
    pub query_id: String,
    #[schemars(with = "Real")]
    pub baseline: f64,
    #[schemars(with = "Real")]
    pub candidate: f64,
    #[schemars(with = "Real")]
    pub delta: f64,
    /// Why it regressed, when the inputs are runs: how the query's relevant documents moved
    /// between the two rankings (those ranked within the metric's cutoff on either side whose
    /// rank changed, best baseline rank first). Empty (and absent from the JSON) for metric files.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<RankMove>,
}

/// Where one side's ranking put one of a query's relevant documents (eval → check, when the
/// inputs are runs): its id, grade, and 1-based rank (`None`: not retrieved).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(rename = "relevant_rank")]
pub struct RelevantRank {
    pub doc: String,
    pub rel: i32,
    pub rank: Option<usize>,
}

/// One relevant document of a regressed query, ranked by both sides (1-based ranks; `None`:
/// not retrieved at all).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(rename = "rank_move")]
pub struct RankMove {
    pub doc: String,
    /// Its relevance grade in the qrels.
    pub rel: i32,
    pub baseline_rank: Option<usize>,
    pub candidate_rank: Option<usize>,
    /// The metric's cutoff k ("the top 10"); the ranking depth for metrics without one.
    pub cutoff: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[schemars(rename = "gate_status")]
pub enum GateStatus {
    Pass,
    Fail,
    /// Not judged: the slice is too small for a statistical rule (fewer than `min-queries`
    /// queries). Never a pass: on `all` it fails; on a slice it warns, or fails with
    /// `on-small-slice = "fail"` (see `fails_build`).
    TooSmall,
    /// A statistical rule on a comparison where no unit moved: nothing to judge, never a
    /// failure.
    Untouched,
    /// Undecided on this sample (a quantile on an atom, a judge below its floor for this pull
    /// request, too few moved units for the rule) with the observed mean delta above −m/2:
    /// amber, not a pass; at or below −m/2 the same check fails.
    Inconclusive,
}

impl GateStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GateStatus::Pass => "pass",
            GateStatus::Fail => "fail",
            GateStatus::TooSmall => "too-small",
            GateStatus::Untouched => "untouched",
            GateStatus::Inconclusive => "inconclusive",
        }
    }
}

/// Why a check was not judged (`status` = too-small): what the headline and the tables read.
/// Not in the JSON, whose `decided_by` and `detail` say the same in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotJudged {
    /// Fewer queries than `min-queries`.
    MinQueries,
    /// Group unit: fewer effective groups than `min-groups`.
    MinGroups,
    /// A median or p95 on so few queries that fewer than `verdict::TAIL_VALUES` lie beyond its
    /// quantile (a p95 on fewer than 100).
    ThinTail,
    /// A passing `fail-if-significant-drop` whose sign-flip p-value cannot go below Holm's α/m.
    CannotFire,
    /// As `CannotFire`, but the floor is the random sign-flip test's 1 / (resamples + 1), not
    /// the data's: `needed` resamples would lift it below Holm's α/m.
    ResampleFloor { resamples: u64, needed: u64 },
    /// A passing `max-drop` / `max-change` on which `moved` units moved, some but fewer than
    /// `min` (`min-moved`).
    TooFewMoved { moved: usize, min: usize },
    /// A passing `max-drop` / `max-change` on which no unit moved, where zero moves among this
    /// many units cannot rule out an unseen drop beyond the margin (`verdict::no_op`); `needed`
    /// units would (None for a zero margin).
    NothingMoved { needed: Option<usize> },
    /// A passing `max-drop` / `max-change` on a median or p95 that sits on an atom
    /// (`verdict::ATOM_SHARE` or more of each side's values equal its quantile).
    OnAtom,
    /// The slice's mean judged@k is below `min-judged`.
    TooFewJudgments,
    /// `[judge] gate-on = "corrected"`: the corrected delta could not be trusted (too few
    /// human-labelled units, or the judge's agreement below `min-kappa`).
    UntrustedJudge,
}

impl NotJudged {
    /// The words of `decided_by` after "not judged: ".
    pub fn decided_by(self) -> &'static str {
        match self {
            NotJudged::MinQueries => "too small (min-queries)",
            NotJudged::MinGroups => "too small (min-groups)",
            NotJudged::ThinTail => "too small for its quantile",
            NotJudged::CannotFire => "too few units for the sign-flip test",
            NotJudged::ResampleFloor { .. } => "too few resamples for the sign-flip test",
            NotJudged::TooFewMoved { .. } => "too few moved (min-moved)",
            NotJudged::NothingMoved { .. } => "nothing moved, too few to prove a no-op",
            NotJudged::OnAtom => "the quantile sits on an atom",
            NotJudged::TooFewJudgments => "too few judgments (min-judged)",
            NotJudged::UntrustedJudge => "judge unchecked ([judge] min-labelled, min-kappa)",
        }
    }
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "gate_result")]
pub struct GateResult {
    /// 1-based position of the `[[gate]]` table in the gate file.
    #[schemars(range(min = 1))]
    pub gate: usize,
    pub metric: String,
    /// The gate's statistic ("mean", "median", "p95"): with `metric` and `slice` it names the
    /// comparison the result was judged on.
    #[schemars(extend("enum" = ["mean", "median", "p95"]))]
    pub statistic: String,
    pub slice: String,
    /// "min-mean", "max-drop", "max-loss-rate", …
    #[schemars(extend("enum" = ["min-mean", "max-mean", "max-drop", "max-change", "fail-if-significant-drop", "max-loss-rate", "max-drift"]))]
    pub rule: String,
    #[schemars(with = "Real")]
    pub threshold: f64,
    /// The value compared with the threshold (candidate mean, CI lower bound, loss rate …).
    #[schemars(with = "Real")]
    pub value: f64,
    /// The rule was judged and held (false when it failed or was not judged).
    pub passed: bool,
    /// This check fails the verdict (a failed rule, or one not judged that must be).
    pub fails_build: bool,
    /// too-small: not judged (never a pass; a setup matter: sizes, resamples). untouched: a
    /// statistical rule on a comparison where no unit moved (never a failure). inconclusive: undecided
    /// on this sample with the observed mean delta above −m/2 (amber, not a pass; at or below −m/2
    /// the same check fails).
    pub status: GateStatus,
    /// Plain-words explanation: what was compared with what.
    pub detail: String,
    /// The comparison's label against this gate's margin (its delta rule's m; otherwise the
    /// comparison's own margin).
    pub label: Label,
    /// The comparison's sign-flip p-value.
    #[schemars(with = "Real")]
    pub p_value: f64,
    /// Holm–Bonferroni adjusted across the family of gated comparisons (every metric × statistic
    /// × slice some gate applies to); it must be below 1 − confidence for a proven drop to fail.
    #[schemars(with = "Real")]
    pub p_adjusted: f64,
    pub family_size: usize,
    /// The interval behind this result was re-run with more resamples because a bound lay
    /// within 3 Monte-Carlo standard errors of its threshold: the result depends on the re-run.
    pub mc_rerun: bool,
    /// The rule that decided, in words: "non-inferiority (max-drop)", "proven harm
    /// (fail-if-significant-drop)", "absolute bar (min-mean)", … or "too-small slice"; a
    /// group-unit comparison judged below `min-groups` adds ", small-sample cluster interval
    /// (CR2, Imbens–Kolesár t)", the interval that decided.
    pub decided_by: String,
    /// The decision at each judged bound (gates of runs with judged bounds).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "GateBounds")]
    pub judged: Option<GateBounds>,
    /// `[judged] condensed = true`: the decision on condensed lists (reported, decides nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", extend("enum" = ["pass", "fail", "not-judged"]))]
    pub condensed: Option<String>,
    /// As [`Comparison::stacked_runs`]: a median or p95 judged on the pooled attempts' runs,
    /// stacked (absent with one run).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "usize", range(min = 2))]
    pub stacked_runs: Option<usize>,
    /// As [`Comparison::statistic_in_name`] (not in the JSON).
    #[serde(skip)]
    pub statistic_in_name: bool,
    /// Why it was not judged, when `status` is too-small (not in the JSON).
    #[serde(skip)]
    pub not_judged: Option<NotJudged>,
}

impl GateResult {
    /// Whether this result was judged on `c` (same metric, statistic and slice).
    /// A `max-drift` result is judged against the anchor, never on a comparison of the two sides.
    pub fn is_on(&self, c: &Comparison) -> bool {
        self.rule != "max-drift"
            && self.metric == c.metric
            && self.statistic == c.statistic
            && self.slice == c.slice
    }

    fn key(&self) -> (&str, &str, &str) {
        (&self.metric, &self.statistic, &self.slice)
    }

    /// The metric as reports name it (see [`Comparison::name`]).
    pub fn name(&self) -> String {
        reading_name(&self.metric, &self.statistic, self.statistic_in_name)
    }

    /// What a gate row adds after the metric's name for a median or p95 read on pooled
    /// attempts: " (median over 2 runs, stacked)"; "" otherwise.
    pub fn runs_note(&self) -> String {
        self.stacked_runs.map_or_else(String::new, |k| {
            format!(" ({} over {k} runs, stacked)", self.statistic)
        })
    }
}

/// The comparisons by what names them (metric, statistic, slice), and the gate results judged
/// on each: one lookup where a scan per gate (or per comparison) made reports quadratic in the
/// number of critical slices. The first comparison of a name wins, as a scan would find it.
pub struct OnIndex<'a> {
    comparison: std::collections::HashMap<(&'a str, &'a str, &'a str), usize>,
    gates: std::collections::HashMap<(&'a str, &'a str, &'a str), Vec<usize>>,
}

impl<'a> OnIndex<'a> {
    pub fn new(comparisons: &'a [Comparison], gates: &'a [GateResult]) -> OnIndex<'a> {
        let mut comparison = std::collections::HashMap::with_capacity(comparisons.len());
        for (i, c) in comparisons.iter().enumerate() {
            let key = (c.metric.as_str(), c.statistic.as_str(), c.slice.as_str());
            comparison.entry(key).or_insert(i);
        }
        let mut by: std::collections::HashMap<_, Vec<usize>> = std::collections::HashMap::new();
        for (i, g) in gates.iter().enumerate() {
            by.entry(g.key()).or_default().push(i);
        }
        OnIndex {
            comparison,
            gates: by,
        }
    }

    /// The index of the comparison gate result `g` was judged on.
    pub fn comparison_of(&self, g: &'a GateResult) -> Option<usize> {
        self.comparison.get(&g.key()).copied()
    }

    /// The indices of the gate results judged on `c`, in their order.
    pub fn gates_on(&self, c: &'a Comparison) -> &[usize] {
        let key = (c.metric.as_str(), c.statistic.as_str(), c.slice.as_str());
        self.gates.get(&key).map_or(&[], Vec::as_slice)
    }
}

/// Whether and how the two sides' protocol fingerprints were checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[schemars(rename = "protocol_status")]
pub enum ProtocolStatus {
    /// `check` evaluated both runs: one protocol by construction.
    Shared,
    /// Both inputs carry fingerprints, and they agree.
    Checked,
    /// At least one input has no fingerprint.
    Unchecked,
}

impl ProtocolStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolStatus::Shared => "shared",
            ProtocolStatus::Checked => "checked",
            ProtocolStatus::Unchecked => "unchecked",
        }
    }
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "protocol_field")]
pub struct ProtocolField {
    pub field: String,
    pub value: String,
}

/// The protocol section of the report: how both sides were measured (`crate::protocol`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "protocol")]
pub struct ProtocolReport {
    pub status: ProtocolStatus,
    /// SHA-256 of the shared comparable protocol (compared metrics only); none when unchecked.
    pub hash: Option<String>,
    pub fields: Vec<ProtocolField>,
    pub baseline_context: std::collections::BTreeMap<String, String>,
    pub candidate_context: std::collections::BTreeMap<String, String>,
    /// `key: baseline → candidate` for each run-context field that differs.
    pub context_changes: Vec<String>,
    pub note: Option<String>,
}

/// One side's run card (`[efficiency]`, `load::run_card`): how the run was made and what it
/// measured at the run level, beside the per-query metrics.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "run_card")]
pub struct RunCard {
    /// The file as messages name it.
    pub source: String,
    /// The model's fields (`id`, `revision`, `dimension`, `dtype`, … and any other), each value
    /// as written (a string as is, anything else as compact JSON).
    pub model: std::collections::BTreeMap<String, String>,
    /// The measurement conditions (query batch, index batch, hardware, threads, any key).
    pub conditions: std::collections::BTreeMap<String, String>,
    /// Run-level metric → its measurements (one, or several replicates).
    pub metrics: std::collections::BTreeMap<String, Vec<f64>>,
    /// `curves.qps_at_recall`: the sweep's points, each `{recall metric: value, "qps": value}`.
    pub qps_at_recall: Vec<std::collections::BTreeMap<String, f64>>,
}

/// The Efficiency section: both run cards side by side, each run-level metric, the run-level
/// gates (`[efficiency]`, `compare --baseline-card/--candidate-card`; docs/efficiency.md).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "efficiency")]
pub struct EfficiencyReport {
    /// The run cards as written (gate file or command line).
    pub baseline_card: String,
    pub candidate_card: String,
    /// The model fields of either card, in name order; `changed` marks a difference.
    pub model: Vec<CardField>,
    /// The conditions of either card, in name order; `changed` marks a difference.
    pub conditions: Vec<CardField>,
    /// Every run-level metric of either card, in name order.
    pub metrics: Vec<RunMetric>,
    /// One per run-level gate rule, in gate-file order.
    pub gates: Vec<RunGateResult>,
    /// Run-level gates with too few measurements for their margin (`verdict::run_rules`), added
    /// to the report's warnings with the verdict.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// One model field or condition of either run card; null where a card does not have it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "card_field")]
pub struct CardField {
    pub key: String,
    /// None: this card does not have the key.
    pub baseline: Option<String>,
    pub candidate: Option<String>,
    pub changed: bool,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "run_metric")]
pub struct RunMetric {
    pub metric: String,
    /// The mean of each side's measurements (None: not in that card).
    pub baseline: Option<f64>,
    pub candidate: Option<f64>,
    /// Measurements behind each mean.
    pub baseline_n: usize,
    pub candidate_n: usize,
    /// candidate − baseline, and candidate / baseline − 1 (None without both, or a zero baseline).
    pub change: Option<f64>,
    pub relative_change: Option<f64>,
    /// Known from the name (latency, bytes, cost: false; qps, docs/s: true) or from a gate.
    pub higher_is_better: Option<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[schemars(rename = "run_gate_status")]
pub enum RunGateStatus {
    Pass,
    Fail,
    /// Not judged (a QPS target outside a side's curve, a relative rule on a zero baseline):
    /// never a pass, and it fails the build.
    NotJudged,
}

impl RunGateStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RunGateStatus::Pass => "pass",
            RunGateStatus::Fail => "fail",
            RunGateStatus::NotJudged => "not judged",
        }
    }
}

/// One rule of one run-level gate, judged on the two run cards.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "run_gate_result")]
pub struct RunGateResult {
    /// 1-based position of the `[[gate]]` table in the gate file.
    #[schemars(range(min = 1))]
    pub gate: usize,
    pub metric: String,
    /// `at = { "ann-recall@10" = 0.95 }`: the curve metric and the target the QPS is read at.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "CurveTarget")]
    pub at: Option<CurveTarget>,
    /// "max-increase", "max-decrease", "min" or "max".
    #[schemars(extend("enum" = ["max-increase", "max-decrease", "min", "max"]))]
    pub rule: String,
    /// The rule's value: a fraction of the baseline when `relative`, else in the metric's unit.
    #[schemars(with = "Real")]
    pub threshold: f64,
    /// `threshold` is a fraction of the baseline (0.10 = 10%).
    pub relative: bool,
    pub higher_is_better: bool,
    /// Each side's value: the mean of its measurements, or the QPS read off its curve.
    pub baseline_value: Option<f64>,
    pub candidate_value: Option<f64>,
    /// Measurements behind each side's value (1 for a curve reading).
    pub measurements: [usize; 2],
    /// The change the rule reads: candidate / baseline − 1 when `relative`, else
    /// candidate − baseline; for `min` / `max` the candidate's value.
    pub value: Option<f64>,
    /// With ≥ 3 measurements a side: the interval of `value` at the report's confidence (a
    /// t interval of the ratio of means, on its log (Hsu's df), for a relative rule; of the difference
    /// otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "[Real; 2]")]
    pub interval: Option<[f64; 2]>,
    /// Welch–Satterthwaite degrees of freedom of `interval`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Real")]
    pub df: Option<f64>,
    /// How it was decided, in words ("t interval on log-ratios, 5 and 5 measurements", "plain
    /// comparison, one measurement a side", "log-linear interpolation on the curves").
    pub decided_by: String,
    /// not-judged: never a pass; it fails the build.
    pub status: RunGateStatus,
    pub passed: bool,
    pub fails_build: bool,
    /// Plain words: what was compared with what, or why it was not judged.
    pub detail: String,
    /// Conditions that differ between the cards and that the gate allows (`allow-condition-change`).
    pub allowed_changes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "curve_target")]
pub struct CurveTarget {
    pub metric: String,
    pub target: f64,
}
