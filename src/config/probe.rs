//! `[probe]`: the two sides' runs on unlabelled queries (logged queries nobody judged), in any
//! run format `eval` reads. Their rankings say whether the change moved any top k at all, and
//! bound what it could have cost where it did; `[inputs]` stays the labelled evaluation.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::span::SourceText;
use super::{resolve, InputKind, InputSpec};
use crate::error::Result;

/// Rank-biased overlap persistence when `[probe] persistence` is not given: the top 10 carry
/// about 86% of the weight (Webber, Moffat & Zobel 2010).
pub const DEFAULT_PERSISTENCE: f64 = 0.9;

/// `[probe]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawProbe {
    /// The baseline's run on the probe queries.
    pub baseline: Spanned<String>,
    /// The candidate's run on the same queries.
    pub candidate: Spanned<String>,
    /// The runs' format; default: `[eval] run-format`, else sniffed from each file (checked
    /// where the runs are read, `eval::probe_runs`).
    pub run_format: Option<Spanned<String>>,
    /// Rank-biased overlap persistence p, 0 < p < 1.
    pub persistence: Option<Spanned<f64>>,
}

/// `[probe]`, checked.
#[derive(Debug, Clone)]
pub struct ProbeSettings {
    pub baseline: InputSpec,
    pub candidate: InputSpec,
    /// `run-format` as written, with where it is written.
    pub run_format: Option<(String, Option<Range<usize>>)>,
    pub persistence: f64,
    /// Where `[probe]` is written, for errors about it.
    pub span: Option<Range<usize>>,
}

/// Checks `[probe]`: a persistence in (0, 1) (the run format and the gated ranking metrics
/// are checked where the runs are read, `check::probe`).
pub fn probe_settings(
    src: &SourceText,
    base: &std::path::Path,
    raw: Option<&Spanned<RawProbe>>,
) -> Result<Option<ProbeSettings>> {
    let Some(raw) = raw else { return Ok(None) };
    let span = Some(raw.span());
    let p = raw.get_ref();
    let persistence = match &p.persistence {
        None => DEFAULT_PERSISTENCE,
        Some(v) if *v.get_ref() > 0.0 && *v.get_ref() < 1.0 => *v.get_ref(),
        Some(v) => {
            return Err(src.error(
                Some(v.span()),
                format!(
                "[probe] persistence = {}: expected a number between 0 and 1 (exclusive), e.g. 0.9",
                v.get_ref()
            ),
            ))
        }
    };
    let spec = |s: &Spanned<String>| InputSpec {
        path: resolve(base, s.get_ref()),
        written: s.get_ref().clone(),
        kind: InputKind::Run,
        span: Some(s.span()),
    };
    Ok(Some(ProbeSettings {
        baseline: spec(&p.baseline),
        candidate: spec(&p.candidate),
        run_format: p
            .run_format
            .as_ref()
            .map(|f| (f.get_ref().clone(), Some(f.span()))),
        persistence,
        span,
    }))
}
