//! Command-line definitions (clap derive): `check`, `compare`, `init`, `eval`, `aa`, …

// The doc comments are the --help text, which names gate-file sections in brackets
// (`[judge]`): plain text there, not links.
#![allow(rustdoc::broken_intra_doc_links)]

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

mod publish_flags;
mod values;

pub use publish_flags::PublishFlags;

use crate::config::{Method, Missing, Unit};
use crate::report::Format;

pub const EXIT_CODES_HELP: &str = "\
Exit codes:
  0  every gate passed (compare, eval: finished)
  1  a gate failed
  2  usage, gate-file or input error (a message on stderr names the file, line and key)";

/// `plan` judges nothing: it says sizes.
pub const PLAN_EXIT_CODES_HELP: &str = "\
Exit codes:
  0  the plan was made (whether or not today's sizes are enough)
  2  usage, gate-file or input error (a message on stderr names the file, line and key)";

/// `aa` has no gates: exit 1 means its identical arms differ.
pub const AA_EXIT_CODES_HELP: &str = "\
Exit codes:
  0  the identical arms do not differ significantly
  1  they do (Holm over metric × slice): the instrument is broken
  2  usage or input error (a message on stderr names the file, line and key)";

#[derive(Debug, Parser)]
#[command(name = "rag-gate", version, about, after_help = EXIT_CODES_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub terminal: TerminalArgs,
}

/// What reaches the terminal besides the report (every command takes these).
#[derive(Debug, Clone, Args)]
pub struct TerminalArgs {
    /// No status lines ("report written to …") and no progress; warnings and errors still
    /// show.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Also say what each step did (the inputs read, the bootstrap's size, each HTTP retry).
    #[arg(short, long, global = true)]
    pub verbose: bool,
    /// Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE
    /// forces it), always or never. Reports are never coloured.
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "WHEN",
        default_value = "auto"
    )]
    pub color: ColorWhen,
}

