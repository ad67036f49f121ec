//! Gate file → validated configuration. Parsing (`raw`) rejects unknown keys and wrong types with
//! line and column; `validate` checks meaning (ranges, a rule per gate) and names the key.
//! Paths in the gate file are relative to the gate file's folder.

pub mod anchor;
mod baseline;
mod dump;
mod gate;
pub mod keyed;
pub mod probe;
mod raw;
pub mod run_gate;
pub mod span;
mod validate;

use std::ops::Range;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use anchor::AnchorSettings;
pub use baseline::{is_commit, BaselineSettings, OnMissing};
pub use dump::dump;
pub use probe::ProbeSettings;
pub use run_gate::{Efficiency, RunGate, RunRule, RunRuleKind};
pub use span::SourceText;

use crate::error::{Error, Result};
use crate::load::Format;
pub use crate::stats::statistic::Statistic;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unit {
    Query,
    Group,
}

impl Unit {
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Query => "query",
            Unit::Group => "group",
        }
    }
}

/// `[bootstrap] weights`: where a unit's resampling weights come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Weights {
    /// The default: drawn indices below 10,000 units, Poisson weights by position from there.
    #[default]
    Positional,
    /// Each unit's weights from the seed and the unit's id (`stats::keyed`), summed exactly:
    /// any split of the data gives the same figures (`rag-gate partial` / `merge`).
    Keyed,
}

impl Weights {
    pub fn as_str(self) -> &'static str {
        match self {
            Weights::Positional => "positional",
            Weights::Keyed => "keyed",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// The default: studentised with a cluster-robust SE per resample (calibration/results.txt).
    BootstrapT,
    Percentile,
    Bca,
    ExpandedPercentile,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::BootstrapT => "bootstrap-t",
            Method::Percentile => "percentile",
            Method::Bca => "bca",
            Method::ExpandedPercentile => "expanded-percentile",
        }
    }

    pub fn interval(self) -> crate::stats::interval::IntervalMethod {
        use crate::stats::interval::IntervalMethod as M;
        match self {
            Method::BootstrapT => M::BootstrapT,
            Method::Percentile => M::Percentile,
            Method::Bca => M::Bca,
            Method::ExpandedPercentile => M::ExpandedPercentile,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Missing {
    Error,
    Intersect,
}

/// `[slices] on-small-slice`: what a statistical rule on fewer than `min-queries` queries
/// does. `judge` (the default): judged on its interval like any other (the guarantee's interval
/// family holds at every size from two queries; the size is the setup's, stated as a warning
/// with its resolution and the size `plan` asks for, never a per-PR failure). `warn` / `fail`:
/// not judged, never a pass; on a slice a warning or a failure, on `all` a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnSmallSlice {
    Judge,
    Warn,
    Fail,
}

/// `[verdict] guarantee`: what a passing `max-drop` / `max-change` proves. `regular` (the
/// default): the calibrated interval on every sample, with the resolution the report states
/// (a change touching fewer than 1 − (α/2)^(1/n) of the units can hide). `distribution-free`:
/// each bound is also at least as far out as the finite-sample bound for bounded means
/// (`stats::dirichlet_bound`), which assumes nothing but the worst loss one unit can take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Guarantee {
    #[default]
    Regular,
    DistributionFree,
}

impl Guarantee {
    pub fn as_str(self) -> &'static str {
        match self {
            Guarantee::Regular => "regular",
            Guarantee::DistributionFree => "distribution-free",
        }
    }
}

/// `[verdict] on-inconclusive`: the exit code of an inconclusive verdict (0 for `pass`, the
/// default; 1 for `fail`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnInconclusive {
    #[default]
    Pass,
    Fail,
}

impl OnInconclusive {
    pub fn as_str(self) -> &'static str {
        match self {
            OnInconclusive::Pass => "pass",
            OnInconclusive::Fail => "fail",
        }
    }
}

/// `[verdict]`: the guarantee, whether the stated blind spot is accepted, and what an
/// inconclusive verdict exits with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct VerdictSettings {
    pub guarantee: Guarantee,
    /// The gate file acknowledges that a change touching fewer units than the resolution can
    /// hide at a cost above a margin: `check` stops warning about it.
    pub accept_blind_spot: bool,
    pub on_inconclusive: OnInconclusive,
    /// `compare`: the guarantee's bound on every compared mean, since compare labels each one
    /// (`check` bounds the means its gates read).
    pub bound_every_mean: bool,
}

/// What a gate whose decision unjudged documents could flip does: warn (default: the gate
/// decides on the declared protocol, unjudged = non-relevant) or fail (pools meant to be complete).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnUnreliable {
    Fail,
    Warn,
}

