//! Evaluation: runs + qrels → per-query metrics.
