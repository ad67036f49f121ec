//! Evaluation: runs + qrels → per-query metrics.
pub mod cli;
pub mod gate_input;