/// `[protocol]`: `require = true` makes an input without a fingerprint an error.
#[derive(Debug, Clone, Default)]
pub struct ProtocolSettings {
    pub require: bool,
}

/// `[judged]`: judged coverage of runs evaluated by `check`.
#[derive(Debug, Clone)]
pub struct JudgedSettings {
    pub on_unreliable: OnUnreliable,
    /// A gated slice whose mean judged@k is below this is not judged (too few judgments).
    pub min_judged: Option<f64>,
    /// Where `min-judged` was written (for errors about it).
    pub min_judged_span: Option<std::ops::Range<usize>>,
    /// Also report the gated deltas on condensed lists (unjudged docs removed, trec_eval -J).
    pub condensed: bool,
}

impl Default for JudgedSettings {
    fn default() -> Self {
        JudgedSettings {
            on_unreliable: OnUnreliable::Warn,
            min_judged: None,
            min_judged_span: None,
            condensed: false,
        }
    }
}

/// `[judge]`: a judge's qrels with its sidecar, what the rules read, and when it is trusted.
#[derive(Debug, Clone)]
pub struct JudgeSettings {
    /// The judge's qrels (same formats as `[inputs] qrels`).
    pub qrels: InputSpec,
    /// The sidecar naming the judge (default: the qrels path + `.judge.json`).
    pub sidecar: InputSpec,
    /// The rules read the corrected interval (true, default) or the human-only one (false).
    pub gate_on_corrected: bool,
    /// Fewer human-labelled units (queries, or groups with the group unit) than this on a
    /// gated comparison: the corrected delta is not judged.
    pub min_labelled: usize,
    /// The judge's binary Cohen's κ against the humans (relevant or not at the relevance level)
    /// below this: the corrected delta is not judged. None (the default): no floor, the
    /// corrected interval decides.
    pub min_kappa: Option<f64>,
    /// The sample the human-labelled units were drawn by (`label-plan -o`'s JSON lines with each
    /// unit's inclusion probability): the corrected estimate weights each labelled unit by
    /// 1/probability (`stats::active_ppi`). None: the labelled units are a uniform random sample.
    pub sample: Option<InputSpec>,
    /// The key of the planted pairs (`label-plan --plant-key`): those pairs are read from the
    /// judge's qrels for the probes' report and withheld from every metric and agreement.
    pub plant_key: Option<InputSpec>,
    /// Where `[judge]` was written.
    pub span: Option<Range<usize>>,
}

pub const DEFAULT_JUDGE_MIN_LABELLED: usize = 10;

/// Where one side's per-query metrics come from.
#[derive(Debug, Clone)]
pub enum InputKind {
    /// A per-query metric file.
    Metrics {
        format: Option<Format>,
        id_column: String,
        /// The long form's column mapping (`id`, `group`, `slices`, `metrics`).
        columns: crate::load::ColumnMap,
    },
    /// A run (ranked documents) to evaluate against `[inputs] qrels`.
    Run,
}

#[derive(Debug, Clone)]
pub struct InputSpec {
    /// Resolved against the gate file's folder.
    pub path: PathBuf,
    /// As written in the gate file (goes in the report, so it does not depend on the cwd).
    pub written: String,
    pub kind: InputKind,
    pub span: Option<Range<usize>>,
}

impl InputSpec {
    /// The path as shown in error messages: the resolved path, lexically normalised.
    pub fn shown(&self) -> String {
        self.path.display().to_string()
    }
}

#[derive(Debug, Clone)]
pub struct Inputs {
    pub baseline: InputSpec,
    pub candidate: InputSpec,
    /// Further replicate runs of each side's commit (`baseline = ["a-1.jsonl", "a-2.jsonl"]`);
    /// the first replicate is `baseline` / `candidate`. Empty: one run per side.
    pub baseline_more: Vec<InputSpec>,
    pub candidate_more: Vec<InputSpec>,
    pub queries: Option<InputSpec>,
    pub qrels: Option<InputSpec>,
    pub missing: Missing,
    /// `group-from-id`: a regex with one capture giving a query's group from its id, for
    /// baseline rows without a group (multi-turn ids such as `conv7<::>turn2`).
    pub group_from_id: Option<regex::Regex>,
}

