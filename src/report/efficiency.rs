//! The Efficiency section in text, Markdown and HTML: the run cards' model fields and conditions
//! side by side (differences marked `a → b`), every run-level metric with both sides and the
//! change, and the run-level gates. One set of rows, three renderings; each is "" without run
//! cards, so reports without `[efficiency]` do not change.

use std::fmt::Write;

use crate::model::{CardField, EfficiencyReport, Report, RunGateResult, RunMetric};
use crate::numbers::compact::{change_percent, value};

/// A table: its heading, column names and rows of plain-text cells.
struct Table {
    title: &'static str,
    headers: Vec<&'static str>,
    rows: Vec<Vec<String>>,
}

/// "dimension 1024 → 256, dtype float32 → int8": the fields that differ.
pub fn changes(fields: &[CardField]) -> Vec<String> {
    fields
        .iter()
        .filter(|f| f.changed)
        .map(|f| {
            format!(
                "{} {} → {}",
                f.key,
                or_dash(&f.baseline),
                or_dash(&f.candidate)
            )
        })
        .collect()
}

fn or_dash(v: &Option<String>) -> String {
    match v.as_deref() {
        None => "—".into(),
        Some("") => "(empty)".into(),
        Some(x) => x.to_string(),
    }
}

fn field_rows(fields: &[CardField]) -> Vec<Vec<String>> {
    fields
        .iter()
        .map(|f| {
            let mark = if f.changed { "changed" } else { "" };
            vec![
                f.key.clone(),
                or_dash(&f.baseline),
                or_dash(&f.candidate),
                mark.into(),
            ]
        })
        .collect()
}

fn metric_row(m: &RunMetric) -> Vec<String> {
    let side = |v: Option<f64>, n: usize| match (v, n) {
        (None, _) => "—".to_string(),
        (Some(x), 1) => value(x),
        (Some(x), n) => format!("{} (mean of {n})", value(x)),
    };
    let change = match (m.change, m.relative_change) {
        (_, Some(r)) => change_percent(r),
        (Some(d), None) => value(d),
        _ => "—".into(),
    };
    let better = match m.higher_is_better {
        Some(true) => "higher",
        Some(false) => "lower",
        None => "unknown",
    };
    vec![
        m.metric.clone(),
        side(m.baseline, m.baseline_n),
        side(m.candidate, m.candidate_n),
        change,
        better.into(),
    ]
}

fn gate_row(g: &RunGateResult) -> Vec<String> {
    let metric = match &g.at {
        Some(a) => format!("{} at {} = {}", g.metric, a.metric, value(a.target)),
        None => g.metric.clone(),
    };
    let threshold = if g.relative {
        format!("{:.1}%", g.threshold * 100.0)
    } else {
        value(g.threshold)
    };
    let interval = g.interval.map_or("—".into(), |[lo, hi]| {
        let f = |x: f64| {
            if g.relative {
                change_percent(x)
            } else {
                value(x)
            }
        };
        format!("[{}, {}]", f(lo), f(hi))
    });
    let result = match g.status {
        crate::model::RunGateStatus::NotJudged => "fail (not judged)".to_string(),
        s => s.as_str().to_string(),
    };
    vec![
        format!("#{}", g.gate),
        metric,
        g.rule.clone(),
        threshold,
        interval,
        format!("{} / {}", g.measurements[0], g.measurements[1]),
        result,
        match g.status {
            crate::model::RunGateStatus::NotJudged => g.detail.clone(),
            _ => format!("{}; {}", g.detail, g.decided_by),
        },
    ]
}

/// The section's tables, in order: model, conditions, metrics, gates (empty ones left out).
fn tables(e: &EfficiencyReport) -> Vec<Table> {
    let t = [
        Table {
            title: "Model",
            headers: vec!["field", "baseline", "candidate", ""],
            rows: field_rows(&e.model),
        },
        Table {
            title: "Conditions",
            headers: vec!["condition", "baseline", "candidate", ""],
            rows: field_rows(&e.conditions),
        },
        Table {
            title: "Run-level metrics",
            headers: vec!["metric", "baseline", "candidate", "change", "better"],
            rows: e.metrics.iter().map(metric_row).collect(),
        },
        Table {
            title: "Run-level gates",
            headers: vec![
                "gate",
                "metric",
                "rule",
                "threshold",
                "interval",
                "n (base / cand)",
                "result",
                "detail",
            ],
            rows: e.gates.iter().map(gate_row).collect(),
        },
    ];
    t.into_iter().filter(|t| !t.rows.is_empty()).collect()
}

