//! rag-gate: a paired-bootstrap regression gate for per-query retrieval metrics.
//!
//! Data flows one way: load → pair → resample → judge → report → publish.

pub mod atomic; // write-to-temp-then-rename for every file we write
pub mod check; // the check and compare commands: the stages wired together
pub mod cli; // clap definitions of check, compare, eval
pub mod commands; // check and compare: flags → config → analysis → Outcome
pub mod config; // gate file → validated configuration (strict; errors with line and column)
pub mod error; // the one user-facing error type (exit 2)
pub mod eval; // runs + qrels → per-query metrics, trec_eval-exact
pub mod judge; // gates × slices → pass / fail / too small; verdict and headline
pub mod load; // per-query metric files (JSONL, CSV/TSV, trec_eval/ir_measures -q) → MetricTable
pub mod metric_names;
pub mod model; // the analysis model: the data the stages hand each other, and the report // trec_eval / ir_measures names → ours; which metrics are bounded
pub mod outcome; // what a command returns to main: stdout, stderr lines, exit code
pub mod pair; // baseline × candidate by query id → paired values, tags, groups
pub mod publish; // GitHub: sticky PR comment, job summary, outputs, annotations
pub mod report; // one report model; text, Markdown and JSON renderers
pub mod resample; // metric × slice → means, win/tie/loss, worst, bootstrap CI
pub mod slices; // named subsets of queries: all, tag=value, critical
pub mod stats; // pure maths: bootstrap engine, quantiles, streams

pub use error::{Error, Result};
pub use outcome::Outcome;

/// Runs one parsed command line. Only `main` prints and exits.
pub fn run(cli: cli::Cli) -> Result<Outcome> {
    match cli.command {
        cli::Command::Check(args) => commands::check(&args),
        cli::Command::Compare(args) => commands::compare(&args),
        cli::Command::Eval(args) => eval::cli::run(&args),
    }
}
