//! rag-gate: a paired-bootstrap regression gate for per-query retrieval metrics.
//!
//! Data flows one way: load → pair → resample → judge → report → publish.

pub mod eval; // runs + qrels → per-query metrics, trec_eval-exact
pub mod load; // per-query metric files (JSONL, CSV/TSV, trec_eval/ir_measures -q) → MetricTable
pub mod publish; // GitHub: sticky PR comment, job summary, outputs, annotations
pub mod report; // one report model; text, Markdown and JSON renderers