/// `--color WHEN`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Judge a candidate against a baseline with the gates of a TOML gate file.
    #[command(after_help = EXIT_CODES_HELP)]
    Check(CheckArgs),
    /// The same analysis without a gate file: deltas, intervals, win/tie/loss (exit 0).
    #[command(after_help = EXIT_CODES_HELP)]
    Compare(CompareArgs),
    /// Write a commented gate file from two per-query metric files: the metrics, the unit,
    /// the slices with their sizes, margins measured on the files (never overwrites a file).
    #[command(after_help = EXIT_CODES_HELP)]
    Init(InitArgs),
    /// How many queries (or groups) each gated metric × slice needs for its rule at a power,
    /// from the gate file's own inputs: the units, an interval on them, today's detectable drop.
    #[command(after_help = PLAN_EXIT_CODES_HELP)]
    Plan(PlanArgs),
    /// With [judge]: how many human-labelled queries (groups) each corrected gate needs at its
    /// margin and power, and the next batch to label (a seeded random sample, as JSON lines).
    #[command(after_help = PLAN_EXIT_CODES_HELP)]
    LabelPlan(LabelPlanArgs),
    /// One shard's summary for `merge`: the gate file (with `[bootstrap] weights = "keyed"`)
    /// read on a shard of both sides' per-query results; each shard must hold whole groups.
    #[command(after_help = EXIT_CODES_HELP)]
    Partial(PartialArgs),
    /// The report of the shards' summaries added together: byte for byte the report `check`
    /// gives with the same gate file on the whole data (exit 0 pass, 1 a gate failed).
    #[command(after_help = EXIT_CODES_HELP)]
    Merge(MergeArgs),
    /// Compute per-query metrics from a run and qrels (trec_eval-exact).
    #[command(after_help = EXIT_CODES_HELP)]
    Eval(EvalArgs),
    /// A/A: several runs of one commit → run-to-run noise, flaky queries, noise floor (exit 1
    /// when the identical arms differ significantly: the instrument is broken).
    #[command(after_help = AA_EXIT_CODES_HELP)]
    Aa(AaArgs),
    /// The baseline: `baseline fetch` downloads main's per-query results for the pull
    /// request's merge-base from GitHub Actions, with a provenance file `check` reports.
    #[command(subcommand)]
    Baseline(BaselineCommand),
    /// main's ledger: `ledger record` appends this main run (its delta against its parent and
    /// against the anchor) to the ledger carried forward from the parent's stored results.
    #[command(subcommand)]
    Ledger(LedgerCommand),
    /// The approved anchor: `anchor write` makes a new anchor file from main's stored results
    /// (reviewed re-anchoring: the new file is committed like any change).
    #[command(subcommand)]
    Anchor(AnchorCommand),
    /// Print the completion script for SHELL (bash, zsh, fish, powershell, elvish).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) of rag-gate, or of COMMAND (`check`, `baseline fetch`, ...).
    Man {
        /// List the pages instead: each page's name, then its command's words.
        #[arg(long)]
        list: bool,
        command: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum LedgerCommand {
    /// Write RESULTS.ledger.json: the parent's ledger (beside --parent, checked) carried forward
    /// plus this run, per max-drift gate and slice (exit 2 on bad input).
    Record(LedgerRecordArgs),
}

#[derive(Debug, Clone, Args)]
pub struct LedgerRecordArgs {
    /// The gate file (its [anchor] and max-drift gates say what is recorded).
    pub gate_file: PathBuf,
    /// This main run's per-query results (with its .protocol.json).
    #[arg(long, value_name = "FILE")]
    pub results: PathBuf,
    /// The parent commit's stored results (from `baseline fetch`), with its ledger beside it.
    #[arg(long, value_name = "FILE")]
    pub parent: Option<PathBuf>,
    /// This run's commit (default: GITHUB_SHA, on GitLab CI_COMMIT_SHA).
    #[arg(long, value_name = "SHA")]
    pub commit: Option<String>,
    /// The pull request this commit merged (default: the forge's record of the commit, else its
    /// message).
    #[arg(long, value_name = "N")]
    pub pr: Option<u64>,
}

#[derive(Debug, Subcommand)]
pub enum AnchorCommand {
    /// Copy main's stored results (FILE, its .protocol.json) to a new anchor with a record
    /// (ANCHOR.anchor.json: hash, commit, the ledger's final state); never replaces silently.
    Write(AnchorWriteArgs),
}

#[derive(Debug, Clone, Args)]
pub struct AnchorWriteArgs {
    /// main's stored results (e.g. from `baseline fetch`), with .protocol.json beside them.
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,
    /// The new anchor file (e.g. anchors/v1.5.jsonl).
    #[arg(long, value_name = "FILE")]
    pub to: PathBuf,
    /// The anchor's name in reports (default: the file stem).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Replace an existing anchor file (otherwise an existing one is an error).
    #[arg(long)]
    pub replace: bool,
}

#[derive(Debug, Subcommand)]
pub enum BaselineCommand {
    /// Download the artifact of the newest successful run of WORKFLOW on BRANCH for the
    /// merge-base (else the nearest older ancestor, up to 50 commits back) into DIR, unpacked
    /// safely, with `rag-gate-baseline.json` (commit, run, date, commits behind) beside it.
    #[command(after_help = FETCH_HELP)]
    Fetch(FetchArgs),
}

pub const FETCH_HELP: &str = "\
Needs GITHUB_REPOSITORY and a token with `actions: read` and `contents: read` (GITHUB_TOKEN in
Actions); GITHUB_API_URL for GitHub Enterprise. Without --base-sha the merge-base comes from the
event (GITHUB_EVENT_PATH): a pull_request's base...head, or a workflow_run's BRANCH...head_sha.

Exit codes:
  0  the baseline is in DIR (or none was found and --missing-ok was given)
  2  no baseline (no run within reach, no such artifact, expired), no permission, rate limit,
     network or a refused zip: the message says what to do; nothing is written outside DIR";

#[derive(Debug, Clone, Args)]
pub struct FetchArgs {
    /// Name of the artifact the base branch's workflow uploads (its `name:`).
    #[arg(long, value_name = "NAME")]
    pub artifact: String,
    /// The workflow that uploads it: its file name under .github/workflows (e.g. eval.yml).
    #[arg(long, value_name = "FILE")]
    pub workflow: String,
    /// The base branch whose runs count.
    #[arg(long, value_name = "BRANCH", default_value = "main")]
    pub branch: String,
    /// The merge-base commit (default: from the event at GITHUB_EVENT_PATH).
    #[arg(long, value_name = "SHA")]
    pub base_sha: Option<String>,
    /// Folder to unpack into (created when missing).
    #[arg(long, value_name = "DIR", default_value = "baseline")]
    pub to: PathBuf,
    /// When there is no baseline to fetch (no run, no artifact, expired), write the reason to
    /// DIR/rag-gate-baseline.json, warn and exit 0, leaving it to `check`'s
    /// `[baseline] on-missing`. Permission, network and zip problems still exit 2.
    #[arg(long)]
    pub missing_ok: bool,
    /// Environment variable that holds the GitHub token.
    #[arg(long, value_name = "NAME", default_value = "GITHUB_TOKEN")]
    pub token_env: String,
}

