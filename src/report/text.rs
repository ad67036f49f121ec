//! Plain-text renderer for the terminal, in the order a reviewer reads: the verdict, its
//! reasons (the gates), the deltas, the worst regressions, the warnings; then the details
//! (judged coverage, noise, ties, the judge, the notes) and the protocol's status line. The full
//! protocol table only with `--details` (`[report] details = true`); JSON and HTML always
//! carry it. Each section is one function.

use crate::model::{label_legend, Comparison, GateResult, GateStatus, Report};
use crate::numbers::{plain, signed};
use crate::safe_text::{one_line, shown};

pub fn render(r: &Report) -> String {
    let mut out = String::new();
    verdict_section(&mut out, r);
    reasons_section(&mut out, r);
    deltas_section(&mut out, r);
    regressions_section(&mut out, r);
    warnings_section(&mut out, r);
    details_section(&mut out, r);
    protocol_text(&mut out, r);
    out
}

/// The verdict: the headline and the sample it rests on.
fn verdict_section(out: &mut String, r: &Report) {
    header_text(out, r);
}

/// Why the verdict is what it is: the looks so far, the gates, the anchor's drift gates.
fn reasons_section(out: &mut String, r: &Report) {
    out.push_str(&super::looks::text(r, table));
    gates_text(out, r);
    out.push_str(&super::anchor::text(r, table));
    out.push_str(&super::probe::text(r, table));
}

/// The deltas of every comparison, then the run-level (efficiency) figures.
fn deltas_section(out: &mut String, r: &Report) {
    deltas_text(out, r);
    out.push_str(&super::efficiency::text(r, table));
}

/// The worst per-query regressions and the queries one side lacked.
fn regressions_section(out: &mut String, r: &Report) {
    worst_text(out, r);
    dropped_text(out, r);
}

/// The warnings: what a reader must act on or weigh.
fn warnings_section(out: &mut String, r: &Report) {
    notices_text(out, "Warnings", &r.warnings);
}

/// What the figures rest on: judged coverage, noise, tie sensitivity, the judge, the notes.
fn details_section(out: &mut String, r: &Report) {
    judged_text(out, r);
    out.push_str(&super::noise::text(r));
    out.push_str(&super::ties::text(r, table));
    out.push_str(&super::judge::text(r, table));
    notices_text(out, "Notes", &r.notes);
}

/// The two header lines: gate id and headline, then the sample and the resampling settings.
fn header_text(out: &mut String, r: &Report) {
    // Names come from the pull request: each is one visible line, cut (`safe_text`).
    out.push_str(&format!(
        "rag-gate {}: {}\n",
        shown(&r.gate_id),
        one_line(&r.headline)
    ));
    out.push_str(&format!(
        "{} · unit {} · {} {}% interval · {} resamples · seed {}\n",
        super::words::paired_count(r),
        r.unit,
        super::words::method(r),
        fmt_pct(r.confidence),
        r.resamples,
        r.seed
    ));
    for line in super::words::resolution_lines(r) {
        out.push_str(&format!("{}\n", one_line(&line)));
    }
    if let Some(b) = &r.baseline {
        out.push_str(&format!("baseline: {}\n", one_line(&b.line)));
    }
}

/// The gates table (when there are gates) and the line saying how p was computed.
fn gates_text(out: &mut String, r: &Report) {
    if !r.gates.is_empty() {
        out.push_str("\nGates\n");
        let rows: Vec<Vec<String>> = r.gates.iter().map(gate_row).collect();
        out.push_str(&table(
            &[
                "gate",
                "metric",
                "slice",
                "rule",
                "value",
                "threshold",
                "result",
                "label",
                "p",
                "p (Holm)",
                "decided by",
            ],
            &rows,
        ));
    }
    if let Some(g) = r.gates.first() {
        out.push_str(&format!(
            "  p: {}; Holm over {}\n",
            super::words::p_test(r),
            crate::numbers::count(g.family_size, "gated comparison", "gated comparisons")
        ));
    }
}

