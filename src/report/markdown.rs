//! Markdown renderer: the PR comment and the job summary, what a reviewer reads in ten seconds.
//!
//! Layout: a hidden marker line (how the sticky comment is found again), the verdict and the one
//! reason that matters most, the gates, the metric × slice deltas with a text forest plot of each
//! interval against zero, the worst per-query regressions folded in `<details>`, warnings, and a
//! footer with seed, resamples, method and unit. No timestamps: same report, same bytes.
//!
//! Everything that comes from the user's files (metric and slice names, query ids, paths, the
//! gate id) goes through [`escape`] or [`marker`], so it cannot break a table, close the hidden
//! marker, start a code span, @-mention a person or cross-reference an issue.

mod forest;
mod text;

use std::fmt::Write;

use crate::model::{Comparison, GateResult, GateStatus, Report, Verdict, LABEL_LEGEND};
use crate::report::text::fmt_p;
use forest::forest;
pub use text::{code, escape, marker};
use text::{fmt_pct, plain4, signed4};

/// GitHub rejects issue-comment bodies longer than this many characters.
pub const GITHUB_COMMENT_LIMIT: usize = 65_536;

/// What to leave out when the full report does not fit.
#[derive(Clone, Copy)]
struct Detail {
    per_query: bool,
    max_rows: usize,
}

/// The whole report as Markdown.
pub fn render(report: &Report) -> String {
    render_with(
        report,
        Detail {
            per_query: true,
            max_rows: usize::MAX,
        },
    )
}

/// The report in at most `max_chars` bytes (so at most that many characters): drops the
/// per-query detail first, then table rows, and says what it left out; as a last resort it cuts
/// the text. Never fails on size.
pub fn render_trimmed(report: &Report, max_chars: usize) -> String {
    let full = render(report);
    if full.len() <= max_chars {
        return full;
    }
    let mut rows = report.comparisons.len().max(report.gates.len());
    loop {
        let body = render_with(
            report,
            Detail {
                per_query: false,
                max_rows: rows,
            },
        );
        if body.len() <= max_chars {
            return body;
        }
        if rows == 0 {
            return hard_cut(&body, max_chars);
        }
        rows /= 2;
    }
}

fn hard_cut(body: &str, max: usize) -> String {
    const NOTE: &str =
        "\n\n… (cut to fit GitHub's size limit; see the job summary or report file)\n";
    let mut end = max.saturating_sub(NOTE.len());
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{NOTE}", &body[..end])
}

fn render_with(r: &Report, d: Detail) -> String {
    let mut s = String::new();
    let (icon, word) = match r.verdict {
        Verdict::Pass => ("✅", "pass"),
        Verdict::Fail => ("❌", "fail"),
    };
    let _ = writeln!(s, "{}", marker(&r.gate_id));
    let _ = writeln!(s, "### {icon} rag-gate: {word} ({})\n", escape(&r.gate_id));
    // The headline counts what failed ("2 of 6 checks failed (3 gates)"); a report without
    // one gets the count here.
    let failed = r.gates.iter().filter(|g| g.fails_build).count();
    if r.headline.trim().is_empty() && failed > 0 {
        let _ = writeln!(
            s,
            "**{}** · {failed} of {} failed\n",
            reason(r),
            crate::numbers::count(r.gates.len(), "check", "checks")
        );
    } else {
        let _ = writeln!(s, "**{}**\n", reason(r));
    }
    if !d.per_query {
        s.push_str("> Per-query detail was left out to fit GitHub's comment size limit; ");
        s.push_str("the job summary and the report file have it all.\n\n");
    }
    gates_table(&mut s, &r.gates, d.max_rows);
    deltas_table(&mut s, r, d.max_rows);
    forest(&mut s, &r.comparisons, &r.gates, d.max_rows);
    if d.per_query {
        worst(&mut s, &r.comparisons);
    }
    for (title, mark, lines) in [("Warnings", "⚠️ ", &r.warnings), ("Notes", "", &r.notes)] {
        if !lines.is_empty() {
            let _ = writeln!(s, "**{title}**\n");
            for w in lines {
                let _ = writeln!(s, "- {mark}{}", escape(w));
            }
            s.push('\n');
        }
    }
    footer(&mut s, r);
    s
}

/// The report's own headline, or else the worst failing gate in words.
fn reason(r: &Report) -> String {
    if !r.headline.trim().is_empty() {
        return escape(r.headline.trim());
    }
    let find = |g: &GateResult| {
        r.comparisons
            .iter()
            .find(|c| c.metric == g.metric && c.slice == g.slice)
    };
    let worst = r.gates.iter().filter(|g| g.fails_build).min_by(|a, b| {
        let da = find(a).map_or(f64::INFINITY, |c| c.delta);
        let db = find(b).map_or(f64::INFINITY, |c| c.delta);
        da.total_cmp(&db)
    });
    match worst {
        None => format!(
            "{} of {} passed",
            r.gates.iter().filter(|g| g.passed).count(),
            crate::numbers::count(r.gates.len(), "check", "checks")
        ),
        Some(g) => match find(g) {
            Some(c) if c.delta < 0.0 => format!(
                "{} dropped {} [{}, {}] on {}",
                code(&g.metric),
                plain4(-c.delta),
                signed4(c.ci[0]),
                signed4(c.ci[1]),
                escape(&g.slice)
            ),
            _ => format!(
                "{} on {}: {} {} vs threshold {}",
                code(&g.metric),
                escape(&g.slice),
                escape(&g.rule),
                plain4(g.value),
                plain4(g.threshold)
            ),
        },
    }
}