#[derive(Debug, Clone, Args)]
pub struct AaArgs {
    /// Per-query metric files of replicate runs of one commit (two or more); the first half is
    /// arm A of the A/A test, the rest arm B.
    #[arg(required = true, num_args = 2.., value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Queries file (JSONL with query_id, group, slices).
    #[arg(long)]
    pub queries: Option<PathBuf>,
    /// Metric to measure (repeat); default: every metric the files share.
    #[arg(long = "metric", value_name = "METRIC")]
    pub metrics: Vec<String>,
    /// Report every value of this slice tag (repeat).
    #[arg(long = "by", value_name = "TAG")]
    pub by: Vec<String>,
    #[arg(long, default_value_t = crate::config::DEFAULT_SEED)]
    pub seed: u64,
    #[arg(long, default_value_t = crate::config::DEFAULT_RESAMPLES)]
    pub resamples: u64,
    #[arg(long, default_value_t = crate::config::DEFAULT_CONFIDENCE)]
    pub confidence: f64,
    /// A query whose values differ by more than this between replicates is flaky.
    #[arg(long, default_value_t = crate::config::DEFAULT_TIE_EPSILON)]
    pub tie_epsilon: f64,
    /// Column with the query id in CSV/TSV files.
    #[arg(long, default_value = "query_id")]
    pub id_column: String,
    /// Report format on stdout (json: the noise file).
    #[arg(long, value_enum, default_value = "text")]
    pub format: AaFormat,
    /// Write the noise file (JSON, for `[noise] file`) here.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Where and how the report is written (shared by check and compare).
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// Report format on stdout (or in --output).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Write the report to this file (atomically) instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Also write the JSON report to this file.
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// Also write the Markdown report to this file.
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<PathBuf>,
    /// Also write a self-contained HTML report (inline CSS and SVG forest plots) to this file.
    #[arg(long, value_name = "FILE")]
    pub export_html: Option<PathBuf>,
    /// Also write the JUnit XML report (a test case per gate × slice × rule) to this file.
    #[arg(long, value_name = "FILE")]
    pub export_junit: Option<PathBuf>,
    /// The text report in full: the protocol table too (overrides [report] details).
    #[arg(long)]
    pub details: bool,
}

#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The gate file (TOML); its paths are relative to its own folder. A folder stands for
    /// its `*.toml` files.
    pub gate_file: PathBuf,
    /// Further gate files or folders: one analysis per file, one verdict (the worst), one
    /// report, comment and job summary with a section per file.
    #[arg(value_name = "MORE")]
    pub more_gate_files: Vec<PathBuf>,
    /// Print the effective configuration, defaults filled in, and exit.
    #[arg(long)]
    pub dump_config: bool,
    /// Override [bootstrap] seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Override [bootstrap] resamples.
    #[arg(long)]
    pub resamples: Option<u64>,
    /// Write the unjudged docs of the gated cutoffs (both runs) as a qrels stub to FILE, or as
    /// JSON lines (query_id, doc_id, each side's rank) for a judging step when FILE ends in .jsonl.
    #[arg(long, value_name = "FILE")]
    pub holes: Option<PathBuf>,
    /// With [probe]: write the documents of every probe query whose top k moved, heaviest
    /// worst case first, as the next labelling batch (the --holes format: a qrels stub, or JSON
    /// lines when FILE ends in .jsonl).
    #[arg(long, value_name = "FILE")]
    pub probe_batch: Option<PathBuf>,
    /// Today's date (YYYY-MM-DD) for [noise] quarantine expiry; default: the UTC date.
    #[arg(long, value_name = "DATE", env = "RAG_GATE_TODAY")]
    pub today: Option<String>,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub publish: PublishFlags,
}

