//! Report stage: the report model and its renderers (text, Markdown, JSON), each returning a String.

pub mod json;
pub mod markdown;
pub mod model;
pub mod text;

pub use model::*;

/// Output format of `check` and `compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Markdown,
    Json,
}

pub fn render(r: &Report, format: Format) -> String {
    match format {
        Format::Text => text::render(r),
        Format::Markdown => markdown::render(r),
        Format::Json => json::render(r),
    }
}
