//! Report stage: renderers of the analysis model (`crate::model::Report`) as text, Markdown,
//! JSON and a self-contained HTML page, each returning a String; the caller decides where it goes.

pub mod efficiency;
pub mod html;
pub mod json;
pub mod markdown;
pub mod noise;
pub mod text;
pub mod words;

use crate::model::{Comparison, GateResult, Report};

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

/// The allowed drop (as a delta on the metric's own scale) of a `max-drop` gate on this metric
/// and slice: negative for a higher-is-better metric, positive for a lower-is-better one. The
/// forest plots of the Markdown and the HTML mark it.
pub(crate) fn allowed_drop(c: &Comparison, gates: &[GateResult]) -> Option<f64> {
    gates
        .iter()
        .find(|g| g.rule == "max-drop" && g.metric == c.metric && g.slice == c.slice)
        .map(|g| {
            if c.higher_is_better {
                -g.threshold.abs()
            } else {
                g.threshold.abs()
            }
        })
}