#[derive(Debug, Clone, Args)]
pub struct PartialArgs {
    /// The gate file (TOML) with `[bootstrap] weights = "keyed"`: the metrics, slices, unit,
    /// seed and resamples of the summary (its own inputs are replaced by the shard's).
    pub gate_file: PathBuf,
    /// The shard of the baseline's per-query metrics (read in the gate file's baseline format).
    #[arg(long, value_name = "FILE")]
    pub baseline: PathBuf,
    /// The same queries' candidate metrics.
    #[arg(long, value_name = "FILE")]
    pub candidate: PathBuf,
    /// The shard's queries file (groups and slice tags), when the gate file has one.
    #[arg(long, value_name = "FILE")]
    pub queries: Option<PathBuf>,
    /// Write the summary (JSON) here (atomically; `-` for stdout).
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,
}

#[derive(Debug, Clone, Args)]
pub struct MergeArgs {
    /// The gate file every summary was computed with.
    pub gate_file: PathBuf,
    /// The shards' summary files (`rag-gate partial -o`), in any order.
    #[arg(required = true, value_name = "SUMMARY")]
    pub summaries: Vec<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct InitArgs {
    /// Per-query metrics of the baseline (JSONL, CSV/TSV, Parquet, trec_eval or ir_measures -q
    /// output), as `check` reads them.
    #[arg(long, value_name = "FILE")]
    pub baseline: PathBuf,
    /// Per-query metrics of the candidate.
    #[arg(long, value_name = "FILE")]
    pub candidate: PathBuf,
    /// Queries file (JSONL with query_id, group, slices): the groups and the slice tags.
    #[arg(long, value_name = "FILE")]
    pub queries: Option<PathBuf>,
    /// A regex with one capture giving a query's group from its id, e.g. "^(.*)<::>" (default:
    /// the groups of the files, else a multi-turn pattern every id matches).
    #[arg(long, value_name = "REGEX")]
    pub group_from_id: Option<String>,
    /// Write the gate file here (a new file; its paths are made relative to its folder)
    /// instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct PlanArgs {
    /// The gate file (TOML) whose inputs are the pilot: the paired deltas of its baseline and
    /// candidate give the spread the sizes are planned from.
    pub gate_file: PathBuf,
    /// The chance a rule should work: a change of nothing passes `max-drop` / `max-change`,
    /// and `fail-if-significant-drop` catches the drop (`--drop`).
    #[arg(long, default_value_t = 0.8, value_name = "P")]
    pub power: f64,
    /// The true drop `fail-if-significant-drop` should catch (default: twice its margin, or
    /// the gate's max-drop when its margin is 0).
    #[arg(long, value_name = "D")]
    pub drop: Option<f64>,
    /// Pull requests of each kind (honest, a regression at the margin) made from the gate
    /// file's own pair and judged as `check` judges them, to predict friction, amber and
    /// escape (0: skip).
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub pull_requests: usize,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: crate::report::plan::PlanFormat,
}

#[derive(Debug, Clone, Args)]
pub struct LabelPlanArgs {
    /// The gate file (TOML) with a [judge] table: its runs, human qrels and judge's qrels.
    pub gate_file: PathBuf,
    /// The chance each corrected gate should pass an unchanged system (max-drop, max-change).
    #[arg(long, default_value_t = 0.8, value_name = "P")]
    pub power: f64,
    /// The share of pilots like the labelled units so far for which the planned size gives at
    /// least that power: the size reads the labelled spreads' upper confidence limit at this
    /// level (0.5 reads them about as they are).
    #[arg(long, default_value_t = 0.8, value_name = "P")]
    pub assurance: f64,
    /// Units (queries; conversations with the group unit) to draw for the next batch (default:
    /// what the gates still need).
    #[arg(long, value_name = "N")]
    pub batch: Option<usize>,
    /// Seed of the batch's random sample (default: the gate file's [bootstrap] seed).
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,
    /// Write the batch here as JSON lines: {"query_id", "group", "inclusion_probability"}.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Draw an active sample: more labels where the judge's delta is large, each unit with its
    /// inclusion probability; the file lists the labelled units too, for [judge] sample.
    #[arg(long)]
    pub active: bool,
    /// Plant N pairs of each kind for the judge to label beside the real ones: an irrelevant
    /// passage with the query's words stuffed in, and one with an instruction to the assessor
    /// (needs --queries-text, --corpus, --plant-out, --plant-key).
    #[arg(long, value_name = "N")]
    pub plant: Option<usize>,
    /// The queries' text, JSON lines {"query_id" (or "_id"), "text"} (BEIR queries.jsonl).
    #[arg(long, value_name = "FILE", requires = "plant")]
    pub queries_text: Option<PathBuf>,
    /// The passages' text, JSON lines {"doc_id" (or "_id"), "title"?, "text"} (BEIR
    /// corpus.jsonl): the planted passages are drawn from it.
    #[arg(long, value_name = "FILE", requires = "plant")]
    pub corpus: Option<PathBuf>,
    /// Write the planted pairs here for the judge, JSON lines {"query_id", "doc_id", "text"}.
    #[arg(long, value_name = "FILE", requires = "plant")]
    pub plant_out: Option<PathBuf>,
    /// Write which pairs are planted, and how, here (JSON lines; keep it from the judge; the
    /// gate file's [judge] plant-key reads it).
    #[arg(long, value_name = "FILE", requires = "plant")]
    pub plant_key: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: LabelPlanFormat,
}

/// `aa --format`: the replicates' report as text, or the noise file as JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AaFormat {
    Text,
    Json,
}

