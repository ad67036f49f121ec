//! The drift section in text, Markdown and HTML: the approved anchor (name, file, hash, ledger),
//! one line per gated metric × slice saying how much of the budget main has used and by which
//! merges, and a table of the three paired intervals (candidate − anchor, main − anchor, this
//! change). "" without `[anchor]`, so other reports do not change.

use std::fmt::Write;

use crate::model::ledger::{AnchorReport, DriftRow, Interval, LedgerStatus};
use crate::model::Report;
use crate::numbers::{percent, plain, signed};
use crate::verdict::drift::budget_line;

const HEADERS: [&str; 8] = [
    "gate",
    "metric",
    "slice",
    "budget",
    "used by main",
    "candidate − anchor",
    "this change",
    "result",
];

fn with_ci(i: &Interval) -> String {
    format!(
        "{} [{}, {}]",
        signed(i.estimate),
        signed(i.ci[0]),
        signed(i.ci[1])
    )
}

fn row(d: &DriftRow) -> Vec<String> {
    let metric = if d.statistic == "mean" {
        d.metric.clone()
    } else {
        format!("{} {}", d.metric, d.statistic)
    };
    vec![
        format!("#{}", d.gate),
        metric,
        d.slice.clone(),
        plain(d.budget),
        percent(d.used),
        with_ci(&d.candidate),
        with_ci(&d.change),
        d.status.as_str().into(),
    ]
}

/// "anchor v1.4 (anchors/v1.4.jsonl, SHA-256 0123456789ab…, commit abc1234); ledger: verified,
/// 12 merges".
pub fn summary(a: &AnchorReport) -> String {
    let commit = a
        .commit
        .as_deref()
        .map(|c| format!(", commit {}", c.get(..7).unwrap_or(c)))
        .unwrap_or_default();
    let ledger = match a.ledger {
        LedgerStatus::Verified => format!(
            "verified, {}",
            crate::numbers::count(a.ledger_entries, "main run", "main runs")
        ),
        LedgerStatus::Absent => "none beside the baseline (no attribution)".into(),
        LedgerStatus::Ignored => "ignored: it failed its check (see the warnings)".into(),
    };
    format!(
        "anchor {} ({}, SHA-256 {}…{commit}); ledger: {ledger}",
        a.name,
        a.file,
        a.sha256.get(..12).unwrap_or(&a.sha256)
    )
}

/// The text rendering, or "".
pub fn text(r: &Report, table: impl Fn(&[&str], &[Vec<String>]) -> String) -> String {
    let Some(a) = &r.anchor else {
        return String::new();
    };
    let mut s = String::from("\nDrift against the anchor\n");
    let _ = writeln!(s, "  {}", crate::safe_text::one_line(&summary(a)));
    for d in &a.drift {
        let _ = writeln!(
            s,
            "  {}",
            crate::safe_text::one_line(&budget_line(d, &a.name))
        );
    }
    let rows: Vec<Vec<String>> = a.drift.iter().map(row).collect();
    s.push_str(&table(&HEADERS, &rows));
    s
}

/// The Markdown rendering (cells through `escape`), or "".
pub fn markdown(r: &Report, escape: impl Fn(&str) -> String) -> String {
    let Some(a) = &r.anchor else {
        return String::new();
    };
    let mut s = String::from("\n**Drift against the anchor**\n\n");
    let _ = writeln!(s, "- {}", escape(&summary(a)));
    for d in &a.drift {
        let _ = writeln!(s, "- {}", escape(&budget_line(d, &a.name)));
    }
    let _ = writeln!(s, "\n| {} |", HEADERS.join(" | "));
    let _ = writeln!(s, "|{}", "---|".repeat(HEADERS.len()));
    for d in &a.drift {
        let cells: Vec<String> = row(d).iter().map(|c| escape(c)).collect();
        let _ = writeln!(s, "| {} |", cells.join(" | "));
    }
    s.push('\n');
    s
}

/// The HTML rendering (text through `esc`), or "".
pub fn html(r: &Report, esc: impl Fn(&str) -> String) -> String {
    let Some(a) = &r.anchor else {
        return String::new();
    };
    let mut s = String::from("<section><h2>Drift against the anchor</h2>\n<ul>");
    let _ = write!(s, "<li>{}</li>", esc(&summary(a)));
    for d in &a.drift {
        let _ = write!(s, "<li>{}</li>", esc(&budget_line(d, &a.name)));
    }
    s.push_str("</ul>\n<table><thead><tr>");
    for h in HEADERS {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s.push_str("</tr></thead><tbody>\n");
    for d in &a.drift {
        let failing = matches!(
            d.status,
            crate::model::ledger::DriftStatus::Crossed | crate::model::ledger::DriftStatus::Added
        );
        s.push_str(if failing {
            "<tr class=\"failing\">"
        } else {
            "<tr>"
        });
        for c in row(d) {
            let _ = write!(s, "<td>{}</td>", esc(&c));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></section>\n");
    s
}
