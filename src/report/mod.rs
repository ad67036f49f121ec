//! Report stage: renderers of the analysis model (`crate::model::Report`) as text, Markdown,
//! JSON and a self-contained HTML page, each returning a String; the caller decides where it goes.

pub mod html;
pub mod json;
pub mod markdown;
pub mod noise;
pub mod text;
pub mod words;

use crate::model::Report;

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
