//! Where a baseline came from: the provenance file `baseline fetch` writes beside what it
//! unpacked (`rag-gate-baseline.json`), and `check` reads next to its baseline file (in the
//! baseline's folder or a folder above it).
//!
//! The file says which commit the baseline measured, which workflow run made it and when, and
//! how many commits it lies behind the pull request's merge-base; or, when the fetch found no
//! baseline, why (`missing`), so that `[baseline] on-missing` can decide.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

pub mod assess;

/// The provenance file's name.
pub const FILE_NAME: &str = "rag-gate-baseline.json";
/// Its layout version.
pub const FORMAT: u32 = 1;
/// How many folders above the baseline file are searched for it.
const LEVELS_UP: usize = 4;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Provenance {
    pub provenance_format: u32,
    pub repository: String,
    pub workflow: String,
    pub branch: String,
    pub artifact: String,
    /// The pull request's merge-base the baseline was fetched for.
    pub merge_base: String,
    /// How many commits the base branch has past the merge-base (the compare API's
    /// `behind_by`); absent when GitHub did not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merge_base_behind: Option<u64>,
    /// Set when a baseline was found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found: Option<Found>,
    /// Set when none was: why, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Found {
    /// The commit the run evaluated.
    pub commit: String,
    /// Commits between it and the merge-base (0: the merge-base itself).
    pub commits_behind: usize,
    pub run_id: u64,
    /// The run's `created_at` (RFC 3339, UTC).
    pub run_date: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_url: Option<String>,
    /// The files unpacked from the artifact, relative to this file's folder.
    pub files: Vec<String>,
}

impl Provenance {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("plain data serialises") + "\n"
    }
}

/// Reads a provenance file (strictly: unknown keys are an error naming the file).
pub fn read(path: &Path) -> Result<Provenance> {
    let shown = path.display().to_string();
    let text = crate::load::source::read_text(path, &shown, "a rag-gate baseline provenance file")?;
    let p: Provenance = serde_json::from_str(&text).map_err(|e| {
        Error::input(
            &shown,
            e.line(),
            format!("not a rag-gate baseline provenance file: {e}"),
        )
    })?;
    if p.provenance_format > FORMAT {
        return Err(Error::input(
            &shown,
            0,
            format!(
                "provenance-format {} is newer than this rag-gate reads ({FORMAT}); upgrade rag-gate",
                p.provenance_format
            ),
        ));
    }
    Ok(p)
}

/// `YYYY-MM-DD` of an RFC 3339 time.
pub fn date_of(rfc3339: &str) -> Option<&str> {
    rfc3339.get(..10)
}

/// The recorded provenance for the baseline at `baseline` (which need not exist: a fetch that
/// found nothing leaves only the record): the nearest `rag-gate-baseline.json` in the
/// baseline's folder or up to four folders above it, and its content.
pub fn recorded(baseline: &Path) -> Result<Option<(PathBuf, Provenance)>> {
    let mut dir = baseline.parent();
    while let Some(d) = dir {
        if d.as_os_str().is_empty() || d.is_dir() {
            break;
        }
        dir = d.parent();
    }
    let dir = dir
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let Ok(dir) = std::fs::canonicalize(dir) else {
        return Ok(None);
    };
    let found = dir
        .ancestors()
        .take(LEVELS_UP + 1)
        .map(|d| d.join(FILE_NAME))
        .find(|p| p.is_file());
    match found {
        Some(p) => Ok(Some((p.clone(), read(&p)?))),
        None => Ok(None),
    }
}
