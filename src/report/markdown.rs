//! Markdown renderer: the PR comment and the job summary, what a reviewer reads in ten seconds.
//!
//! Layout: a hidden marker line (how the sticky comment is found again, with a digest of the
//! verdict and the gated rows), then line 1: the verdict and the one reason that matters most;
//! the gated rows only (what decided); the comparisons that changed beyond their margin; and
//! folded in `<details>`: every comparison, a forest plot per metric, the worst per-query
//! regressions (once per query, with the slices it regressed on), the protocol and the
//! warnings. A one-line footer closes it. No timestamps: same report, same bytes.
//!
//! Too large for GitHub, the report is trimmed by importance (`trim.rs`) and says what it left
//! out and where the full report is.
//!
//! Everything that comes from the user's files (metric and slice names, query ids, paths, the
//! gate id) goes through [`escape`], [`code`] or [`marker`], so it cannot break a table, close
//! the hidden marker, start a code span, @-mention a person or cross-reference an issue.

mod details;
mod forest;
mod protocol;
mod tables;
mod text;
mod trim;

use std::fmt::Write;

use crate::model::{GateStatus, Report};
pub use text::{code, escape, marker, marker_with_state, name, parse_marker};
use trim::Detail;

/// GitHub rejects issue-comment bodies longer than this many characters.
pub const GITHUB_COMMENT_LIMIT: usize = 65_536;

/// Where a rendering goes: its size limit, where the full report can be found (said when
/// something is left out), and a link to it for the footer.
#[derive(Debug, Clone, Default)]
pub struct Page {
    pub limit: Option<usize>,
    /// Markdown naming where the full report is, e.g. "the job summary of `[this run](URL)`".
    pub full_report: Option<String>,
    /// A URL (already checked to be plain) for the footer's "full report" link.
    pub link: Option<String>,
    /// The commit the report judged (40 hex digits), named in the head of a PR comment.
    pub commit: Option<String>,
    /// The sticky comment's key in the marker (default: the gate id).
    pub key: Option<String>,
}

/// The whole report as Markdown.
pub fn render(report: &Report) -> String {
    render_page(report, &Page::default())
}

/// The report within `max_chars` bytes, saying the full report is in the job summary or the
/// report file.
pub fn render_trimmed(report: &Report, max_chars: usize) -> String {
    render_page(
        report,
        &Page {
            limit: Some(max_chars),
            ..Page::default()
        },
    )
}

/// The report for `page`: in full when it fits, else trimmed by importance (never fails on
/// size; as a last resort the body is cut, keeping the head and the footer).
pub fn render_page(report: &Report, page: &Page) -> String {
    let mut d = Detail::full(report);
    let limit = page.limit.unwrap_or(usize::MAX);
    let ranks = trim::Ranks::new(report);
    loop {
        let body = render_with(report, d, page, &ranks);
        if body.len() <= limit {
            return body;
        }
        match d.smaller() {
            Some(next) => d = next,
            None => return hard_cut(report, &body, page, limit),
        }
    }
}

/// A digest of what `--comment-mode on-change` compares: the verdict and each gated row's
/// gate, metric, slice, rule, result and label (not the figures, which move a little with
/// every push). FNV-1a, 64 bits, as 16 hex digits.
pub fn state_digest(r: &Report) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |s: &str| {
        for b in s.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(r.verdict.as_str());
    for g in &r.gates {
        eat(&g.gate.to_string());
        eat(&g.metric);
        eat(&g.slice);
        eat(&g.rule);
        eat(&format!("{:?}", g.status));
        eat(g.label.as_str());
    }
    // Run-level gates; nothing is eaten without run cards, so digests stay as they were.
    for g in r.efficiency.iter().flat_map(|e| &e.gates) {
        eat(&format!("run-level #{}", g.gate));
        eat(&g.metric);
        eat(&g.rule);
        eat(g.status.as_str());
    }
    format!("{h:016x}")
}

