//! The two sides' fingerprints against each other: a difference in the qrels, query set, corpus,
//! chunk map, metric version or a compared metric's definition is an error (exit 2) listing each
//! field with both values; a run-context difference is a report line; a side without a
//! fingerprint is a note ("protocol could not be checked"), or an error under
//! `[protocol] require = true`.

use super::{context_differences, differences, Protocol};
use crate::error::{Error, Result};
pub use crate::model::{ProtocolField as Field, ProtocolReport, ProtocolStatus as Status};
use crate::safe_text::shown;

/// One side as the check sees it.
pub struct Side<'a> {
    /// "baseline" or "candidate".
    pub name: &'a str,
    /// The input as written in the gate file (or on the command line).
    pub written: &'a str,
    pub protocol: Option<&'a Protocol>,
    /// True when `check` evaluated this side's run itself.
    pub evaluated_here: bool,
}

/// Checks that the two sides were measured the same way for `metrics`.
pub fn verify(
    require: bool,
    base: &Side,
    cand: &Side,
    metrics: &[String],
) -> Result<ProtocolReport> {
    let (b, c) = match (base.protocol, cand.protocol) {
        (Some(b), Some(c)) => (b, c),
        _ => return unchecked(require, base, cand),
    };
    let diffs = differences(b, c, metrics);
    if !diffs.is_empty() {
        let lines: Vec<String> = diffs
            .iter()
            .map(|d| {
                format!(
                    "  {}: baseline {} | candidate {}",
                    shown(&d.field),
                    shown(&d.baseline),
                    shown(&d.candidate)
                )
            })
            .collect();
        return Err(Error::Usage(format!(
            "protocol mismatch: {} and {} were not measured the same way, so their metrics are not comparable ({} field(s) differ):\n{}",
            shown(base.written),
            shown(cand.written),
            diffs.len(),
            lines.join("\n")
        )));
    }
    let shared = base.evaluated_here && cand.evaluated_here;
    Ok(ProtocolReport {
        status: if shared {
            Status::Shared
        } else {
            Status::Checked
        },
        hash: Some(b.hash(metrics)),
        fields: b
            .fields(metrics)
            .into_iter()
            .map(|(field, value)| Field { field, value })
            .collect(),
        baseline_context: b.run_context.clone(),
        candidate_context: c.run_context.clone(),
        context_changes: context_differences(b, c),
        note: None,
    })
}

fn unchecked(require: bool, base: &Side, cand: &Side) -> Result<ProtocolReport> {
    let lacking: Vec<&Side> = [base, cand]
        .into_iter()
        .filter(|s| s.protocol.is_none())
        .collect();
    let names: Vec<String> = lacking
        .iter()
        .map(|s| format!("{} ({})", shown(s.written), s.name))
        .collect();
    if require {
        return Err(Error::Usage(format!(
            "[protocol] require = true, but {} carr{} no protocol fingerprint (FILE.protocol.json, written by `rag-gate eval -o FILE`); evaluate both sides with rag-gate eval, or give runs to check",
            names.join(" and "),
            if names.len() == 1 { "ies" } else { "y" }
        )));
    }
    // Side names, not paths: the paths are in the report's inputs already.
    let sides: Vec<&str> = lacking.iter().map(|s| s.name).collect();
    let ctx = |s: &Side| {
        s.protocol
            .map(|p| p.run_context.clone())
            .unwrap_or_default()
    };
    Ok(ProtocolReport {
        status: Status::Unchecked,
        hash: None,
        fields: Vec::new(),
        baseline_context: ctx(base),
        candidate_context: ctx(cand),
        context_changes: Vec::new(),
        note: Some(format!(
            "protocol could not be checked: the {} ha{} no fingerprint (FILE.protocol.json from `rag-gate eval -o FILE`), so qrels, query set, corpus and metric definitions may differ between the sides",
            sides.join(" and the "),
            if sides.len() == 1 { "s" } else { "ve" }
        )),
    })
}