#[derive(Debug, Clone)]
pub struct Bootstrap {
    pub resamples: u64,
    pub seed: u64,
    pub confidence: f64,
    pub unit: Unit,
    /// Where the gate file sets `unit`, for errors about it.
    pub unit_span: Option<Range<usize>>,
    pub method: Method,
    /// `weights`: positional (default) or keyed by the unit's id.
    pub weights: Weights,
    /// Where the gate file sets `weights`, for errors about it.
    pub weights_span: Option<Range<usize>>,
    /// A re-run after attempts of the same candidate that did not pass (`check --comment`): how
    /// many did. Its `max-drop` / `max-change` rules are judged at the spent level
    /// (`stats::spending`); 0, never set by a gate file: the configured `confidence`.
    pub failed_attempts: u32,
}

/// The slices a gate applies to.
#[derive(Debug, Clone, PartialEq)]
pub enum GateSlices {
    /// Only the whole set.
    All,
    /// The whole set and every critical slice.
    Critical,
    /// Exactly these slice names (`all` or `tag=value`).
    List(Vec<String>),
}

/// `--confidence`, `--resamples` and `--tie-epsilon` of the commands that take them on the
/// command line (`compare`, `aa`): the same ranges the gate file allows.
pub fn check_sampling_flags(confidence: f64, resamples: u64, tie_epsilon: f64) -> Result<()> {
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(Error::Usage(format!(
            "--confidence {confidence}: expected a number strictly between 0 and 1"
        )));
    }
    if resamples == 0 || resamples > MAX_RESAMPLES {
        return Err(Error::Usage(format!(
            "--resamples {resamples}: expected 1 to {MAX_RESAMPLES}"
        )));
    }
    if !(tie_epsilon.is_finite() && tie_epsilon >= 0.0) {
        return Err(Error::Usage(
            "--tie-epsilon: expected a finite number ≥ 0".into(),
        ));
    }
    Ok(())
}

/// The worst loss one unit can take on `metric`: the largest `max-unit-loss` of its gates, else
/// 1 for a metric bounded to [0, 1]; None when unknown (never the observed range).
pub fn worst_unit_loss(gates: &[Gate], metric: &str) -> Option<f64> {
    let declared = gates
        .iter()
        .filter(|g| g.metric == metric)
        .filter_map(|g| g.max_unit_loss)
        .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
    declared.or_else(|| {
        crate::metric_names::is_bounded(&crate::metric_names::canonical(metric)).then_some(1.0)
    })
}

