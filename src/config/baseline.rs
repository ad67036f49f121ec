//! `[baseline]` and `[inputs] baseline-commit`: how old and how far behind the pull request's
//! merge-base the baseline may be, what happens when there is none, and the commit it measured
//! when no `baseline fetch` recorded it.

use std::ops::Range;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::span::SourceText;
use crate::error::Result;

/// What a check does when there is no usable baseline: none was fetched, its provenance is
/// unknown while a limit needs it, or it is past a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnMissing {
    /// Exit 2 with what to do (the default: a gate that silently skips is no gate).
    #[default]
    Fail,
    /// A warning in the report (or, with no baseline at all, a warning and exit 0).
    Warn,
}

impl OnMissing {
    pub fn as_str(self) -> &'static str {
        match self {
            OnMissing::Fail => "fail",
            OnMissing::Warn => "warn",
        }
    }
}

/// `[baseline]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawBaseline {
    pub max_age_days: Option<Spanned<i64>>,
    pub max_commits_behind: Option<Spanned<i64>>,
    pub max_behind: Option<Spanned<i64>>,
    pub on_missing: Option<OnMissing>,
}

/// A limit and where the gate file sets it.
pub type Limit = (u64, Option<Range<usize>>);

#[derive(Debug, Clone, Default)]
pub struct BaselineSettings {
    pub max_age_days: Option<Limit>,
    pub max_commits_behind: Option<Limit>,
    /// How many commits the merge-base may lie behind the base branch (the compare API's
    /// `behind_by`): a fork that branched from an old commit is judged against an old baseline.
    pub max_behind: Option<Limit>,
    pub on_missing: OnMissing,
    /// `[inputs] baseline-commit`: the commit the baseline measured, when not fetched.
    pub commit: Option<String>,
    /// Today, for the baseline's age: set by the command (`--today`, `RAG_GATE_TODAY`, the
    /// clock); `None` leaves the age out.
    pub today: Option<crate::model::Date>,
}

/// Checks `[baseline]` (limits ≥ 0) and `[inputs] baseline-commit` (a commit id).
pub fn baseline_settings(
    src: &SourceText,
    raw: &RawBaseline,
    commit: &Option<Spanned<String>>,
) -> Result<BaselineSettings> {
    let limit = |v: &Option<Spanned<i64>>, key: &str| -> Result<Option<Limit>> {
        match v {
            Some(n) if *n.get_ref() < 0 => {
                Err(src.error(Some(n.span()), format!("[baseline] {key} must be ≥ 0")))
            }
            Some(n) => Ok(Some((*n.get_ref() as u64, Some(n.span())))),
            None => Ok(None),
        }
    };
    let commit = match commit {
        Some(c) if !is_commit(c.get_ref()) => {
            return Err(src.error(
                Some(c.span()),
                "[inputs] baseline-commit: expected a commit id (7 to 40 hex digits)",
            ))
        }
        Some(c) => Some(c.get_ref().to_ascii_lowercase()),
        None => None,
    };
    Ok(BaselineSettings {
        max_age_days: limit(&raw.max_age_days, "max-age-days")?,
        max_commits_behind: limit(&raw.max_commits_behind, "max-commits-behind")?,
        max_behind: limit(&raw.max_behind, "max-behind")?,
        on_missing: raw.on_missing.unwrap_or_default(),
        commit,
        today: None,
    })
}

/// 7 to 40 hex digits.
pub fn is_commit(s: &str) -> bool {
    (7..=40).contains(&s.len()) && s.chars().all(|c| c.is_ascii_hexdigit())
}
