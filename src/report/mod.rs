//! Report stage: the report model and its renderers (text, Markdown, JSON), each returning a String.

pub mod markdown;
pub mod model;

pub use model::*;
