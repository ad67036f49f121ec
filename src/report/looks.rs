//! The pull request across runs in text, Markdown and HTML: the attempt line of a re-run ("attempt
//! 3 of abc1234: judged on 3 runs (earlier verdicts FAIL, FAIL) at 99.875%, the level left after
//! 2 earlier attempts that did not pass …") and the history of looks (one
//! row per pushed commit: its attempts, verdict and gated estimates), with the flag for a
//! fail → pass by changes within the noise. "" when the report has neither, so other reports do
//! not change.

use std::fmt::Write;

use crate::model::looks::{AttemptsReport, Look};
use crate::model::Report;
use crate::numbers::signed;

const HEADERS: [&str; 5] = ["look", "commit", "attempts", "verdict", "gated estimates"];
/// Gated estimates shown per look (the failing ones first).
const ROWS_SHOWN: usize = 3;

fn short(commit: &str) -> &str {
    commit.get(..7).unwrap_or(commit)
}

/// "attempt 3 of abc1234: judged on 3 runs (earlier verdicts FAIL, FAIL)", and what happened to
/// earlier results that were not pooled.
pub fn attempt_line(a: &AttemptsReport) -> String {
    let verdicts: Vec<String> = a
        .earlier
        .iter()
        .map(|e| e.verdict.as_str().to_uppercase())
        .collect();
    let mut s = format!(
        "attempt {} of {}: judged on {} ({} {})",
        a.attempt,
        short(&a.commit),
        crate::numbers::count(a.runs, "run", "runs"),
        if verdicts.len() == 1 {
            "earlier verdict"
        } else {
            "earlier verdicts"
        },
        verdicts.join(", ")
    );
    s.push_str(&level_words(a));
    if let Some(f) = &a.summarised {
        let counts: Vec<String> = f
            .verdicts
            .iter()
            .map(|(v, n)| format!("{n} {}", v.to_uppercase()))
            .collect();
        let how = match f.results.as_str() {
            "pooled" => format!(
                "their results pooled as {}",
                crate::numbers::count(f.runs, "run", "runs")
            ),
            "identical" => "identical results, counted once".into(),
            _ => "results not kept, not judged".into(),
        };
        let _ = write!(
            s,
            "; attempts {}–{} summarised ({}): {how}",
            f.first,
            f.last,
            counts.join(", ")
        );
    }
    let said = |what: &str| {
        a.earlier
            .iter()
            .filter(|e| e.results == what)
            .map(|e| e.attempt.to_string())
            .collect::<Vec<_>>()
    };
    for (what, words) in [
        ("identical", "identical results, counted once"),
        ("lost", "results not kept, not judged"),
    ] {
        let which = said(what);
        if !which.is_empty() {
            let noun = if which.len() == 1 {
                "attempt"
            } else {
                "attempts"
            };
            let _ = write!(s, "; {noun} {}: {words}", which.join(", "));
        }
    }
    s.push_str(&beyond_results(a));
    s
}

/// The level the attempt was judged at: " at 95%", or after failing attempts " at 99.875%,
/// the level left after 2 earlier attempts that did not pass (max-drop and max-change;
/// stats::spending)".
fn level_words(a: &AttemptsReport) -> String {
    let level = crate::verdict::spent::level(a.confidence);
    if a.failed_before == 0 {
        return format!(" at {level}");
    }
    format!(
        " at {level}, the level left after {} that did not pass or {} lost (its max-drop and \
         max-change rules)",
        crate::numbers::count(
            a.failed_before as usize,
            "earlier attempt",
            "earlier attempts"
        ),
        if a.failed_before == 1 { "was" } else { "were" }
    )
}

/// The rules beyond the per-query results: how the pooled ones read the attempts, and which
/// read the newest alone.
fn beyond_results(a: &AttemptsReport) -> String {
    let mut s = String::new();
    if !a.pooled.is_empty() {
        let rules: Vec<String> = a
            .pooled
            .iter()
            .map(|r| format!("{} (over {} attempts: {})", r.rule, r.attempts, r.how))
            .collect();
        let _ = write!(s, "; pooled beyond the results: {}", rules.join("; "));
    }
    if !a.judged_alone.is_empty() {
        let rules: Vec<&str> = a.judged_alone.iter().map(|r| r.rule.as_str()).collect();
        let _ = write!(
            s,
            "; judged on the newest attempt alone: {}",
            rules.join("; ")
        );
    }
    s
}