/// The lines under the heading: the cards, what changed in the model, the conditions.
fn summary(e: &EfficiencyReport) -> Vec<String> {
    let mut s = vec![format!(
        "run cards: {} (baseline) → {} (candidate)",
        e.baseline_card, e.candidate_card
    )];
    let model = changes(&e.model);
    s.push(if model.is_empty() {
        "model: the same on both sides".into()
    } else {
        format!("model changed: {}", model.join(", "))
    });
    let cond = changes(&e.conditions);
    if !cond.is_empty() {
        s.push(format!("conditions differ: {}", cond.join(", ")));
    }
    s
}

/// The terminal rendering (tables laid out by `table`, the text report's), or "".
pub fn text(r: &Report, table: impl Fn(&[&str], &[Vec<String>]) -> String) -> String {
    let Some(e) = &r.efficiency else {
        return String::new();
    };
    let mut s = String::from("\nEfficiency\n");
    for line in summary(e) {
        let _ = writeln!(s, "  {}", crate::safe_text::one_line(&line));
    }
    for t in tables(e) {
        let _ = writeln!(s, "  {}", t.title);
        let rows: Vec<Vec<String>> = t
            .rows
            .iter()
            .map(|r| r.iter().map(|c| crate::safe_text::one_line(c)).collect())
            .collect();
        s.push_str(&table(&t.headers, &rows));
    }
    s
}

/// The Markdown rendering (cells through `escape`), or "".
pub fn markdown(r: &Report, escape: impl Fn(&str) -> String) -> String {
    let Some(e) = &r.efficiency else {
        return String::new();
    };
    let mut s = String::from("**Efficiency** (run cards)\n\n");
    for line in summary(e) {
        let _ = writeln!(s, "- {}", escape(&line));
    }
    for t in tables(e) {
        // The cards' fields fold away in a PR comment; the metrics and gates stay in view.
        let folded = matches!(t.title, "Model" | "Conditions");
        if folded {
            let _ = writeln!(s, "\n<details><summary>{}</summary>\n", t.title);
        } else {
            let _ = writeln!(s, "\n**{}**\n", t.title);
        }
        let _ = writeln!(s, "| {} |", t.headers.join(" | "));
        let _ = writeln!(s, "|{}", "---|".repeat(t.headers.len()));
        for row in &t.rows {
            let cells: Vec<String> = row.iter().map(|c| escape(c)).collect();
            let _ = writeln!(s, "| {} |", cells.join(" | "));
        }
        if folded {
            s.push_str("\n</details>\n");
        }
    }
    s.push('\n');
    s
}

/// The HTML rendering (text through `esc`), or "".
pub fn html(r: &Report, esc: impl Fn(&str) -> String) -> String {
    let Some(e) = &r.efficiency else {
        return String::new();
    };
    let mut s = String::from("<section><h2>Efficiency</h2>\n<ul>");
    for line in summary(e) {
        let _ = write!(s, "<li>{}</li>", esc(&line));
    }
    s.push_str("</ul>\n");
    for t in tables(e) {
        let _ = write!(s, "<h3>{}</h3>\n<table><thead><tr>", t.title);
        for h in &t.headers {
            let _ = write!(s, "<th>{}</th>", esc(h));
        }
        s.push_str("</tr></thead><tbody>\n");
        for row in &t.rows {
            let failing =
                t.title == "Run-level gates" && row.get(6).is_some_and(|c| c.starts_with("fail"));
            let changed = row.last().is_some_and(|c| c == "changed");
            let class = if failing {
                " class=\"failing\""
            } else if changed {
                " class=\"changed\""
            } else {
                ""
            };
            let _ = write!(s, "<tr{class}>");
            for c in row {
                let _ = write!(s, "<td>{}</td>", esc(c));
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</tbody></table>\n");
    }
    s.push_str("</section>\n");
    s
}