/// `label-plan --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LabelPlanFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// Per-query metrics of the baseline (JSONL, CSV/TSV, trec_eval or ir_measures -q output).
    pub baseline: PathBuf,
    /// Per-query metrics of the candidate.
    pub candidate: PathBuf,
    /// Queries file (JSONL with query_id, group, slices).
    #[arg(long)]
    pub queries: Option<PathBuf>,
    /// A further replicate run of the baseline's commit (repeat): the interval then carries the
    /// run-to-run noise.
    #[arg(long = "baseline-replicate", value_name = "FILE")]
    pub baseline_replicates: Vec<PathBuf>,
    /// A further replicate run of the candidate's commit (repeat).
    #[arg(long = "candidate-replicate", value_name = "FILE")]
    pub candidate_replicates: Vec<PathBuf>,
    /// Metric to compare (repeat); default: every metric both files have.
    #[arg(long = "metric", value_name = "METRIC")]
    pub metrics: Vec<String>,
    /// Report every value of this slice tag (repeat).
    #[arg(long = "by", value_name = "TAG")]
    pub by: Vec<String>,
    /// Resampling unit.
    #[arg(long, value_enum, default_value = "query")]
    pub unit: UnitArg,
    /// Interval method: bootstrap-t (studentised, the calibrated default), percentile, BCa
    /// (bias-corrected and accelerated) or expanded-percentile.
    #[arg(long, value_enum, default_value = "bootstrap-t")]
    pub method: MethodArg,
    #[arg(long, default_value_t = crate::config::DEFAULT_SEED)]
    pub seed: u64,
    #[arg(long, default_value_t = crate::config::DEFAULT_RESAMPLES)]
    pub resamples: u64,
    #[arg(long, default_value_t = crate::config::DEFAULT_CONFIDENCE)]
    pub confidence: f64,
    /// What to do with queries in one file only.
    #[arg(long, value_enum, default_value = "error")]
    pub missing: MissingArg,
    /// Number of worst regressions listed per comparison.
    #[arg(long, default_value_t = crate::config::DEFAULT_WORST)]
    pub worst: usize,
    /// |delta| at or below this is a tie.
    #[arg(long, default_value_t = crate::config::DEFAULT_TIE_EPSILON)]
    pub tie_epsilon: f64,
    /// Column with the query id in CSV/TSV files.
    #[arg(long, default_value = "query_id")]
    pub id_column: String,
    /// Column mapping for table inputs (repeat): `id=sample_id`, `group=conversation_id`,
    /// `slice:lang=language`, `recall@5=id_based_context_recall` (a metric). When metrics are
    /// mapped, other columns are ignored; same as the gate file's long form.
    #[arg(long = "column", value_name = "ROLE=COLUMN")]
    pub columns: Vec<String>,
    /// Format of both inputs [default: by extension, else recognised from the content: JSONL,
    /// CSV/TSV with a header, trec_eval / ir_measures -q; needed only for Parquet on a pipe].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub input_format: Option<InputFormatArg>,
    /// Format of the baseline (and its replicates) only; overrides --input-format.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub baseline_format: Option<InputFormatArg>,
    /// Format of the candidate (and its replicates) only; overrides --input-format.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub candidate_format: Option<InputFormatArg>,
    /// A metric where lower is better (latency, cost), so a rise reads as worse (repeat).
    #[arg(long = "lower-is-better", value_name = "METRIC")]
    pub lower_is_better: Vec<String>,
    /// A metric rag-gate does not know where higher is better (repeat); a column whose direction
    /// is neither known nor given is refused.
    #[arg(long = "higher-is-better", value_name = "METRIC")]
    pub higher_is_better: Vec<String>,
    /// The baseline's run card (JSON: model, conditions, run-level metrics, curves), for the
    /// Efficiency section; needs --candidate-card.
    #[arg(long, value_name = "FILE", requires = "candidate_card")]
    pub baseline_card: Option<PathBuf>,
    /// The candidate's run card; needs --baseline-card.
    #[arg(long, value_name = "FILE", requires = "baseline_card")]
    pub candidate_card: Option<PathBuf>,
    /// What the intervals and labels guarantee, as `[verdict] guarantee` in a gate file:
    /// regular (a change touching fewer than the stated resolution can hide) or
    /// distribution-free (each mean of a metric in [0, 1] also reaches the finite-sample bound
    /// with an unseen query at the worst loss).
    #[arg(long, value_enum, default_value = "regular")]
    pub guarantee: GuaranteeArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum GuaranteeArg {
    Regular,
    DistributionFree,
}