fn estimates(l: &Look) -> String {
    let mut rows: Vec<_> = l.rows.iter().collect();
    rows.sort_by_key(|r| r.passed);
    let mut shown: Vec<String> = rows
        .iter()
        .take(ROWS_SHOWN)
        .map(|r| {
            format!(
                "{} on {} {} [{}, {}]{}",
                r.metric,
                r.slice,
                signed(r.estimate),
                signed(r.ci[0]),
                signed(r.ci[1]),
                if r.passed { "" } else { " ✗" }
            )
        })
        .collect();
    if rows.len() > ROWS_SHOWN {
        shown.push(format!("{} more", rows.len() - ROWS_SHOWN));
    }
    shown.join("; ")
}

fn row(i: usize, l: &Look) -> Vec<String> {
    vec![
        (i + 1).to_string(),
        short(&l.commit).to_string(),
        l.attempts.to_string(),
        l.verdict.as_str().to_uppercase(),
        estimates(l),
    ]
}

/// The text rendering: the attempt line and the looks, or "".
pub fn text(r: &Report, table: impl Fn(&[&str], &[Vec<String>]) -> String) -> String {
    let mut s = String::new();
    if let Some(a) = &r.attempts {
        let _ = writeln!(s, "{}", crate::safe_text::one_line(&attempt_line(a)));
    }
    let Some(l) = &r.looks else {
        return s;
    };
    let _ = writeln!(s, "\nHistory of looks ({} commits checked)", l.looks.len());
    if let Some(t) = &l.tuning {
        let _ = writeln!(s, "  possible tuning: {}", crate::safe_text::one_line(t));
    }
    let rows: Vec<Vec<String>> = l
        .looks
        .iter()
        .enumerate()
        .map(|(i, look)| row(i, look))
        .collect();
    s.push_str(&table(&HEADERS, &rows));
    s
}

/// The Markdown attempt line, or "".
pub fn markdown_attempt(r: &Report, escape: impl Fn(&str) -> String) -> String {
    r.attempts
        .as_ref()
        .map(|a| format!("**{}**\n\n", escape(&attempt_line(a))))
        .unwrap_or_default()
}

/// The Markdown history of looks (cells through `escape`), or "".
pub fn markdown(r: &Report, escape: impl Fn(&str) -> String) -> String {
    let Some(l) = &r.looks else {
        return String::new();
    };
    let mut s = format!(
        "\n**History of looks** ({} commits checked)\n\n",
        l.looks.len()
    );
    if let Some(t) = &l.tuning {
        let _ = writeln!(s, "> [!WARNING]\n> **Possible tuning:** {}\n", escape(t));
    }
    let _ = writeln!(s, "| {} |", HEADERS.join(" | "));
    let _ = writeln!(s, "|{}", "---|".repeat(HEADERS.len()));
    for (i, look) in l.looks.iter().enumerate() {
        let cells: Vec<String> = row(i, look).iter().map(|c| escape(c)).collect();
        let _ = writeln!(s, "| {} |", cells.join(" | "));
    }
    s.push('\n');
    s
}

/// The HTML attempt line and history of looks (text through `esc`), or "".
pub fn html(r: &Report, esc: impl Fn(&str) -> String) -> String {
    let mut s = String::new();
    if let Some(a) = &r.attempts {
        let _ = writeln!(s, "<p class=\"facts\">{}</p>", esc(&attempt_line(a)));
    }
    let Some(l) = &r.looks else {
        return s;
    };
    let _ = write!(
        s,
        "<section><h2>History of looks</h2>\n<p>{} commits checked</p>",
        l.looks.len()
    );
    if let Some(t) = &l.tuning {
        let _ = write!(s, "<p class=\"warning\">possible tuning: {}</p>", esc(t));
    }
    s.push_str("\n<table><thead><tr>");
    for h in HEADERS {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s.push_str("</tr></thead><tbody>\n");
    for (i, look) in l.looks.iter().enumerate() {
        s.push_str(if look.verdict == crate::model::Verdict::Fail {
            "<tr class=\"failing\">"
        } else {
            "<tr>"
        });
        for c in row(i, look) {
            let _ = write!(s, "<td>{}</td>", esc(&c));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></section>\n");
    s
}