fn gates_table(s: &mut String, gates: &[GateResult], max_rows: usize) {
    if gates.is_empty() {
        return;
    }
    s.push_str(
        "| gate | metric | slice | rule | value | threshold | result | label | p (Holm) |\n",
    );
    s.push_str("|--:|---|---|---|--:|--:|---|---|--:|\n");
    // Failures first when rows must be dropped, so trimming never hides a failed gate.
    let mut order: Vec<&GateResult> = gates.iter().collect();
    if max_rows < gates.len() {
        order.sort_by_key(|g| !g.fails_build);
    }
    for g in order.iter().take(max_rows) {
        let result = match (g.status, g.fails_build) {
            (GateStatus::Pass, _) => "✅ pass",
            (GateStatus::Fail, _) => "❌ **fail**",
            (GateStatus::TooSmall, false) => "⚠️ not judged (too small)",
            (GateStatus::TooSmall, true) => "❌ **not judged (too small)**",
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {result} | {} | {} |",
            g.gate,
            code(&g.metric),
            escape(&g.slice),
            escape(&g.rule),
            plain4(g.value),
            plain4(g.threshold),
            g.label.as_str(),
            fmt_p(g.p_adjusted)
        );
    }
    more_rows(s, gates.len(), max_rows, "gate rows");
}

fn deltas_table(s: &mut String, r: &Report, max_rows: usize) {
    if r.comparisons.is_empty() {
        return;
    }
    let level = format!("{}% CI", fmt_pct(r.confidence));
    let _ = writeln!(
        s,
        "| metric | slice | n | baseline | candidate | Δ | {level} | p | MDE | label | win / tie / loss |"
    );
    s.push_str("|---|---|--:|--:|--:|--:|---|--:|--:|---|---|\n");
    for c in r.comparisons.iter().take(max_rows) {
        let n = match c.groups {
            Some(g) => format!("{} ({g} groups)", c.n),
            None => c.n.to_string(),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {n} | {} | {} | {}{} | [{}, {}]{} | {} | {} | {} | {} / {} / {} |",
            code(&c.metric),
            escape(&c.slice),
            plain4(c.baseline_value),
            plain4(c.candidate_value),
            signed4(c.estimate),
            if c.statistic == "mean" {
                String::new()
            } else {
                format!(" ({})", escape(&c.statistic))
            },
            signed4(c.ci[0]),
            signed4(c.ci[1]),
            if c.mc_rerun { " ↻" } else { "" },
            fmt_p(c.p_value),
            plain4(c.mde),
            c.label_str(),
            c.wins,
            c.ties,
            c.losses
        );
    }
    more_rows(s, r.comparisons.len(), max_rows, "comparison rows");
}

fn more_rows(s: &mut String, total: usize, shown: usize, what: &str) {
    if total > shown {
        let _ = writeln!(
            s,
            "\n_… and {} more {what}, left out to fit the size limit._",
            total - shown
        );
    }
    s.push('\n');
}

fn worst(s: &mut String, cs: &[Comparison]) {
    let with: Vec<&Comparison> = cs.iter().filter(|c| !c.worst.is_empty()).collect();
    if with.is_empty() {
        return;
    }
    let queries: usize = with.iter().map(|c| c.worst.len()).sum();
    let _ = writeln!(
        s,
        "<details><summary>Worst per-query regressions ({queries} rows in {} comparison{})</summary>\n",
        with.len(),
        if with.len() == 1 { "" } else { "s" }
    );
    for c in with {
        let _ = writeln!(s, "**{} · {}**\n", code(&c.metric), escape(&c.slice));
        s.push_str("| query | baseline | candidate | Δ |\n|---|--:|--:|--:|\n");
        for q in &c.worst {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} |",
                escape(&q.query_id),
                plain4(q.baseline),
                plain4(q.candidate),
                signed4(q.delta)
            );
        }
        s.push('\n');
    }
    s.push_str("</details>\n\n");
}

fn footer(s: &mut String, r: &Report) {
    let family = r.gates.first().map_or(0, |g| g.family_size);
    let _ = writeln!(
        s,
        "<sub>p: two-sided paired sign-flip (randomization) test at the {} unit; p (Holm): adjusted \
         over the {family} gated comparisons; MDE: smallest change detectable with 80% power; \
         ↻: interval recomputed with 10× resamples because a bound lay within 3 Monte-Carlo \
         standard errors of a threshold; a gate decided on it says so. {}.</sub>\n",
        escape(&r.unit),
        LABEL_LEGEND
    );
    let p = &r.pairing;
    let _ = writeln!(
        s,
        "<sub>seed {} · {} resamples · {} {}% interval · unit: {} · tie: abs(Δ) ≤ {:e} · paired {} \
         of {} baseline / {} candidate queries · baseline {} · candidate {}</sub>",
        r.seed,
        r.resamples,
        escape(&r.method),
        fmt_pct(r.confidence),
        escape(&r.unit),
        r.tie_epsilon,
        p.paired,
        p.baseline_queries,
        p.candidate_queries,
        escape(&r.inputs.baseline),
        escape(&r.inputs.candidate)
    );
}