/// One row of the gates table.
fn gate_row(g: &GateResult) -> Vec<String> {
    vec![
        format!("#{}", g.gate),
        format!("{}{}", shown(&g.name()), g.runs_note()),
        shown(&g.slice),
        g.rule.clone(),
        plain(g.value),
        plain(g.threshold),
        match (g.status, g.fails_build) {
            (GateStatus::Pass, _) => "pass".into(),
            (GateStatus::Fail, _) => "FAIL".into(),
            (GateStatus::TooSmall, false) => "not judged (warn)".into(),
            (GateStatus::TooSmall, true) => "not judged (FAIL)".into(),
            (GateStatus::Untouched, _) => "untouched".into(),
            (GateStatus::Inconclusive, _) => "INCONCLUSIVE".into(),
        },
        g.label.as_str().into(),
        fmt_p(g.p_value),
        fmt_p(g.p_adjusted),
        g.decided_by.clone(),
    ]
}

/// The deltas table, the label legend and the Monte-Carlo re-run footnote.
fn deltas_text(out: &mut String, r: &Report) {
    out.push_str("\nDeltas (candidate − baseline)\n");
    let ci_head = format!("{}% CI", fmt_pct(r.confidence));
    let practical_head = match r.comparisons.first() {
        Some(c) => format!("w/t/l at ±{}", plain(c.practical_tie)),
        None => "w/t/l (practical)".into(),
    };
    let rows: Vec<Vec<String>> = r
        .comparisons
        .iter()
        .map(|c| delta_row(c, &r.view))
        .collect();
    out.push_str(&table(
        &[
            "metric",
            "slice",
            "n",
            "baseline",
            "candidate",
            "delta",
            "statistic",
            &ci_head,
            "p",
            "MDE",
            "label",
            "win/tie/loss",
            &practical_head,
        ],
        &rows,
    ));
    out.push_str(&format!("  {}\n", label_legend(&r.comparisons)));
    if let Some(c) = r.comparisons.iter().find(|c| c.mc_rerun) {
        out.push_str(&format!(
            "  * bound within 3 Monte-Carlo SE of a threshold: re-run with {}× the resamples\n",
            c.resamples_used / r.resamples.max(1)
        ));
    }
}

/// One row of the deltas table. A comparison too small for an interval says so in place of its
/// interval and MDE (too few units for either to mean anything).
fn delta_row(c: &Comparison, view: &crate::model::TextView) -> Vec<String> {
    let too_small = view.too_small(c);
    let small = too_small.is_some();
    vec![
        shown(&c.name()),
        shown(&c.slice),
        match c.groups {
            Some(g) => format!("{} ({g} groups)", c.n),
            None => c.n.to_string(),
        },
        // The statistic's value on each side (the means for the mean), as Markdown and HTML.
        plain(c.baseline_value),
        plain(c.candidate_value),
        signed(c.delta),
        if c.statistic == "mean" {
            String::new()
        } else {
            format!("{} {}", c.statistic, signed(c.estimate))
        },
        match too_small {
            Some(words) => words,
            None => format!(
                "[{}, {}]{}",
                signed(c.ci[0]),
                signed(c.ci[1]),
                if c.mc_rerun { "*" } else { "" }
            ),
        },
        fmt_p(c.p_value),
        match small || c.mde.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            true => "—".into(),
            false => plain(c.mde),
        },
        // An untouched comparison is not read against a margin.
        match c.label {
            Some(crate::model::Label::Untouched) => c.label_str().to_string(),
            _ => format!("{} (±{})", c.label_str(), plain(c.margin)),
        },
        format!("{}/{}/{}", c.wins, c.ties, c.losses),
        format!(
            "{}/{}/{}",
            c.practical_wins, c.practical_ties, c.practical_losses
        ),
    ]
}

/// The worst per-query regressions of each metric over all queries, one line a metric.
fn worst_text(out: &mut String, r: &Report) {
    let worst = super::worst_per_metric(r);
    if worst.is_empty() {
        return;
    }
    out.push_str("\nWorst regressions (all queries)\n");
    for c in worst {
        let items: Vec<String> = c
            .worst
            .iter()
            .map(|w| {
                format!(
                    "{} {}→{} ({})",
                    shown(&w.query_id),
                    plain(w.baseline),
                    plain(w.candidate),
                    signed(w.delta)
                )
            })
            .collect();
        out.push_str(&format!("  {}: {}\n", shown(&c.metric), items.join(", ")));
    }
}

