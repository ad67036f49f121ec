//! The protocol and judged-coverage parts of the Markdown report, kept apart from the main
//! layout: a folded `<details>` section with the fingerprint fields and the run context, one with
//! the judged bounds of each gated comparison, and the footer line with the protocol hash.

use std::fmt::Write;

use super::text::escape;
use crate::model::Report;
use crate::protocol::verify::Status;

/// The folded protocol section and, when `check` evaluated runs, the judged-bounds section.
pub fn sections(s: &mut String, r: &Report) {
    // Unchecked and without run context: the note is among the warnings already.
    let shown = r.protocol.as_ref().filter(|p| {
        !p.fields.is_empty() || !p.baseline_context.is_empty() || !p.candidate_context.is_empty()
    });
    if let Some(p) = shown {
        let _ = writeln!(
            s,
            "<details><summary>Protocol: {}</summary>\n",
            status_words(p.status)
        );
        if !p.fields.is_empty() {
            s.push_str("| field | value |\n|---|---|\n");
            for f in &p.fields {
                let _ = writeln!(s, "| {} | {} |", escape(&f.field), escape(&f.value));
            }
            s.push('\n');
        }
        for (side, ctx) in [
            ("baseline", &p.baseline_context),
            ("candidate", &p.candidate_context),
        ] {
            if !ctx.is_empty() {
                let items: Vec<String> = ctx
                    .iter()
                    .map(|(k, v)| format!("{} = {}", escape(k), escape(v)))
                    .collect();
                let _ = writeln!(s, "Run context ({side}): {}\n", items.join(" · "));
            }
        }
        s.push_str("</details>\n\n");
    }
    judged(s, r);
}

fn judged(s: &mut String, r: &Report) {
    let rows: Vec<[String; 8]> = r
        .comparisons
        .iter()
        .filter_map(|c| crate::report::judged_row(c, &r.gates))
        .collect();
    if rows.is_empty() {
        return;
    }
    s.push_str("<details><summary>Judged coverage: what unjudged documents could do</summary>\n\n");
    s.push_str("One shared judgment per unjudged (query, document): the bounds are the judgments that lower / raise the delta most, each with its interval and the gate's decision there.\n\n");
    let _ = writeln!(s, "| {} |", crate::report::JUDGED_HEADS.join(" | "));
    let _ = writeln!(s, "|{}", "---|".repeat(crate::report::JUDGED_HEADS.len()));
    for row in rows {
        let cells: Vec<String> = row.iter().map(|c| escape(c)).collect();
        let _ = writeln!(s, "| {} |", cells.join(" | "));
    }
    s.push_str("\n</details>\n\n");
}

fn status_words(s: Status) -> &'static str {
    match s {
        Status::Shared => "shared (check evaluated both runs)",
        Status::Checked => "checked, both sides match",
        Status::Unchecked => "could not be checked",
    }
}

/// `protocol sha256 …` under the footer.
pub fn footer(s: &mut String, r: &Report) {
    if let Some(p) = &r.protocol {
        let _ = writeln!(
            s,
            "<sub>protocol {}: {}</sub>",
            p.status.as_str(),
            p.hash
                .as_deref()
                .map_or("no fingerprint".into(), |h| format!("sha256 {h}"))
        );
    }
}