impl Gate {
    /// Whether this gate applies to the slice named `slice`, `critical` being the critical slices.
    /// `critical` is a set: with 100,000 critical slices a scan per slice was quadratic.
    pub fn applies_to(&self, slice: &str, critical: &std::collections::BTreeSet<String>) -> bool {
        match &self.slices {
            GateSlices::All => slice == "all",
            GateSlices::Critical => slice == "all" || critical.contains(slice),
            GateSlices::List(l) => l.iter().any(|c| c == slice),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Slices {
    /// Tag names, each with its place in the gate file (None when given on the command line).
    pub by: Vec<(String, Option<Range<usize>>)>,
    pub critical: Vec<(String, Option<Range<usize>>)>,
    pub min_queries: usize,
    /// Group unit: the fewest groups, counted as the effective number (Σ n_g)² / Σ n_g².
    pub min_groups: usize,
    /// The fewest moved units (queries, or groups holding a moved query) a passing `max-drop` or
    /// `max-change` needs, unless none moved (a no-op).
    pub min_moved: usize,
    pub on_small_slice: OnSmallSlice,
}

impl Slices {
    /// The slices of a command without a gate file (`compare`, `aa`): every value of `tags`
    /// reported, nothing critical, no size floor (there are no gates to judge).
    pub fn reported_by(tags: &[String]) -> Slices {
        Slices {
            by: tags.iter().map(|t| (t.clone(), None)).collect(),
            critical: Vec::new(),
            min_queries: 1,
            min_groups: 1,
            min_moved: 1,
            on_small_slice: OnSmallSlice::Warn,
        }
    }

    /// Group unit, bootstrap-t: below this many effective groups a mean's interval is the
    /// small-sample cluster interval: `min-groups` under `on-small-slice = "judge"`, where such
    /// a mean is judged; 0 (never) otherwise.
    pub fn few_groups_below(&self) -> f64 {
        match self.on_small_slice {
            OnSmallSlice::Judge => self.min_groups as f64,
            _ => 0.0,
        }
    }
}

#[derive(Debug, Clone)]
pub struct ReportSettings {
    pub worst: usize,
    pub tie_epsilon: f64,
    /// |delta| at or below this is a practical tie (reported next to the float ties), and the
    /// margin of the better / worse / no-change label of comparisons no gate gives a margin.
    pub practical_tie: f64,
    /// Metrics to compare; None = every metric both inputs have.
    pub metrics: Option<Vec<(String, Option<Range<usize>>)>>,
    /// Ungated metrics where lower is better (`compare --lower-is-better`).
    pub lower_is_better: Vec<String>,
    /// The text report shows every section in full, the protocol table too (`--details`).
    pub details: bool,
}

#[derive(Debug, Clone)]
pub struct Gate {
    /// 1-based position in the file.
    pub index: usize,
    pub metric: String,
    pub metric_span: Option<Range<usize>>,
    pub min_mean: Option<f64>,
    pub max_mean: Option<f64>,
    pub max_drop: Option<f64>,
    /// Equivalence: pass only if the CI of the delta lies inside (−m, +m).
    pub max_change: Option<f64>,
    /// Proven harm: fail only if the CI upper bound of the delta is below −m (and the Holm-adjusted
    /// p-value is below 1 − confidence).
    pub fail_if_significant_drop: Option<f64>,
    pub max_loss_rate: Option<f64>,
    /// Drift budget: the candidate against `[anchor]`, judged like `max-drop` (the CI's worse
    /// bound must stay within the budget), with the inherited-drift rule (`verdict::drift`).
    pub max_drift: Option<f64>,
    /// The worst loss one unit (a query, or a group's mean) can take on this metric: what a
    /// distribution-free bound puts at its unseen point, and the worst cost the resolution
    /// names. None: 1 for a metric bounded to [0, 1], unknown otherwise.
    pub max_unit_loss: Option<f64>,
    /// What is compared: the mean (default), the median or the 95th percentile.
    pub statistic: Statistic,
    /// False for metrics where lower is better (latency): a "drop" is then a rise.
    pub higher_is_better: bool,
    pub slices: GateSlices,
    pub slices_span: Option<Range<usize>>,
}

/// Rules about what may be gated at all.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// The LLM context budget: no gated retrieval metric may look deeper than this many
    /// documents (`recall@30` is refused under `max-k = 5`, and so is an uncut `ndcg`).
    pub max_k: Option<usize>,
}

#[derive(Debug, Clone)]
pub struct Config {
    pub id: String,
    pub inputs: Inputs,
    pub bootstrap: Bootstrap,
    pub slices: Slices,
    pub report: ReportSettings,
    /// The raw `[eval]` table, read by the eval module when an input is a run.
    pub eval: Option<(toml::Table, Option<Range<usize>>)>,
    pub protocol: ProtocolSettings,
    pub judged: JudgedSettings,
    /// `[judge]`: a model's relevance labels corrected by the human ones (None without it).
    pub judge: Option<JudgeSettings>,
    pub gates: Vec<Gate>,
    pub noise: NoiseSettings,
    pub policy: Policy,
    /// `[baseline]`: its age and distance limits, what a missing one does, its commit.
    pub baseline: BaselineSettings,
    /// `[efficiency]`: the run cards and the run-level gates.
    pub efficiency: Efficiency,
    /// `[anchor]`: the approved state `max-drift` is measured against, and main's ledger.
    pub anchor: Option<AnchorSettings>,
    /// `[probe]`: both sides' runs on unlabelled queries (None without it).
    pub probe: Option<ProbeSettings>,
    /// `[verdict]`: the guarantee and what an undecided check does.
    pub verdict: VerdictSettings,
    /// Things in the gate file that have no effect for these inputs (e.g. `[eval]` with metric
    /// files), for the report's warnings.
    pub warnings: Vec<String>,
    pub source: SourceText,
}

/// `[noise]`: what `rag-gate aa` measured, and the flaky queries kept out of the gates.
#[derive(Debug, Clone, Default)]
pub struct NoiseSettings {
    /// `file`: a noise file from `rag-gate aa --output`.
    pub file: Option<InputSpec>,
    /// `quarantine`: the quarantine list (`noise::quarantine`).
    pub quarantine: Option<InputSpec>,
    /// Today, for quarantine expiry: set by the command (`--today`, `RAG_GATE_TODAY`, the clock).
    pub today: Option<crate::model::Date>,
}

pub const DEFAULT_RESAMPLES: u64 = 10_000;
pub const DEFAULT_SEED: u64 = 17;
pub const DEFAULT_CONFIDENCE: f64 = 0.95;
pub const DEFAULT_MIN_QUERIES: usize = 30;
/// Group unit: comparisons with fewer (effective) groups are not judged; chosen from the
/// calibration (calibration/results.txt: the default interval holds 95% from 8 equal groups).
pub const DEFAULT_MIN_GROUPS: usize = 8;
/// A passing `max-drop` / `max-change` on a comparison where at least one but fewer than this
/// many units moved (delta beyond tie-epsilon) is not judged: below 8 moved queries a drop
/// carried by the few that moved passes `max-drop` at the margin in 5–36% of sets
/// (calibration/results.txt); where none moved, `verdict::no_op` decides.
pub const DEFAULT_MIN_MOVED: usize = 8;
pub const DEFAULT_METHOD: Method = Method::BootstrapT;
pub const DEFAULT_WORST: usize = 5;
pub const DEFAULT_TIE_EPSILON: f64 = 1e-9;
pub const DEFAULT_PRACTICAL_TIE: f64 = 0.01;
pub const MAX_RESAMPLES: u64 = 10_000_000;

/// Reads and validates a gate file.
pub fn load(path: &Path) -> Result<Config> {
    let shown = path.display().to_string();
    let text = crate::load::source::read_text(path, &shown, "a TOML gate file")?;
    let src = SourceText { shown, text };
    if let Ok(raw::GateProbe { gate: Some(g) }) = toml::from_str::<raw::GateProbe>(&src.text) {
        if g.get_ref().is_table() {
            return Err(src.error(
                Some(g.span()),
                "`[gate]` is a single table; write `[[gate]]` (two brackets), one per gate",
            ));
        }
    }
    let raw: raw::RawConfig =
        toml::from_str(&src.text).map_err(|e| src.error(e.span(), e.message()))?;
    let base = path.parent().unwrap_or(Path::new(""));
    let stem = path
        .file_stem()
        .map_or("gate".into(), |s| s.to_string_lossy().into_owned());
    validate::validate(raw, src, base, &stem)
}

/// The key of the gate's sticky PR comment: the gate id when the gate file sets one (two gate
/// files that set one id share one comment, on purpose), else the id made from the file stem
/// plus 8 hex digits of the SHA-256 of the gate file's path as given (lexically cleaned), so two
/// gate files with the same stem (`svc-a/gates/prod.toml`, `svc-b/gates/prod.toml`, or stems
/// that differ only in non-ASCII letters) never share, and overwrite, one comment.
pub fn comment_key(cfg: &Config, gate_file: &Path) -> String {
    let stem = gate_file
        .file_stem()
        .map_or("gate".into(), |s| s.to_string_lossy().into_owned());
    if cfg.id != validate::default_id(&stem) {
        return cfg.id.clone();
    }
    default_comment_key(gate_file)
}

/// [`comment_key`] of a gate file without `id` (also what a run that could not read its gate
/// file uses to find its comment).
pub fn default_comment_key(gate_file: &Path) -> String {
    let stem = gate_file
        .file_stem()
        .map_or("gate".into(), |s| s.to_string_lossy().into_owned());
    let path = key_path(gate_file);
    let hash = crate::protocol::sha256_hex(path.to_string_lossy().as_bytes());
    format!("{}.{}", validate::default_id(&stem), &hash[..8])
}

/// The gate file's path as the sticky key hashes it, the same however it was named on the
/// command line (relative, absolute, through `..` or a symlink, from any folder): its real path
/// relative to the repository root — the CI checkout (`GITHUB_WORKSPACE`, `CI_PROJECT_DIR`)
/// when the file lies in it, else the nearest folder above it holding `.git` — else to the
/// current folder when it lies below it, else absolute. A file that cannot be resolved keeps
/// its path as given, cleaned lexically.
fn key_path(gate_file: &Path) -> PathBuf {
    let Ok(real) = std::fs::canonicalize(gate_file) else {
        return resolve(Path::new(""), &gate_file.to_string_lossy());
    };
    let checkout = || {
        crate::checkout::roots()
            .into_iter()
            .filter_map(|d| std::fs::canonicalize(d).ok())
            .find(|d| real.starts_with(d))
    };
    let repo = || {
        real.ancestors()
            .skip(1)
            .find(|d| d.join(".git").exists())
            .map(Path::to_path_buf)
    };
    let cwd = || {
        std::env::current_dir()
            .ok()
            .and_then(|d| std::fs::canonicalize(d).ok())
            .filter(|d| real.starts_with(d))
    };
    match checkout().or_else(repo).or_else(cwd) {
        Some(root) => real
            .strip_prefix(&root)
            .map_or(real.clone(), Path::to_path_buf),
        None => real,
    }
}

/// `base/rel`, with `.` and `x/..` removed lexically (no file-system access).
pub fn resolve(base: &Path, rel: &str) -> PathBuf {
    let joined = base.join(rel);
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

impl Config {
    /// An error at a place in the gate file.
    pub fn error_at(&self, span: &Option<Range<usize>>, msg: impl AsRef<str>) -> Error {
        self.source.error(span.clone(), msg)
    }
}

#[cfg(test)]
mod tests;
