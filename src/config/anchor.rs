//! `[anchor]`: the approved state the `max-drift` rule measures the candidate against (per-query
//! results of a reviewed commit, committed in the repository with its protocol sidecar), its
//! name for the reports, and where main's ledger is read from.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::span::SourceText;
use super::{resolve, Gate, InputKind, InputSpec};
use crate::error::Result;

/// `[anchor]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawAnchor {
    /// The anchor's per-query metric file (its `.protocol.json` beside it is required).
    pub file: Spanned<String>,
    /// The name the reports give it ("v1.4"); default: the anchor file's own record, else its
    /// file stem.
    pub name: Option<Spanned<String>>,
    /// main's ledger; default: `BASELINE.ledger.json` beside the baseline (where the baseline
    /// fetch puts it).
    pub ledger: Option<Spanned<String>>,
}

/// `[anchor]`, checked.
#[derive(Debug, Clone)]
pub struct AnchorSettings {
    pub file: InputSpec,
    pub name: Option<String>,
    pub ledger: Option<InputSpec>,
    /// Where `[anchor]` is written, for errors about it.
    pub span: Option<Range<usize>>,
}

/// Checks `[anchor]` against the gates: a `max-drift` rule needs an anchor, and an anchor with
/// no `max-drift` rule would judge nothing (an error: a reviewer would think it is checked).
pub fn anchor_settings(
    src: &SourceText,
    base: &std::path::Path,
    raw: Option<&Spanned<RawAnchor>>,
    gates: &[Gate],
    id_column: &str,
) -> Result<Option<AnchorSettings>> {
    let drifting = gates.iter().find(|g| g.max_drift.is_some());
    let Some(raw) = raw else {
        return match drifting {
            Some(g) => Err(src.error(
                g.metric_span.clone(),
                format!(
                    "[[gate]] #{} ({}): max-drift needs an [anchor] (file = \"anchors/v1.4.jsonl\", written by `rag-gate anchor write`) to measure the drift against",
                    g.index, g.metric
                ),
            )),
            None => Ok(None),
        };
    };
    let span = Some(raw.span());
    let a = raw.get_ref();
    if drifting.is_none() {
        return Err(src.error(
            span,
            "[anchor] is given but no [[gate]] has max-drift: nothing would be judged against it; add max-drift = 0.02 to a gate, or remove [anchor]",
        ));
    }
    let spec = |s: &Spanned<String>| InputSpec {
        path: resolve(base, s.get_ref()),
        written: s.get_ref().clone(),
        kind: InputKind::Metrics {
            format: None,
            id_column: id_column.to_string(),
            columns: Default::default(),
        },
        span: Some(s.span()),
    };
    if let Some(n) = &a.name {
        if n.get_ref().trim().is_empty() || n.get_ref().chars().any(char::is_control) {
            return Err(src.error(
                Some(n.span()),
                "[anchor] name: expected a short non-empty name such as \"v1.4\"",
            ));
        }
    }
    Ok(Some(AnchorSettings {
        file: spec(&a.file),
        name: a.name.as_ref().map(|n| n.get_ref().clone()),
        ledger: a.ledger.as_ref().map(spec),
        span,
    }))
}