fn head(r: &Report, page: &Page) -> String {
    let mut s = String::new();
    // A report without gates (`compare`) judged nothing: no pass mark.
    let (icon, word) = match r.verdict {
        _ if r.gates.is_empty() && r.efficiency.is_none() => ("📊", "comparison"),
        v => v.icon(),
    };
    let key = page.key.as_deref().unwrap_or(&r.gate_id);
    let _ = writeln!(s, "{}", marker_with_state(key, &state_digest(r)));
    let _ = writeln!(s, "### {icon} rag-gate {word}: {}\n", reason(r));
    // The headline already counts what failed ("1 of 4 checks failed (2 gates)").
    let small = r
        .gates
        .iter()
        .filter(|g| g.status == GateStatus::TooSmall)
        .count();
    let mut facts = vec![format!("gate **{}**", text::name(&r.gate_id))];
    if let Some(sha) = &page.commit {
        // A bare commit id: GitHub links it; the comment says which push it judged.
        facts.push(format!("judged commit {sha}"));
    }
    if small > 0 {
        facts.push(format!(
            "{} not judged (too small), never passed",
            crate::numbers::count(small, "check", "checks")
        ));
    }
    facts.push(crate::report::words::paired_count(r));
    let _ = writeln!(s, "{}\n", facts.join(" · "));
    for line in crate::report::words::resolution_lines(r) {
        let _ = writeln!(s, "{}\n", escape(&line));
    }
    if let Some(b) = &r.baseline {
        let _ = writeln!(s, "baseline: {}\n", escape(&b.line));
    }
    s.push_str(&super::looks::markdown_attempt(r, escape));
    s
}

/// The judge's headline without its "FAIL: "/"PASS: " prefix (the heading says it).
fn reason(r: &Report) -> String {
    let h = crate::model::headline_reason(&r.headline);
    if h.is_empty() {
        format!("{} gate checks", r.gates.len())
    } else {
        escape(h)
    }
}

fn render_with(r: &Report, d: Detail, page: &Page, ranks: &trim::Ranks) -> String {
    let mut s = head(r, page);
    if !d.is_full(r) {
        left_out_note(&mut s, r, d, page);
    }
    tables::gates(&mut s, r, &trim::gated_rows(r, d.other_gated));
    s.push_str(&super::anchor::markdown(r, escape));
    s.push_str(&super::probe::markdown(r, escape));
    s.push_str(&super::looks::markdown(r, escape));
    let (changed, total) = trim::changed_rows(r, ranks, d.changed_rows);
    tables::changed(&mut s, r, &changed, total);
    tables::all(&mut s, r, &trim::all_rows(ranks, d.all_rows));
    s.push_str(&super::efficiency::markdown(r, escape));
    if d.forest {
        forest::forest(&mut s, &r.comparisons, &r.gates);
    }
    if d.per_query {
        details::worst(&mut s, &r.comparisons);
    }
    details::protocol(&mut s, r);
    s.push_str(&super::noise::markdown(r, escape));
    s.push_str(&super::ties::markdown(r, escape));
    s.push_str(&super::judge::markdown(r, escape));
    protocol::sections(&mut s, r);
    details::warnings(&mut s, r, d.warnings);
    details::notes(&mut s, r);
    s.push_str(&details::footer(r, page.link.as_deref()));
    protocol::footer(&mut s, r);
    s
}

fn where_full(page: &Page) -> &str {
    page.full_report
        .as_deref()
        .unwrap_or("the job summary and the report file (`--output`, `--export-html`)")
}

fn left_out_note(s: &mut String, r: &Report, d: Detail, page: &Page) {
    let mut what = Vec::new();
    if !d.per_query {
        what.push("the per-query regressions".to_string());
    }
    if !d.forest {
        what.push("the forest plot".to_string());
    }
    let rows = r.comparisons.len() - d.all_rows.min(r.comparisons.len());
    if rows > 0 {
        what.push(format!("{rows} of {} comparison rows", r.comparisons.len()));
    }
    if d.warnings < r.warnings.len() {
        what.push(format!(
            "{} of {} warnings",
            r.warnings.len() - d.warnings,
            r.warnings.len()
        ));
    }
    let _ = writeln!(
        s,
        "> Left out to fit the size limit: {}. The full report: {}.\n",
        what.join(", "),
        where_full(page)
    );
}

fn hard_cut(r: &Report, body: &str, page: &Page, max: usize) -> String {
    let note = format!(
        "\n\n… (cut to fit the size limit; the full report: {})\n\n",
        where_full(page)
    );
    let footer = details::footer(r, page.link.as_deref());
    if note.len() + footer.len() > max {
        let mut end = max.min(footer.len());
        while !footer.is_char_boundary(end) {
            end -= 1;
        }
        return footer[..end].to_string();
    }
    let mut end = max.saturating_sub(note.len() + footer.len());
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{note}{footer}", &body[..end])
}
