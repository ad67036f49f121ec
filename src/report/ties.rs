//! The tie sensitivity section of a check's report (text, Markdown, HTML): per gated metric and
//! side, the queries whose value depends on the order of tied scores and the mean between the
//! least and the most favourable orders; per gate, its decision with trec_eval's order and with
//! both sides at opposite extremes. Every renderer returns "" when the report has no section.

use std::fmt::Write;

use crate::model::{Report, TieGate, TieMetric};
use crate::safe_text::shown;

/// The metric table's column heads.
const METRIC_HEADS: [&str; 5] = [
    "metric",
    "side",
    "queries depending on ties",
    "mean (trec_eval order)",
    "least … most favourable",
];

/// The gate table's column heads.
const GATE_HEADS: [&str; 5] = [
    "gate",
    "today",
    "against the change",
    "for the change",
    "could change",
];

/// What the two extreme passes are, in words.
const LEGEND: &str = "trec_eval orders tied scores by docid descending; \"against the change\": the candidate's tied documents in their least favourable order and the baseline's in their most favourable; \"for the change\": the reverse";

fn metric_row(m: &TieMetric) -> [String; 5] {
    let d = match (m.worst_mean, m.best_mean) {
        (Some(lo), Some(hi)) => crate::numbers::range_digits(lo, hi),
        _ => 4,
    };
    let f = |x: Option<f64>| x.map_or("—".into(), |v| format!("{v:.d$}"));
    [
        m.metric.clone(),
        m.side.clone(),
        format!(
            "{} of {} ({} tied groups)",
            m.queries_depending, m.evaluated, m.tie_groups
        ),
        f(m.mean),
        format!("{} … {}", f(m.worst_mean), f(m.best_mean)),
    ]
}

fn gate_row(g: &TieGate) -> [String; 5] {
    [
        format!("#{} {} on {} ({})", g.gate, g.metric, g.slice, g.rule),
        format!("{} ({:.4})", g.decision, g.value),
        format!("{} ({:.4})", g.against, g.against_value),
        format!("{} ({:.4})", g.for_decision, g.for_value),
        if g.could_change { "yes" } else { "no" }.into(),
    ]
}

/// Lines for the terminal report, or "".
pub fn text(r: &Report, table: fn(&[&str], &[Vec<String>]) -> String) -> String {
    let Some(t) = &r.ties else {
        return String::new();
    };
    let mut s = String::from("\nTie sensitivity (the order of tied scores)\n");
    // Metric and slice names come from the gate file: every cell is shown safely.
    let safe = |r: [String; 5]| r.iter().map(|c| shown(c)).collect::<Vec<String>>();
    let rows: Vec<Vec<String>> = t.metrics.iter().map(|m| safe(metric_row(m))).collect();
    s.push_str(&table(&METRIC_HEADS, &rows));
    if !t.gates.is_empty() {
        let rows: Vec<Vec<String>> = t.gates.iter().map(|g| safe(gate_row(g))).collect();
        s.push_str(&table(&GATE_HEADS, &rows));
    }
    let _ = writeln!(s, "  {LEGEND}");
    s
}

/// A Markdown block (ending in a blank line), or "".
pub fn markdown(r: &Report, escape: impl Fn(&str) -> String) -> String {
    let Some(t) = &r.ties else {
        return String::new();
    };
    let changing = t.gates.iter().filter(|g| g.could_change).count();
    let mut s = format!(
        "<details><summary>Tie sensitivity: {} the order of tied scores could change</summary>\n\n",
        crate::numbers::count(changing, "gate", "gates")
    );
    let md = |s: &mut String, heads: &[&str], rows: Vec<[String; 5]>| {
        let _ = writeln!(s, "| {} |", heads.join(" | "));
        let _ = writeln!(s, "|{}", "---|".repeat(heads.len()));
        for r in rows {
            let cells: Vec<String> = r.iter().map(|c| escape(c)).collect();
            let _ = writeln!(s, "| {} |", cells.join(" | "));
        }
        s.push('\n');
    };
    md(
        &mut s,
        &METRIC_HEADS,
        t.metrics.iter().map(metric_row).collect(),
    );
    if !t.gates.is_empty() {
        md(&mut s, &GATE_HEADS, t.gates.iter().map(gate_row).collect());
    }
    let _ = write!(s, "{}\n\n</details>\n\n", escape(LEGEND));
    s
}

/// An HTML `<section>`, or "".
pub fn html(r: &Report, esc: fn(&str) -> String) -> String {
    let Some(t) = &r.ties else {
        return String::new();
    };
    let mut s = String::from("<section><h2>Tie sensitivity</h2>\n");
    let tab = |s: &mut String, heads: &[&str], rows: Vec<[String; 5]>| {
        s.push_str("<table><thead><tr>");
        for h in heads {
            let _ = write!(s, "<th>{}</th>", esc(h));
        }
        s.push_str("</tr></thead><tbody>\n");
        for r in rows {
            s.push_str("<tr>");
            for c in r {
                let _ = write!(s, "<td>{}</td>", esc(&c));
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</tbody></table>\n");
    };
    tab(
        &mut s,
        &METRIC_HEADS,
        t.metrics.iter().map(metric_row).collect(),
    );
    if !t.gates.is_empty() {
        tab(&mut s, &GATE_HEADS, t.gates.iter().map(gate_row).collect());
    }
    let _ = writeln!(s, "<p class=\"legend\">{}</p></section>", esc(LEGEND));
    s
}
