//! rag-gate: a paired-bootstrap regression gate for per-query retrieval metrics.
//!
//! Data flows one way: load → pair → resample → verdict → report → publish.
//!
//! # The library
//!
//! This crate is the `rag-gate` command's inside. What is stable, under semantic versioning, is
//! what the command offers: its flags, the gate file, the JSON report
//! (`docs/report.schema.json`) and the exit codes. The Rust API is **unstable**: any release may
//! change it. The documented surface is one path, gate file → analysis → report → rendering:
//!
//! - [`config::load`] reads and validates a gate file into a [`config::Config`] (an [`Error`]
//!   names the file, line and key);
//! - [`check::analyze`] runs the analysis it describes into a [`model::Report`];
//! - [`report::render`] renders a report as text, Markdown or JSON; [`report::html`] and
//!   [`report::junit`] as an HTML page and JUnit XML.
//!
//! ```
//! use std::path::Path;
//!
//! let cfg = rag_gate::config::load(Path::new("gates/prod.toml"))?;
//! let report = rag_gate::check::analyze(&cfg)?;
//! let text = rag_gate::report::render(&report, rag_gate::report::Format::Text);
//! assert!(text.contains("rag-gate"));
//! # Ok::<(), rag_gate::Error>(())
//! ```
//!
//! Everything else is public for the command, its tests, benchmarks and calibrations, and is
//! hidden from this documentation.

// The rooms, bottom up, in the order the data flow through them. `scripts/import-loops.py`
// checks that no file imports one above it, and that no module imports a module declared
// below it here: the shared ground; the per-query tables' sources and the gate file; one stage
// per line; the outputs; then the commands that wire them together.
#[doc(hidden)]
pub mod safe_text; // untrusted names made one visible, short line for every output
#[doc(hidden)]
pub mod choice; // enums picked by name (a flag's value, a gate-file key): names, help, parsing
pub mod error; // the one user-facing error type (exit 2)
#[doc(hidden)]
pub mod outcome; // what a command returns to main: stdout, stderr lines, exit code
#[doc(hidden)]
pub mod status; // status lines and progress while a command runs, handed to main's sink as they happen
pub mod model; // the analysis model: the data the stages hand each other, and the report
#[doc(hidden)]
pub mod stats; // pure maths: bootstrap engine, intervals, sign-flip test, power, streams
#[doc(hidden)]
pub mod metric_names; // trec_eval / ir_measures names → ours; which metrics are bounded
#[doc(hidden)]
pub mod numbers; // how numbers read in reports: one precision, one minus sign, plurals
#[doc(hidden)]
pub mod id_spelling; // ids that are one query spelled two ways (0001 and 1): found, named
#[doc(hidden)]
pub mod checkout; // the CI checkout folder (GITHUB_WORKSPACE, CI_PROJECT_DIR): where relative paths start
#[doc(hidden)]
pub mod atomic; // write-to-temp-then-rename for every file we write
#[doc(hidden)]
pub mod input; // opening inputs: a path or `-`, gzip undone (bomb-limited), formats sniffed, JSON maps
#[doc(hidden)]
pub mod protocol; // the protocol fingerprint: qrels, query set, corpus, metric definitions (data, hashing)
#[cfg(feature = "github")]
#[doc(hidden)]
pub mod unzip; // an untrusted zip (the baseline artifact) unpacked with limits, nothing outside the folder
#[doc(hidden)]
pub mod outputs; // the one check every command's outputs pass: no output is an input or another output

#[doc(hidden)]
pub mod load; // per-query metric files (JSONL, CSV/TSV, trec_eval/ir_measures -q) → MetricTable
pub mod config; // gate file → validated configuration (strict; errors with line and column)
#[doc(hidden)]
pub mod eval; // runs + qrels → per-query metrics, trec_eval-exact (the second source of tables)

