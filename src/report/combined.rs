//! Several gate files, one report: the reports of `check a.toml b.toml` (one analysis per file)
//! combined into one verdict (the worst), one headline and a section per gate file, in every
//! format. Each section is that file's own report as its renderer writes it; the combined
//! Markdown carries one marker (the sticky comment's) whose state digest covers every file's.

use std::fmt::Write;

use crate::model::{CombinedReport, GateFileReport, Report, Verdict, SCHEMA_VERSION};
use crate::numbers::count;
use crate::report::markdown::{self, escape, marker_with_state, Page};
use crate::report::Format;

/// Combines the per-file reports: the worst verdict and a headline naming the first failing
/// file and its reason.
pub fn combine(files: Vec<GateFileReport>) -> CombinedReport {
    let failed: Vec<&GateFileReport> = files
        .iter()
        .filter(|f| f.report.verdict == Verdict::Fail)
        .collect();
    let n = count(files.len(), "gate file", "gate files");
    let worst = files
        .iter()
        .map(|f| f.report.verdict)
        .fold(Verdict::Untouched, Verdict::worst);
    let amber: Vec<&GateFileReport> = files
        .iter()
        .filter(|f| f.report.verdict == Verdict::Inconclusive)
        .collect();
    let (verdict, headline) = match failed.first() {
        None if worst == Verdict::Inconclusive => (
            Verdict::Inconclusive,
            format!(
                "INCONCLUSIVE: {} of {n} inconclusive, none failed; {}: {}",
                amber.len(),
                crate::safe_text::shown(&amber[0].report.gate_id),
                reason(&amber[0].report)
            ),
        ),
        None if worst == Verdict::Untouched => (
            Verdict::Untouched,
            format!("UNTOUCHED: {} of {n} untouched", files.len()),
        ),
        None => (
            Verdict::Pass,
            format!("PASS: {} of {n} passed", files.len()),
        ),
        Some(first) => (
            Verdict::Fail,
            format!(
                "FAIL: {} of {n} failed; {}: {}",
                failed.len(),
                crate::safe_text::shown(&first.report.gate_id),
                reason(&first.report)
            ),
        ),
    };
    CombinedReport {
        schema_version: SCHEMA_VERSION,
        verdict,
        headline,
        gate_files: files,
    }
}

/// A report's headline without its "FAIL: " / "PASS: ".
fn reason(r: &Report) -> &str {
    crate::model::headline_reason(&r.headline)
}

pub fn render(c: &CombinedReport, format: Format) -> String {
    match format {
        Format::Text => text(c),
        Format::Markdown => markdown(c, &Page::default()),
        Format::Json => json(c),
        Format::Junit => {
            let reports: Vec<&Report> = c.gate_files.iter().map(|f| &f.report).collect();
            super::junit::render_all(&reports)
        }
    }
}

/// The combined headline, then each file's text report under its name.
pub fn text(c: &CombinedReport) -> String {
    let mut s = format!("rag-gate: {}\n", c.headline);
    for f in &c.gate_files {
        let _ = write!(
            s,
            "\n== {} ==\n{}",
            crate::safe_text::shown(&f.file),
            super::text::render(&f.report)
        );
    }
    s
}

pub fn json(c: &CombinedReport) -> String {
    let mut s = serde_json::to_string_pretty(c).expect("the report model always serialises");
    s.push('\n');
    s
}

/// The sticky comment's key for a set of gate files: their keys, sorted, joined by `+`.
pub fn key(c: &CombinedReport) -> String {
    let mut keys: Vec<&str> = c.gate_files.iter().map(|f| f.key.as_str()).collect();
    keys.sort_unstable();
    keys.join("+")
}

/// The state digest of the combined comment: every file's own digest, keyed by its key (so a
/// change in one file's verdict or gated rows changes it).
pub fn state_digest(c: &CombinedReport) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in &c.gate_files {
        for part in [f.key.as_str(), &markdown::state_digest(&f.report)] {
            for b in part.bytes().chain([0xff]) {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    format!("{h:016x}")
}

/// The combined Markdown (PR comment, job summary): one marker, the combined headline, a line
/// per gate file, then a section per file (its own report without its marker, trimmed to an
/// equal share of `page.limit`).
pub fn markdown(c: &CombinedReport, page: &Page) -> String {
    let mut s = String::new();
    let key = page.key.clone().unwrap_or_else(|| key(c));
    let _ = writeln!(s, "{}", marker_with_state(&key, &state_digest(c)));
    let (sign, word) = icon(c.verdict);
    let _ = writeln!(s, "## {sign} rag-gate {word}: {}\n", escape(reason_of(c)));
    for f in &c.gate_files {
        let (i, _) = icon(f.report.verdict);
        let _ = writeln!(
            s,
            "- {i} **{}** ({}): {}",
            markdown::name(&f.report.gate_id),
            markdown::code(&f.file),
            escape(reason(&f.report))
        );
    }
    s.push('\n');
    let share = page
        .limit
        .map(|l| l.saturating_sub(s.len() + 256) / c.gate_files.len().max(1));
    for f in &c.gate_files {
        let section = Page {
            limit: share,
            key: Some(f.key.clone()),
            ..page.clone()
        };
        let body = markdown::render_page(&f.report, &section);
        // The file's own marker would make this comment look like that file's sticky comment.
        let body = body.split_once('\n').map_or("", |(_, rest)| rest);
        let _ = write!(s, "---\n\n#### {}\n\n{body}\n", markdown::code(&f.file));
    }
    s
}

fn reason_of(c: &CombinedReport) -> &str {
    crate::model::headline_reason(&c.headline)
}

fn icon(v: Verdict) -> (&'static str, &'static str) {
    v.icon()
}

/// One HTML page with every file's report: the first file's page, with the others' `<main>`
/// contents after its own, each under its file's name.
pub fn html(c: &CombinedReport) -> String {
    let pages: Vec<String> = c
        .gate_files
        .iter()
        .map(|f| super::html::render(&f.report))
        .collect();
    let main_of = |p: &str| -> String {
        let start = p.find("<main>").map_or(0, |i| i + "<main>".len());
        let end = p.rfind("</main>").unwrap_or(p.len());
        p[start..end].to_string()
    };
    let Some(first) = pages.first() else {
        return String::new();
    };
    let mut inner = format!("<h1>rag-gate: {}</h1>\n", super::html::esc(&c.headline));
    for (f, p) in c.gate_files.iter().zip(&pages) {
        let _ = write!(
            inner,
            "<section><h2>{}</h2>\n{}</section>\n",
            super::html::esc(&f.file),
            main_of(p)
        );
    }
    let start = first.find("<main>").map_or(0, |i| i + "<main>".len());
    let end = first.rfind("</main>").unwrap_or(first.len());
    format!("{}{inner}{}", &first[..start], &first[end..])
}
