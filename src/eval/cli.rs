//! `rag-gate eval` flags and entry point (owned by the eval module).

use crate::error::Result;
use crate::outcome::Outcome;

/// Per-query metrics from a run and qrels, trec_eval-exact.
#[derive(Debug, Clone, clap::Args)]
pub struct EvalArgs {}

pub fn run(_args: &EvalArgs) -> Result<Outcome> {
    Err(crate::error::Error::Usage("eval is not built yet".into()))
}
