//! rag-gate: a paired-bootstrap regression gate for per-query retrieval metrics.
//!
//! Data flows one way: load → pair → resample → judge → report → publish.

pub mod atomic; // write-to-temp-then-rename for every file we write
pub mod cli; // clap definitions of check, compare, eval
pub mod config; // gate file → validated configuration (strict; errors with line and column)
pub mod error; // the one user-facing error type (exit 2)
pub mod eval; // runs + qrels → per-query metrics, trec_eval-exact
pub mod load; // per-query metric files (JSONL, CSV/TSV, trec_eval/ir_measures -q) → MetricTable
pub mod metric_names; // trec_eval / ir_measures names → ours; which metrics are bounded
pub mod outcome; // what a command returns to main: stdout, stderr lines, exit code
pub mod publish; // GitHub: sticky PR comment, job summary, outputs, annotations
pub mod report; // one report model; text, Markdown and JSON renderers
pub mod stats; // pure maths: bootstrap engine, quantiles, streams

pub use error::{Error, Result};
pub use outcome::Outcome;

/// Runs one parsed command line. Only `main` prints and exits.
pub fn run(cli: cli::Cli) -> Result<Outcome> {
    match cli.command {
        cli::Command::Eval(args) => eval::cli::run(&args),
    }
}
