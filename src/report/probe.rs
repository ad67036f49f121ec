//! The probe section in text, Markdown and HTML: the unlabelled queries compared, the share
//! whose top k moved with its bound, each gated metric's worst-case bound, and the moved queries
//! (rank-biased overlap, documents entering and leaving). The header's probe line is
//! [`header_line`]. "" without `[probe]`, so other reports do not change.

use std::fmt::Write;

use crate::model::probe::{ProbeQuery, ProbeReport};
use crate::model::Report;
use crate::numbers::{count, percent, plain};

const HEADERS: [&str; 5] = ["query", "RBO", "worst loss", "entering", "leaving"];

/// Documents listed per query and side.
const DOCS: usize = 5;

/// "probe: …", the line every report's header carries (None without a probe).
pub fn header_line(r: &Report) -> Option<String> {
    r.probe.as_ref().map(|p| format!("probe: {}", p.decided))
}

fn docs(d: &[String]) -> String {
    if d.is_empty() {
        return "—".into();
    }
    crate::error::few(d, DOCS)
}

fn row(q: &ProbeQuery) -> Vec<String> {
    vec![
        q.query_id.clone(),
        format!("{:.3}", q.rbo),
        plain(q.worst_loss),
        docs(&q.entering),
        docs(&q.leaving),
    ]
}

/// The summary lines: what was compared, the moved share and each metric's bound.
fn lines(p: &ProbeReport) -> Vec<String> {
    let level = percent(1.0 - p.level);
    let mut out = vec![format!(
        "{} ({} vs {}; {} labelled left out), top {} compared, depth {}, RBO persistence {}",
        count(p.queries, "unlabelled query", "unlabelled queries"),
        p.baseline,
        p.candidate,
        p.labelled_left_out,
        p.cutoff.map_or("ranking".into(), |k| k.to_string()),
        p.fingerprint.depth,
        plain(p.persistence),
    )];
    out.push(format!(
        "moved: {} ({}); share of all queries ≤ {} at {level}; resolution {}",
        p.changed,
        percent(p.changed_share),
        percent(p.changed_share_bound),
        percent(p.resolution)
    ));
    for b in &p.bounds {
        out.push(format!(
            "{}: worst-case mean loss {} (≤ {} at {level}), worst-case mean gain {} (≤ {})",
            b.metric,
            plain(b.worst_mean_loss),
            plain(b.loss_bound),
            plain(b.worst_mean_gain),
            plain(b.gain_bound)
        ));
    }
    out
}

/// The text rendering, or "".
pub fn text(r: &Report, table: impl Fn(&[&str], &[Vec<String>]) -> String) -> String {
    let Some(p) = &r.probe else {
        return String::new();
    };
    let mut s = String::from("\nProbe (unlabelled queries)\n");
    for l in lines(p) {
        let _ = writeln!(s, "  {}", crate::safe_text::one_line(&l));
    }
    if !p.moved.is_empty() {
        let rows: Vec<Vec<String>> = p.moved.iter().map(row).collect();
        s.push_str(&table(&HEADERS, &rows));
    }
    s
}

/// The Markdown rendering (cells through `escape`), or "".
pub fn markdown(r: &Report, escape: impl Fn(&str) -> String) -> String {
    let Some(p) = &r.probe else {
        return String::new();
    };
    let mut s = String::from("\n**Probe (unlabelled queries)**\n\n");
    for l in lines(p) {
        let _ = writeln!(s, "- {}", escape(&l));
    }
    if !p.moved.is_empty() {
        let _ = writeln!(s, "\n| {} |", HEADERS.join(" | "));
        let _ = writeln!(s, "|{}", "---|".repeat(HEADERS.len()));
        for q in &p.moved {
            let cells: Vec<String> = row(q).iter().map(|c| escape(c)).collect();
            let _ = writeln!(s, "| {} |", cells.join(" | "));
        }
    }
    s.push('\n');
    s
}

/// The HTML rendering (text through `esc`), or "".
pub fn html(r: &Report, esc: impl Fn(&str) -> String) -> String {
    let Some(p) = &r.probe else {
        return String::new();
    };
    let mut s = String::from("<section><h2>Probe (unlabelled queries)</h2>\n<ul>");
    for l in lines(p) {
        let _ = write!(s, "<li>{}</li>", esc(&l));
    }
    s.push_str("</ul>\n");
    if !p.moved.is_empty() {
        s.push_str("<table><thead><tr>");
        for h in HEADERS {
            let _ = write!(s, "<th>{}</th>", esc(h));
        }
        s.push_str("</tr></thead><tbody>\n");
        for q in &p.moved {
            s.push_str("<tr>");
            for c in row(q) {
                let _ = write!(s, "<td>{}</td>", esc(&c));
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</tbody></table>\n");
    }
    s.push_str("</section>\n");
    s
}
