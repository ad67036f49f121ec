//! Evaluation: runs + qrels → per-query metrics.
pub mod cli;
