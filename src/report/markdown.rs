//! Markdown renderer (PR comment and job summary). Placeholder until the GitHub work lands: the
//! text report in a code block under the sticky-comment marker.

use super::model::Report;

pub fn render(r: &Report) -> String {
    format!(
        "<!-- rag-gate:v1 id={} -->\n```\n{}```\n",
        r.gate_id,
        super::text::render(r).replace("```", "'''")
    )
}
