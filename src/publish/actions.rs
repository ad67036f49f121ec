//! GitHub Actions plumbing that needs no network: workflow-command lines (annotations,
//! warnings), the job summary file and the step outputs file.
//!
//! Escaping follows GitHub's toolkit (`@actions/core` `command.ts`): in the message `%`, CR and
//! LF become `%25`, `%0D`, `%0A`; in property values also `:` and `,` (`%3A`, `%2C`).

use std::io::Write;
use std::path::Path;

use crate::model::{CombinedReport, Report, Verdict};
use crate::safe_text::{one_line, shown, Command, Line};

pub use crate::safe_text::{escape_data, escape_property};

/// GitHub shows at most 10 error annotations per step.
pub const MAX_ANNOTATIONS: usize = 10;

/// `::warning title=rag-gate::msg` under Actions, else `warning: msg`.
pub fn warning(actions: bool, msg: &str) -> Line {
    if actions {
        Command::new("warning", "rag-gate", msg).into()
    } else {
        Line::Text(format!("warning: {}", one_line(msg)))
    }
}

/// One `::error` line per check that fails the build, at most [`MAX_ANNOTATIONS`]: past that, the last line
/// sums up the rest.
pub fn gate_annotations(report: &Report) -> Vec<Line> {
    let mut lines = capped(failed_checks(report, None));
    lines.extend(inconclusive_checks(report, None));
    lines
}

/// One `::warning` line per inconclusive check (amber: neither shown safe nor shown worse), at
/// most [`MAX_ANNOTATIONS`].
fn inconclusive_checks(report: &Report, file: Option<&str>) -> Vec<Line> {
    let head = file.map_or_else(String::new, |f| format!("{}: ", shown(f)));
    report
        .gates
        .iter()
        .filter(|g| g.status == crate::model::GateStatus::Inconclusive)
        .take(MAX_ANNOTATIONS)
        .map(|g| Command::new("warning", "rag-gate", &check_line(&head, g, "inconclusive")).into())
        .collect()
}

/// The `::error` lines of several gate files' reports, each naming its file (the same gate
/// number can fail in two files), at most [`MAX_ANNOTATIONS`] over all of them.
pub fn combined_annotations(c: &CombinedReport) -> Vec<Line> {
    let mut lines = capped(
        c.gate_files
            .iter()
            .flat_map(|f| failed_checks(&f.report, Some(&f.file)))
            .collect(),
    );
    for f in &c.gate_files {
        lines.extend(inconclusive_checks(&f.report, Some(&f.file)));
    }
    lines
}

/// A line per failed check, headed by its gate file when one is given.
fn failed_checks(report: &Report, file: Option<&str>) -> Vec<String> {
    let head = file.map_or_else(String::new, |f| format!("{}: ", shown(f)));
    report
        .gates
        .iter()
        .filter(|g| g.fails_build)
        .map(|g| check_line(&head, g, "failed"))
        .collect()
}

/// "prod.toml: gate 3 failed: ndcg@10 on all (max-drop -0.01): …", one check's annotation text.
fn check_line(head: &str, g: &crate::model::GateResult, outcome: &str) -> String {
    format!(
        "{head}gate {} {outcome}: {} on {} ({} {}): {}",
        g.gate,
        shown(&g.name()),
        shown(&g.slice),
        g.rule,
        g.threshold,
        one_line(&g.detail)
    )
}

/// At most [`MAX_ANNOTATIONS`] lines: past that, the last one sums up the rest.
fn capped(failed: Vec<String>) -> Vec<Line> {
    let mut msgs: Vec<String> = failed.iter().take(MAX_ANNOTATIONS).cloned().collect();
    if failed.len() > MAX_ANNOTATIONS {
        let rest = failed.len() - (MAX_ANNOTATIONS - 1);
        msgs.truncate(MAX_ANNOTATIONS - 1);
        msgs.push(format!(
            "and {rest} more failed gates: see the job summary or the report"
        ));
    }
    msgs.iter()
        .map(|m| Command::new("error", "rag-gate", m).into())
        .collect()
}

/// Opens a runner file for appending. `GITHUB_STEP_SUMMARY` and `GITHUB_OUTPUT` must be regular
/// files (or not exist yet): a FIFO would block the step past every deadline, and a device
/// is no place for a report.
pub fn open_append(path: &Path) -> std::io::Result<std::fs::File> {
    let not_regular = || {
        std::io::Error::other("not a regular file (a FIFO or a device?); refusing to write to it")
    };
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => return Err(not_regular()),
        _ => {}
    }
    let f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    if !f.metadata()?.is_file() {
        return Err(not_regular());
    }
    Ok(f)
}

/// Appends the Markdown report to the job summary file.
pub fn append_summary(path: &Path, markdown: &str) -> std::io::Result<()> {
    let mut f = open_append(path)?;
    let markdown = crate::safe_text::printable(markdown);
    f.write_all(markdown.as_bytes())?;
    if !markdown.ends_with('\n') {
        f.write_all(b"\n")?;
    }
    Ok(())
}

/// Appends `verdict=pass|fail` and `report=<path>` to the step outputs file.
pub fn write_outputs(path: &Path, verdict: Verdict, report: Option<&Path>) -> std::io::Result<()> {
    let mut text = output_line("verdict", verdict.as_str());
    if let Some(p) = report {
        text.push_str(&output_line("report", &p.display().to_string()));
    }
    let mut f = open_append(path)?;
    f.write_all(text.as_bytes())
}

/// Appends `verdict=VALUE` alone (a run with no report, e.g. `not-checked`).
pub fn write_verdict(path: &Path, value: &str) -> std::io::Result<()> {
    open_append(path)?.write_all(output_line("verdict", value).as_bytes())
}

/// `name=value`, or GitHub's `name<<DELIM` form when the value has a line break (so a path
/// cannot smuggle in another output).
fn output_line(name: &str, value: &str) -> String {
    if !value.contains(['\n', '\r']) {
        return format!("{name}={value}\n");
    }
    let mut delim = "ghadelimiter_rag_gate".to_string();
    while value.contains(&delim) {
        delim.push('_');
    }
    format!("{name}<<{delim}\n{value}\n{delim}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_toolkit() {
        assert_eq!(escape_data("50% done\r\nnext"), "50%25 done%0D%0Anext");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
        assert_eq!(
            warning(true, "x\ny").shown(),
            "::warning title=rag-gate::x%0Ay"
        );
        assert_eq!(warning(false, "x").shown(), "warning: x");
    }

    #[test]
    fn outputs_with_line_breaks_use_a_delimiter() {
        assert_eq!(output_line("verdict", "pass"), "verdict=pass\n");
        assert_eq!(
            output_line("report", "a\nverdict=pass"),
            "report<<ghadelimiter_rag_gate\na\nverdict=pass\nghadelimiter_rag_gate\n"
        );
    }

    #[test]
    fn summary_is_appended_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("summary.md");
        std::fs::write(&p, "earlier step\n").unwrap();
        append_summary(&p, "# report").unwrap();
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            "earlier step\n# report\n"
        );
    }
}
