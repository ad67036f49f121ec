//! Command-line definitions (clap derive): `check`, `compare`, `eval`.

use clap::{Parser, Subcommand};

pub const EXIT_CODES_HELP: &str = "\
Exit codes:
  0  every gate passed (compare, eval: finished)
  1  a gate failed
  2  usage, gate-file or input error (a message on stderr names the file, line and key)";

#[derive(Debug, Parser)]
#[command(name = "rag-gate", version, about, after_help = EXIT_CODES_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compute per-query metrics from a run and qrels (trec_eval-exact).
    Eval(crate::eval::cli::EvalArgs),
}
