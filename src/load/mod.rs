//! Load stage: one reader per per-query metric format, all producing a `MetricTable`.

pub mod table;

pub use table::{MetricTable, QueryRow};