/// The count of queries dropped because only one side had them (when any were).
fn dropped_text(out: &mut String, r: &Report) {
    if r.pairing.dropped_baseline_only + r.pairing.dropped_candidate_only > 0 {
        out.push_str(&format!(
            "\nDropped (missing = intersect): {} only in baseline, {} only in candidate\n",
            r.pairing.dropped_baseline_only, r.pairing.dropped_candidate_only
        ));
    }
}

/// A bulleted section (the warnings, the notes) when not empty.
fn notices_text(out: &mut String, title: &str, lines: &[String]) {
    if !lines.is_empty() {
        out.push_str(&format!("\n{title}\n"));
        for w in lines {
            out.push_str(&format!("  - {}\n", one_line(w)));
        }
    }
}

/// The judged bounds of the gated comparisons (runs evaluated by check).
fn judged_text(out: &mut String, r: &Report) {
    let rows: Vec<Vec<String>> = r
        .comparisons
        .iter()
        .filter_map(|c| super::judged_row(c, &r.gates).map(Vec::from))
        .collect();
    if rows.is_empty() {
        return;
    }
    out.push_str(
        "\nJudged coverage (one shared judgment per unjudged document; bounds = the assignments that lower / raise the delta most)\n",
    );
    out.push_str(&table(&super::JUDGED_HEADS, &rows));
}

/// The protocol's status and hash (last line); with `details`, every field and the run
/// context first.
fn protocol_text(out: &mut String, r: &Report) {
    let Some(p) = &r.protocol else { return };
    if r.view.details {
        protocol_table(out, p);
    }
    let more = match (r.view.details, p.fields.is_empty()) {
        (false, false) => format!(
            " ({} fields: --details or [report] details = true)",
            p.fields.len()
        ),
        _ => String::new(),
    };
    out.push_str(&format!(
        "protocol {}: {}{more}\n",
        p.status.as_str(),
        p.hash
            .as_deref()
            .map_or("no fingerprint".into(), |h| format!("sha256 {h}"))
    ));
}

/// The protocol table (every field) and each side's run context.
fn protocol_table(out: &mut String, p: &crate::model::ProtocolReport) {
    let rows: Vec<Vec<String>> = p
        .fields
        .iter()
        .map(|f| vec![f.field.clone(), f.value.clone()])
        .collect();
    if !rows.is_empty() {
        out.push_str(&format!("\nProtocol ({})\n", p.status.as_str()));
        out.push_str(&table(&["field", "value"], &rows));
    }
    for (side, ctx) in [
        ("baseline", &p.baseline_context),
        ("candidate", &p.candidate_context),
    ] {
        for (k, v) in ctx {
            out.push_str(&format!(
                "  run context ({side}) {} = {}\n",
                crate::safe_text::shown(k),
                crate::safe_text::shown(v)
            ));
        }
    }
}

/// A p-value with four decimals, or "<0.0001".
pub fn fmt_p(p: f64) -> String {
    if p < 1e-4 {
        "<0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

/// 0.95 → "95", 0.975 → "97.5".
pub fn fmt_pct(confidence: f64) -> String {
    let p = (confidence * 1000.0).round() / 10.0;
    format!("{p}")
}

/// Left-aligned columns separated by two spaces, indented by two.
pub fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    // Every cell one visible line (names from the inputs are in them): invisible characters
    // escaped, nothing cut.
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().map(|c| crate::safe_text::one_line(c)).collect())
        .collect();
    let rows = &rows;
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let mut s = String::from(" ");
        for (cell, w) in cells.iter().zip(&widths) {
            s.push(' ');
            s.push_str(cell);
            s.push_str(&" ".repeat(w - cell.chars().count() + 1));
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
        s
    };
    let mut out = line(headers.to_vec());
    for row in rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}