impl From<GuaranteeArg> for crate::config::Guarantee {
    fn from(g: GuaranteeArg) -> crate::config::Guarantee {
        match g {
            GuaranteeArg::Regular => crate::config::Guarantee::Regular,
            GuaranteeArg::DistributionFree => crate::config::Guarantee::DistributionFree,
        }
    }
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum InputFormatArg {
    Jsonl,
    Csv,
    Tsv,
    TrecEval,
    IrMeasures,
    Parquet,
}

impl From<InputFormatArg> for crate::load::Format {
    fn from(f: InputFormatArg) -> crate::load::Format {
        use crate::load::Format;
        match f {
            InputFormatArg::Jsonl => Format::Jsonl,
            InputFormatArg::Csv => Format::Csv,
            InputFormatArg::Tsv => Format::Tsv,
            InputFormatArg::TrecEval => Format::TrecEval,
            InputFormatArg::IrMeasures => Format::IrMeasures,
            InputFormatArg::Parquet => Format::Parquet,
        }
    }
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum UnitArg {
    Query,
    Group,
}

impl From<UnitArg> for Unit {
    fn from(u: UnitArg) -> Unit {
        match u {
            UnitArg::Query => Unit::Query,
            UnitArg::Group => Unit::Group,
        }
    }
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum MethodArg {
    BootstrapT,
    Percentile,
    Bca,
    ExpandedPercentile,
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::BootstrapT => Method::BootstrapT,
            MethodArg::Percentile => Method::Percentile,
            MethodArg::Bca => Method::Bca,
            MethodArg::ExpandedPercentile => Method::ExpandedPercentile,
        }
    }
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum MissingArg {
    Error,
    Intersect,
}

impl From<MissingArg> for Missing {
    fn from(m: MissingArg) -> Missing {
        match m {
            MissingArg::Error => Missing::Error,
            MissingArg::Intersect => Missing::Intersect,
        }
    }
}

/// Per-query metrics from a run and qrels, trec_eval-exact.
///
/// Rows are written in a form `check` reads (JSONL, CSV or trec_eval -q). Queries in the qrels
/// but not in the run score 0 (trec_eval -c); run-only queries are ignored and counted; queries
/// without a relevant doc at --rel-level are kept with 0, as trec_eval does at every -l
/// (--empty-gold). Every policy is recorded in the summary. Docs: docs/eval.md.
#[derive(Debug, Clone, clap::Args)]
pub struct EvalArgs {
    /// Qrels: TREC, JSONL {"query_id", "gold"}, ranx/BEIR JSON, BEIR TSV or LlamaIndex JSONL
    /// (recognised from content; gzip undone; `-` is stdin).
    #[arg(long, value_name = "FILE", required_unless_present = "exact_run")]
    pub qrels: Option<PathBuf>,
    /// Run: TREC, JSONL {"query_id", "ranked"}, ranx/BEIR JSON, MS MARCO TSV or LlamaIndex
    /// JSONL (recognised from content; gzip undone; `-` is stdin).
    #[arg(long, value_name = "FILE")]
    pub run: PathBuf,
    /// Comma-separated metrics: recall@k, p@k, mrr@k, mrr, ndcg@k, ndcg, ap@k, map, rprec, hit@k,
    /// complete@k (1 if every relevant document is in the top k), judged@k (share of the top k
    /// that is judged), ann-recall@k (the last only with --exact-run, on its own).
    #[arg(long, value_name = "LIST")]
    pub metrics: String,
    /// Per-query output format; `json` prints the summary only.
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: crate::eval::output::RowFormat,
    /// Write the per-query rows to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print the summary JSON on stdout (rows then go only to -o FILE, if given).
    #[arg(long)]
    pub summary: bool,
    /// Relevant means rel >= N for every binary metric (trec_eval -l); nDCG uses raw grades.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(i32).range(1..))]
    pub rel_level: i32,
    /// nDCG gain: linear (rel, trec_eval) or exponential (2^rel - 1).
    #[arg(long, value_enum, default_value = "linear")]
    pub gain: crate::eval::Gain,
    /// Ranking order [default: score for TREC runs (trec_eval's rule), given for JSONL].
    #[arg(long, value_enum)]
    pub order: Option<crate::eval::Order>,
    /// Queries with no relevant doc at --rel-level: zero (kept, binary metrics 0, nDCG by its
    /// grades: trec_eval at every -l, with or without -c), exclude (listed, not averaged), error.
    #[arg(long, value_enum, default_value = "zero")]
    pub empty_gold: crate::eval::EmptyGold,
    /// Qrels format, instead of recognising it from content and name.
    #[arg(long, value_enum)]
    pub qrels_format: Option<crate::eval::Format>,
    /// Run format (also of --exact-run), instead of recognising it from content and name.
    #[arg(long, value_enum)]
    pub run_format: Option<crate::eval::Format>,
    /// Corpus doc ids, one per line: any other gold or ranked id is an error.
    #[arg(long, value_name = "FILE")]
    pub corpus: Option<PathBuf>,
    /// `chunk_id<TAB>doc_id`: map a chunk run to documents (first occurrence kept, then cutoffs).
    #[arg(long, value_name = "FILE")]
    pub chunk_map: Option<PathBuf>,
    /// Exact-search run for ann-recall@k (--run is then the approximate run).
    #[arg(long, value_name = "FILE")]
    pub exact_run: Option<PathBuf>,
    /// Condensed lists (trec_eval -J): remove every unjudged doc from each ranking before scoring.
    #[arg(long)]
    pub judged_only: bool,
    /// Write the unjudged docs within the metrics' largest cutoff as a qrels stub to FILE.
    #[arg(long, value_name = "FILE")]
    pub holes: Option<PathBuf>,
    /// Column names of a Parquet run (repeat): `qid=query_id`, `doc_id=passage`,
    /// `score=similarity`, `rank=position` [default: the usual names, docs/eval.md].
    #[arg(long = "column", value_name = "ROLE=COLUMN", value_parser = run_column)]
    pub columns: Vec<(String, String)>,
    /// Column names of Parquet qrels (repeat): `qid=query_id`, `doc_id=corpus_id`,
    /// `relevance=label` [default: the usual names].
    #[arg(long = "qrels-column", value_name = "ROLE=COLUMN", value_parser = qrels_column)]
    pub qrels_columns: Vec<(String, String)>,
}

fn run_column(s: &str) -> std::result::Result<(String, String), String> {
    role_column(s, &["qid", "doc_id", "score", "rank"])
}

fn qrels_column(s: &str) -> std::result::Result<(String, String), String> {
    role_column(s, &["qid", "doc_id", "relevance"])
}

/// One `ROLE=COLUMN` with ROLE one of `roles`.
fn role_column(s: &str, roles: &[&str]) -> std::result::Result<(String, String), String> {
    match s.split_once('=') {
        Some((r, c)) if roles.contains(&r) && !c.is_empty() => Ok((r.to_string(), c.to_string())),
        _ => Err(format!(
            "expected ROLE=COLUMN with ROLE one of {}, e.g. qid=query_id",
            roles.join(", ")
        )),
    }
}