#[doc(hidden)]
pub mod pair; // stage: baseline × candidate by query id → paired values, tags, groups
#[doc(hidden)]
pub mod slices; // stage: named subsets of queries: all, tag=value, critical
#[doc(hidden)]
pub mod noise; // the aa noise file, the quarantine list, and how a check applies them
#[doc(hidden)]
pub mod resample; // stage: metric × slice → means, win/tie/loss, worst, bootstrap CI (numbers)
#[doc(hidden)]
pub mod judge_labels; // stage: a model's relevance labels corrected by the human ones (PPI)
#[doc(hidden)]
pub mod verdict; // stage: gates × slices → pass / fail / too small; the verdict and its headline
#[doc(hidden)]
pub mod provenance; // where a baseline came from: the file `baseline fetch` writes and `check` reads
#[doc(hidden)]
pub mod bounds; // judged bounds: what unjudged documents could do to each gate (a second judge pass)

pub mod report; // renderers of the model: text, Markdown, JSON, HTML, JUnit
#[doc(hidden)]
pub mod forge; // the code hosts: GitHub and GitLab, on one shared transport, token and notes trait
#[doc(hidden)]
pub mod publish; // the sticky PR comment, job summary, outputs, annotations, check run

pub mod check; // the check and compare analysis: load → pair → resample → verdict → report
#[doc(hidden)]
pub mod cli; // clap definitions of every command
#[doc(hidden)]
pub mod manual; // shell completions and man pages generated from the clap definitions
#[doc(hidden)]
pub mod commands; // check and compare: flags → config → analysis → Outcome
#[doc(hidden)]
pub mod aa; // the aa command: replicates of one commit → noise, flaky queries, noise floor
#[cfg(feature = "github")]
#[doc(hidden)]
pub mod baseline; // the baseline fetch command: merge-base → run → artifact → folder + provenance
#[doc(hidden)]
pub mod ledger; // ledger record and anchor write: main's chained ledger, reviewed re-anchoring
#[doc(hidden)]
pub mod init; // the init command: two metric files → a commented gate file that check accepts
#[doc(hidden)]
pub mod plan; // the plan command: a gate file's inputs → the queries each gated rule needs
#[doc(hidden)]
pub mod label_plan; // the label-plan command: [judge] → human labels each corrected gate needs, next batch

pub use error::{Error, Result};
pub use outcome::Outcome;

/// Runs one parsed command line. Only `main` prints and exits.
pub fn run(cli: cli::Cli) -> Result<Outcome> {
    match cli.command {
        cli::Command::Completions { shell } => Ok(printed(manual::completions(shell))),
        cli::Command::Man { list: true, .. } => Ok(printed(manual::man_list())),
        cli::Command::Man { command, .. } => Ok(printed(manual::man_page(&command)?)),
        cli::Command::Check(args) => commands::check(&args),
        cli::Command::Compare(args) => commands::compare(&args),
        cli::Command::Init(args) => init::run(&args),
        cli::Command::Plan(args) => plan::run(&args),
        cli::Command::LabelPlan(args) => label_plan::run(&args),
        cli::Command::Eval(args) => commands::eval::run(&args),
        cli::Command::Partial(args) => commands::shards::partial(&args),
        cli::Command::Merge(args) => commands::shards::merge(&args),
        cli::Command::Aa(args) => aa::run(&args),
        #[cfg(feature = "github")]
        cli::Command::Baseline(cli::BaselineCommand::Fetch(args)) => baseline::fetch(&args),
        cli::Command::Ledger(cli::LedgerCommand::Record(args)) => ledger::ledger_record(&args),
        cli::Command::Anchor(cli::AnchorCommand::Write(args)) => ledger::anchor_write(&args),
        #[cfg(not(feature = "github"))]
        cli::Command::Baseline(cli::BaselineCommand::Fetch(_)) => Err(Error::Fetch(
            "this rag-gate was built without the GitHub client (cargo feature `github`); use a \
             release build"
                .into(),
        )),
    }
}

/// Text for stdout and exit 0.
fn printed(stdout: String) -> Outcome {
    Outcome {
        stdout,
        ..Outcome::default()
    }
}
