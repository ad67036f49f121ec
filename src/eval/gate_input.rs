//! A gate file's `{ run = "..." }` input: evaluate the run against `[inputs] qrels`.

use crate::config::{Config, InputSpec};
use crate::error::Result;
use crate::load::MetricTable;

pub fn evaluate_run(cfg: &Config, spec: &InputSpec, _metrics: &[String]) -> Result<MetricTable> {
    Err(cfg.error_at(&spec.span, "run inputs are not supported yet"))
}
